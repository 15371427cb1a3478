//! Playing a game: moves (suggested as you type, from the caller's own options only), the board
//! and the moves so far as the caller may see them, and the commands that end or pause the play:
//! resign, draw and takeback offers, abort, and claiming a game left untouched.

use super::{Caller, pick_game, run};
use crate::arena::OfferResponse;
use crate::commands::picking::Fits;
use crate::commands::play;
use crate::discord::autocomplete::best_matches;
use crate::discord::{Context, Error};
use crate::ids::GameId;
use serenity::all as discord;

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
        play::act(caller.ask(&data.arena, &player), game.map(GameId::new), &action).await
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
        let player = caller.player();
        let ask = caller.ask(&data.arena, &player);
        play::board(ask, game.map(GameId::new), words.unwrap_or(false), false).await
    })
    .await
}

#[poise::command(slash_command)]
pub async fn moves(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let player = caller.player();
        play::board(caller.ask(&data.arena, &player), game.map(GameId::new), false, true).await
    })
    .await
}

/// Answers a command on one of the caller's games in play (resign, draw, takeback, abort,
/// claim) with the command layer's `request`, asked for the caller (`ask`).
macro_rules! on_game_in_play {
    ($ctx:expr, |$ask:ident| $request:expr) => {{
        let data = $ctx.data();
        run($ctx, false, |caller| async move {
            let player = caller.player();
            let $ask = caller.ask(&data.arena, &player);
            $request.await
        })
        .await
    }};
}

#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play!(ctx, |ask| play::resign(ask, game.map(GameId::new)))
}

#[poise::command(slash_command)]
pub async fn draw(ctx: Context<'_>, answer: Answer, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play!(ctx, |ask| play::draw(ask, game.map(GameId::new), answer.into()))
}

#[poise::command(slash_command)]
pub async fn takeback(ctx: Context<'_>, answer: Answer, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play!(ctx, |ask| play::takeback(ask, game.map(GameId::new), answer.into()))
}

#[poise::command(slash_command)]
pub async fn abort(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play!(ctx, |ask| play::abort(ask, game.map(GameId::new)))
}

#[poise::command(slash_command)]
pub async fn claim(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    on_game_in_play!(ctx, |ask| play::claim(ask, game.map(GameId::new)))
}
