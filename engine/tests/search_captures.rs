//! The captures a game lists alone for the search's quiescence ([`Game::search_captures`]) are
//! its legal actions that capture, in their order; and a search's copy, which checks each move
//! it tries alone rather than among every legal move, takes and refuses what the game does.

mod common;

use arbiter_engine::geometry::Square;
use arbiter_engine::{Action, AnyGame, Game, Seat, VariantId, ViewCell, Viewer};
use common::playout;

/// `seat`'s legal actions that move onto a piece of the other side, as the seat sees the board.
fn capturing(game: &AnyGame, seat: Seat) -> Vec<Action> {
    let sight = game.sight(Viewer::Seat(seat));
    game.legal_actions(seat)
        .into_iter()
        .filter(|action| {
            let Action::Move { to, board, .. } = action else {
                return false;
            };
            let board = &sight.boards[*board as usize];
            matches!(board.cell(*to), ViewCell::Piece { color, .. } if board.seats[color.index()] != seat)
        })
        .collect()
}

#[test]
fn the_captures_listed_alone_are_the_legal_actions_that_capture_in_their_order() {
    let mut listed_anywhere = 0;
    for &id in VariantId::ALL {
        for seed in 0..4 {
            for state in playout(id, seed, 120) {
                let mut unwritten = state.clone();
                unwritten.stop_writing();
                for seat in Seat::BOTH {
                    for game in [&state, &unwritten] {
                        let Some(listed) = game.search_captures(seat) else {
                            continue;
                        };
                        listed_anywhere += listed.len();
                        assert_eq!(listed, capturing(game, seat), "{id:?}, seed {seed}, {seat:?}");
                    }
                }
            }
        }
    }
    assert!(listed_anywhere > 1000, "the games list captures: {listed_anywhere}");
}

/// `game` as stored and read back: the same game without the legal moves it listed.
fn reread(game: &AnyGame) -> AnyGame {
    serde_json::from_value(serde_json::to_value(game).unwrap()).unwrap()
}

/// Every move `seat` could name from a square of its own: its legal ones (promotions
/// included) and every other square each of its pieces could be sent to (most illegal).
fn named_moves(game: &AnyGame, seat: Seat) -> Vec<Action> {
    let sight = game.sight(Viewer::Seat(seat));
    let board = &sight.boards[0];
    let mut named = game.legal_actions(seat);
    let squares = |board: &arbiter_engine::BoardView| {
        let files = board.files;
        (0..board.cells.len()).map(move |index| Square::new(index as u8 % files, index as u8 / files))
    };
    for (index, from) in squares(board).enumerate() {
        if matches!(board.cells[index], ViewCell::Piece { color, .. } if board.seats[color.index()] == seat) {
            named.extend(squares(board).map(|to| Action::simple_move(from, to)));
        }
    }
    named
}

#[test]
fn a_search_copy_takes_and_refuses_each_move_as_the_game_does() {
    let mut taken = 0;
    let mut refused = 0;
    for id in [
        VariantId::Chess,
        VariantId::Circe,
        VariantId::Portal,
        VariantId::KnightsAreGod,
    ] {
        for seed in 0..2 {
            for state in playout(id, seed, 100).into_iter().step_by(7) {
                let Some(&seat) = state.to_act().first() else {
                    continue;
                };
                for action in named_moves(&state, seat) {
                    // Each a fresh copy: the search's lists none of the legal moves yet, so it
                    // checks the move alone.
                    let mut written = state.clone();
                    let mut unwritten = reread(&state);
                    unwritten.stop_writing();
                    let a = written.apply(seat, &action);
                    let b = unwritten.apply(seat, &action);
                    assert_eq!(a, b, "{id:?}, seed {seed}, {action:?}");
                    if a.is_ok() {
                        taken += 1;
                        assert_eq!(
                            written.sight(Viewer::Spectator).boards[0].cells,
                            unwritten.sight(Viewer::Spectator).boards[0].cells,
                            "{id:?}, seed {seed}, {action:?}"
                        );
                        assert_eq!(written.outcome(), unwritten.outcome());
                    } else {
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(taken > 500 && refused > 5000, "taken {taken}, refused {refused}");
}
