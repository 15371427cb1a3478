//! Circe Chess, the club's version, ruling by ruling (rules page //! docs/rules/circe.md), and every case of tests/oracles/circe.json.

mod common;

use arbiter_engine::{ActionError, AnyGame, EndReason, Game, Seat, VariantId, Viewer};
use common::{comparable_fen, from_fen, legal_san, mover, play, played, sorted};

const CIRCE: VariantId = VariantId::Circe;

fn circe(fen: &str) -> AnyGame {
    from_fen(CIRCE, fen)
}

fn fen(game: &AnyGame) -> String {
    game.view(Viewer::Spectator).fen()
}

/// The legal actions of the side to move that start with `prefix`.
fn starting(game: &AnyGame, prefix: &str) -> Vec<String> {
    legal_san(game, mover(game))
        .into_iter()
        .filter(|a| a.starts_with(prefix))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The reference data

#[test]
fn every_reference_case_has_the_same_legal_actions_and_position() {
    let text = include_str!("oracles/circe.json");
    for case in common::cases(text) {
        let id = case["id"].as_str().unwrap();
        let game = played(CIRCE, case["actions"].as_str().unwrap());
        let to_act: Option<&str> = game.to_act().first().map(|s| match s {
            Seat::First => "white",
            Seat::Second => "black",
        });
        assert_eq!(to_act, case["to_act"].as_str(), "{id}: seat to act");
        assert_eq!(
            comparable_fen(&fen(&game)),
            comparable_fen(case["fen"].as_str().unwrap()),
            "{id}: position"
        );
        let seat = match case["side_to_move"].as_str() {
            Some("black") => Seat::Second,
            _ => Seat::First,
        };
        let ours = legal_san(&game, seat);
        assert_eq!(ours, sorted(&case["legal_actions"]), "{id}: legal actions");
        assert_eq!(ours.len() as u64, case["legal_count"].as_u64().unwrap(), "{id}: count");
        assert_eq!(
            game.view(Viewer::Spectator).board().check.is_some(),
            case["in_check"].as_bool().unwrap(),
            "{id}: check"
        );
    }
}

#[test]
fn perft_from_the_start_matches_the_reference() {
    let data: serde_json::Value = serde_json::from_str(include_str!("oracles/circe.json")).unwrap();
    for case in data["perft"].as_array().unwrap() {
        let game = played(CIRCE, case["actions"].as_str().unwrap());
        for (depth, nodes) in case["perft"].as_object().unwrap() {
            let depth: u32 = depth.parse().unwrap();
            assert_eq!(game.perft(depth), nodes.as_u64().unwrap(), "depth {depth}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rebirth

#[test]
fn a_captured_unit_is_reborn_where_the_capturer_chooses_each_choice_its_own_action() {
    // The classic example: the d5 pawn may be reborn on any free square of Black's ranks 4 to 2
    // (all of ranks 4 and 3, and e2, which White's e-pawn left); White chooses a4.
    let game = played(CIRCE, "e4 d5");
    let captures = starting(&game, "exd5");
    assert_eq!(captures.len(), 8 + 8 + 1, "{captures:?}");
    assert!(captures.contains(&"exd5(a4)".to_string()) && captures.contains(&"exd5(e2)".to_string()));
    assert!(!captures.contains(&"exd5(d2)".to_string()), "d2 is occupied");
    let mut game = game;
    play(&mut game, "exd5(a4)");
    assert!(
        fen(&game).starts_with("rnbqkbnr/ppp1pppp/8/3P4/p7/8/PPPP1PPP/RNBQKBNR b"),
        "{}",
        fen(&game)
    );
}

#[test]
fn rebirth_squares_are_the_home_squares_of_the_units_type() {
    // A rook: a1 or h1 (both free here).
    let rook = played(CIRCE, "a4 e6 h4 b6 Rh3 Bb7 Raa3");
    assert_eq!(starting(&rook, "Bxa3"), ["Bxa3(a1)", "Bxa3(h1)"]);
    // A knight: b1 or g1; b1 is where the capturer stands now.
    let knight = circe("4k3/8/8/8/8/8/8/rN2K3 b - - 0 1");
    assert_eq!(starting(&knight, "Rxb1"), ["Rxb1(g1)"]);
    // A bishop: c8 or f8 for Black's, whatever the colour of the square it stood on.
    let bishop = circe("4k3/7p/8/8/8/8/1b6/B3K3 w - - 0 1");
    assert_eq!(starting(&bishop, "Bxb2"), ["Bxb2(c8)", "Bxb2(f8)"]);
    // A queen: d1.
    let queen = circe("3rk3/8/8/8/3Q4/8/8/4K3 b - - 0 1");
    assert_eq!(starting(&queen, "Rxd4"), ["Rxd4(d1)"]);
}

#[test]
fn a_promoted_unit_is_reborn_as_its_current_type() {
    // The pawn promotes to a queen with check; the rook takes the queen, reborn on d1 as a queen.
    let mut game = circe("4k3/1P6/8/8/8/8/1r6/4K3 w - - 0 1");
    play(&mut game, "b8=Q");
    assert_eq!(starting(&game, "Rxb8"), ["Rxb8(d1)"]);
    play(&mut game, "Rxb8(d1)");
    assert!(fen(&game).starts_with("1r2k3/8/8/8/8/8/8/3QK3 w"), "{}", fen(&game));
}

#[test]
fn the_square_the_capturer_left_counts_as_empty() {
    let game = played(CIRCE, "d4 e5 Nc3");
    assert!(starting(&game, "exd4").contains(&"exd4(e5)".to_string()));
}

#[test]
fn with_no_free_square_the_unit_is_removed_and_nothing_is_bracketed() {
    // Both black bishop squares are occupied: the bishop taken on f3 is removed.
    let game = played(CIRCE, "e4 d5 exd5(a4) Bg4 Nf3 Qc8 h3 Bxf3(g1)");
    assert_eq!(starting(&game, "Nxf3"), ["Nxf3"]);
    assert_eq!(starting(&game, "gxf3"), ["gxf3"]);
    // A queen taken on d1 itself is removed: d1 is where the capturer stands.
    let queen = circe("4k3/8/8/8/8/8/8/q2QK3 b - - 0 1");
    assert_eq!(starting(&queen, "Qxd1"), ["Qxd1"]);
}

#[test]
fn a_pawn_is_reborn_on_its_owners_fifth_to_seventh_rank_without_a_double_step() {
    // White's pawn taken on e4 may come back on any free square of ranks 5 to 7, but d7, where
    // it would check the king.
    let game = played(CIRCE, "e4 d5 a3");
    let choices = starting(&game, "dxe4");
    assert_eq!(choices.len(), 8 + 8, "{choices:?}");
    for choice in &choices {
        let rank = choice.trim_end_matches(')').chars().last().unwrap();
        assert!(('5'..='7').contains(&rank), "{choice}");
    }
    // The black pawn reborn on a4 stands on its 5th rank: one step only.
    let game = played(CIRCE, "e4 d5 exd5(a4)");
    let pawn = starting(&game, "a");
    assert!(pawn.contains(&"a3".to_string()), "{pawn:?}");
    assert!(
        !pawn.contains(&"a2".to_string()),
        "no double step from a reborn square: {pawn:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Legality after rebirth

#[test]
fn a_capture_is_legal_only_with_a_rebirth_that_leaves_the_king_safe() {
    // The rook taken on a2 could go back to a8 or h8; from h8 it would check the king on h5.
    let game = circe("4k3/8/8/7K/8/8/r7/R7 w - - 0 1");
    assert_eq!(starting(&game, "Rxa2"), ["Rxa2(a8)"]);
}

#[test]
fn a_rebirth_can_block_a_check() {
    // FIDE's mate pattern is no mate: fxe5(g3) puts a pawn back between queen and king.
    let game = played(CIRCE, "f4 e5 g4 Qh4");
    assert_eq!(legal_san(&game, Seat::First), ["fxe5(g3)"]);
    assert!(game.outcome().is_none());
}

#[test]
fn a_king_may_not_capture_a_unit_whose_every_rebirth_would_check_it() {
    // In check from the queen on d7, the king may not take it: reborn on d8, next to the king's
    // new square, it would give check. In FIDE chess Kxd7 would be the natural reply.
    let game = circe("8/3q4/3K4/8/8/8/8/k7 w - - 0 1");
    let legal = legal_san(&game, Seat::First);
    assert!(!legal.iter().any(|m| m.starts_with("Kxd7")), "{legal:?}");
    assert!(
        legal.contains(&"Kc5".to_string()) && legal.contains(&"Ke5".to_string()),
        "{legal:?}"
    );
    let fide = from_fen(VariantId::Chess, "8/3q4/3K4/8/8/8/8/k7 w - - 0 1");
    assert!(legal_san(&fide, Seat::First).contains(&"Kxd7".to_string()));
}

#[test]
fn mate_is_judged_after_every_rebirth_choice() {
    let game = played(
        CIRCE,
        "d4 h6 h4 d5 Nf3 Qd7 Na3 Qd8 Bxh6(c3) g5 g3 Bg7 Nb5 Nxh6(c1) hxg5(g4) O-O Nxc3(c4) Bh8 Kd2 a6 Nb1 Be5 Nxe5 c3 Nxc3(g2) Qd7 Nxf7(h3) Qe6 Nxh6 Kh8 Nf7 Qxf7(b1) Ke1 gxf1=B Na3 Qf5 Kxf1 Qxf2(c5)",
    );
    let outcome = game.outcome().expect("mate");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::Second), EndReason::Checkmate)
    );
}

// ---------------------------------------------------------------------------------------------
// Castling and en passant

fn castling_field(game: &AnyGame) -> String {
    fen(game).split_whitespace().nth(2).unwrap().to_string()
}

#[test]
fn a_rook_reborn_on_its_corner_counts_as_unmoved_while_its_king_has_not_moved() {
    // Rh3 cost White the king-side right; the rook reborn on h1 gives it back.
    let before = played(CIRCE, "h4 d6 Rh3");
    assert_eq!(castling_field(&before), "Qkq");
    let game = played(CIRCE, "h4 d6 Rh3 Bxh3(h1)");
    assert_eq!(castling_field(&game), "KQkq");
    // Once the king has moved, a reborn rook gives back nothing.
    let moved = played(CIRCE, "e3 d6 Ke2 a6 Ke1 a5 h4 a4 Rh3 Bxh3(h1)");
    assert_eq!(castling_field(&moved), "kq");
}

#[test]
fn an_en_passant_capture_rebirths_the_pawn_by_the_pawn_rule() {
    let game = played(CIRCE, "e4 a6 e5 d5");
    let choices = starting(&game, "exd6");
    assert_eq!(choices.len(), 8 + 8 + 1, "{choices:?}");
    assert!(choices.contains(&"exd6(e2)".to_string()), "{choices:?}");
}

// ---------------------------------------------------------------------------------------------
// Notation

#[test]
fn the_rebirth_square_is_bracketed_and_may_be_left_out_when_only_one_fits() {
    let game = played(CIRCE, "a4 e6 h4 b6 Rh3 Bb7 Raa3");
    let seat = mover(&game);
    let action = game.parse_action(seat, "Bxa3(h1)").unwrap();
    assert_eq!(game.notation(seat, &action), "Bxa3(h1)");
    match game.parse_action(seat, "Bxa3") {
        Err(ActionError::Ambiguous { options, .. }) => assert_eq!(options, ["Bxa3(a1)", "Bxa3(h1)"]),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        game.parse_action(seat, "Bxa3(b1)"),
        Err(ActionError::Illegal(_))
    ));
    let one = circe("4k3/8/8/7K/8/8/r7/R7 w - - 0 1");
    let read = one
        .parse_action(Seat::First, "Rxa2")
        .expect("one rebirth fits: the bracket may be left out");
    assert_eq!(one.notation(Seat::First, &read), "Rxa2(a8)");
}

#[test]
fn bishops_on_one_colour_are_no_dead_position_as_a_captured_bishop_is_reborn_on_either() {
    // Both bishops stand on dark squares (e3, d4); play goes on, and Black's bishop, captured, is
    // reborn on c8 (a light square) or f8 (a dark one) as White chooses.
    let game = circe("4k3/8/8/8/3b4/4B3/8/4K3 w - - 0 1");
    assert!(game.outcome().is_none(), "{:?}", game.outcome());
    let captures = starting(&game, "Bxd4");
    assert!(
        captures.contains(&"Bxd4(c8)".to_string()) && captures.contains(&"Bxd4(f8)".to_string()),
        "{captures:?}"
    );
}

#[test]
fn dead_material_in_circe_is_a_lone_king_against_a_king_and_at_most_one_minor_piece() {
    for fen in [
        "4k3/8/8/8/8/4B3/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/4N3/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let outcome = circe(fen)
            .outcome()
            .cloned()
            .unwrap_or_else(|| panic!("{fen} plays on"));
        assert_eq!(outcome.reason, EndReason::InsufficientMaterial, "{fen}");
    }
    for fen in ["4k3/8/8/8/8/4BB2/8/4K3 w - - 0 1", "4k3/8/8/8/8/4NN2/8/4K3 w - - 0 1"] {
        assert!(circe(fen).outcome().is_none(), "{fen} is not dead");
    }
}

#[test]
fn a_rebirth_square_the_unit_may_not_take_is_refused_with_the_rule() {
    let game = played(CIRCE, "e4 d5");
    // Black's pawn taken on d5 goes back on Black's ranks 4 to 2, not on d7 or h8.
    for text in ["exd5(d7)", "exd5(h8)"] {
        let error = game.parse_action(Seat::First, text).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!(
                "{text}: the captured unit cannot be reborn on {}",
                &text[5..7]
            )),
            "{error}"
        );
        assert!(
            error.contains(
                "a pawn on any empty square of its owner's 5th to 7th rank (ranks 5-7 for White's, 4-2 for Black's)"
            ),
            "{error}"
        );
    }
    assert!(game.parse_action(Seat::First, "exd5(a4)").is_ok(), "as it says");
}
