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
    /// Only the seat that acted; everyone else reads `shown` instead.
    Own {
        shown: String,
    },
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seat: Seat,
    pub text: String,
    pub secrecy: Secrecy,
}

/// The entries of a game, oldest first.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Record(Vec<Entry>);

impl Record {
    pub fn push(&mut self, seat: Seat, text: String) {
        self.0.push(Entry {
            seat,
            text,
            secrecy: Secrecy::Public,
        });
    }

    /// An entry only its seat may read; others read `shown`.
    pub fn push_secret(&mut self, seat: Seat, text: String, shown: &str) {
        self.0.push(Entry {
            seat,
            text,
            secrecy: Secrecy::Own { shown: shown.into() },
        });
    }

    /// Makes the entries from `start` on public (simultaneous secret moves, revealed together).
    pub fn reveal_from(&mut self, start: usize) {
        for entry in self.0.iter_mut().skip(start) {
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

    /// The record as `viewer` may read it; `is_revealed` opens every secret (a game that has
    /// ended and shows its secrets).
    pub fn visible(&self, viewer: Viewer, is_revealed: bool) -> Vec<RecordEntry> {
        self.0
            .iter()
            .map(|entry| match &entry.secrecy {
                Secrecy::Own { shown }
                    if !is_revealed && viewer != Viewer::Arbiter && viewer != Viewer::Seat(entry.seat) =>
                {
                    RecordEntry {
                        seat: entry.seat,
                        text: shown.clone(),
                        is_hidden: true,
                    }
                }
                _ => RecordEntry {
                    seat: entry.seat,
                    text: entry.text.clone(),
                    is_hidden: false,
                },
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
}
