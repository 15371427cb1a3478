//! What the arena asks a transport to do. Effects are data, so every transport and every test
//! uses the same core and performs them its own way.

use crate::ids::{GameId, Place, TournamentId, UserId};
use crate::render::{BoardImage, Table};

/// A message for everyone in the game's place (its thread or channel).
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    /// The game it is about; none for a post about no single game (a tournament's announcement).
    pub game: Option<GameId>,
    pub location: Place,
    pub text: String,
    /// The board to show with it: always drawn from a spectator's view.
    pub board: Option<BoardImage>,
    /// Users to ping (the players to act).
    pub mentions: Vec<UserId>,
    /// Buttons to show with it; the arena checks who presses them.
    pub buttons: Vec<Button>,
    /// A moment to count down to, which transports show in their own way (Discord's relative
    /// timestamps update by themselves, so no message is edited every second).
    pub countdown: Option<Countdown>,
    /// A table to show with it (a tournament's standings).
    pub table: Option<Table>,
    /// A warning worth making only until this moment and while the game stands as it was
    /// (`Effects::version`): a transport that cannot send it in time drops it rather than post
    /// "10 s left" after the flag fell or the player moved. Other posts must always arrive.
    pub stale_at: Option<i64>,
}

impl Post {
    /// A post of text only, at `location`, about `game` (if it is about one).
    pub fn plain(game: Option<GameId>, location: &Place, text: String) -> Post {
        Post {
            game,
            location: location.clone(),
            text,
            board: None,
            mentions: Vec::new(),
            buttons: Vec::new(),
            countdown: None,
            table: None,
            stale_at: None,
        }
    }
}

/// "alice's time runs out" at a moment, in Unix milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Countdown {
    pub what: String,
    pub at: i64,
}

/// A button under a post: what pressing it asks the arena. Transports tie it to the game and the
/// version it was posted at, so a button pressed after the game moved on changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    AcceptChallenge,
    DeclineChallenge,
    /// Opens the presser's own secret-choice menu, privately.
    ChoosePrivately,
    AcceptDraw,
    DeclineDraw,
    AcceptTakeback,
    DeclineTakeback,
    /// The Advantage holder (or the host) takes the side that moves first.
    PlayFirst,
    /// ... or the side that moves second.
    PlaySecond,
    /// A finished game's players (a match's host) ask for the same game again, sides swapped.
    Rematch,
    /// A Death Match's player accepts that it is rated (it is once both have, before the first
    /// placement).
    RateMatch,
    /// Opens, for the player to act alone, menus of what can act and where (`Play::guide`): a
    /// move, a placement or a pick made without typing.
    Move,
}

impl Button {
    pub const ALL: [Button; 12] = [
        Button::AcceptChallenge,
        Button::DeclineChallenge,
        Button::ChoosePrivately,
        Button::AcceptDraw,
        Button::DeclineDraw,
        Button::AcceptTakeback,
        Button::DeclineTakeback,
        Button::PlayFirst,
        Button::PlaySecond,
        Button::Rematch,
        Button::RateMatch,
        Button::Move,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Button::AcceptChallenge => "Accept",
            Button::DeclineChallenge => "Decline",
            Button::ChoosePrivately => "Choose privately",
            Button::AcceptDraw => "Accept draw",
            Button::DeclineDraw => "Decline draw",
            Button::AcceptTakeback => "Allow takeback",
            Button::DeclineTakeback => "Refuse takeback",
            Button::PlayFirst => "First (White / Red)",
            Button::PlaySecond => "Second (Black / Blue)",
            Button::Rematch => "Rematch",
            Button::RateMatch => "Rated: I accept",
            Button::Move => "Move",
        }
    }

    /// A short stable name, for identifiers that outlive a process (Discord's custom ids).
    pub fn key(self) -> &'static str {
        match self {
            Button::AcceptChallenge => "accept",
            Button::DeclineChallenge => "decline",
            Button::ChoosePrivately => "private",
            Button::AcceptDraw => "draw-yes",
            Button::DeclineDraw => "draw-no",
            Button::AcceptTakeback => "takeback-yes",
            Button::DeclineTakeback => "takeback-no",
            Button::PlayFirst => "first",
            Button::PlaySecond => "second",
            Button::Rematch => "rematch",
            Button::RateMatch => "rated",
            Button::Move => "move",
        }
    }

    pub fn from_key(key: &str) -> Option<Button> {
        Button::ALL.into_iter().find(|b| b.key() == key)
    }

    /// Whether pressing it is a "yes" (drawn as a primary button).
    pub fn is_positive(self) -> bool {
        matches!(
            self,
            Button::AcceptChallenge
                | Button::ChoosePrivately
                | Button::AcceptDraw
                | Button::AcceptTakeback
                | Button::PlayFirst
                | Button::PlaySecond
                | Button::Rematch
                | Button::RateMatch
                | Button::Move
        )
    }
}

