//! Terminal play (`arbiter local`): a scripted game of each variant, start to finish, through the
//! same line commands a person types; and the real binary keeping a game between two runs.

use crate::support;
use crate::support::run_script;
use arbiter::local;
use std::process::{Command, Stdio};

fn assert_no_errors(output: &str) {
    assert!(
        !output.lines().any(|l| l.contains("error:")),
        "the script hit an error:\n{output}"
    );
}

#[tokio::test]
async fn a_chess_game_is_played_to_mate_in_the_terminal() {
    let output = run_script(
        "# Scholar's mate, with a declined draw offer on the way\n\
         alice: challenge bob chess white\n\
         bob: accept\n\
         alice: move e4\n\
         bob: move e5\n\
         alice: move Bc4\n\
         bob: draw offer\n\
         alice: draw decline\n\
         bob: move Nc6\n\
         alice: move Qh5\n\
         bob: move Nf6\n\
         alice: move Qxf7#\n\
         alice: export\n",
    )
    .await;
    assert_no_errors(&output);
    assert!(output.contains("alice played Qxf7#"), "{output}");
    assert!(output.contains("1-0 · alice (White) wins by checkmate."), "{output}");
    assert!(
        output.contains("[Result \"1-0\"]") && output.contains("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"),
        "{output}"
    );
    // The final board: the white queen on f7 (rank 7, file f) in the text board.
    assert!(output.contains("  7 p p p p . Q p p"), "{output}");
}

#[tokio::test]
async fn a_beirut_game_is_decided_by_a_detonation_in_the_terminal() {
    let output = run_script(
        "alice: challenge bob beirut white\n\
         bob: accept\n\
         alice: move bomb:g1\n\
         bob: move bomb:a7\n\
         alice: move Nf3\n\
         bob: move a6\n\
         alice: move Ng5\n\
         bob: move a5\n\
         alice: move Nxf7\n\
         bob: move a4\n\
         alice: move detonate\n",
    )
    .await;
    assert_no_errors(&output);
    // Each choice is confirmed privately; the public only hears that one was made.
    assert!(
        output.contains("(to alice) Recorded: `bomb:g1`. Nobody else can see it yet."),
        "{output}"
    );
    assert!(output.contains("alice chose a bomb carrier."), "{output}");
    let public: Vec<&str> = output.lines().filter(|l| l.starts_with("[local]")).collect();
    assert!(
        !public.iter().any(|l| l.contains("bomb:")),
        "a public line names a carrier: {public:?}"
    );
    // The news names what the blast destroyed.
    assert!(
        output.contains("alice detonated the bomb carried by White's knight on f7, destroying the carrier, "),
        "{output}"
    );
    assert!(
        output.contains("1-0 · alice (White) wins by blowing up the king."),
        "{output}"
    );
}

/// Black builds a corner cluster at h8 that White's pieces and one statue close for good.
const BLOCKADE_SETUP: &str = "\
alice: move R@f8
bob: move Q@h8
bob: move R@g8
alice: move B@f6
alice: move Q@a1
bob: move R@h7
bob: move B@g7
alice: move R@a3
alice: move B@a4
bob: move B@h6
";

#[tokio::test]
async fn a_garden_of_statues_game_ends_in_a_blockade_in_the_terminal() {
    let script = format!("alice: challenge bob garden white\nbob: accept\n{BLOCKADE_SETUP}alice: move Qa1-c1@g5\n");
    let output = run_script(&script).await;
    assert_no_errors(&output);
    assert!(
        output.contains("Red to move") || output.contains("(Red) to move"),
        "{output}"
    );
    assert!(output.contains("alice played Qa1-c1@g5"), "{output}");
    assert!(
        output.contains("1-0 · alice (Red) wins by no complete turn left."),
        "{output}"
    );
}

#[tokio::test]
async fn a_blockade_game_ends_when_the_set_up_walls_a_player_in() {
    let output = run_script(
        "alice: challenge bob blockade white\n\
         bob: accept\n\
         alice: move Q@a1\n\
         bob: move B@a3\n\
         bob: move R@c1\n\
         alice: move R@a2\n\
         alice: move R@b1\n\
         bob: move R@c3\n\
         bob: move B@g2\n\
         alice: move B@b2\n\
         alice: move B@h1\n\
         bob: move Q@e5\n\
         bob: show\n",
    )
    .await;
    assert_no_errors(&output);
    assert!(
        output.contains("0-1 · bob (Black) wins by no complete turn left."),
        "{output}"
    );
}

