//! Help and refusals as a newcomer meets them: `help` lists every command with its options,
//! `help <command>` explains one, after a name too; a line without a name says how lines go;
//! `rules` without a game lists the games; a typed action is never guessed at, and is quoted as typed.

use crate::support::run_script;

#[tokio::test]
async fn help_lists_every_command_with_its_options_and_explains_one() {
    let output = run_script("help\n").await;
    for usage in [
        "challenge <opponent> <variant> [white|black|random] [time <control>] [fen <FEN>]",
        "rematch [#id]",
        "claim [#id]",
        "settings reminders [thread|dm|off]",
        "leaderboard <variant>",
        "profile [user]",
        "deathmatch <player1> <player2> <advantage> <blockade|garden> [normal] [reserve]",
        "tournament join|withdraw|start|pair|close-round|standings|show [t<number>]",
        "`help <command>` explains one",
    ] {
        assert!(output.contains(usage), "`{usage}` missing from:\n{output}");
    }
    let output = run_script("help challenge\nalice: help move\nbob: help\n").await;
    assert!(output.contains("`time 3d` gives each move three days"), "{output}");
    assert!(output.contains("`legal` lists what you may write now"), "{output}");
    assert!(
        output.contains("Lines look like `alice: <command>`"),
        "after a name too: {output}"
    );
    assert!(!output.contains("unknown command"), "{output}");
}

#[tokio::test]
async fn a_line_without_a_name_or_help_for_nothing_says_what_to_write() {
    let output = run_script(":help\nhelp nonsense\nalice: help nonsense\n").await;
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(
        lines[0], "error: start the line with who acts, like `alice: move e4` (or type help)",
        "{output}"
    );
    assert!(
        lines[1].contains("there is no command \"nonsense\" (type help for the commands)"),
        "{output}"
    );
    assert!(
        lines[2].contains("(to alice) error: there is no command \"nonsense\""),
        "{output}"
    );
}

#[tokio::test]
async fn rules_without_a_game_or_with_an_unknown_one_lists_the_games() {
    let output = run_script("alice: rules\nalice: rules nonsense\n").await;
    assert!(
        output.contains("The games: `chess` (Chess), `blockade` (Blockade Chess)"),
        "{output}"
    );
    assert!(
        output.contains("there is no game called \"nonsense\"; the games are `chess` (Chess)"),
        "{output}"
    );
    assert!(output.contains("`easy-patch`"), "every game: {output}");
}

/// A bare square during CTF's base choice is refused with the way to write it (the choice is for
/// good: it is never guessed), and a refusal quotes what the player typed, as typed.
#[tokio::test]
async fn a_base_is_never_guessed_from_a_bare_square_and_errors_quote_the_typing() {
    let output =
        run_script("alice: challenge bob ctf white\nbob: accept\nalice: move e4\nbob: move Qx9\nalice: move base:e3\n")
            .await;
    assert!(
        output.contains("(to alice) error: first each player chooses a base, for good: to make it e4, write base:e4"),
        "{output}"
    );
    assert!(
        output.contains("(to bob) error: could not read \"Qx9\": choose a base like base:e3"),
        "{output}"
    );
    assert!(
        output.contains("(to alice) Recorded: `base:e3`."),
        "the base is chosen after: {output}"
    );
}

/// Messages written for the command that met them: a list's size in the singular, a Death Match
/// named in the command being written (when the asker has a part in several), a rematch asked
/// again while its challenge waits.
#[tokio::test]
async fn messages_speak_of_the_command_being_written() {
    let output = run_script(
        "alice: lists save one Queen\n\
         alice: lists show\n\
         alice: deathmatch bob carol bob blockade\n\
         alice: deathmatch dave erin dave garden\n\
         bob: side second\n\
         alice: addtime bob 30s\n\
         frank: challenge gina chess white\n\
         gina: accept\n\
         frank: resign\n\
         frank: rematch\n\
         frank: rematch\n",
    )
    .await;
    assert!(output.contains("Saved your list one (1 piece)."), "{output}");
    assert!(
        output.contains("one: 1 piece\n") || output.contains("one: 1 piece"),
        "{output}"
    );
    assert!(!output.contains("1 pieces"), "{output}");
    // bob has a part in one of the two matches: `side` finds it; their host must name one.
    assert!(
        output.contains("bob chose to play Black. The match begins."),
        "{output}"
    );
    assert!(output.contains("name the match, like `addtime bob 30s #3`"), "{output}");
    assert!(
        output.contains("is a challenge still waiting for an answer; a rematch follows a finished game"),
        "{output}"
    );
}

