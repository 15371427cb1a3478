//! The history of quiet moves' cut-offs: the search tries first the quiet moves that cut it off
//! most often before, weighted by the depth searched below them.

use crate::game::{Action, Seat};

/// The history of quiet moves' cut-offs, by seat, from square and to square.
pub struct History(Vec<i32>);

/// Squares are numbered up to this (a board up to 16x16).
const SQUARES: usize = 256;
/// History scores stay below the killers' and losing captures' places in the order.
pub const MOST_HISTORY: i32 = 399_999;

impl Default for History {
    fn default() -> History {
        History(vec![0; 2 * SQUARES * SQUARES])
    }
}

impl History {
    fn slot(seat: Seat, action: &Action) -> Option<usize> {
        match action {
            Action::Move { from, to, .. } => Some((seat.index() * SQUARES + from.index()) * SQUARES + to.index()),
            _ => None,
        }
    }

    pub fn of(&self, seat: Seat, action: &Action) -> i32 {
        History::slot(seat, action).map_or(0, |slot| self.0[slot])
    }

    pub fn cut(&mut self, seat: Seat, action: &Action, depth: i32) {
        if let Some(slot) = History::slot(seat, action) {
            let score = &mut self.0[slot];
            *score = (*score + depth * depth).min(MOST_HISTORY);
        }
    }
}
