//! A game's log read as the rules read it: the actions still in effect once takebacks are
//! replayed, and the state they lead to from the game's start. The log is the truth; a stored
//! state is a cache of it.

use super::{GameSetup, LogEntry, LoggedEntry};
use arbiter_engine::{Action, AnyGame, Game, Seat};

/// The actions still in effect, replaying takebacks in the log.
pub fn effective_actions(log: &[LoggedEntry]) -> Vec<(Seat, Action)> {
    effective_entries(log)
        .into_iter()
        .filter_map(|logged| match &logged.entry {
            LogEntry::Act { seat, action } => Some((*seat, action.clone())),
            _ => None,
        })
        .collect()
}

/// The log's actions still in effect (takebacks replayed), with their times and clocks.
pub fn effective_entries(log: &[LoggedEntry]) -> Vec<&LoggedEntry> {
    let mut entries = Vec::new();
    for logged in log {
        match &logged.entry {
            LogEntry::Act { .. } => entries.push(logged),
            LogEntry::Takeback { plies } => entries.truncate(entries.len().saturating_sub(*plies as usize)),
            LogEntry::Conclude { .. } => {}
        }
    }
    entries
}

/// Rebuilds a game's state from its start and its log: the log is the truth.
pub fn rebuild(setup: &GameSetup, log: &[LoggedEntry]) -> Result<AnyGame, String> {
    let start = setup.start().map_err(|e| format!("the start position: {e}"))?;
    let actions = effective_actions(log);
    let mut game =
        AnyGame::replay(&start, &actions).map_err(|(i, e)| format!("action {} does not replay: {e}", i + 1))?;
    if let Some(LogEntry::Conclude { outcome }) = log
        .iter()
        .rev()
        .map(|l| &l.entry)
        .find(|e| matches!(e, LogEntry::Conclude { .. }))
    {
        game.conclude(outcome.clone());
    }
    Ok(game)
}
