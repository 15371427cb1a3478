//! Game records: a game exported as PGN (only what the caller may see), and a record imported to
//! play on or to study.

use super::{Caller, check_bot_permissions, game_permissions, pick_game, run};
use crate::arena::ArenaError;
use crate::commands::picking::Fits;
use crate::discord::ids;
use crate::discord::respond::{Outgoing, Responder};
use crate::discord::{Context, Error, answer};
use serenity::all as discord;

#[poise::command(slash_command)]
pub async fn export(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let caller = Caller::of(ctx);
    let mut responder = Responder::for_command(http, app.interaction, true);
    let work = async {
        let id = pick_game(data, &caller, game, Fits::Any).await?;
        // The record names the players as Discord shows them: asked of Discord only once the
        // arena has said the caller may see the game, so a refusal costs no request and tells
        // nobody whose game it is.
        let game = data.arena.facts_for(id, &caller.player()).await?;
        let mut names = std::collections::HashMap::new();
        for player in [&game.challenger, &game.opponent] {
            if let Some(user) = ids::discord_user(player) {
                names.insert(player.clone(), data.names.name_of(http, user).await);
            }
        }
        Ok::<_, ArenaError>((id, data.arena.records().export(id, &caller.player(), &names).await?))
    };
    match work.await {
        Ok((id, effects)) => {
            let record = effects.reply.map(|r| r.text).unwrap_or_default();
            let message = Outgoing {
                content: format!(
                    "Game #{id} as PGN: chess tools such as Lichess read chess records; `/import` reads any of them back."
                ),
                files: vec![
                    discord::CreateAttachment::bytes(record.into_bytes(), format!("arbiter-game-{id}.pgn"))
                        .description(format!("Game record (PGN) of game #{id}")),
                ],
                ..Outgoing::default()
            };
            responder.send_private(message).await?;
        }
        Err(error) => answer(http, data, Err(error), &caller.here, &mut responder).await,
    }
    Ok(())
}

#[poise::command(slash_command)]
pub async fn replay(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    let allowed = check_bot_permissions(ctx, discord::Permissions::ATTACH_FILES, "post a replay");
    run(ctx, false, |caller| async move {
        allowed?;
        let id = pick_game(data, &caller, game, Fits::Any).await?;
        data.arena.records().replay(id, &caller.player()).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn analyse(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    let allowed = check_bot_permissions(ctx, discord::Permissions::ATTACH_FILES, "post an analysis");
    run(ctx, false, |caller| async move {
        allowed?;
        let id = pick_game(data, &caller, game, Fits::Any).await?;
        data.arena.records().analyse(id, &caller.player()).await
    })
    .await
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Side {
    #[name = "White (or the side that moves first)"]
    White,
    #[name = "Black (or the side that moves second)"]
    Black,
}

#[poise::command(slash_command, guild_only)]
pub async fn import(
    ctx: Context<'_>,
    file: discord::Attachment,
    side: Side,
    opponent: Option<discord::User>,
) -> Result<(), Error> {
    let data = ctx.data();
    if let Some(opponent) = &opponent {
        data.names.remember(opponent);
    }
    let allowed = check_bot_permissions(ctx, game_permissions(), "start a game");
    run(ctx, false, |caller| async move {
        allowed?;
        if opponent.as_ref().is_some_and(|o| o.bot) {
            return Err(ArenaError::Rejected(
                "bots cannot play an imported game, nor can I; name a person, or play me from its position with \
                 /practice and its FEN"
                    .into(),
            ));
        }
        let text = data
            .attachments
            .text_file(
                &file,
                crate::arena::MAX_RECORD_BYTES,
                "a game record is a .pgn text file",
            )
            .await?;
        let request = crate::arena::ImportRequest {
            side: match side {
                Side::White => arbiter_engine::Seat::First,
                Side::Black => arbiter_engine::Seat::Second,
            },
            opponent: opponent.map(|o| ids::user(o.id)),
            location: caller.here.clone(),
        };
        data.arena.records().import(&caller.player(), request, &text).await
    })
    .await
}
