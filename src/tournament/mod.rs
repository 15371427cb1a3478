//! Club tournaments (docs/tournaments.md): a Swiss event with a game of its own each
//! round and each player's clock set by their rating band or one time control for everyone.
//! This module is the event as data and the pure rules around it (pairing, standings, bands);
//! the arena runs it and the store keeps it.

pub mod handicap;
pub mod standings;
pub mod swiss;

use crate::clock::TimeControl;
use arbiter_engine::VariantId;
use handicap::{Bands, UNRATED};
use serde::{Deserialize, Serialize};
pub use swiss::Colour;

pub use crate::ids::{GameId, TournamentId, UserId};

/// The club night's games: one round of each.
pub const CLUB_NIGHT_VARIANTS: [VariantId; 5] = [
    VariantId::Rejection,
    VariantId::Circe,
    VariantId::Portal,
    VariantId::Beirut,
    VariantId::KnightsAreGod,
];

/// The most rounds a tournament may have, and the most players (a round's announcement and
/// standings image stay readable; a Swiss of 64 needs no more than 9 rounds).
pub const MOST_ROUNDS: usize = 15;
pub const MOST_PLAYERS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentStatus {
    /// Players may join; no round is paired yet.
    Registering,
    Running,
    Finished,
}

impl TournamentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Registering => "registering",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
        }
    }

    pub fn parse(text: &str) -> Option<TournamentStatus> {
        [
            TournamentStatus::Registering,
            TournamentStatus::Running,
            TournamentStatus::Finished,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// How the games of a tournament are timed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TimeSetting {
    /// Each player's own clock has the time of their rating band.
    Handicap { bands: Bands },
    /// Everyone plays with the same time control.
    Everyone { control: TimeControl },
}

impl TimeSetting {
    /// The control of a player rated `rating`.
    pub fn control_for(&self, rating: i32) -> TimeControl {
        match self {
            TimeSetting::Handicap { bands } => bands.control_for(rating),
            TimeSetting::Everyone { control } => *control,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            TimeSetting::Handicap { bands } => format!("handicap clocks by rating ({})", bands.describe()),
            TimeSetting::Everyone { control } => control.describe(),
        }
    }
}

/// A player entered in the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub user: UserId,
    /// The rating the event uses (pairing order and handicap band), fixed when round 1 is
    /// paired; until then none.
    #[serde(default)]
    pub rating: Option<i32>,
    /// Withdrawn players are not paired again; their results stand.
    #[serde(default)]
    pub withdrawn: bool,
}

impl Entry {
    pub fn rating(&self) -> i32 {
        self.rating.unwrap_or(UNRATED)
    }
}

/// A game of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub game: GameId,
    pub white: UserId,
    pub black: UserId,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub boards: Vec<Board>,
    #[serde(default)]
    pub bye: Option<UserId>,
    /// Every game has its result and the round's end was announced.
    #[serde(default)]
    pub complete: bool,
}

/// A tournament's settings, players and rounds, as stored (JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub name: String,
    /// Who created it: they run it, as do the server's hosts.
    pub host: UserId,
    /// The game of each round (as many as there are rounds).
    pub variants: Vec<VariantId>,
    pub time: TimeSetting,
    /// In joining order, which breaks the last ties of pairing.
    pub players: Vec<Entry>,
    pub rounds: Vec<Round>,
}

impl Tournament {
    /// The index of `user` among the players.
    pub fn entry_of(&self, user: &UserId) -> Option<usize> {
        self.players.iter().position(|entry| &entry.user == user)
    }

    /// The round being played or last played (1-based), with its pairings.
    pub fn current_round(&self) -> Option<(usize, &Round)> {
        self.rounds.last().map(|round| (self.rounds.len(), round))
    }

    /// The board `game` is on: its round (1-based) and the board.
    pub fn board_of(&self, game: GameId) -> Option<(usize, &Board)> {
        self.rounds.iter().enumerate().find_map(|(index, round)| {
            round
                .boards
                .iter()
                .find(|board| board.game == game)
                .map(|board| (index + 1, board))
        })
    }

    /// The variant of round `number` (1-based).
    pub fn variant_of_round(&self, number: usize) -> Option<VariantId> {
        self.variants.get(number.checked_sub(1)?).copied()
    }

    pub fn active_players(&self) -> usize {
        self.players.iter().filter(|entry| !entry.withdrawn).count()
    }

    /// The time control `user`'s clock gets.
    pub fn control_of(&self, user: &UserId) -> TimeControl {
        let rating = self
            .entry_of(user)
            .map_or(UNRATED, |index| self.players[index].rating());
        self.time.control_for(rating)
    }
}

/// What a board's game gave, as the tournament scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardResult {
    /// Still being played.
    Pending,
    /// Won by the player of `Colour`; `forfeit` when the loser never played it out (withdrew).
    Won {
        by: Colour,
        forfeit: bool,
    },
    Drawn,
    /// Aborted by the host: nobody scores, and the pair counts as having met.
    Void,
}

impl BoardResult {
    pub fn is_pending(self) -> bool {
        self == BoardResult::Pending
    }

