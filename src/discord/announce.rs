//! Delivers what the clocks announce (warnings, forfeits, reminders, rounds) without ever
//! holding the clocks up. Each channel, and each player's DMs, has a queue of its own, sent in
//! order; the queues run side by side within Discord's rate limits. A warning that goes stale
//! while it waits is dropped; everything else is tried until it is posted.

use super::Data;
use super::delivery::Delivery;
use super::delivery::{Fate, Patience};
use crate::arena::{DirectMessage, Effects, Post};
use crate::ids::{Place, UserId};
use serenity::all as discord;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// What announcement delivery has done since the process started, over every bot it runs.
#[derive(Debug)]
pub struct Counts {
    pub posted: AtomicU64,
    /// Warnings dropped because they went stale before they could be sent.
    pub dropped_stale: AtomicU64,
    /// Posts whose game had nowhere left to post, sent to its players by DM instead.
    pub sent_privately: AtomicU64,
    /// Posts Discord would never take (logged).
    pub failed: AtomicU64,
}

pub static COUNTS: Counts = Counts {
    posted: AtomicU64::new(0),
    dropped_stale: AtomicU64::new(0),
    sent_privately: AtomicU64::new(0),
    failed: AtomicU64::new(0),
};

/// One thing to deliver.
enum Parcel {
    /// A post, made at the game's version (for its buttons, and to tell a warning gone stale).
    Post { post: Post, version: Option<i64> },
    /// A prompt or reminder by DM, made at the game's version.
    Prompt { prompt: DirectMessage, version: i64 },
}

/// A parcel and when it joined its queue.
type Queued = (Parcel, std::time::Instant);

/// Parcels queued and not yet delivered, in every queue of the process (for the metrics).
static WAITING: AtomicU64 = AtomicU64::new(0);

/// Hands announcements to per-place queues. Cheap to clone.
#[derive(Clone)]
pub struct Announcer {
    shared: Arc<Shared>,
}

/// Where parcels wait their turn: a game's place, or a player's DMs.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Queue {
    Place(Place),
    Direct(UserId),
}

struct Shared {
    http: Arc<discord::Http>,
    data: Data,
    /// The queue of each place with something waiting or being sent; a queue's worker removes
    /// it once empty.
    queues: Mutex<HashMap<Queue, mpsc::UnboundedSender<Queued>>>,
    /// Rounds whose threads are being opened, not yet queued.
    opening: AtomicU64,
    /// Told whenever the last queue retires or a round is queued.
    settled: tokio::sync::Notify,
}

impl Announcer {
    pub fn new(http: Arc<discord::Http>, data: Data) -> Announcer {
        Announcer {
            shared: Arc::new(Shared {
                http,
                data,
                queues: Mutex::default(),
                opening: AtomicU64::new(0),
                settled: tokio::sync::Notify::new(),
            }),
        }
    }

    /// Queues what `effects` announce; returns at once.
    pub fn announce(&self, effects: Effects) {
        if effects.paired_round.is_none() {
            self.enqueue(effects);
            return;
        }
        // A new round opens a thread per game first, which takes requests of its own.
        let announcer = self.clone();
        self.shared.opening.fetch_add(1, Ordering::SeqCst);
        tokio::spawn(async move {
            let mut effects = effects;
            let delivery = Delivery {
                http: &announcer.shared.http,
                data: &announcer.shared.data,
            };
            if let Err(error) = delivery.open_round(&mut effects).await {
                tracing::error!(error = %crate::logging::Quiet(error.as_ref()), "could not open a round's threads; posting in the channel");
            }
            announcer.enqueue(effects);
            announcer.shared.opening.fetch_sub(1, Ordering::SeqCst);
            announcer.shared.settled.notify_waiters();
        });
    }

