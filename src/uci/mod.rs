//! The UCI protocol, both ways: `arbiter uci` serves Arbiter's search as a UCI engine
//! ([`engine`]), and `ai-match` plays other UCI engines ([`client`]). docs/uci.md says what each
//! game's moves look like.

pub mod client;
pub mod engine;
pub mod protocol;
