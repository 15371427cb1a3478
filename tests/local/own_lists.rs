//! Players' own pieces in the terminal: Pick-the-team version two, Patch and Easy Patch played
//! from the lists (a refused line, a correction, a change before the other list is in, a saved
//! list) through the reveal and the picking to a mate.

use crate::support::run_script;
use arbiter_engine::piece::Color;
use arbiter_engine::variants::pick_the_team::picker;

/// The errors a script hit, each line.
fn errors(output: &str) -> Vec<&str> {
    output.lines().filter(|l| l.contains("error:")).collect()
}

/// The picks in the order the snake gives them: White's in order, Black's in order.
fn picks(white: &str, black: &str) -> String {
    let (mut white, mut black) = (white.split_whitespace(), black.split_whitespace());
    let mut script = String::new();
    for index in 0.. {
        let (player, pick) = match picker(index) {
            Color::White => ("alice", white.next()),
            Color::Black => ("bob", black.next()),
        };
        let Some(pick) = pick else { break };
        script.push_str(&format!("{player}: move {pick}\n"));
    }
    script
}

const READY_PATCH: &str = "King, K, K, royal; Queen, Q, Q; Rook, R, R; Bishop, B, B; Knight, N, N; Camel, CA, C; \
    Ferz, F, F; Wazir, W, W; Alfil, AL, A; Dabbabah, DA, D; Threeleaper, H, H; Tripper, TR, G; \
    Pawn, P, fmWfcF, pawn; Chinese pawn, CP, fW, pawn; Fish pawn, FI, fmWfcFbW, pawn; \
    Chinese fish pawn, FC, fWbW, pawn";

#[tokio::test]
async fn an_easy_patch_game_goes_from_two_lists_to_scholars_mate() {
    let mut script = String::from("alice: challenge bob easy-patch white\nbob: accept\n");
    // A pao breaks the row rule; a list of one piece is too short; then alice's list is in.
    script.push_str(
        "alice: list Queen, Q, Q; Rook, R, R; Bishop, B, B; Knight, N, N; Camel, CA, C; Cardinal, CD, BN; Pao, PA, mRcpR\n\
         alice: list Queen, Q, Q\n\
         alice: list Queen, Q, Q; Rook, R, R; Bishop, B, B; Knight, N, N; Camel, CA, C; Cardinal, CD, BN; Chancellor, CH, RN\n",
    );
    // bob: a line that does not read; then two pieces alike under two symbols (Easy Patch lists
    // may hold a piece twice), which is his list.
    script.push_str(
        "bob: list Wazir, W, W; Ferz, F, F; Alfil, AL, A; Dabbabah, DA, D; Mann, MN, K; Threeleaper, H, H; Tripper, TR, Gx\n\
         bob: list Wazir, W, W; Ferz, F, F; Alfil, AL, A; Dabbabah, DA, D; Mann, MN, K; Threeleaper, H, H; Stepper, ST, WF\n\
         alice: list Queen, Q, Q; Rook, R, R\n\
         bob: rules #1\n",
    );
    script.push_str(&picks(
        "Q@d1 B@f1 N@b1 R@a1 CA@c1 CD@g1 CH@h1",
        "ST@a8 F@b8 AL@c8 DA@d8 W@g8 H@f8 MN@h8",
    ));
    script.push_str("alice: move e4\nbob: move e5\nalice: move Qh5\nbob: move a6\nalice: move Bc4\nbob: move b6\nalice: move Qxf7\n");
    let output = run_script(&script).await;
    assert!(
        output.contains("7. ✗ Pao (PA) `mRcpR`: standing on a1 with rows 1 and 2 full, it captures on a8 on the last row in one move"),
        "{output}"
    );
    assert!(
        output.contains("The list: a list has 7 pieces; this one has 1."),
        "{output}"
    );
    assert!(
        output.contains("7. ✗ `Tripper, TR, Gx`: the Betza \"Gx\" does not read at position 2"),
        "{output}"
    );
    assert!(
        output.contains("7. ✓ Stepper (ST) `WF`: 8 squares on an empty board"),
        "the same piece twice, under two symbols: {output}"
    );
    // The thread hears that a list is in, never what is in it.
    assert!(
        output.contains("[local] Game #1 · Easy Patch Chess\nalice submitted a list."),
        "{output}"
    );
    let before_reveal = &output[..output.find("both lists are in and revealed").expect("a reveal")];
    assert!(
        !before_reveal
            .lines()
            .filter(|l| l.starts_with("[local]"))
            .any(|l| l.contains("Chancellor")),
        "{before_reveal}"
    );
    assert!(
        output.contains("bob submitted a list: both lists are in and revealed, and the picking begins."),
        "{output}"
    );
    // Once both are in, a list is locked.
    assert!(
        output.contains("(to alice) error: the lists of your game #1 are locked: both are in"),
        "{output}"
    );
    assert!(output.contains("The pieces of game #1\n  "), "{output}");
    assert!(output.contains("Stepper, ST, WF"), "{output}");
    assert!(output.contains("alice played Qxf7#"), "{output}");
    assert!(output.contains("1-0 · alice (White) wins by checkmate."), "{output}");
    // The only errors are the refusals above.
    assert_eq!(errors(&output).len(), 1, "{:?}", errors(&output));
}

