//! `/tournament create`: a Swiss tournament made in a channel by a host, from options Discord
//! reads its own way (a host's status on the server, the bot's permissions here). The group's
//! other subcommands (join, withdraw, start, pair, close-round, adjudicate, standings, show) are
//! the command layer's (`commands::tournaments`), added to the group when the bot starts. Each
//! round's games get threads of their own (see `deliver`), linked from its announcement.

use super::run;
use crate::arena::{ArenaError, TournamentRequest};
use crate::clock::parse_duration;
use crate::discord::{Context, Error};
use crate::tournament::{MOST_ROUNDS, parse_time, parse_variants};

#[poise::command(slash_command, guild_only, subcommands("create"), subcommand_required)]
pub async fn tournament(_: Context<'_>) -> Result<(), Error> {
    Ok(())
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
