//! A player's own commands: how they are reminded, and where they stand (ratings,
//! leaderboards).

use super::choices::GameChoice;
use super::commands::run;
use super::ids;
use super::{Context, Error};
use crate::store::Reminders;
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

/// How games waiting for you remind you (leave the option out to see the current setting).
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "How a game waiting for you reminds you"] reminders: Option<ReminderChoice>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena.reminders(&caller.user, reminders.map(Reminders::from)).await
    })
    .await
}

/// The best rated players of a game on this server.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(ctx: Context<'_>, #[description = "The game"] variant: GameChoice) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena.leaderboard(variant.0, caller.server.as_deref()).await
    })
    .await
}

/// A player's ratings, record and current games (yours if nobody is named).
#[poise::command(slash_command)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<discord::User>,
) -> Result<(), Error> {
    let data = ctx.data();
    if let Some(user) = &user {
        data.names.remember(user);
    }
    run(ctx, true, |caller| async move {
        let of = user.map_or(caller.user.clone(), |u| ids::user(u.id));
        data.arena.profile(&of).await
    })
    .await
}
