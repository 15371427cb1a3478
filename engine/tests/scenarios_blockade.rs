//! Blockade Chess and Garden of Statues, ruling by ruling (rules page docs/rules/blockade.md), through the public `Game` API.
//!
//! Positions in play are written as a board (`*` = statue) and the side to act. Every position
//! below has all ten pieces on the board, and as many statues as turns played: an even number
//! with White to act, odd with Black.

use arbiter_engine::geometry::Square;
use arbiter_engine::piece::Color;
use arbiter_engine::view::{MarkKind, Tone, View};
use arbiter_engine::{
    Action, ActionError, AnyGame, EndReason, Game, Outcome, Phase, Seat, VariantId, ViewCell, Viewer,
};

const WHITE: Seat = Seat::First;
const BLACK: Seat = Seat::Second;

/// The pieces on their FIDE squares, nothing else on the board.
const HOME: &str = "r1bq1b1r/8/8/8/8/8/8/R1BQ1B1R w";

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn game(id: VariantId, fen: &str) -> AnyGame {
    AnyGame::from_fen(id, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The tinted statue a view shows, with the colour of its tint.
fn tinted_statue(view: &View) -> Option<(Square, Color)> {
    let board = view.board();
    let tints: Vec<(Square, Color)> = board
        .marks
        .iter()
        .filter_map(|mark| match mark.kind {
            MarkKind::Tint(Tone::Side(color)) => Some((mark.square, color)),
            _ => None,
        })
        .collect();
    assert!(tints.len() <= 1, "{tints:?}");
    let tint = tints.first().copied();
    if let Some((square, _)) = tint {
        assert_eq!(board.cell(square), ViewCell::Statue);
    }
    tint
}

/// The colour and symbol of the piece on a square of a view.
fn piece_on(view: &View, square: Square) -> Option<(Color, String)> {
    match view.board().cell(square) {
        ViewCell::Piece { color, piece } => Some((color, view.piece(piece).symbol.to_string())),
        _ => None,
    }
}

fn mover(game: &AnyGame) -> Seat {
    let seats = game.to_act();
    assert_eq!(seats.len(), 1, "one side acts at a time: {seats:?}");
    seats[0]
}

/// Reads and applies an action of the side to act, panicking on any refusal.
fn play(game: &mut AnyGame, text: &str) {
    let seat = mover(game);
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"));
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("{text} not applied: {e}"));
}

/// Checks that the side to act cannot play `text`: it reads, but is refused as illegal.
fn assert_refused(game: &AnyGame, text: &str) {
    let seat = mover(game);
    match game.parse_action(seat, text) {
        Err(ActionError::Illegal(_)) => {}
        other => panic!("{text} should be refused as illegal, got {other:?}"),
    }
}

fn turn(from: &str, to: &str, statue: &str) -> Action {
    Action::MoveAndStatue {
        from: sq(from),
        to: sq(to),
        statue: sq(statue),
    }
}

fn record(game: &AnyGame) -> Vec<String> {
    game.view(Viewer::Spectator)
        .record
        .into_iter()
        .map(|e| e.text)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Set-up

#[test]
fn setup_follows_the_snake_order_and_play_starts_with_white() {
    let mut g = AnyGame::new(VariantId::Blockade);
    let placements = [
        (WHITE, "Q@d1"),
        (BLACK, "Q@d8"),
        (BLACK, "R@a8"),
        (WHITE, "R@a1"),
        (WHITE, "R@h1"),
        (BLACK, "R@h8"),
        (BLACK, "B@c8"),
        (WHITE, "B@c1"),
        (WHITE, "B@f1"),
        (BLACK, "B@f8"),
    ];
    for (i, (seat, text)) in placements.iter().enumerate() {
        assert_eq!(g.phase(), Phase::Setup, "before placement {}", i + 1);
        assert_eq!(g.to_act(), vec![*seat], "before placement {} ({text})", i + 1);
        assert_eq!(g.view(Viewer::Spectator).to_act, vec![*seat]);
        let other = seat.other();
        assert_eq!(
            g.parse_action(other, "Q@e4"),
            Err(ActionError::NotYourTurn),
            "placement {}",
            i + 1
        );
        play(&mut g, text);
    }
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.to_act(), vec![WHITE]);
    assert_eq!(g.outcome(), None);
    let view = g.view(Viewer::Spectator);
    assert!(view.hands.iter().all(|h| h.is_empty()), "{:?}", view.hands);
    assert!(
        view.fen().starts_with("r1bq1b1r/8/8/8/8/8/8/R1BQ1B1R w"),
        "{}",
        view.fen()
    );
    // Black may not start play.
    assert!(g.legal_actions(BLACK).is_empty());
    assert_eq!(g.parse_action(BLACK, "Qd8-d5@d7"), Err(ActionError::NotYourTurn));
    // No more placements once play has begun.
    let place = Action::Place {
        piece: "blockade-queen".into(),
        to: sq("e4"),
    };
    assert!(matches!(g.clone().apply(WHITE, &place), Err(ActionError::Illegal(_))));
    assert!(g.parse_action(WHITE, "Q@e4").is_err());
    play(&mut g, "Qd1-d5@d7");
    assert_eq!(g.to_act(), vec![BLACK]);
}

#[test]
fn black_places_twice_in_a_row_after_whites_first_placement() {
    let mut g = AnyGame::new(VariantId::Blockade);
    play(&mut g, "Q@d4");
    assert_eq!(g.to_act(), vec![BLACK]);
    play(&mut g, "B@a1");
    assert_eq!(g.to_act(), vec![BLACK], "Black's second placement of the pair");
    assert!(g.legal_actions(WHITE).is_empty());
    play(&mut g, "B@h8");
    assert_eq!(g.to_act(), vec![WHITE]);
    play(&mut g, "R@a2");
    assert_eq!(g.to_act(), vec![WHITE], "White's second placement of the pair");
    play(&mut g, "R@b2");
    assert_eq!(g.to_act(), vec![BLACK]);
}

#[test]
fn a_placement_is_written_with_an_at_sign_and_names_the_chosen_piece() {
    let mut g = AnyGame::new(VariantId::Blockade);
    let queen = g.parse_action(WHITE, "Q@d4").unwrap();
    assert!(matches!(queen, Action::Place { to, .. } if to == sq("d4")), "{queen:?}");
    assert_eq!(g.notation(WHITE, &queen), "Q@d4");
    let rook = g.parse_action(WHITE, "R@d4").unwrap();
    let bishop = g.parse_action(WHITE, "B@d4").unwrap();
    assert_ne!(queen, rook);
    assert_ne!(rook, bishop);
    assert_ne!(queen, bishop);
    // Every piece in hand may go on every empty square.
    assert_eq!(g.legal_actions(WHITE).len(), 3 * 64);
    g.apply(WHITE, &bishop).unwrap();
    assert_eq!(record(&g), ["B@d4"]);
    let view = g.view(Viewer::Spectator);
    assert_eq!(piece_on(&view, sq("d4")), Some((Color::White, "B".into())));
    let hand: Vec<String> = view.hands[0]
        .iter()
        .map(|&p| view.piece(p).symbol.to_string())
        .collect();
    assert_eq!(hand, ["Q", "R", "R", "B"]);
}

#[test]
fn a_piece_no_longer_in_hand_cannot_be_placed() {
    let mut g = AnyGame::new(VariantId::Blockade);
    for text in ["B@a1", "b@a8", "b@b8", "B@b1"] {
        play(&mut g, text);
    }
    // White has placed both bishops.
    assert_eq!(g.to_act(), vec![WHITE]);
    assert_refused(&g, "B@c1");
    let kinds: std::collections::BTreeSet<String> = g
        .legal_actions(WHITE)
        .iter()
        .map(|a| g.notation(WHITE, a)[..1].to_string())
        .collect();
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["Q", "R"]);
}

