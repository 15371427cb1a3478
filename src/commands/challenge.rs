//! Starting a game, for every transport: what the player chose (the game, their side, a start
//! position, a time control) becomes the arena's request, with the computer as the opponent when
//! they asked for it and a level only then; and a challenge answered or taken back.

use super::Ask;
use super::describe::{Command, Run, everywhere, terminal_only, written};
use super::options::{Opt, game};
use super::picking::{self, Fits};
use crate::arena::{ArenaError, Caller, ChallengeRequest, Effects, text};
use crate::clock::TimeControl;
use crate::ids::{GameId, Place, UserId};
use crate::model::{ComputerPlayer, GameSetup, WhitePlayer};
use arbiter_engine::VariantId;
use arbiter_engine::ai::Level;

pub const CANCEL: Command = everywhere(
    "cancel",
    "Withdraw a challenge of yours that has not been answered.",
    &[game("Game number (default: your only open challenge)")],
    written(&["cancel"], "cancel [#id]", ""),
)
.answered_by(Run::public(|ask, args| Box::pin(cancel(ask, args.game()))));

/// Discord answers a challenge with its buttons.
pub const ACCEPT: Command = terminal_only(
    "Accept a challenge made to you (or a rematch, or an imported game offered to you).",
    &[CHALLENGE],
    written(&["accept"], "accept [#id]", ""),
)
.answered_by(Run::public(|ask, args| Box::pin(answer(ask, args.game(), true))));

pub const DECLINE: Command = terminal_only(
    "Decline a challenge made to you.",
    &[CHALLENGE],
    written(&["decline"], "decline [#id]", ""),
)
.answered_by(Run::public(|ask, args| Box::pin(answer(ask, args.game(), false))));

/// Discord offers a rematch with a button under the game's last post.
pub const REMATCH: Command = terminal_only(
    "After a game, challenge your opponent to the same game again with the sides swapped.",
    &[game("Game number (default: your last game)")],
    written(&["rematch"], "rematch [#id]", "In a Death Match, it asks the host."),
)
.answered_by(Run::public(|ask, args| Box::pin(rematch(ask, args.game()))));

const CHALLENGE: Opt = game("Game number (default: your only challenge)");

/// What a player chose for a new game.
#[derive(Clone, Debug)]
pub struct GameChoices {
    pub variant: VariantId,
    pub white_player: WhitePlayer,
    /// A start position, in the game's FEN (blank: the game's own).
    pub fen: Option<String>,
    /// A time control as typed (blank, `none` or `untimed`: untimed).
    pub time: Option<String>,
}

impl GameChoices {
    /// The arena's request for a game against `opponent` (the computer, when `computer` plays),
    /// asked by `caller` at `here`.
    fn request(
        self,
        caller: &Caller,
        here: &Place,
        opponent: UserId,
        computer: Option<ComputerPlayer>,
    ) -> Result<ChallengeRequest, ArenaError> {
        let setup = GameSetup {
            computer,
            ..GameSetup::with_fen(self.variant, self.fen.filter(|fen| !fen.trim().is_empty()))
        };
        Ok(ChallengeRequest {
            opponent,
            setup,
            white_player: self.white_player,
            control: time_control(self.time.as_deref())?,
            location: here.clone(),
            server: caller.server.clone(),
        })
    }
}

/// The time control typed, if any.
fn time_control(time: Option<&str>) -> Result<Option<TimeControl>, ArenaError> {
    match time.map(str::trim) {
        None | Some("") | Some("none") | Some("untimed") => Ok(None),
        Some(text) => TimeControl::parse(text).map(Some).map_err(ArenaError::Rejected),
    }
}

/// The computer's seat when `opponent` is the computer (`computer`, as this transport names it),
/// at `level` (normal by default); a level for anyone else is refused.
fn computer_opponent(
    opponent: &UserId,
    computer: &UserId,
    level: Option<Level>,
) -> Result<Option<ComputerPlayer>, ArenaError> {
    if opponent == computer {
        return Ok(Some(ComputerPlayer {
            user: computer.clone(),
            level: level.unwrap_or_default(),
        }));
    }
    match level {
        Some(_) => Err(ArenaError::Rejected(format!(
            "a level is for the computer: play it with {}",
            text::command("practice", &[])
        ))),
        None => Ok(None),
    }
}

/// A challenge to `opponent` (the computer when it is `computer`, at `level`).
pub async fn challenge(
    ask: Ask<'_>,
    opponent: UserId,
    computer: &UserId,
    choices: GameChoices,
    level: Option<Level>,
) -> Result<Effects, ArenaError> {
    let seat = computer_opponent(&opponent, computer, level)?;
    let request = choices.request(ask.asked.caller, ask.place, opponent, seat)?;
    ask.arena.challenges().challenge(&ask.asked.caller.user, request).await
}

/// A game against the computer (`computer`) at once, at `level`.
pub async fn practice(
    ask: Ask<'_>,
    computer: &UserId,
    choices: GameChoices,
    level: Option<Level>,
) -> Result<Effects, ArenaError> {
    challenge(ask, computer.clone(), computer, choices, level).await
}

/// A challenge of the asker's own taken back before it is answered.
pub async fn cancel(ask: Ask<'_>, game: Option<GameId>) -> Result<Effects, ArenaError> {
    let id = picking::pick(ask.arena, ask.asked, game, Fits::YourChallenge).await?;
    ask.arena.challenges().cancel(id, &ask.asked.caller.user).await
}

/// A challenge made to the asker, accepted (`accepts`) or declined.
pub async fn answer(ask: Ask<'_>, game: Option<GameId>, accepts: bool) -> Result<Effects, ArenaError> {
    let id = picking::pick(ask.arena, ask.asked, game, Fits::ChallengingYou).await?;
    let user = &ask.asked.caller.user;
    if accepts {
        ask.arena.challenges().accept(id, user).await
    } else {
        ask.arena.challenges().decline(id, user).await
    }
}

/// The game the asker last played (or names), offered again with the sides swapped.
pub async fn rematch(ask: Ask<'_>, game: Option<GameId>) -> Result<Effects, ArenaError> {
    let id = picking::pick_to_look_at(ask.arena, ask.asked, game).await?;
    ask.arena.challenges().rematch(id, ask.asked.caller, ask.place).await
}
