//! Death Matches, for every transport: the match a host or player command means, a new match
//! from what the host chose (the computer seated when it plays), and each command's request to
//! the arena. Whether the asker may run the match is the arena's to say; the asker is whom the
//! transport vouches for (on Discord, with their host status on the server).

use super::Ask;
use super::describe::{Command, Run, discord_only, everywhere, written};
use super::options::MATCH;
use super::picking::Naming;
use crate::arena::{ArenaError, Effects, MatchRequest};
use crate::clock::{TimeControl, parse_duration};
use crate::ids::{GameId, UserId};
use crate::model::ComputerPlayer;
use arbiter_engine::VariantId;
use arbiter_engine::ai::Level;

pub const RATED: Command = everywhere(
    "deathmatch rated",
    "Accept, as a player, that the match is rated (it is once both have, before the first placement).",
    &[MATCH],
    written(
        &["rated"],
        "rated [#id]",
        "A rated match moves ratings on this server only; otherwise it is played unrated.",
    ),
)
.answered_by(Run::public(|ask, args| Box::pin(rated(ask, args.game()))).on_a_server());

pub const PAUSE: Command = everywhere(
    "deathmatch pause",
    "Freeze both clocks.",
    &[MATCH],
    written(&["pause"], "pause [#id]", "The host's command."),
)
.answered_by(Run::public(|ask, args| Box::pin(pause(ask, args.game(), true))).for_hosts());

pub const RESUME: Command = everywhere(
    "deathmatch resume",
    "Unfreeze the clocks; the turn goes on where it stopped.",
    &[MATCH],
    written(&["resume"], "resume [#id]", "The host's command."),
)
.answered_by(Run::public(|ask, args| Box::pin(pause(ask, args.game(), false))).for_hosts());

/// The terminal writes it `adjudicate abort`.
pub const ABORT: Command = discord_only("deathmatch abort", "Call the match off, with no result.", &[MATCH])
    .answered_by(Run::public(|ask, args| Box::pin(adjudicate(ask, args.game(), Ruling::Abort))).for_hosts());

/// What a host chose for a new match.
pub struct NewMatch {
    pub variant: VariantId,
    pub players: [UserId; 2],
    /// The player holding the Advantage, who chooses colours.
    pub advantage: UserId,
    /// The normal time of a turn and each player's reserve, as typed (none: the standard ones).
    pub normal_time: Option<String>,
    pub reserve: Option<String>,
}

/// A duration a host typed, like 60s, 5m, 24h or 3d; `default` when none was.
pub fn duration(text: Option<&str>, default: i64, what: &str) -> Result<i64, ArenaError> {
    match text.map(str::trim) {
        None | Some("") => Ok(default),
        Some(text) => parse_duration(text).ok_or_else(|| {
            ArenaError::Rejected(format!(
                "the {what} \"{text}\" is not a duration like 60s, 5m, 24h or 3d"
            ))
        }),
    }
}

/// Starts a match the asker hosts, in the place asked; `computer` plays it when seated.
pub async fn start(ask: Ask<'_>, computer: &UserId, chosen: NewMatch) -> Result<Effects, ArenaError> {
    let control = TimeControl {
        normal_ms: duration(
            chosen.normal_time.as_deref(),
            TimeControl::STANDARD.normal_ms,
            "normal time",
        )?,
        reserve_ms: duration(chosen.reserve.as_deref(), TimeControl::STANDARD.reserve_ms, "reserve")?,
    };
    let seated = chosen.players.contains(computer).then(|| ComputerPlayer {
        user: computer.clone(),
        level: Level::default(),
    });
    let request = MatchRequest {
        variant: chosen.variant,
        players: chosen.players,
        advantage: chosen.advantage,
        control,
        location: ask.place.clone(),
        computer: seated,
    };
    ask.arena.matches().start(ask.asked.caller, request).await
}

/// The match a command means: the one named (a match of the server asked on only: another
/// server's gets the answer a number that exists nowhere gets), the only one open where it was
/// asked that the asker has a part in, or the one being played there. `written` is the command as the asker was writing it, for the terminal's hint.
pub async fn meant(ask: Ask<'_>, named: Option<GameId>, written: &str) -> Result<GameId, ArenaError> {
    if let Some(id) = named {
        ask.arena.require_game_on_server(id, ask.asked.caller).await?;
        return Ok(id);
    }
    // The one match here the asker has a part in, whatever else they play.
    if let [only] = ask.arena.matches().open_at(ask.place, &ask.asked.caller.user).await?[..] {
        return Ok(only);
    }
    ask.arena.game_at(ask.place).await?.ok_or_else(|| {
        ArenaError::Rejected(match ask.asked.naming {
            Naming::GameOption => "there is no single match here: name it with the `game` option".into(),
            Naming::Number => format!("name the match, like `{} #3`", written.trim()),
        })
    })
}

/// A player accepts that the match is rated.
pub async fn rated(ask: Ask<'_>, named: Option<GameId>) -> Result<Effects, ArenaError> {
    let id = meant(ask, named, "rated").await?;
    ask.arena.matches().accept_rating(id, ask.asked.caller).await
}

/// The host freezes the clocks (`pause`) or lets them run again.
pub async fn pause(ask: Ask<'_>, named: Option<GameId>, pause: bool) -> Result<Effects, ArenaError> {
    let id = meant(ask, named, if pause { "pause" } else { "resume" }).await?;
    ask.arena.matches().pause(id, ask.asked.caller, pause).await
}

/// The host gives `player` more reserve: `time` as typed.
pub async fn add_time(ask: Ask<'_>, named: Option<GameId>, player: &UserId, time: &str) -> Result<Effects, ArenaError> {
    let id = meant(ask, named, &format!("addtime {} {time}", player.display_name())).await?;
    let ms = duration(Some(time), 0, "time")?;
    ask.arena.matches().add_time(id, ask.asked.caller, player, ms).await
}

/// How a host rules on a match.
pub enum Ruling {
    Win(UserId),
    Draw,
    /// Called off, with no result.
    Abort,
}

/// The host rules on the match.
pub async fn adjudicate(ask: Ask<'_>, named: Option<GameId>, ruling: Ruling) -> Result<Effects, ArenaError> {
    let written = match &ruling {
        Ruling::Win(winner) => format!("adjudicate {}", winner.display_name()),
        Ruling::Draw => "adjudicate draw".into(),
        Ruling::Abort => "adjudicate abort".into(),
    };
    let id = meant(ask, named, &written).await?;
    let host = ask.asked.caller;
    match ruling {
        Ruling::Win(winner) => ask.arena.matches().adjudicate(id, host, Some(&winner), false).await,
        Ruling::Draw => ask.arena.matches().adjudicate(id, host, None, false).await,
        Ruling::Abort => ask.arena.matches().adjudicate(id, host, None, true).await,
    }
}
