//! Playing a game, for every transport: each command finds the game it means and asks the arena,
//! the same way whoever asks and however they typed it. Transports read the options and word the
//! answer.

use super::Ask;
use super::picking::{self, Fits};
use crate::arena::{ArenaError, Effects, OfferResponse};
use crate::ids::GameId;

/// A move, a placement or a secret choice, in the game meant (see [`picking::pick_to_act`]).
pub async fn act(ask: Ask<'_>, game: Option<GameId>, action: &str) -> Result<Effects, ArenaError> {
    let id = picking::pick_to_act(ask.arena, ask.asked, game).await?;
    ask.arena.play().act(id, &ask.asked.caller.user, action.trim()).await
}

/// What the asker may write now in the game meant; the same refusal as a move when that is
/// nothing.
pub async fn legal(ask: Ask<'_>, game: Option<GameId>) -> Result<Vec<String>, ArenaError> {
    let id = picking::pick_to_act(ask.arena, ask.asked, game).await?;
    let actions = ask.arena.play().legal_actions(id, &ask.asked.caller.user).await?;
    if actions.is_empty() {
        return Err(ArenaError::NotYourTurn(id));
    }
    Ok(actions)
}

pub async fn resign(ask: Ask<'_>, game: Option<GameId>) -> Result<Effects, ArenaError> {
    let id = in_play(ask, game).await?;
    ask.arena.play().resign(id, &ask.asked.caller.user).await
}

pub async fn abort(ask: Ask<'_>, game: Option<GameId>) -> Result<Effects, ArenaError> {
    let id = in_play(ask, game).await?;
    ask.arena.play().abort(id, &ask.asked.caller.user).await
}

pub async fn draw(ask: Ask<'_>, game: Option<GameId>, answer: OfferResponse) -> Result<Effects, ArenaError> {
    let id = in_play(ask, game).await?;
    ask.arena.play().draw(id, &ask.asked.caller.user, answer).await
}

pub async fn takeback(ask: Ask<'_>, game: Option<GameId>, answer: OfferResponse) -> Result<Effects, ArenaError> {
    let id = in_play(ask, game).await?;
    ask.arena.play().takeback(id, &ask.asked.caller.user, answer).await
}

pub async fn claim(ask: Ask<'_>, game: Option<GameId>) -> Result<Effects, ArenaError> {
    let id = in_play(ask, game).await?;
    ask.arena.play().claim_abandoned(id, &ask.asked.caller.user).await
}

/// The board as the asker may see it, in words when asked; `moves_only` leaves the board out.
pub async fn board(ask: Ask<'_>, game: Option<GameId>, words: bool, moves_only: bool) -> Result<Effects, ArenaError> {
    let id = picking::pick_to_look_at(ask.arena, ask.asked, game).await?;
    let mut shown = ask.arena.show_as(id, ask.asked.caller, words).await?;
    if moves_only && let Some(reply) = shown.reply.as_mut() {
        reply.board = None;
    }
    Ok(shown)
}

/// The game in play a command that ends or pauses the play means.
async fn in_play(ask: Ask<'_>, game: Option<GameId>) -> Result<GameId, ArenaError> {
    picking::pick(ask.arena, ask.asked, game, Fits::InProgress).await
}
