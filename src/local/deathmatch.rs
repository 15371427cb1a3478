//! Death Match commands in the terminal. Whoever starts a match hosts it, and only they run it:
//! its players never get a host's powers over it.

use super::{caller, game_argument, here, local_user, server, usage};
use crate::arena::{Arena, ArenaError, Caller, Effects, MatchRequest};
use crate::clock::{TimeControl, parse_duration};
use crate::ids::{GameId, UserId};
use crate::model::ComputerPlayer;
use arbiter_engine::VariantId;
use arbiter_engine::ai::Level;

fn duration(text: &str, what: &str) -> Result<i64, ArenaError> {
    parse_duration(text).ok_or_else(|| usage(&format!("the {what} \"{text}\" is not a duration like 60s, 5m or 24h")))
}

/// The game a match command means: the one named, or the only match running here. Otherwise the
/// player is shown how to name it in the command they were writing (`written`, like `side second`).
async fn match_here(arena: &Arena, named: Option<GameId>, written: &str) -> Result<GameId, ArenaError> {
    match named {
        Some(id) => Ok(id),
        None => arena
            .game_at(&here())
            .await?
            .ok_or_else(|| ArenaError::Rejected(format!("name the match, like `{written} #3`"))),
    }
}

/// Runs a Death Match command; `None` when `verb` is not one.
pub async fn execute(arena: &Arena, user: &UserId, verb: &str, args: &str) -> Option<Result<Effects, ArenaError>> {
    let result = match verb {
        // `deathmatch rated` is how Discord's command reads: the terminal takes it too.
        "deathmatch" | "dm" if args.split_whitespace().next() == Some("rated") => {
            rated(arena, user, args.trim_start().trim_start_matches("rated")).await
        }
        "deathmatch" | "dm" => start(arena, user, args).await,
        "rated" => rated(arena, user, args).await,
        "side" => {
            let (word, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
            match game_argument(rest) {
                Ok((named, _)) => match match_here(arena, named, &format!("side {word}")).await {
                    Ok(id) => match arena.seat_named(id, word).await {
                        Ok(Some(side)) => arena.matches().choose_side(id, &caller(user), side).await,
                        Ok(None) => Err(usage("say `side first` or `side second` (or the side's name)")),
                        Err(e) => Err(e),
                    },
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            }
        }
        "pause" | "resume" => match game_argument(args) {
            Ok((named, _)) => match match_here(arena, named, verb).await {
                Ok(id) => arena.matches().pause(id, &caller(user), verb == "pause").await,
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        },
        "addtime" => add_time(arena, user, args).await,
        "adjudicate" => adjudicate(arena, user, args).await,
        _ => return None,
    };
    Some(result)
}

/// A player accepts that the match is rated.
async fn rated(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let id = match_here(arena, named, "rated").await?;
    arena.matches().accept_rating(id, &caller(user)).await
}

async fn start(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let [player1, player2, advantage, variant, rest @ ..] = words.as_slice() else {
        return Err(usage(
            "say `deathmatch <player1> <player2> <advantage> <blockade|garden> [normal] [reserve]`",
        ));
    };
    let variant = VariantId::parse(variant).ok_or_else(|| usage(&format!("unknown variant \"{variant}\"")))?;
    let mut control = TimeControl::STANDARD;
    if let Some(normal) = rest.first() {
        control.normal_ms = duration(normal, "normal time")?;
    }
    if let Some(reserve) = rest.get(1) {
        control.reserve_ms = duration(reserve, "reserve")?;
    }
    let players = [local_user(player1), local_user(player2)];
    let computer = players.contains(&super::computer_user()).then(|| ComputerPlayer {
        user: super::computer_user(),
        level: Level::default(),
    });
    let request = MatchRequest {
        variant,
        players: players.clone(),
        advantage: local_user(advantage),
        control,
        location: here(),
        computer,
    };
    // Starting a match is open to anyone at the terminal, who then hosts it.
    arena
        .matches()
        .start(&Caller::host(user, Some(&server())), request)
        .await
}

async fn add_time(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let mut words = args.split_whitespace();
    let (Some(player), Some(time)) = (words.next(), words.next()) else {
        return Err(usage("say `addtime <player> <time>`, like `addtime alice 30s`"));
    };
    let (named, _) = game_argument(&words.collect::<Vec<_>>().join(" "))?;
    let id = match_here(arena, named, &format!("addtime {player} {time}")).await?;
    let ms = duration(time, "time")?;
    arena
        .matches()
        .add_time(id, &caller(user), &local_user(player), ms)
        .await
}

async fn adjudicate(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (word, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    let (named, _) = game_argument(rest)?;
    let id = match_here(arena, named, &format!("adjudicate {word}")).await?;
    match word {
        "" => Err(usage(
            "say `adjudicate <winner>`, `adjudicate draw` or `adjudicate abort`",
        )),
        "draw" => arena.matches().adjudicate(id, &caller(user), None, false).await,
        "abort" => arena.matches().adjudicate(id, &caller(user), None, true).await,
        winner => {
            arena
                .matches()
                .adjudicate(id, &caller(user), Some(&local_user(winner)), false)
                .await
        }
    }
}
