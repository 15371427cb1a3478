//! Portal Chess, ruling by ruling (rules page //! docs/rules/portal.md), and every case of tests/oracles/portal.json.

mod common;

use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use common::{comparable_fen, from_fen, legal_san, legal_san_with_checks, mover, play, played, sorted};

const PORTAL: VariantId = VariantId::Portal;

fn fen(game: &AnyGame) -> String {
    game.view(Viewer::Spectator).fen()
}

fn board(game: &AnyGame) -> String {
    fen(game).split_whitespace().next().unwrap().to_string()
}

fn is_in_check(game: &AnyGame) -> bool {
    game.view(Viewer::Spectator).board().check.is_some()
}

// ---------------------------------------------------------------------------------------------
// The reference data

#[test]
fn every_reference_case_has_the_same_legal_moves_position_and_perft() {
    for case in common::cases(include_str!("oracles/portal.json")) {
        let id = case["id"].as_str().unwrap();
        let mut game = match case["start_fen"].as_str() {
            Some(start) => from_fen(PORTAL, start),
            None => AnyGame::new(PORTAL),
        };
        play(&mut game, case["moves"].as_str().unwrap());
        assert_eq!(
            comparable_fen(&fen(&game)),
            comparable_fen(case["fen"].as_str().unwrap()),
            "{id}: position"
        );
        if case["kind"] == "perft" {
            let depth = case["depth"].as_u64().unwrap() as u32;
            assert_eq!(
                game.perft(depth),
                case["nodes"].as_u64().unwrap(),
                "{id}: perft {depth}"
            );
            continue;
        }
        let seat = game.to_act().first().copied().unwrap_or(Seat::First);
        let ours = legal_san_with_checks(&game, seat);
        assert_eq!(
            ours,
            sorted(&case["legal_moves"]),
            "{id}: legal moves, with their checks"
        );
        assert_eq!(ours.len() as u64, case["legal"].as_u64().unwrap(), "{id}: count");
        assert_eq!(is_in_check(&game), case["in_check"].as_bool().unwrap(), "{id}: check");
    }
}

#[test]
fn start_position_perft_is_20_398_8871() {
    let game = AnyGame::new(PORTAL);
    assert_eq!([1, 2, 3].map(|d| game.perft(d)), [20, 398, 8871]);
}

// ---------------------------------------------------------------------------------------------
// Teleports

#[test]
fn a_move_ending_on_a_portal_goes_on_to_its_partner() {
    // Nf3 puts the knight on b5; Nb4-like moves onto b4 go to f6.
    let game = played(PORTAL, "Nf3");
    assert_eq!(board(&game), "rnbqkbnr/pppppppp/8/1N6/8/8/PPPPPPPP/RNBQKB1R");
    let view = game.view(Viewer::Spectator);
    let last = view.board().last_move.unwrap();
    assert_eq!((last.0.to_string(), last.1.to_string()), ("g1".into(), "b5".into()));
}

#[test]
fn passing_over_a_portal_does_nothing() {
    // The queen passes f3 on its way from d1 to h5; the bishop passes b5 on its way to a6.
    let game = played(PORTAL, "e4 a5 Qh5 Ra6 Bxa6");
    assert_eq!(board(&game), "1nbqkbnr/1ppppppp/B7/p6Q/4P3/8/PPPP1PPP/RNB1K1NR");
}

#[test]
fn an_enemy_on_the_portal_and_one_on_its_partner_are_both_captured() {
    let mut game = from_fen(PORTAL, "4k3/8/5n2/4P3/1r6/8/8/4K3 w - - 0 1");
    play(&mut game, "exf6");
    assert_eq!(board(&game), "4k3/8/8/8/1P6/8/8/4K3");
}

#[test]
fn a_friendly_piece_on_the_partner_square_makes_the_move_illegal() {
    // White's own knight stands on b5: nothing of White's may end a move on f3.
    let game = from_fen(PORTAL, "4k3/8/8/1N6/8/8/5P2/4K1N1 w - - 0 1");
    let legal = legal_san(&game, Seat::First);
    assert!(!legal.iter().any(|m| m.contains("f3")), "{legal:?}");
    let open = from_fen(PORTAL, "4k3/8/8/8/8/8/5P2/4K1N1 w - - 0 1");
    assert!(legal_san(&open, Seat::First).contains(&"Nf3".to_string()));
}

#[test]
fn teleports_do_not_chain() {
    // The knight arrives on b5, itself a portal, and stays there.
    let game = played(PORTAL, "Nf3");
    assert_eq!(mover(&game), Seat::Second);
    assert!(board(&game).contains("1N6"), "{}", board(&game));
}

// ---------------------------------------------------------------------------------------------
// Attacks through portals

#[test]
fn attacks_through_a_portal_give_check_and_mate_uses_them() {
    // Black's f4 gives check: the pawn could step onto f3 and go on to b5, where the king is.
    let game = played(PORTAL, "Nh3 f5 f3 h5 g3 Nc6 b4 Nxf6 bxc6 Rb8 Kf2 d5 Kf3 f4");
    assert_eq!(board(&game), "1rbqkb1r/ppp1p1p1/2P5/1K1p3p/1n3p2/6PN/P1PPP2P/RNBQ1B1R");
    assert!(is_in_check(&game), "the push f4-f3 reaches b5 through the portal");
    assert_eq!(legal_san(&game, Seat::First).len(), 5);
    let fide_eyes = from_fen(VariantId::Chess, &fen(&game));
    assert!(
        fide_eyes.view(Viewer::Spectator).board().check.is_none(),
        "no FIDE piece attacks b5"
    );
}

