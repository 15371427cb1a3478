//! Keeps the bot's own requests within Discord's published rate limits: 5 messages per 5 s in
//! a channel, and a global budget a little under Discord's 50 requests a second (interaction
//! answers, which Discord does not count, are not paced). Waiting here, before a request, keeps
//! the order of the bot's queues meaningful: a warning waits its turn in its own queue, where it
//! can still be dropped as stale, rather than behind a rate limit it cannot see.

use serenity::all as discord;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// At most `count` events in any `window`.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub count: usize,
    pub window: Duration,
}

impl Limit {
    /// Discord's limit on messages in one channel, 5 per 5 s, with a quarter of a second to
    /// spare: Discord counts a message when it arrives, a little after it leaves.
    pub const CHANNEL: Limit = Limit {
        count: 5,
        window: Duration::from_millis(5_250),
    };
    /// Discord allows 50 requests a second. This keeps to 40, in bursts of at most 4, so that
    /// requests that leave on time but arrive late (up to a sixth of a second, on a busy machine)
    /// never bunch up into more than Discord's 50 in one of its seconds, and a few are left for
    /// requests not paced here, such as threads opened.
    pub const GLOBAL: Limit = Limit {
        count: 4,
        window: Duration::from_millis(100),
    };

    /// This process's part of the global budget when `share` of the bot's shards run in it:
    /// Discord's 50 requests a second are counted per bot, across all its processes, so two
    /// processes of one bot get half each. Bursts shrink with the share, so that the processes'
    /// bursts together stay within the whole.
    pub fn global_share(share: f64) -> Limit {
        let share = share.clamp(f64::MIN_POSITIVE, 1.0);
        let whole = Limit::GLOBAL;
        let per_second = whole.count as f64 / whole.window.as_secs_f64() * share;
        let count = ((whole.count as f64 * share).floor() as usize).max(1);
        Limit {
            count,
            window: Duration::from_secs_f64(count as f64 / per_second),
        }
    }
}

/// The moments of recent events under one limit.
#[derive(Default)]
struct Window {
    recent: VecDeque<Instant>,
}

impl Window {
    /// How long until one more event fits, forgetting events that left the window.
    fn wait(&mut self, limit: Limit, now: Instant) -> Duration {
        while self
            .recent
            .front()
            .is_some_and(|&at| now.duration_since(at) >= limit.window)
        {
            self.recent.pop_front();
        }
        match self.recent.front() {
            Some(&oldest) if self.recent.len() >= limit.count => limit.window - now.duration_since(oldest),
            _ => Duration::ZERO,
        }
    }
}

#[derive(Default)]
struct Windows {
    global: Window,
    channels: HashMap<discord::ChannelId, Window>,
}

pub struct Pace {
    global: Limit,
    channel: Limit,
    windows: Mutex<Windows>,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace::new(Limit::GLOBAL, Limit::CHANNEL)
    }
}

impl Pace {
    /// The pace of a process that runs `share` of the bot's shards.
    pub fn for_share(share: f64) -> Pace {
        let share = if crate::broken::has(crate::broken::Defect::IgnoresBudgetShare) {
            1.0
        } else {
            share
        };
        Pace::new(Limit::global_share(share), Limit::CHANNEL)
    }
}

impl Pace {
    pub fn new(global: Limit, channel: Limit) -> Pace {
        Pace {
            global,
            channel,
            windows: Mutex::default(),
        }
    }

    /// Waits until a request fits the global budget, and counts it.
    pub async fn request(&self) {
        self.take(None).await;
    }

    /// Waits until a message to `channel` fits both its channel's limit and the global budget,
    /// and counts it.
    pub async fn message_to(&self, channel: discord::ChannelId) {
        self.take(Some(channel)).await;
    }

