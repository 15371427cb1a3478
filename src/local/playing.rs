//! The terminal's commands for starting games: challenges (the computer's too) and practice.
//! Answering them and playing are the command layer's own (`commands::describe`).

use super::{ask, caller, computer_user, typed_user, usage};
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
    // Each choice is made once: `white black` or `hard easy` would leave one of them unheeded.
    let (mut side, mut level) = (None, None);
    let once = |chosen: &mut Option<String>, word: &str, what: &str| match chosen.replace(word.to_string()) {
        Some(before) => Err(usage(&format!("choose the {what} once (`{before}` or `{word}`)"))),
        None => Ok(()),
    };
    while let Some(word) = words.next() {
        match word {
            _ if Level::parse(word).is_some() => {
                once(&mut level, word, "level")?;
                written.level = Level::parse(word);
            }
            "white" | "black" | "random" => {
                once(&mut side, word, "side")?;
                written.choices.white_player = match word {
                    "white" => WhitePlayer::Challenger,
                    "black" => WhitePlayer::Opponent,
                    _ => WhitePlayer::Random,
                };
            }
            "time" if written.choices.time.is_some() => return Err(usage("give the time control once")),
            "time" => {
                let mut text = words
                    .next()
                    .ok_or_else(|| usage("say the time control, like `time 3d`"))?
                    .to_string();
                // `time 5 mins + 2 days`: the words that go on writing a time are its own.
                while let Some(more) = words.clone().next().filter(|word| crate::clock::continues_a_time(word)) {
                    text.push(' ');
                    text.push_str(more);
                    words.next();
                }
                written.choices.time = Some(text);
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
    challenge::challenge(ask, typed_user(opponent)?, &computer_user(), choices, level).await
}

/// `practice <variant> ...`: a game against the computer at once.
async fn practice(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let mut words = args.split_whitespace();
    let variant = words.next();
    let Written { choices, level } = game_choices(variant, &mut words)?;
    let caller = caller(user);
    challenge::practice(ask(arena, &caller), &computer_user(), choices, level).await
}
