//! Faults on a schedule with random choices, one kind after another: a bot process killed
//! outright and started again two seconds later; 429 storms on one route and on all of them;
//! 5xx bursts; gateway connections dropped (resumed) and sessions ended (identified afresh);
//! slow answers near Discord's 3-second window; a moderator archiving or locking a game's
//! thread; and, on a cluster of the soak's own, PostgreSQL stopped as by a crash and restarted.

use crate::bots::Bots;
use crate::cluster::Cluster;
use crate::table::Threads;
use fake_discord::{Failure, FakeDiscord};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How often a fault is injected.
const EVERY: Duration = Duration::from_secs(10);

/// The kinds of fault, in the order the schedule goes through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Kill,
    RouteStorm,
    ServerErrors,
    Disconnect,
    GlobalStorm,
    Slow,
    NewSession,
    Moderator,
    DatabaseRestart,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::Kill,
        Kind::RouteStorm,
        Kind::ServerErrors,
        Kind::Disconnect,
        Kind::GlobalStorm,
        Kind::Slow,
        Kind::NewSession,
        Kind::Moderator,
        Kind::DatabaseRestart,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Kind::Kill => "processes killed and restarted",
            Kind::RouteStorm => "429 storms on a route",
            Kind::ServerErrors => "5xx bursts",
            Kind::Disconnect => "gateway disconnects resumed",
            Kind::GlobalStorm => "global 429 storms",
            Kind::Slow => "slow-answer spells",
            Kind::NewSession => "gateway sessions ended",
            Kind::Moderator => "moderator rounds (a thread archived, one locked, one deleted)",
            Kind::DatabaseRestart => "PostgreSQL restarts",
        }
    }
}

/// A process, a gateway session or the database down, from its end until it serves again.
#[derive(Clone, Copy, Debug)]
pub struct Outage {
    pub from: Instant,
    pub to: Instant,
}

impl Outage {
    /// Down from `from` until now, and a little after: a restarted process still connects to
    /// Discord, a restarted database still takes back its connections.
    fn until_ready(from: Instant) -> Outage {
        Outage {
            from,
            to: Instant::now() + Duration::from_secs(2),
        }
    }

    /// Whether an interaction sent at `at`, waited for up to `patience`, was in flight during it.
    pub fn overlaps(&self, at: Instant, patience: Duration) -> bool {
        at <= self.to && self.from <= at + patience
    }
}

/// What was injected, and when a process or the database was down (answers in flight then are
/// counted apart).
#[derive(Debug, Default)]
pub struct Injected {
    pub kills: Vec<Outage>,
    /// Each fault as it was done, for the failures to be read beside.
    pub log: Vec<(Instant, Kind)>,
    pub by_kind: BTreeMap<Kind, usize>,
}