/// While the lists are written, Easy Patch asks for the marks its lists take (no `royal`), and a
/// move says where the game stands, before and after the player's list is in.
#[tokio::test]
async fn the_list_phase_asks_for_what_its_lists_take_and_says_where_it_stands() {
    let output = run_script(
        "alice: challenge bob easy-patch white\nbob: accept\n\
         alice: move e4\n\
         alice: list Queen, Q, Q; Rook, R, R; Bishop, B, B; Knight, N, N; Camel, CA, C; Cardinal, CD, BN; Wazir, W, W\n\
         alice: move e4\n",
    )
    .await;
    assert!(
        output.contains(
            "Send your list of 7 non-royal pieces: one piece a line, `name, symbol, betza`, then `pawn` if it is one."
        ),
        "{output}"
    );
    assert!(!output.contains("`royal` or `pawn`"), "{output}");
    assert!(
        output.contains("(to alice) error: \"e4\" is not a list of pieces, and first each player sends a list of pieces: yours is still to come"),
        "{output}"
    );
    assert!(
        output.contains("(to alice) error: \"e4\" is not a list of pieces, and your list is in; the picking begins once your opponent's is in"),
        "{output}"
    );
}

/// A refused move says the game's own rule when that is the reason, and a FEN that cannot be
/// read shows what one looks like.
#[tokio::test]
async fn refusals_say_the_rule_or_the_shape_they_expect() {
    let output = run_script(
        "alice: challenge bob domination white\nbob: accept\nalice: move e4\n\
         carol: challenge dave portal white\ndave: accept\ncarol: move e4\ndave: move e5\ncarol: move Bf1>b5\n\
         eve: challenge fay chess white fen notafen\n\
         gil: challenge hal knights-are-god white\nhal: accept\ngil: move Nf3\n\
         ian: challenge jo circe white\njo: accept\nian: move e4\njo: move d5\nian: move exd5(d7)\n\
         kim: challenge lee ultimate-battle white\nlee: accept\nkim: move Qd4\n",
    )
    .await;
    // A move written as another game writes it is told how this one does.
    for refusal in [
        "(to gil) error: Nf3 is not a legal move here: knights in this game leap only (1,3), like a camel",
        "(to ian) error: exd5(d7): the captured unit cannot be reborn on d7.",
        "(to kim) error: Qd4 is not a legal move here: Q is the mao here",
    ] {
        assert!(output.contains(refusal), "`{refusal}` missing from:\n{output}");
    }
    assert!(
        output.contains("(to alice) error: e4: White's first move may not end on d4 or e4 in Domination Chess"),
        "{output}"
    );
    assert!(
        output.contains(
            "(to carol) error: Bf1>b5: a move names the portal square it enters, like Bb5 (the piece comes out on f3)"
        ),
        "{output}"
    );
    assert!(
        output.contains("A FEN gives the ranks from the top down, separated by /")
            && output.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{output}"
    );
}

/// Asking for the legal moves out of turn is told what a move out of turn is told.
#[tokio::test]
async fn legal_and_move_out_of_turn_give_one_explanation() {
    let output = run_script("alice: challenge bob chess white\nbob: accept\nbob: legal\nbob: move e5\n").await;
    let said: Vec<&str> = output.lines().filter(|l| l.starts_with("(to bob) error:")).collect();
    assert_eq!(said, ["(to bob) error: it is not your turn in game #1"; 2], "{output}");
}

/// A takeback says which moves went, and whose.
#[tokio::test]
async fn a_takeback_names_the_moves_it_took_back() {
    let output = run_script(
        "alice: challenge bob chess white\nbob: accept\nalice: move e4\nbob: move e5\n\
         alice: takeback offer\nbob: takeback accept\n",
    )
    .await;
    assert!(
        output.contains("bob agreed to take back alice's e4 and bob's e5."),
        "{output}"
    );
}

