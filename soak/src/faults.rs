//! Faults on a schedule with random choices: a bot process killed outright every so often and
//! started again two seconds later, and bursts of 429s and 5xx answers from Discord.

use crate::bots::Bots;
use fake_discord::{Failure, FakeDiscord};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How often a fault is injected, one kind after another.
const EVERY: Duration = Duration::from_secs(15);

/// What was injected, and when the kills happened (answers in flight then are counted apart).
#[derive(Debug, Default)]
pub struct Injected {
    pub kills: Vec<Instant>,
    pub storms: usize,
    pub server_errors: usize,
}

/// The running schedule.
pub struct Faults {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<(Bots, Injected)>,
}

impl Faults {
    pub fn start(mut bots: Bots, fake: Arc<FakeDiscord>, seed: u64) -> Faults {
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
            let mut injected = Injected::default();
            for round in 0usize.. {
                tokio::select! {
                    _ = &mut stopped => break,
                    _ = tokio::time::sleep(EVERY) => {}
                }
                match round % 3 {
                    0 => {
                        let index = rng.random_range(0..bots.processes.len());
                        bots.kill(index);
                        injected.kills.push(Instant::now());
                        tokio::time::sleep(Duration::from_secs(2)).await;
                        if let Err(e) = bots.restart(index) {
                            eprintln!("the bot process could not be started again: {e}");
                        }
                    }
                    1 => {
                        let retry_after = rng.random_range(0.1..1.0);
                        fake.fail("POST", "/messages", Failure::RateLimited { retry_after }, 8);
                        injected.storms += 1;
                    }
                    _ => {
                        fake.fail("POST", "/messages", Failure::ServerError, 3);
                        injected.server_errors += 1;
                    }
                }
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
