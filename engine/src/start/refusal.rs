//! What a check of a start answers: why a position cannot start a game, in a player's words, or
//! the game started with what was changed on the way. (Apart from the checks, so that the rules
//! hooks can name a refusal without importing the checks that use them.)

use crate::fen::FenError;
use thiserror::Error;

/// Why a game cannot start from a position, in a player's words (and, where it helps, the
/// square): "Black's king on e8 is in check with White to move: it could be taken".
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct StartRefusal(pub String);

impl StartRefusal {
    pub fn new(reason: impl Into<String>) -> StartRefusal {
        StartRefusal(reason.into())
    }
}

/// Why a position a player gave does not start a game: it does not read as a position, or its
/// game's rules cannot play it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    #[error("{0}")]
    Unreadable(#[from] FenError),
    #[error("{0}")]
    Refused(#[from] StartRefusal),
}

/// A game started from a position a player gave, with what was changed in it on the way (a
/// castling right whose king or rook is not in place, dropped), for the game's first post.
#[derive(Clone, Debug)]
pub struct Start<G> {
    pub game: G,
    pub notes: Vec<String>,
    /// The position as the game keeps it (the rights dropped taken out): what a stored game is
    /// replayed from.
    pub fen: Option<String>,
}
