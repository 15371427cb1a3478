//! The search's ordering of actions, tried on positions built for it.

use super::*;
use crate::ai::evaluate::Evaluator;
use crate::ai::history::MOST_HISTORY;
use crate::game::Viewer;
use crate::variants::VariantId;

fn quiet_move(from: &str, to: &str) -> Action {
    Action::Move {
        from: crate::geometry::Square::parse(from).unwrap(),
        to: crate::geometry::Square::parse(to).unwrap(),
        promotion: None,
        choice: None,
        board: 0,
    }
}

/// Enough for a search whose ordering alone is tried.
const ONE_NODE: Budget = Budget {
    nodes: 1,
    time: Duration::MAX,
};

#[test]
fn quiet_moves_that_cut_off_before_are_tried_first_after_captures_and_killers() {
    let game = AnyGame::from_fen(VariantId::Chess, "4k3/8/8/3p4/8/8/8/R3K1NR w K - 0 1").unwrap();
    let mut evaluator = Evaluator::new(Seat::First, VariantId::Chess);
    let mut search = Search::new(Seat::First, &mut evaluator, ONE_NODE);
    let sight = game.sight(Viewer::Seat(Seat::First));
    let (deep, shallow, killer) = (quiet_move("g1", "f3"), quiet_move("a1", "a7"), quiet_move("h1", "h7"));
    search.remember_cut(3, 4, &sight, Seat::First, deep.clone());
    search.remember_cut(5, 2, &sight, Seat::First, shallow.clone());
    // The other seat's history is its own.
    search.history.cut(Seat::Second, &quiet_move("e1", "d1"), 9);
    search.remember_cut(2, 1, &sight, Seat::First, killer.clone());
    let mut actions = game.legal_actions(Seat::First);
    let loud = search.order(&game, &sight, Seat::First, 2, &mut actions);
    assert_eq!(loud, 1, "the killer of this ply (no capture here)");
    assert_eq!(actions[..3], [killer, deep, shallow]);
    assert_eq!(search.history.of(Seat::First, &quiet_move("e1", "d1")), 0);
    for _ in 0..100_000 {
        search.history.cut(Seat::First, &actions[1], 64);
    }
    assert_eq!(
        search.history.of(Seat::First, &actions[1]),
        MOST_HISTORY,
        "below a killer's place"
    );
}

#[test]
fn a_capture_that_loses_the_capturer_comes_after_the_killers_and_before_quiet_moves() {
    // Rxa5 and Qxa5 take a knight nothing guards; Qxd5 gives the queen for a pawn c6 guards.
    let game = AnyGame::from_fen(VariantId::Chess, "4k3/8/2p5/n2p4/8/8/3Q4/R3K3 w - - 0 1").unwrap();
    let mut evaluator = Evaluator::new(Seat::First, VariantId::Chess);
    let mut search = Search::new(Seat::First, &mut evaluator, ONE_NODE);
    let sight = game.sight(Viewer::Seat(Seat::First));
    let killer = quiet_move("d2", "g5");
    search.remember_cut(2, 1, &sight, Seat::First, killer.clone());
    let mut actions = game.legal_actions(Seat::First);
    let loud = search.order(&game, &sight, Seat::First, 2, &mut actions);
    let named: Vec<String> = actions.iter().map(|a| game.notation(Seat::First, a)).collect();
    assert_eq!(named[..4], ["Rxa5", "Qxa5", "Qg5", "Qxd5"]);
    assert_eq!(loud, 4, "the captures and the killer");
    let loses = |search: &mut Search, action: &Action| {
        let capture = search.capture(&sight, Seat::First, action).unwrap();
        loses_capturer(&game, Seat::First, action, &capture)
    };
    assert!(loses(&mut search, &actions[3]));
    assert!(!loses(&mut search, &actions[0]));
}

#[test]
fn a_table_one_side_filled_does_not_mislead_the_other_sides_search() {
    // A GUI analysing a game asks for White's move, then Black's in the position after it: the
    // positions Black's search meets are the ones White's just stored, with White's scores.
    let budget = Budget {
        nodes: 20_000,
        time: Duration::MAX,
    };
    let white_to_move = AnyGame::from_fen(
        VariantId::Chess,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    )
    .unwrap();
    let mut table = Table::with_megabytes(4);
    let mut white = Evaluator::new(Seat::First, VariantId::Chess);
    let found = Search::new(Seat::First, &mut white, budget)
        .with_table(&mut table)
        .run(&white_to_move);
    let mut black_to_move = white_to_move.clone();
    black_to_move.apply(Seat::First, &found.scores[0].0).unwrap();
    let black_search = |table: &mut Table| {
        let mut black = Evaluator::new(Seat::Second, VariantId::Chess);
        Search::new(Seat::Second, &mut black, budget)
            .with_table(table)
            .run(&black_to_move)
            .scores
    };
    let after_white = black_search(&mut table);
    let afresh = black_search(&mut Table::with_megabytes(4));
    assert_eq!(after_white, afresh);
}

#[test]
fn the_tables_best_is_tried_before_the_others_are_listed_and_not_again() {
    let game = AnyGame::from_fen(VariantId::Chess, "4k3/8/8/3p4/8/8/8/R3K1NR w K - 0 1").unwrap();
    let mut evaluator = Evaluator::new(Seat::First, VariantId::Chess);
    let mut search = Search::new(Seat::First, &mut evaluator, ONE_NODE);
    let sight = game.sight(Viewer::Seat(Seat::First));
    let best = quiet_move("g1", "f3");
    let mut tries = Tries::new(Some(best.clone()));
    let mut tried = Vec::new();
    while let Some((place, action)) = search.next_try(&mut tries, &game, &sight, Seat::First, 2) {
        assert_eq!(place, tried.len());
        if place == 0 {
            assert!(tries.rest.is_none(), "nothing listed yet");
            assert_eq!(tries.loud, 1, "the table's best counts as loud");
        }
        tried.push(action);
    }
    assert_eq!(tried[0], best);
    let mut legal = game.legal_actions(Seat::First);
    assert_eq!(tried.len(), legal.len(), "each action once");
    legal.sort_by_key(|action| format!("{action:?}"));
    tried.sort_by_key(|action| format!("{action:?}"));
    assert_eq!(tried, legal);
    assert!(!tries.none_listed);
}
