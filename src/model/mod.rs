//! The service's vocabulary: a game as it is kept (its setup, status, row and log entries), a
//! Death Match's settings, players' and servers' settings, saved lists and tournaments' rows.
//! The store keeps them, the arena changes them, transports read them; none of them knows how
//! they are kept.

mod log;

pub use log::{effective_actions, effective_entries, rebuild};

use crate::clock::{GameClock, MatchClockV0, TimeControl};
use crate::ids::GameId;
use crate::ids::{Place, ServerId, TournamentId, UserId};
use crate::tournament::{Tournament, TournamentStatus};
use arbiter_engine::ai::Level;
use arbiter_engine::start::{Start, StartError};
use arbiter_engine::{Action, AnyGame, Game, Outcome, Seat, VariantId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameStatus {
    /// Waiting for the opponent to accept.
    Challenge,
    Active,
    Finished,
    Declined,
    Cancelled,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Challenge => "challenge",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Declined => "declined",
            GameStatus::Cancelled => "cancelled",
        }
    }
    pub fn parse(text: &str) -> Option<GameStatus> {
        [
            GameStatus::Challenge,
            GameStatus::Active,
            GameStatus::Finished,
            GameStatus::Declined,
            GameStatus::Cancelled,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// Who takes the first seat (White, Red, A: the side that moves first), as the challenge asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WhitePlayer {
    Random,
    Challenger,
    Opponent,
}

impl WhitePlayer {
    pub fn as_str(self) -> &'static str {
        match self {
            WhitePlayer::Random => "random",
            WhitePlayer::Challenger => "challenger",
            WhitePlayer::Opponent => "opponent",
        }
    }
    pub fn parse(text: &str) -> Option<WhitePlayer> {
        [WhitePlayer::Random, WhitePlayer::Challenger, WhitePlayer::Opponent]
            .into_iter()
            .find(|w| w.as_str() == text)
    }
}

/// How a game starts: its variant, optionally a start position, and whether the computer plays
/// one side (a rematch copies the setup, so it plays the rematch too).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    pub variant: VariantId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerPlayer>,
}

/// The computer as a player: the user it plays as (on Discord, the bot's own) and how hard it
/// tries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComputerPlayer {
    pub user: UserId,
    pub level: Level,
}

impl GameSetup {
    pub fn new(variant: VariantId) -> GameSetup {
        GameSetup {
            variant,
            fen: None,
            computer: None,
        }
    }

    /// The game with `fen` as its start position, if any.
    pub fn with_fen(variant: VariantId, fen: Option<String>) -> GameSetup {
        GameSetup {
            fen,
            ..GameSetup::new(variant)
        }
    }
    /// A new game at its start, from a position a player gave only if its rules can play it
    /// (RULES.md, "Start positions that players give"), with notes of what was changed in that
    /// position on the way (castling rights dropped).
    pub fn start_new(&self) -> Result<Start<AnyGame>, StartError> {
        match &self.fen {
            Some(fen) => AnyGame::from_players_fen(self.variant, fen),
            None => Ok(Start {
                game: AnyGame::new(self.variant),
                notes: Vec::new(),
                fen: None,
            }),
        }
    }

    /// The game at its start, as a stored game reads it: any position that parses (a game stored
    /// by an earlier release goes on as it was, whatever today's check of a start would say).
    pub fn start(&self) -> Result<AnyGame, arbiter_engine::fen::FenError> {
        match &self.fen {
            Some(fen) => AnyGame::from_fen(self.variant, fen),
            None => Ok(AnyGame::new(self.variant)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OfferKind {
    Draw,
    Takeback,
    /// A finished game's rematch has been asked for (the new game is `Offer::game`).
    Rematch,
    /// A player asked a Death Match's host for its rematch, which only the host starts.
    RematchAsked,
}

/// A pending offer by one seat, valid only while the game stays at `version`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    pub kind: OfferKind,
    pub by: Seat,
    /// The game an offer started (a rematch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameId>,
}

/// One entry of a game's append-only log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LogEntry {
    /// A seat's action in the game.
    Act { seat: Seat, action: Action },
    /// The last `plies` actions were taken back by agreement.
    Takeback { plies: u32 },
    /// The game ended off the board: resignation, agreement, time, a host's ruling, an abort.
    Conclude { outcome: Outcome },
}

/// A log entry with its place and time. `notation` is how the actor wrote it; it may hold a
/// secret, so it is for replay and the arbiter only, never for public output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedEntry {
    pub seq: i64,
    pub entry: LogEntry,
    pub notation: String,
    pub at: i64,
    /// In a timed game, the time the actor had left after the action (what records show).
    pub clock_ms: Option<i64>,
}

/// A log entry to append; the store numbers it and stamps it with the game's update time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    pub entry: LogEntry,
    pub notation: String,
    pub clock_ms: Option<i64>,
}

