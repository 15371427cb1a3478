//! The command layer every transport shares: what a command is (`describe`: its words, options
//! and, for most, its answer here for every transport) and what it takes (`options`: the kinds
//! of option and the values a player gave, read alike from Discord and the terminal); every
//! command listed once, for each transport's help and Discord's registration (`catalog`); which
//! game a command means and what a player is told when none or several fit (`picking`). The commands by family: starting games and answering
//! challenges (`challenge`), playing them (`play`), Death Matches (`matches`), tournaments
//! (`tournaments`) and a player's own page and settings (`players`).

pub mod catalog;
pub mod challenge;
pub mod describe;
pub mod matches;
pub mod options;
pub mod picking;
pub mod play;
pub mod players;
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
