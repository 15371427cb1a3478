//! A piece of a list as its player wrote it, and how a list is read: a line of one's own
//! (`name, symbol, betza`, then `royal` or `pawn`) or a catalogue piece by name.

use super::kind::{LONGEST_BETZA, LONGEST_NAME, MOST_LINES};
use crate::betza::{Offset, Travel};
use crate::catalogue;
use crate::piece::{MultiStep, PieceDef, Promotion, Royalty, StepDirection, Symbol};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One piece of a list, as its player wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ListPiece {
    pub name: String,
    pub symbol: String,
    pub betza: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_royal: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_pawn: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl fmt::Display for ListPiece {
    /// The line that reads back as this piece: `Giraffe, GI, C, royal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}, {}", self.name, self.symbol, self.betza)?;
        if self.is_royal {
            f.write_str(", royal")?;
        }
        if self.is_pawn {
            f.write_str(", pawn")?;
        }
        Ok(())
    }
}

impl ListPiece {
    /// Reads one line: `name, symbol, betza[, royal][, pawn]`, or a catalogue piece's name
    /// (`Chinese nightrider`), optionally followed by the marks.
    pub fn read(line: &str) -> Result<ListPiece, String> {
        let line = line.trim();
        if line.chars().count() > 120 {
            return Err("this line is too long for a piece (at most 120 characters)".into());
        }
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        let marks_from = parts
            .iter()
            .skip(1)
            .position(|p| is_mark(p))
            .map_or(parts.len(), |i| i + 1);
        let (fields, marks) = parts.split_at(marks_from);
        if let Some(bad) = marks.iter().find(|m| !is_mark(m)) {
            return Err(format!(
                "\"{bad}\" comes after a mark; write `name, symbol, betza`, then `royal` or `pawn`"
            ));
        }
        let has = |mark: &str| marks.iter().any(|m| m.eq_ignore_ascii_case(mark));
        let mut piece = match fields {
            [name] => from_catalogue(name)?,
            [name, symbol, betza] => ListPiece {
                name: name.to_string(),
                symbol: symbol.to_ascii_uppercase(),
                betza: betza.to_string(),
                is_royal: false,
                is_pawn: false,
            },
            _ => {
                return Err(
                    "write a piece as `name, symbol, betza` (then `royal` or `pawn` if it is one), \
                     or the name of a catalogue piece"
                        .into(),
                );
            }
        };
        piece.is_royal |= has("royal");
        piece.is_pawn |= has("pawn");
        piece.check_form()?;
        Ok(piece)
    }

    /// The checks on the piece as written: its name, symbol, Betza and marks.
    fn check_form(&self) -> Result<(), String> {
        let name_ok = |c: char| c.is_ascii_alphanumeric() || " -'".contains(c);
        if self.name.is_empty() || self.name.len() > LONGEST_NAME || !self.name.chars().all(name_ok) {
            return Err(format!(
                "the name \"{}\" must be 1 to {LONGEST_NAME} letters, digits, spaces, hyphens or apostrophes (plain ASCII)",
                self.name
            ));
        }
        let Some(symbol) = Symbol::new(&self.symbol) else {
            return Err(format!(
                "the symbol \"{}\" must be 1 to 3 letters A-Z, like G or GI",
                self.symbol
            ));
        };
        if symbol.as_str() == "P" && !self.is_pawn {
            return Err("the symbol P is for a pawn (mark it `pawn`, or choose another symbol)".into());
        }
        if self.betza.is_empty() || self.betza.len() > LONGEST_BETZA {
            return Err(format!("the Betza string must be 1 to {LONGEST_BETZA} characters"));
        }
        let rules = crate::betza::parse(&self.betza).map_err(|e| {
            format!(
                "the Betza \"{}\" does not read at position {}: {}",
                self.betza,
                e.position + 1,
                e.problem
            )
        })?;
        if rules.is_empty() {
            return Err(format!("the Betza \"{}\" gives the piece no move", self.betza));
        }
        if rules.iter().any(|rule| rule.is_initial_only) {
            return Err(format!(
                "the Betza \"{}\" has an initial move (`i`), which lists do not take: the only initial \
                 moves in a list are the double and triple steps a piece marked `pawn` makes from its \
                 first rows; write the piece without `i`",
                self.betza
            ));
        }
        if self.is_royal && self.is_pawn {
            return Err("a piece cannot be both royal and a pawn".into());
        }
        if self.is_pawn && !has_quiet_forward_move(&self.betza) {
            return Err(
                "only a piece with a non-capturing move straight or diagonally forward may be marked a pawn".into(),
            );
        }
        Ok(())
    }

