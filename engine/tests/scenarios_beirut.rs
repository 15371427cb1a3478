//! Beirut Chess, ruling by ruling (rules page docs/rules/beirut.md),
//! through the public `Game` API.
//!
//! Positions are set up with a FEN followed by `bombs:W,B`, each side's carrier square (`-` for a
//! carrier already gone).

use arbiter_engine::geometry::Square;
use arbiter_engine::variants::beirut::HIDDEN_CHOICE;
use arbiter_engine::view::{MarkKind, Tone};
use arbiter_engine::{
    Action, ActionError, AnyGame, EndReason, Game, Outcome, Phase, Seat, VariantId, View, ViewCell, Viewer,
};

const WHITE: Seat = Seat::First;
const BLACK: Seat = Seat::Second;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn game(fen: &str) -> AnyGame {
    AnyGame::from_fen(VariantId::Beirut, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mover(game: &AnyGame) -> Seat {
    let seats = game.to_act();
    assert_eq!(seats.len(), 1, "one side moves at a time: {seats:?}");
    seats[0]
}

/// Plays actions written as players write them, by whoever is to move.
fn play(game: &mut AnyGame, texts: &[&str]) {
    for text in texts {
        let seat = mover(game);
        act(game, seat, text);
    }
}

/// Reads and applies one action of `seat`.
fn act(game: &mut AnyGame, seat: Seat, text: &str) {
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{seat:?} {text} refused: {e}"));
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("{seat:?} {text} not applied: {e}"));
}

/// A new game with both carriers chosen.
fn chosen(white: &str, black: &str) -> AnyGame {
    let mut g = AnyGame::new(VariantId::Beirut);
    act(&mut g, WHITE, &format!("bomb:{white}"));
    act(&mut g, BLACK, &format!("bomb:{black}"));
    g
}

/// The squares a view marks with the bomb badge.
fn marked(view: &View) -> Vec<Square> {
    let mut squares: Vec<Square> = view
        .board()
        .marks
        .iter()
        .filter(|m| matches!(&m.kind, MarkKind::Badge { text, tone: Tone::Danger } if text == "B"))
        .map(|m| m.square)
        .collect();
    squares.sort();
    squares
}

fn records(view: &View) -> Vec<String> {
    view.record.iter().map(|e| e.text.clone()).collect()
}

fn fen_field(game: &AnyGame, index: usize) -> String {
    game.view(Viewer::Spectator)
        .fen()
        .split_whitespace()
        .nth(index)
        .expect("a full FEN")
        .to_string()
}

fn can_detonate(game: &AnyGame, seat: Seat) -> bool {
    game.legal_actions(seat).contains(&Action::Detonate)
}

/// Checks that `seat` may not detonate, whichever way it tries, and that trying changes nothing.
fn assert_detonation_refused(game: &AnyGame, seat: Seat) {
    assert!(!can_detonate(game, seat), "detonation offered");
    assert!(matches!(
        game.parse_action(seat, "detonate"),
        Err(ActionError::Illegal(_))
    ));
    let mut copy = game.clone();
    assert!(matches!(
        copy.apply(seat, &Action::Detonate),
        Err(ActionError::Illegal(_))
    ));
    assert_eq!(&copy, game, "a refused detonation changes nothing");
}

fn is_empty(game: &AnyGame, square: &str) -> bool {
    game.view(Viewer::Spectator).board().cell(sq(square)) == ViewCell::Empty
}

// ---------------------------------------------------------------------------------------------
// The sealed choice

#[test]
fn both_seats_choose_a_carrier_at_the_same_time_in_either_order() {
    for first in [WHITE, BLACK] {
        let mut g = AnyGame::new(VariantId::Beirut);
        assert_eq!(g.phase(), Phase::SealedChoice);
        assert_eq!(g.to_act(), vec![WHITE, BLACK]);
        let square = |seat: Seat| if seat == WHITE { "d2" } else { "e7" };
        let action = g.parse_action(first, &format!("bomb:{}", square(first))).unwrap();
        assert_eq!(
            action,
            Action::ChooseBomb {
                square: sq(square(first))
            }
        );
        assert_eq!(g.notation(first, &action), format!("bomb:{}", square(first)));
        g.apply(first, &action).unwrap();
        assert_eq!(g.phase(), Phase::SealedChoice);
        assert_eq!(g.to_act(), vec![first.other()]);
        act(&mut g, first.other(), &format!("bomb:{}", square(first.other())));
        assert_eq!(g.phase(), Phase::Play);
        assert_eq!(g.to_act(), vec![WHITE], "White moves first after the choice");
        play(&mut g, &["e4"]);
    }
}

#[test]
fn any_unit_but_the_king_may_carry_the_bomb() {
    let g = AnyGame::new(VariantId::Beirut);
    for seat in [WHITE, BLACK] {
        let choices = g.legal_actions(seat);
        assert_eq!(choices.len(), 15, "{seat:?}: {choices:?}");
        assert!(choices.iter().all(|a| matches!(a, Action::ChooseBomb { .. })));
    }
    assert!(
        g.legal_actions(WHITE)
            .contains(&Action::ChooseBomb { square: sq("a2") }),
        "pawns allowed"
    );
    assert!(
        g.legal_actions(BLACK)
            .contains(&Action::ChooseBomb { square: sq("d8") })
    );
}

#[test]
fn choosing_the_king_as_carrier_is_refused() {
    let mut g = AnyGame::new(VariantId::Beirut);
    assert!(matches!(g.parse_action(WHITE, "bomb:e1"), Err(ActionError::Illegal(_))));
    assert!(matches!(g.parse_action(BLACK, "bomb:e8"), Err(ActionError::Illegal(_))));
    assert!(matches!(
        g.apply(WHITE, &Action::ChooseBomb { square: sq("e1") }),
        Err(ActionError::Illegal(_))
    ));
    // Nor an enemy unit, nor an empty square.
    assert!(matches!(g.parse_action(WHITE, "bomb:e7"), Err(ActionError::Illegal(_))));
    assert!(matches!(g.parse_action(WHITE, "bomb:e4"), Err(ActionError::Illegal(_))));
    assert_eq!(g.to_act(), vec![WHITE, BLACK], "nothing was chosen");
}

#[test]
fn a_second_choice_is_refused() {
    let mut g = AnyGame::new(VariantId::Beirut);
    act(&mut g, WHITE, "bomb:d2");
    let before = g.clone();
    assert_eq!(g.parse_action(WHITE, "bomb:c2"), Err(ActionError::AlreadyChosen));
    assert_eq!(
        g.apply(WHITE, &Action::ChooseBomb { square: sq("c2") }),
        Err(ActionError::AlreadyChosen)
    );
    assert_eq!(g, before);
    assert!(g.legal_actions(WHITE).is_empty());
    act(&mut g, BLACK, "bomb:e7");
    // Once play has begun nobody chooses again.
    assert!(matches!(g.parse_action(WHITE, "bomb:c2"), Err(ActionError::Illegal(_))));
    assert!(matches!(
        g.apply(WHITE, &Action::ChooseBomb { square: sq("c2") }),
        Err(ActionError::Illegal(_))
    ));
}

#[test]
fn moves_wait_until_both_have_chosen() {
    let mut g = AnyGame::new(VariantId::Beirut);
    act(&mut g, BLACK, "bomb:e7");
    assert!(g.parse_action(WHITE, "e4").is_err());
    assert!(g.apply(WHITE, &Action::Detonate).is_err());
    assert!(
        g.legal_actions(WHITE)
            .iter()
            .all(|a| matches!(a, Action::ChooseBomb { .. }))
    );
}

#[test]
fn the_choice_is_hidden_from_the_opponent_and_spectators_but_shown_to_its_owner() {
    let start_fen = AnyGame::new(VariantId::Beirut).view(Viewer::Spectator).fen();
    let mut on_d2 = AnyGame::new(VariantId::Beirut);
    let mut on_a2 = AnyGame::new(VariantId::Beirut);
    act(&mut on_d2, WHITE, "bomb:d2");
    act(&mut on_a2, WHITE, "bomb:a2");
    // Nothing another viewer sees depends on which unit White chose.
    for viewer in [Viewer::Seat(BLACK), Viewer::Spectator] {
        let view = on_d2.view(viewer);
        assert_eq!(view, on_a2.view(viewer), "{viewer:?}");
        assert!(marked(&view).is_empty(), "{viewer:?}");
        assert_eq!(records(&view), [HIDDEN_CHOICE]);
        assert_eq!(view.fen(), start_fen);
        assert!(
            view.notes.iter().any(|n| n.contains("White has chosen")),
            "{:?}",
            view.notes
        );
        let text = serde_json::to_string(&view).unwrap();
        assert!(!text.contains("d2"), "{viewer:?} sees d2: {text}");
    }
    // Logs built from the game's debug output do not show it either.
    assert_eq!(format!("{on_d2:?}"), format!("{on_a2:?}"));
    // The owner sees their own carrier.
    let own = on_d2.view(Viewer::Seat(WHITE));
    assert_eq!(marked(&own), [sq("d2")]);
    assert_eq!(records(&own), ["bomb:d2"]);
    assert_eq!(own.fen(), start_fen);

    // The same once both have chosen and play goes on.
    for g in [&mut on_d2, &mut on_a2] {
        act(g, BLACK, "bomb:e7");
        play(g, &["d4", "e5", "dxe5"]);
    }
    for viewer in [Viewer::Seat(BLACK), Viewer::Spectator] {
        assert_eq!(on_d2.view(viewer), on_a2.view(viewer), "{viewer:?}");
    }
    let black_view = on_d2.view(Viewer::Seat(BLACK));
    assert_eq!(
        marked(&black_view),
        Vec::<Square>::new(),
        "Black's carrier was taken on e5"
    );
    assert_eq!(records(&black_view), [HIDDEN_CHOICE, "bomb:e7", "d4", "e5", "dxe5"]);
    assert_eq!(marked(&on_d2.view(Viewer::Spectator)), Vec::<Square>::new());
    // White's carrier went d2-d4xe5.
    assert_eq!(marked(&on_d2.view(Viewer::Seat(WHITE))), [sq("e5")]);
    assert_eq!(marked(&on_a2.view(Viewer::Seat(WHITE))), [sq("a2")]);
}

#[test]
fn a_position_naming_a_king_as_carrier_is_refused() {
    // The choice excludes the king; a set-up position may not make one a carrier either.
    assert!(AnyGame::from_fen(VariantId::Beirut, "4k3/4p3/8/8/8/8/3P4/4K3 w - - 0 1 bombs:e1,e7").is_err());
    assert!(AnyGame::from_fen(VariantId::Beirut, "4k3/4p3/8/8/8/8/3P4/4K3 w - - 0 1 bombs:d2,e8").is_err());
    assert!(AnyGame::from_fen(VariantId::Beirut, "4k3/4p3/8/8/8/8/3P4/4K3 w - - 0 1 bombs:d2,e7").is_ok());
}

// ---------------------------------------------------------------------------------------------
// Detonation

#[test]
fn detonation_removes_the_carrier_and_every_neighbour_of_either_colour() {
    let mut g = game("6k1/8/1p6/2ppn3/3N4/2P1B3/P7/6K1 w - - 0 1 bombs:d4,b6");
    let action = g.parse_action(WHITE, "detonate").unwrap();
    assert_eq!(action, Action::Detonate);
    assert_eq!(g.notation(WHITE, &action), "detonate");
    g.apply(WHITE, &action).unwrap();
    let view = g.view(Viewer::Spectator);
    assert!(view.fen().starts_with("6k1/8/1p6/8/8/8/P7/6K1 b"), "{}", view.fen());
    assert_eq!(view.record.last().unwrap().text, "detonate");
    // The news names every unit the blast took, so nobody has to compare boards.
    assert_eq!(
        view.record.last().unwrap().said.as_deref(),
        Some(
            "detonated the bomb carried by White's knight on d4, destroying the carrier, White's pawn on c3, \
             Black's pawn on c5, Black's pawn on d5, White's bishop on e3 and Black's knight on e5"
        )
    );
    // The image rings the nine squares the blast cleared, until the next move.
    let rings = |view: &arbiter_engine::View| -> Vec<Square> {
        let mut squares: Vec<Square> = view.boards[0]
            .marks
            .iter()
            .filter(|m| m.kind == arbiter_engine::view::MarkKind::Ring(arbiter_engine::view::Tone::Danger))
            .map(|m| m.square)
            .collect();
        squares.sort();
        squares
    };
    let mut blast: Vec<Square> = ["c3", "d3", "e3", "c4", "d4", "e4", "c5", "d5", "e5"].map(sq).to_vec();
    blast.sort();
    assert_eq!(rings(&view), blast);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.to_act(), vec![BLACK]);
    // White's bomb is spent.
    play(&mut g, &["Kg7"]);
    assert_eq!(
        rings(&g.view(Viewer::Spectator)),
        Vec::<Square>::new(),
        "the blast mark goes with the next move"
    );
    assert_detonation_refused(&g, WHITE);
    // Black's carrier, outside the blast, is still armed.
    assert_eq!(marked(&g.view(Viewer::Seat(BLACK))), [sq("b6")]);
}

