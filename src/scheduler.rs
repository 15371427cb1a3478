//! Fires deadlines (reminders, colour choices, clock warnings, forfeits on time) from the
//! database, above the arena: it asks the arena to resume clocks, claim what is due and fire it.
//! Any number of schedulers may run, in any number of processes: each claims due games for a
//! short lease (PostgreSQL's `FOR UPDATE SKIP LOCKED`) and fires them through the arena, whose
//! version guard makes a deadline fire once however many try. The computer's turns are deadlines
//! too; each is thought out in a task of its own, so thinking never holds up a clock, and what it
//! plays is announced on a later pass.

use crate::arena::{Arena, ArenaError, Effects};
use crate::ids::{GameId, Places};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How long a claim keeps other schedulers off a game (then a crashed scheduler's claims pass on).
const LEASE_MS: i64 = 10_000;
/// Games claimed per pass.
const BATCH: i64 = 64;
/// The longest sleep between looks at the database: a deadline set by another process while
/// this one sleeps fires at most this late.
const MAX_SLEEP: Duration = Duration::from_millis(100);
/// How often a running scheduler records that it is alive.
const HEARTBEAT_EVERY_MS: i64 = 1_000;

/// The computer's turn in one game, being thought out: what it announces when it ends.
type ComputerTurn = JoinHandle<Result<Effects, ArenaError>>;

#[derive(Clone)]
pub struct Scheduler {
    arena: Arena,
    /// The places this scheduler serves: its transport's prefix (`discord:`, `local`), so the
    /// bot and a terminal sharing one database each fire, and announce, their own games.
    places: Places,
    /// The computer's turns being thought out, by game: one at a time for each game.
    thinking: Arc<Mutex<HashMap<GameId, ComputerTurn>>>,
    /// Told of each pass, for the bot's readiness.
    health: Option<Arc<crate::health::Health>>,
}

impl Scheduler {
    pub fn new(arena: Arena, places: Places) -> Scheduler {
        Scheduler {
            arena,
            places,
            thinking: Arc::default(),
            health: None,
        }
    }

    /// A scheduler whose every pass tells `health` it is alive.
    pub fn with_health(self, health: Arc<crate::health::Health>) -> Scheduler {
        Scheduler {
            health: Some(health),
            ..self
        }
    }

    /// Records that a scheduler is alive. After a silence (no scheduler ran), records the time
    /// the bot was down, so no clock charges it to anyone (each game's clock is credited when
    /// the game is next touched), and touches the running Death Matches at once so their
    /// audiences hear it; returns those announcements.
    pub async fn start(&self) -> Result<Vec<Effects>, ArenaError> {
        self.arena.clocks().resume(&self.places).await
    }

    /// Fires every deadline due now, and starts the computer thinking where it is to act;
    /// returns what to announce (with the computer's turns that ended since the last pass).
    pub async fn run_once(&self) -> Result<Vec<Effects>, ArenaError> {
        let mut announcements = self.computer_turns(false).await;
        // Tournaments whose start has come pair their first round.
        announcements.extend(
            self.arena
                .tournaments()
                .start_due(&self.places)
                .await?
                .into_iter()
                .filter(|effects| !effects.posts.is_empty()),
        );
        loop {
            let due = self.arena.clocks().claim_due(&self.places, LEASE_MS, BATCH).await?;
            if due.is_empty() {
                return Ok(announcements);
            }
            for id in due {
                let ticked = self.arena.clocks().tick(id).await;
                if ticked.is_ok() {
                    crate::telemetry::deadline_fired();
                }
                match ticked {
                    Ok(effects) if !effects.posts.is_empty() || !effects.direct_messages.is_empty() => {
                        announcements.push(effects);
                    }
                    Ok(_) => {}
                    // Someone acted at the same moment: the deadline moved with their change.
                    Err(ArenaError::Busy(_)) => {}
                    Err(error) if error.is_user_error() => {
                        tracing::debug!(game = %id, %error, "a deadline no longer applies");
                    }
                    // One game's failure must not hold up the others; its claim lapses and a
                    // later pass tries it again.
                    Err(error) => {
                        tracing::error!(game = %id, error = %crate::logging::Quiet(&error), "a deadline could not be fired")
                    }
                }
                self.start_thinking(id).await;
            }
        }
    }

    /// Waits for every computer turn being thought out; returns what they announce.
    pub async fn settle(&self) -> Vec<Effects> {
        self.computer_turns(true).await
    }

    /// Starts the computer's turn in the game, unless it has none or is at it already.
    async fn start_thinking(&self, id: GameId) {
        if self.lock_thinking().contains_key(&id) {
            return;
        }
        match self.arena.computer_waiting(id).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(error) => {
                tracing::warn!(game = %id, error = %crate::logging::Quiet(&error), "could not look at the computer's turn");
                return;
            }
        }
        let arena = self.arena.clone();
        let turn = tokio::spawn(async move { arena.computer_turn(id).await });
        self.lock_thinking().insert(id, turn);
    }

    /// What the computer's ended turns announce (with `wait`, once every turn has ended).
    async fn computer_turns(&self, wait: bool) -> Vec<Effects> {
        let ended: Vec<(GameId, ComputerTurn)> = {
            let mut thinking = self.lock_thinking();
            let ids: Vec<GameId> = thinking
                .iter()
                .filter(|(_, turn)| wait || turn.is_finished())
                .map(|(id, _)| *id)
                .collect();
            ids.into_iter()
                .filter_map(|id| thinking.remove(&id).map(|turn| (id, turn)))
                .collect()
        };
        let mut announcements = Vec::new();
        for (id, turn) in ended {
            match turn.await {
                Ok(Ok(effects)) if !effects.posts.is_empty() || !effects.direct_messages.is_empty() => {
                    announcements.push(effects);
                }
                Ok(Ok(_)) => {}
                // The game moved on while it thought: its deadline brings the computer back.
                Ok(Err(error)) if error.is_user_error() => {
                    tracing::debug!(game = %id, %error, "the computer's move no longer applies");
                }
                Ok(Err(error)) => {
                    tracing::error!(game = %id, error = %crate::logging::Quiet(&error), "the computer could not take its turn")
                }
                Err(error) => tracing::error!(game = %id, %error, "the computer's turn failed"),
            }
        }
        announcements
    }

    fn lock_thinking(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, ComputerTurn>> {
        self.thinking.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs until `shutdown` completes, sending what deadlines announce to `announce`.
    pub async fn run(self, announce: mpsc::Sender<Effects>, shutdown: impl Future<Output = ()>) {
        tokio::pin!(shutdown);
        match self.start().await {
            Ok(effects) => {
                for effects in effects {
                    let _ = announce.send(effects).await;
                }
            }
            Err(error) => tracing::error!(error = %crate::logging::Quiet(&error), "could not resume the clocks"),
        }
        let mut last_beat = self.arena.now();
        loop {
            match self.run_once().await {
                Ok(effects) => {
                    for effects in effects {
                        if announce.send(effects).await.is_err() {
                            return;
                        }
                    }
                }
                Err(error) => tracing::error!(error = %crate::logging::Quiet(&error), "the scheduler failed a pass"),
            }
            let now = self.arena.now();
            if let Some(health) = &self.health {
                health.scheduler_beat();
            }
            if now - last_beat >= HEARTBEAT_EVERY_MS {
                if let Err(error) = self.arena.clocks().heartbeat(&self.places).await {
                    tracing::warn!(error = %crate::logging::Quiet(&error), "could not record the scheduler's heartbeat");
                }
                last_beat = now;
            }
            let sleep = match self.arena.clocks().next_deadline(&self.places).await {
                Ok(Some(due)) => Duration::from_millis((due - now).clamp(1, MAX_SLEEP.as_millis() as i64) as u64),
                _ => MAX_SLEEP,
            };
            tokio::select! {
                () = &mut shutdown => return,
                () = tokio::time::sleep(sleep) => {}
            }
        }
    }
}
