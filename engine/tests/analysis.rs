//! Analysis of finished games: in every game, a decisive blunder whose better action is known is
//! flagged as a blunder with that action, the moves around it are not, and what the end of the
//! game still hides from the viewer is never used.

use arbiter_engine::ai::analysis::{self, Analysis, Judgement};
use arbiter_engine::ai::{Budget, Start};
use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use std::time::Duration;

/// A budget that only nodes limit, so the tests judge alike on any machine.
fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: Duration::from_secs(600),
    }
}

/// The game of `id` from `fen` (or its start) after `actions`, each by the seat to act (the
/// first of them, where both may).
fn played(id: VariantId, fen: Option<&str>, actions: &[&str]) -> AnyGame {
    let mut game = match fen {
        Some(fen) => AnyGame::from_fen(id, fen).expect("the position reads"),
        None => AnyGame::new(id),
    };
    for text in actions {
        let seat = game.to_act()[0];
        let action = game
            .parse_action(seat, text)
            .unwrap_or_else(|e| panic!("{text} does not read: {e}"));
        game.apply(seat, &action)
            .unwrap_or_else(|e| panic!("{text} is not legal: {e}"));
    }
    game
}

/// The analysis of `game` as `viewer` sees its end.
fn analysed(id: VariantId, fen: Option<&str>, game: &AnyGame, viewer: Viewer, nodes: u64) -> Analysis {
    let start = Start {
        variant: id,
        fen: fen.map(str::to_string),
    };
    analysis::analyse(&start, &game.view(viewer), budget(nodes), 7).expect("the game replays")
}

/// The review of the record's entry `entry`, which must exist.
fn review(analysis: &Analysis, entry: usize) -> &analysis::Review {
    analysis
        .reviews
        .iter()
        .find(|r| r.entry == entry)
        .unwrap_or_else(|| panic!("entry {entry} is not reviewed: {:?}", analysis.reviews))
}

#[test]
fn in_chess_a_move_that_allows_mate_is_a_blunder_with_the_defence_named() {
    let game = played(
        VariantId::Chess,
        None,
        &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
    );
    let analysis = analysed(VariantId::Chess, None, &game, Viewer::Spectator, 20_000);
    assert_eq!(
        analysis.positions.len(),
        8,
        "a position before each move and after the last"
    );
    let nf6 = review(&analysis, 5);
    assert_eq!(nf6.seat, Seat::Second);
    assert_eq!(nf6.judgement, Some(Judgement::Blunder), "{nf6:?}");
    let best = nf6.best.as_deref().expect("a better move is named");
    assert!(
        ["g6", "Qe7", "Qf6", "Nh6"].contains(&best),
        "the better move defends f7: {best}"
    );
    assert_eq!(analysis.positions[7].chance, 1.0, "mate is a win");
    for entry in 0..5 {
        assert!(
            review(&analysis, entry).judgement <= Some(Judgement::Inaccuracy),
            "the opening moves are no mistakes: {:?}",
            review(&analysis, entry)
        );
    }
    let summary = analysis.summary(Seat::Second);
    assert_eq!((summary.blunders, summary.actions), (1, 3));
}
