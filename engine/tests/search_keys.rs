//! A position's search key ([`Game::search_key`]) decides what the search reads of it: two
//! positions with one key have the same legal actions and the same worth to either seat (the
//! search keeps both by key: its table of positions, and each worth it weighed), and positions
//! that differ on the board have different keys.

mod common;

use arbiter_engine::ai::evaluate::Evaluator;
use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use common::{played, playout};
use std::collections::HashMap;

/// What the search reads of a position: each seat's worth and legal actions, and the boards.
#[derive(Debug, PartialEq)]
struct Read {
    worth: [i32; 2],
    actions: [Vec<String>; 2],
    boards: String,
}

fn read(id: VariantId, game: &AnyGame) -> Read {
    let worth = Seat::BOTH.map(|seat| Evaluator::new(seat, id).evaluate(game));
    let actions = Seat::BOTH.map(|seat| {
        let mut listed: Vec<String> = game.legal_actions(seat).iter().map(|a| format!("{a:?}")).collect();
        listed.sort();
        listed
    });
    let boards = format!(
        "{:?}",
        game.sight(Viewer::Spectator)
            .boards
            .iter()
            .map(|b| &b.cells)
            .collect::<Vec<_>>()
    );
    Read { worth, actions, boards }
}

/// Files `game` under its key, if it has one, checking it against what the key already holds:
/// whether it was there before.
fn file(id: VariantId, keyed: &mut HashMap<u64, Read>, game: &AnyGame) -> Option<bool> {
    let key = game.search_key()?;
    let mut unwritten = game.clone();
    unwritten.stop_writing();
    assert_eq!(
        unwritten.search_key(),
        Some(key),
        "{id:?}: a search's copy keeps the key"
    );
    let now = read(id, game);
    match keyed.get(&key) {
        Some(before) => {
            assert_eq!(before, &now, "{id:?}: one key, two positions");
            Some(true)
        }
        None => {
            keyed.insert(key, now);
            Some(false)
        }
    }
}

#[test]
fn positions_with_one_key_read_the_same() {
    let (mut keyed_games, mut met_again) = (Vec::new(), 0);
    for &id in VariantId::ALL {
        let mut keyed = HashMap::new();
        // Each position of random games, and every position one action after it: siblings
        // differ by one piece's move, where a key that missed a square would collide.
        for game in playout(id, 1, 30) {
            let mut positions = vec![game.clone()];
            for seat in game.to_act() {
                for action in game.legal_actions(seat) {
                    let mut next = game.clone();
                    next.apply(seat, &action).expect("a legal action applies");
                    positions.push(next);
                }
            }
            for position in &positions {
                if let Some(again) = file(id, &mut keyed, position) {
                    met_again += usize::from(again);
                }
            }
        }
        if !keyed.is_empty() {
            keyed_games.push(id);
        }
    }
    for id in [
        VariantId::Chess,
        VariantId::Circe,
        VariantId::Portal,
        VariantId::Domination,
        VariantId::UltimateBattle,
    ] {
        assert!(keyed_games.contains(&id), "{id:?} has keys: {keyed_games:?}");
    }
    assert!(met_again > 0, "random games meet some positions again");
}

#[test]
fn a_position_reached_by_another_order_of_moves_has_the_same_key() {
    for id in [
        VariantId::Chess,
        VariantId::Circe,
        VariantId::Portal,
        VariantId::KnightsAreGod,
        VariantId::Domination,
    ] {
        let one = played(id, "e3 e6 d3 d6");
        let other = played(id, "d3 d6 e3 e6");
        let mut keyed = HashMap::new();
        assert_eq!(file(id, &mut keyed, &one), Some(false), "{id:?}");
        assert_eq!(file(id, &mut keyed, &other), Some(true), "{id:?}");
        let back = played(id, "e3 e6 d3 d6 h3 h6");
        assert_ne!(back.search_key(), one.search_key(), "{id:?}: another position");
        let moved = played(id, "e3 e6 d3 d6 a3");
        assert_ne!(moved.search_key(), played(id, "e3 e6 d3 d6 a4").search_key(), "{id:?}");
    }
}