    /// The piece as a game plays it, with the id it has in the game.
    pub fn def(&self, id: &str) -> PieceDef {
        let mut def = PieceDef::new(id, &self.name, &self.symbol, &self.betza);
        if self.is_royal {
            def.royal = Royalty::Both;
        }
        if self.is_pawn {
            def.is_pawn = true;
            def.promotion = Promotion::LastRank;
            def.multi_step = multi_step_directions(&self.betza).map(MultiStep::pick_the_team);
        }
        def
    }
}

fn is_mark(text: &str) -> bool {
    text.eq_ignore_ascii_case("royal") || text.eq_ignore_ascii_case("pawn")
}

/// A catalogue piece by its name, as a list line.
fn from_catalogue(name: &str) -> Result<ListPiece, String> {
    let found = catalogue::lookup(name);
    let exact: Vec<&PieceDef> = found
        .iter()
        .filter(|p| p.name.eq_ignore_ascii_case(name.trim()))
        .collect();
    let piece = match (exact.as_slice(), found.as_slice()) {
        ([one, ..], _) => *one,
        (_, [one]) => one,
        (_, []) => {
            return Err(format!(
                "no catalogue piece is called \"{name}\"; write `name, symbol, betza` for a piece of your own"
            ));
        }
        (_, several) => {
            let names: Vec<&str> = several.iter().take(5).map(|p| p.name.as_str()).collect();
            return Err(format!(
                "\"{name}\" could be {}: write the whole name",
                names.join(", ")
            ));
        }
    };
    Ok(ListPiece {
        name: piece.name.clone(),
        symbol: piece.symbol.to_string(),
        betza: piece.betza.clone(),
        is_royal: piece.royal != Royalty::None,
        is_pawn: piece.is_pawn,
    })
}

/// The directions of a piece's one-square non-capturing forward moves (straight, forward-left,
/// forward-right): exactly the directions a marked pawn's row-based double and triple steps take.
/// None for a piece whose quiet forward moves are all longer or lame.
fn multi_step_directions(betza: &str) -> Option<StepDirection> {
    let rules = crate::betza::parse(betza).ok()?;
    let files: Vec<i8> = rules
        .iter()
        .filter(|rule| {
            let Offset { df, dr } = rule.step;
            rule.can_move
                && !rule.is_initial_only
                && rule.path.is_empty()
                && matches!(rule.travel, Travel::Leap | Travel::Ride { .. })
                && dr == 1
                && df.abs() <= 1
        })
        .map(|rule| rule.step.df)
        .collect();
    StepDirection::of_files(&files)
}

/// Whether a piece has a non-capturing move straight or diagonally forward, of any length, lame
/// or not: only such a piece may be marked a pawn.
fn has_quiet_forward_move(betza: &str) -> bool {
    crate::betza::parse(betza).is_ok_and(|rules| {
        rules.iter().any(|rule| {
            let Offset { df, dr } = rule.step;
            rule.can_move && dr > 0 && (df == 0 || df.abs() == dr)
        })
    })
}

/// A line of a list as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListLine {
    /// From 1.
    pub number: usize,
    pub text: String,
    pub piece: Result<ListPiece, String>,
}

/// Reads a list: one piece a line (blank lines and lines starting with `#` skipped).
pub fn read_list(text: &str) -> Result<Vec<ListLine>, String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.len() > MOST_LINES {
        return Err(format!(
            "this list has {} lines; the longest list is 20 pieces, one a line",
            lines.len()
        ));
    }
    Ok(lines
        .into_iter()
        .map(|(number, text)| ListLine {
            number,
            text: text.to_string(),
            piece: ListPiece::read(text),
        })
        .collect())
}
