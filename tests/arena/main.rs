//! The arena, driven as any transport drives it: games, offers, clocks, Death Matches,
//! tournaments and records, on SQLite and PostgreSQL.

#[path = "../support/mod.rs"]
mod support;

mod analysis;
mod async_play;
mod computer;
mod concurrency;
mod deathmatch;
mod flows;
mod records;
mod replays;
mod tournaments;
