//! Tournament commands in the terminal. As for Death Matches, whoever creates a tournament hosts
//! it; the terminal's one place holds the tournament and its games.

use super::{caller, game_argument, here, server, usage};
use crate::arena::{Arena, ArenaError, Caller, Effects, Ruling, TournamentRequest};
use crate::clock::parse_duration;
use crate::ids::{TournamentId, UserId};
use crate::tournament::{parse_time, parse_variants};

/// Runs a tournament command; `None` when `verb` is not one.
pub async fn execute(arena: &Arena, user: &UserId, verb: &str, args: &str) -> Option<Result<Effects, ArenaError>> {
    if verb != "tournament" && verb != "t" {
        return None;
    }
    let (action, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    let result = match action {
        "create" => create(arena, user, rest).await,
        "adjudicate" => adjudicate(arena, user, rest).await,
        "" => Err(usage(
            "say what to do: `tournament create|join|withdraw|start|pair|close-round|standings|show`",
        )),
        _ => match which(arena, rest).await {
            Ok(id) => match action {
                "join" => arena.tournaments().join(id, &caller(user)).await,
                "withdraw" => arena.tournaments().withdraw(id, &caller(user)).await,
                "start" => arena.tournaments().start(id, &caller(user)).await,
                "pair" => arena.tournaments().pair(id, &caller(user)).await,
                "close-round" => arena.tournaments().close_round(id, &caller(user)).await,
                "standings" => arena.tournaments().standings(id, &caller(user), &here()).await,
                "show" => arena.tournaments().show(id, &caller(user)).await,
                other => Err(usage(&format!("\"{other}\" is not a tournament command"))),
            },
            Err(error) => Err(error),
        },
    };
    Some(match result {
        Ok(effects) => with_round_announcement(arena, effects).await,
        Err(error) => Err(error),
    })
}

/// A round just paired is announced after its games' first posts (the terminal has no threads
/// to open for them).
pub async fn with_round_announcement(arena: &Arena, mut effects: Effects) -> Result<Effects, ArenaError> {
    if let Some(round) = &effects.paired_round {
        let announcement = arena
            .tournaments()
            .round_announcement(round.tournament, round.round)
            .await?;
        effects.posts.extend(announcement.posts);
    }
    Ok(effects)
}

/// The tournament named (`t3`), or the one open here.
async fn which(arena: &Arena, args: &str) -> Result<TournamentId, ArenaError> {
    match args.trim().strip_prefix('t') {
        Some(number) if !number.is_empty() => number
            .parse()
            .map_err(|_| usage(&format!("\"t{number}\" is not a tournament number"))),
        _ => arena.tournaments().at(&here()).await,
    }
}

async fn create(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let mut parts = args.split('|').map(str::trim);
    let name = parts.next().unwrap_or_default().to_string();
    let (mut rounds, mut variants, mut time, mut bands, mut start) = (None, None, None, None, None);
    for part in parts {
        let (key, value) = part.split_once(' ').unwrap_or((part, ""));
        let value = value.trim();
        match key {
            "rounds" => {
                rounds = Some(value.parse::<usize>().map_err(|_| usage("`rounds` takes a number"))?);
            }
            "variants" => variants = Some(value),
            "time" => time = Some(value),
            "bands" => bands = Some(value),
            "start" => start = Some(value),
            other => {
                return Err(usage(&format!(
                    "\"{other}\" is not rounds, variants, time, bands or start"
                )));
            }
        }
    }
    let variants = parse_variants(variants, rounds).map_err(ArenaError::Rejected)?;
    let time = parse_time(time, bands).map_err(ArenaError::Rejected)?;
    let starts_at = match start {
        Some(text) => Some(
            arena.now()
                + parse_duration(text)
                    .ok_or_else(|| usage(&format!("the start \"{text}\" is not a duration like 30m or 2h")))?,
        ),
        None => None,
    };
    let request = TournamentRequest {
        name,
        variants,
        time,
        starts_at,
        location: here(),
    };
    // Creating a tournament is open to anyone at the terminal, who then hosts it.
    arena
        .tournaments()
        .create(&Caller::host(user, Some(&server())), request)
        .await
}

async fn adjudicate(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (game, rest) = game_argument(args)?;
    let game = game.ok_or_else(|| usage("name the game, like `tournament adjudicate #12 draw`"))?;
    let ruling = match rest.trim() {
        "white" => Ruling::WhiteWins,
        "black" => Ruling::BlackWins,
        "draw" => Ruling::Draw,
        "abort" => Ruling::Abort,
        _ => return Err(usage("say white, black, draw or abort")),
    };
    arena.tournaments().adjudicate(game, &caller(user), ruling).await
}
