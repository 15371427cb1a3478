//! The slash commands, by family: those the command layer answers (declared), starting games (challenge), looking
//! things up (info), records (export, import, replay, analyse), lists of pieces, a player's own settings, Death
//! Matches and tournaments. Each command reads its options and hands them to the command layer
//! (`crate::commands`), or names the game and asks the arena itself where nothing is shared, and
//! hands the outcome to `answer`. The words Discord shows are the catalog's ([`describe`]). Shared
//! here: who asked ([`Caller`]), running a request ([`run`]), picking the game a command means,
//! and the bot's permissions in the channel.

mod challenge;
mod deathmatch;
mod declared;
mod help;
mod info;
mod lists;
mod player;
mod records;
mod tournament;

pub use challenge::{challenge, practice};
pub use deathmatch::deathmatch;
pub use declared::add_to as add_declared;
pub use help::help;
pub use info::{games, piece, rules, watch};
pub use lists::{list, lists};
pub use player::settings;
pub use records::{analyse, export, import, replay};
pub use tournament::tournament;

use super::ids;
use super::respond::Responder;
use super::{Context, Data, Error, answer};
use crate::arena::{ArenaError, Effects};
use crate::commands::picking::{self, Fits};
use crate::commands::{Ask, catalog};
use crate::ids::{GameId, Place, ServerId, UserId};
use serenity::all as discord;
use std::future::Future;

/// Gives each command, subcommand and option the words of its one description
/// (`commands::catalog`), which Discord shows and `/help` reads.
pub(crate) fn describe(commands: &mut [poise::Command<Data, Error>]) {
    for command in commands {
        let group = command.name.to_string();
        describe_one(command, &group);
        for sub in &mut command.subcommands {
            let name = format!("{group} {}", sub.name);
            describe_one(sub, &name);
        }
    }
}

fn describe_one(command: &mut poise::Command<Data, Error>, name: &str) {
    let Some(described) = catalog::in_discord(name) else {
        return;
    };
    command.description = Some(described.summary.into());
    for parameter in &mut command.parameters {
        parameter.description = described.option(&parameter.name).map(Into::into);
    }
}

/// Who asked, and where.
pub(crate) struct Caller {
    pub user: UserId,
    pub here: Place,
    /// The server, unless asked in a DM.
    pub server: Option<ServerId>,
    author: discord::UserId,
    guild: Option<discord::GuildId>,
    /// The member who asked, as the interaction describes them (their permissions and roles).
    member: Option<discord::Member>,
}

impl Caller {
    pub fn of(ctx: Context<'_>) -> Caller {
        let member = match ctx {
            poise::Context::Application(app) => app.interaction.member.as_deref().cloned(),
            poise::Context::Prefix(_) => None,
        };
        Caller {
            user: ids::user(ctx.author().id),
            here: ids::location(ctx.channel_id()),
            server: ctx.guild_id().map(ids::server),
            author: ctx.author().id,
            guild: ctx.guild_id(),
            member,
        }
    }

    /// The caller as the arena knows them for a player's request: on this server, no host.
    pub fn player(&self) -> crate::arena::Caller {
        crate::arena::Caller::player(&self.user, self.server.as_ref())
    }

    /// Where they asked, for picking the game a command means: `player` is how the arena knows
    /// them.
    pub fn asked<'a>(&'a self, player: &'a crate::arena::Caller) -> picking::Asked<'a> {
        picking::Asked {
            caller: player,
            here: Some(&self.here),
            naming: picking::Naming::GameOption,
        }
    }

    /// The command being answered, for the command layer: `player` is how the arena knows the
    /// caller; a game they start is played here.
    pub fn ask<'a>(&'a self, arena: &'a crate::arena::Arena, player: &'a crate::arena::Caller) -> Ask<'a> {
        Ask {
            arena,
            asked: self.asked(player),
            place: &self.here,
        }
    }

    /// The caller as the arena knows them for a host's request: a host of this server if its
    /// settings make them one.
    pub async fn with_host_status(&self, data: &Data) -> crate::arena::Caller {
        super::hosts::caller(data, self.author, self.guild, self.member.as_ref()).await
    }
}

/// Runs one request for a command: the caller is remembered, the request answered in time, the
/// outcome delivered. `is_private` commands answer only the caller.
pub(super) async fn run<F, Fut>(ctx: Context<'_>, is_private: bool, request: F) -> Result<(), Error>
where
    F: FnOnce(Caller) -> Fut,
    Fut: Future<Output = Result<Effects, ArenaError>>,
{
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let data = ctx.data();
    data.names.remember(ctx.author());
    let caller = Caller::of(ctx);
    let here = caller.here.clone();
    let http = &ctx.serenity_context().http;
    let mut responder = Responder::for_command(http, app.interaction, is_private);
    let result = request(caller).await;
    answer(http, data, result, &here, &mut responder).await;
    Ok(())
}

/// Refuses to start something in a channel where the bot could not carry it on: `needed` are the
/// permissions it needs there (from the interaction's `app_permissions`, which Discord sends with
/// every interaction). In a thread, posting is the thread's permission rather than the channel's.
pub(super) fn check_bot_permissions(
    ctx: Context<'_>,
    needed: discord::Permissions,
    what: &str,
) -> Result<(), ArenaError> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let Some(granted) = app.interaction.app_permissions else {
        return Ok(());
    };
    let in_thread = app.interaction.channel.as_ref().is_some_and(|channel| {
        matches!(
            channel.kind,
            discord::ChannelType::PublicThread | discord::ChannelType::PrivateThread | discord::ChannelType::NewsThread
        )
    });
    let mut needed = needed | discord::Permissions::VIEW_CHANNEL;
    if in_thread {
        needed.remove(discord::Permissions::SEND_MESSAGES);
        needed |= discord::Permissions::SEND_MESSAGES_IN_THREADS;
    }
    let lacking = needed - granted;
    if lacking.is_empty() {
        return Ok(());
    }
    Err(ArenaError::Rejected(format!(
        "I cannot {what} here: this channel does not allow me to {}. Ask a moderator to give me {} here, \
         or use another channel",
        lacking.get_permission_names().join(", ").to_lowercase(),
        if lacking.iter().count() == 1 {
            "that permission"
        } else {
            "those permissions"
        }
    )))
}

/// What a game needs from its channel: its posts (text and board images) and a thread of its own.
pub(super) fn game_permissions() -> discord::Permissions {
    discord::Permissions::SEND_MESSAGES
        | discord::Permissions::ATTACH_FILES
        | discord::Permissions::CREATE_PUBLIC_THREADS
        | discord::Permissions::SEND_MESSAGES_IN_THREADS
}

/// The game a command means (see [`picking::pick`]): the one named with the `game` option, the
/// game of this thread, or the caller's only game that `fits`.
pub(super) async fn pick_game(
    data: &Data,
    caller: &Caller,
    named: Option<i64>,
    fits: Fits,
) -> Result<GameId, ArenaError> {
    picking::pick(
        &data.arena,
        caller.asked(&caller.player()),
        named.map(GameId::new),
        fits,
    )
    .await
}
