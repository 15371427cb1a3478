//! A list as its player wrote it, judged line by line: what a player reads after sending one.

use super::check::{ListReport, check_list, check_pieces, explained};
use super::kind::ListKind;
use super::piece::{ListPiece, read_list};

/// A list as its player wrote it, judged: each line read and checked, and the list's own rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The lines that do not read as a piece, with why.
    pub unread: Vec<(usize, String, String)>,
    /// The line numbers of the pieces read, in order.
    pub numbers: Vec<usize>,
    pub report: ListReport,
}

impl Review {
    /// The review of a list already read (numbered 1, 2, 3...).
    pub fn of(pieces: &[ListPiece], kind: ListKind) -> Review {
        Review {
            unread: Vec::new(),
            numbers: (1..=pieces.len()).collect(),
            report: check_list(pieces, kind),
        }
    }

    pub fn is_accepted(&self) -> bool {
        self.unread.is_empty() && self.report.is_accepted()
    }

    /// The list, if every rule is kept.
    pub fn pieces(&self) -> Option<Vec<ListPiece>> {
        self.is_accepted()
            .then(|| self.report.pieces.iter().map(|p| p.piece.clone()).collect())
    }

    /// Every line's verdict, in the order written, then the list's problems.
    pub fn explain(&self) -> String {
        let mut lines = self.report.numbered(Some(&self.numbers));
        lines.extend(
            self.unread
                .iter()
                .map(|(number, text, why)| (*number, format!("✗ `{text}`: {why}"))),
        );
        explained(lines, &self.report.problems)
    }
}

/// Reads and checks a list written one piece a line: what a player sees after sending one.
pub fn review(text: &str, kind: ListKind) -> Review {
    let lines = match read_list(text) {
        Ok(lines) => lines,
        Err(problem) => {
            return Review {
                unread: Vec::new(),
                numbers: Vec::new(),
                report: ListReport {
                    pieces: Vec::new(),
                    problems: vec![problem],
                },
            };
        }
    };
    let mut unread = Vec::new();
    let mut numbers = Vec::new();
    let mut pieces = Vec::new();
    for line in &lines {
        match &line.piece {
            Ok(piece) => {
                numbers.push(line.number);
                pieces.push(piece.clone());
            }
            Err(why) => unread.push((line.number, shortened(&line.text), why.clone())),
        }
    }
    Review {
        unread,
        numbers,
        // The count is of the lines written, read or not.
        report: check_pieces(&pieces, kind, lines.len()),
    }
}

/// A line as quoted back: at most 60 characters.
fn shortened(text: &str) -> String {
    if text.chars().count() <= 60 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(59).collect::<String>())
    }
}