/// An imported record whose result states no reason is not given one ("Normal" is how other
/// sites end a resignation and a mate alike).
#[tokio::test]
async fn an_imported_result_without_a_reason_is_not_given_one() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("no-reason.pgn");
    std::fs::write(
        &path,
        "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Termination \"Normal\"]\n\n1. f3 e5 2. g4 Nc6 0-1\n",
    )
    .unwrap();
    let output = run_script(&format!("alice: import {} as white\n", path.display())).await;
    assert!(
        output.contains("0-1 · alice (Black) wins by the record's result, which gives no reason."),
        "{output}"
    );
    assert!(!output.contains("resignation"), "{output}");
}

/// Every command the catalog gives the terminal is one the terminal knows: typed bare, each is
/// answered (with what it needs, or what it does), never as an unknown command.
#[tokio::test]
async fn every_command_in_the_terminals_help_is_one_it_knows() {
    let words: Vec<&str> = arbiter::commands::catalog::all()
        .filter_map(|command| command.terminal.as_ref())
        .flat_map(|terminal| terminal.words.iter().copied())
        // `wait` is a line of its own, with no name before it.
        .filter(|word| *word != "wait")
        .collect();
    assert!(words.len() > 30, "{words:?}");
    let script: String = words.iter().map(|word| format!("alice: {word}\n")).collect();
    let output = run_script(&format!("{script}wait 1s\n")).await;
    assert!(!output.contains("unknown command"), "{output}");
    assert!(!output.contains("`wait` takes a duration"), "{output}");
}

/// `legal` lists what the player may write now; `moves` shows the moves so far, without the
/// board (the terminal has it because the command layer declares it once for every transport).
#[tokio::test]
async fn legal_lists_the_actions_and_moves_shows_the_moves() {
    let output =
        run_script("alice: challenge bob chess white\nbob: accept\nalice: legal\nalice: move e4\nbob: moves\n").await;
    let legal = output
        .lines()
        .find(|line| line.starts_with("(to alice) Na3 Nc3 ") || line.starts_with("(to alice) Nc3 Na3 "))
        .unwrap_or_else(|| panic!("{output}"));
    assert!(legal.contains(" Nf3") && legal.contains(" e4"), "{legal}");
    let moves = output.split("(to bob) ").nth(1).unwrap_or_else(|| panic!("{output}"));
    assert!(moves.contains("\n1. e4\n"), "{moves}");
    assert!(
        !moves.contains("  8 r n b q k b n r"),
        "the moves alone, no board: {moves}"
    );
}

/// A command's words are read by its options: a bad game number, words it does not take, and
/// an option it needs are each named, with how the command is written.
#[tokio::test]
async fn a_commands_words_are_read_by_its_options() {
    let output = run_script(
        "alice: challenge bob chess white\nbob: accept\nalice: show #x\nalice: resign now please\n\
         alice: draw\nalice: move\nalice: draw offer #1\n",
    )
    .await;
    let errors: Vec<&str> = output.lines().filter(|line| line.contains("error:")).collect();
    assert_eq!(errors.len(), 4, "{output}");
    assert!(errors[0].contains("\"#x\" is not a game number"), "{}", errors[0]);
    assert!(
        errors[1].contains("\"now please\" is not understood here"),
        "{}",
        errors[1]
    );
    assert!(
        errors[2].contains("say the answer: `draw offer|accept|decline [#id]`"),
        "{}",
        errors[2]
    );
    assert!(
        errors[3].contains("say the action: `move [#id] <action>`"),
        "{}",
        errors[3]
    );
    assert!(output.contains("offers a draw"), "{output}");
}

/// The player's own commands read their options like every other: a leaderboard needs its game
/// (and says so), a profile takes a name, and the reminder setting a subcommand's word or not.
#[tokio::test]
async fn leaderboard_profile_and_settings_read_their_options() {
    let output = run_script(
        "alice: leaderboard\nalice: leaderboard nochess\nalice: leaderboard chess\nalice: profile bob\n\
         alice: settings reminders dm\nalice: settings\n",
    )
    .await;
    let errors: Vec<&str> = output.lines().filter(|line| line.contains("error:")).collect();
    assert_eq!(errors.len(), 2, "{output}");
    assert!(
        errors[0].contains("say the variant: `leaderboard <variant>`"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("there is no game called \"nochess\" (`rules` lists them)"),
        "{}",
        errors[1]
    );
    assert!(output.contains("(to alice) bob\n"), "bob's profile: {output}");
    let dm = output.matches("with a direct message").count();
    assert_eq!(dm, 2, "set, then shown: {output}");
}
