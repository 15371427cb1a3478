//! What the scenario tests of several games share: playing a scripted game by the seats to act,
//! and reading the reference data in tests/oracles/.

#![allow(dead_code)]

use arbiter_engine::geometry::Square;
use arbiter_engine::{Action, AnyGame, Game, Seat, VariantId, Viewer};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// The one seat to act.
pub fn mover(game: &AnyGame) -> Seat {
    let seats = game.to_act();
    assert_eq!(seats.len(), 1, "one side acts at a time: {seats:?}");
    seats[0]
}

/// Plays actions written as players write them, each by the first seat to act.
pub fn play(game: &mut AnyGame, texts: &str) {
    for text in texts.split_whitespace() {
        let Some(&seat) = game.to_act().first() else {
            panic!("{text}: the game is over ({:?})", game.outcome());
        };
        let action = game
            .parse_action(seat, text)
            .unwrap_or_else(|e| panic!("{text} refused: {e} in {}", game.view(Viewer::Spectator).fen()));
        game.apply(seat, &action)
            .unwrap_or_else(|e| panic!("{text} not applied: {e}"));
    }
}

pub fn played(id: VariantId, texts: &str) -> AnyGame {
    let mut game = AnyGame::new(id);
    play(&mut game, texts);
    game
}

pub fn from_fen(id: VariantId, fen: &str) -> AnyGame {
    AnyGame::from_fen(id, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The notation of `seat`'s legal actions, without check marks and without where a piece is
/// carried on (`Nf3>b5` is `Nf3`), sorted: the form the reference data lists them in.
pub fn legal_san(game: &AnyGame, seat: Seat) -> Vec<String> {
    let mut texts: Vec<String> = game
        .noted_actions(seat)
        .into_iter()
        .map(|(_, text)| plain_san(&text))
        .collect();
    texts.sort();
    texts
}

/// The notation of `seat`'s legal actions with their check marks but without where a piece is
/// carried on, sorted.
pub fn legal_san_with_checks(game: &AnyGame, seat: Seat) -> Vec<String> {
    let mut texts: Vec<String> = game
        .noted_actions(seat)
        .into_iter()
        .map(|(_, text)| {
            let mark = text.trim_start_matches(|c| c != '+' && c != '#');
            format!("{}{mark}", plain_san(&text))
        })
        .collect();
    texts.sort();
    texts
}

/// SAN without check marks and without an arrival (`Nxf3>b5+` is `Nxf3`).
pub fn plain_san(text: &str) -> String {
    let text = text.trim_end_matches(['+', '#']);
    match text.split_once('>') {
        Some((body, rest)) => {
            let bracket = rest.find('(').map_or("", |at| &rest[at..]);
            format!("{body}{bracket}")
        }
        None => text.to_string(),
    }
}

/// An action in coordinates: origin, destination, and the promotion piece's letter.
pub fn coordinates(game: &AnyGame, action: &Action) -> String {
    let Action::Move {
        from, to, promotion, ..
    } = action
    else {
        panic!("{action:?} is not a move");
    };
    let view = game.view(Viewer::Arbiter);
    let letter = promotion.as_ref().map_or(String::new(), |id| {
        let piece = view
            .pieces
            .iter()
            .find(|p| *p.id == *id.as_str())
            .expect("a piece of the game");
        piece.symbol.as_str().to_ascii_lowercase()
    });
    format!("{from}{to}{letter}")
}

pub fn sorted(values: &Value) -> Vec<String> {
    let mut out: Vec<String> = values
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("text").to_string())
        .collect();
    out.sort();
    out
}

/// The fields of a FEN that every program writes alike: board, side, castling, counters (en
/// passant squares are written only when a capture is legal by some programs, always by others).
pub fn comparable_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let keep: Vec<&str> = fields
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, f)| *f)
        .collect();
    keep.join(" ")
}

/// The cases of a reference file.
pub fn cases(text: &str) -> Vec<Value> {
    let data: Value = serde_json::from_str(text).expect("reference data is JSON");
    data["cases"].as_array().expect("cases").clone()
}

/// The states of a random playout of `id` from its start, at most `plies` actions long.
pub fn playout(id: VariantId, seed: u64, plies: usize) -> Vec<AnyGame> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = AnyGame::new(id);
    let mut states = vec![game.clone()];
    for _ in 0..plies {
        let to_act = game.to_act();
        if to_act.is_empty() {
            break;
        }
        let seat = to_act[rng.random_range(0..to_act.len())];
        let legal = game.legal_actions(seat);
        if legal.is_empty() {
            break;
        }
        let action = &legal[rng.random_range(0..legal.len())];
        game.apply(seat, action).expect("a legal action applies");
        states.push(game.clone());
    }
    states
}
