//! The terminal transport and the command line: games, lists and tournaments played from scripts.

#[path = "../support/mod.rs"]
mod support;

mod backup;
mod caps;
mod cli;
mod consent;
mod messages;
mod newcomer;
mod own_lists;
mod play;
mod starts;
mod tournament;
mod uci;
mod visible;
mod words;
