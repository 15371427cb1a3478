//! Knights are God, ruling by ruling (rules page //! docs/rules/knights-are-god.md), and every case of tests/oracles/knights-are-god.json (moves
//! in coordinates).

mod common;

use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use common::{comparable_fen, coordinates, from_fen, mover, play, played, sorted};

const KAG: VariantId = VariantId::KnightsAreGod;

fn fen(game: &AnyGame) -> String {
    game.view(Viewer::Spectator).fen()
}

/// The legal moves of the side to move in coordinates, sorted.
fn legal(game: &AnyGame) -> Vec<String> {
    let seat = mover(game);
    let mut moves: Vec<String> = game.legal_actions(seat).iter().map(|a| coordinates(game, a)).collect();
    moves.sort();
    moves
}

fn moves_from(game: &AnyGame, square: &str) -> Vec<String> {
    legal(game).into_iter().filter(|m| m.starts_with(square)).collect()
}

fn is_in_check(game: &AnyGame) -> bool {
    game.view(Viewer::Spectator).board().check.is_some()
}

// ---------------------------------------------------------------------------------------------
// The reference data

#[test]
fn every_reference_case_has_the_same_legal_moves_position_and_perft() {
    for case in common::cases(include_str!("oracles/knights-are-god.json")) {
        let id = case["id"].as_str().unwrap();
        let game = played(KAG, case["moves"].as_str().unwrap());
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
        assert_eq!(legal(&game), sorted(&case["legal_moves"]), "{id}: legal moves");
        assert_eq!(
            legal(&game).len() as u64,
            case["legal"].as_u64().unwrap(),
            "{id}: count"
        );
        assert_eq!(is_in_check(&game), case["in_check"].as_bool().unwrap(), "{id}: check");
    }
}

#[test]
fn start_position_perft_is_28_784_24306() {
    let game = AnyGame::new(KAG);
    assert_eq!([1, 2, 3].map(|d| game.perft(d)), [28, 784, 24306]);
}

// ---------------------------------------------------------------------------------------------
// Knights and the relay

#[test]
fn knights_move_only_as_camels() {
    let game = AnyGame::new(KAG);
    assert_eq!(moves_from(&game, "g1"), ["g1f4", "g1h4"]);
    assert_eq!(moves_from(&game, "b1"), ["b1a4", "b1c4"]);
}

#[test]
fn a_unit_a_knight_guards_may_also_move_and_capture_as_a_knight() {
    // The e2 pawn stands a camel leap from the b1 knight, which guards it: besides its pawn
    // moves it has the knight moves c3, d4, f4 and g3 (c1 and g1 are on its first rank).
    let game = AnyGame::new(KAG);
    assert_eq!(
        moves_from(&game, "e2"),
        ["e2c3", "e2d4", "e2e3", "e2e4", "e2f4", "e2g3"]
    );
    // A relayed capture: the queen guarded by the a2 knight takes the rook on c5 as a knight.
    let capture = from_fen(KAG, "4k3/8/8/2r5/8/3Q4/N7/4K3 w - - 0 1");
    assert!(
        moves_from(&capture, "d3").contains(&"d3c5".to_string()),
        "{:?}",
        moves_from(&capture, "d3")
    );
    let unguarded = from_fen(KAG, "4k3/8/8/2r5/8/3Q4/8/N3K3 w - - 0 1");
    assert!(!moves_from(&unguarded, "d3").contains(&"d3c5".to_string()));
}

fn is_king_step(mv: &str) -> bool {
    let (from, to) = (mv.as_bytes(), &mv.as_bytes()[2..]);
    (from[0] as i32 - to[0] as i32).abs() <= 1 && (from[1] as i32 - to[1] as i32).abs() <= 1
}

fn is_camel_leap(mv: &str) -> bool {
    let (from, to) = (mv.as_bytes(), &mv.as_bytes()[2..]);
    let (df, dr) = (
        (from[0] as i32 - to[0] as i32).abs(),
        (from[1] as i32 - to[1] as i32).abs(),
    );
    (df, dr) == (1, 3) || (df, dr) == (3, 1)
}

#[test]
fn knights_and_the_king_never_borrow_the_knight_move() {
    // The king on e1 stands a camel leap from the knight on b2, and still moves only as a king.
    // (Black's pawn keeps the position alive: king and knight against a lone king is dead.)
    let game = from_fen(KAG, "4k3/7p/8/8/8/8/1N6/4K3 w - - 0 1");
    let king = moves_from(&game, "e1");
    assert!(!king.is_empty() && king.iter().all(|m| is_king_step(m)), "{king:?}");
    // Knights guarding each other (d4 and c1 are a camel leap apart) still leap only (1,3).
    let knights = from_fen(KAG, "4k3/8/8/8/3N4/8/8/2N1K3 w - - 0 1");
    let leaps = moves_from(&knights, "d4");
    assert!(!leaps.is_empty() && leaps.iter().all(|m| is_camel_leap(m)), "{leaps:?}");
}

