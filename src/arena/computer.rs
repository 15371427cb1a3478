//! The computer as a player. A game against it starts at once and is not rated; its turns are
//! deadlines like any other (`GameRow::next_deadline`), so a scheduler fires them, and fires them
//! again after a restart. It thinks from its seat's view alone (`arbiter_engine::ai`), off the
//! async runtime, on a bounded pool: at most `threads` think at once in the process, and at most
//! `per_server` games of one server, each server's games in the order they asked.

use super::acting::apply_action;
use super::time_out::flag_fall;
use super::turns::check_clock;
use super::{Arena, ArenaError, Change, Effects};
use crate::ids::{GameId, ServerId};
use crate::model::GameRow;
use arbiter_engine::ai::{self, Level, Start, Thought, evaluate::Evaluator};
use arbiter_engine::{Game, Seat, View, Viewer};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Below this, in centipawns for itself, the computer takes a draw it is offered.
const TAKES_A_DRAW_BELOW: i32 = -200;

/// How long the computer waits for the game's latest news (its opponent's move, the board a new
/// game begins with) to be shown before it answers, so that its reply never reaches the players
/// before what it replies to, nor a game's first place before the thread it moves to.
const SHOWN_PATIENCE: Duration = Duration::from_secs(5);
/// How often it looks meanwhile.
const SHOWN_POLL: Duration = Duration::from_millis(50);

/// Where the computer thinks: a bounded pool shared by every game of the process.
pub struct Thinkers {
    threads: Arc<Semaphore>,
    /// The nodes each position of a finished game gets when it is analysed.
    analysis_nodes: u64,
    per_server: usize,
    servers: Mutex<HashMap<Option<ServerId>, Arc<Semaphore>>>,
}

impl Thinkers {
    /// At most `threads` games think at once (each on a thread of its own, off the runtime), and
    /// at most `per_server` of one server's games.
    pub fn new(threads: usize, per_server: usize) -> Thinkers {
        Thinkers {
            threads: Arc::new(Semaphore::new(threads.max(1))),
            analysis_nodes: super::analysis::DEFAULT_NODES_PER_POSITION,
            per_server: per_server.max(1),
            servers: Mutex::default(),
        }
    }

    /// The same pool, analysing finished games with `nodes` a position.
    pub fn analysing_with(self, nodes: u64) -> Thinkers {
        Thinkers {
            analysis_nodes: nodes.max(1),
            ..self
        }
    }

    /// The nodes each position of a finished game gets when it is analysed.
    pub fn analysis_nodes(&self) -> u64 {
        self.analysis_nodes
    }

    /// The computer's action in the game begun at `start`, from `view`, when its turn comes.
    async fn think(
        &self,
        server: Option<ServerId>,
        start: Start,
        view: View,
        level: Level,
        seed: u64,
    ) -> Result<Option<Thought>, ArenaError> {
        let variant = start.variant;
        self.run(server, move || {
            let began = Instant::now();
            let thought = ai::think(&start, &view, level, seed);
            crate::telemetry::ai_thought(variant, began.elapsed());
            thought
        })
        .await
    }

    /// Runs `job` on a thread of the pool once its turn comes in the server's queue, then in the
    /// process's (tokio's semaphores serve their waiters in order).
    pub(super) async fn run<T: Send + 'static>(
        &self,
        server: Option<ServerId>,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ArenaError> {
        let server_queue = {
            let mut servers = self.servers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            servers
                .entry(server)
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_server)))
                .clone()
        };
        let closed = |_| ArenaError::Computer("its thinking pool is closed".into());
        let _server_turn = server_queue.acquire_owned().await.map_err(closed)?;
        let _thread = self.threads.clone().acquire_owned().await.map_err(closed)?;
        tokio::task::spawn_blocking(job)
            .await
            .map_err(|error| ArenaError::Computer(format!("its thinking failed: {error}")))
    }
}

impl Default for Thinkers {
    /// One thread, two games of a server at once.
    fn default() -> Thinkers {
        Thinkers::new(1, 2)
    }
}

impl Arena {
    /// Whether the computer has something to do in the game now.
    pub async fn computer_waiting(&self, id: GameId) -> Result<bool, ArenaError> {
        Ok(self
            .store
            .game(id)
            .await?
            .is_some_and(|game| game.computer_to_act().is_some()))
    }

