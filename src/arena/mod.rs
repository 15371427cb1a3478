//! The arena: takes requests from any transport, decides who may do what, runs the engine, saves
//! atomically, and answers with effects. It never speaks Discord.

mod deathmatch;
mod effects;
mod error;
mod lifecycle;
mod messages;
mod play;
mod queries;
mod record;

pub use deathmatch::{Authority, COLOUR_CHOICE_MS, MatchRequest};
pub use effects::{Button, Countdown, DirectMessage, Effects, Post, Reply};
pub use error::ArenaError;
pub use play::OfferResponse;
pub use queries::{GameSummary, move_list, viewer_of};
pub use record::rebuild;

use crate::clock::Clock;
use crate::store::{GameId, GameRow, GameStatus, LoggedEntry, NewEntry, Store, StoreError};
use std::sync::Arc;

/// How often a request is retried when another request changed the game first.
const MAX_ATTEMPTS: usize = 8;

#[derive(Clone)]
pub struct Arena {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
}

/// What a change to a game produced: log entries to append and effects to perform.
struct Change {
    entries: Vec<NewEntry>,
    effects: Effects,
}

impl Arena {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Arena {
        Arena { store, clock }
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The arena's time: Unix milliseconds from its clock.
    pub fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    async fn load(&self, id: GameId) -> Result<GameRow, ArenaError> {
        self.store.game(id).await?.ok_or(ArenaError::UnknownGame(id))
    }

    /// Loads a game, lets `change` edit it, and saves it with its new log entries in one
    /// transaction guarded by the version that was read. When another request got there first,
    /// the whole thing runs again on the fresh state, so no update is ever lost. `change` sees the
    /// log only when `with_log` asks for it.
    async fn mutate(
        &self,
        id: GameId,
        with_log: bool,
        change: impl Fn(&mut GameRow, &[LoggedEntry], i64) -> Result<Change, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        for _ in 0..MAX_ATTEMPTS {
            let mut game = self.load(id).await?;
            let log = if with_log {
                self.store.log(id).await?
            } else {
                Vec::new()
            };
            let now = self.now();
            // Set first: what the change posts (clock lines) is as of now.
            game.updated_at = now;
            let Change { entries, mut effects } = change(&mut game, &log, now)?;
            game.version += 1;
            match self.store.update_game(&game, &entries).await {
                Ok(()) => {
                    effects.game = Some(id);
                    effects.version = Some(game.version);
                    return Ok(effects);
                }
                Err(StoreError::Conflict(_)) => {
                    tokio::task::yield_now().await;
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(ArenaError::Busy(id))
    }
}

/// Refuses anything but an active game.
fn require_active(game: &GameRow) -> Result<(), ArenaError> {
    let state = match game.status {
        GameStatus::Active => return Ok(()),
        GameStatus::Challenge => "still a challenge waiting to be accepted",
        GameStatus::Finished => "over",
        GameStatus::Declined => "a declined challenge",
        GameStatus::Cancelled => "a cancelled challenge",
    };
    Err(ArenaError::NotActive { id: game.id, state })
}
