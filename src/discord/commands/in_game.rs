//! Playing a game: moves (suggested as you type, from the caller's own options only), the board
//! and the moves so far as the caller may see them, and the commands that end or pause the play:
//! resign, draw and takeback offers, abort, and claiming a game left untouched.

use super::{Caller, pick_game, run};
use crate::arena::{Arena, ArenaError, Effects, OfferResponse};
use crate::commands::picking::{self, Fits};
use crate::discord::autocomplete::best_matches;
use crate::discord::{Context, Error};
use crate::ids::{GameId, UserId};
use serenity::all as discord;
use std::future::Future;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Answer {
    #[name = "Offer"]
    Offer,
    #[name = "Accept"]
    Accept,
    #[name = "Decline"]
    Decline,
}

impl From<Answer> for OfferResponse {
    fn from(answer: Answer) -> OfferResponse {
        match answer {
            Answer::Offer => OfferResponse::Offer,
            Answer::Accept => OfferResponse::Accept,
            Answer::Decline => OfferResponse::Decline,
        }
    }
}

#[poise::command(slash_command, rename = "move")]
pub async fn play(
    ctx: Context<'_>,
    #[autocomplete = "suggest_actions"]
    #[max_length = 300]
    action: String,
    game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let player = caller.player();
        let id = picking::pick_to_act(&data.arena, caller.asked(&player), game.map(GameId::new)).await?;
        data.arena.play().act(id, &caller.user, action.trim()).await
    })
    .await
}

/// The caller's legal actions that match what they typed: only their own options, which reveal
/// nothing they do not already know.
async fn suggest_actions(ctx: Context<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let none = discord::CreateAutocompleteResponse::new();
    let poise::Context::Application(app) = ctx else {
        return none;
    };
    let named = app
        .interaction
        .data
        .options
        .iter()
        .find_map(|option| match (&*option.name, &option.value) {
            ("game", discord::CommandDataOptionValue::Integer(id)) => Some(*id),
            _ => None,
        });
    let data = ctx.data();
    let caller = Caller::of(ctx);
    let Ok(id) = pick_game(data, &caller, named, Fits::WaitingForYou).await else {
        return none;
    };
    let Ok(mut actions) = data.arena.play().legal_actions(id, &caller.user).await else {
        return none;
    };
    // A list of pieces is written with /list or its form, never picked from suggestions.
    actions.retain(|action| action.chars().count() <= crate::discord::autocomplete::CHOICE_TEXT_LIMIT);
    let choices = best_matches(&actions, typed)
        .into_iter()
        .map(|action| discord::AutocompleteChoice::new(action.clone(), action))
        .collect();
    none.set_choices(choices)
}

#[poise::command(slash_command)]
pub async fn board(ctx: Context<'_>, game: Option<i64>, words: Option<bool>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let id = pick_game(data, &caller, game, Fits::Any).await?;
        data.arena.show_as(id, &caller.player(), words.unwrap_or(false)).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn moves(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let id = pick_game(data, &caller, game, Fits::Any).await?;
        let mut shown = data.arena.show(id, &caller.player()).await?;
        if let Some(reply) = shown.reply.as_mut() {
            reply.board = None;
        }
        Ok(shown)
    })
    .await
}

/// The commands that act on one of the caller's games in play (resign, draw, takeback, abort,
/// claim): the game named or meant, then the arena's `request` for it.
async fn on_game_in_play<Fut>(
    ctx: Context<'_>,
    game: Option<i64>,
    request: impl FnOnce(Arena, GameId, UserId) -> Fut,
) -> Result<(), Error>
where
    Fut: Future<Output = Result<Effects, ArenaError>>,
{
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, Fits::InProgress).await?;
        request(data.arena.clone(), id, caller.user).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play(ctx, game, |arena, id, user| async move {
        arena.play().resign(id, &user).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn draw(ctx: Context<'_>, answer: Answer, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play(ctx, game, |arena, id, user| async move {
        arena.play().draw(id, &user, answer.into()).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn takeback(ctx: Context<'_>, answer: Answer, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play(ctx, game, |arena, id, user| async move {
        arena.play().takeback(id, &user, answer.into()).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn abort(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play(ctx, game, |arena, id, user| async move {
        arena.play().abort(id, &user).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn claim(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play(ctx, game, |arena, id, user| async move {
        arena.play().claim_abandoned(id, &user).await
    })
    .await
}