    /// Waits until a message to `channel` would fit, without counting one: what waits this long
    /// can still decide not to be sent (then takes its place with `try_message_to`).
    pub async fn room_for(&self, channel: discord::ChannelId) {
        loop {
            let wait = self.attempt(Some(channel), false);
            if wait.is_zero() {
                return;
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// Counts a message to `channel` if it fits now; whether it did.
    pub fn try_message_to(&self, channel: discord::ChannelId) -> bool {
        self.attempt(Some(channel), true).is_zero()
    }

    async fn take(&self, channel: Option<discord::ChannelId>) {
        loop {
            let wait = self.attempt(channel, true);
            if wait.is_zero() {
                return;
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// How long until a request (a message to `channel`, if one) fits; when it fits now and
    /// `counts`, it is counted.
    fn attempt(&self, channel: Option<discord::ChannelId>, counts: bool) -> Duration {
        let mut windows = self.windows.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        let Windows { global, channels } = &mut *windows;
        let mut wait = global.wait(self.global, now);
        if let Some(channel) = channel {
            wait = wait.max(channels.entry(channel).or_default().wait(self.channel, now));
        }
        if wait.is_zero() && counts {
            global.recent.push_back(now);
            if let Some(channel) = channel {
                channels.entry(channel).or_default().recent.push_back(now);
            }
        }
        // Channels quiet for a whole window are forgotten.
        if channels.len() > 64 {
            let window = self.channel.window;
            channels.retain(|_, w| w.recent.back().is_some_and(|&at| now.duration_since(at) < window));
        }
        wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_channel_gets_five_messages_per_five_seconds_and_others_are_not_held_up() {
        // A global budget that never binds here: the channel's limit is the one tried.
        let roomy = Limit {
            count: 100,
            window: Duration::from_secs(1),
        };
        let pace = Pace::new(roomy, Limit::CHANNEL);
        let start = Instant::now();
        let busy = discord::ChannelId::new(1);
        for _ in 0..5 {
            pace.message_to(busy).await;
        }
        assert_eq!(start.elapsed(), Duration::ZERO);
        pace.message_to(discord::ChannelId::new(2)).await;
        assert_eq!(start.elapsed(), Duration::ZERO, "another channel goes at once");
        pace.message_to(busy).await;
        assert_eq!(
            start.elapsed(),
            Duration::from_millis(5_250),
            "the sixth waits for the first to leave the window"
        );
    }

    #[test]
    fn processes_sharing_the_bot_share_its_budget_and_stay_under_discords_50_together() {
        for processes in [1_u32, 2, 3, 4] {
            let limit = Limit::global_share(1.0 / f64::from(processes));
            // The most Discord may count from one process in one of its seconds: a burst each
            // window sent over a second and a sixth, when the first arrive late and the last
            // on time.
            let windows = (1.16 / limit.window.as_secs_f64()).ceil() as usize;
            let together = limit.count * windows * processes as usize;
            assert!(together <= 50, "{processes} processes: {together} a second ({limit:?})");
            let sustained = limit.count as f64 / limit.window.as_secs_f64() * f64::from(processes);
            assert!(
                (39.9..=40.1).contains(&sustained),
                "{processes} processes: {sustained} a second"
            );
        }
        let half = Limit::global_share(0.5);
        assert_eq!((half.count, half.window), (2, Duration::from_millis(100)));
        assert_eq!(Limit::global_share(1.0).window, Limit::GLOBAL.window);
    }

    #[tokio::test(start_paused = true)]
    async fn the_global_budget_holds_requests_to_40_a_second_in_small_bursts() {
        let pace = Pace::default();
        let start = Instant::now();
        for _ in 0..4 {
            pace.request().await;
        }
        assert_eq!(start.elapsed(), Duration::ZERO);
        pace.request().await;
        assert_eq!(start.elapsed(), Duration::from_millis(100));
        for _ in 5..80 {
            pace.request().await;
        }
        assert_eq!(
            start.elapsed(),
            Duration::from_millis(1_900),
            "80 requests take 2 s less a window"
        );
    }
}