#[test]
fn a_pinned_knight_still_guards() {
    // Case kag-relay-check-by-pinned-knight: Black is in check from a unit that may move as a
    // knight only because a pinned knight guards it.
    let game = played(KAG, "d2c4 e7g6 d1d7 e8d7 c4e5 f7f5 e2f4 f8e7 b1a4 f5g3 f4d3 e7b4 g1d2");
    assert!(is_in_check(&game));
    assert_eq!(legal(&game).len(), 4);
}

#[test]
fn a_pawn_moving_as_a_knight_never_lands_on_its_first_rank() {
    let game = from_fen(KAG, "4k3/8/8/8/8/8/4P3/1N2K3 w - - 0 1");
    let pawn = moves_from(&game, "e2");
    assert!(
        pawn.contains(&"e2d4".to_string()) && pawn.contains(&"e2c3".to_string()),
        "{pawn:?}"
    );
    assert!(
        !pawn.contains(&"e2c1".to_string()) && !pawn.contains(&"e2g1".to_string()),
        "{pawn:?}"
    );
}

#[test]
fn a_pawn_moving_as_a_knight_onto_the_last_rank_promotes() {
    // The pawn on e7 is guarded by the knight on b6 (a (3,1) leap); e7-c8 and e7-g8 promote.
    let game = from_fen(KAG, "k7/4P3/1N6/8/8/8/8/4K3 w - - 0 1");
    let pawn = moves_from(&game, "e7");
    for promotion in ["e7c8q", "e7c8n", "e7g8r", "e7e8q"] {
        assert!(pawn.contains(&promotion.to_string()), "{pawn:?}");
    }
    assert!(
        !pawn.contains(&"e7c8".to_string()),
        "a pawn on the last rank must promote"
    );
}

#[test]
fn a_pawn_brought_back_to_its_second_rank_double_steps_again() {
    let mut game = played(KAG, "e2f4 d7d5 f4e2 a7a6");
    assert!(
        moves_from(&game, "e2").contains(&"e2e4".to_string()),
        "{:?}",
        moves_from(&game, "e2")
    );
    play(&mut game, "e2e4");
    assert!(fen(&game).contains("4P3"));
}

#[test]
fn a_knight_move_never_allows_en_passant() {
    // A double step does: f2-f4 may be taken by the g4 pawn on f3.
    let mut pushed = from_fen(KAG, "4k3/8/8/8/6p1/8/5P2/4K3 w - - 0 1");
    play(&mut pushed, "f2f4");
    assert!(moves_from(&pushed, "g4").contains(&"g4f3".to_string()));
    // The pawn on e2, guarded by the b1 knight, reaches f4 by a knight move: no en passant.
    let mut relayed = from_fen(KAG, "4k3/8/8/8/6p1/8/4P3/1N2K3 w - - 0 1");
    play(&mut relayed, "e2f4");
    assert_eq!(moves_from(&relayed, "g4"), ["g4g3"]);
    assert_eq!(fen(&relayed).split_whitespace().nth(3), Some("-"));
}

#[test]
fn a_unit_moving_onto_a_guarded_square_gives_check_with_its_knight_move_at_once() {
    // Rd6: the rook lands where the a5 knight guards it, and attacks e8 as a knight.
    let game = from_fen(KAG, "4k3/8/8/N7/8/8/8/3RK3 w - - 0 1");
    let action = game.parse_action(Seat::First, "Rd6").unwrap();
    assert_eq!(game.notation(Seat::First, &action), "Rd6+");
    let mut after = game;
    after.apply(Seat::First, &action).unwrap();
    assert!(is_in_check(&after));
}

#[test]
fn the_king_may_not_step_where_a_relayed_knight_move_reaches() {
    // The c5 bishop, guarded by the b2 knight, attacks d7 as a knight: the black king may go to
    // d8 and f7 only (e7 and f8 lie on the bishop's diagonal). In FIDE chess d7 would be free.
    let fen_text = "4k3/8/8/2B5/8/8/1N6/4K3 b - - 0 1";
    assert_eq!(moves_from(&from_fen(KAG, fen_text), "e8"), ["e8d8", "e8f7"]);
    let fide = from_fen(VariantId::Chess, fen_text);
    let fide_king: Vec<String> = fide
        .legal_actions(Seat::Second)
        .iter()
        .map(|a| coordinates(&fide, a))
        .collect();
    assert!(fide_king.contains(&"e8d7".to_string()), "{fide_king:?}");
}

