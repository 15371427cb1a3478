//! `/deathmatch`: hosting timed Death Matches. Hosts are members with the Manage Server
//! permission or the server's host role (see `hosts`); the arena decides every host action,
//! for matches of the server it is asked on only.

use super::run;
use crate::arena::{ArenaError, MatchRequest};
use crate::clock::{TimeControl, parse_duration};
use crate::discord::choices::MatchGameChoice;
use crate::discord::ids;
use crate::discord::{Context, Data, Error};
use crate::ids::GameId;
use serenity::all as discord;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Ruling {
    #[name = "Win for the player named"]
    Win,
    #[name = "Draw"]
    Draw,
}

#[poise::command(
    slash_command,
    guild_only,
    subcommands("start", "rated", "pause", "resume", "addtime", "abort", "adjudicate"),
    subcommand_required
)]
pub async fn deathmatch(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

fn duration_option(text: Option<String>, default: i64, what: &str) -> Result<i64, ArenaError> {
    match text {
        None => Ok(default),
        Some(text) => parse_duration(&text).ok_or_else(|| {
            ArenaError::Rejected(format!(
                "the {what} \"{text}\" is not a duration like 60s, 5m, 24h or 3d"
            ))
        }),
    }
}

#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    game: MatchGameChoice,
    player1: discord::User,
    player2: discord::User,
    advantage: discord::User,
    #[max_length = 40] normal_time: Option<String>,
    #[max_length = 40] reserve: Option<String>,
) -> Result<(), Error> {
    let data = ctx.data();
    for user in [&player1, &player2, &advantage] {
        data.names.remember(user);
    }
    // A match is played in its channel, with board images and the clocks' announcements.
    let needed = serenity::all::Permissions::SEND_MESSAGES | serenity::all::Permissions::ATTACH_FILES;
    let allowed = super::check_bot_permissions(ctx, needed, "run a Death Match");
    run(ctx, false, |caller| async move {
        allowed?;
        let players = [ids::user(player1.id), ids::user(player2.id)];
        // The bot itself may play (the computer, at its usual level); no other bot can.
        let other_bot = [&player1, &player2]
            .iter()
            .any(|player| player.bot && ids::user(player.id) != data.me);
        if other_bot {
            return Err(ArenaError::Rejected(
                "other bots cannot play; choose two people, or me to play the computer".into(),
            ));
        }
        let computer = players.contains(&data.me).then(|| crate::model::ComputerPlayer {
            user: data.me.clone(),
            level: arbiter_engine::ai::Level::default(),
        });
        let control = TimeControl {
            normal_ms: duration_option(normal_time, TimeControl::STANDARD.normal_ms, "normal time")?,
            reserve_ms: duration_option(reserve, TimeControl::STANDARD.reserve_ms, "reserve")?,
        };
        let request = MatchRequest {
            variant: game.0,
            players,
            advantage: ids::user(advantage.id),
            control,
            location: caller.here.clone(),
            computer,
        };
        data.arena
            .matches()
            .start(&caller.with_host_status(data).await, request)
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn rated(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = match_here(data, &caller, game).await?;
        data.arena.matches().accept_rating(id, &caller.player()).await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn pause(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    pause_or_resume(ctx, game, true).await
}

#[poise::command(slash_command, guild_only)]
pub async fn resume(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    pause_or_resume(ctx, game, false).await
}

async fn pause_or_resume(ctx: Context<'_>, game: Option<i64>, pause: bool) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = match_here(data, &caller, game).await?;
        data.arena
            .matches()
            .pause(id, &caller.with_host_status(data).await, pause)
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn addtime(
    ctx: Context<'_>,
    player: discord::User,
    #[max_length = 40] time: String,
    game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = match_here(data, &caller, game).await?;
        let ms = duration_option(Some(time), 0, "time")?;
        let host = caller.with_host_status(data).await;
        data.arena
            .matches()
            .add_time(id, &host, &ids::user(player.id), ms)
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn abort(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = match_here(data, &caller, game).await?;
        let host = caller.with_host_status(data).await;
        data.arena.matches().adjudicate(id, &host, None, true).await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn adjudicate(
    ctx: Context<'_>,
    result: Ruling,
    winner: Option<discord::User>,
    game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = match_here(data, &caller, game).await?;
        let winner = match (result, winner) {
            (Ruling::Win, Some(user)) => Some(ids::user(user.id)),
            (Ruling::Win, None) => return Err(ArenaError::Rejected("name the winner".into())),
            (Ruling::Draw, _) => None,
        };
        let host = caller.with_host_status(data).await;
        data.arena.matches().adjudicate(id, &host, winner.as_ref(), false).await
    })
    .await
}

/// The match a host command means: the one named, or the one being played here. A number names
/// a game of this server only: another server's match gets the answer a number that exists
/// nowhere gets, as a game not here, before anything of it is said. Whether the caller may run
/// it is the arena's to say.
async fn match_here(data: &Data, caller: &super::Caller, named: Option<i64>) -> Result<GameId, ArenaError> {
    match named {
        Some(id) => {
            let id = GameId::new(id);
            data.arena.require_game_on_server(id, &caller.player()).await?;
            Ok(id)
        }
        None => data.arena.game_at(&caller.here).await?.ok_or_else(|| {
            ArenaError::Rejected("there is no single match here: name it with the `game` option".into())
        }),
    }
}