#[test]
fn a_placement_on_an_occupied_square_is_refused() {
    let mut g = AnyGame::new(VariantId::Blockade);
    let Action::Place { piece: queen, .. } = g.parse_action(WHITE, "Q@a1").unwrap() else {
        panic!("a placement reads as a placement");
    };
    play(&mut g, "Q@d4");
    assert_eq!(g.to_act(), vec![BLACK]);
    assert_refused(&g, "Q@d4");
    assert_refused(&g, "R@d4");
    let onto_d4 = Action::Place {
        piece: queen.clone(),
        to: sq("d4"),
    };
    assert!(!g.legal_actions(BLACK).contains(&onto_d4));
    assert!(g.legal_actions(BLACK).contains(&Action::Place {
        piece: queen,
        to: sq("d5")
    }));
    let before = g.clone();
    assert!(matches!(g.apply(BLACK, &onto_d4), Err(ActionError::Illegal(_))));
    assert_eq!(g, before, "a refused action changes nothing");
}

// ---------------------------------------------------------------------------------------------
// A turn

#[test]
fn a_turn_moves_a_piece_then_places_a_statue() {
    let mut g = game(VariantId::Blockade, HOME);
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.to_act(), vec![WHITE]);
    let action = g.parse_action(WHITE, "Qd1-d5@d7").unwrap();
    assert_eq!(action, turn("d1", "d5", "d7"));
    assert_eq!(g.notation(WHITE, &action), "Qd1-d5@d7");
    // The short form reads the same.
    assert_eq!(g.parse_action(WHITE, "d1d5d7").unwrap(), action);
    g.apply(WHITE, &action).unwrap();
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.board().cell(sq("d1")), ViewCell::Empty);
    assert_eq!(piece_on(&view, sq("d5")), Some((Color::White, "Q".into())));
    assert_eq!(view.board().cell(sq("d7")), ViewCell::Statue);
    assert_eq!(view.board().last_move, Some((sq("d1"), sq("d5"))));
    assert_eq!(tinted_statue(&view), Some((sq("d7"), Color::White)));
    assert_eq!(view.record.last().unwrap().text, "Qd1-d5@d7");
    assert!(
        view.fen().starts_with("r1bq1b1r/3*4/8/3Q4/8/8/8/R1B2B1R b"),
        "{}",
        view.fen()
    );
    assert_eq!(g.to_act(), vec![BLACK]);
}

