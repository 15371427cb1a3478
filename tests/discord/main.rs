//! The Discord transport: the real bot (serenity + poise, the arena, a real database) against the fake
//! Discord on loopback, and Discord's documented payloads read by the bot's adapter.

mod bot;
#[path = "../support/mod.rs"]
mod support;

mod alt_text;
mod analysis;
mod announcements;
mod async_play;
mod attachments;
mod budget;
mod computer;
mod crash;
mod deathmatch;
mod guided;
mod help;
mod leaderboards;
mod menus;
mod offers;
mod operations;
mod own_lists;
mod payloads;
mod places;
mod replays;
mod secret_games;
mod shards;
mod slowness;
mod starts;
mod startup;
mod tournament;
mod trust;
mod visible_text;
mod words;