    /// Half points for the player of `colour`.
    pub fn half_points(self, colour: Colour) -> u32 {
        match self {
            BoardResult::Won { by, .. } if by == colour => 2,
            BoardResult::Drawn => 1,
            _ => 0,
        }
    }

    /// "1-0", "½-½", "0-1", "+/-" for a forfeit, "void", "*" while pending.
    pub fn score_text(self) -> &'static str {
        match self {
            BoardResult::Pending => "*",
            BoardResult::Won {
                by: Colour::White,
                forfeit: false,
            } => "1-0",
            BoardResult::Won {
                by: Colour::Black,
                forfeit: false,
            } => "0-1",
            BoardResult::Won {
                by: Colour::White,
                forfeit: true,
            } => "+/- (forfeit)",
            BoardResult::Won {
                by: Colour::Black,
                forfeit: true,
            } => "-/+ (forfeit)",
            BoardResult::Drawn => "½-½",
            BoardResult::Void => "void",
        }
    }
}

/// Half points as people write them: "3", "2½", "½".
pub fn points_text(half_points: u32) -> String {
    match (half_points / 2, half_points % 2) {
        (0, 1) => "½".into(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// Reads the games of a tournament's rounds as a host writes them: names or ids separated by
/// commas, one per round, or one for every round. Without any: the club night's five.
pub fn parse_variants(text: Option<&str>, rounds: Option<usize>) -> Result<Vec<VariantId>, String> {
    let names: Vec<&str> = text
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .collect();
    let mut variants = Vec::with_capacity(names.len());
    for name in &names {
        let variant = VariantId::parse(name)
            .or_else(|| {
                VariantId::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name().eq_ignore_ascii_case(name))
            })
            .ok_or_else(|| {
                let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
                format!("there is no game called \"{name}\"; the games are {}", known.join(", "))
            })?;
        variants.push(variant);
    }
    match (variants.len(), rounds) {
        (0, None) => Ok(CLUB_NIGHT_VARIANTS.to_vec()),
        (0, Some(rounds)) if rounds == CLUB_NIGHT_VARIANTS.len() => Ok(CLUB_NIGHT_VARIANTS.to_vec()),
        (0, Some(_)) => Err("name the game of each round (or one game for every round)".into()),
        (1, Some(rounds)) if (1..=MOST_ROUNDS).contains(&rounds) => Ok(vec![variants[0]; rounds]),
        (n, Some(rounds)) if n != rounds => Err(format!(
            "{n} games for {rounds} rounds: name one game per round, or one game for every round"
        )),
        _ => Ok(variants),
    }
}

/// Reads how a tournament is timed: `handicap` (the default) with the host's bands or the
/// club night's, or one time control for everyone (`3d`, `0+10m`).
pub fn parse_time(time: Option<&str>, bands: Option<&str>) -> Result<TimeSetting, String> {
    let handicap = |bands: Option<&str>| -> Result<TimeSetting, String> {
        Ok(TimeSetting::Handicap {
            bands: bands.map_or_else(|| Ok(Bands::default()), Bands::parse)?,
        })
    };
    match time.map(str::trim) {
        None | Some("") => handicap(bands),
        Some(text) if text.eq_ignore_ascii_case("handicap") => handicap(bands),
        Some(_) if bands.is_some() => Err("bands are for handicap clocks: leave out the time control".into()),
        Some(text) => Ok(TimeSetting::Everyone {
            control: TimeControl::parse(text)?,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_name_their_games_or_default_to_the_seeds_five() {
        assert_eq!(parse_variants(None, None).unwrap(), CLUB_NIGHT_VARIANTS);
        assert_eq!(parse_variants(Some(""), Some(5)).unwrap(), CLUB_NIGHT_VARIANTS);
        assert_eq!(
            parse_variants(Some("Circe Chess, portal"), Some(2)).unwrap(),
            [VariantId::Circe, VariantId::Portal]
        );
        assert_eq!(parse_variants(Some("chess"), Some(3)).unwrap(), [VariantId::Chess; 3]);
        assert!(
            parse_variants(Some("chess, tiddlywinks"), None)
                .unwrap_err()
                .contains("\"tiddlywinks\"")
        );
        assert!(
            parse_variants(Some("chess, circe"), Some(3))
                .unwrap_err()
                .contains("2 games for 3 rounds")
        );
        assert!(parse_variants(None, Some(4)).is_err());
    }

    #[test]
    fn time_is_a_handicap_by_default_or_one_control_for_everyone() {
        assert_eq!(
            parse_time(None, None).unwrap(),
            TimeSetting::Handicap {
                bands: Bands::default()
            }
        );
        let TimeSetting::Handicap { bands } = parse_time(Some("handicap"), Some("1800:4m, 6m")).unwrap() else {
            panic!("a handicap");
        };
        assert_eq!(bands.control_for(1900).reserve_ms, 4 * crate::clock::MINUTE_MS);
        assert_eq!(
            parse_time(Some("3d"), None).unwrap(),
            TimeSetting::Everyone {
                control: TimeControl::days_per_move(3)
            }
        );
        assert!(parse_time(Some("3d"), Some("1800:4m, 6m")).is_err());
        assert!(parse_time(Some("soon"), None).unwrap_err().contains("24h+72h"));
    }
}