#[tokio::test]
async fn a_patch_game_is_played_from_a_saved_list_and_a_changed_one_to_mate() {
    let mut script = String::from("alice: challenge bob patch white\nbob: accept\n");
    // Bad input of every kind is refused with a reason, and nothing is recorded.
    let scratch = tempfile::tempdir().unwrap();
    let long = scratch.path().join("200-lines.txt");
    std::fs::write(&long, "Wazir, W, W\n".repeat(200)).unwrap();
    script.push_str(&format!("alice: list file {}\n", long.display()));
    script.push_str(&format!(
        "alice: list Big, BG, {}; Nested, NE, {}W; Noise, NO, xyz; Émile, EM, W; Wazir, W, W; Ferz, W, F\n",
        "W".repeat(300),
        "a".repeat(12)
    ));
    // Saved twice under one name in two cases: one list, replaced.
    script.push_str(&format!(
        "alice: lists save ready {READY_PATCH}\nalice: lists save READY {READY_PATCH}\nalice: lists show\n"
    ));
    // alice sends a list, then changes it (to her saved one) before bob's is in.
    script.push_str("alice: list King, K, K, royal; Queen, Q, Q\n");
    script.push_str("alice: list saved ready\n");
    script.push_str(&format!("bob: list {READY_PATCH}\n"));
    script.push_str(&picks(
        "K@e1 Q@d1 B@f1 R@a1 N@b1 CA@c1 AL@g1 DA@h1 W@a2 F@b2 CP@c2 FI@d2 P@e2 FC@f2 H@g2 TR@h2",
        "K@e8 Q@d8 R@a8 N@b8 B@c8 CA@f8 AL@g8 DA@h8 W@a7 P@b7 F@c7 CP@d7 FI@e7 TR@f7 H@g7 FC@h7",
    ));
    script.push_str("alice: move e4\nbob: move Wa6\nalice: move Qh5\nbob: move Wa5\nalice: move Bc4\nbob: move Wa4\nalice: move Qxf7\n");
    let output = run_script(&script).await;
    std::fs::remove_file(&long).unwrap();
    assert!(
        output.contains("this list has 200 lines; the longest list is 20 pieces"),
        "{output}"
    );
    for refusal in [
        "1. ✗ `Big, BG, WWWWWW",
        "2. ✗ `Nested, NE, aaaaaaaaaaaaW`: the Betza \"aaaaaaaaaaaaW\" does not read at position 4: a move has at most 4 legs",
        "3. ✗ `Noise, NO, xyz`: the Betza \"xyz\" does not read at position 1",
        "4. ✗ `Émile, EM, W`: the name \"Émile\" must be 1 to 30 letters",
        "6. ✗ Ferz (W) `F`: Wazir already uses the symbol W",
    ] {
        assert!(output.contains(refusal), "{refusal}: {output}");
    }
    assert!(output.contains("Your saved lists:\nready: 16 pieces\n"), "{output}");
    assert!(!output.contains("READY:"), "{output}");
    assert!(
        output.contains("The list: a list has 16 pieces; this one has 2."),
        "{output}"
    );
    assert!(
        output.contains("Your list for game #1 is in. Only you can see it until both lists are in"),
        "{output}"
    );
    assert!(output.contains("Pick 1 of 32: 32 pieces left in the pool"), "{output}");
    assert!(output.contains("alice played Qxf7#"), "{output}");
    assert!(output.contains("1-0 · alice (White) wins by checkmate."), "{output}");
    assert!(errors(&output).is_empty(), "{:?}", errors(&output));
}

