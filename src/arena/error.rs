//! Why the arena refused a request. Every variant but `Internal` is the user's to fix, and its
//! message says how; `Internal` is logged, and the user gets an apology.

use crate::ids::{GameId, TournamentId};
use crate::store::StoreError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ArenaError {
    /// No such game here: the one answer whether it is another server's or nobody's, so a
    /// stranger learns nothing of which numbers exist (a Death Match is a game too).
    #[error("there is no game #{0} here")]
    UnknownGame(GameId),
    /// No such tournament here: as for games, the same answer whether it is elsewhere or nowhere.
    #[error("there is no tournament #{0} here")]
    UnknownTournament(TournamentId),
    #[error("you are not playing in game #{0}")]
    NotAPlayer(GameId),
    #[error("it is not your turn in game #{0}")]
    NotYourTurn(GameId),
    #[error("game #{id} is {state}")]
    NotActive { id: GameId, state: &'static str },
    #[error("only {0} can answer this challenge")]
    NotTheOpponent(String),
    #[error("only {0} can cancel this challenge")]
    NotTheChallenger(String),
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    /// A command that concerns one game found none to concern.
    #[error("you have no open game here to use this in")]
    NoGameHere,
    /// A command that concerns one game found several.
    #[error("you have several games ({}): say which", .0.iter().map(|id| format!("#{id}")).collect::<Vec<_>>().join(", "))]
    WhichGame(Vec<GameId>),
    #[error("the clocks of game #{0} are paused; wait for the host")]
    Paused(GameId),
    #[error("{0}")]
    Rejected(String),
    #[error("{0}")]
    Action(#[from] arbiter_engine::ActionError),
    #[error("that is out of date: game #{0} has moved on since it was posted")]
    Stale(GameId),
    #[error("game #{0} is busy with other moves right now; please try again")]
    Busy(GameId),
    #[error("something went wrong on our side; please try again in a moment")]
    Internal(#[source] StoreError),
    /// The computer could not think (its pool closed, its thread failed): logged, and its turn
    /// is tried again.
    #[error("the computer could not take its turn just now; it tries again in a moment")]
    Computer(String),
}

impl ArenaError {
    /// Whether the user can fix this (as opposed to a fault of ours, which is logged).
    pub fn is_user_error(&self) -> bool {
        !matches!(self, ArenaError::Internal(_) | ArenaError::Computer(_))
    }
}

impl From<StoreError> for ArenaError {
    fn from(e: StoreError) -> ArenaError {
        ArenaError::Internal(e)
    }
}
