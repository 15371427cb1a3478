//! Arbiter's rules engine: pure rules, no I/O, no clock, no randomness.
//!
//! Pieces are data (Betza notation, [`betza`]), variants are data ([`variant`]), one generator
//! serves them all ([`movegen`]), and each game is a state machine over seats' actions ([`game`]).
//! The only way information leaves a game is a [`game::View`] for one viewer.

pub mod betza;
pub mod catalogue;
pub mod fairy_ini;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod piece;
pub mod position;
pub mod variant;
pub mod variants;

pub use game::{Action, ActionError, EndReason, Game, Outcome, Phase, Seat, View, ViewCell, Viewer};
pub use variants::{AnyGame, VariantId};
