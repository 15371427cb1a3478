//! Arbiter: the arena service, its stores, and its transports.

pub mod arena;
pub mod bench;
pub mod broken;
pub mod clock;
pub mod commands;
pub mod discord;
pub mod health;
pub mod ids;
pub mod local;
pub mod logging;
pub mod model;
pub mod rate_limits;
pub mod ratings;
pub mod render;
pub mod scheduler;
pub mod store;
pub mod telemetry;
pub mod tournament;
pub mod uci;
pub mod visible_text;
pub mod web;
