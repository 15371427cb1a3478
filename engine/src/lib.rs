//! Arbiter's rules engine: pure rules, no I/O, no clock, no randomness.
//!
//! Pieces are data (Betza notation, [`betza`]; a variant's pieces, [`piece_table`]), variants are
//! data (a variant file, [`variant_file`]), one generator serves them all ([`movegen`], walking
//! tables each variant works out once: [`rays`], [`move_map`], [`attack_map`]) with hooks
//! for the variants that reach inside the chess rules ([`rules`]), and each game is a state
//! machine over seats' actions ([`game`]; the games hosted, [`variants`]). The only way
//! information leaves a game is a [`view::View`] for one viewer, or a part of one (what an action
//! changed, [`applied`]). docs/game-model.md describes how a game is built.

pub mod ai;
pub mod applied;
pub mod attack_index;
pub mod attack_map;
pub mod attacks;
pub mod betza;
pub mod catalogue;
pub mod chess_move;
pub mod diagram;
pub mod fairy_ini;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod legal_cache;
pub mod lists;
pub mod move_map;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod piece;
pub mod piece_table;
pub mod position;
pub mod rays;
pub mod record;
pub mod rules;
pub mod seat;
pub mod start;
pub mod uci;
pub mod variant_file;
pub mod variants;
pub mod view;

pub use applied::{Applied, Readers};
pub use game::{Action, ActionError, EndReason, Game, Outcome, Phase, PieceId, Seat, Timeout, Viewer};
pub use variants::{AnyGame, VariantId};
pub use view::{BoardView, View, ViewCell};
