//! The terminal's commands for starting and playing games: challenges (the computer's too),
//! answering them, moves, and what ends or pauses the play.

use super::{ask, asked, caller, computer_user, game_argument, here, local_user, usage};
use crate::arena::{Arena, ArenaError, Effects, OfferResponse};
use crate::commands::challenge::{self, GameChoices};
use crate::commands::picking;
use crate::commands::play;
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
    let caller = caller(user);
    let ask = ask(arena, &caller);
    challenge::challenge(ask, local_user(opponent), &computer_user(), choices, level).await
}

/// `practice <variant> ...`: a game against the computer at once.
async fn practice(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let mut words = args.split_whitespace();
    let variant = words.next();
    let Written { choices, level } = game_choices(variant, &mut words)?;
    let caller = caller(user);
    challenge::practice(ask(arena, &caller), &computer_user(), choices, level).await
}

async fn answer_challenge(arena: &Arena, user: &UserId, accepts: bool, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    challenge::answer(ask(arena, &caller), named, accepts).await
}

async fn cancel(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    challenge::cancel(ask(arena, &caller), named).await
}

async fn play(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, action) = game_argument(args)?;
    if action.is_empty() {
        return Err(usage("say which move, like `move e4`"));
    }
    let caller = caller(user);
    play::act(ask(arena, &caller), named, action).await
}

/// `resign` (`gives_up`) or `abort`.
async fn end(arena: &Arena, user: &UserId, gives_up: bool, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    if gives_up {
        play::resign(ask(arena, &caller), named).await
    } else {
        play::abort(ask(arena, &caller), named).await
    }
}

/// `draw ...` (`of_draw`) or `takeback ...`: offer, accept or decline.
async fn offer(arena: &Arena, user: &UserId, of_draw: bool, args: &str) -> Result<Effects, ArenaError> {
    let (word, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    let response = OfferResponse::from_word(word).ok_or_else(|| usage("say offer, accept or decline"))?;
    let (named, _) = game_argument(rest)?;
    let caller = caller(user);
    if of_draw {
        play::draw(ask(arena, &caller), named, response).await
    } else {
        play::takeback(ask(arena, &caller), named, response).await
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
    play::claim(ask(arena, &caller), named).await
}

async fn legal(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let actions = play::legal(ask(arena, &caller), named).await?;
    Ok(Effects::reply(actions.join(" ")))
}
