//! The terminal's commands for starting and playing games: challenges (the computer's too),
//! answering them, moves, and what ends or pauses the play.

use super::{asked, caller, computer_user, game_argument, here, local_user, usage};
use crate::arena::{Arena, ArenaError, Effects, OfferResponse};
use crate::commands::challenge::{GameChoices, computer_opponent};
use crate::commands::picking::{self, Fits};
use crate::ids::UserId;
use crate::model::WhitePlayer;
use arbiter_engine::VariantId;
use arbiter_engine::ai::Level;

/// Runs a command of starting or playing a game; `None` when `verb` is not one.
pub async fn execute(arena: &Arena, user: &UserId, verb: &str, args: &str) -> Option<Result<Effects, ArenaError>> {
    let result = match verb {
        "challenge" => challenge(arena, user, args).await,
        "practice" => practice(arena, user, args).await,
        "accept" | "decline" => answer_challenge(arena, user, verb == "accept", args).await,
        "cancel" => cancel(arena, user, args).await,
        "move" | "m" | "play" => play(arena, user, args).await,
        "resign" | "abort" => end(arena, user, verb == "resign", args).await,
        "draw" | "takeback" => offer(arena, user, verb == "draw", args).await,
        "rematch" => rematch(arena, user, args).await,
        "claim" => claim(arena, user, args).await,
        "legal" => legal(arena, user, args).await,
        _ => return None,
    };
    Some(result)
}

/// What follows the game in `challenge` and `practice`: a side, a time control, a start
/// position, a level.
struct Written {
    choices: GameChoices,
    level: Option<Level>,
}

fn game_choices(variant_text: Option<&str>, words: &mut std::str::SplitWhitespace<'_>) -> Result<Written, ArenaError> {
    let variant_text = variant_text.ok_or_else(|| usage("say which variant"))?;
    let variant =
        VariantId::parse(variant_text).ok_or_else(|| usage(&format!("unknown variant \"{variant_text}\"")))?;
    let mut written = Written {
        choices: GameChoices {
            variant,
            white_player: WhitePlayer::Random,
            fen: None,
            time: None,
        },
        level: None,
    };
    while let Some(word) = words.next() {
        match word {
            _ if Level::parse(word).is_some() => written.level = Level::parse(word),
            "white" => written.choices.white_player = WhitePlayer::Challenger,
            "black" => written.choices.white_player = WhitePlayer::Opponent,
            "random" => written.choices.white_player = WhitePlayer::Random,
            "time" => {
                let text = words
                    .next()
                    .ok_or_else(|| usage("say the time control, like `time 3d`"))?;
                written.choices.time = Some(text.to_string());
            }
            "fen" => written.choices.fen = Some(words.by_ref().collect::<Vec<_>>().join(" ")),
            other => {
                return Err(usage(&format!(
                    "\"{other}\" is not white, black, random, time, fen, or a level (easy, normal, hard)"
                )));
            }
        }
    }
    Ok(written)
}

/// `challenge <opponent> <variant> ...`: the computer when the opponent is `arbiter`.
async fn challenge(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let mut words = args.split_whitespace();
    let opponent = words.next().ok_or_else(|| usage("say whom to challenge"))?;
    let variant = words.next();
    let Written { choices, level } = game_choices(variant, &mut words)?;
    let opponent = local_user(opponent);
    let computer = computer_opponent(&opponent, &computer_user(), level)?;
    let request = choices.request(&caller(user), &here(), opponent, computer)?;
    arena.challenges().challenge(user, request).await
}

/// `practice <variant> ...`: a game against the computer at once.
async fn practice(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let mut words = args.split_whitespace();
    let variant = words.next();
    let Written { choices, level } = game_choices(variant, &mut words)?;
    let computer = computer_opponent(&computer_user(), &computer_user(), level)?;
    let request = choices.request(&caller(user), &here(), computer_user(), computer)?;
    arena.challenges().challenge(user, request).await
}

async fn answer_challenge(arena: &Arena, user: &UserId, accepts: bool, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick(arena, asked(&caller), named, Fits::ChallengingYou).await?;
    if accepts {
        arena.challenges().accept(id, user).await
    } else {
        arena.challenges().decline(id, user).await
    }
}

async fn cancel(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick(arena, asked(&caller), named, Fits::YourChallenge).await?;
    arena.challenges().cancel(id, user).await
}

async fn play(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, action) = game_argument(args)?;
    if action.is_empty() {
        return Err(usage("say which move, like `move e4`"));
    }
    let caller = caller(user);
    let id = picking::pick_to_act(arena, asked(&caller), named).await?;
    arena.play().act(id, user, action).await
}

/// `resign` (`gives_up`) or `abort`.
async fn end(arena: &Arena, user: &UserId, gives_up: bool, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick(arena, asked(&caller), named, Fits::InProgress).await?;
    if gives_up {
        arena.play().resign(id, user).await
    } else {
        arena.play().abort(id, user).await
    }
}

/// `draw ...` (`of_draw`) or `takeback ...`: offer, accept or decline.
async fn offer(arena: &Arena, user: &UserId, of_draw: bool, args: &str) -> Result<Effects, ArenaError> {
    let (word, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    let response = OfferResponse::from_word(word).ok_or_else(|| usage("say offer, accept or decline"))?;
    let (named, _) = game_argument(rest)?;
    let caller = caller(user);
    let id = picking::pick(arena, asked(&caller), named, Fits::InProgress).await?;
    if of_draw {
        arena.play().draw(id, user, response).await
    } else {
        arena.play().takeback(id, user, response).await
    }
}

async fn rematch(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick_to_look_at(arena, asked(&caller), named).await?;
    arena.challenges().rematch(id, &caller, &here()).await
}

async fn claim(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick(arena, asked(&caller), named, Fits::InProgress).await?;
    arena.play().claim_abandoned(id, user).await
}

async fn legal(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick_to_act(arena, asked(&caller), named).await?;
    let actions = arena.play().legal_actions(id, user).await?;
    if actions.is_empty() {
        // What `move` would be told: one explanation, whichever was asked.
        return Err(ArenaError::NotYourTurn(id));
    }
    Ok(Effects::reply(actions.join(" ")))
}