    /// The computer takes its turn in the game, if it has one: it thinks, then acts as any player
    /// does, its action checked by the game's rules. Should the game move on while it thinks (its
    /// opponent's secret choice, a resignation), the thought is dropped and the game's deadline,
    /// saved with that change, brings the computer back.
    pub async fn computer_turn(&self, id: GameId) -> Result<Effects, ArenaError> {
        let game = self.once_shown(id).await?;
        let Some((computer, seat)) = game.computer_to_act() else {
            return Ok(Effects::default());
        };
        let start = Start {
            variant: game.setup.variant,
            fen: game.setup.fen.clone(),
        };
        let view = game.state.view(Viewer::Seat(seat));
        let (level, user) = (computer.level, computer.user.clone());
        // The game's number tells games apart (their lists, easy's whims) and repeats for one game.
        let seed = id.get() as u64;
        let thought = self
            .thinkers
            .think(game.server.clone(), start, view, level, seed)
            .await?;
        let Some(thought) = thought else {
            return Ok(Effects::default());
        };
        let mut effects = self
            .mutate_at(id, Some(game.version), false, |game, _, now| {
                if game.computer_to_act().map(|(_, seat)| seat) != Some(seat) {
                    return Ok(Change::nothing());
                }
                // Written and read back as a player's words are: the rules check it, not the
                // computer's own generator.
                let text = game.state.notation(seat, &thought.action);
                let action = game.state.parse_action(seat, &text)?;
                if let Some(flagged) = check_clock(game, now)? {
                    return Ok(flag_fall(game, flagged, now));
                }
                apply_action(game, Some(&user), seat, action, now)
            })
            .await?;
        // What only the computer may read of its own action is for nobody else.
        effects.reply = None;
        tracing::debug!(game = %id, nodes = thought.nodes, depth = thought.depth, ms = thought.elapsed.as_millis() as u64, "the computer moved");
        Ok(effects)
    }
}

impl Arena {
    /// The game once its latest news has been shown (or after [`SHOWN_PATIENCE`], should a
    /// transport never say so).
    async fn once_shown(&self, id: GameId) -> Result<GameRow, ArenaError> {
        let until = Instant::now() + SHOWN_PATIENCE;
        loop {
            let game = self.load(id).await?;
            if game.unshown.is_none() || Instant::now() >= until {
                return Ok(game);
            }
            tokio::time::sleep(SHOWN_POLL).await;
        }
    }
}

/// Whether the computer in `seat` takes a draw: only when it judges itself clearly worse.
pub(super) fn takes_draw(game: &GameRow, seat: Seat) -> bool {
    let sight = game.state.sight(Viewer::Seat(seat));
    Evaluator::new(seat, game.setup.variant).weigh(&sight) < TAKES_A_DRAW_BELOW
}

/// What the computer is never sent: its private messages (the bot would write to itself) and
/// pings.
pub(super) fn spare_the_computer(game: &GameRow, effects: &mut Effects) {
    let Some(computer) = &game.setup.computer else {
        return;
    };
    effects.direct_messages.retain(|message| message.to != computer.user);
    for post in &mut effects.posts {
        post.mentions.retain(|user| *user != computer.user);
    }
}

#[cfg(test)]
mod tests {
    use super::Thinkers;
    use crate::ids::ServerId;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// Jobs that each hold the pool a moment, recording how many ran at once (in all, and of
    /// the first server) and the order they began in.
    struct Probe {
        running: AtomicUsize,
        most: AtomicUsize,
        running_first: AtomicUsize,
        most_first: AtomicUsize,
        began: Mutex<Vec<usize>>,
    }

    impl Probe {
        fn job(self: &Arc<Self>, index: usize, first_server: bool) -> impl FnOnce() + Send + 'static {
            let probe = self.clone();
            move || {
                probe.began.lock().unwrap().push(index);
                let now = probe.running.fetch_add(1, Ordering::SeqCst) + 1;
                probe.most.fetch_max(now, Ordering::SeqCst);
                if first_server {
                    let now = probe.running_first.fetch_add(1, Ordering::SeqCst) + 1;
                    probe.most_first.fetch_max(now, Ordering::SeqCst);
                }
                std::thread::sleep(Duration::from_millis(30));
                if first_server {
                    probe.running_first.fetch_sub(1, Ordering::SeqCst);
                }
                probe.running.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }

    fn probe() -> Arc<Probe> {
        Arc::new(Probe {
            running: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            running_first: AtomicUsize::new(0),
            most_first: AtomicUsize::new(0),
            began: Mutex::new(Vec::new()),
        })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn the_pool_thinks_on_at_most_its_threads_and_a_server_on_at_most_its_share_in_order() {
        let pool = Arc::new(Thinkers::new(2, 1));
        let probe = probe();
        let servers = ["first", "second", "third"].map(|name| Some(ServerId::new(name)));
        let mut jobs = Vec::new();
        for index in 0..9 {
            // Three servers' games, asked in turn: three could think at once but for the threads.
            let server = servers[index % 3].clone();
            let (pool, job) = (pool.clone(), probe.job(index, index % 3 == 0));
            jobs.push(tokio::spawn(async move { pool.run(server, job).await }));
            // Each asks after the one before, so the queues have an order to keep.
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(
            probe.most.load(Ordering::SeqCst),
            2,
            "both threads were used, never more"
        );
        assert_eq!(
            probe.most_first.load(Ordering::SeqCst),
            1,
            "one of a server's games at a time"
        );
        let began = probe.began.lock().unwrap().clone();
        let firsts: Vec<usize> = began.iter().copied().filter(|i| i % 3 == 0).collect();
        assert_eq!(
            firsts,
            [0, 3, 6],
            "a server's games think in the order they asked: {began:?}"
        );
    }
}
