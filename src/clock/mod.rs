//! Time as the arena sees it: milliseconds since the Unix epoch from a clock that tests control;
//! time controls; and every game's clock.

mod control;
mod duration;
mod game_clock;

pub use control::{CORRESPONDENCE_DAYS, LONGEST_RESERVE_MS, SHORTEST_MS, TIME_CONTROL_HELP, TimeControl};
pub use duration::{
    DAY_MS, HOUR_MS, LONGEST_MS, MINUTE_MS, SECOND_MS, continues_a_time, duration, duration_spec, duration_words,
    parse_duration,
};
pub use game_clock::{ClockEvent, FIRST_REMINDER_MS, GameClock, MatchClockV0, Notice, REMINDER_EVERY_MS, Turn};

use std::sync::atomic::{AtomicI64, Ordering};

pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// The machine's clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
    }
}

/// A clock that only moves when told to.
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock(AtomicI64::new(start_ms))
    }
    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}