/// A script in which alice (White) and bob (Black) play `moves` in `variant`.
fn game_script(variant: &str, moves: &str) -> String {
    let mut script = format!("alice: challenge bob {variant} white\nbob: accept\n");
    for (i, mv) in moves.split_whitespace().enumerate() {
        let player = if i % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("{player}: move {mv}\n"));
    }
    script
}

#[tokio::test]
async fn a_circe_game_in_which_a_rebirth_blocks_a_check_ends_in_mate() {
    let output = run_script(&game_script("circe", "f4 e5 g4 Qh4+ fxe5(g3) Qxh2(g6) gxh7(e3) Qf2#")).await;
    assert_no_errors(&output);
    assert!(
        output.contains("alice played fxe5(g3)"),
        "the pawn put back on g3 blocks the check: {output}"
    );
    assert!(output.contains("bob played Qf2#"), "{output}");
    assert!(output.contains("0-1 · bob (Black) wins by checkmate."), "{output}");
}

#[tokio::test]
async fn a_portal_game_ends_in_a_mate_through_a_portal() {
    // The white king went through f3 to b5; Qg4 attacks f3, and so b5, through the portal.
    let output = run_script(&game_script("portal", "f3 a6 bxa6 e5 axb7 f6 Kf2 Qh4+ Kf3 Qg4#")).await;
    assert_no_errors(&output);
    assert!(output.contains("alice played f3>b5"), "{output}");
    assert!(output.contains("alice played Kf3>b5"), "{output}");
    assert!(output.contains("bob played Qg4#"), "{output}");
    assert!(output.contains("0-1 · bob (Black) wins by checkmate."), "{output}");
}

#[tokio::test]
async fn a_knights_are_god_game_ends_in_a_mate_by_a_camel_knight() {
    let output = run_script(&game_script("knights-are-god", "b1a4 b8c5 a4d5")).await;
    assert_no_errors(&output);
    assert!(output.contains("alice played Nd5#"), "{output}");
    assert!(output.contains("1-0 · alice (White) wins by checkmate."), "{output}");
}

#[tokio::test]
async fn a_domination_game_runs_its_thirty_turns_and_the_higher_score_wins() {
    let output = run_script(&game_script(
        "domination",
        "g4 e6 h4 d5 d4 Qxh4 e4 b6 Rxh4 dxe4 Bb5+ Nc6 Qe2 Bd7 Qxe4 Ne5 a3 Nc4 Qf5 f6 Qxe6+ Kd8 f3 Rb8 Qe5 Nxe5 Ne2 c5 d5 c4 Rxh7 a5 Rh5 Bxg4 Rxh8 Bb4+ Kf2 Bh3 Rh6 Nf7 Rxf6 Ne5 b3 gxf6 Ng3 Bxa3 Ne4 Nd3+ cxd3 Kc7 b4 Bf1 Nxa3 Nh6 Kg3 Rg8+ Kh2 Rg5 Bxc4 Rxd5",
    ))
    .await;
    assert_no_errors(&output);
    assert!(
        output.contains("Score: White 0, Black 1 · turn 2/30"),
        "the score after each turn: {output}"
    );
    assert!(
        output.contains("1-0 · alice (White) wins by points when the turns ran out. Score: White 67, Black 40."),
        "{output}"
    );
}

#[tokio::test]
async fn a_domination_game_can_end_in_a_mate_before_the_thirty_turns() {
    let output = run_script(&game_script("domination", "f4 e6 g4 Qh4#")).await;
    assert_no_errors(&output);
    assert!(
        output.contains("0-1 · bob (Black) wins by checkmate. Score: White 0, Black 0."),
        "{output}"
    );
}

#[tokio::test]
async fn mistakes_in_the_terminal_get_a_message_and_the_game_goes_on() {
    let output = run_script(
        "alice: challenge bob chess white\n\
         bob: accept\n\
         bob: move e5\n\
         alice: move e9\n\
         alice: frobnicate\n\
         move e4\n\
         alice: move e4\n",
    )
    .await;
    let errors: Vec<&str> = output.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 4, "{output}");
    assert!(errors[0].contains("(to bob)") && errors[0].contains("it is not your turn in game #1"));
    assert!(errors[1].contains("(to alice)"));
    assert!(errors[2].contains("unknown command \"frobnicate\""));
    assert!(errors[3].contains("start the line with who acts"));
    assert!(output.contains("alice played e4"), "{output}");
}