#[test]
fn castling_may_not_cross_a_square_a_relayed_knight_move_attacks() {
    // The black rook on e3, guarded by the b2 knight, attacks f1 as a knight: no O-O. With FIDE
    // knights nothing attacks f1 or g1.
    let fen_text = "4k3/8/8/8/8/4r3/1n2P3/4K2R w K - 0 1";
    assert!(!legal(&from_fen(KAG, fen_text)).contains(&"e1g1".to_string()));
    let fide = from_fen(VariantId::Chess, fen_text);
    assert!(fide.parse_action(Seat::First, "O-O").is_ok());
    let open = played(KAG, "g1h4 a7a6 g2g3 a6a5 f1g2 a5a4");
    assert!(legal(&open).contains(&"e1g1".to_string()), "{:?}", legal(&open));
}

#[test]
fn the_mover_sees_which_units_may_move_as_knights() {
    // b1 guards e2 (and c4, a4), g1 guards d2 (and f4, h4): those two pawns are ringed.
    let game = AnyGame::new(KAG);
    let own = game.view(Viewer::Seat(Seat::First));
    let mut ringed: Vec<String> = own.board().marks.iter().map(|m| m.square.to_string()).collect();
    ringed.sort();
    assert_eq!(ringed, ["d2", "e2"]);
    assert!(
        game.view(Viewer::Spectator).board().marks.is_empty(),
        "spectators see no relay marks"
    );
    assert!(
        game.view(Viewer::Seat(Seat::Second)).board().marks.is_empty(),
        "nor the side not to move"
    );
}

#[test]
fn king_and_one_knight_against_a_lone_king_is_insufficient_material() {
    // The (1,3) knight keeps to one square colour: it can never mate alone.
    let game = from_fen(KAG, "4k3/8/8/8/8/8/1N6/4K3 w - - 0 1");
    let outcome = game.outcome().expect("a dead position");
    assert_eq!(outcome.reason, arbiter_engine::EndReason::InsufficientMaterial);
    assert!(
        from_fen(KAG, "4k3/8/8/8/8/8/1NN5/4K3 w - - 0 1").outcome().is_none(),
        "two knights play on"
    );
}

#[test]
fn d4_is_the_push_and_a_pawns_knight_move_is_written_with_p() {
    // From the start, d4 is the push (the c- and e-pawns' knight moves to d4 are Pcd4, Ped4).
    let mut game = AnyGame::new(KAG);
    let noted: Vec<String> = game.noted_actions(Seat::First).into_iter().map(|(_, t)| t).collect();
    assert!(noted.contains(&"d4".to_string()), "{noted:?}");
    assert!(
        noted.iter().any(|t| t.starts_with('P') && t.ends_with("d4")),
        "{noted:?}"
    );
    assert!(!noted.iter().any(|t| t == "ed4" || t == "cd4"), "{noted:?}");
    play(&mut game, "d4");
    assert_eq!(
        fen(&game).split(' ').next().unwrap(),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR"
    );
    // A pawn guarded by a knight moves as a knight with its P: e2 to d4 is Pd4 where only one
    // pawn can, and an older record's ed4 still reads as that move.
    let relay = from_fen(KAG, "4k3/8/8/8/8/8/4P3/1N2K3 w - - 0 1");
    let noted: Vec<String> = relay.noted_actions(Seat::First).into_iter().map(|(_, t)| t).collect();
    assert!(
        noted.contains(&"Pd4".to_string()) && noted.contains(&"e4".to_string()),
        "{noted:?}"
    );
    let old = relay.parse_action(Seat::First, "ed4").expect("an older record's ed4");
    let new = relay.parse_action(Seat::First, "Pd4").unwrap();
    assert_eq!(old, new);
    assert_ne!(relay.parse_action(Seat::First, "e4").unwrap(), new, "e4 is the push");
}

#[test]
fn a_fide_knight_move_is_refused_with_how_these_knights_leap() {
    let game = AnyGame::new(VariantId::KnightsAreGod);
    let error = game.parse_action(Seat::First, "Nf3").unwrap_err().to_string();
    assert!(
        error.starts_with("Nf3 is not a legal move here: knights in this game leap only (1,3), like a camel"),
        "{error}"
    );
    assert!(error.contains("written like Pd4"), "{error}");
    // Text that names no square keeps the plain answer.
    let unreadable = game.parse_action(Seat::First, "nonsense").unwrap_err().to_string();
    assert!(unreadable.starts_with("could not read \"nonsense\""), "{unreadable}");
    assert!(game.parse_action(Seat::First, "Nh4").is_ok(), "a (1,3) leap from g1");
    assert!(
        game.parse_action(Seat::First, "Pd4").is_ok(),
        "the guarded e2-pawn's knight move"
    );
}
