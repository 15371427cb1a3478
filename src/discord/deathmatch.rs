//! `/deathmatch`: hosting timed Death Matches. Hosts are members with the Manage Server
//! permission or the configured host role; the arena re-checks every host action.

use super::choices::MatchGameChoice;
use super::commands::run;
use super::ids;
use super::{Context, Data, Error};
use crate::arena::{ArenaError, Authority, MatchRequest};
use crate::clock::{TimeControl, parse_duration};
use serenity::all as discord;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Ruling {
    #[name = "Win for the player named"]
    Win,
    #[name = "Draw"]
    Draw,
}

/// Whether a member may act as a host: the Manage Server permission or the host role.
pub fn authority_of(member: Option<&discord::Member>, host_role: Option<u64>) -> Authority {
    let Some(member) = member else {
        return Authority::Player;
    };
    let manages = member.permissions.is_some_and(|p| p.manage_guild());
    let has_role = host_role.is_some_and(|role| member.roles.iter().any(|r| r.get() == role));
    if manages || has_role {
        Authority::Host
    } else {
        Authority::Player
    }
}

/// The authority the member behind a command has.
pub(super) fn authority(ctx: Context<'_>) -> Authority {
    match ctx {
        poise::Context::Application(app) => authority_of(app.interaction.member.as_deref(), ctx.data().host_role),
        poise::Context::Prefix(_) => Authority::Player,
    }
}

/// Host a timed Death Match (Blockade Chess or Garden of Statues).
#[poise::command(
    slash_command,
    guild_only,
    subcommands("start", "pause", "resume", "addtime", "abort", "adjudicate"),
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

/// Start a match: the player with the Advantage chooses colours.
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "The game"] game: MatchGameChoice,
    #[description = "One player"] player1: discord::User,
    #[description = "The other player"] player2: discord::User,
    #[description = "The player holding the Advantage (chooses colours)"] advantage: discord::User,
    #[description = "Normal time per turn, e.g. 60s or 24h (default 60s)"]
    #[max_length = 40]
    normal_time: Option<String>,
    #[description = "Each player's reserve, e.g. 5m or 72h (default 5m)"]
    #[max_length = 40]
    reserve: Option<String>,
) -> Result<(), Error> {
    let data = ctx.data();
    for user in [&player1, &player2, &advantage] {
        data.names.remember(user);
    }
    let authority = authority(ctx);
    // A match is played in its channel, with board images and the clocks' announcements.
    let needed = serenity::all::Permissions::SEND_MESSAGES | serenity::all::Permissions::ATTACH_FILES;
    let allowed = super::commands::check_bot_permissions(ctx, needed, "run a Death Match");
    run(ctx, false, |caller| async move {
        allowed?;
        if player1.bot || player2.bot {
            return Err(ArenaError::Rejected("bots cannot play; choose two people".into()));
        }
        let control = TimeControl {
            normal_ms: duration_option(normal_time, TimeControl::STANDARD.normal_ms, "normal time")?,
            reserve_ms: duration_option(reserve, TimeControl::STANDARD.reserve_ms, "reserve")?,
        };
        let request = MatchRequest {
            variant: game.0,
            players: [ids::user(player1.id), ids::user(player2.id)],
            advantage: ids::user(advantage.id),
            control,
            location: caller.here.clone(),
            server: caller.server.clone(),
        };
        data.arena.start_match(&caller.user, authority, request).await
    })
    .await
}

/// Freeze both clocks.
#[poise::command(slash_command, guild_only)]
pub async fn pause(
    ctx: Context<'_>,
    #[description = "Match number (default: the match in this channel)"] game: Option<i64>,
) -> Result<(), Error> {
    pause_or_resume(ctx, game, true).await
}

/// Unfreeze the clocks; the turn goes on where it stopped.
#[poise::command(slash_command, guild_only)]
pub async fn resume(
    ctx: Context<'_>,
    #[description = "Match number (default: the match in this channel)"] game: Option<i64>,
) -> Result<(), Error> {
    pause_or_resume(ctx, game, false).await
}

