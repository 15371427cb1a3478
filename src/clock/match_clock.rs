//! A Death Match clock as data: each turn starts with the normal time; once it is used up the
//! player's reserve runs, and it is never refilled; a player whose reserve runs out forfeits.
//! All times are Unix milliseconds from the arena's clock, so tests control them and a restart
//! loses nothing.

use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

/// How much time a match gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time each turn has before the reserve starts to run.
    pub normal_ms: i64,
    /// Each player's reserve for the whole match.
    pub reserve_ms: i64,
}

impl TimeControl {
    /// The game shows' standard: 60 seconds a turn and a 5-minute reserve.
    pub const STANDARD: TimeControl = TimeControl {
        normal_ms: 60_000,
        reserve_ms: 300_000,
    };

    /// Reserve left at which the player to act is warned: 60, 30 and 10 seconds for a
    /// 5-minute reserve, the same shares of a longer (or shorter) one.
    pub fn warning_points(self) -> [i64; 3] {
        [60, 30, 10].map(|seconds| self.reserve_ms * seconds / 300)
    }
}

/// The turn being timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    pub started_at: i64,
    /// How many of this turn's events (see [`MatchClock::events`]) have been announced.
    pub events_done: u8,
}

/// Something the clock says at a moment of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockEvent {
    /// Only this much normal time is left (a quarter of it: 15 seconds of a 60-second turn).
    NormalLeft(i64),
    /// The normal time is over; the reserve runs from now.
    ReserveStarts,
    /// Only this much reserve is left.
    ReserveLeft(i64),
    /// The reserve is gone: the player forfeits.
    Flagged,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchClock {
    pub control: TimeControl,
    /// Reserve left per seat, as of the start of the current turn.
    pub reserve_ms: [i64; 2],
    pub turn: Option<Turn>,
    /// When the clocks were frozen by the host, if they are.
    pub paused_at: Option<i64>,
}

impl MatchClock {
    pub fn new(control: TimeControl) -> MatchClock {
        MatchClock {
            control,
            reserve_ms: [control.reserve_ms; 2],
            turn: None,
            paused_at: None,
        }
    }

    /// Time spent in the current turn by `now` (the pause, if any, does not count).
    pub fn spent(&self, now: i64) -> i64 {
        match self.turn {
            Some(turn) => (self.paused_at.unwrap_or(now) - turn.started_at).max(0),
            None => 0,
        }
    }

    /// Normal time and reserve left for `seat` at `now`.
    pub fn left(&self, seat: Seat, now: i64) -> (i64, i64) {
        let reserve = self.reserve_ms[seat.index()];
        match self.turn {
            Some(turn) if turn.seat == seat => {
                let spent = self.spent(now);
                let normal = (self.control.normal_ms - spent).max(0);
                let over = (spent - self.control.normal_ms).max(0);
                (normal, (reserve - over).max(0))
            }
            _ => (self.control.normal_ms, reserve),
        }
    }

    pub fn is_flagged(&self, now: i64) -> bool {
        self.turn.is_some_and(|turn| self.left(turn.seat, now).1 == 0)
    }

    /// Starts timing `seat`'s turn, charging the turn that ends to its player. (A set-up turn
    /// of two placements stays one turn: call this only when the seat to act changes.)
    pub fn start_turn(&mut self, seat: Seat, now: i64) {
        self.end_turn(now);
        self.turn = Some(Turn {
            seat,
            started_at: self.paused_at.unwrap_or(now),
            events_done: 0,
        });
    }

    /// Stops the clock (the game ended), charging the turn in progress.
    pub fn end_turn(&mut self, now: i64) {
        if let Some(turn) = self.turn.take() {
            let (_, reserve) = self.left_in(turn, now);
            self.reserve_ms[turn.seat.index()] = reserve;
        }
    }

    fn left_in(&self, turn: Turn, now: i64) -> (i64, i64) {
        let probe = MatchClock {
            turn: Some(turn),
            ..self.clone()
        };
        probe.left(turn.seat, now)
    }

    /// The current turn's events, at the moments they fall due (absolute times; they move when
    /// the clocks are paused or shifted).
    pub fn events(&self) -> Vec<(i64, ClockEvent)> {
        let Some(turn) = self.turn else {
            return Vec::new();
        };
        let reserve = self.reserve_ms[turn.seat.index()];
        let reserve_starts = turn.started_at + self.control.normal_ms;
        let quarter = self.control.normal_ms / 4;
        let mut events = vec![
            (reserve_starts - quarter, ClockEvent::NormalLeft(quarter)),
            (reserve_starts, ClockEvent::ReserveStarts),
        ];
        for point in self.control.warning_points() {
            if point < reserve {
                events.push((reserve_starts + reserve - point, ClockEvent::ReserveLeft(point)));
            }
        }
        events.push((reserve_starts + reserve, ClockEvent::Flagged));
        events
    }