#[test]
fn a_turn_naming_the_wrong_piece_is_refused() {
    let g = game(VariantId::Blockade, HOME);
    assert_refused(&g, "Rd1-d5@d7");
}

#[test]
fn pieces_never_capture() {
    let g = game(VariantId::Blockade, HOME);
    // The a-file is open up to Black's rook on a8, the h-file up to h8.
    assert_refused(&g, "Ra1-a8@a1");
    assert_refused(&g, "Rh1-h8@h1");
    // Nor onto a piece of one's own.
    assert_refused(&g, "Ra1-c1@a1");
    let actions = g.legal_actions(WHITE);
    assert!(!actions.is_empty());
    assert!(
        actions
            .iter()
            .all(|a| matches!(a, Action::MoveAndStatue { to, .. } if ![sq("a8"), sq("h8")].contains(to))),
        "a move onto an occupied square is offered"
    );
    // Moving up to the enemy rook is fine.
    assert!(actions.contains(&turn("a1", "a7", "a1")));
}

#[test]
fn a_move_onto_or_across_a_statue_is_refused() {
    let mut g = game(VariantId::Blockade, HOME);
    play(&mut g, "Qd1-d5@d7");
    assert_refused(&g, "Qd8-d7@d8");
    assert_refused(&g, "Qd8-d6@d8");
    assert_refused(&g, "Bc8-e6@c8");
    let crosses_d7 = |a: &Action| match *a {
        Action::MoveAndStatue { from, to, .. } => from == sq("d8") && [sq("d7"), sq("d6")].contains(&to),
        _ => false,
    };
    assert!(!g.legal_actions(BLACK).iter().any(crosses_d7));
}

