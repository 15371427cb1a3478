//! The search's transposition table: what it found of a position, by the position's key
//! ([`crate::Game::search_key`]), so a position reached again by another order of moves, or at the
//! next depth, is not searched again, and its best action is tried first. Scores are the seat's
//! own, as everywhere in the search; a win's distance is stored from the position, not the root.

use crate::game::{Action, Seat};

/// A won game, less the plies it takes: sooner wins score higher, later losses too.
pub const WIN: i32 = 1_000_000;

/// What a stored score says of the position's true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is this or more (the search stopped at a cut-off above its window).
    AtLeast,
    /// The true score is this or less (nothing reached its window).
    AtMost,
}

#[derive(Clone, Debug)]
pub struct Entry {
    key: u64,
    pub depth: i32,
    score: i32,
    pub bound: Bound,
    pub best: Option<Action>,
}

impl Entry {
    /// The stored score as seen from `ply` plies below the root.
    pub fn score(&self, ply: usize) -> i32 {
        from_table(self.score, ply)
    }

    /// The score this entry settles for a window (alpha, beta) at `depth` or less, if it does.
    pub fn settles(&self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth {
            return None;
        }
        let score = self.score(ply);
        match self.bound {
            Bound::Exact => Some(score),
            Bound::AtLeast if score >= beta => Some(score),
            Bound::AtMost if score <= alpha => Some(score),
            _ => None,
        }
    }
}

/// A fixed number of slots; a new finding replaces an older one in its slot unless that one was
/// searched deeper in the same position.
pub struct Table {
    slots: Vec<Option<Entry>>,
    /// The seat whose searches filled it: its scores are that seat's, and mean nothing to a
    /// search for the other.
    seat: Option<Seat>,
}

/// The table's size when none is asked for, in megabytes.
pub const DEFAULT_MEGABYTES: usize = 16;

impl Table {
    /// A table of about `megabytes` (at least one slot).
    pub fn with_megabytes(megabytes: usize) -> Table {
        let slot = std::mem::size_of::<Option<Entry>>().max(1);
        let wanted = (megabytes.max(1) << 20) / slot;
        // A power of two, so a key finds its slot by a mask.
        let count = (wanted.max(2).next_power_of_two() / 2).max(1);
        Table {
            slots: vec![None; count],
            seat: None,
        }
    }

    /// A table for a search of `nodes` positions: a slot for each, up to the default size.
    pub fn for_nodes(nodes: u64) -> Table {
        let slot = std::mem::size_of::<Option<Entry>>() as u64;
        let megabytes = (nodes.saturating_mul(slot) >> 20) + 1;
        Table::with_megabytes(megabytes.min(DEFAULT_MEGABYTES as u64) as usize)
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot = None);
    }

    /// Readies the table for a search for `seat`: what a search for the other seat found is
    /// forgotten, since its scores are the other seat's.
    pub fn serve(&mut self, seat: Seat) {
        if self.seat.is_some_and(|filled_for| filled_for != seat) {
            self.clear();
        }
        self.seat = Some(seat);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<&Entry> {
        self.slots[self.slot(key)].as_ref().filter(|entry| entry.key == key)
    }

    /// Keeps what a search of `depth` plies found at `ply`: `score` within the window
    /// (`alpha`, `beta`) it was searched with, and its best action.
    pub fn store(&mut self, key: u64, depth: i32, ply: usize, score: i32, window: (i32, i32), best: Option<Action>) {
        let bound = if score <= window.0 {
            Bound::AtMost
        } else if score >= window.1 {
            Bound::AtLeast
        } else {
            Bound::Exact
        };
        let at = self.slot(key);
        if let Some(old) = &self.slots[at]
            && old.key == key
            && old.depth > depth
        {
            return;
        }
        self.slots[at] = Some(Entry {
            key,
            depth,
            score: to_table(score, ply),
            bound,
            best,
        });
    }
}

/// A win found `ply` plies below the root is stored as found that far from the position itself.
fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > WIN / 2 {
        score + ply
    } else if score < -WIN / 2 {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > WIN / 2 {
        score - ply
    } else if score < -WIN / 2 {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_settles_only_the_windows_it_bounds_and_no_deeper_search() {
        let mut table = Table::with_megabytes(1);
        table.store(42, 3, 0, 50, (0, 100), None);
        let exact = table.probe(42).unwrap();
        assert_eq!(exact.bound, Bound::Exact);
        assert_eq!(exact.settles(3, 0, -10, 10), Some(50));
        assert_eq!(exact.settles(4, 0, -10, 10), None, "a deeper search is not settled");
        table.store(7, 2, 0, 120, (0, 100), None);
        let cut = table.probe(7).unwrap();
        assert_eq!(cut.bound, Bound::AtLeast);
        assert_eq!(cut.settles(2, 0, 0, 110), Some(120));
        assert_eq!(
            cut.settles(2, 0, 0, 200),
            None,
            "at least 120 says nothing of a window to 200"
        );
        table.store(9, 2, 0, -5, (0, 100), None);
        assert_eq!(table.probe(9).unwrap().bound, Bound::AtMost);
        assert!(table.probe(10).is_none());
    }

    #[test]
    fn a_win_is_stored_by_its_distance_from_the_position() {
        let mut table = Table::with_megabytes(1);
        // Found 5 plies below the root, winning 2 plies later: the root sees WIN - 7.
        table.store(1, 4, 5, WIN - 7, (-WIN, WIN), None);
        // Reached again 3 plies below the root: the same win is WIN - 5 from there.
        assert_eq!(table.probe(1).unwrap().score(3), WIN - 5);
    }

    #[test]
    fn a_table_filled_for_one_seat_is_emptied_for_the_other() {
        let mut table = Table::with_megabytes(1);
        table.serve(Seat::First);
        table.store(1, 6, 0, 10, (-100, 100), None);
        table.serve(Seat::First);
        assert!(table.probe(1).is_some(), "the same seat keeps what it found");
        table.serve(Seat::Second);
        assert!(table.probe(1).is_none(), "White's scores would mislead Black's search");
    }

    #[test]
    fn a_deeper_finding_is_kept_over_a_shallower_one_of_the_same_position() {
        let mut table = Table::with_megabytes(1);
        table.store(1, 6, 0, 10, (-100, 100), None);
        table.store(1, 2, 0, 30, (-100, 100), None);
        assert_eq!(table.probe(1).unwrap().depth, 6);
        table.clear();
        assert!(table.probe(1).is_none());
    }
}