    /// Waits until everything announced so far is delivered (or given up on): every queue
    /// emptied and retired. What a stopping bot waits for, so nothing queued is cut off.
    pub async fn delivered(&self) {
        loop {
            let settled = self.shared.settled.notified();
            tokio::pin!(settled);
            // Registered before looking, so a retirement between the look and the wait is heard.
            settled.as_mut().enable();
            if self.shared.opening.load(Ordering::SeqCst) == 0 && self.shared.lock().is_empty() {
                return;
            }
            settled.await;
        }
    }

    fn enqueue(&self, effects: Effects) {
        for post in effects.posts {
            self.push(
                Queue::Place(post.location.clone()),
                Parcel::Post {
                    post,
                    version: effects.version,
                },
            );
        }
        let Some(version) = effects.version else {
            return;
        };
        for prompt in effects.direct_messages {
            self.push(Queue::Direct(prompt.to.clone()), Parcel::Prompt { prompt, version });
        }
    }

    fn push(&self, queue: Queue, parcel: Parcel) {
        crate::telemetry::announcements_waiting(WAITING.fetch_add(1, Ordering::Relaxed) as usize + 1);
        let parcel = (parcel, std::time::Instant::now());
        let mut queues = self.shared.lock();
        let parcel = match queues.get(&queue) {
            Some(queue) => match queue.send(parcel) {
                Ok(()) => return,
                // Its worker has just finished: start another.
                Err(mpsc::error::SendError(parcel)) => parcel,
            },
            None => parcel,
        };
        let (sender, parcels) = mpsc::unbounded_channel();
        let _ = sender.send(parcel);
        queues.insert(queue.clone(), sender);
        tokio::spawn(self.shared.clone().drain(queue, parcels));
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Queue, mpsc::UnboundedSender<Queued>>> {
        self.queues.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Delivers a queue's parcels in order until it is empty, then retires the queue.
    async fn drain(self: Arc<Self>, queue: Queue, mut parcels: mpsc::UnboundedReceiver<Queued>) {
        loop {
            match parcels.try_recv() {
                Ok((parcel, queued)) => {
                    let fate = self.deliver(parcel).await;
                    let left = WAITING.fetch_sub(1, Ordering::Relaxed).saturating_sub(1);
                    crate::telemetry::announcements_waiting(left as usize);
                    crate::telemetry::announcement_delivered(fate, queued.elapsed());
                }
                Err(_) => {
                    // Under the lock, so nothing is pushed between looking and retiring.
                    let mut queues = self.lock();
                    if parcels.is_empty() {
                        queues.remove(&queue);
                        if queues.is_empty() {
                            self.settled.notify_waiters();
                        }
                        return;
                    }
                }
            }
        }
    }

    /// Delivers a parcel; returns its fate, as the metrics name it.
    async fn deliver(&self, parcel: Parcel) -> &'static str {
        let delivery = Delivery {
            http: &self.http,
            data: &self.data,
        };
        match parcel {
            Parcel::Post { post, version } => {
                let (counter, fate) = match delivery.post_to_game(&post, version, Patience::UntilPosted).await {
                    Ok(Fate::Posted) => (&COUNTS.posted, "posted"),
                    Ok(Fate::Stale) => (&COUNTS.dropped_stale, "stale"),
                    Ok(Fate::Privately) => (&COUNTS.sent_privately, "privately"),
                    Err(error) => {
                        tracing::error!(game = ?post.game, error = %crate::logging::Quiet(error.as_ref()), "could not post a clock announcement");
                        (&COUNTS.failed, "failed")
                    }
                };
                counter.fetch_add(1, Ordering::Relaxed);
                fate
            }
            Parcel::Prompt { prompt, version } => match delivery.send_prompt(&prompt, version).await {
                Ok(()) => "direct",
                Err(error) => {
                    tracing::error!(game = %prompt.game, error = %crate::logging::Quiet(error.as_ref()), "could not send a reminder");
                    COUNTS.failed.fetch_add(1, Ordering::Relaxed);
                    "failed"
                }
            },
        }
    }
}
