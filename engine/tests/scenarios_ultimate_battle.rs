//! Ultimate Battle Chess, ruling by ruling (rules page //! docs/rules/ultimate-battle.md), and every case of tests/oracles/ultimate-battle.json.

mod common;

use arbiter_engine::{AnyGame, EndReason, Game, Seat, VariantId, Viewer};
use common::{coordinates, from_fen, legal_san, mover, play};

const UBC: VariantId = VariantId::UltimateBattle;

/// Leaf nodes a reference case may cost in the default test run.
const NODE_BUDGET: u64 = 3_000_000;

fn ubc(fen: &str) -> AnyGame {
    from_fen(UBC, fen)
}

/// The destinations of the piece on `from`, in coordinates, sorted.
fn moves_from(game: &AnyGame, from: &str) -> Vec<String> {
    let seat = mover(game);
    let mut moves: Vec<String> = game
        .legal_actions(seat)
        .iter()
        .map(|a| coordinates(game, a))
        .filter(|m| m.starts_with(from))
        .map(|m| m[2..].to_string())
        .collect();
    moves.sort();
    moves
}

#[test]
fn every_reference_case_matches_within_the_node_budget() {
    let data: serde_json::Value = serde_json::from_str(include_str!("oracles/ultimate-battle.json")).unwrap();
    for case in data["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let game = ubc(case["fen"].as_str().unwrap());
        for (depth, nodes) in case["perft"].as_object().unwrap() {
            let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.as_u64().unwrap());
            if nodes <= NODE_BUDGET {
                assert_eq!(game.perft(depth), nodes, "{id} depth {depth}");
            }
        }
    }
}