#[test]
fn detonation_that_destroys_own_king_is_illegal() {
    let g = game("4k3/4p3/8/8/8/8/3P4/4K3 w - - 0 1 bombs:d2,e7");
    assert_detonation_refused(&g, WHITE);
    // With the king out of range the same bomb may go off.
    let g = game("4k3/4p3/8/8/8/8/3P4/6K1 w - - 0 1 bombs:d2,e7");
    assert!(can_detonate(&g, WHITE));
}

#[test]
fn detonation_that_destroys_both_kings_is_illegal() {
    let g = game("8/p7/8/4k3/3N4/2K5/7P/8 w - - 0 1 bombs:d4,a7");
    assert_detonation_refused(&g, WHITE);
}

#[test]
fn detonation_that_leaves_own_king_in_check_is_illegal() {
    // The blast takes the bishop on e3 and opens the e-file to the rook on e8.
    let g = game("k3r3/p7/8/8/3N4/4B3/8/4K3 w - - 0 1 bombs:d4,a7");
    assert_detonation_refused(&g, WHITE);
    // With the rook elsewhere it is legal.
    let g = game("k6r/p7/8/8/3N4/4B3/8/4K3 w - - 0 1 bombs:d4,a7");
    assert!(can_detonate(&g, WHITE));
}

