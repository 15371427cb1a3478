//! Discord's rate limits, as the fake enforces them when a test turns them on: 5 messages per
//! 5 s in a channel, 50 requests a second in all. Interaction answers and follow-ups are not
//! counted, as on Discord.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

const CHANNEL_MESSAGES: usize = 5;
const CHANNEL_WINDOW: Duration = Duration::from_secs(5);
const GLOBAL_REQUESTS: usize = 50;
const GLOBAL_WINDOW: Duration = Duration::from_secs(1);

#[derive(Default)]
pub struct RateLimits {
    global: VecDeque<Instant>,
    channels: HashMap<u64, VecDeque<Instant>>,
    /// How many requests were answered 429.
    pub refused: usize,
    /// How many of them hit the global limit (the bot's whole budget, all its processes).
    pub refused_globally: usize,
}

impl RateLimits {
    /// Counts a request (a message to `channel`, if it is one) and says whether it fits; if it
    /// does not, how many seconds until it would, and whether the global limit is the one hit.
    pub fn admit(&mut self, channel: Option<u64>, now: Instant) -> Result<(), (f64, bool)> {
        let global_wait = wait(&mut self.global, GLOBAL_REQUESTS, GLOBAL_WINDOW, now);
        let channel_wait = channel.map_or(Duration::ZERO, |channel| {
            wait(
                self.channels.entry(channel).or_default(),
                CHANNEL_MESSAGES,
                CHANNEL_WINDOW,
                now,
            )
        });
        let longest = global_wait.max(channel_wait);
        if !longest.is_zero() {
            self.refused += 1;
            if global_wait >= channel_wait {
                self.refused_globally += 1;
            }
            return Err((longest.as_secs_f64(), global_wait >= channel_wait));
        }
        self.global.push_back(now);
        if let Some(channel) = channel {
            self.channels.entry(channel).or_default().push_back(now);
        }
        Ok(())
    }
}

/// Whether Discord counts a request to `path` against the bot's global limit: interaction
/// answers and follow-ups have limits of their own, and files on the CDN are not the API.
pub fn counts_globally(path: &str) -> bool {
    !(path.contains("/interactions/") || path.contains("/webhooks/") || path.starts_with("/cdn/"))
}

/// The most of `moments` that fall within any one second (a sliding window, as the global limit
/// counts).
pub fn busiest_second(moments: &mut [Instant]) -> usize {
    moments.sort_unstable();
    let mut busiest = 0;
    let mut first = 0;
    for (last, at) in moments.iter().enumerate() {
        while at.duration_since(moments[first]) >= GLOBAL_WINDOW {
            first += 1;
        }
        busiest = busiest.max(last - first + 1);
    }
    busiest
}

/// How long until one more event fits `count` per `window`, forgetting what left the window.
fn wait(recent: &mut VecDeque<Instant>, count: usize, window: Duration, now: Instant) -> Duration {
    while recent.front().is_some_and(|&at| now.duration_since(at) >= window) {
        recent.pop_front();
    }
    match recent.front() {
        Some(&oldest) if recent.len() >= count => window - now.duration_since(oldest),
        _ => Duration::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busiest_second_slides_over_the_moments() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        // At most five fall within one second (from 0 s to 0.9 s, 0.4 s to 1.3 s, or 0.6 s to
        // 1.5 s), never six; a second is counted up to, not including, its end.
        let mut moments = vec![
            at(1_500),
            at(0),
            at(100),
            at(400),
            at(600),
            at(900),
            at(1_200),
            at(1_300),
        ];
        assert_eq!(busiest_second(&mut moments), 5);
        assert_eq!(busiest_second(&mut []), 0);
        assert!(counts_globally("/api/v10/channels/1/messages"));
        assert!(!counts_globally("/api/v10/interactions/1/token1/callback"));
        assert!(!counts_globally("/api/v10/webhooks/1/token1"));
        assert!(!counts_globally("/cdn/attachments/1/list.txt"));
    }
}