/// The real binary: one run starts a game and stops, a second run continues it from the embedded
/// store in the same data directory.
#[test]
fn the_binary_keeps_a_game_between_runs() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let run = |script: &str| {
        let mut child = support::arbiter_binary()
            .arg("local")
            .env("ARBITER_DATA_DIR", &dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        use std::io::Write;
        child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let first = run("alice: challenge bob chess white\nbob: accept\nalice: move f3\nbob: move e5\n");
    assert!(first.contains("bob played e5"), "{first}");
    let second = run("alice: move g4\nbob: move Qh4#\n");
    assert!(second.contains("0-1 · bob (Black) wins by checkmate."), "{second}");
    assert!(dir.join("arbiter.db").exists());
}

/// A developer's `.env` (here one pointing at a database nobody serves) reaches the program a
/// user starts, and never the one the tests start: `support::arbiter_binary` turns it off.
#[test]
fn the_binary_the_tests_start_ignores_the_developers_env_file() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join(".env"), "DATABASE_URL=postgres://nobody@127.0.0.1:9/none\n").unwrap();
    let run = |command: &mut Command| {
        use std::io::Write;
        let mut child = command
            .arg("local")
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        child.stdin.take().unwrap().write_all(b"alice: games\n").unwrap();
        child.wait_with_output().unwrap()
    };
    let ignored = run(&mut support::arbiter_binary());
    assert!(ignored.status.success(), "{}", String::from_utf8_lossy(&ignored.stderr));
    assert!(
        dir.join("data").join("arbiter.db").exists(),
        "without .env the embedded default is used"
    );
    let read = run(support::arbiter_binary().env_remove("ARBITER_NO_DOTENV"));
    assert!(
        !read.status.success(),
        "the .env's unreachable database is used when the file is on"
    );
    let said = String::from_utf8_lossy(&read.stderr);
    assert!(
        said.contains("127.0.0.1:9") || said.to_lowercase().contains("connect"),
        "{said}"
    );
}

/// With images on, every board the terminal prints is also drawn to a PNG file; private boards
/// carry their viewer's name, so a secret never lands in a public file.
#[tokio::test]
async fn the_terminal_draws_every_board_it_prints_to_a_png_file() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let images = local::ImageFiles::new(&dir);
    let script =
        "alice: challenge bob beirut white\nbob: accept\nalice: move bomb:d2\nbob: move bomb:e7\nalice: move e4\n";
    let mut out = Vec::new();
    local::run(&arena, script.as_bytes(), &mut out, Some(&images))
        .await
        .unwrap();
    let output = String::from_utf8(out).unwrap();
    let paths: Vec<&str> = output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("image: "))
        .collect();
    assert!(paths.len() >= 5, "{output}");
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{path}");
    }
    let public = dir.join("game-1-ply-3.png");
    let alices = dir.join("game-1-ply-1-alice.png");
    assert!(paths.contains(&public.to_str().unwrap()), "{output}");
    assert!(paths.contains(&alices.to_str().unwrap()), "{output}");
}

