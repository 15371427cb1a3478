//! Which game a command means, for every transport: the one the player named, the game of the
//! place they asked in (a game's own thread), or their only game the command can apply to. What
//! they are told when none or several fit is worded here once, naming the game the way their
//! transport names one (Discord's `game` option, the terminal's `#id`).

use crate::arena::{Arena, ArenaError, Caller, GameSummary};
use crate::ids::{GameId, Place};
use crate::model::GameStatus;

/// The games a command can apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fits {
    /// Games in progress where the caller is to act.
    WaitingForYou,
    /// Games in progress.
    InProgress,
    /// Challenges made to the caller.
    ChallengingYou,
    /// The caller's own challenges, not answered yet.
    YourChallenge,
    /// Any of the caller's open games.
    Any,
}

impl Fits {
    pub fn admits(self, game: &GameSummary) -> bool {
        match self {
            Fits::WaitingForYou => game.status == GameStatus::Active && game.is_your_turn,
            Fits::InProgress => game.status == GameStatus::Active,
            Fits::ChallengingYou => game.status == GameStatus::Challenge && game.is_your_turn,
            Fits::YourChallenge => game.status == GameStatus::Challenge && !game.is_your_turn,
            Fits::Any => true,
        }
    }

    /// The games that fit, in words: "you have no game {words}".
    fn words(self) -> &'static str {
        match self {
            Fits::WaitingForYou => "waiting for your move",
            Fits::InProgress => "in progress",
            Fits::ChallengingYou => "challenging you",
            Fits::YourChallenge => "as an open challenge of yours",
            Fits::Any => "open",
        }
    }
}

/// How a player names a game on their transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// Discord: the `game` option, or the game's own thread.
    GameOption,
    /// The terminal: `#id` after the command.
    Number,
}

impl Naming {
    fn refusal(self, error: ArenaError, fits: Fits) -> ArenaError {
        match (self, error) {
            (Naming::GameOption, ArenaError::NoGameHere) => ArenaError::Rejected(
                "there is no game here: use this in a game's thread, or name the game with the `game` option".into(),
            ),
            (Naming::Number, ArenaError::NoGameHere) => {
                ArenaError::Rejected(format!("you have no game {}", fits.words()))
            }
            (naming, ArenaError::WhichGame(several)) => {
                let ids: Vec<String> = several.iter().map(|id| format!("#{id}")).collect();
                let how = match naming {
                    Naming::GameOption => "name one with the `game` option",
                    Naming::Number => "add the game number",
                };
                ArenaError::Rejected(format!(
                    "you have several games {} ({}): {how}",
                    fits.words(),
                    ids.join(", ")
                ))
            }
            (_, other) => other,
        }
    }
}

/// Where and how a command was asked, for picking its game.
#[derive(Clone, Copy)]
pub struct Asked<'a> {
    pub caller: &'a Caller,
    /// The place asked in, whose own game a command means first (a game's thread).
    pub here: Option<&'a Place>,
    pub naming: Naming,
}

/// The game a command means: the one named, the game of the place asked in, or the caller's only
/// game that `fits`. A number names a game only if the caller may see it from where they asked:
/// otherwise it gets the one answer a number that exists nowhere gets, before anything of the
/// game is looked up.
pub async fn pick(arena: &Arena, asked: Asked<'_>, named: Option<GameId>, fits: Fits) -> Result<GameId, ArenaError> {
    pick_unworded(arena, asked, named, fits)
        .await
        .map_err(|error| asked.naming.refusal(error, fits))
}

/// [`pick`], with the arena's own "none" and "several" answers.
async fn pick_unworded(
    arena: &Arena,
    asked: Asked<'_>,
    named: Option<GameId>,
    fits: Fits,
) -> Result<GameId, ArenaError> {
    if let Some(named) = named {
        arena.facts_for(named, asked.caller).await?;
    }
    arena
        .pick_game(&asked.caller.user, asked.here, named, |game| fits.admits(game))
        .await
}

/// The game a move means: the one named, or the caller's only game waiting for them; failing
/// that, their only game in progress, so that the arena says why it is not theirs to move in (the
/// opponent's turn, or their secret move already in).
pub async fn pick_to_act(arena: &Arena, asked: Asked<'_>, named: Option<GameId>) -> Result<GameId, ArenaError> {
    match pick_unworded(arena, asked, named, Fits::WaitingForYou).await {
        Err(ArenaError::NoGameHere) if named.is_none() => pick(arena, asked, None, Fits::InProgress).await,
        other => other.map_err(|error| asked.naming.refusal(error, Fits::WaitingForYou)),
    }
}

/// The game a looking command means: the one named, the game of the place asked in, the
/// caller's only open game, or else the game of theirs that ended last.
pub async fn pick_to_look_at(arena: &Arena, asked: Asked<'_>, named: Option<GameId>) -> Result<GameId, ArenaError> {
    match pick_unworded(arena, asked, named, Fits::Any).await {
        Err(ArenaError::NoGameHere) => arena
            .last_finished_game(&asked.caller.user)
            .await?
            .ok_or_else(|| ArenaError::Rejected("you have no games yet".into())),
        other => other.map_err(|error| asked.naming.refusal(error, Fits::Any)),
    }
}
