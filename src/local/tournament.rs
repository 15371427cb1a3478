//! Tournament commands in the terminal. As for Death Matches, whoever creates a tournament hosts
//! it; the terminal's one place holds the tournament and its games.

use super::{here, server, usage};
use crate::arena::{Arena, ArenaError, Caller, Effects, TournamentRequest};
use crate::clock::parse_duration;
use crate::ids::UserId;
use crate::tournament::{parse_time, parse_variants};

/// Runs a tournament command; `None` when `verb` is not one.
pub async fn execute(arena: &Arena, user: &UserId, verb: &str, args: &str) -> Option<Result<Effects, ArenaError>> {
    if verb != "tournament" && verb != "t" {
        return None;
    }
    let (action, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    // The other subcommands are the command layer's (`commands::tournaments`).
    let result = match action {
        "create" => create(arena, user, rest).await,
        "" => Err(usage(
            "say what to do: `tournament create|join|withdraw|start|pair|close-round|adjudicate|standings|show`",
        )),
        other => Err(usage(&format!("\"{other}\" is not a tournament command"))),
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
