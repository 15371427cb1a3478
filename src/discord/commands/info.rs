//! Looking things up: the caller's games, a game's rules, a piece's card, and a game's live
//! page.

use super::{Caller, pick_game, run};
use crate::arena::{ArenaError, Effects};
use crate::commands::picking::Fits;
use crate::discord::autocomplete::best_matches;
use crate::discord::choices::GameChoice;
use crate::discord::ids;
use crate::discord::respond::{Outgoing, Responder};
use crate::discord::{Context, Error, answer};
use serenity::all as discord;

#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let games = data.arena.games(&caller.user).await?;
        if games.is_empty() {
            return Ok(Effects::reply("You have no open games. Start one with /challenge."));
        }
        let lines: Vec<String> = games
            .iter()
            .map(|g| {
                let state = if Fits::WaitingForYou.admits(g) {
                    format!("**{}**", g.state_text())
                } else {
                    g.state_text().to_string()
                };
                let place = ids::channel(&g.location).map_or_else(String::new, |c| format!(" in <#{c}>"));
                let control = g.control.map_or(String::new(), |c| format!(" ({})", c.describe()));
                let clock = g
                    .flag_at
                    .map_or(String::new(), |at| format!(" · time runs out <t:{}:R>", at / 1000));
                format!(
                    "#{} {}{control} vs {}{place}: {state} since <t:{}:R>{clock}",
                    g.id,
                    g.variant.name(),
                    ids::mention(&g.opponent),
                    g.since / 1000
                )
            })
            .collect();
        Ok(Effects::reply(lines.join("\n")))
    })
    .await
}

#[poise::command(slash_command)]
pub async fn rules(ctx: Context<'_>, variant: Option<GameChoice>, game: Option<i64>) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let http = &ctx.serenity_context().http;
    let data = ctx.data();
    let mut responder = Responder::for_command(http, app.interaction, true);
    let variant = match variant.filter(|_| game.is_none()) {
        Some(variant) => variant,
        None => {
            // A game's rules: its variant's page, or where the players brought their own pieces,
            // those pieces with their sheet. Even its variant is named only to those who may
            // see the game from here.
            let caller = Caller::of(ctx);
            let found = match pick_game(data, &caller, game, Fits::Any).await {
                Ok(id) => data.arena.facts_for(id, &caller.player()).await,
                Err(error) => Err(error),
            };
            match found {
                Ok(game) if !game.brings_own_pieces => GameChoice(game.variant),
                other => {
                    let result = match other {
                        Ok(game) => data.arena.game_rules(game.id, &caller.player(), false).await,
                        Err(error) => Err(error),
                    };
                    answer(http, data, result, &caller.here, &mut responder).await;
                    return Ok(());
                }
            }
        }
    };
    let page = variant.0.rules_page();
    // The page's own title becomes the embed's.
    let body = page.split_once('\n').map_or(page, |(_, rest)| rest).trim();
    let embed = discord::CreateEmbed::new()
        .title(variant.0.name())
        .description(truncate_embed(body));
    let message = Outgoing {
        embeds: vec![embed],
        ..Outgoing::default()
    };
    responder.send_private(message).await?;
    Ok(())
}

#[poise::command(slash_command)]
pub async fn piece(
    ctx: Context<'_>,
    #[autocomplete = "suggest_pieces"]
    #[max_length = 60]
    name: String,
) -> Result<(), Error> {
    run(ctx, true, |_| async move { crate::arena::piece_card(&name) }).await
}

/// Catalogue pieces whose name or symbol matches what was typed; each value is the piece's id,
/// so a name several games share still finds the one chosen.
async fn suggest_pieces(_ctx: Context<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let pieces = arbiter_engine::catalogue::all();
    let labels: Vec<String> = pieces.iter().map(piece_label).collect();
    let choices = best_matches(&labels, typed)
        .into_iter()
        .filter_map(|label| {
            let piece = pieces.iter().find(|p| piece_label(p) == label)?;
            Some(discord::AutocompleteChoice::new(label, piece.id.clone()))
        })
        .collect();
    discord::CreateAutocompleteResponse::new().set_choices(choices)
}

/// "CN · Chinese nightrider (Pick-the-team)": how a piece is offered as you type.
fn piece_label(piece: &arbiter_engine::piece::PieceDef) -> String {
    let section = arbiter_engine::catalogue::section_of(&piece.id).unwrap_or_default();
    format!("{} · {} ({section})", piece.symbol, piece.name)
}

/// An embed's description holds at most 4096 characters.
fn truncate_embed(text: &str) -> String {
    const LIMIT: usize = 4096;
    if text.chars().count() <= LIMIT {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(LIMIT - 1).collect();
    cut.push('…');
    cut
}

#[poise::command(slash_command)]
pub async fn watch(ctx: Context<'_>, game: Option<i64>, reset: Option<bool>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let Some(web) = &data.web else {
            return Err(ArenaError::Rejected(
                "this bot does not serve live pages: its operator turns them on with ARBITER_WEB_ADDR".into(),
            ));
        };
        let id = pick_game(data, &caller, game, Fits::Any).await?;
        // A host may watch any match of their server from anywhere.
        data.arena
            .watching()
            .token_for(id, &caller.with_host_status(data).await)
            .await?;
        let lines = web
            .link_lines(id)
            .await
            .ok_or_else(|| ArenaError::Rejected(format!("the links of game #{id} could not be made just now")))?;
        // The answer is the asker's alone: their own page and panel go in it.
        let own = web.private_lines(id, &caller.user, reset.unwrap_or(false)).await;
        let own = own.map_or_else(String::new, |own| format!("\n{own}"));
        Ok(Effects::reply(format!(
            "Game #{id}: spectators see what you see here, secrets only once revealed.\n{lines}{own}"
        )))
    })
    .await
}
