//! The command layer every transport shares: every command described once, for each transport's
//! help and Discord's registration (`catalog`), and most of them answered here for every
//! transport (`runner`: a declared command's options and answer; a transport only reads what the
//! player wrote into its options); which game a command means and what a player is told when
//! none or several fit (`picking`). The commands by family: starting games and answering
//! challenges (`challenge`), playing them (`play`), Death Matches (`matches`), tournaments
//! (`tournaments`) and a player's own page and settings (`players`).

pub mod catalog;
pub mod challenge;
pub mod matches;
pub mod picking;
pub mod play;
pub mod players;
pub mod runner;
pub mod tournaments;

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