/// Each image file is named for what it shows: a list's sheet of pieces never takes the name of
/// a board (it used to overwrite the player's private board), and a game's own rules are named
/// for the game.
#[tokio::test]
async fn each_image_file_is_named_for_what_it_shows() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let images = local::ImageFiles::new(&dir);
    let script = "alice: challenge bob easy-patch white\nbob: accept\n\
                  alice: list Queen, Q, Q; Rook, R, R; Bishop, B, B; Knight, N, N; Camel, CA, C; Cardinal, CD, BN; Wazir, W, W\n\
                  alice: rules #1\n";
    let mut out = Vec::new();
    local::run(&arena, script.as_bytes(), &mut out, Some(&images))
        .await
        .unwrap();
    let output = String::from_utf8(out).unwrap();
    let paths: Vec<String> = output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("image: "))
        .map(|path| {
            std::path::Path::new(path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(
        paths.contains(&"game-1-pieces-alice.png".to_string()),
        "{paths:?}\n{output}"
    );
    assert!(
        !paths
            .iter()
            .any(|name| name.starts_with("game-0") || name.starts_with("board-ply")),
        "{paths:?}"
    );
    let unique: std::collections::HashSet<&String> = paths.iter().collect();
    assert_eq!(unique.len(), paths.len(), "no file written twice: {paths:?}");
}

/// A Death Match in the terminal: the clocks run beside the input and their warnings and the
/// forfeit print as they happen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_death_match_is_lost_on_time_with_the_clocks_shown() {
    let db = support::sqlite().await;
    let arena = arbiter::arena::Arena::new(db.store.clone(), std::sync::Arc::new(arbiter::clock::SystemClock));
    let script = "host: deathmatch alice bob alice garden 1s 1s\n\
                  bob: side first\n\
                  alice: side first\n\
                  wait 5s\n\
                  host: show #1\n";
    let mut out = Vec::new();
    local::run(&arena, script.as_bytes(), &mut out, None).await.unwrap();
    let output = String::from_utf8(out).unwrap();
    assert!(output.contains("alice holds the Advantage"), "{output}");
    assert!(output.contains("Colours are drawn at random in"), "{output}");
    assert!(
        output.contains("(to bob) error: only alice (who holds the Advantage)"),
        "{output}"
    );
    assert!(output.contains("⏱ alice (Red): 0:01 + 0:01 reserve"), "{output}");
    assert!(output.contains("alice: your normal time is over"), "{output}");
    assert!(output.contains("alice ran out of time."), "{output}");
    assert!(output.contains("0-1 · bob (Blue) wins by time."), "{output}");
}

#[tokio::test]
async fn a_terminal_death_match_is_won_by_blockade_and_hosts_run_the_clocks() {
    let script = format!(
        "host: deathmatch alice bob alice garden 60s 5m\n\
         alice: side first\n\
         host: pause\n\
         alice: move R@f8\n\
         host: resume\n\
         host: addtime bob 30s\n\
         {}alice: move Qa1-c1@g5\n",
        BLOCKADE_SETUP
    );
    let output = run_script(&script).await;
    let errors: Vec<&str> = output.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 1, "only the move during the pause fails: {output}");
    assert!(errors[0].contains("paused"), "{output}");
    assert!(output.contains("host paused the clocks.") && output.contains("host resumed the clocks."));
    assert!(output.contains("host gave bob 0:30 more reserve."), "{output}");
    assert!(output.contains("+ 5:30 reserve"), "{output}");
    assert!(
        output.contains("1-0 · alice (Red) wins by no complete turn left."),
        "{output}"
    );
}

#[tokio::test]
async fn a_pick_the_team_game_is_picked_and_played_to_mate_in_the_terminal() {
    const PICKS: &str = "K@a1 RN@h10 R@j10 B@f1 PA@h1 NC@e10 F@c10 ML@b1 DA@e1 G@i10 MP@d10 MB@g1 AS@c1 \
        FI@g10 NA@f10 CP@d1 BP@i1 DS@b10 N@a10 P@j1 JS@g2 FB@a9 CN@j9 CH@b2 MF@a2 DB@b9 CD@e9 FP@f2 AL@d2 \
        DF@g9 W@f9 Q@e2 MC@j2 CA@c9 FF@d9 DC@i2 BE@c2 BS@i9 DP@h9 FC@h2";
    let mut script = String::from("alice: challenge bob pick-the-team white\nbob: accept\n");
    // A pick out of turn, and a non-royal first pick, are refused.
    script.push_str("bob: move RN@h10\nalice: move Q@e1\n");
    for (index, pick) in PICKS.split_whitespace().enumerate() {
        let player = match arbiter_engine::variants::pick_the_team::picker(index) {
            arbiter_engine::piece::Color::White => "alice",
            arbiter_engine::piece::Color::Black => "bob",
        };
        script.push_str(&format!("{player}: move {pick}\n"));
        if index == 20 {
            script.push_str("bob: piece CN\n");
        }
    }
    script.push_str("alice: move Qe3\nbob: move BSh8\nalice: move Qj8\n");
    let output = run_script(&script).await;
    assert!(
        output.contains("(to bob) error: it is not your turn in game #1"),
        "{output}"
    );
    assert!(output.contains("your first pick must be royal"), "{output}");
    assert!(output.contains("alice played K@a1"), "{output}");
    assert!(
        output.contains("    pool: RN Q R N B CN PA"),
        "the pool under the board: {output}"
    );
    assert!(output.contains("Pick 2 of 40: 39 pieces left in the pool"), "{output}");
    assert!(output.contains("bob played RN@h10"), "{output}");
    assert!(
        output.contains("Chinese nightrider (`CN`)"),
        "the card mid-game: {output}"
    );
    // After the last pick both home rows are full and White moves first.
    assert!(
        output
            .contains("alice played FC@h2\nalice (White) to move.\n 10 n    (ds) f    (mp) (nc) (na) (fi) (rn) g    r"),
        "{output}"
    );
    assert!(output.contains("alice played Qj8#"), "{output}");
    assert!(output.contains("1-0 · alice (White) wins by checkmate."), "{output}");
}

