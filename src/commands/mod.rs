//! What every transport asks the same way: every command described once, for each transport's
//! help and Discord's registration (`catalog`); which game a command means and what a player is
//! told when none or several fit (`picking`); and a new game from what the player chose, the
//! computer included (`challenge`). Transports read their own input and word their own output;
//! what a command is and means is decided here once.

pub mod catalog;
pub mod challenge;
pub mod picking;
