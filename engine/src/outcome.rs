//! How far a game is: its phase, and how it ended.

use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// The stage a game is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Pieces are being placed or picked.
    Setup,
    /// Seats choose something secretly and simultaneously.
    SealedChoice,
    Play,
    Finished,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Blockade: the player to act had no complete turn.
    NoCompleteTurn,
    /// Beirut: a detonation destroyed the king.
    KingDestroyed,
    /// Domination: the higher score when the turns ran out.
    Points,
    /// Assault: Black mated on both boards in the same half-turn (a draw).
    MatesOnBothBoards,
    /// Assault: both boards dead without a mate (a draw).
    BothBoardsDead,
    Resignation,
    Agreement,
    /// A clock ran out.
    Timeout,
    /// A host or arbiter decided the result.
    Adjudication,
    /// Called off before it really started; no result.
    Aborted,
    /// The opponent did not act for so long that the waiting player claimed the game.
    Abandoned,
    /// CTF: the enemy flag was brought (or dropped) on the winner's base.
    FlagCaptured,
    /// CTF: neither side has a move (a draw).
    NeitherCanMove,
    /// The loser did not play the game: they withdrew from the tournament it belongs to.
    Forfeit,
    /// An imported record's result, which the record gives without a reason.
    Unstated,
}

impl EndReason {
    pub const ALL: [EndReason; 20] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::Repetition,
        EndReason::FiftyMoves,
        EndReason::InsufficientMaterial,
        EndReason::NoCompleteTurn,
        EndReason::KingDestroyed,
        EndReason::Points,
        EndReason::MatesOnBothBoards,
        EndReason::BothBoardsDead,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Timeout,
        EndReason::Adjudication,
        EndReason::Aborted,
        EndReason::Abandoned,
        EndReason::FlagCaptured,
        EndReason::NeitherCanMove,
        EndReason::Forfeit,
        EndReason::Unstated,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "threefold repetition",
            EndReason::FiftyMoves => "the 50-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::NoCompleteTurn => "no complete turn left",
            EndReason::KingDestroyed => "blowing up the king",
            EndReason::Points => "points when the turns ran out",
            EndReason::MatesOnBothBoards => "mates on both boards at once",
            EndReason::BothBoardsDead => "both boards dead",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "time",
            EndReason::Adjudication => "adjudication",
            EndReason::Aborted => "abort",
            EndReason::Abandoned => "abandonment",
            EndReason::FlagCaptured => "bringing the flag home",
            EndReason::NeitherCanMove => "neither side can move",
            EndReason::Forfeit => "forfeit",
            EndReason::Unstated => "the record's result, which gives no reason",
        }
    }

    /// The reason `describe` names (or named in records written before its wording changed).
    pub fn from_description(text: &str) -> Option<EndReason> {
        match text {
            "the king was blown up" => Some(EndReason::KingDestroyed),
            _ => EndReason::ALL.into_iter().find(|r| r.describe() == text),
        }
    }
}

/// How a game ended: the winner (none for a draw or an abort), why, and scores where the game
/// keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: EndReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<[i32; 2]>,
}

impl Outcome {
    pub fn win(winner: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            scores: None,
        }
    }
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
            scores: None,
        }
    }
    /// `1-0` (the first seat won), `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn result_text(&self) -> &'static str {
        match (self.winner, self.reason) {
            (_, EndReason::Aborted) => "*",
            (Some(Seat::First), _) => "1-0",
            (Some(Seat::Second), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }
}