    /// The next event not announced yet, while the clocks run.
    pub fn next_event(&self) -> Option<(i64, ClockEvent)> {
        if self.paused_at.is_some() {
            return None;
        }
        let done = self.turn?.events_done as usize;
        self.events().get(done).copied()
    }

    /// Marks the next event announced.
    pub fn event_done(&mut self) {
        if let Some(turn) = self.turn.as_mut() {
            turn.events_done = turn.events_done.saturating_add(1);
        }
    }

    pub fn pause(&mut self, now: i64) {
        if self.paused_at.is_none() {
            self.paused_at = Some(now);
        }
    }

    /// Unfreezes the clocks: the turn continues as if the pause had not happened.
    pub fn resume(&mut self, now: i64) {
        if let Some(paused_at) = self.paused_at.take() {
            self.shift(now - paused_at);
        }
    }

    /// Moves the current turn's start later by `ms`: time that must not be charged (a pause,
    /// the bot being down).
    pub fn shift(&mut self, ms: i64) {
        if let Some(turn) = self.turn.as_mut() {
            turn.started_at += ms.max(0);
        }
    }

    /// Gives `seat` more reserve. Announcements already made for the turn stay made, but the
    /// ones now ahead again are made again.
    pub fn add_reserve(&mut self, seat: Seat, ms: i64, now: i64) {
        let reserve = &mut self.reserve_ms[seat.index()];
        *reserve = reserve.saturating_add(ms.max(0)).min(LONGEST_MS);
        if let Some(turn) = self.turn
            && turn.seat == seat
        {
            // While paused, the turn stands where the pause froze it.
            let at = self.paused_at.unwrap_or(now);
            let due = self.events().iter().take_while(|(due, _)| *due <= at).count();
            if let Some(turn) = self.turn.as_mut() {
                turn.events_done = due.min(usize::from(turn.events_done)) as u8;
            }
        }
    }

    /// "0:42 + 4:12 reserve" for the seat at `now`.
    pub fn line(&self, seat: Seat, now: i64) -> String {
        let (normal, reserve) = self.left(seat, now);
        let paused = if self.paused_at.is_some() { " (paused)" } else { "" };
        format!("{} + {} reserve{paused}", duration(normal), duration(reserve))
    }
}