#[test]
fn detonation_that_destroys_the_enemy_king_wins_at_once() {
    let mut g = game("4k3/3R3p/8/8/8/8/P7/4K3 w - - 0 1 bombs:d7,h7");
    assert!(can_detonate(&g, WHITE));
    play(&mut g, &["detonate"]);
    assert_eq!(g.outcome(), Some(&Outcome::win(WHITE, EndReason::KingDestroyed)));
    assert_eq!(g.outcome().unwrap().result_text(), "1-0");
    assert_eq!(g.phase(), Phase::Finished);
    assert!(g.to_act().is_empty());
    assert!(is_empty(&g, "e8") && is_empty(&g, "d7"));
}

#[test]
fn detonation_that_destroys_the_enemy_king_wins_even_if_it_exposes_own_king() {
    // The blast takes the bishop on e3 (opening the e-file to the rook on e8) and the black king.
    let mut g = game("4r3/p7/8/4k3/3N4/4B3/7P/4K3 w - - 0 1 bombs:d4,a7");
    assert!(can_detonate(&g, WHITE));
    play(&mut g, &["detonate"]);
    assert_eq!(g.outcome(), Some(&Outcome::win(WHITE, EndReason::KingDestroyed)));
}

#[test]
fn detonation_is_a_legal_reply_to_check_when_it_resolves_the_check() {
    // The queen on e4 checks; the white carrier on d5 stands next to her.
    let mut g = game("7k/7p/8/3N4/4q3/8/8/4K3 w - - 0 1 bombs:d5,-");
    assert_eq!(g.view(Viewer::Spectator).board().check, Some(sq("e1")));
    assert!(can_detonate(&g, WHITE));
    play(&mut g, &["detonate"]);
    let view = g.view(Viewer::Spectator);
    assert!(view.fen().starts_with("7k/7p/8/8/8/8/8/4K3 b"), "{}", view.fen());
    assert_eq!(view.board().check, None);
    assert_eq!(g.outcome(), None);
}