#[tokio::test]
async fn a_pick_the_team_2_game_ends_in_a_smothered_mate_by_a_camel() {
    let ready = "King, K, K, royal; Queen, Q, Q; Rook, R, R; Bishop, B, B; Knight, N, N; Camel, CA, C; \
        Cardinal, CD, BN; Chancellor, CH, RN; Grasshopper, G, gQ; Knight-alfil, NA, NA; Ferz, F, F; \
        Wazir, W, W; Alfil, AL, A; Dabbabah, DA, D; Threeleaper, H, H; Tripper, TR, G; Pawn, P, fmWfcF, pawn; \
        Chinese pawn, CP, fW, pawn; Fish pawn, FI, fmWfcFbW, pawn; Chinese fish pawn, FC, fWbW, pawn";
    let mut script = String::from("alice: challenge bob pick-the-team-2 white\nbob: accept\n");
    // A royal centaur reaches 16 squares; then both send the ready list (each type twice).
    script.push_str(&format!(
        "alice: list {}\n",
        ready.replace("King, K, K, royal", "Centaur, CE, KN, royal")
    ));
    script.push_str(&format!("alice: list {ready}\nbob: list {ready}\n"));
    script.push_str(&picks(
        "K@f1 CA@e1 R@a1 N@b1 B@c1 Q@d1 CH@g1 G@h1 NA@i1 W@j1 P@a2 CP@b2 FI@c2 FC@d2 F@e2 DA@f2 H@g2 TR@h2 AL@i2 CD@j2",
        "K@f10 R@a10 N@b10 B@c10 Q@d10 CD@e10 CH@g10 G@h10 NA@i10 W@j10 P@a9 CP@b9 FI@c9 FC@d9 F@e9 DA@f9 H@g9 TR@h9 CA@i9 AL@j9",
    ));
    script.push_str("alice: move CAf4\nbob: move a8\nalice: move CAg7\n");
    let output = run_script(&script).await;
    assert!(output.contains("as the royal piece it reaches 16 squares"), "{output}");
    assert!(output.contains("Pick 1 of 40: 40 pieces left in the pool"), "{output}");
    assert!(output.contains("alice played CAg7#"), "{output}");
    assert!(output.contains("1-0 · alice (White) wins by checkmate."), "{output}");
    assert!(errors(&output).is_empty(), "{:?}", errors(&output));
}

/// The list rules as ruled, as a player meets them in the terminal: a camel cannon that hops a
/// screen off rows 1 and 2 to the last row, a Betza initial move, and a Patch list naming one
/// piece twice, each refused with what breaks the rule.
#[tokio::test]
async fn list_rules_are_explained_with_the_arrangement_that_breaks_them() {
    let script = "alice: challenge bob pick-the-team-2 white\nbob: accept\n\
        alice: list King, K, K, royal; Camel cannon, CC, pCC; Runner, RU, mfWifmnD, pawn\n\
        carol: challenge dan patch white\ndan: accept\n\
        carol: list Queen, Q, Q; Rook-bishop, RB, RB\n";
    let output = run_script(script).await;
    assert!(
        output.contains(
            "2. ✗ Camel cannon (CC) `pCC`: standing on a1 with rows 1 and 2 full and a piece on b4, it moves to d10 on the last row in one move"
        ),
        "{output}"
    );
    assert!(
        output.contains("3. ✗ `Runner, RU, mfWifmnD, pawn`: the Betza \"mfWifmnD\" has an initial move (`i`)"),
        "{output}"
    );
    assert!(
        output.contains("2. ✗ Rook-bishop (RB) `RB`: it is the same piece as Queen (Q)"),
        "{output}"
    );
}