#[test]
fn the_statue_must_lie_on_the_moved_pieces_lines() {
    let g = game(VariantId::Blockade, HOME);
    // A rook places orthogonally, a bishop diagonally, a queen either way.
    assert_refused(&g, "Rh1-h4@g5");
    play(&mut g.clone(), "Rh1-h4@b4");
    assert_refused(&g, "Bc1-e3@e5");
    play(&mut g.clone(), "Bc1-e3@g5");
    assert_refused(&g, "Qd1-d5@f6");
    play(&mut g.clone(), "Qd1-d5@f7");
    play(&mut g.clone(), "Qd1-d5@h5");
    // The statue goes out from the moved piece's new square: a3 lies on the bishop's diagonal from
    // c1, not from e3.
    assert_refused(&g, "Bc1-e3@a3");
    play(&mut g.clone(), "Bc1-e3@g1");
}

#[test]
fn the_statue_must_go_on_an_empty_square() {
    let g = game(VariantId::Blockade, HOME);
    assert_refused(&g, "Qd1-d5@d5");
    assert_refused(&g, "Qd1-d5@d8");
    assert_refused(&g, "Ra1-a4@a8");
    play(&mut g.clone(), "Ra1-a4@a7");
}

#[test]
fn the_statue_may_not_cross_a_piece_or_a_statue() {
    let mut g = game(VariantId::Blockade, HOME);
    play(&mut g, "Qd1-d5@d7");
    // From h5 along the fifth rank, White's queen on d5 blocks the way to c5.
    assert_refused(&g, "Rh8-h5@c5");
    play(&mut g.clone(), "Rh8-h5@e5");
    // From b7 the bishop's diagonal runs into White's queen on d5.
    assert_refused(&g, "Bc8-b7@e4");
    play(&mut g.clone(), "Bc8-b7@c6");
    // From c6 the diagonal to e8 crosses White's own statue on d7.
    let mut h = g.clone();
    play(&mut h, "Bf8-e7@c5");
    assert_refused(&h, "Qd5-c6@e8");
    play(&mut h.clone(), "Qd5-c6@b7");
}

#[test]
fn the_square_just_left_counts_as_empty_for_the_statue() {
    let g = game(VariantId::Blockade, HOME);
    let mut back = g.clone();
    play(&mut back, "Qd1-d5@d1");
    assert_eq!(back.view(Viewer::Spectator).board().cell(sq("d1")), ViewCell::Statue);
    play(&mut g.clone(), "Ra1-a4@a1");
    play(&mut g.clone(), "Rh1-h3@h1");
    // The statue may also pass over the square just left.
    let mut over = g.clone();
    play(&mut over, "Qd1-d4@h4");
    play(&mut over, "Qd8-e7@e6");
    play(&mut over, "Qd4-d3@d6");
    assert_eq!(over.view(Viewer::Spectator).board().cell(sq("d6")), ViewCell::Statue);
    // Every move can at least put its statue back where the piece came from.
    let actions = g.legal_actions(WHITE);
    for action in &actions {
        let Action::MoveAndStatue { from, to, .. } = *action else {
            panic!("{action:?}");
        };
        assert!(
            actions.contains(&Action::MoveAndStatue { from, to, statue: from }),
            "{from}-{to} cannot put its statue on {from}"
        );
    }
}

#[test]
fn a_piece_in_a_pocket_can_only_put_its_statue_on_the_square_it_left() {
    // The rook on a1 can only step to a2 (a3, b1 and b2 hold statues); from a2 the only empty
    // square on its lines is a1, which it has just left.
    let g = game(VariantId::Blockade, "r1bq1b1r/8/8/8/7*/*7/1*6/R*BQ1B1R w");
    let rook_turns: Vec<Action> = g
        .legal_actions(WHITE)
        .into_iter()
        .filter(|a| matches!(a, Action::MoveAndStatue { from, .. } if *from == sq("a1")))
        .collect();
    assert_eq!(rook_turns, vec![turn("a1", "a2", "a1")]);
    let mut after = g.clone();
    play(&mut after, "Ra1-a2@a1");
    assert_refused(&g, "Ra1-a2@a3");
    assert_refused(&g, "Ra1-a2@b2");
}

// ---------------------------------------------------------------------------------------------
// Winning