#[test]
fn detonation_that_does_not_resolve_check_is_illegal() {
    let g = game("7k/7p/8/8/4q3/8/8/1N2K3 w - - 0 1 bombs:b1,-");
    assert_eq!(g.view(Viewer::Spectator).board().check, Some(sq("e1")));
    assert_detonation_refused(&g, WHITE);
}

#[test]
fn bombs_never_give_check() {
    let mut g = game("4k3/p7/8/8/8/8/8/3RK3 w - - 0 1 bombs:d1,a7");
    let rook = g.parse_action(WHITE, "Rd7").unwrap();
    assert_eq!(
        g.notation(WHITE, &rook),
        "Rd7",
        "a carrier next to the king is no check"
    );
    g.apply(WHITE, &rook).unwrap();
    for viewer in [Viewer::Seat(WHITE), Viewer::Seat(BLACK), Viewer::Spectator] {
        assert_eq!(g.view(viewer).board().check, None, "{viewer:?}");
    }
    // Black is free to leave the king next to the carrier.
    play(&mut g, &["a6"]);
    play(&mut g, &["detonate"]);
    assert_eq!(g.outcome(), Some(&Outcome::win(WHITE, EndReason::KingDestroyed)));
}

#[test]
fn blasted_rooks_lose_their_castling_rights() {
    let mut g = game("r3k2r/6B1/8/8/8/8/8/R3K2R w KQkq - 0 1 bombs:g7,-");
    play(&mut g, &["detonate"]);
    assert_eq!(fen_field(&g, 2), "KQq");
    assert!(matches!(g.parse_action(BLACK, "O-O"), Err(ActionError::Illegal(_))));
    assert!(g.parse_action(BLACK, "O-O-O").is_ok());
}

