//! `/settings host-role`: the role whose members host on a server, chosen by those who manage
//! it (a Discord role, and a member's permissions). A player's own settings, ratings and
//! leaderboards are the command layer's (`commands::players`); `/settings reminders` is added to
//! the group when the bot starts.

use super::run;
use crate::arena::{ArenaError, Effects};
use crate::discord::{Context, Error};
use serenity::all as discord;

#[poise::command(slash_command, subcommands("host_role"), subcommand_required)]
pub async fn settings(_: Context<'_>) -> Result<(), Error> {
    Ok(())
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
