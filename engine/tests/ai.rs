//! The computer opponent: it rebuilds each game from its seat's view alone, its actions are legal
//! by the game's own rules, and what it cannot see makes no difference to what it does.

use arbiter_engine::ai::{self, Level, Start, hidden};
use arbiter_engine::{Action, AnyGame, Game, Seat, VariantId, Viewer};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// A random game of `id` for `plies` actions (fewer if it ends), with the seat that acted each time.
fn random_game(id: VariantId, seed: u64, plies: usize) -> AnyGame {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = AnyGame::new(id);
    for _ in 0..plies {
        let to_act = game.to_act();
        let Some(&seat) = to_act.choose(&mut rng) else {
            break;
        };
        let action = match game.legal_actions(seat).choose(&mut rng) {
            Some(action) => action.clone(),
            None => break,
        };
        game.apply(seat, &action).expect("a legal action applies");
    }
    game
}

#[test]
fn every_game_is_rebuilt_from_a_seats_view_alone() {
    for &id in VariantId::ALL {
        for seed in 0..4u64 {
            let plies = 5 + 9 * seed as usize;
            let game = random_game(id, seed, plies);
            for seat in Seat::BOTH {
                let view = game.view(Viewer::Seat(seat));
                let mut rng = SmallRng::seed_from_u64(seed);
                let rebuilt = hidden::sample(&Start::new(id), &view, seat, &mut rng)
                    .unwrap_or_else(|| panic!("{id} seed {seed}: {seat:?}'s view rebuilds no game"));
                assert_eq!(
                    rebuilt.view(Viewer::Seat(seat)),
                    view,
                    "{id} seed {seed}: the game rebuilt looks different to {seat:?}"
                );
            }
        }
    }
}

#[test]
fn the_computer_only_takes_legal_actions_in_every_phase_of_every_game() {
    for &id in VariantId::ALL {
        let mut rng = SmallRng::seed_from_u64(id as u64);
        let mut game = AnyGame::new(id);
        let mut acted = 0;
        // The computer plays both seats at the easy level, through set-up, choices and play.
        while acted < 40 && game.outcome().is_none() {
            let seat = *game
                .to_act()
                .choose(&mut rng)
                .expect("a running game has a seat to act");
            let view = game.view(Viewer::Seat(seat));
            let thought = ai::think(&Start::new(id), &view, Level::Easy, rng.random())
                .unwrap_or_else(|| panic!("{id}: nothing to do for {seat:?}, who is to act"));
            game.apply(seat, &thought.action)
                .unwrap_or_else(|e| panic!("{id}: {seat:?}'s {:?} was refused: {e}", thought.action));
            acted += 1;
        }
    }
}

#[test]
fn a_seat_with_nothing_to_do_gets_no_action() {
    let game = AnyGame::new(VariantId::Chess);
    let view = game.view(Viewer::Seat(Seat::Second));
    assert_eq!(ai::think(&Start::new(VariantId::Chess), &view, Level::Normal, 1), None);
    let spectators = game.view(Viewer::Spectator);
    assert_eq!(
        ai::think(&Start::new(VariantId::Chess), &spectators, Level::Normal, 1),
        None
    );
}