/// `0:42`, `4:05`, `1:02:03`, `3d 04:00:00` (rounded up to the second: 0:00 means none left).
pub fn duration(ms: i64) -> String {
    let seconds = (ms.clamp(0, i64::MAX - 999) + 999) / 1000;
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (hours, rest) = (rest / 3600, rest % 3600);
    let (minutes, seconds) = (rest / 60, rest % 60);
    match (days, hours) {
        (0, 0) => format!("{minutes}:{seconds:02}"),
        (0, _) => format!("{hours}:{minutes:02}:{seconds:02}"),
        _ => format!("{days}d {hours:02}:{minutes:02}:{seconds:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Seat = Seat::First;
    const BLACK: Seat = Seat::Second;

    #[test]
    fn the_normal_time_is_used_first_and_only_overtime_comes_off_the_reserve() {
        let mut clock = MatchClock::new(TimeControl::STANDARD);
        clock.start_turn(WHITE, 0);
        assert_eq!(clock.left(WHITE, 45_000), (15_000, 300_000));
        assert_eq!(clock.left(WHITE, 70_000), (0, 290_000));
        clock.start_turn(BLACK, 70_000);
        assert_eq!(clock.reserve_ms, [290_000, 300_000]);
        clock.start_turn(WHITE, 100_000);
        assert_eq!(clock.reserve_ms, [290_000, 300_000], "a quick turn costs no reserve");
        // The next turn starts with the full normal time again, and the reserve is not refilled.
        assert_eq!(clock.left(WHITE, 100_000), (60_000, 290_000));
    }

    #[test]
    fn events_fall_when_normal_time_ends_at_the_warning_points_and_at_the_flag() {
        let mut clock = MatchClock::new(TimeControl::STANDARD);
        clock.start_turn(WHITE, 1_000);
        let at: Vec<(i64, ClockEvent)> = clock.events();
        assert_eq!(
            at,
            vec![
                (46_000, ClockEvent::NormalLeft(15_000)),
                (61_000, ClockEvent::ReserveStarts),
                (301_000, ClockEvent::ReserveLeft(60_000)),
                (331_000, ClockEvent::ReserveLeft(30_000)),
                (351_000, ClockEvent::ReserveLeft(10_000)),
                (361_000, ClockEvent::Flagged),
            ]
        );
        assert!(!clock.is_flagged(360_999));
        assert!(clock.is_flagged(361_000));
    }

    #[test]
    fn warnings_scale_with_long_time_controls_and_skip_points_already_past() {
        let day = 86_400_000;
        let control = TimeControl {
            normal_ms: day,
            reserve_ms: 3 * day,
        };
        // 14.4 h, 7.2 h and 2.4 h of a 72-hour reserve.
        assert_eq!(control.warning_points(), [51_840_000, 25_920_000, 8_640_000]);
        let mut clock = MatchClock::new(TimeControl::STANDARD);
        clock.reserve_ms[0] = 20_000;
        clock.start_turn(WHITE, 0);
        let kinds: Vec<ClockEvent> = clock.events().into_iter().map(|(_, e)| e).collect();
        assert_eq!(
            kinds,
            [
                ClockEvent::NormalLeft(15_000),
                ClockEvent::ReserveStarts,
                ClockEvent::ReserveLeft(10_000),
                ClockEvent::Flagged
            ]
        );
    }

    #[test]
    fn a_pause_freezes_the_turn_and_moves_its_events() {
        let mut clock = MatchClock::new(TimeControl::STANDARD);
        clock.start_turn(WHITE, 0);
        clock.pause(50_000);
        assert_eq!(clock.left(WHITE, 500_000), (10_000, 300_000));
        assert_eq!(clock.next_event(), None, "nothing falls due while paused");
        clock.resume(500_000);
        assert_eq!(clock.left(WHITE, 500_000), (10_000, 300_000));
        assert_eq!(clock.next_event(), Some((495_000, ClockEvent::NormalLeft(15_000))));
    }

    #[test]
    fn added_reserve_counts_at_once_and_announcements_ahead_again_are_made_again() {
        let mut clock = MatchClock::new(TimeControl::STANDARD);
        clock.start_turn(WHITE, 0);
        for _ in 0..4 {
            clock.event_done();
        }
        // At 340 s: 20 s of reserve left; four announcements made (15 s of normal time left,
        // normal time over, 60 s, 30 s).
        assert_eq!(clock.left(WHITE, 340_000), (0, 20_000));
        clock.add_reserve(WHITE, 60_000, 340_000);
        assert_eq!(clock.left(WHITE, 340_000), (0, 80_000));
        assert_eq!(clock.next_event(), Some((360_000, ClockEvent::ReserveLeft(60_000))));
    }

    #[test]
    fn durations_read_like_clocks() {
        assert_eq!(duration(0), "0:00");
        assert_eq!(duration(1), "0:01");
        assert_eq!(duration(42_000), "0:42");
        assert_eq!(duration(245_000), "4:05");
        assert_eq!(duration(3_723_000), "1:02:03");
        assert_eq!(duration(3 * 86_400_000 + 4 * 3_600_000), "3d 04:00:00");
    }
}

/// The longest duration a match accepts anywhere (a year), which keeps all clock arithmetic far
/// from overflowing.
pub const LONGEST_MS: i64 = 366 * 86_400_000;

/// Reads a duration as hosts write one: `90` (seconds), `90s`, `5m`, `1h30m`, `24h`, `3d`; at
/// most [`LONGEST_MS`].
pub fn parse_duration(text: &str) -> Option<i64> {
    parse_any_duration(text).filter(|ms| *ms <= LONGEST_MS)
}

fn parse_any_duration(text: &str) -> Option<i64> {
    let text = text.trim().to_ascii_lowercase();
    if text.is_empty() {
        return None;
    }
    if let Ok(seconds) = text.parse::<i64>() {
        return seconds.checked_mul(1000).filter(|ms| *ms >= 0);
    }
    let mut total: i64 = 0;
    let mut number = String::new();
    for c in text.chars() {
        match c {
            '0'..='9' => number.push(c),
            ' ' => {}
            unit => {
                let value: i64 = number.parse().ok()?;
                number.clear();
                let ms = match unit {
                    's' => 1_000,
                    'm' => 60_000,
                    'h' => 3_600_000,
                    'd' => 86_400_000,
                    _ => return None,
                };
                total = total.checked_add(value.checked_mul(ms)?)?;
            }
        }
    }
    number.is_empty().then_some(total)
}

#[cfg(test)]
mod parse_tests {
    use super::parse_duration;

    #[test]
    fn durations_are_read_in_the_units_hosts_write() {
        assert_eq!(parse_duration("60"), Some(60_000));
        assert_eq!(parse_duration("90s"), Some(90_000));
        assert_eq!(parse_duration("5m"), Some(300_000));
        assert_eq!(parse_duration("1h30m"), Some(5_400_000));
        assert_eq!(parse_duration("24H"), Some(86_400_000));
        assert_eq!(parse_duration("3d"), Some(259_200_000));
        for bad in [
            "",
            "m",
            "5x",
            "5m3",
            "-5",
            "1h h",
            "99999999999999999999d",
            "2000000000d",
            "367d",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }
}
