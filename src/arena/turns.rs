//! What an action or the end of a game does to a game's clock and status: the clock follows
//! the turn, refuses actions while paused, and stops when the game ends.

use super::messages::board_post;
use super::{ArenaError, Change, Effects};
use crate::model::{GameRow, GameStatus, LogEntry, NewEntry};
use arbiter_engine::{Game, Outcome, Seat};

/// After an action by `actor` (none: the rules acted): the clock follows the turn, and stops
/// when the game ends.
pub(super) fn follow_turn(game: &mut GameRow, actor: Option<Seat>, now: i64) {
    // A study waits for nobody: its one player needs no reminding.
    if game.state.outcome().is_some() || game.is_study() {
        game.clock.stop(now);
        return;
    }
    let to_act = game.state.to_act();
    let mid_turn = actor.is_some_and(|seat| game.state.is_mid_turn(seat));
    game.clock.follow(actor, &to_act, mid_turn, now);
}

/// Before an action: refuses it while the clocks are paused, and names a seat whose time ran
/// out before the action (the caller ends the game instead).
pub(super) fn check_clock(game: &GameRow, now: i64) -> Result<Option<Seat>, ArenaError> {
    if game.clock.paused_at.is_some() {
        return Err(ArenaError::Paused(game.id));
    }
    Ok(game.clock.flagged(now))
}

/// Ends an active game off the board and announces it with the final (revealed) board.
pub(super) fn conclude(game: &mut GameRow, outcome: Outcome, text: String, now: i64) -> Change {
    // Charges the turns in progress and stops the clock.
    game.clock.stop(now);
    game.state.conclude(outcome.clone());
    game.status = GameStatus::Finished;
    game.offer = None;
    game.turn_since = now;
    let notation = outcome.reason.describe();
    let entry = NewEntry::new(LogEntry::Conclude { outcome }, notation);
    Change {
        entries: vec![entry],
        effects: Effects {
            posts: vec![board_post(game, text)],
            ..Default::default()
        },
    }
}