#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn every_reference_case_matches_at_full_depth() {
    let data: serde_json::Value = serde_json::from_str(include_str!("oracles/ultimate-battle.json")).unwrap();
    for case in data["cases"].as_array().unwrap() {
        let game = ubc(case["fen"].as_str().unwrap());
        for (depth, nodes) in case["perft"].as_object().unwrap() {
            assert_eq!(
                game.perft(depth.parse().unwrap()),
                nodes.as_u64().unwrap(),
                "{}",
                case["id"]
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The pieces

#[test]
fn the_king_steps_diagonally_then_orthogonally_and_never_to_a_diagonal_neighbour() {
    // On an open board: the 8 knight-distance squares and the 4 orthogonal neighbours.
    let game = ubc("7k/8/8/8/3K4/8/8/8 w - - 0 1");
    assert_eq!(
        moves_from(&game, "d4"),
        ["b3", "b5", "c2", "c4", "c6", "d3", "d5", "e2", "e4", "e6", "f3", "f5"]
    );
    // A piece on the diagonal neighbour c5 closes the routes through it: b5 and c6 go, while
    // c4 and d5 are still reached through c3 and e5.
    let blocked = ubc("7k/8/8/2P5/3K4/8/8/8 w - - 0 1");
    assert_eq!(
        moves_from(&blocked, "d4"),
        ["b3", "c2", "c4", "d3", "d5", "e2", "e4", "e6", "f3", "f5"]
    );
}

#[test]
fn attacks_between_kings_are_not_symmetric() {
    // The white king on d4 attacks f5 through e5; the black king on f5 could reach d4 only
    // through e4, where a white pawn stands. So Black is in check and White would not be.
    let black_to_move = ubc("8/8/8/5k2/3KP3/8/8/8 b - - 0 1");
    assert_eq!(
        black_to_move
            .view(Viewer::Spectator)
            .board()
            .check
            .map(|s| s.to_string()),
        Some("f5".into())
    );
    let white_to_move = ubc("8/8/8/5k2/3KP3/8/8/8 w - - 0 1");
    assert_eq!(white_to_move.view(Viewer::Spectator).board().check, None);
}

#[test]
fn the_intermediate_square_of_a_king_move_may_be_attacked() {
    // Only the destination must be safe: the king on d4 reaches e6 through e5, which the black
    // rook on a5 attacks along the 5th rank.
    let game = ubc("7k/8/8/r7/3K4/8/8/8 w - - 0 1");
    let moves = moves_from(&game, "d4");
    assert!(moves.contains(&"e6".to_string()), "{moves:?}");
    assert!(
        !moves.contains(&"d5".to_string()) && !moves.contains(&"f5".to_string()),
        "the rank-5 squares are attacked: {moves:?}"
    );
}

#[test]
fn the_queen_is_a_mao_and_the_knight_a_camel() {
    let game = ubc("7k/8/8/8/3Q4/8/8/K2N4 w - - 0 1");
    assert_eq!(
        moves_from(&game, "d4"),
        ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
    );
    // A piece on d5 closes the mao's way to c6 and e6.
    let blocked = ubc("7k/8/8/3P4/3Q4/8/8/K7 w - - 0 1");
    assert_eq!(moves_from(&blocked, "d4"), ["b3", "b5", "c2", "e2", "f3", "f5"]);
    // The camel on d1 leaps (1,3) and (3,1).
    assert_eq!(moves_from(&game, "d1"), ["a2", "c4", "e4", "g2"]);
}

#[test]
fn pawns_move_and_capture_diagonally_forward_with_a_straight_double_first_step() {
    let game = AnyGame::new(UBC);
    assert_eq!(moves_from(&game, "e2"), ["d3", "e4", "f3"]);
    let blocked = ubc("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1");
    assert_eq!(
        moves_from(&blocked, "e2"),
        ["d3", "f3"],
        "the square between must be empty"
    );
}

#[test]
fn there_is_no_castling_no_en_passant_and_no_promotion() {
    let mut game = AnyGame::new(UBC);
    let fen = game.view(Viewer::Spectator).fen();
    assert_eq!(fen.split_whitespace().nth(2), Some("-"), "no castling rights");
    play(&mut game, "e4");
    let fen = game.view(Viewer::Spectator).fen();
    assert_eq!(
        fen.split_whitespace().nth(3),
        Some("-"),
        "a double step allows no en passant"
    );
    // A pawn reaching the last rank stays a pawn: one move per square, no choice of piece.
    let promoting = ubc("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(moves_from(&promoting, "b7"), ["a8", "c8"]);
}

#[test]
fn stalemate_draws() {
    let game = ubc("k7/8/2K5/8/8/8/8/8 b - - 0 1");
    let outcome = game.outcome().expect("Black has no move and is not in check");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Stalemate));
}

// ---------------------------------------------------------------------------------------------
// The last-rank pawn rule

#[test]
fn a_pawn_on_its_last_rank_counts_as_check_and_must_be_captured() {
    // White's pawn has arrived on e8: every black move must capture it.
    let game = ubc("r3P3/6k1/5q2/8/8/1K6/2p3P1/8 b - - 0 1");
    assert!(
        game.view(Viewer::Spectator).board().check.is_some(),
        "it counts as check"
    );
    let legal = legal_san(&game, Seat::Second);
    assert_eq!(legal, ["Kxe8", "Qxe8", "Rxe8"]);
}

#[test]
fn arriving_on_the_last_rank_is_written_as_a_check() {
    // The rook on c3 can take the pawn on c8: check, not mate.
    let game = ubc("7k/1P6/8/8/8/2r5/8/K7 w - - 0 1");
    let action = game.parse_action(Seat::First, "c8").unwrap();
    assert_eq!(game.notation(Seat::First, &action), "c8+");
}

#[test]
fn without_a_capture_of_the_pawn_its_owner_wins_as_by_mate() {
    // Nothing of Black's can reach a8.
    let mut game = ubc("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
    play(&mut game, "a8");
    let outcome = game.outcome().expect("no capture of the pawn is possible");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::Checkmate)
    );
}

#[test]
fn a_capture_of_the_pawn_that_leaves_the_king_in_check_is_not_allowed() {
    // The bishop on c6 could take the pawn on e8, but it shields its king on c4 from the rook
    // on c8; the camel on d5 takes instead.
    let game = ubc("2R1P3/8/2b5/3n4/2k5/8/8/K7 b - - 0 1");
    assert_eq!(legal_san(&game, Seat::Second), ["Nxe8"]);
}

#[test]
fn a_move_no_piece_of_its_letter_can_make_is_refused_with_how_that_piece_moves_here() {
    let game = AnyGame::new(VariantId::UltimateBattle);
    let refusal = |text: &str| game.parse_action(Seat::First, text).unwrap_err().to_string();
    assert_eq!(
        refusal("Qd4"),
        "Qd4 is not a legal move here: Q is the mao here: one step straight to an empty square, then one diagonally outward"
    );
    assert_eq!(
        refusal("Nf3"),
        "Nf3 is not a legal move here: N is the camel here: a (1,3) leap"
    );
    assert!(refusal("e5").contains("pawns here move and capture one square diagonally forward"));
    assert!(refusal("Ke2").contains("never a diagonal one"));
    // Text that names no square keeps the plain answer.
    assert!(refusal("Qxyz").starts_with("could not read"), "{}", refusal("Qxyz"));
    assert!(
        refusal("g1e5").ends_with("is not a legal move here"),
        "{}",
        refusal("g1e5")
    );
}