impl NewEntry {
    pub fn new(entry: LogEntry, notation: impl Into<String>) -> NewEntry {
        NewEntry {
            entry,
            notation: notation.into(),
            clock_ms: None,
        }
    }
}

/// A Death Match around a game: who hosts it, who holds the Advantage (and so chooses colours),
/// and when the colour choice falls to the bot. Its time lives in the game's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeathMatch {
    pub host: UserId,
    pub advantage: UserId,
    /// When the colour choice falls to the bot if the Advantage holder has not chosen.
    pub colours_due: i64,
    /// Matches stored before every game had a clock kept their control and clock here.
    #[serde(default, rename = "control", skip_serializing)]
    pub stored_control: Option<TimeControl>,
    #[serde(default, rename = "clock", skip_serializing)]
    pub stored_clock: Option<MatchClockV0>,
    /// The players who accepted that the match is rated (it is once both have, before the first
    /// placement). Matches stored before consent existed have none, and stay as rated as they
    /// were started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consented: Vec<UserId>,
}

impl DeathMatch {
    pub fn new(host: UserId, advantage: UserId, colours_due: i64) -> DeathMatch {
        DeathMatch {
            host,
            advantage,
            colours_due,
            stored_control: None,
            stored_clock: None,
            consented: Vec::new(),
        }
    }

    /// The clock a match stored before games had clocks of their own.
    pub fn stored_game_clock(&self) -> Option<GameClock> {
        match (&self.stored_clock, self.stored_control) {
            (Some(clock), _) => Some(clock.clone().upgrade()),
            (None, Some(control)) => Some(GameClock::timed([control; 2], true, 0)),
            (None, None) => None,
        }
    }
}

/// How a player wants to be reminded of a game waiting for them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reminders {
    /// A ping in the game's thread.
    #[default]
    Thread,
    /// A direct message (the thread gets a line without a ping).
    Dm,
    /// No ping at all (the thread still gets a line, which keeps it open).
    Off,
}

impl Reminders {
    pub const ALL: [Reminders; 3] = [Reminders::Thread, Reminders::Dm, Reminders::Off];

    pub fn as_str(self) -> &'static str {
        match self {
            Reminders::Thread => "thread",
            Reminders::Dm => "dm",
            Reminders::Off => "off",
        }
    }

    pub fn parse(text: &str) -> Option<Reminders> {
        Reminders::ALL
            .into_iter()
            .find(|r| r.as_str() == text.trim().to_ascii_lowercase())
    }

    pub fn describe(self) -> &'static str {
        match self {
            Reminders::Thread => "a ping in the game's thread",
            Reminders::Dm => "a direct message",
            Reminders::Off => "no reminders",
        }
    }
}

/// A user's settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserSettings {
    #[serde(default)]
    pub reminders: Reminders,
}

/// A server's settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSettings {
    /// The role whose members host Death Matches and tournaments on the server (its transport's
    /// id for it); none: the bot's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_role: Option<String>,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub setup: GameSetup,
    /// Where the game is played (a transport's channel or thread id).
    pub location: Place,
    pub status: GameStatus,
    pub challenger: UserId,
    pub opponent: UserId,
    pub white_player: WhitePlayer,
    /// The first and second seat's players once the challenge is accepted.
    pub players: Option<[UserId; 2]>,
    pub state: AnyGame,
    pub offer: Option<Offer>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// When the current turn began.
    pub turn_since: i64,
    pub deathmatch: Option<DeathMatch>,
    /// The game's clock: its time control and the turns it times (untimed games: whom the game
    /// waits for, and since when).
    pub clock: GameClock,
    /// The server the game belongs to (a Discord guild), for leaderboards.
    pub server: Option<ServerId>,
    /// The tournament the game is a round of, if any.
    pub tournament: Option<TournamentId>,
    /// Where the game came from (the channel its thread was opened in): where its posts go if
    /// its own place is lost.
    pub home: Option<Place>,
    /// The version whose news (posts in its place) was saved but not yet seen to reach its
    /// players; a transport starting up shows such games as they stand.
    pub unshown: Option<i64>,
    /// Whether its result moves ratings (an imported record's never does, whatever happens).
    pub is_rated: bool,
}