// ---------------------------------------------------------------------------------------------
// Mate and stalemate count detonation

#[test]
fn no_legal_move_but_a_legal_detonation_is_not_mate() {
    // Ra1 would be a back-rank mate, but White's carrier on b2 can blow the rook away.
    let mut g = game("r6k/8/8/8/8/8/1P3PPP/6K1 b - - 0 1 bombs:b2,-");
    let check = g.parse_action(BLACK, "Ra1").unwrap();
    assert_eq!(g.notation(BLACK, &check), "Ra1+");
    g.apply(BLACK, &check).unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_actions(WHITE), vec![Action::Detonate]);
    play(&mut g, &["detonate"]);
    assert!(is_empty(&g, "a1"));
    assert_eq!(g.view(Viewer::Spectator).board().check, None);
    assert_eq!(g.outcome(), None);

    // Without the bomb it is mate.
    let mut g = game("r6k/8/8/8/8/8/1P3PPP/6K1 b - - 0 1 bombs:-,-");
    let mate = g.parse_action(BLACK, "Ra1").unwrap();
    assert_eq!(g.notation(BLACK, &mate), "Ra1#");
    g.apply(BLACK, &mate).unwrap();
    assert_eq!(g.outcome(), Some(&Outcome::win(BLACK, EndReason::Checkmate)));
}

#[test]
fn fools_mate_is_no_mate_when_the_bomb_can_take_the_queen() {
    // White's carrier is the g-pawn: on g4 it stands next to the queen on h4.
    let mut g = chosen("g2", "e7");
    play(&mut g, &["f3", "e5", "g4", "Qh4"]);
    assert_eq!(records(&g.view(Viewer::Seat(BLACK))).last().unwrap(), "Qh4+");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_actions(WHITE), vec![Action::Detonate]);
    play(&mut g, &["detonate"]);
    assert!(is_empty(&g, "h4") && is_empty(&g, "f3") && is_empty(&g, "g4"));
    assert_eq!(g.outcome(), None);
}

#[test]
fn no_legal_move_but_a_legal_detonation_is_not_stalemate() {
    // White's king has no square and the h-pawn is blocked, but the pawn carries a bomb.
    let mut g = game("4k3/7p/7P/8/8/1q6/8/K7 w - - 0 1 bombs:h6,-");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_actions(WHITE), vec![Action::Detonate]);
    play(&mut g, &["detonate"]);
    assert!(is_empty(&g, "h7"));
    assert_eq!(g.outcome(), None);
    // Without the bomb it is stalemate.
    let g = game("4k3/7p/7P/8/8/1q6/8/K7 w - - 0 1 bombs:-,-");
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::Stalemate)));
}

// ---------------------------------------------------------------------------------------------
// Capture, promotion, and the draws