/// A private answer to whoever made the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub text: String,
    /// The board as the caller may see it (their own view).
    pub board: Option<BoardImage>,
}

/// Words for one reader alone: a secret prompt, private news. It has no `Display` and its
/// `Debug` shows nothing, so it cannot slip into a post, a log line or an error by accident; the
/// paths that reach the reader alone (a DM, an answer only they see) open it with `reveal`.
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateText(String);

impl PrivateText {
    pub fn new(text: impl Into<String>) -> PrivateText {
        PrivateText(text.into())
    }

    /// The words, for a message that reaches their reader and nobody else.
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for PrivateText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PrivateText(..)")
    }
}

/// A direct message, for secret choices, private news and reminders.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectMessage {
    pub to: UserId,
    pub game: GameId,
    pub text: PrivateText,
    /// The board from the recipient's own view.
    pub board: Option<BoardImage>,
    /// The actions to offer as buttons or a menu, in notation.
    pub choices: Vec<String>,
    /// What the menu asks for, shown in it before a choice is made.
    pub menu_hint: String,
    /// The answer is a list of pieces to write (a form), not a choice from a menu.
    pub asks_for_list: bool,
    /// A reminder: its news is posted in the game's place too, so a DM that cannot be delivered
    /// needs nothing more.
    pub is_reminder: bool,
    /// For a secret prompt, what its choices are (`Arena::act_from_menu` takes a choice from it
    /// only while the seat still faces this very prompt).
    pub prompt_key: Option<String>,
}

/// A short, stable name for a prompt's words and choices (FNV-1a): two prompts with the same
/// key offer the same choices. Kept in the menus' ids, so it must not change between processes
/// or restarts.
pub fn prompt_key(text: &str, choices: &[String]) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    let parts = std::iter::once(text).chain(choices.iter().map(String::as_str));
    for byte in parts.flat_map(|part| part.bytes().chain(std::iter::once(0))) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{hash:08x}")
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effects {
    pub posts: Vec<Post>,
    pub reply: Option<Reply>,
    pub direct_messages: Vec<DirectMessage>,
    /// The game the request created or changed.
    pub game: Option<GameId>,
    /// The game's version after the request: buttons posted now are valid at this version.
    pub version: Option<i64>,
    /// A tournament round the request paired: transports that can give each of its games a
    /// place of its own (a thread) do so and move the game there, then post the round's
    /// announcement (`Arena::round_announcement`), which points to those places.
    pub paired_round: Option<PairedRound>,
    /// A game that began at once (against the computer): transports that can give it a place of
    /// its own (a thread) do so, move it there, and say where in the place it was asked for.
    pub own_place: Option<GameId>,
    /// A game's replay to attach to the answer, for everyone where it was asked.
    pub replay: Option<Replay>,
    /// A finished game's analysis: for everyone where it was asked, unless it is private.
    pub analysis: Option<AnalysisReport>,
    /// A game whose first post should carry its live page's links, when the transport serves
    /// pages (a Death Match, which has an audience).
    pub watch_links: Option<GameId>,
}

/// A replay to attach to an answer, with its words and the file's name.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    pub caption: String,
    pub file_name: String,
    pub animation: crate::render::Animation,
}

/// An analysis to show: its words, its graph and the boards of the worst turning points after
/// the better action.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisReport {
    pub game: GameId,
    pub text: String,
    pub graph: crate::render::EvalGraph,
    /// Each with its caption.
    pub boards: Vec<(String, BoardImage)>,
    /// Built from what only the asker knows (their own secrets): for them alone.
    pub private: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedRound {
    pub tournament: TournamentId,
    /// 1-based.
    pub round: usize,
    pub games: Vec<GameId>,
}

impl Effects {
    pub fn reply(text: impl Into<String>) -> Effects {
        Effects {
            reply: Some(Reply {
                text: text.into(),
                board: None,
            }),
            ..Default::default()
        }
    }
}
