//! The secrets of a game (a base, a bomb carrier, a rejected proposal, a list before both are
//! in) and when each became public, found by replaying its log and reading the spectator's
//! record after every entry; and the public calls that named one before then.

use arbiter::model::rebuild;
use arbiter::model::{GameRow, LogEntry, LoggedEntry};
use arbiter_engine::{Game, Viewer};
use std::collections::HashSet;

/// A secret of a game: the action's notation, from when it was made until (if ever) the
/// spectator's record showed it, in the store's milliseconds.
#[derive(Clone, Debug)]
pub struct Secret {
    pub text: String,
    pub made_at: i64,
    pub public_at: Option<i64>,
}

impl Secret {
    /// Whether naming it in public at `at` gave it away.
    pub fn is_secret_at(&self, at: i64) -> bool {
        at >= self.made_at && self.public_at.is_none_or(|public| at < public)
    }
}

/// The game's secrets: each action the spectator's record hid when it was made, unless its
/// notation had already been in the open (a move played earlier that a proposal repeats, even
/// one taken back since): naming it then may mean the earlier move, as a post about it that
/// arrives late does, so by its text alone it gives nothing away.
pub fn secrets_of(row: &GameRow, log: &[LoggedEntry]) -> Vec<Secret> {
    let Ok(mut game) = row.setup.start() else {
        return Vec::new();
    };
    // Every text the spectator's record has shown in the open so far.
    let mut ever_open: HashSet<String> = HashSet::new();
    // The secret's place in the record, with the secret.
    let mut secrets: Vec<(usize, Secret)> = Vec::new();
    for (index, logged) in log.iter().enumerate() {
        let before = game.record(Viewer::Spectator).len();
        match &logged.entry {
            LogEntry::Act { seat, action } => {
                if game.apply(*seat, action).is_err() {
                    // The replay check reports a log that does not replay.
                    return Vec::new();
                }
            }
            LogEntry::Takeback { .. } => {
                match rebuild(&row.setup, &log[..=index]) {
                    Ok(rebuilt) => game = rebuilt,
                    Err(_) => return Vec::new(),
                }
                // A secret taken back has no place in the record any more (what comes there
                // next is another action): it stays secret until its notation is in the open.
                let kept = game.record(Viewer::Spectator).len();
                for (place, _) in secrets.iter_mut().filter(|(place, _)| *place >= kept) {
                    *place = usize::MAX;
                }
            }
            LogEntry::Conclude { outcome } => game.conclude(outcome.clone()),
        }
        let record = game.record(Viewer::Spectator);
        for entry in record.iter().filter(|entry| !entry.is_hidden) {
            ever_open.insert(entry.text.clone());
            ever_open.extend(entry.said.clone());
        }
        // Public once its own entry is shown, or once its notation is there in the open (a
        // proposal accepted, a move played).
        let in_the_open = |text: &str| {
            record.iter().any(|entry| {
                !entry.is_hidden
                    && (names(&entry.text, text) || entry.said.as_deref().is_some_and(|said| names(said, text)))
            })
        };
        let was_open = |text: &str| ever_open.iter().any(|open| names(open, text));
        for (place, secret) in &mut secrets {
            let shown = record.get(*place).is_some_and(|entry| !entry.is_hidden);
            if secret.public_at.is_none() && (shown || in_the_open(&secret.text)) {
                secret.public_at = Some(logged.at);
            }
        }
        if matches!(logged.entry, LogEntry::Act { .. }) {
            for (place, entry) in record.iter().enumerate().skip(before) {
                if entry.is_hidden && !was_open(&logged.notation) {
                    let secret = Secret {
                        text: logged.notation.clone(),
                        made_at: logged.at,
                        public_at: None,
                    };
                    secrets.push((place, secret));
                }
            }
        }
    }
    secrets.into_iter().map(|(_, secret)| secret).collect()
}

/// The secret `text` names, if any at `at`.
pub fn named<'a>(secrets: &'a [Secret], text: &str, at: i64) -> Option<&'a Secret> {
    secrets
        .iter()
        .find(|secret| secret.is_secret_at(at) && names(text, &secret.text))
}

/// Whether `text` holds `notation` as a word of its own: "d4" is in "played d4." but not in
/// "Qd4" or "d45".
pub fn names(text: &str, notation: &str) -> bool {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    text.match_indices(notation)
        .any(|(at, _)| !is_word(text[..at].chars().next_back()) && !is_word(text[at + notation.len()..].chars().next()))
}

/// What is still secret at the end of the game.
pub fn still_secret(secrets: &[Secret]) -> Vec<&Secret> {
    secrets.iter().filter(|secret| secret.public_at.is_none()).collect()
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn a_notation_is_named_only_as_a_word_of_its_own() {
        assert!(names("<@1> played d4.", "d4"));
        assert!(names("bases: base:f3 and base:e5", "base:f3"));
        assert!(!names("<@1> played Qd4.", "d4"));
        assert!(!names("game #d45", "d4"));
        assert!(!names("nothing here", "d4"));
    }
}