#[tokio::test]
async fn an_assault_match_is_played_in_secret_half_turns_to_a_mate_on_board_2() {
    // Each step: alice (A) first, then bob (B); B's queen mates A's black king on board 2.
    let moves = "e4 e4 g5 Nf6 Nc3 Nh3 f6 Nxe4 Rb1 Qh5";
    let mut script = game_script("assault", moves);
    // A second move in the same half-turn, and a look at the board before the reveal.
    script = script.replacen("alice: move g5\n", "alice: move g5\nalice: move g6\nalice: show\n", 1);
    let output = run_script(&script).await;
    assert!(
        output.contains("(to alice) error: you have already made your choice; wait for your opponent"),
        "{output}"
    );
    // `show` lists each board's moves, not one list mixing both boards.
    assert!(output.contains("alice (A) vs bob (B)\nbob (B) to move."), "{output}");
    let output = output.replace(
        "(to alice) error: you have already made your choice; wait for your opponent\n",
        "",
    );
    assert_no_errors(&output);
    assert!(output.contains("alice challenges bob (alice plays A)"), "{output}");
    assert!(
        output.contains("White half-turn 1: A moves on board 1, B moves on board 2."),
        "{output}"
    );
    // alice's move is confirmed to her alone; the public hears only that she submitted one.
    assert!(
        output.contains("[local] Game #1 · Assault Chess\nalice submitted a move on board 2."),
        "{output}"
    );
    assert!(
        output.contains(
            "(to alice) Recorded: `g5`. Nobody else can see it yet.\nYour move on board 2 (g5) is in; waiting for B."
        ),
        "{output}"
    );
    let public_before_reveal = output
        .split("alice submitted a move on board 2.")
        .nth(1)
        .and_then(|rest| rest.split("bob played Nf6").next())
        .unwrap();
    let public: Vec<&str> = public_before_reveal
        .lines()
        .filter(|l| !l.starts_with("(to alice)") && !l.starts_with("Your move"))
        .collect();
    assert!(
        !public.iter().any(|l| l.contains("g5")),
        "g5 shown before it was revealed: {public:?}"
    );
    assert!(output.contains("bob played Nf6 (revealed: alice's g5)"), "{output}");
    assert!(output.contains("Board 2: 1. e4 g5 2. Nh3 f6"), "{output}");
    assert!(output.contains("bob played Qh5# (revealed: alice's Rb1)"), "{output}");
    assert!(output.contains("0-1 · bob (B) wins by checkmate."), "{output}");
}

