//! A game's record as the game keeps it: each entry with who may read it. Views redact it for
//! their viewer, so the game, not the service around it, decides what is secret and until when.

use crate::seat::{Seat, Viewer};
use crate::view::RecordEntry;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who may read a record entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Secrecy {
    Public,
    /// Only the seat that acted; everyone else reads `shown` instead (until revealed).
    Own {
        shown: String,
    },
    /// The two players, never anyone else, even after the game (a rejected proposal); everyone
    /// else reads `shown`.
    Players {
        shown: String,
    },
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seat: Seat,
    pub text: String,
    pub secrecy: Secrecy,
    /// How a public announcement words the action ("accepted e4"), where "played <text>" would
    /// not do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// False for a step of a game's protocol that is not a move of the game (an answer to a
    /// proposal, a rejected proposal): move lists leave it out, full records keep it.
    #[serde(default = "is_a_move", skip_serializing_if = "is_true")]
    pub is_move: bool,
}

fn is_a_move() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

impl Entry {
    /// A public move.
    pub fn public(seat: Seat, text: String) -> Entry {
        Entry {
            seat,
            text,
            secrecy: Secrecy::Public,
            said: None,
            is_move: true,
        }
    }
}

/// The entries of a game, oldest first.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Record(Vec<Entry>);

impl Record {
    pub fn push(&mut self, seat: Seat, text: String) {
        self.0.push(Entry::public(seat, text));
    }

    /// An entry only its seat may read; others read `shown`.
    pub fn push_secret(&mut self, seat: Seat, text: String, shown: &str) {
        self.0.push(Entry {
            secrecy: Secrecy::Own { shown: shown.into() },
            ..Entry::public(seat, text)
        });
    }

    /// Any entry.
    pub fn push_entry(&mut self, entry: Entry) {
        self.0.push(entry);
    }

    /// The last entry, to change as the game moves on (a proposal accepted or rejected).
    pub fn last_mut(&mut self) -> Option<&mut Entry> {
        self.0.last_mut()
    }

    /// Makes the entries from `start` on public (simultaneous secret moves, revealed together).
    /// Entries for the players only stay theirs.
    pub fn reveal_from(&mut self, start: usize) {
        for entry in self.0.iter_mut().skip(start) {
            if matches!(entry.secrecy, Secrecy::Own { .. }) {
                entry.secrecy = Secrecy::Public;
            }
        }
    }

    /// Makes one entry public, if it is a seat's own secret.
    pub fn reveal_entry(&mut self, index: usize) {
        if let Some(entry) = self.0.get_mut(index)
            && matches!(entry.secrecy, Secrecy::Own { .. })
        {
            entry.secrecy = Secrecy::Public;
        }
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.0
    }

    /// The record as `viewer` may read it; `is_revealed` opens the seats' own secrets (a game
    /// that has ended and shows them). What is the players' alone stays theirs.
    pub fn visible(&self, viewer: Viewer, is_revealed: bool) -> Vec<RecordEntry> {
        self.0
            .iter()
            .map(|entry| {
                let hidden_as = match &entry.secrecy {
                    Secrecy::Own { shown }
                        if !is_revealed && viewer != Viewer::Arbiter && viewer != Viewer::Seat(entry.seat) =>
                    {
                        Some(shown)
                    }
                    Secrecy::Players { shown } if viewer == Viewer::Spectator => Some(shown),
                    _ => None,
                };
                RecordEntry {
                    seat: entry.seat,
                    text: hidden_as.unwrap_or(&entry.text).clone(),
                    is_hidden: hidden_as.is_some(),
                    // What an announcement says may not tell more than the entry shows.
                    said: if hidden_as.is_some() { None } else { entry.said.clone() },
                    is_move: entry.is_move,
                }
            })
            .collect()
    }
}

// Secrets stay out of logs: Debug shows what a spectator reads.
impl fmt::Debug for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let public: Vec<String> = self
            .visible(Viewer::Spectator, false)
            .into_iter()
            .map(|e| e.text)
            .collect();
        f.debug_list().entries(public).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_entry_is_read_by_its_seat_and_the_arbiter_only_until_revealed() {
        let mut record = Record::default();
        record.push_secret(Seat::First, "bomb:d2".into(), "(chose a bomb carrier)");
        record.push(Seat::Second, "e5".into());
        let read = |viewer, revealed| -> Vec<String> {
            record.visible(viewer, revealed).into_iter().map(|e| e.text).collect()
        };
        assert_eq!(read(Viewer::Seat(Seat::First), false), ["bomb:d2", "e5"]);
        assert_eq!(
            read(Viewer::Seat(Seat::Second), false),
            ["(chose a bomb carrier)", "e5"]
        );
        assert_eq!(read(Viewer::Spectator, false), ["(chose a bomb carrier)", "e5"]);
        assert_eq!(read(Viewer::Arbiter, false), ["bomb:d2", "e5"]);
        assert_eq!(read(Viewer::Spectator, true), ["bomb:d2", "e5"]);
        assert!(record.visible(Viewer::Spectator, false)[0].is_hidden);
        assert!(!format!("{record:?}").contains("d2"));
        record.reveal_from(0);
        let revealed: Vec<String> = record
            .visible(Viewer::Seat(Seat::Second), false)
            .into_iter()
            .map(|e| e.text)
            .collect();
        assert_eq!(revealed, ["bomb:d2", "e5"]);
    }

    #[test]
    fn an_entry_for_the_players_is_never_read_by_anyone_else() {
        let mut record = Record::default();
        record.push_entry(Entry {
            secrecy: Secrecy::Players {
                shown: "(a proposal)".into(),
            },
            is_move: false,
            ..Entry::public(Seat::First, "e4".into())
        });
        record.reveal_from(0);
        for viewer in [Viewer::Seat(Seat::First), Viewer::Seat(Seat::Second), Viewer::Arbiter] {
            assert_eq!(record.visible(viewer, true)[0].text, "e4");
        }
        let entry = &record.visible(Viewer::Spectator, true)[0];
        assert_eq!(
            (entry.text.as_str(), entry.is_hidden, entry.is_move),
            ("(a proposal)", true, false)
        );
    }
}
