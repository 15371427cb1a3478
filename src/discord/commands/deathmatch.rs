//! `/deathmatch`: hosting timed Death Matches, read into the command layer's
//! (`commands::matches`): here the subcommands that name members (start, addtime, adjudicate);
//! rated, pause, resume and abort are declared there and added to the group when the bot
//! starts. Hosts are members with the Manage Server permission or the server's
//! host role (see `hosts`); the arena decides every host action, for matches of the server it is
//! asked on only.

use super::run;
use crate::arena::ArenaError;
use crate::commands::matches::{self, NewMatch};
use crate::discord::choices::MatchGameChoice;
use crate::discord::ids;
use crate::discord::{Context, Error};
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
    subcommands("start", "addtime", "adjudicate"),
    subcommand_required
)]
pub async fn deathmatch(_: Context<'_>) -> Result<(), Error> {
    Ok(())
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
        // The bot itself may play (the computer, at its usual level); no other bot can.
        let other_bot = [&player1, &player2]
            .iter()
            .any(|player| player.bot && ids::user(player.id) != data.me);
        if other_bot {
            return Err(ArenaError::Rejected(
                "other bots cannot play; choose two people, or me to play the computer".into(),
            ));
        }
        let chosen = NewMatch {
            variant: game.0,
            players: [ids::user(player1.id), ids::user(player2.id)],
            advantage: ids::user(advantage.id),
            normal_time,
            reserve,
        };
        let host = caller.with_host_status(data).await;
        matches::start(caller.ask(&data.arena, &host), &data.me, chosen).await
    })
    .await
}

/// Answers a host's command on a match with the command layer's `request`, asked by the caller
/// with their host status on this server (`ask`).
macro_rules! as_host {
    ($ctx:expr, |$ask:ident| $request:expr) => {{
        let data = $ctx.data();
        run($ctx, false, |caller| async move {
            let host = caller.with_host_status(data).await;
            let $ask = caller.ask(&data.arena, &host);
            $request.await
        })
        .await
    }};
}

#[poise::command(slash_command, guild_only)]
pub async fn addtime(
    ctx: Context<'_>,
    player: discord::User,
    #[max_length = 40] time: String,
    game: Option<i64>,
) -> Result<(), Error> {
    let player = ids::user(player.id);
    as_host!(ctx, |ask| matches::add_time(ask, game.map(GameId::new), &player, &time))
}

#[poise::command(slash_command, guild_only)]
pub async fn adjudicate(
    ctx: Context<'_>,
    result: Ruling,
    winner: Option<discord::User>,
    game: Option<i64>,
) -> Result<(), Error> {
    let ruling = match (result, winner) {
        (Ruling::Win, Some(user)) => Ok(matches::Ruling::Win(ids::user(user.id))),
        (Ruling::Win, None) => Err(ArenaError::Rejected("name the winner".into())),
        (Ruling::Draw, _) => Ok(matches::Ruling::Draw),
    };
    as_host!(ctx, |ask| async {
        matches::adjudicate(ask, game.map(GameId::new), ruling?).await
    })
}
