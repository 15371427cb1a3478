//! Tournaments, for every transport: the tournament a command means (named, or the one of the
//! place asked) and the commands players and hosts run on it once it exists. Creating one reads
//! options each transport writes its own way, so it stays with the transports.

use super::Ask;
use super::describe::{Command, Run, discord_only};
use super::options::{Args, Choice, TOURNAMENT, game, one_of};
use crate::arena::{ArenaError, Effects, Ruling};
use crate::ids::TournamentId;

pub const JOIN: Command = discord_only(
    "tournament join",
    "Enter the tournament of this channel.",
    &[TOURNAMENT],
)
.answered_by(Run::public(|ask, args| Box::pin(step(ask, args, Step::Join))).on_a_server());

pub const WITHDRAW: Command = discord_only(
    "tournament withdraw",
    "Leave the tournament: you are not paired again; your results stand.",
    &[TOURNAMENT],
)
.answered_by(Run::public(|ask, args| Box::pin(step(ask, args, Step::Withdraw))).on_a_server());

pub const START: Command = discord_only(
    "tournament start",
    "Hosts: close entries and pair round 1.",
    &[TOURNAMENT],
)
.answered_by(Run::public(|ask, args| Box::pin(step(ask, args, Step::Start))).for_hosts());

pub const PAIR: Command = discord_only(
    "tournament pair",
    "Hosts: pair the next round (once every game of the last one has its result).",
    &[TOURNAMENT],
)
.answered_by(Run::public(|ask, args| Box::pin(step(ask, args, Step::Pair))).for_hosts());

pub const CLOSE_ROUND: Command = discord_only(
    "tournament close-round",
    "Hosts: end the round now (unplayed games of withdrawn players are lost by forfeit).",
    &[TOURNAMENT],
)
.answered_by(Run::public(|ask, args| Box::pin(step(ask, args, Step::CloseRound))).for_hosts());

const VERDICTS: &[Choice] = &[
    Choice::new("white", "White wins (1-0)"),
    Choice::new("black", "Black wins (0-1)"),
    Choice::new("draw", "Draw"),
    Choice::new("abort", "Abort (void: nobody scores)"),
];

pub const ADJUDICATE: Command = discord_only(
    "tournament adjudicate",
    "Hosts: decide the result of a tournament game still being played.",
    &[
        game("Game number").required(),
        one_of("result", "The result", VERDICTS).required(),
    ],
)
.answered_by(Run::public(|ask, args| Box::pin(adjudicate(ask, args))).for_hosts());

pub const STANDINGS: Command = discord_only(
    "tournament standings",
    "The standings, with a table of every round.",
    &[TOURNAMENT],
)
.answered_by(Run::public(|ask, args| Box::pin(step(ask, args, Step::Standings))).on_a_server());

pub const SHOW: Command = discord_only(
    "tournament show",
    "The tournament's settings, players and current round, to you alone.",
    &[TOURNAMENT],
)
.answered_by(Run::private(|ask, args| Box::pin(step(ask, args, Step::Show))).on_a_server());

/// What a command does to the tournament it means.
#[derive(Clone, Copy)]
enum Step {
    Join,
    Withdraw,
    Start,
    Pair,
    CloseRound,
    Standings,
    Show,
}

async fn step(ask: Ask<'_>, args: Args, step: Step) -> Result<Effects, ArenaError> {
    let id = meant(ask, &args).await?;
    let (tournaments, caller) = (ask.arena.tournaments(), ask.asked.caller);
    match step {
        Step::Join => tournaments.join(id, caller).await,
        Step::Withdraw => tournaments.withdraw(id, caller).await,
        Step::Start => tournaments.start(id, caller).await,
        Step::Pair => tournaments.pair(id, caller).await,
        Step::CloseRound => tournaments.close_round(id, caller).await,
        Step::Standings => tournaments.standings(id, caller, ask.place).await,
        Step::Show => tournaments.show(id, caller).await,
    }
}

/// The tournament named, or else the one of the place asked.
async fn meant(ask: Ask<'_>, args: &Args) -> Result<TournamentId, ArenaError> {
    match args.tournament() {
        Some(id) => Ok(id),
        None => ask.arena.tournaments().at(ask.place).await,
    }
}

async fn adjudicate(ask: Ask<'_>, args: Args) -> Result<Effects, ArenaError> {
    let game = args
        .game()
        .ok_or_else(|| ArenaError::Rejected("name the game, like #12".into()))?;
    let ruling = match args.word("result") {
        Some("white") => Ruling::WhiteWins,
        Some("black") => Ruling::BlackWins,
        Some("draw") => Ruling::Draw,
        Some("abort") => Ruling::Abort,
        _ => return Err(ArenaError::Rejected("say white, black, draw or abort".into())),
    };
    ask.arena.tournaments().adjudicate(game, ask.asked.caller, ruling).await
}
