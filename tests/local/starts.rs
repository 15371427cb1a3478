//! Start positions players give, in the terminal (RULES.md, "Start positions that players give"):
//! a position its game's rules cannot play to an end is refused with the reason, and nothing is
//! created; a tricky but legal one plays on.

use crate::support::run_script;

/// The terminal's answer to `alice: challenge bob <variant> fen <fen>`, then `alice: games`.
async fn challenge(variant: &str, fen: &str) -> String {
    run_script(&format!("alice: challenge bob {variant} fen {fen}\nalice: games\n")).await
}

/// A start refused: the reason given, and no game made.
async fn refused(variant: &str, fen: &str, reason: &str) {
    let output = challenge(variant, fen).await;
    assert!(
        output.contains("(to alice) error: that position cannot start a game: ") && output.contains(reason),
        "{variant} {fen}: expected \"{reason}\" in:\n{output}"
    );
    assert!(!output.contains("Game #1"), "nothing is created: {output}");
}

#[tokio::test]
async fn the_five_starts_that_used_to_be_accepted_are_refused_with_their_reasons() {
    refused(
        "chess",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "White has no king: each side needs exactly one",
    )
    .await;
    refused(
        "chess",
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "Black's king on e8 is in check with White to move: it could be taken",
    )
    .await;
    refused(
        "chess",
        "QQQQQQQQ/QQQQQQQQ/8/8/8/8/qqqqqqqq/qqqqqqqq w - - 0 1",
        "White has no king",
    )
    .await;
    refused(
        "chess",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "a White pawn stands on a1, its own first rank",
    )
    .await;
    refused(
        "chess",
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        "with White to move, an en passant square is on rank 6",
    )
    .await;
    refused(
        "ctf",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bases:e6,d5",
        "e6",
    )
    .await;
    refused(
        "beirut",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "White has no unit but its king to carry the bomb",
    )
    .await;
}

#[tokio::test]
async fn a_position_already_over_is_refused() {
    refused(
        "chess",
        "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1",
        "this position is already over (checkmate): nothing would be left to play",
    )
    .await;
    refused(
        "chess",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "this position is already over (stalemate)",
    )
    .await;
}

#[tokio::test]
async fn castling_rights_without_their_rooks_are_dropped_and_the_first_post_says_so() {
    let output = run_script(
        "alice: challenge bob chess white fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w KQkq - 0 1\n\
         bob: accept\n\
         alice: move e4\n",
    )
    .await;
    assert!(
        output.contains("Castling rights dropped: KQkq (their king or rook is not on its starting square)."),
        "{output}"
    );
    assert!(output.contains("alice played e4"), "{output}");
}

#[tokio::test]
async fn tricky_but_legal_starts_play_on() {
    // Black to move after a double step, with its en passant square.
    let output = run_script(
        "alice: challenge bob chess black fen rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3\n\
         bob: accept\n\
         alice: move dxe3\n",
    )
    .await;
    assert!(!output.contains("error:"), "{output}");
    assert!(output.contains("alice played dxe3"), "{output}");
    // Castling with both rooks home, on both wings.
    let output = run_script(
        "alice: challenge bob chess white fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\n\
         bob: accept\n\
         alice: move O-O-O\n\
         bob: move O-O\n",
    )
    .await;
    assert!(!output.contains("error:"), "{output}");
    assert!(
        output.contains("alice played O-O-O") && output.contains("bob played O-O"),
        "{output}"
    );
}

#[tokio::test]
async fn the_computer_refuses_the_same_starts_and_says_why() {
    let output = run_script("alice: challenge arbiter chess fen 8/8/8/8/8/8/8/8 w - - 0 1\nalice: games\n").await;
    assert!(
        output.contains("that position cannot start a game: White has no king"),
        "{output}"
    );
    assert!(!output.contains("Game #1"), "{output}");
}

#[tokio::test]
async fn an_imported_records_start_is_checked_like_any_other() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let record = dir.join("checked.pgn");
    std::fs::write(
        &record,
        "[Variant \"chess\"]\n[FEN \"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd2 *\n",
    )
    .unwrap();
    let output = run_script(&format!("alice: import {} as white\nalice: games\n", record.display())).await;
    assert!(
        output.contains("Black's king on e8 is in check with White to move: it could be taken"),
        "{output}"
    );
    assert!(!output.contains("Game #1"), "{output}");
}

/// The analysis tools compute on any position that parses, and say on standard error what a
/// game would refuse.
#[test]
fn the_analysis_tools_take_any_position_and_say_what_a_game_would_refuse() {
    let fen = "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1";
    let run = crate::support::arbiter_binary()
        .args(["perft", "--variant", "chess", "--fen", fen, "1"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout
            .trim_end()
            .lines()
            .last()
            .is_some_and(|last| last.trim().parse::<u64>().is_ok()),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("note: a game could not start from this position: Black's king on e8 is in check"),
        "{stderr}"
    );
    // A game's own start is one, even Pick-the-team's empty board to pick onto.
    for variant in ["chess", "pick-the-team"] {
        let fine = crate::support::arbiter_binary()
            .args(["perft", "--variant", variant, "1"])
            .output()
            .unwrap();
        assert!(fine.status.success(), "{fine:?}");
        assert!(
            String::from_utf8_lossy(&fine.stderr).trim().is_empty(),
            "{variant}: {fine:?}"
        );
    }
}

#[tokio::test]
async fn a_castling_right_whose_king_is_off_its_square_is_dropped_and_said() {
    let output = run_script(
        "alice: challenge bob chess white fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/5K1R w K - 0 1\n\
         bob: accept\n\
         alice: move O-O\n\
         alice: move Kg1\n",
    )
    .await;
    assert!(
        output.contains("Castling rights dropped: K (their king or rook is not on its starting square)."),
        "{output}"
    );
    assert!(
        output.contains("(to alice) error:") && output.contains("O-O"),
        "{output}"
    );
    assert!(output.contains("alice played Kg1"), "{output}");
}