#[test]
fn a_king_may_not_step_where_a_piece_attacks_through_a_portal() {
    // A black rook on f8 reaches f6 and so b4: the white king on a3 may not go to b4.
    let game = from_fen(PORTAL, "5r1k/8/8/8/8/K7/8/8 w - - 0 1");
    let legal = legal_san(&game, Seat::First);
    assert!(!legal.contains(&"Kb4".to_string()), "{legal:?}");
    assert!(legal.contains(&"Ka4".to_string()), "{legal:?}");
}

#[test]
fn castling_looks_through_portals_too() {
    // The squares castling crosses (e1-g1, e1-c1) are no portal's partner, so an attack through
    // a portal can only stop castling by checking a king that stands on a portal: castling then
    // is impossible anyway. Castling goes on as in FIDE chess.
    let game = played(PORTAL, "Nh3 Nh6 g3 g6 Bg2 Bg7");
    assert!(legal_san(&game, Seat::First).contains(&"O-O".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Pawns

#[test]
fn a_double_step_ending_on_a_portal_goes_on_and_allows_no_en_passant() {
    // b2-b4 ends on the b4 portal: the pawn goes on to f6.
    let game = played(PORTAL, "b4");
    assert_eq!(board(&game), "rnbqkbnr/pppppppp/5P2/8/8/8/P1PPPPPP/RNBQKBNR");
    assert_eq!(fen(&game).split_whitespace().nth(3), Some("-"), "no en passant square");
}

#[test]
fn a_double_step_passing_over_a_portal_stays_and_may_be_taken_en_passant_onto_the_portal() {
    // f2-f4 passes f3 and stays on f4; e4xf3 e.p. ends on the f3 portal and goes on to b5.
    let mut game = played(PORTAL, "e3 e5 g3 e4 f4");
    assert!(board(&game).contains("4pP2"), "{}", board(&game));
    play(&mut game, "exf3");
    assert_eq!(board(&game), "rnbqkbnr/pppp1ppp/8/1p6/8/4P1P1/PPPP3P/RNBQKBNR");
}

#[test]
fn a_pawn_moves_diagonally_onto_a_portal_only_to_capture_there() {
    // The e2 pawn may not step to f3 diagonally with f3 empty.
    let game = AnyGame::new(PORTAL);
    let legal = legal_san(&game, Seat::First);
    assert!(!legal.iter().any(|m| m.starts_with("exf3")), "{legal:?}");
    // With a black piece on f3 it may capture there and go on to b5.
    let capture = from_fen(PORTAL, "4k3/8/8/8/8/5n2/4P3/4K3 w - - 0 1");
    assert!(legal_san(&capture, Seat::First).contains(&"exf3".to_string()));
}

#[test]
fn a_push_onto_an_empty_portal_may_capture_on_its_partner_and_is_written_as_a_capture() {
    let mut game = played(PORTAL, "Na3 Nc6 f3 Nb4");
    // The black knight went b4 -> f6; b2-b4 now lands on the empty b4 portal and goes on to f6,
    // taking the knight: written bxb4.
    assert!(legal_san(&game, Seat::First).contains(&"bxb4".to_string()));
    play(&mut game, "bxb4");
    assert_eq!(board(&game), "r1bqkbnr/pppppppp/5P2/1P6/8/N7/P1PPP1PP/R1BQKBNR");
}

#[test]
fn the_original_rules_knight_example_cannot_happen() {
    // The original rules' example: 1.Nf3 (to b5) Qh4 (passing f6), then the knight "retreats
    // back through the portal" and is taken by Qf6 on b4. A knight on b5 has no move onto any
    // portal, and it never stands on b4, so the example cannot be played.
    let game = played(PORTAL, "Nf3 e6 a3 Qh4");
    let knight_moves: Vec<String> = legal_san(&game, Seat::First)
        .into_iter()
        .filter(|m| m.starts_with('N') && !m.starts_with("Nc3") && !m.starts_with("Na"))
        .collect();
    for portal in ["f3", "b5", "f6", "b4"] {
        assert!(
            !knight_moves.iter().any(|m| m.ends_with(portal)),
            "{knight_moves:?} reaches {portal}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Notation

#[test]
fn notation_names_the_portal_entered_and_may_add_the_arrival() {
    let game = AnyGame::new(PORTAL);
    let action = game.parse_action(Seat::First, "Nf3").unwrap();
    assert_eq!(game.notation(Seat::First, &action), "Nf3>b5");
    assert_eq!(game.parse_action(Seat::First, "Nf3>b5").unwrap(), action);
    assert_eq!(game.parse_action(Seat::First, "g1f3").unwrap(), action);
    assert!(
        game.parse_action(Seat::First, "Nf3>f6").is_err(),
        "a wrong arrival is refused"
    );
}

#[test]
fn a_move_written_through_a_portal_is_refused_with_how_it_is_written() {
    let game = played(VariantId::Portal, "e4 e5");
    let error = game.parse_action(Seat::First, "Bf1>b5").unwrap_err().to_string();
    assert!(
        error.contains("a move names the portal square it enters, like Bb5 (the piece comes out on f3)"),
        "{error}"
    );
    assert!(game.parse_action(Seat::First, "Bb5").is_ok(), "as it says");
}
