//! Playing a game, for every transport: each command finds the game it means and asks the arena,
//! the same way whoever asks and however they typed it. The commands are declared here, once
//! (their words, options and answer), and every transport has them from that.

use super::Ask;
use super::describe::{Command, Run, Suggestions, everywhere, written};
use super::options::{Args, Choice, GAME, flag, one_of, text};
use super::picking::{self, Fits};
use crate::arena::{ArenaError, Effects, OfferResponse};
use crate::ids::GameId;

pub const MOVE: Command = everywhere(
    "move",
    "Make a move, a placement or a secret choice, written as the game writes them.",
    &[
        text(
            "action",
            "Your move, e.g. e4, Nf3, O-O, Bxd5(a4), Q@d4, Qd1-d5@d7, bomb:d2, detonate",
        )
        .required(),
        GAME,
    ],
    written(
        &["move", "m", "play"],
        "move [#id] <action>",
        "Like `move e4`, `move Nf3`, `move Q@d4` (a placement), `move bomb:d2` (Beirut's bomb \
         carrier), `move base:e3` (CTF's base). `legal` lists what you may write now.",
    ),
)
.answered_by(
    Run::public(|ask, args| Box::pin(async move { act(ask, args.game(), args.text("action")).await }))
        .suggesting(suggest_actions),
);

pub const RESIGN: Command = everywhere(
    "resign",
    "Resign the game.",
    &[GAME],
    written(&["resign"], "resign [#id]", ""),
)
.answered_by(Run::public(|ask, args| Box::pin(resign(ask, args.game()))));

pub const ABORT: Command = everywhere(
    "abort",
    "Call the game off before both players have moved; it counts for nobody.",
    &[GAME],
    written(&["abort"], "abort [#id]", ""),
)
.answered_by(Run::public(|ask, args| Box::pin(abort(ask, args.game()))));

const ANSWERS: &[Choice] = &[
    Choice::new("offer", "Offer"),
    Choice::new("accept", "Accept"),
    Choice::new("decline", "Decline"),
];

pub const DRAW: Command = everywhere(
    "draw",
    "Offer a draw, or answer your opponent's offer.",
    &[one_of("answer", "Offer, accept or decline", ANSWERS).required(), GAME],
    written(
        &["draw"],
        "draw offer|accept|decline [#id]",
        "A move answers an offer too: it lapses.",
    ),
)
.answered_by(Run::public(|ask, args| {
    Box::pin(async move { draw(ask, args.game(), offer_response(&args)?).await })
}));

pub const TAKEBACK: Command = everywhere(
    "takeback",
    "Ask to take back your last move, or answer your opponent's request.",
    &[
        one_of("answer", "Offer (ask), accept or decline", ANSWERS).required(),
        GAME,
    ],
    written(
        &["takeback"],
        "takeback offer|accept|decline [#id]",
        "Your last move goes back, and the reply after it.",
    ),
)
.answered_by(Run::public(|ask, args| {
    Box::pin(async move { takeback(ask, args.game(), offer_response(&args)?).await })
}));

pub const CLAIM: Command = everywhere(
    "claim",
    "Claim a game your opponent left untouched for 30 days (a win; an abort if they never moved).",
    &[GAME],
    written(&["claim"], "claim [#id]", ""),
)
.answered_by(Run::public(|ask, args| Box::pin(claim(ask, args.game()))));

pub const BOARD: Command = everywhere(
    "board",
    "Show the board as you may see it (your own secrets included), to you alone.",
    &[
        GAME,
        flag(
            "words",
            "The board and the moves in words, for a screen reader (default: the image)",
        ),
    ],
    written(
        &["show", "board"],
        "show [#id] [words]",
        "With `words`, the board and the moves in words, for a screen reader.",
    ),
)
.answered_by(Run::private(|ask, args| {
    Box::pin(async move { board(ask, args.game(), args.flag("words"), false).await })
}));

pub const MOVES: Command = everywhere(
    "moves",
    "Show the moves played so far, to you alone.",
    &[GAME],
    written(&["moves"], "moves [#id]", ""),
)
.answered_by(Run::private(|ask, args| Box::pin(board(ask, args.game(), false, true))));

pub const LEGAL: Command = everywhere(
    "legal",
    "Every action you may write now, in the game's notation, to you alone.",
    &[GAME],
    written(&["legal"], "legal [#id]", ""),
)
.answered_by(Run::private(|ask, args| {
    // The actions alone, between spaces: scripts read them (`move` takes any of them back).
    Box::pin(async move { Ok(Effects::reply(legal(ask, args.game()).await?.join(" "))) })
}));

/// A line that is nothing but an action (`e4`), for a transport that takes one without its
/// command: played in the asker's only game waiting for them when it reads as exactly one of
/// their legal actions there (ignoring case, captures, checks and dashes); `None` when it does not
/// (no such game, no such action, or several it could mean), which the transport refuses.
pub async fn bare_action(ask: Ask<'_>, text: &str) -> Option<Result<Effects, ArenaError>> {
    let id = picking::pick(ask.arena, ask.asked, None, Fits::WaitingForYou)
        .await
        .ok()?;
    let user = &ask.asked.caller.user;
    let actions = ask.arena.play().legal_actions(id, user).await.ok()?;
    let wanted = simplified(text);
    let mut meant = actions.iter().filter(|action| simplified(action) == wanted);
    let (Some(action), None) = (meant.next(), meant.next()) else {
        return None;
    };
    Some(ask.arena.play().act(id, user, action).await)
}

/// An action as people type it, to compare with the game's own writing: lower case, without
/// capture, check and mate signs, dashes or spaces (so `nf3` is `Nf3`, and `O-O` is `oo`).
pub fn simplified(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, 'x' | 'X' | '+' | '#' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The answer chosen for an offer (Discord and the terminal only offer the three).
fn offer_response(args: &Args) -> Result<OfferResponse, ArenaError> {
    args.word("answer")
        .and_then(OfferResponse::from_word)
        .ok_or_else(|| ArenaError::Rejected("say offer, accept or decline".into()))
}

/// What the asker may write now in the game meant: their own options only, which reveal nothing
/// they do not already know.
fn suggest_actions(ask: Ask<'_>, args: Args) -> Suggestions<'_> {
    Box::pin(async move {
        let Ok(id) = picking::pick(ask.arena, ask.asked, args.game(), Fits::WaitingForYou).await else {
            return Vec::new();
        };
        ask.arena
            .play()
            .legal_actions(id, &ask.asked.caller.user)
            .await
            .unwrap_or_default()
    })
}

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
