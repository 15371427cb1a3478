//! The store: its contract on both databases, games stored by every earlier format, and SQLite
//! under contention.

#[path = "../support/mod.rs"]
mod support;

mod contract;
mod contract_players;
mod contract_time;
mod contract_tournaments;
mod ladder_migration;
mod sqlite_contention;
mod stored_fixtures;
mod write_stored_fixtures;
