//! Death Match commands in the terminal, read into the command layer's (`commands::matches`).
//! Whoever starts a match hosts it, and only they run it: its players never get a host's powers
//! over it.

use super::{ask, caller, computer_user, game_argument, server, typed_user, usage};
use crate::arena::{Arena, ArenaError, Caller, Effects};
use crate::commands::matches::{self, NewMatch, Ruling};
use crate::ids::UserId;
use arbiter_engine::VariantId;

/// Runs a Death Match command; `None` when `verb` is not one.
pub async fn execute(arena: &Arena, user: &UserId, verb: &str, args: &str) -> Option<Result<Effects, ArenaError>> {
    let result = match verb {
        "deathmatch" | "dm" => start(arena, user, args).await,
        "side" => side(arena, user, args).await,
        "addtime" => add_time(arena, user, args).await,
        "adjudicate" => adjudicate(arena, user, args).await,
        _ => return None,
    };
    Some(result)
}

/// `deathmatch <player1> <player2> <advantage> <variant> [normal] [reserve]`.
async fn start(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let [player1, player2, advantage, variant, rest @ ..] = words.as_slice() else {
        return Err(usage(
            "say `deathmatch <player1> <player2> <advantage> <blockade|garden> [normal] [reserve]`",
        ));
    };
    let variant = VariantId::parse(variant).ok_or_else(|| usage(&format!("unknown variant \"{variant}\"")))?;
    let chosen = NewMatch {
        variant,
        players: [typed_user(player1)?, typed_user(player2)?],
        advantage: typed_user(advantage)?,
        normal_time: rest.first().map(|text| text.to_string()),
        reserve: rest.get(1).map(|text| text.to_string()),
    };
    // Starting a match is open to anyone at the terminal, who then hosts it.
    let host = Caller::host(user, Some(&server()));
    matches::start(ask(arena, &host), &computer_user(), chosen).await
}

/// `side first|second [#id]`: the Advantage holder (or the host) chooses who moves first.
async fn side(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, word) = game_argument(args)?;
    let word = word.as_str();
    let caller = caller(user);
    let id = matches::meant(ask(arena, &caller), named, &format!("side {word}")).await?;
    match arena.seat_named(id, word).await? {
        Some(side) => arena.matches().choose_side(id, &caller, side).await,
        None => Err(usage("say `side first` or `side second` (or the side's name)")),
    }
}

/// `addtime <player> <time> [#id]`.
async fn add_time(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, rest) = game_argument(args)?;
    let mut words = rest.split_whitespace();
    let (Some(player), Some(time)) = (words.next(), words.next()) else {
        return Err(usage("say `addtime <player> <time>`, like `addtime alice 30s`"));
    };
    let caller = caller(user);
    matches::add_time(ask(arena, &caller), named, &typed_user(player)?, time).await
}

/// `adjudicate <winner>|draw|abort [#id]`.
async fn adjudicate(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, word) = game_argument(args)?;
    let ruling = match word.as_str() {
        "" => {
            return Err(usage(
                "say `adjudicate <winner>`, `adjudicate draw` or `adjudicate abort`",
            ));
        }
        "draw" => Ruling::Draw,
        "abort" => Ruling::Abort,
        winner => Ruling::Win(typed_user(winner)?),
    };
    let caller = caller(user);
    matches::adjudicate(ask(arena, &caller), named, ruling).await
}
