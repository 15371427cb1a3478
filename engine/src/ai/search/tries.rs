//! The order a node of the search tries its actions in.

use crate::game::Action;

/// A node's actions in the order they are tried: the table's best first, played before the
/// others are listed (it often cuts the node off, and listing them costs), then the rest, in
/// [`super::Search::order`]'s order, without it.
pub(super) struct Tries {
    pub(super) first: Option<Action>,
    pub(super) tried_first: Option<Action>,
    pub(super) rest: Option<std::vec::IntoIter<Action>>,
    /// How many actions, from the first tried, are the table's best, captures or killers.
    pub(super) loud: usize,
    /// How many have been tried.
    pub(super) place: usize,
    /// The side had no action at all.
    pub(super) none_listed: bool,
}

impl Tries {
    pub(super) fn new(first: Option<Action>) -> Tries {
        Tries {
            loud: usize::from(first.is_some()),
            first,
            tried_first: None,
            rest: None,
            place: 0,
            none_listed: false,
        }
    }
}
