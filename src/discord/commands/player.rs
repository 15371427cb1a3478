//! A player's own commands: how they are reminded, and where they stand (ratings,
//! leaderboards).

use super::run;
use crate::arena::{ArenaError, Effects};
use crate::discord::choices::GameChoice;
use crate::discord::ids;
use crate::discord::{Context, Error};
use crate::model::Reminders;
use serenity::all as discord;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum ReminderChoice {
    #[name = "A ping in the game's thread"]
    Thread,
    #[name = "A direct message"]
    Dm,
    #[name = "No reminders"]
    Off,
}

impl From<ReminderChoice> for Reminders {
    fn from(choice: ReminderChoice) -> Reminders {
        match choice {
            ReminderChoice::Thread => Reminders::Thread,
            ReminderChoice::Dm => Reminders::Dm,
            ReminderChoice::Off => Reminders::Off,
        }
    }
}

#[poise::command(slash_command, subcommands("reminders", "host_role"), subcommand_required)]
pub async fn settings(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

#[poise::command(slash_command)]
pub async fn reminders(ctx: Context<'_>, how: Option<ReminderChoice>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena
            .players()
            .reminders(&caller.user, how.map(Reminders::from))
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only, rename = "host-role")]
pub async fn host_role(ctx: Context<'_>, role: Option<discord::Role>, clear: Option<bool>) -> Result<(), Error> {
    let data = ctx.data();
    let member = match ctx {
        poise::Context::Application(app) => app.interaction.member.as_deref().cloned(),
        poise::Context::Prefix(_) => None,
    };
    let guild = ctx.guild_id();
    run(ctx, true, |caller| async move {
        let (Some(guild), Some(server)) = (guild, caller.server.clone()) else {
            return Err(ArenaError::Rejected("use this on a server".into()));
        };
        let current = crate::discord::hosts::host_role(data, guild).await;
        let shown = |role: Option<u64>| role.map_or_else(|| "no host role".to_string(), |r| format!("<@&{r}>"));
        if role.is_none() && clear != Some(true) {
            return Ok(Effects::reply(format!(
                "On this server, members who can manage it host, and so do members with {}.",
                shown(current)
            )));
        }
        // Only those who run the server choose who hosts on it.
        if !crate::discord::hosts::manages_server(member.as_ref()) {
            return Err(ArenaError::Rejected(
                "only members with the Manage Server permission choose this server's host role".into(),
            ));
        }
        let chosen = if clear == Some(true) {
            None
        } else {
            role.map(|r| r.id.get())
        };
        data.arena
            .players()
            .set_host_role(&server, chosen.map(|r| r.to_string()), &shown(chosen))
            .await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(ctx: Context<'_>, variant: GameChoice) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena
            .players()
            .leaderboard(variant.0, caller.server.as_ref())
            .await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn profile(ctx: Context<'_>, user: Option<discord::User>) -> Result<(), Error> {
    let data = ctx.data();
    if let Some(user) = &user {
        data.names.remember(user);
    }
    run(ctx, true, |caller| async move {
        let of = user.map_or(caller.user.clone(), |u| ids::user(u.id));
        data.arena.players().profile(caller.server.as_ref(), &of).await
    })
    .await
}
