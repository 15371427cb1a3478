//! Per-user rate limits: a user spamming commands, buttons or a page's clicks is slowed down
//! with a private message, and nobody else notices. One set of buckets serves every transport
//! of a process, so a player is counted the same wherever they act. Each user has a bucket of actions that refills steadily;
//! suggestions as you type are not counted. Time is the arena's clock (milliseconds), like every
//! other clock of the bot's.

use crate::ids::UserId;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// Actions a user may take in a burst.
const BURST: f64 = 20.0;
/// One more action is allowed this often after a burst: 60 a minute, sustained (placing pieces
/// from menus takes two clicks a piece).
const REFILL_EVERY: Duration = Duration::from_secs(1);
/// Above this many remembered users, those whose bucket is full again are forgotten.
const REMEMBERED: usize = 10_000;

#[derive(Clone, Copy)]
struct Bucket {
    actions: f64,
    /// When it was last counted (ms).
    at: i64,
}

impl Bucket {
    fn refilled(self, now: i64) -> f64 {
        let earned = (now - self.at).max(0) as f64 / REFILL_EVERY.as_millis() as f64;
        (self.actions + earned).min(BURST)
    }
}

#[derive(Default)]
pub struct RateLimits {
    buckets: Mutex<HashMap<UserId, Bucket>>,
}

impl RateLimits {
    /// Counts an action by `user` at `now` (ms): `Err(wait)` when they must wait that long first.
    pub fn take(&self, user: &UserId, now: i64) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() > REMEMBERED {
            buckets.retain(|_, bucket| bucket.refilled(now) < BURST);
        }
        let bucket = buckets.entry(user.clone()).or_insert(Bucket {
            actions: BURST,
            at: now,
        });
        let actions = bucket.refilled(now);
        if actions < 1.0 {
            return Err(REFILL_EVERY.mul_f64(1.0 - actions));
        }
        *bucket = Bucket {
            actions: actions - 1.0,
            at: now,
        };
        Ok(())
    }

    /// The private answer to a user acting at `now` (ms) who must wait, or `None` if they may
    /// go on.
    pub fn refusal(&self, user: &UserId, now: i64) -> Option<String> {
        let wait = self.take(user, now).err()?;
        let seconds = wait.as_secs_f64().ceil().max(1.0);
        Some(format!(
            "⏳ You are going faster than I can follow: wait {seconds} s and try again. Nothing was done."
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_actions_refill_steadily_per_user() {
        let limits = RateLimits::default();
        let (alice, bob) = (&UserId::new("discord:1"), &UserId::new("discord:2"));
        let start = 1_700_000_000_000;
        let second = REFILL_EVERY.as_millis() as i64;
        for _ in 0..20 {
            assert!(limits.take(alice, start).is_ok());
        }
        let wait = limits.take(alice, start).unwrap_err();
        assert_eq!(wait, REFILL_EVERY);
        assert!(limits.take(bob, start).is_ok(), "others are not slowed down");
        assert!(limits.take(alice, start + second / 2).is_err());
        assert!(limits.take(alice, start + second).is_ok());
        assert!(limits.take(alice, start + second).is_err());
        // After a long pause the whole burst is back, no more.
        let later = start + second * 100;
        for _ in 0..20 {
            assert!(limits.take(alice, later).is_ok());
        }
        assert!(limits.take(alice, later).is_err());
    }
}