async fn pause_or_resume(ctx: Context<'_>, game: Option<i64>, pause: bool) -> Result<(), Error> {
    let data = ctx.data();
    let authority = authority(ctx);
    run(ctx, false, |caller| async move {
        let (id, authority) = match_here(data, &caller.here, game, authority).await?;
        data.arena.pause_match(id, &caller.user, authority, pause).await
    })
    .await
}

/// Give a player more reserve.
#[poise::command(slash_command, guild_only)]
pub async fn addtime(
    ctx: Context<'_>,
    #[description = "The player"] player: discord::User,
    #[description = "How much, e.g. 30s, 2m, 1h"]
    #[max_length = 40]
    time: String,
    #[description = "Match number (default: the match in this channel)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    let authority = authority(ctx);
    run(ctx, false, |caller| async move {
        let (id, authority) = match_here(data, &caller.here, game, authority).await?;
        let ms = duration_option(Some(time), 0, "time")?;
        data.arena
            .add_time(id, &caller.user, authority, &ids::user(player.id), ms)
            .await
    })
    .await
}

/// Call the match off, with no result.
#[poise::command(slash_command, guild_only)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Match number (default: the match in this channel)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    let authority = authority(ctx);
    run(ctx, false, |caller| async move {
        let (id, authority) = match_here(data, &caller.here, game, authority).await?;
        data.arena.adjudicate(id, &caller.user, authority, None, true).await
    })
    .await
}

/// Decide the result of the match.
#[poise::command(slash_command, guild_only)]
pub async fn adjudicate(
    ctx: Context<'_>,
    #[description = "A win or a draw"] result: Ruling,
    #[description = "The winner (for a win)"] winner: Option<discord::User>,
    #[description = "Match number (default: the match in this channel)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    let authority = authority(ctx);
    run(ctx, false, |caller| async move {
        let (id, authority) = match_here(data, &caller.here, game, authority).await?;
        let winner = match (result, winner) {
            (Ruling::Win, Some(user)) => Some(ids::user(user.id)),
            (Ruling::Win, None) => return Err(ArenaError::Rejected("name the winner".into())),
            (Ruling::Draw, _) => None,
        };
        data.arena
            .adjudicate(id, &caller.user, authority, winner.as_ref(), false)
            .await
    })
    .await
}

/// The match a host command means (the one named, or the one being played here), and the
/// authority the caller has over it: a server's hosts are hosts only for matches played in that
/// channel, never for a match named from elsewhere (another server's, say); the match's own host
/// keeps their rights everywhere (the arena checks that).
async fn match_here(
    data: &Data,
    here: &str,
    named: Option<i64>,
    authority: Authority,
) -> Result<(i64, Authority), ArenaError> {
    let id = match named {
        Some(id) => id,
        None => data.arena.game_at(here).await?.ok_or_else(|| {
            ArenaError::Rejected("there is no single match here: name it with the `game` option".into())
        })?,
    };
    let game = data.arena.store().game(id).await?.ok_or(ArenaError::UnknownGame(id))?;
    let authority = if game.location == here {
        authority
    } else {
        Authority::Player
    };
    Ok((id, authority))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(json: serde_json::Value) -> discord::Member {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn hosts_are_members_who_manage_the_server_or_hold_the_host_role() {
        let base = serde_json::json!({
            "user": { "id": "5", "username": "h", "discriminator": "0", "avatar": null },
            "roles": ["77"], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": false, "mute": false,
            "flags": 0, "guild_id": "1", "permissions": "0"
        });
        assert_eq!(authority_of(Some(&member(base.clone())), None), Authority::Player);
        assert_eq!(authority_of(Some(&member(base.clone())), Some(77)), Authority::Host);
        assert_eq!(authority_of(Some(&member(base.clone())), Some(78)), Authority::Player);
        let mut manager = base;
        manager["permissions"] = serde_json::json!("32");
        assert_eq!(authority_of(Some(&member(manager)), None), Authority::Host);
        assert_eq!(authority_of(None, Some(77)), Authority::Player);
    }
}