#[test]
fn a_captured_carrier_is_defused_and_nobody_is_told() {
    // Black's carrier is the knight on c6 in one game and the h-pawn in the other; White takes
    // the knight in both.
    let mut defused = game("1k6/7p/2n5/8/B7/8/8/4K3 w - - 0 1 bombs:a4,c6");
    let mut armed = game("1k6/7p/2n5/8/B7/8/8/4K3 w - - 0 1 bombs:a4,h7");
    for g in [&mut defused, &mut armed] {
        play(g, &["Bxc6"]);
    }
    // Neither the capturing side nor a spectator can tell the two games apart.
    for viewer in [Viewer::Seat(WHITE), Viewer::Spectator] {
        let view = defused.view(viewer);
        assert_eq!(view, armed.view(viewer), "{viewer:?}");
        assert_eq!(records(&view).last().unwrap(), "Bxc6");
        assert!(view.notes.is_empty(), "{:?}", view.notes);
    }
    assert_eq!(
        marked(&defused.view(Viewer::Seat(WHITE))),
        [sq("c6")],
        "White's own carrier only"
    );
    assert!(marked(&defused.view(Viewer::Spectator)).is_empty());
    // The bomb is gone for its owner.
    assert!(marked(&defused.view(Viewer::Seat(BLACK))).is_empty());
    assert_detonation_refused(&defused, BLACK);
    assert!(can_detonate(&armed, BLACK));
    assert_eq!(defused.outcome(), None);
}

#[test]
fn a_carrier_pawn_that_promotes_keeps_the_bomb() {
    let mut g = game("4k3/pP5p/8/8/8/8/8/4K3 w - - 0 1 bombs:b7,-");
    play(&mut g, &["b8=N"]);
    assert_eq!(marked(&g.view(Viewer::Seat(WHITE))), [sq("b8")]);
    assert!(marked(&g.view(Viewer::Seat(BLACK))).is_empty());
    play(&mut g, &["Kf7"]);
    assert!(can_detonate(&g, WHITE));
    play(&mut g, &["detonate"]);
    assert!(is_empty(&g, "b8") && is_empty(&g, "a7"));
    assert!(!is_empty(&g, "h7"));
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_carrier_rook_keeps_the_bomb_when_castling() {
    let mut g = game("4k3/p7/8/8/8/8/8/4K2R w K - 0 1 bombs:h1,a7");
    play(&mut g, &["O-O", "a6"]);
    assert_eq!(marked(&g.view(Viewer::Seat(WHITE))), [sq("f1")]);
    // On f1 the blast would reach the king on g1.
    assert_detonation_refused(&g, WHITE);
    play(&mut g, &["Rf5", "a5"]);
    assert_eq!(marked(&g.view(Viewer::Seat(WHITE))), [sq("f5")]);
    play(&mut g, &["detonate"]);
    assert!(is_empty(&g, "f5"));
}

#[test]
fn detonation_resets_the_fifty_move_count() {
    let fen = "7k/7p/8/8/8/8/8/N3K3 w - - 99 80 bombs:a1,-";
    // A quiet move would end the game...
    let mut quiet = game(fen);
    play(&mut quiet, &["Kd1"]);
    assert_eq!(quiet.outcome(), Some(&Outcome::draw(EndReason::FiftyMoves)));
    // ...a detonation starts the count again.
    let mut g = game(fen);
    play(&mut g, &["detonate"]);
    assert_eq!(g.outcome(), None);
    assert_eq!(fen_field(&g, 4), "0");
    play(&mut g, &["Kg8", "Kd2"]);
    assert_eq!(g.outcome(), None);
    assert_eq!(fen_field(&g, 4), "2");
}

#[test]
fn no_insufficient_material_draw_while_a_bomb_is_live() {
    // King and knight against king: dead in chess, but the knight carries a bomb.
    let g = game("8/8/4k3/8/8/8/3N4/4K3 w - - 0 1 bombs:d2,-");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.phase(), Phase::Play);
    let g = game("8/8/4k3/8/8/8/3N4/4K3 w - - 0 1 bombs:-,-");
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::InsufficientMaterial)));
}

