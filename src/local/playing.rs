//! The terminal's commands for starting games: challenges (the computer's too) and practice.
//! Answering them and playing are the command layer's own (`commands::runner`).

use super::{ask, caller, computer_user, local_user, usage};
use crate::arena::{Arena, ArenaError, Effects};
use crate::commands::challenge::{self, GameChoices};
use crate::ids::UserId;
use crate::model::WhitePlayer;
use arbiter_engine::VariantId;
use arbiter_engine::ai::Level;

/// Runs a command of starting a game; `None` when `verb` is not one.
pub async fn execute(arena: &Arena, user: &UserId, verb: &str, args: &str) -> Option<Result<Effects, ArenaError>> {
    let result = match verb {
        "challenge" => challenge(arena, user, args).await,
        "practice" => practice(arena, user, args).await,
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
