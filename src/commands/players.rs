//! A player's own page on every transport: their ratings and record, a game's leaderboard on
//! this server, and how games waiting for them remind them.

use super::describe::{Command, Run, everywhere, written};
use super::options::{Choice, one_of, user, variant};
use crate::model::Reminders;

pub const LEADERBOARD: Command = everywhere(
    "leaderboard",
    "The best rated players of a game on this server.",
    &[variant("variant", "The game").required()],
    written(&["leaderboard"], "leaderboard <variant>", ""),
)
.answered_by(
    Run::private(|ask, args| {
        Box::pin(async move {
            let Some(variant) = args.variant("variant") else {
                return Err(crate::arena::ArenaError::Rejected("say which game".into()));
            };
            let server = ask.asked.caller.server.as_ref();
            ask.arena.players().leaderboard(variant, server).await
        })
    })
    .on_a_server(),
);

pub const PROFILE: Command = everywhere(
    "profile",
    "A player's ratings, record and current games (yours if nobody is named).",
    &[user("user", "Whose profile (default: yours)")],
    written(&["profile"], "profile [user]", ""),
)
.answered_by(Run::private(|ask, args| {
    Box::pin(async move {
        let caller = ask.asked.caller;
        let of = args.user("user").unwrap_or(&caller.user);
        ask.arena.players().profile(caller.server.as_ref(), of).await
    })
}));

const REMINDERS: &[Choice] = &[
    Choice::new("thread", "A ping in the game's thread"),
    Choice::new("dm", "A direct message"),
    Choice::new("off", "No reminders"),
];

pub const REMINDER_SETTING: Command = everywhere(
    "settings reminders",
    "How games waiting for you remind you (leave the option out to see the current setting).",
    &[one_of("how", "How a game waiting for you reminds you", REMINDERS)],
    written(
        &["settings"],
        "settings reminders [thread|dm|off]",
        "In the game's place (the default), by direct message, or not at all.",
    ),
)
.answered_by(Run::private(|ask, args| {
    Box::pin(async move {
        let chosen = args.word("how").and_then(Reminders::parse);
        ask.arena.players().reminders(&ask.asked.caller.user, chosen).await
    })
}));