#[tokio::test]
async fn a_rejection_game_with_a_rejection_ends_in_mate_in_the_terminal() {
    let script = "alice: challenge bob rejection white\nbob: accept\n\
        alice: move f3\nbob: move accept\n\
        bob: move e6\nalice: move reject\nbob: move e5\n\
        alice: move g4\nbob: move accept\n\
        bob: move Qh4#\nalice: move accept\n";
    let output = run_script(script).await;
    assert_no_errors(&output);
    assert!(output.contains("alice proposed a move."), "{output}");
    // The answerer is to answer the proposal, not to move; once it is answered, a move is due.
    assert!(
        output.contains("alice proposed a move.\nbob (Black) to answer."),
        "{output}"
    );
    assert!(
        output.contains("bob accepted White's f3.\nbob (Black) to move."),
        "{output}"
    );
    assert!(
        output.contains("[DM to bob] Game #1 · Rejection Chess: White proposes f3"),
        "{output}"
    );
    assert!(output.contains("bob accepted White's f3."), "{output}");
    assert!(
        output.contains("alice rejected Black's proposal; Black plays another move."),
        "{output}"
    );
    assert!(
        output.contains("[DM to bob] Game #1 · Rejection Chess: White rejected e6."),
        "{output}"
    );
    assert!(
        output.contains("bob played e5 in place of the rejected proposal."),
        "{output}"
    );
    assert!(output.contains("alice accepted Black's Qh4#."), "{output}");
    assert!(output.contains("0-1 · bob (Black) wins by checkmate."), "{output}");
    // Public posts never name the rejected e6 (private lines start with "(to" or "[DM to", and
    // what follows them until the next post is theirs too).
    let mut is_public = false;
    for line in output.lines() {
        if line.starts_with("[local]") {
            is_public = true;
        } else if line.starts_with("(to ") || line.starts_with("[DM to") {
            is_public = false;
        }
        assert!(
            !(is_public && line.contains("e6")),
            "the rejected move in public: {line}"
        );
    }
}

#[tokio::test]
async fn a_capture_the_flag_game_is_won_by_bringing_the_flag_home_in_the_terminal() {
    let moves = "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 drop h6 Ne3 h5 Nc4 h4 Ne5 Rh5 Nf3";
    let mut script = String::from("alice: challenge bob ctf white\nbob: accept\n");
    for (i, mv) in moves.split_whitespace().enumerate() {
        let player = if i % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("{player}: move {mv}\n"));
    }
    let output = run_script(&script).await;
    assert_no_errors(&output);
    assert!(output.contains("alice chose a base."), "{output}");
    assert!(
        output.contains("bob played base:e5 (revealed: alice's base:f3)"),
        "{output}"
    );
    assert!(
        output.contains("Black's flag: carried by a White piece on e5"),
        "{output}"
    );
    assert!(output.contains("alice played drop"), "{output}");
    assert!(
        output.contains("Black's flag: lying on c4 (its base is e5)"),
        "{output}"
    );
    assert!(output.contains("alice played [N]f3"), "{output}");
    assert!(
        output.contains("1-0 · alice (White) wins by bringing the flag home."),
        "{output}"
    );
}

/// A record's tags name bob and carol: imported by mallory, it is mallory's study and nobody
/// else's; named ids are names only; nothing imported moves a rating, played to mate or not.
#[tokio::test]
async fn a_forged_record_makes_nobody_a_player_and_an_imported_game_is_never_rated() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let forged = dir.join("forged.pgn");
    std::fs::write(
        &forged,
        "[White \"bob\"]\n[Black \"carol\"]\n[WhiteId \"local:bob\"]\n[BlackId \"local:carol\"]\n\n1. f3 e5 2. g4 *\n",
    )
    .unwrap();
    let path = forged.display();
    let output = run_script(&format!(
        "mallory: import {path}\n\
         mallory: import {path} as white\n\
         carol: move Qh4#\n\
         bob: move Qh4#\n\
         mallory: move Qh4#\n\
         mallory: profile\n\
         carol: profile\n\
         mallory: import {path} as black vs carol\n\
         bob: accept\n\
         carol: accept\n\
         mallory: move Qh4#\n\
         carol: profile\n\
         mallory: profile\n"
    ))
    .await;
    assert!(
        output.contains("(to mallory) error: say `import <file> as white`"),
        "{output}"
    );
    assert!(
        output.contains("mallory imported a game record (bob vs carol, 3 actions) to study, playing both sides"),
        "{output}"
    );
    assert!(
        output.contains("(to carol) error: you have no game"),
        "carol plays nothing: {output}"
    );
    assert!(
        output.contains("(to bob) error: you have no game"),
        "bob plays nothing: {output}"
    );
    assert!(output.contains("0-1 · mallory (Black) wins by checkmate."), "{output}");
    assert!(
        output.contains(
            "mallory offers carol the rest of an imported game (bob vs carol, 3 actions); mallory plays Black"
        ),
        "{output}"
    );
    assert!(
        output.contains("(to bob) error: you have no game challenging you"),
        "{output}"
    );
    assert!(
        output.contains("carol accepted. The game goes on from where its record ends."),
        "{output}"
    );
    assert_eq!(
        output.matches("0-1 · mallory (Black) wins by checkmate.").count(),
        2,
        "{output}"
    );
    let unrated = output.matches("No rated games on this server yet.").count();
    assert_eq!(unrated, 4, "every profile shows no rated game: {output}");
}