#[test]
fn the_dead_position_draw_applies_once_the_last_bomb_is_gone() {
    // Taking Black's carrier leaves king and bishop against king with no bomb left.
    let mut g = game("8/8/4k3/8/8/2n5/8/B3K3 w - - 0 1 bombs:-,c3");
    play(&mut g, &["Bxc3"]);
    assert_eq!(g.outcome(), Some(&Outcome::draw(EndReason::InsufficientMaterial)));
    // If the bishop itself carries a bomb, the game goes on.
    let mut g = game("8/8/4k3/8/8/2n5/8/B3K3 w - - 0 1 bombs:a1,c3");
    play(&mut g, &["Bxc3"]);
    assert_eq!(g.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// The end of the game

#[test]
fn both_carriers_are_revealed_to_everyone_when_the_game_ends() {
    let mut g = chosen("a2", "e7");
    play(&mut g, &["f3", "e5", "g4"]);
    for viewer in [Viewer::Seat(BLACK), Viewer::Spectator] {
        let view = g.view(viewer);
        assert!(!marked(&view).contains(&sq("a2")), "{viewer:?}");
        assert!(
            !view.notes.iter().any(|n| n.contains("a2")),
            "{viewer:?}: {:?}",
            view.notes
        );
    }
    play(&mut g, &["Qh4#"]);
    assert_eq!(g.outcome(), Some(&Outcome::win(BLACK, EndReason::Checkmate)));
    for viewer in [Viewer::Seat(WHITE), Viewer::Seat(BLACK), Viewer::Spectator] {
        let view = g.view(viewer);
        assert_eq!(marked(&view), [sq("a2"), sq("e5")], "{viewer:?}");
        let records = records(&view);
        assert_eq!(records[..2], ["bomb:a2", "bomb:e7"], "{viewer:?}");
        assert_eq!(records.last().unwrap(), "Qh4#");
        let notes = view.notes.join("\n");
        assert!(notes.contains("White") && notes.contains("a2"), "{viewer:?}: {notes}");
        assert!(notes.contains("Black") && notes.contains("e5"), "{viewer:?}: {notes}");
    }
}

#[test]
fn carriers_are_revealed_after_a_resignation_too() {
    let mut g = chosen("b1", "g8");
    play(&mut g, &["Nc3"]);
    assert!(marked(&g.view(Viewer::Spectator)).is_empty());
    g.conclude(Outcome::win(WHITE, EndReason::Resignation));
    let view = g.view(Viewer::Spectator);
    assert_eq!(marked(&view), [sq("c3"), sq("g8")]);
    assert!(view.notes.join("\n").contains("c3"), "{:?}", view.notes);
}

#[test]
fn a_captured_carrier_is_named_when_the_game_ends() {
    let mut g = game("1k6/7p/2n5/8/B7/8/8/4K3 w - - 0 1 bombs:a4,c6");
    play(&mut g, &["Bxc6"]);
    g.conclude(Outcome::draw(EndReason::Agreement));
    let notes = g.view(Viewer::Spectator).notes;
    let black = notes
        .iter()
        .find(|n| n.starts_with("Black"))
        .expect("a note on Black's carrier");
    assert!(black.contains("c6"), "{notes:?}");
    assert_eq!(
        marked(&g.view(Viewer::Spectator)),
        [sq("c6")],
        "only White's carrier is left"
    );
}

// ---------------------------------------------------------------------------------------------
// Secrecy over random playouts

mod carriers_over_random_playouts {
    use super::*;
    use arbiter_engine::piece::Color;
    use proptest::prelude::*;
    use proptest::sample::Index;
    use proptest::test_runner::TestCaseError;

    /// Where each side's bomb carrier is, followed independently of the engine: it travels with
    /// its piece (castling rook and promotion included), and is gone once captured or detonated.
    #[derive(Clone, Copy, Debug, Default)]
    struct Carriers {
        chosen: [Option<Square>; 2],
        now: [Option<Square>; 2],
    }

    impl Carriers {
        fn follow(&mut self, game: &AnyGame, seat: Seat, action: &Action) {
            let (own, enemy) = (seat.index(), seat.other().index());
            match *action {
                Action::ChooseBomb { square } => {
                    self.chosen[own] = Some(square);
                    self.now[own] = Some(square);
                }
                Action::Detonate => {
                    let center = self.now[own].expect("only a live carrier detonates");
                    let is_blasted =
                        |sq: Square| sq.file().abs_diff(center.file()) <= 1 && sq.rank().abs_diff(center.rank()) <= 1;
                    for carrier in &mut self.now {
                        if carrier.is_some_and(is_blasted) {
                            *carrier = None;
                        }
                    }
                }
                Action::Move { from, to, .. } => {
                    let board = game.view(Viewer::Arbiter).boards.remove(0);
                    let is_pawn = |sq: Square| match board.cell(sq) {
                        ViewCell::Piece { piece, .. } => piece == 5,
                        _ => false,
                    };
                    let is_king = |sq: Square| match board.cell(sq) {
                        ViewCell::Piece { piece, .. } => piece == 0,
                        _ => false,
                    };
                    let is_en_passant = is_pawn(from) && from.file() != to.file() && board.cell(to) == ViewCell::Empty;
                    let captured = if is_en_passant {
                        Some(Square::new(to.file(), from.rank()))
                    } else {
                        (board.cell(to) != ViewCell::Empty).then_some(to)
                    };
                    if captured.is_some() && self.now[enemy] == captured {
                        self.now[enemy] = None;
                    }
                    if self.now[own] == Some(from) {
                        self.now[own] = Some(to);
                    } else if is_king(from) && from.file().abs_diff(to.file()) == 2 {
                        let (rook_from, rook_to) = if to.file() > from.file() {
                            (Square::new(7, from.rank()), Square::new(5, from.rank()))
                        } else {
                            (Square::new(0, from.rank()), Square::new(3, from.rank()))
                        };
                        if self.now[own] == Some(rook_from) {
                            self.now[own] = Some(rook_to);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn marked_of(game: &AnyGame, viewer: Viewer, color: Color) -> Vec<Square> {
        let view = game.view(viewer);
        marked(&view)
            .into_iter()
            .filter(|&sq| matches!(view.board().cell(sq), ViewCell::Piece { color: c, .. } if c == color))
            .collect()
    }

    fn check_secrecy(game: &AnyGame, carriers: &Carriers) -> Result<(), TestCaseError> {
        let debug = format!("{game:?}");
        prop_assert!(!debug.contains("bomb:"), "Debug output shows a bomb: {}", debug);
        let is_over = game.outcome().is_some();
        for seat in Seat::BOTH {
            let color = seat.color();
            let live: Vec<Square> = carriers.now[seat.index()].into_iter().collect();
            // The owner (and the arbiter) see the carrier: the mark is real, so hiding it means something.
            prop_assert_eq!(
                marked_of(game, Viewer::Seat(seat), color),
                live.clone(),
                "{:?}'s own view",
                seat
            );
            prop_assert_eq!(
                marked_of(game, Viewer::Arbiter, color),
                live.clone(),
                "the arbiter's view"
            );
            let Some(chosen) = carriers.chosen[seat.index()] else {
                continue;
            };
            let secret = format!("bomb:{chosen}");
            let own_record = game.view(Viewer::Seat(seat)).record;
            prop_assert!(
                own_record.iter().any(|e| e.seat == seat && e.text == secret),
                "{:?} does not see their own choice {} in {:?}",
                seat,
                secret,
                own_record
            );
            for viewer in [Viewer::Seat(seat.other()), Viewer::Spectator] {
                if is_over {
                    // Both carriers are revealed at the end.
                    prop_assert_eq!(
                        marked_of(game, viewer, color),
                        live.clone(),
                        "{:?} after the end",
                        viewer
                    );
                    continue;
                }
                prop_assert!(
                    marked_of(game, viewer, color).is_empty(),
                    "{:?} sees {:?}'s carrier on {:?}",
                    viewer,
                    seat,
                    live
                );
                let view = game.view(viewer);
                let text = serde_json::to_string(&view).expect("a view serialises");
                prop_assert!(
                    !text.contains(&secret),
                    "{:?}'s view contains {}: {}",
                    viewer,
                    secret,
                    text
                );
                if viewer == Viewer::Spectator {
                    prop_assert!(!text.contains("bomb:"), "the spectator's view names a bomb: {}", text);
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn carriers_stay_secret_until_the_end(picks in proptest::collection::vec((any::<Index>(), any::<Index>()), 0..64)) {
            let mut game = AnyGame::new(VariantId::Beirut);
            let mut carriers = Carriers::default();
            for (seat_pick, action_pick) in picks {
                check_secrecy(&game, &carriers)?;
                let to_act = game.to_act();
                if to_act.is_empty() {
                    break;
                }
                let seat = to_act[seat_pick.index(to_act.len())];
                let legal = game.legal_actions(seat);
                let action = legal[action_pick.index(legal.len())].clone();
                carriers.follow(&game, seat, &action);
                game.apply(seat, &action).expect("a legal action applies");
            }
            check_secrecy(&game, &carriers)?;
        }
    }
}
