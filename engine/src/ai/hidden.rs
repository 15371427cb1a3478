//! What the computer opponent may believe about what it has not seen. Its only input is its seat's
//! view: the record as the seat reads it, with the other side's secrets (a bomb carrier, a base,
//! a sealed half-turn, a list) replaced by stand-ins. It rebuilds the game from the start by
//! replaying that record, choosing each action it cannot read at random among those legal at that
//! point, and keeps a rebuilt game only if the seat would see it exactly as it sees the real one.
//! Searching several such games and adding up what each says about its own choices is how it
//! plays without knowing (information-set sampling).

use super::lists;
use crate::game::{Action, Game, Seat, Viewer};
use crate::variants::{AnyGame, VariantId};
use crate::view::View;
use rand::Rng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

/// Where a game began: its variant, and the position it was set up from, if not the variant's own
/// start. Together with a seat's view, all the computer opponent is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub variant: VariantId,
    pub fen: Option<String>,
}

impl Start {
    pub fn new(variant: VariantId) -> Start {
        Start { variant, fen: None }
    }

    /// The game as it began; `None` for a position that does not read.
    pub fn game(&self) -> Option<AnyGame> {
        match &self.fen {
            Some(fen) => AnyGame::from_fen(self.variant, fen).ok(),
            None => Some(AnyGame::new(self.variant)),
        }
    }
}

/// Whether the view hides anything the other side did (a stand-in in its record).
pub fn hides_something(view: &View) -> bool {
    view.record.iter().any(|entry| entry.is_hidden)
}

/// How many replays a sample may take to find a game the seat cannot tell from the real one.
const TRIES: usize = 64;

/// A game `seat` cannot tell from the one its view shows, the hidden actions drawn with `rng`.
/// When no draw in [`TRIES`] matches exactly (a secret the record narrows down to a few), the
/// nearest replay that reaches the present is taken: its board is the seat's, only the secret
/// differs. `None` when not even that is found (a view not of this start).
pub fn sample(start: &Start, view: &View, seat: Seat, rng: &mut SmallRng) -> Option<AnyGame> {
    debug_assert_eq!(view.viewer, Viewer::Seat(seat));
    sample_line(start, view, rng).map(|(game, _)| game)
}

/// A game the view's viewer (a seat, or a spectator who reads neither side's secrets) cannot
/// tell from the one the view shows, with the actions that led there from the start: as
/// [`sample`], each action the view hides drawn with `rng`.
pub fn sample_line(start: &Start, view: &View, rng: &mut SmallRng) -> Option<(AnyGame, Vec<(Seat, Action)>)> {
    let fresh = start.game()?;
    let mut nearest = None;
    let tries = if hides_something(view) { TRIES } else { 1 };
    for _ in 0..tries {
        let Some((game, line)) = replay(&fresh, view, rng) else {
            continue;
        };
        if game.view(view.viewer) == *view {
            return Some((game, line));
        }
        nearest.get_or_insert((game, line));
    }
    nearest
}

/// Replays the record as the view's viewer reads it, drawing each hidden action; `None` when a
/// drawn action leaves a later one unplayable.
fn replay(fresh: &AnyGame, view: &View, rng: &mut SmallRng) -> Option<(AnyGame, Vec<(Seat, Action)>)> {
    let mut game = fresh.clone();
    let mut line = Vec::with_capacity(view.record.len());
    for entry in &view.record {
        let action = if entry.is_hidden && view.viewer != Viewer::Seat(entry.seat) {
            draw(&game, entry.seat, rng)?
        } else {
            game.parse_action(entry.seat, &entry.text).ok()?
        };
        game.apply(entry.seat, &action).ok()?;
        line.push((entry.seat, action));
    }
    Some((game, line))
}

/// One of the actions `seat` may take now, at random; for a list of pieces (which no menu holds),
/// one the computer would write itself.
fn draw(game: &AnyGame, seat: Seat, rng: &mut SmallRng) -> Option<Action> {
    let actions = game.legal_actions(seat);
    if let (Some(kind), Some(Action::SubmitList { .. })) = (game.list_kind(), actions.first()) {
        return Some(Action::SubmitList {
            pieces: lists::compose(kind, rng.random()),
        });
    }
    actions.choose(rng).cloned()
}