impl GameRow {
    /// When something must happen to the game without a person acting (a colour choice falling
    /// due, a reminder, a clock warning, a forfeit on time, the computer's turn), if ever.
    pub fn next_deadline(&self) -> Option<i64> {
        let computer = self.computer_to_act().map(|_| self.updated_at);
        match (self.clock_deadline(), computer) {
            (Some(clock), Some(computer)) => Some(clock.min(computer)),
            (clock, computer) => clock.or(computer),
        }
    }

    /// When the game's clock (or a Death Match's colour choice) next needs the scheduler.
    pub fn clock_deadline(&self) -> Option<i64> {
        match self.status {
            GameStatus::Challenge => self.deathmatch.as_ref().map(|d| d.colours_due),
            GameStatus::Active => self.clock.next_event().map(|event| event.at),
            _ => None,
        }
    }

    /// The computer and its seat, when it plays this game and has something to do now.
    pub fn computer_to_act(&self) -> Option<(&ComputerPlayer, Seat)> {
        if self.status != GameStatus::Active {
            return None;
        }
        let computer = self.setup.computer.as_ref()?;
        let seat = self.seat_of(&computer.user)?;
        self.state.to_act().contains(&seat).then_some((computer, seat))
    }

    /// Whether `user` is the computer playing this game.
    pub fn is_computer(&self, user: &UserId) -> bool {
        self.setup
            .computer
            .as_ref()
            .is_some_and(|computer| computer.user == *user)
    }

    /// The seat `user` holds, if seated; in a study, the seat to act.
    pub fn seat_of(&self, user: &UserId) -> Option<Seat> {
        let players = self.players.as_ref()?;
        if self.is_study() {
            let to_act = self.state.to_act().first().copied().unwrap_or(Seat::First);
            return (&players[0] == user).then_some(to_act);
        }
        Seat::BOTH.into_iter().find(|s| &players[s.index()] == user)
    }

    /// Whether one user plays both sides (an imported record, studied alone).
    pub fn is_study(&self) -> bool {
        matches!(&self.players, Some([first, second]) if first == second)
    }
    pub fn player(&self, seat: Seat) -> Option<&UserId> {
        self.players.as_ref().map(|p| &p[seat.index()])
    }
}

impl NewGame {
    /// The deadline a game starts with (see [`GameRow::next_deadline`]).
    pub fn next_deadline(&self) -> Option<i64> {
        match self.status {
            GameStatus::Challenge => self.deathmatch.as_ref().map(|d| d.colours_due),
            GameStatus::Active => self.clock.next_event().map(|event| event.at),
            _ => None,
        }
    }
}

/// What creating a game needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub setup: GameSetup,
    pub location: Place,
    pub status: GameStatus,
    pub challenger: UserId,
    pub opponent: UserId,
    pub white_player: WhitePlayer,
    pub players: Option<[UserId; 2]>,
    pub state: AnyGame,
    pub now: i64,
    pub deathmatch: Option<DeathMatch>,
    pub clock: GameClock,
    pub server: Option<ServerId>,
    pub tournament: Option<TournamentId>,
    /// Whether its result moves ratings.
    pub is_rated: bool,
}

/// A tournament as stored: its state guarded by a version, like a game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: TournamentId,
    /// The channel it belongs to, where rounds are announced.
    pub location: Place,
    pub server: Option<ServerId>,
    pub status: TournamentStatus,
    pub tournament: Tournament,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// When round 1 is paired by itself, if the host set a start.
    pub starts_at: Option<i64>,
}

/// What creating a tournament needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub location: Place,
    pub server: Option<ServerId>,
    pub tournament: Tournament,
    pub starts_at: Option<i64>,
    pub now: i64,
}

/// A piece list a player saved to use again: the text they wrote, one piece a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedList {
    pub name: String,
    pub body: String,
    pub saved_at: i64,
}