impl Injected {
    /// "3 processes killed and restarted, 2 429 storms on a route, …".
    pub fn describe(&self) -> String {
        Kind::ALL
            .iter()
            .map(|kind| format!("{} {}", self.by_kind.get(kind).copied().unwrap_or(0), kind.describe()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The running schedule.
pub struct Faults {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<(Bots, Injected)>,
}

impl Faults {
    /// Starts the schedule (which injects nothing unless `inject`); `threads` are the threads
    /// of the games in play (a moderator's pick); the database is restarted only in a `cluster`
    /// of the soak's own.
    pub fn start(
        mut bots: Bots,
        fake: Arc<FakeDiscord>,
        threads: Arc<Mutex<Threads>>,
        cluster: Option<Arc<Cluster>>,
        seed: u64,
        inject: bool,
    ) -> Faults {
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
            let mut injected = Injected::default();
            for round in 0usize.. {
                tokio::select! {
                    _ = &mut stopped => break,
                    _ = tokio::time::sleep(EVERY) => {}
                }
                if !inject {
                    continue;
                }
                let kind = Kind::ALL[round % Kind::ALL.len()];
                if kind == Kind::DatabaseRestart && cluster.is_none() {
                    continue;
                }
                let shard = rng.random_range(0..bots.processes.len());
                match kind {
                    Kind::Kill => {
                        let killed = Instant::now();
                        bots.kill(shard);
                        tokio::time::sleep(Duration::from_secs(2)).await;
                        if let Err(e) = bots.restart(shard) {
                            eprintln!("the bot process could not be started again: {e}");
                        }
                        injected.kills.push(Outage::until_ready(killed));
                    }
                    Kind::RouteStorm => {
                        let retry_after = rng.random_range(0.1..1.0);
                        fake.fail("POST", "/messages", Failure::RateLimited { retry_after }, 8);
                    }
                    Kind::GlobalStorm => {
                        let retry_after = rng.random_range(0.1..0.6);
                        // Interaction answers are outside Discord's global limit.
                        fake.fail("POST", "/channels/", Failure::RateLimitedGlobally { retry_after }, 4);
                    }
                    Kind::ServerErrors => fake.fail("POST", "/messages", Failure::ServerError, 3),
                    Kind::Disconnect => fake.drop_connection(shard as u32),
                    Kind::NewSession => {
                        // What Discord had for the shard meanwhile is lost with the session, as
                        // on Discord: a user sees "the application did not respond".
                        let ended = Instant::now();
                        fake.end_session(shard as u32);
                        fake.wait_ready().await;
                        injected.kills.push(Outage::until_ready(ended));
                    }
                    Kind::Slow => {
                        // Answers that take their time, yet land inside Discord's 3 s when sent
                        // by the bot's deferral at 1.5 s (`respond::DEFER_AFTER`): a slower
                        // Discord leaves a bot no time to defer work that waits on the posts
                        // below. And posts that take their time.
                        fake.slow_down("POST", "/callback", Duration::from_millis(1_200), 3);
                        fake.slow_down("POST", "/messages", Duration::from_secs(2), 5);
                    }
                    Kind::DatabaseRestart => {
                        let Some(cluster) = cluster.clone() else {
                            continue;
                        };
                        let stopped = Instant::now();
                        match tokio::task::spawn_blocking(move || cluster.restart()).await {
                            Ok(Ok(())) => {}
                            Ok(Err(e)) => eprintln!("the soak's PostgreSQL did not restart: {e}"),
                            Err(e) => eprintln!("the soak's PostgreSQL restart did not finish: {e}"),
                        }
                        injected.kills.push(Outage::until_ready(stopped));
                    }
                    Kind::Moderator => {
                        // Three threads of games in play: one archived (the next post reopens
                        // it), one locked, one deleted (its game goes on in its channel).
                        let picked: Vec<u64> = {
                            let threads = threads.lock().unwrap_or_else(|p| p.into_inner());
                            let mut in_play = threads.in_play.clone();
                            in_play.sort_unstable();
                            in_play.dedup();
                            (0..3.min(in_play.len()))
                                .map(|_| in_play.swap_remove(rng.random_range(0..in_play.len())))
                                .collect()
                        };
                        for (how, &thread) in picked.iter().enumerate() {
                            if how == 2 {
                                threads.lock().unwrap_or_else(|p| p.into_inner()).deleted.insert(thread);
                                fake.delete_channel(thread, true).await;
                            } else {
                                fake.archive_thread(thread, how == 1).await;
                            }
                        }
                    }
                }
                *injected.by_kind.entry(kind).or_default() += 1;
                injected.log.push((Instant::now(), kind));
            }
            for index in 0..bots.processes.len() {
                let _ = bots.restart(index);
            }
            (bots, injected)
        });
        Faults { stop, task }
    }

    /// Stops injecting, with every process running again.
    pub async fn stop(self) -> (Bots, Injected) {
        let _ = self.stop.send(());
        self.task.await.expect("the fault schedule does not panic")
    }
}
