//! The terminal transport and the command line: games, lists and tournaments played from scripts.

#[path = "../support/mod.rs"]
mod support;

mod backup;
mod cli;
mod messages;
mod own_lists;
mod play;
mod tournament;