/// Plays `moves` (seat, text) from the start of `id`.
fn played(id: VariantId, moves: &[(Seat, &str)]) -> AnyGame {
    let mut game = AnyGame::new(id);
    for (seat, text) in moves {
        let action = game.parse_action(*seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(*seat, &action).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    game
}

#[test]
fn what_the_other_side_hides_changes_nothing_the_computer_does() {
    // Beirut: Black's bomb carrier on d7 or on e7; White's view is the same, and so is its move.
    // CTF: Black's base on e6 or on d5, not yet revealed. Assault: B's sealed move on board 2.
    type Pair<'a> = (VariantId, Vec<(Seat, &'a str)>, Vec<(Seat, &'a str)>, Seat);
    let pairs: [Pair; 3] = [
        (
            VariantId::Beirut,
            vec![(Seat::First, "bomb:d2"), (Seat::Second, "bomb:d7")],
            vec![(Seat::First, "bomb:d2"), (Seat::Second, "bomb:e7")],
            Seat::First,
        ),
        (
            VariantId::Ctf,
            vec![(Seat::Second, "base:e6")],
            vec![(Seat::Second, "base:d5")],
            Seat::First,
        ),
        (
            VariantId::Assault,
            vec![(Seat::Second, "e4")],
            vec![(Seat::Second, "d4")],
            Seat::First,
        ),
    ];
    for (id, one, other, seat) in pairs {
        let (a, b) = (played(id, &one), played(id, &other));
        let (view_a, view_b) = (a.view(Viewer::Seat(seat)), b.view(Viewer::Seat(seat)));
        assert_eq!(view_a, view_b, "{id}: the secret is hidden from {seat:?}");
        assert_ne!(
            a.view(Viewer::Arbiter),
            b.view(Viewer::Arbiter),
            "{id}: the games differ"
        );
        for level in [Level::Easy, Level::Normal] {
            // Nodes alone bound the search, so a busy machine cannot cut one short and not the other.
            let budget = ai::Budget {
                time: std::time::Duration::from_secs(3600),
                ..level.budget()
            };
            let choose = |view| ai::think_within(&Start::new(id), view, level, budget, 7).map(|t| t.action);
            let action = choose(&view_a).unwrap_or_else(|| panic!("{id}: {seat:?} is to act"));
            assert_eq!(Some(action.clone()), choose(&view_b), "{id} {level}");
            // Whatever the secret, the action is legal in the real game.
            for game in [&a, &b] {
                let mut game = game.clone();
                game.apply(seat, &action)
                    .unwrap_or_else(|e| panic!("{id}: {action:?}: {e}"));
            }
        }
    }
}

#[test]
fn it_takes_a_free_queen_and_mates_in_one() {
    let start = Start {
        variant: VariantId::Chess,
        fen: Some("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1".into()),
    };
    let game = start.game().unwrap();
    let thought = ai::think(&start, &game.view(Viewer::Seat(Seat::First)), Level::Normal, 1).unwrap();
    assert_eq!(game.notation(Seat::First, &thought.action), "Rxd5");
    let start = Start {
        variant: VariantId::Chess,
        fen: Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".into()),
    };
    let game = start.game().unwrap();
    let thought = ai::think(&start, &game.view(Viewer::Seat(Seat::First)), Level::Easy, 1).unwrap();
    assert_eq!(game.notation(Seat::First, &thought.action), "Ra8#");
}

/// CTF: White's base is g1, a dark square; its light-squared bishop on d7 is next to Black's
/// flag on e8, its queen far away on a2, and Black (a pawn blocked on h7) can only pass. A bishop
/// can never bring the flag to a dark square, so the computer leaves it to the queen; and a bishop
/// that has caught it drops it for the queen to carry home, instead of holding it for ever.
#[test]
fn in_ctf_a_flag_goes_home_with_a_piece_that_can_get_there() {
    let start = Start {
        variant: VariantId::Ctf,
        fen: Some("8/3B3p/7P/8/8/8/Q7/8 w - - 0 1 bases:g1,e8".into()),
    };
    let budget = ai::Budget {
        nodes: 6_000,
        time: std::time::Duration::from_secs(60),
    };
    let game = start.game().unwrap();
    let first = ai::think_within(&start, &game.view(Viewer::Seat(Seat::First)), Level::Normal, budget, 1).unwrap();
    assert_ne!(
        game.notation(Seat::First, &first.action),
        "[B]e8",
        "the bishop would hold a flag it can never bring home"
    );

    let mut game = start.game().unwrap();
    for text in ["Be8", "pass"] {
        let seat = game.to_act()[0];
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap();
    }
    let mut played = Vec::new();
    while game.outcome().is_none() && played.len() < 24 {
        let seat = game.to_act()[0];
        let action = match seat {
            Seat::First => {
                ai::think_within(&start, &game.view(Viewer::Seat(seat)), Level::Normal, budget, 1)
                    .unwrap()
                    .action
            }
            Seat::Second => game.parse_action(seat, "pass").unwrap(),
        };
        played.push(game.notation(seat, &action));
        game.apply(seat, &action).unwrap();
    }
    let outcome = game.outcome().unwrap_or_else(|| panic!("no result after {played:?}"));
    assert_eq!(outcome.winner, Some(Seat::First), "{outcome:?} after {played:?}");
}

#[test]
fn its_lists_are_accepted_and_differ_from_game_to_game() {
    for id in [VariantId::PickTheTeam2, VariantId::Patch, VariantId::EasyPatch] {
        let game = AnyGame::new(id);
        let view = game.view(Viewer::Seat(Seat::First));
        let lists: std::collections::HashSet<Action> = (0..4)
            .map(|seed| {
                let action = ai::think(&Start::new(id), &view, Level::Normal, seed).unwrap().action;
                let mut game = game.clone();
                game.apply(Seat::First, &action).unwrap_or_else(|e| panic!("{id}: {e}"));
                action
            })
            .collect();
        assert!(lists.len() >= 3, "{id}: {} different lists in 4 games", lists.len());
    }
}

/// Nodes a second for each game, from its start and from a position some way in (not a test:
/// `cargo test -p arbiter-engine --test ai -- --ignored --nocapture search_speed`).
#[test]
#[ignore]
fn search_speed() {
    let only = std::env::var("AI_SPEED_VARIANT").ok();
    for &id in VariantId::ALL {
        if only.as_deref().is_some_and(|only| only != id.as_str()) {
            continue;
        }
        let game = random_game(id, 3, 24);
        let Some(&seat) = game.to_act().first() else { continue };
        let view = game.view(Viewer::Seat(seat));
        let budget = ai::Budget {
            nodes: 20_000,
            time: std::time::Duration::from_secs(10),
        };
        let t = ai::think_within(&Start::new(id), &view, Level::Normal, budget, 1).unwrap();
        println!(
            "{id:>16}: {:>7} nodes in {:>5} ms: {:>7.0} nodes/s, depth {}",
            t.nodes,
            t.elapsed.as_millis(),
            t.nodes as f64 / t.elapsed.as_secs_f64(),
            t.depth
        );
    }
}

/// The search of a position to a fixed depth, with a table of positions or without: its best
/// action, score and nodes.
fn searched(fen: &str, depth: u32, table: Option<&mut ai::table::Table>) -> (Action, i32, u64) {
    let game = AnyGame::from_fen(VariantId::Chess, fen).unwrap();
    let seat = game.to_act()[0];
    let mut evaluator = ai::evaluate::Evaluator::new(seat, VariantId::Chess);
    let budget = ai::Budget {
        nodes: u64::MAX,
        time: std::time::Duration::MAX,
    };
    let search = ai::search::Search::new(seat, &mut evaluator, budget).no_deeper_than(depth);
    let found = match table {
        Some(table) => search.with_table(table).run(&game),
        None => search.run(&game),
    };
    let (action, score) = found.scores[0].clone();
    // A search ends at its depth, or sooner on a win or loss it is sure of.
    assert!(
        found.depth == depth || score.abs() > ai::search::WIN / 2,
        "{}",
        found.depth
    );
    (action, score, found.nodes)
}

#[test]
fn a_table_of_positions_finds_the_same_move_with_fewer_nodes() {
    // A middlegame where many orders of moves transpose.
    let middlegame = "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 w kq - 2 7";
    let (plain, plain_score, plain_nodes) = searched(middlegame, 5, None);
    let mut table = ai::table::Table::with_megabytes(4);
    let (tabled, tabled_score, tabled_nodes) = searched(middlegame, 5, Some(&mut table));
    assert_eq!((&tabled, tabled_score), (&plain, plain_score));
    assert!(tabled_nodes < plain_nodes, "{tabled_nodes} < {plain_nodes}");
    // Kept from one search to the next (a UCI engine's next `go`), the table settles much of it.
    let (again, _, again_nodes) = searched(middlegame, 5, Some(&mut table));
    assert_eq!(again, plain);
    assert!(again_nodes < tabled_nodes, "{again_nodes} < {tabled_nodes}");
    // A back-rank mate: a win's distance from the root survives the table.
    let mate = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let (_, score, _) = searched(mate, 3, Some(&mut ai::table::Table::with_megabytes(1)));
    assert_eq!(score, ai::search::WIN - 1, "Rd8 mates at once");
}

#[test]
fn the_pruned_search_still_finds_a_sacrifice_that_mates_in_two() {
    // 1.Nf6+ gxf6 2.Bxf7#: a knight given away first, a quiet-looking line for the pruning.
    let puzzle = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let game = AnyGame::from_fen(VariantId::Chess, puzzle).unwrap();
    let (action, score, _) = searched(puzzle, 5, Some(&mut ai::table::Table::with_megabytes(1)));
    assert_eq!(game.notation(Seat::First, &action), "Nf6+");
    assert_eq!(score, ai::search::WIN - 3, "mate on the third ply");
}

#[test]
fn a_check_past_the_horizon_is_answered_before_the_position_is_weighed() {
    // 1.Nc7+ forks king and queen: one ply deep, the check is met past the horizon, where Black
    // may not stand on what it has; every reply loses the queen, and White, a queen down before,
    // is a knight up.
    let fork = "q3k3/7p/8/1N6/8/8/7P/4K3 w - - 0 1";
    let game = AnyGame::from_fen(VariantId::Chess, fork).unwrap();
    let (action, score, _) = searched(fork, 1, None);
    assert_eq!(game.notation(Seat::First, &action), "Nc7+");
    assert!(score > 200, "a knight up: {score}");
}

#[test]
fn a_copy_for_the_search_writes_nothing_and_plays_alike() {
    let mut game = AnyGame::new(VariantId::Chess);
    for text in ["e4", "e5", "Nf3"] {
        let seat = game.to_act()[0];
        let action = game.parse_action(seat, text).unwrap();
        game.apply(seat, &action).unwrap();
    }
    let mut copy = game.clone();
    copy.stop_writing();
    let reply = game.parse_action(Seat::Second, "Nc6").unwrap();
    game.apply(Seat::Second, &reply).unwrap();
    copy.apply(Seat::Second, &reply).unwrap();
    assert_eq!(copy.search_key(), game.search_key(), "the same position");
    assert_eq!(copy.legal_actions(Seat::First), game.legal_actions(Seat::First));
    let (written, unwritten) = (game.view(Viewer::Spectator), copy.view(Viewer::Spectator));
    assert_eq!(written.record.len(), 4);
    assert!(unwritten.record.is_empty());
    assert!(!written.boards[0].fen.is_empty() && unwritten.boards[0].fen.is_empty());
    assert_eq!(written.boards[0].cells, unwritten.boards[0].cells);
}

#[test]
fn only_games_where_a_pass_means_something_pass_in_the_search() {
    let mut chess = AnyGame::new(VariantId::Chess);
    assert!(chess.pass_in_search());
    assert_eq!(chess.to_act(), vec![Seat::Second], "the turn went over");
    assert_eq!(chess.legal_actions(Seat::Second).len(), 20);
    let mut blockade = AnyGame::new(VariantId::Blockade);
    let before = blockade.clone();
    assert!(!blockade.pass_in_search(), "Blockade is won by having a move");
    assert_eq!(blockade, before);
}

/// What a chess position is worth to White, by the computer's evaluation.
fn weigh(fen: &str) -> i32 {
    let game = AnyGame::from_fen(VariantId::Chess, fen).unwrap();
    ai::evaluate::Evaluator::new(Seat::First, VariantId::Chess).evaluate(&game)
}

#[test]
fn a_passed_pawn_is_worth_more_the_further_it_has_gone() {
    // The same material: White's a-pawn is passed when Black's pawn stands on the h-file, not
    // when it stands on b7, in front of it.
    let passed = weigh("4k3/7p/8/P7/8/8/8/4K3 w - - 0 1");
    let held = weigh("4k3/1p6/8/P7/8/8/8/4K3 w - - 0 1");
    assert!(passed > held, "{passed} > {held}");
    // Further on, it is worth more by more than a pawn's plain step.
    let further = weigh("4k3/7p/P7/8/8/8/8/4K3 w - - 0 1");
    assert!(further - passed > 6 + 16, "{further} - {passed}");
    // The same for Black, seen from White's side.
    let black_passed = weigh("4k3/8/8/8/p7/8/7P/4K3 w - - 0 1");
    let black_held = weigh("4k3/8/8/8/p7/8/1P6/4K3 w - - 0 1");
    assert!(black_passed < black_held, "{black_passed} < {black_held}");
}

#[test]
fn a_royal_keeps_to_the_wing_in_the_middlegame_and_comes_out_in_the_endgame() {
    // Black's queen and rook could attack: White's king is safer on b1 than on d1, though
    // nothing stands near either.
    let wing = weigh("r2qk3/8/8/8/8/8/8/1K6 w - - 0 1");
    let middle = weigh("r2qk3/8/8/8/8/8/8/3K4 w - - 0 1");
    assert!(wing > middle, "{wing} > {middle}");
    // With pawns alone, the king belongs in the centre.
    let central = weigh("4k3/p7/8/8/4K3/8/P7/8 w - - 0 1");
    let cornered = weigh("4k3/p7/8/8/8/8/P7/7K w - - 0 1");
    assert!(central > cornered, "{central} > {cornered}");
}

#[test]
fn a_search_of_one_action_scores_that_action_as_deep_as_the_best() {
    // Qxd8 mates on the back rank; h3 leaves the queen to the rook on d8. Scored alone, h3 is
    // searched as deep as a whole search goes, not one ply, so the loss of the queen shows.
    let game = AnyGame::from_fen(VariantId::Chess, "3r2k1/5ppp/8/8/3Q4/8/5PPP/6K1 w - - 0 1").unwrap();
    let budget = ai::Budget {
        nodes: 20_000,
        time: std::time::Duration::from_secs(600),
    };
    let score = |only: Option<&str>| {
        let mut evaluator = ai::evaluate::Evaluator::new(Seat::First, VariantId::Chess);
        let mut search = ai::search::Search::new(Seat::First, &mut evaluator, budget);
        if let Some(text) = only {
            search = search.only(game.parse_action(Seat::First, text).unwrap());
        }
        let found = search.run(&game);
        (found.scores.len(), found.scores[0].clone(), found.depth)
    };
    let (all, (best, best_score), depth) = score(None);
    assert!(all > 1, "every action is scored: {all}");
    assert_eq!(game.notation(Seat::First, &best), "Qxd8#", "found at depth {depth}");
    let (one, (quiet, quiet_score), quiet_depth) = score(Some("h3"));
    assert_eq!(one, 1, "only the action asked for is scored");
    assert_eq!(game.notation(Seat::First, &quiet), "h3");
    assert!(quiet_depth >= 3, "searched deeper than one ply: {quiet_depth}");
    assert!(
        quiet_score < best_score - 500,
        "a quiet move instead of mate: {quiet_score} against {best_score}"
    );
    assert!(quiet_score < -300, "h3 loses the queen: {quiet_score}");
}

#[test]
fn a_pawn_taken_at_the_cost_of_a_mate_of_checks_is_left() {
    // From a game against Fairy-Stockfish: 11...Qxg2 takes a pawn and is mated by 12.Qf7+ Kd8
    // 13.Ne6+ Kc8 14.Qe8#. The checks come near the horizon, where quiet moves are left out or
    // searched shallower; a check never is.
    let fen = "r3kb1r/pppnn1p1/2q5/4ppN1/2Q5/P1NP4/1PP2PPP/R1B1K2R b KQkq - 1 11";
    let start = Start {
        variant: VariantId::Chess,
        fen: Some(fen.into()),
    };
    let game = start.game().unwrap();
    let thought = ai::think(&start, &game.view(Viewer::Seat(Seat::Second)), Level::Normal, 1).unwrap();
    assert_ne!(game.notation(Seat::Second, &thought.action), "Qxg2");
    let mut taken = game.clone();
    let greed = taken.parse_action(Seat::Second, "Qxg2").unwrap();
    taken.apply(Seat::Second, &greed).unwrap();
    let (action, score, _) = searched(&taken.view(Viewer::Spectator).boards[0].fen, 5, None);
    assert_eq!(taken.notation(Seat::First, &action), "Qf7+");
    assert_eq!(score, ai::search::WIN - 5, "mate on the fifth ply");
}

#[test]
fn chess_tells_the_search_which_moves_check_and_which_squares_are_guarded() {
    // The bishop on e4 stands between White's rook and Black's king: moving it uncovers a check.
    // The knight checks from d6.
    let game = AnyGame::from_fen(VariantId::Chess, "4k3/8/2p5/1N1p4/4B3/8/8/K3R3 w - - 0 1").unwrap();
    let checks = |text: &str| {
        let action = game.parse_action(Seat::First, text).unwrap();
        game.gives_check(Seat::First, &action)
    };
    assert_eq!(checks("Nd6"), Some(true));
    assert_eq!(checks("Bf3"), Some(true), "uncovered");
    assert_eq!(checks("Nc3"), Some(false));
    assert_eq!(checks("Ka2"), Some(false));
    let action = game.parse_action(Seat::First, "Ka2").unwrap();
    assert_eq!(game.gives_check(Seat::Second, &action), None, "not Black's turn");
    let square = |name: &str| arbiter_engine::geometry::Square::parse(name).unwrap();
    // By the pawn on c6, the rook on e1 (up to the bishop), nothing on c6.
    let guards = [
        ("d5", Seat::Second, true),
        ("b5", Seat::Second, true),
        ("c6", Seat::Second, false),
    ];
    let more = [("e3", Seat::First, true), ("e6", Seat::First, false)];
    for (name, by, guarded) in guards.into_iter().chain(more) {
        assert_eq!(game.guarded(0, square(name), by), Some(guarded), "{name}");
    }
    let blockade = AnyGame::new(VariantId::Blockade);
    assert_eq!(
        blockade.guarded(0, square("d5"), Seat::Second),
        None,
        "no guess where none is cheap"
    );
}
