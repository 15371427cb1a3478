//! `/tournament`: Swiss tournaments run in a channel. Hosts (as for Death Matches) create, start,
//! pair, close rounds and adjudicate; players join and withdraw; anyone asks for the standings.
//! Each round's games get threads of their own (see `deliver`), linked from its announcement.

use super::run;
use crate::arena::{ArenaError, Ruling, TournamentRequest};
use crate::clock::parse_duration;
use crate::discord::{Context, Error};
use crate::ids::Place;
use crate::ids::{GameId, TournamentId};
use crate::tournament::{MOST_ROUNDS, parse_time, parse_variants};

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Verdict {
    #[name = "White wins (1-0)"]
    WhiteWins,
    #[name = "Black wins (0-1)"]
    BlackWins,
    #[name = "Draw"]
    Draw,
    #[name = "Abort (void: nobody scores)"]
    Abort,
}

#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "withdraw",
        "start",
        "pair",
        "close_round",
        "adjudicate",
        "standings",
        "show"
    ),
    subcommand_required
)]
pub async fn tournament(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The tournament a command means: the one named, or the one of this channel (or game thread).
async fn which(ctx: Context<'_>, here: &Place, named: Option<i64>) -> Result<TournamentId, ArenaError> {
    match named {
        Some(id) => Ok(TournamentId::new(id)),
        None => ctx.data().arena.tournaments().at(here).await,
    }
}

#[poise::command(slash_command, guild_only)]
pub async fn create(
    ctx: Context<'_>,
    #[max_length = 80] name: String,
    #[min = 1]
    #[max = 15]
    rounds: Option<u32>,
    #[max_length = 300] variants: Option<String>,
    #[max_length = 40] time: Option<String>,
    #[max_length = 120] bands: Option<String>,
    #[max_length = 40] start: Option<String>,
) -> Result<(), Error> {
    let data = ctx.data();
    // Each game of each round gets a thread in this channel.
    let allowed = super::check_bot_permissions(ctx, super::game_permissions(), "run a tournament");
    run(ctx, false, |caller| async move {
        allowed?;
        let rounds = rounds.map(|r| (r as usize).min(MOST_ROUNDS));
        let variants = parse_variants(variants.as_deref(), rounds).map_err(ArenaError::Rejected)?;
        let time = parse_time(time.as_deref(), bands.as_deref()).map_err(ArenaError::Rejected)?;
        let starts_at = match start {
            None => None,
            Some(text) => Some(
                data.arena.now()
                    + parse_duration(&text).ok_or_else(|| {
                        ArenaError::Rejected(format!("the start \"{text}\" is not a duration like 30m, 2h or 3d"))
                    })?,
            ),
        };
        let request = TournamentRequest {
            name,
            variants,
            time,
            starts_at,
            location: caller.here.clone(),
        };
        data.arena
            .tournaments()
            .create(&caller.with_host_status(data).await, request)
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn join(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    run(ctx, false, |caller| async move {
        let id = which(ctx, &caller.here, tournament).await?;
        ctx.data().arena.tournaments().join(id, &caller.player()).await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn withdraw(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    run(ctx, false, |caller| async move {
        let id = which(ctx, &caller.here, tournament).await?;
        ctx.data().arena.tournaments().withdraw(id, &caller.player()).await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn start(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    host_step(ctx, tournament, HostStep::Start).await
}

#[poise::command(slash_command, guild_only)]
pub async fn pair(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    host_step(ctx, tournament, HostStep::Pair).await
}

#[poise::command(slash_command, guild_only, rename = "close-round")]
pub async fn close_round(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    host_step(ctx, tournament, HostStep::CloseRound).await
}

/// The host's steps that move a tournament on; each its own command, all checked alike.
#[derive(Clone, Copy)]
enum HostStep {
    Start,
    Pair,
    CloseRound,
}

/// Runs a host's step on the tournament named (or this channel's), once the caller is known to
/// host there.
async fn host_step(ctx: Context<'_>, tournament: Option<i64>, step: HostStep) -> Result<(), Error> {
    run(ctx, false, |caller| async move {
        let id = which(ctx, &caller.here, tournament).await?;
        let host = caller.with_host_status(ctx.data()).await;
        let arena = &ctx.data().arena;
        match step {
            HostStep::Start => arena.tournaments().start(id, &host).await,
            HostStep::Pair => arena.tournaments().pair(id, &host).await,
            HostStep::CloseRound => arena.tournaments().close_round(id, &host).await,
        }
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn adjudicate(ctx: Context<'_>, game: i64, result: Verdict) -> Result<(), Error> {
    run(ctx, false, |caller| async move {
        let ruling = match result {
            Verdict::WhiteWins => Ruling::WhiteWins,
            Verdict::BlackWins => Ruling::BlackWins,
            Verdict::Draw => Ruling::Draw,
            Verdict::Abort => Ruling::Abort,
        };
        let host = caller.with_host_status(ctx.data()).await;
        ctx.data()
            .arena
            .tournaments()
            .adjudicate(GameId::new(game), &host, ruling)
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn standings(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    run(ctx, false, |caller| async move {
        let id = which(ctx, &caller.here, tournament).await?;
        ctx.data()
            .arena
            .tournaments()
            .standings(id, &caller.player(), &caller.here)
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn show(ctx: Context<'_>, tournament: Option<i64>) -> Result<(), Error> {
    run(ctx, true, |caller| async move {
        let id = which(ctx, &caller.here, tournament).await?;
        ctx.data().arena.tournaments().show(id, &caller.player()).await
    })
    .await
}
