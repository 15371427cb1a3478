//! Durations as players read and write them.

/// The longest duration accepted anywhere (a year), which keeps all clock arithmetic far from
/// overflowing.
pub const LONGEST_MS: i64 = 366 * 86_400_000;

pub const SECOND_MS: i64 = 1_000;
pub const MINUTE_MS: i64 = 60 * SECOND_MS;
pub const HOUR_MS: i64 = 60 * MINUTE_MS;
pub const DAY_MS: i64 = 24 * HOUR_MS;

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

/// A duration in words at its two largest units: `3 days`, `1 day 6 hours`, `45 minutes`,
/// `1 minute 30 seconds` (rounded down to the second).
pub fn duration_words(ms: i64) -> String {
    let units = [
        (DAY_MS, "day"),
        (HOUR_MS, "hour"),
        (MINUTE_MS, "minute"),
        (SECOND_MS, "second"),
    ];
    let mut rest = ms.max(0);
    let mut parts = Vec::new();
    for (size, name) in units {
        let count = rest / size;
        if count > 0 {
            parts.push(format!("{count} {name}{}", if count == 1 { "" } else { "s" }));
            rest -= count * size;
        } else if !parts.is_empty() {
            break;
        }
        if parts.len() == 2 {
            break;
        }
    }
    if parts.is_empty() {
        "0 seconds".into()
    } else {
        parts.join(" ")
    }
}

/// The shortest way to write a duration that [`parse_duration`] reads back: `3d`, `24h`,
/// `1h30m`, `90s`, `0`.
pub fn duration_spec(ms: i64) -> String {
    let units = [(DAY_MS, 'd'), (HOUR_MS, 'h'), (MINUTE_MS, 'm'), (SECOND_MS, 's')];
    let mut rest = ms.max(0) / SECOND_MS * SECOND_MS;
    let mut out = String::new();
    for (size, unit) in units {
        if rest >= size {
            out.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    if out.is_empty() { "0".into() } else { out }
}

/// Reads a duration as hosts write one: `90` (seconds), `90s`, `5m`, `1h30m`, `24h`, `3d`; at
/// most [`LONGEST_MS`].
pub fn parse_duration(text: &str) -> Option<i64> {
    parse_any_duration(text).filter(|ms| *ms <= LONGEST_MS)
}

fn parse_any_duration(text: &str) -> Option<i64> {
    let text = text.trim().to_ascii_lowercase();
    if text.is_empty() || text.len() > 40 {
        return None;
    }
    if let Ok(seconds) = text.parse::<i64>() {
        return seconds.checked_mul(1000).filter(|ms| *ms >= 0);
    }
    // Numbers each followed by its unit, spaces anywhere between: `1h30m`, `5 mins`,
    // `1 hour 30 minutes`.
    let mut total: i64 = 0;
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let value: i64 = rest[..digits].parse().ok()?;
        rest = rest[digits..].trim_start();
        let letters = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let unit = unit_ms(&rest[..letters])?;
        rest = rest[letters..].trim_start();
        total = total.checked_add(value.checked_mul(unit)?)?;
    }
    Some(total)
}

/// Whether a word goes on writing a time begun before it (`5` `mins`, `+` `2d`): a unit, a `+`,
/// or something starting with a digit or `+`.
pub fn continues_a_time(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    unit_ms(&word).is_some() || word.starts_with(|c: char| c.is_ascii_digit() || c == '+')
}

/// A unit of time as people write it, short or long, one or many: `s`, `sec`, `seconds`; `m`,
/// `min`, `mins`, `minute`; `h`, `hr`, `hours`; `d`, `day`, `days`.
fn unit_ms(unit: &str) -> Option<i64> {
    Some(match unit {
        "s" | "sec" | "secs" | "second" | "seconds" => SECOND_MS,
        "m" | "min" | "mins" | "minute" | "minutes" => MINUTE_MS,
        "h" | "hr" | "hrs" | "hour" | "hours" => HOUR_MS,
        "d" | "day" | "days" => DAY_MS,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_clocks() {
        assert_eq!(duration(0), "0:00");
        assert_eq!(duration(1), "0:01");
        assert_eq!(duration(42_000), "0:42");
        assert_eq!(duration(245_000), "4:05");
        assert_eq!(duration(3_723_000), "1:02:03");
        assert_eq!(duration(3 * 86_400_000 + 4 * 3_600_000), "3d 04:00:00");
    }

    #[test]
    fn durations_in_words_keep_their_two_largest_units() {
        assert_eq!(duration_words(3 * DAY_MS), "3 days");
        assert_eq!(duration_words(DAY_MS + 6 * HOUR_MS + 5 * MINUTE_MS), "1 day 6 hours");
        assert_eq!(duration_words(DAY_MS + 5 * MINUTE_MS), "1 day");
        assert_eq!(duration_words(90 * SECOND_MS), "1 minute 30 seconds");
        assert_eq!(duration_words(0), "0 seconds");
    }

    #[test]
    fn specs_read_back_to_the_same_duration() {
        for ms in [0, 90_000, 5 * MINUTE_MS, 5_400_000, DAY_MS, 3 * DAY_MS + HOUR_MS] {
            assert_eq!(parse_duration(&duration_spec(ms)), Some(ms), "{ms}");
        }
        assert_eq!(duration_spec(3 * DAY_MS), "3d");
        assert_eq!(duration_spec(5_400_000), "1h30m");
    }

    #[test]
    fn durations_are_read_in_the_units_hosts_write() {
        assert_eq!(parse_duration("60"), Some(60_000));
        assert_eq!(parse_duration("90s"), Some(90_000));
        assert_eq!(parse_duration("5m"), Some(300_000));
        assert_eq!(parse_duration("1h30m"), Some(5_400_000));
        assert_eq!(parse_duration("24H"), Some(86_400_000));
        assert_eq!(parse_duration("3d"), Some(259_200_000));
        // The long and short forms people write.
        assert_eq!(parse_duration("5 mins"), Some(300_000));
        assert_eq!(parse_duration("5 minute"), Some(300_000));
        assert_eq!(parse_duration("30 sec"), Some(30_000));
        assert_eq!(parse_duration("1 hour 30 minutes"), Some(5_400_000));
        assert_eq!(parse_duration("2 days 3hrs"), Some(2 * DAY_MS + 3 * HOUR_MS));
        for bad in [
            "5 ms",
            "5 mute",
            "5 minutess",
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
