//! The invariants, checked at the end from the database and the calls the fake recorded: each
//! failure names the game, the action and what shows it.

use crate::calls::Calls;
use crate::play::{Played, RESIGNED, Sent};
use arbiter::store::LogEntry;
use arbiter::store::Store;
use arbiter::store::formats::{effective_entries, rebuild};
use arbiter_engine::Game;
use std::time::Instant;

/// What the checks found.
#[derive(Debug, Default)]
pub struct Findings {
    /// Actions acknowledged to a player that their game's log does not hold.
    pub lost: usize,
    /// Actions in a log that no player sent, or sent once and stored twice.
    pub duplicated: usize,
    /// Actions never answered, apart from those in flight when a process was killed.
    pub unanswered: usize,
    pub unanswered_at_kills: usize,
    /// Games whose stored position is not the replay of their log.
    pub mismatched: usize,
    /// Finished games without exactly one result post.
    pub result_posts: usize,
    /// Requests Discord would have refused by its rules.
    pub refused: usize,
    /// A line for each failure.
    pub failures: Vec<String>,
}

impl Findings {
    pub fn holds(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Whether the player was told the action was played: "Done." where the game's posts go
/// elsewhere, or an answer that shows the move (refusals say why instead).
pub fn is_acknowledged(calls: &Calls, sent: &Sent) -> bool {
    calls
        .answered_with(&sent.token)
        .iter()
        .any(|text| text == "Done." || text.contains(&sent.text))
}

/// Checks every game played; `kills` are the moments a process was killed.
pub async fn check(games: &[Played], store: &dyn Store, calls: &Calls, kills: &[Instant]) -> Findings {
    let mut found = Findings::default();
    for game in games {
        let name = format!("game #{} ({})", game.id.get(), game.variant.info().id);
        let (Ok(Some(row)), Ok(log)) = (store.game(game.id).await, store.log(game.id).await) else {
            found.failures.push(format!("{name}: cannot be read back"));
            found.lost += 1;
            continue;
        };
        // The log's actions in effect, in order, against what the players sent, in order: each
        // sent action is either the next one stored or was never applied; an acknowledged one
        // must have been.
        let stored: Vec<&str> = effective_entries(&log)
            .into_iter()
            .filter(|logged| matches!(logged.entry, LogEntry::Act { .. }))
            .map(|logged| logged.notation.as_str())
            .collect();
        let mut next = 0;
        for sent in game.sent.iter().filter(|s| s.text != RESIGNED) {
            if stored.get(next) == Some(&sent.text.as_str()) {
                next += 1;
            } else if is_acknowledged(calls, sent) {
                found.lost += 1;
                found.failures.push(format!(
                    "{name}: `{}` was acknowledged but is not in the log",
                    sent.text
                ));
            }
        }
        if next < stored.len() {
            found.duplicated += stored.len() - next;
            found.failures.push(format!(
                "{name}: the log holds {:?} beyond what the players sent",
                &stored[next..]
            ));
        }
        for sent in game.sent.iter().filter(|s| !s.answered) {
            let near_kill = kills.iter().any(|&kill| {
                kill + std::time::Duration::from_secs(1) >= sent.at && kill <= sent.at + crate::play::patience()
            });
            if near_kill {
                found.unanswered_at_kills += 1;
            } else {
                found.unanswered += 1;
                found
                    .failures
                    .push(format!("{name}: `{}` was never answered", sent.text));
            }
        }
        match rebuild(&row.setup, &log) {
            Ok(replayed) if replayed == row.state => {}
            Ok(_) => {
                found.mismatched += 1;
                found
                    .failures
                    .push(format!("{name}: the stored position is not the replay of its log"));
            }
            Err(e) => {
                found.mismatched += 1;
                found.failures.push(format!("{name}: its log does not replay: {e}"));
            }
        }
        if let Some(outcome) = row.state.outcome() {
            let result = format!("{} · ", outcome.result_text());
            // Posted in the thread, or as the answer to the move or resignation that ended it.
            let answers = game.sent.iter().flat_map(|sent| calls.answered_with(&sent.token));
            let posts = calls
                .posts(game.thread)
                .into_iter()
                .chain(answers)
                .filter(|text| text.contains(&result) && (text.contains(" wins by ") || text.contains(" drawn by ")))
                .count();
            if posts != 1 {
                found.result_posts += 1;
                found
                    .failures
                    .push(format!("{name}: {posts} result posts in its thread, not 1"));
            }
        }
    }
    found
}
