//! The command layer every transport shares: every command described once, for each transport's
//! help and Discord's registration (`catalog`); which game a command means and what a player is
//! told when none or several fit (`picking`); a new game from what the player chose, the
//! computer included, and answers to challenges (`challenge`); playing a game (`play`); and
//! Death Matches as their host runs them (`matches`).
//! Each command finds its game and asks the arena here, once; transports read their own input
//! into its options and word its answer.

pub mod catalog;
pub mod challenge;
pub mod matches;
pub mod picking;
pub mod play;
pub mod runner;

use crate::arena::Arena;
use crate::ids::Place;

/// A command being answered, on any transport: the arena, who asked and how they name a game
/// there, and the place a game they start is played (a channel; the terminal's one table).
#[derive(Clone, Copy)]
pub struct Ask<'a> {
    pub arena: &'a Arena,
    pub asked: picking::Asked<'a>,
    pub place: &'a Place,
}