/// After a Death Match, a player asking for its rematch asks the host; the host starts it and
/// hosts it; no player gains a host's powers over either match.
#[tokio::test]
async fn a_death_match_players_rematch_asks_the_host_and_gives_no_host_powers() {
    let output = run_script(
        "host: deathmatch alice bob alice garden 60s 5m\n\
         alice: side first\n\
         host: adjudicate alice\n\
         alice: rematch #1\n\
         bob: rematch #1\n\
         alice: addtime alice 30s #1\n\
         alice: adjudicate alice #1\n\
         host: rematch #1\n\
         alice: side first #2\n\
         alice: addtime alice 30s #2\n\
         alice: adjudicate alice #2\n\
         alice: pause #2\n\
         host: pause #2\n\
         alice: deathmatch alice bob alice garden\n",
    )
    .await;
    assert!(
        output.contains("alice asks for a rematch. host, the rematch is yours to start"),
        "{output}"
    );
    assert!(
        output.contains("(to bob) error: the host (host) has been asked for a rematch of game #1 already"),
        "{output}"
    );
    assert!(output.contains("Death Match #2"), "{output}");
    assert!(output.contains("hosted by host"), "{output}");
    assert!(!output.contains("hosted by alice"), "{output}");
    let refused = output
        .lines()
        .filter(|l| l.starts_with("(to alice) error: only the host (host) or a host of this server runs game"))
        .count();
    assert_eq!(
        refused, 5,
        "alice's addtime and adjudicate on both matches, and pause: {output}"
    );
    assert!(output.contains("host paused the clocks."), "{output}");
    assert!(
        output.contains("(to alice) error: a host does not play in a match they run"),
        "{output}"
    );
}

#[tokio::test]
async fn the_computer_answers_each_move_in_the_terminal_before_the_next_line_is_read() {
    let output = run_script(
        "alice: challenge arbiter chess white easy\n\
         alice: move e4\n\
         alice: move d4\n\
         alice: takeback offer\n\
         alice: show\n\
         arbiter: resign\n\
         alice: challenge arbiter chess superb\n\
         alice: import game.pgn as white vs arbiter\n",
    )
    .await;
    assert!(
        output.contains("alice plays the computer, arbiter (level easy, not rated)"),
        "{output}"
    );
    let replies = output.lines().filter(|line| line.contains("arbiter played")).count();
    assert!(replies >= 2, "a reply to e4 and to d4:\n{output}");
    // Each reply comes before the next command's answer: alice's d4 follows the first reply.
    let first_reply = output.find("arbiter played").unwrap();
    assert!(first_reply < output.find("alice played d4").unwrap(), "{output}");
    assert!(output.contains("arbiter agreed to take back"), "{output}");
    assert!(
        output.contains("arbiter is the computer, and it plays by itself"),
        "{output}"
    );
    assert!(
        output.contains("\"superb\" is not white, black, random, time, fen, or a level"),
        "{output}"
    );
    assert!(
        output.contains("the computer does not take up imported games"),
        "{output}"
    );
}

/// `practice` plays the computer at once, as Discord's `/practice` does, through the same
/// request; a level for a person is refused the same way on both.
#[tokio::test]
async fn practice_plays_the_computer_at_once_as_discord_does() {
    let output = run_script(
        "alice: practice chess white hard\n\
         alice: move e4\n\
         bob: challenge carol chess hard\n\
         bob: practice\n\
         alice: help practice\n",
    )
    .await;
    assert!(
        output.contains("alice plays the computer, arbiter (level hard, not rated)"),
        "{output}"
    );
    assert!(output.contains("arbiter played"), "the computer answers e4:\n{output}");
    assert!(
        output.contains("(to bob) error: a level is for the computer: play it with `practice`"),
        "{output}"
    );
    assert!(output.contains("(to bob) error: say which variant"), "{output}");
    assert!(output.contains("practice <variant>"), "its help: {output}");
}