#[test]
fn a_player_with_no_complete_turn_at_the_start_of_their_turn_loses() {
    // White's five pieces are walled in on the first rank.
    let g = game(VariantId::Blockade, "qrrbb3/8/8/8/8/8/********/QRRBB**1 w");
    assert_eq!(g.outcome(), Some(&Outcome::win(BLACK, EndReason::NoCompleteTurn)));
    assert_eq!(g.phase(), Phase::Finished);
    assert!(g.to_act().is_empty());
    assert!(g.legal_actions(WHITE).is_empty());
    assert_eq!(g.parse_action(WHITE, "Qa1-a2@a3"), Err(ActionError::GameOver));
    // The same for Black.
    let g = game(VariantId::Blockade, "qrrb***b/********/8/8/8/8/8/QR1BB1R1 b");
    assert_eq!(g.outcome(), Some(&Outcome::win(WHITE, EndReason::NoCompleteTurn)));
}

#[test]
fn a_player_walled_in_by_the_setup_loses_before_moving() {
    let mut g = AnyGame::new(VariantId::Blockade);
    // White's queen, rooks and bishops end up in the a1 corner and on h1, hemmed in by Black.
    for text in ["Q@a1", "B@a3", "R@c1", "R@a2", "R@b1", "R@c3", "B@g2", "B@b2", "B@h1"] {
        play(&mut g, text);
        assert_eq!(g.outcome(), None, "after {text}");
    }
    play(&mut g, "Q@e5");
    assert_eq!(g.outcome(), Some(&Outcome::win(BLACK, EndReason::NoCompleteTurn)));
    assert!(g.legal_actions(WHITE).is_empty());
}

#[test]
fn a_turn_that_takes_the_opponents_last_turn_away_wins() {
    // Black's only mobile piece is the bishop on h8, which can only leave through g7.
    let fen = "qrrb***b/******1*/8/8/8/8/8/QR1BB1R1 w";
    let g = game(VariantId::Blockade, fen);
    assert_eq!(g.outcome(), None);
    let mut harmless = g.clone();
    play(&mut harmless, "Rg1-g2@g1");
    assert_eq!(harmless.outcome(), None);
    assert_eq!(harmless.to_act(), vec![BLACK]);
    assert!(
        harmless
            .legal_actions(BLACK)
            .iter()
            .all(|a| matches!(a, Action::MoveAndStatue { from, .. } if *from == sq("h8")))
    );
    let mut g = g;
    play(&mut g, "Rg1-g2@g7");
    assert_eq!(g.outcome(), Some(&Outcome::win(WHITE, EndReason::NoCompleteTurn)));
    assert_eq!(
        g.view(Viewer::Spectator).outcome,
        Some(Outcome::win(WHITE, EndReason::NoCompleteTurn))
    );
}

// ---------------------------------------------------------------------------------------------
// Garden of Statues

#[test]
fn garden_of_statues_calls_the_sides_red_and_blue() {
    let g = AnyGame::new(VariantId::Garden);
    assert_eq!(g.variant_id(), "garden");
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.seat_names, ["Red".to_string(), "Blue".to_string()]);
    assert_eq!(view.variant, "garden");
    assert_eq!(g.to_act(), vec![WHITE], "Red places first");
    let blockade = AnyGame::new(VariantId::Blockade).view(Viewer::Spectator);
    assert_eq!(blockade.seat_names, ["White".to_string(), "Black".to_string()]);
}

#[test]
fn garden_of_statues_tints_the_latest_statue_with_its_placers_colour() {
    let mut g = game(VariantId::Garden, HOME);
    assert_eq!(tinted_statue(&g.view(Viewer::Spectator)), None);
    play(&mut g, "Qd1-d5@d7");
    assert_eq!(
        tinted_statue(&g.view(Viewer::Spectator)),
        Some((sq("d7"), Color::White))
    );
    assert_eq!(
        tinted_statue(&g.view(Viewer::Seat(BLACK))),
        Some((sq("d7"), Color::White))
    );
    play(&mut g, "Qd8-e7@e6");
    let view = g.view(Viewer::Spectator);
    assert_eq!(tinted_statue(&view), Some((sq("e6"), Color::Black)));
    // Older statues stay, untinted.
    assert_eq!(view.board().cell(sq("d7")), ViewCell::Statue);
}
