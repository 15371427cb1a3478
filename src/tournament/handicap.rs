//! Handicap clocks by rating band: each player's clock has the time of their own band for the
//! whole game, with no increment, so stronger players have less time. The club night gives old English
//! grades (180+ 5 minutes, 140-179 7, 101-139 9, 100 and below 10); Arbiter converts them with
//! rating = 8 x grade + 600.

use crate::clock::{MINUTE_MS, TimeControl, duration_words, parse_duration};
use serde::{Deserialize, Serialize};

/// The rating a player without one counts as.
pub const UNRATED: i32 = 1500;

/// The most bands a host may set (more would not fit an announcement line).
const MOST_BANDS: usize = 8;

/// Players rated `from` and above (down to the next band) get `time_ms` for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    /// The band's lowest rating; none for the last band (everyone below the others).
    pub from: Option<i32>,
    pub time_ms: i64,
}

/// Bands from the strongest down; the last one has no lower bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bands(Vec<Band>);

/// What bands that cannot be read are answered with.
pub const BANDS_HELP: &str = "write each band's lowest rating and its time, strongest first, then the time for \
     everyone below: `2040:5m, 1720:7m, 1408:9m, 10m`";

impl Default for Bands {
    /// The club night's grades converted: 2040 and above 5 minutes, 1720-2039 7, 1408-1719 9, below 10.
    fn default() -> Bands {
        let band = |from, minutes| Band {
            from,
            time_ms: minutes * MINUTE_MS,
        };
        Bands(vec![
            band(Some(2040), 5),
            band(Some(1720), 7),
            band(Some(1408), 9),
            band(None, 10),
        ])
    }
}

impl Bands {
    /// Reads bands as a host writes them (see [`BANDS_HELP`]).
    pub fn parse(text: &str) -> Result<Bands, String> {
        let unreadable = |part: &str| format!("I could not read the band \"{}\": {BANDS_HELP}", part.trim());
        let parts: Vec<&str> = text.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        if parts.is_empty() || parts.len() > MOST_BANDS {
            return Err(format!("give between 1 and {MOST_BANDS} bands: {BANDS_HELP}"));
        }
        let mut bands = Vec::new();
        for (index, part) in parts.iter().enumerate() {
            let is_last = index + 1 == parts.len();
            let (from, time) = match part.split_once(':') {
                Some((from, time)) => {
                    let from: i32 = from
                        .trim()
                        .trim_end_matches('+')
                        .parse()
                        .map_err(|_| unreadable(part))?;
                    (Some(from), time)
                }
                None if is_last => (None, *part),
                None => return Err(unreadable(part)),
            };
            let time_ms = parse_duration(time.trim()).ok_or_else(|| unreadable(part))?;
            let control = TimeControl {
                normal_ms: 0,
                reserve_ms: time_ms,
            };
            if time_ms < crate::clock::SHORTEST_MS || !control.is_within_bounds() || time_ms > LONGEST_GAME_MS {
                return Err(format!(
                    "a band's time must be between 10 seconds and 60 days (\"{}\")",
                    part.trim()
                ));
            }
            bands.push(Band { from, time_ms });
        }
        // A last band with a bound still leaves everyone below it: they get its time too.
        if let Some(last) = bands.last_mut() {
            last.from = None;
        }
        let bounds: Vec<i32> = bands.iter().filter_map(|b| b.from).collect();
        if bounds.windows(2).any(|pair| pair[0] <= pair[1]) {
            return Err(format!("list the bands from the highest rating down: {BANDS_HELP}"));
        }
        Ok(Bands(bands))
    }

    pub fn bands(&self) -> &[Band] {
        &self.0
    }

    /// The time control of a player rated `rating`: their band's time for the whole game.
    pub fn control_for(&self, rating: i32) -> TimeControl {
        let band = self
            .0
            .iter()
            .find(|band| band.from.is_none_or(|from| rating >= from))
            .or(self.0.last());
        TimeControl {
            normal_ms: 0,
            reserve_ms: band.map_or(10 * MINUTE_MS, |b| b.time_ms),
        }
    }

    /// The bands as hosts write them (what [`Bands::parse`] reads back).
    pub fn spec(&self) -> String {
        self.0
            .iter()
            .map(|band| {
                let time = crate::clock::duration_spec(band.time_ms);
                match band.from {
                    Some(from) => format!("{from}:{time}"),
                    None => time,
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// "2040 and above: 5 minutes · 1720-2039: 7 minutes · below 1408: 10 minutes".
    pub fn describe(&self) -> String {
        let mut above: Option<i32> = None;
        let mut parts = Vec::new();
        for band in &self.0 {
            let time = duration_words(band.time_ms);
            parts.push(match (band.from, above) {
                (Some(from), None) => format!("{from} and above: {time}"),
                (Some(from), Some(top)) => format!("{from}-{}: {time}", top - 1),
                (None, Some(top)) => format!("below {top}: {time}"),
                (None, None) => format!("everyone: {time}"),
            });
            above = band.from.or(above);
        }
        parts.join(" · ")
    }
}

/// The longest game a band may give (a correspondence event's whole-game time).
const LONGEST_GAME_MS: i64 = crate::clock::LONGEST_RESERVE_MS;

#[cfg(test)]
mod tests {
    use super::*;

    fn minutes(bands: &Bands, rating: i32) -> i64 {
        bands.control_for(rating).reserve_ms / MINUTE_MS
    }

    #[test]
    fn the_seeds_grades_become_rating_bands() {
        let bands = Bands::default();
        // Grade 180 = 2040, 140 = 1720, 101 = 1408 (rating = 8 x grade + 600).
        for (rating, expected) in [
            (2400, 5),
            (2040, 5),
            (2039, 7),
            (1720, 7),
            (1719, 9),
            (1408, 9),
            (1407, 10),
        ] {
            assert_eq!(minutes(&bands, rating), expected, "{rating}");
        }
        assert_eq!(minutes(&bands, UNRATED), 9);
        assert_eq!(bands.control_for(2100).normal_ms, 0, "no increment, no time per move");
        assert_eq!(
            bands.describe(),
            "2040 and above: 5 minutes · 1720-2039: 7 minutes · 1408-1719: 9 minutes · below 1408: 10 minutes"
        );
    }

    #[test]
    fn hosts_write_their_own_bands_and_read_them_back() {
        let bands = Bands::parse("1800:3m, 1500+: 4m30s, 6m").unwrap();
        assert_eq!(minutes(&bands, 1900), 3);
        assert_eq!(bands.control_for(1600).reserve_ms, 270_000);
        assert_eq!(minutes(&bands, 100), 6);
        assert_eq!(Bands::parse(&bands.spec()), Ok(bands));
        assert_eq!(Bands::parse(&Bands::default().spec()), Ok(Bands::default()));
        // One time for everyone.
        assert_eq!(minutes(&Bands::parse("15m").unwrap(), 2800), 15);
        // A last band with a bound covers everyone below too.
        assert_eq!(minutes(&Bands::parse("2000:5m, 1500:8m").unwrap(), 900), 8);
    }

    #[test]
    fn unreadable_or_unordered_bands_say_how_to_write_them() {
        for bad in [
            "",
            "fast",
            "2000:5m, 7m, 9m",
            "1500:5m, 2000:7m, 9m",
            "2000:0m, 5m",
            "x:5m, 6m",
            "2000:5m, 61d",
        ] {
            assert!(Bands::parse(bad).is_err(), "{bad}");
        }
        assert!(
            Bands::parse("1500:5m, 2000:7m, 9m")
                .unwrap_err()
                .contains("highest rating down")
        );
    }
}
