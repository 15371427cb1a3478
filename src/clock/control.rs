//! Time controls: how much time a player has. One shape serves every kind of game: each turn
//! has a normal time, and time beyond it comes off a reserve that is never refilled. Days per
//! move (correspondence) is a normal time with no reserve; Death Matches are 60 seconds plus a
//! 5-minute reserve; a whole game in 5 minutes is no normal time and a 5-minute reserve.

use super::duration::{DAY_MS, HOUR_MS, LONGEST_MS, SECOND_MS, duration_spec, duration_words, parse_duration};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time each turn has before the reserve starts to run.
    pub normal_ms: i64,
    /// Each player's reserve for the whole game.
    pub reserve_ms: i64,
}

/// The longest normal time a game may give a turn (correspondence's longest: two weeks).
pub const LONGEST_TURN_MS: i64 = 14 * DAY_MS;
/// The longest reserve an ordinary game may give.
pub const LONGEST_RESERVE_MS: i64 = 60 * DAY_MS;
/// The shortest time a turn may have in all (normal time plus reserve).
pub const SHORTEST_MS: i64 = 10 * SECOND_MS;

/// What a time control that cannot be read is answered with.
pub const TIME_CONTROL_HELP: &str = "write days per move (`3d`: 1, 2, 3, 5, 7 or 14 days, as in \
     correspondence chess), or normal time per move plus a reserve (`24h+72h`, `10m+5m`, or `0+5m` for \
     5 minutes for the whole game)";

/// The days per move correspondence players choose from.
pub const CORRESPONDENCE_DAYS: [i64; 6] = [1, 2, 3, 5, 7, 14];

impl TimeControl {
    /// The game shows' standard: 60 seconds a turn and a 5-minute reserve.
    pub const STANDARD: TimeControl = TimeControl {
        normal_ms: 60_000,
        reserve_ms: 300_000,
    };

    pub fn days_per_move(days: i64) -> TimeControl {
        TimeControl {
            normal_ms: days * DAY_MS,
            reserve_ms: 0,
        }
    }

    /// Reads a time control as players write one (see [`TIME_CONTROL_HELP`]), within the bounds
    /// of an ordinary game.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let lower = text.trim().to_ascii_lowercase();
        // Units long or short are the durations' own (`5 mins`, `3 days`).
        let cleaned = lower.trim_end_matches("per move").trim_end_matches("/move").trim_end();
        let unreadable = || {
            format!(
                "I could not read the time control \"{}\": {TIME_CONTROL_HELP}",
                text.trim()
            )
        };
        let (normal, reserve) = cleaned.split_once('+').unwrap_or((cleaned, "0"));
        let normal_ms = parse_duration(normal).ok_or_else(unreadable)?;
        let reserve_ms = parse_duration(reserve).ok_or_else(unreadable)?;
        let control = TimeControl { normal_ms, reserve_ms };
        if normal_ms > LONGEST_TURN_MS {
            return Err(format!(
                "a move may have at most 14 days of normal time ({TIME_CONTROL_HELP})"
            ));
        }
        if reserve_ms > LONGEST_RESERVE_MS {
            return Err(format!("a reserve may be at most 60 days ({TIME_CONTROL_HELP})"));
        }
        if normal_ms + reserve_ms < SHORTEST_MS {
            return Err(format!(
                "a time control needs at least 10 seconds in all ({TIME_CONTROL_HELP})"
            ));
        }
        Ok(control)
    }

    /// The control as [`TimeControl::parse`] reads it back: `3d`, `24h+72h`, `0+5m`.
    pub fn spec(self) -> String {
        if self.reserve_ms == 0 {
            duration_spec(self.normal_ms)
        } else {
            format!("{}+{}", duration_spec(self.normal_ms), duration_spec(self.reserve_ms))
        }
    }

    /// "3 days per move", "24 hours per move + 72 hours reserve", "5 minutes for the game".
    pub fn describe(self) -> String {
        match (self.normal_ms, self.reserve_ms) {
            (normal, 0) => format!("{} per move", duration_words(normal)),
            (0, reserve) => format!("{} for the game", duration_words(reserve)),
            (normal, reserve) => format!(
                "{} per move + {} reserve",
                duration_words(normal),
                duration_words(reserve)
            ),
        }
    }

    /// Reserve left at which a Death Match player to act is warned: 60, 30 and 10 seconds for a
    /// 5-minute reserve, the same shares of a longer (or shorter) one.
    pub fn warning_points(self) -> [i64; 3] {
        [60, 30, 10].map(|seconds| self.reserve_ms * seconds / 300)
    }

    /// Whether the control is long enough for reminders (a player on a shorter clock is at the
    /// board).
    pub fn is_correspondence(self) -> bool {
        self.normal_ms + self.reserve_ms >= HOUR_MS
    }

    /// Keeps a host's values within what clock arithmetic handles.
    pub fn is_within_bounds(self) -> bool {
        (0..=LONGEST_MS).contains(&self.normal_ms) && (0..=LONGEST_MS).contains(&self.reserve_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::duration::MINUTE_MS;

    #[test]
    fn days_per_move_and_normal_time_plus_reserve_are_read() {
        assert_eq!(TimeControl::parse("3d"), Ok(TimeControl::days_per_move(3)));
        assert_eq!(TimeControl::parse("3 days"), Ok(TimeControl::days_per_move(3)));
        // The long and short forms people write: never `5 mins` read as milliseconds.
        let five_minutes = TimeControl {
            normal_ms: 5 * MINUTE_MS,
            reserve_ms: 0,
        };
        assert_eq!(TimeControl::parse("5 mins"), Ok(five_minutes));
        assert_eq!(TimeControl::parse("5 minute"), Ok(five_minutes));
        assert_eq!(
            TimeControl::parse("1 hour + 2 days"),
            Ok(TimeControl {
                normal_ms: HOUR_MS,
                reserve_ms: 2 * DAY_MS,
            })
        );
        assert_eq!(TimeControl::parse("1 day per move"), Ok(TimeControl::days_per_move(1)));
        assert_eq!(
            TimeControl::parse("24h+72h"),
            Ok(TimeControl {
                normal_ms: DAY_MS,
                reserve_ms: 3 * DAY_MS
            })
        );
        assert_eq!(
            TimeControl::parse(" 0 + 5m "),
            Ok(TimeControl {
                normal_ms: 0,
                reserve_ms: 5 * MINUTE_MS
            })
        );
    }

    #[test]
    fn controls_out_of_range_or_unreadable_say_what_to_write() {
        for bad in ["", "soon", "3x", "15d", "1d+61d", "0", "5s", "1d+", "+", "3d+2d+1d"] {
            let error = TimeControl::parse(bad).unwrap_err();
            assert!(error.contains("`24h+72h`"), "{bad}: {error}");
        }
        assert!(TimeControl::parse("15d").unwrap_err().contains("at most 14 days"));
    }

    #[test]
    fn a_control_is_written_back_as_it_is_read_and_described_in_words() {
        for text in ["3d", "24h+72h", "0+5m", "10m+5m", "1h30m"] {
            let control = TimeControl::parse(text).unwrap();
            assert_eq!(TimeControl::parse(&control.spec()), Ok(control), "{text}");
        }
        assert_eq!(TimeControl::parse("24h+72h").unwrap().spec(), "1d+3d");
        assert_eq!(TimeControl::days_per_move(3).describe(), "3 days per move");
        assert_eq!(TimeControl::parse("0+5m").unwrap().describe(), "5 minutes for the game");
        assert_eq!(
            TimeControl::parse("24h+72h").unwrap().describe(),
            "1 day per move + 3 days reserve"
        );
    }
}
