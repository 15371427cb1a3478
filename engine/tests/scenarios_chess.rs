//! FIDE special cases played through the public `Game` API (rules page docs/rules/chess.md).

use arbiter_engine::geometry::Square;
use arbiter_engine::{Action, ActionError, AnyGame, EndReason, Game, Outcome, Phase, Seat, VariantId, Viewer};

const WHITE: Seat = Seat::First;
const BLACK: Seat = Seat::Second;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn game(fen: &str) -> AnyGame {
    AnyGame::from_fen(VariantId::Chess, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The side to move.
fn mover(game: &AnyGame) -> Seat {
    let seats = game.to_act();
    assert_eq!(seats.len(), 1, "one side moves at a time: {seats:?}");
    seats[0]
}

/// Plays moves written in SAN by whoever is to move, panicking on any refusal.
fn play(game: &mut AnyGame, moves: &[&str]) {
    for text in moves {
        let seat = mover(game);
        let action = game
            .parse_action(seat, text)
            .unwrap_or_else(|e| panic!("{text} refused: {e}"));
        game.apply(seat, &action)
            .unwrap_or_else(|e| panic!("{text} not applied: {e}"));
    }
}

/// The SAN of every legal move of the side to move.
fn legal_sans(game: &AnyGame) -> Vec<String> {
    let seat = mover(game);
    game.legal_actions(seat)
        .iter()
        .map(|action| game.notation(seat, action))
        .collect()
}

fn castling_field(game: &AnyGame) -> String {
    let fen = game.view(Viewer::Spectator).fen();
    fen.split_whitespace()
        .nth(2)
        .expect("a FEN has a castling field")
        .to_string()
}

fn last_record(game: &AnyGame) -> String {
    game.view(Viewer::Spectator)
        .record
        .last()
        .expect("something was played")
        .text
        .clone()
}

fn assert_refused(game: &AnyGame, text: &str) {
    let seat = mover(game);
    match game.parse_action(seat, text) {
        Err(ActionError::Illegal(_)) => {}
        other => panic!("{text} should be refused as illegal, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Castling

#[test]
fn castling_is_refused_through_an_attacked_square() {
    // The black rook on f8 covers f1, the square the king crosses.
    let g = game("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(!legal_sans(&g).contains(&"O-O".to_string()));
    assert_refused(&g, "O-O");
    // The same with the rook on a8, covering nothing on the king's path: castling is fine.
    let g = game("r3k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(legal_sans(&g).contains(&"O-O".to_string()));
}

#[test]
fn castling_is_refused_onto_an_attacked_square() {
    let g = game("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_refused(&g, "O-O");
}

#[test]
fn queen_side_castling_is_allowed_when_only_the_rooks_path_is_attacked() {
    // b1 is attacked, but only the rook crosses it.
    let mut g = game("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(legal_sans(&g).contains(&"O-O-O".to_string()));
    play(&mut g, &["O-O-O"]);
    let view = g.view(Viewer::Spectator);
    assert!(view.fen().starts_with("1r2k3/8/8/8/8/8/8/2KR4 b"), "{}", view.fen());
}

#[test]
fn castling_is_refused_out_of_check() {
    let g = game("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(g.view(Viewer::Spectator).board().check.is_some());
    assert_refused(&g, "O-O");
    assert!(!legal_sans(&g).iter().any(|m| m.starts_with("O-O")));
}

#[test]
fn castling_rights_are_lost_after_the_king_moves_and_returns() {
    let mut g = game("r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1");
    assert!(legal_sans(&g).contains(&"O-O".to_string()));
    play(&mut g, &["Ke2", "a6", "Ke1", "a5"]);
    assert_eq!(castling_field(&g), "kq");
    assert_refused(&g, "O-O");
    assert_refused(&g, "O-O-O");
}

#[test]
fn castling_rights_are_lost_on_one_side_after_that_rook_moves_and_returns() {
    let mut g = game("r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1");
    play(&mut g, &["Rg1", "a6", "Rh1", "a5"]);
    assert_eq!(castling_field(&g), "Qkq");
    assert_refused(&g, "O-O");
    assert!(legal_sans(&g).contains(&"O-O-O".to_string()));
    // Black's queen-side rook moves too.
    play(&mut g, &["a3", "Rb8", "a4", "Ra8", "h3"]);
    assert_eq!(castling_field(&g), "Qk");
    assert_eq!(mover(&g), BLACK);
    assert_refused(&g, "O-O-O");
    assert!(legal_sans(&g).contains(&"O-O".to_string()));
}

#[test]
fn castling_right_is_lost_when_the_rook_is_captured_on_its_corner() {
    // Black's bishop takes the h1 rook; the white queen recaptures on h1. A piece stands in the
    // corner again, but the right is gone for good.
    let mut g = game("r3k2r/p7/8/3Q4/8/8/6b1/R3K2R b KQkq - 0 1");
    play(&mut g, &["Bxh1"]);
    assert_eq!(castling_field(&g), "Qkq");
    play(&mut g, &["Qxh1", "a6"]);
    assert_refused(&g, "O-O");
    assert!(legal_sans(&g).contains(&"O-O-O".to_string()));
    // The same from White's side: the queen takes the a8 rook.
    let mut g = game("r3k2r/8/8/3Q4/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, &["Qxa8+"]);
    assert_eq!(castling_field(&g), "KQk");
}

// ---------------------------------------------------------------------------------------------
// En passant

#[test]
fn en_passant_captures_the_pawn_that_just_double_stepped() {
    let mut g = game("4k3/2p5/7r/KP6/8/8/8/8 b - - 0 1");
    play(&mut g, &["c5"]);
    assert!(legal_sans(&g).contains(&"bxc6".to_string()));
    play(&mut g, &["bxc6"]);
    let view = g.view(Viewer::Spectator);
    assert!(view.fen().starts_with("4k3/8/2P4r/K7/8/8/8/8 b"), "{}", view.fen());
}

#[test]
fn en_passant_is_only_available_immediately() {
    let mut g = game("4k3/2p4p/8/KP6/8/8/8/8 b - - 0 1");
    play(&mut g, &["c5", "Ka4", "h6"]);
    assert_refused(&g, "bxc6");
}

#[test]
fn en_passant_is_refused_when_it_exposes_the_king_along_the_rank() {
    // After ...c5, bxc6 would take both pawns off the fifth rank and open it to the rook on h5.
    let mut g = game("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1");
    play(&mut g, &["c5"]);
    assert!(!legal_sans(&g).iter().any(|m| m == "bxc6"));
    assert_refused(&g, "bxc6");
    assert_refused(&g, "b5c6");
    // The pawn may still push.
    assert!(legal_sans(&g).contains(&"b6".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Promotion

#[test]
fn promotion_offers_four_distinct_choices() {
    let g = game("8/4P3/3k4/8/8/8/8/4K3 w - - 0 1");
    let promotions: Vec<Action> = g
        .legal_actions(WHITE)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { from, .. } if *from == sq("e7")))
        .collect();
    assert_eq!(promotions.len(), 4, "{promotions:?}");
    let mut kinds: Vec<String> = promotions
        .iter()
        .map(|a| match a {
            Action::Move { to, promotion, .. } => {
                assert_eq!(*to, sq("e8"));
                promotion.clone().expect("every e7-e8 move promotes").to_string()
            }
            other => panic!("{other:?}"),
        })
        .collect();
    kinds.sort();
    assert_eq!(kinds, ["bishop", "knight", "queen", "rook"]);
}

#[test]
fn promotion_to_a_knight_that_gives_check_is_written_with_a_plus() {
    let mut g = game("8/4P3/3k4/8/8/8/8/4K3 w - - 0 1");
    let knight = g.parse_action(WHITE, "e8=N").unwrap();
    assert_eq!(g.notation(WHITE, &knight), "e8=N+");
    let queen = g.parse_action(WHITE, "e8=Q").unwrap();
    assert_eq!(g.notation(WHITE, &queen), "e8=Q");
    assert_ne!(knight, queen);
    g.apply(WHITE, &knight).unwrap();
    assert_eq!(last_record(&g), "e8=N+");
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.board().check, Some(sq("d6")));
    assert!(view.fen().starts_with("4N3/8/3k4/8/8/8/8/4K3 b"), "{}", view.fen());
}

// ---------------------------------------------------------------------------------------------
// Threefold repetition

#[test]
fn threefold_repetition_draws_on_the_third_occurrence() {
    let mut g = AnyGame::new(VariantId::Chess);
    play(&mut g, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    assert_eq!(g.outcome(), None, "the start position has occurred only twice");
    play(&mut g, &["Ng8"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::Repetition)));
    assert_eq!(g.phase(), Phase::Finished);
    assert!(g.to_act().is_empty());
    assert_eq!(g.parse_action(WHITE, "Nf3"), Err(ActionError::GameOver));
}

#[test]
fn an_en_passant_square_without_a_possible_capture_does_not_make_a_position_different() {
    // After 1.e4 no black pawn can take en passant, so the position after 1.e4 is the same as
    // after 3.Ng1: it occurs a third time after 5.Ng1.
    let mut g = AnyGame::new(VariantId::Chess);
    play(&mut g, &["e4", "Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8"]);
    assert_eq!(g.outcome(), None);
    play(&mut g, &["Ng1"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::Repetition)));
}

#[test]
fn a_possible_en_passant_capture_makes_a_position_different() {
    // After ...d5 White may take en passant; the same board later, without that right, is a
    // different position. Counting it as the same would draw at 5...Ke8; instead the first
    // position to occur three times is the one after 2.Nf3, again after 4.Nf3 and 6.Nf3.
    let mut g = game("r3k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1");
    play(&mut g, &["d5"]);
    assert!(legal_sans(&g).contains(&"exd6".to_string()));
    play(&mut g, &["Nf3", "Kf8", "Ng1", "Ke8", "Nf3", "Kf8", "Ng1", "Ke8"]);
    assert_eq!(
        g.outcome(),
        None,
        "the board after ...d5 has occurred three times, but once with en passant"
    );
    play(&mut g, &["Nf3"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::Repetition)));
}

#[test]
fn an_en_passant_capture_that_is_illegal_does_not_make_a_position_different() {
    // After ...c5 the capture bxc6 would expose White's king to the rook (see the pin test), so
    // the position is the same as the one after 3...Rh5, and occurs a third time after 5...Rh5.
    let mut g = game("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1");
    play(&mut g, &["c5", "Ka4", "Rh6", "Ka5", "Rh5", "Ka4", "Rh6", "Ka5"]);
    assert_eq!(g.outcome(), None);
    play(&mut g, &["Rh5"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::Repetition)));
}

// ---------------------------------------------------------------------------------------------
// The 50-move rule

#[test]
fn fifty_move_rule_draws_after_a_quiet_hundredth_half_move() {
    let mut g = game("8/8/4k3/8/8/8/4P3/4K2R w - - 99 80");
    assert_eq!(g.outcome(), None);
    play(&mut g, &["Rh2"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::FiftyMoves)));
}

#[test]
fn a_pawn_move_resets_the_fifty_move_count() {
    let mut g = game("8/8/4k3/8/8/8/4P3/4K2R w - - 99 80");
    play(&mut g, &["e3"]);
    assert_eq!(g.outcome(), None);
    let fen = g.view(Viewer::Spectator).fen();
    assert_eq!(fen.split_whitespace().nth(4), Some("0"), "{fen}");
    play(&mut g, &["Kd5", "Rh2"]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_capture_resets_the_fifty_move_count() {
    let mut g = game("8/8/4k3/8/8/8/4P2p/4K2R w - - 99 80");
    play(&mut g, &["Rxh2"]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn checkmate_on_the_hundredth_half_move_wins_rather_than_draws() {
    let mut g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    play(&mut g, &["Ra8#"]);
    assert_eq!(g.outcome(), Some(&Outcome::win(WHITE, EndReason::Checkmate)));
}

// ---------------------------------------------------------------------------------------------
// Dead positions

#[test]
fn king_against_king_is_a_draw() {
    let mut g = game("8/8/4k3/8/8/8/3p4/4K3 w - - 0 1");
    assert_eq!(g.outcome(), None);
    play(&mut g, &["Kxd2"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::InsufficientMaterial)));
}

#[test]
fn king_and_knight_against_king_is_a_draw() {
    let mut g = game("8/8/4k3/8/8/8/3p4/4K1N1 w - - 0 1");
    play(&mut g, &["Kxd2"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::InsufficientMaterial)));
}

#[test]
fn king_and_bishop_against_king_is_a_draw() {
    let g = game("8/8/4k3/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::InsufficientMaterial)));
}

#[test]
fn bishops_on_squares_of_one_colour_are_a_draw() {
    // c1 and f8 are both dark squares.
    let mut g = game("5b2/8/4k3/8/8/8/3p4/2B1K3 w - - 0 1");
    play(&mut g, &["Kxd2"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::InsufficientMaterial)));
}

#[test]
fn bishops_on_squares_of_opposite_colours_are_not_a_draw() {
    // c1 is dark, c8 light: a mate is still possible.
    let mut g = game("2b5/8/4k3/8/8/8/3p4/2B1K3 w - - 0 1");
    play(&mut g, &["Kxd2"]);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.phase(), Phase::Play);
}

#[test]
fn king_and_pawn_against_king_is_not_a_draw() {
    let g = game("8/8/4k3/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(g.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Mate and stalemate

#[test]
fn fools_mate_is_checkmate_written_with_a_hash() {
    let mut g = AnyGame::new(VariantId::Chess);
    play(&mut g, &["f3", "e5", "g4"]);
    let mate = g.parse_action(BLACK, "Qh4#").unwrap();
    assert_eq!(g.notation(BLACK, &mate), "Qh4#");
    g.apply(BLACK, &mate).unwrap();
    assert_eq!(g.outcome(), Some(&Outcome::win(BLACK, EndReason::Checkmate)));
    assert_eq!(g.outcome().unwrap().result_text(), "0-1");
    let view = g.view(Viewer::Spectator);
    let record: Vec<&str> = view.record.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(record, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(view.board().check, Some(sq("e1")));
    assert!(g.legal_actions(WHITE).is_empty());
}

#[test]
fn a_check_that_can_be_blocked_is_written_with_a_plus_not_a_hash() {
    let mut g = AnyGame::new(VariantId::Chess);
    play(&mut g, &["f3", "e5"]);
    // With the g-pawn still home, g3 blocks.
    play(&mut g, &["a3"]);
    play(&mut g, &["Qh4+"]);
    assert_eq!(last_record(&g), "Qh4+");
    assert_eq!(g.outcome(), None);
}

#[test]
fn stalemate_is_a_draw() {
    let mut g = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    play(&mut g, &["Qf7"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::Stalemate)));
    assert_eq!(g.outcome().unwrap().result_text(), "1/2-1/2");
    assert!(g.to_act().is_empty());
}
