//! Pieces as data: definitions, colours, and the packed board cell.

use crate::betza::{self, BetzaError, MoveRule};
use serde::{Deserialize, Serialize};

/// A side of the board. Variants may call the sides something else (Garden of Statues: Red and
/// Blue); the engine always says White for the side that starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn is_black(self) -> bool {
        self == Color::Black
    }
    /// The rank direction this side's pieces call forward.
    pub fn forward(self) -> i8 {
        if self.is_black() { -1 } else { 1 }
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// When a piece promotes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Promotion {
    #[default]
    Never,
    /// On arrival on the last rank.
    LastRank,
    /// On arrival on this rank counted from the owner's side (Mecklenberg pawns: 8 on 10x10).
    RelativeRank(u8),
}

/// A piece as data. Catalogue entries and variant files both produce these.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceDef {
    /// Stable identifier, stored with games: never rename one.
    pub id: String,
    pub name: String,
    /// Upper-case letter in notation and FEN (lower case for Black in FEN).
    pub letter: char,
    /// Movement in Betza notation (docs/betza.md).
    pub betza: String,
    #[serde(default)]
    pub is_royal: bool,
    #[serde(default)]
    pub promotion: Promotion,
    /// Can never be captured nor landed on (Pick-the-team's blocking prince).
    #[serde(default)]
    pub is_uncapturable: bool,
    /// Written without a letter in SAN, resets the 50-move count, may capture en passant.
    #[serde(default)]
    pub is_pawn: bool,
}

impl PieceDef {
    pub fn new(id: &str, name: &str, letter: char, betza: &str) -> PieceDef {
        PieceDef {
            id: id.to_string(),
            name: name.to_string(),
            letter,
            betza: betza.to_string(),
            is_royal: false,
            promotion: Promotion::Never,
            is_uncapturable: false,
            is_pawn: false,
        }
    }
    pub fn royal(mut self) -> PieceDef {
        self.is_royal = true;
        self
    }
    pub fn pawn(mut self, promotion: Promotion) -> PieceDef {
        self.is_pawn = true;
        self.promotion = promotion;
        self
    }
    pub fn uncapturable(mut self) -> PieceDef {
        self.is_uncapturable = true;
        self
    }

    /// Parses the movement into rules for both colours.
    pub fn compile(&self) -> Result<PieceType, BetzaError> {
        let rules = betza::parse(&self.betza)?;
        let black = rules.iter().map(|r| r.oriented(true)).collect();
        let has_overlapping_rules = rules_overlap(&rules);
        Ok(PieceType {
            def: self.clone(),
            rules: [rules, black],
            has_overlapping_rules,
        })
    }
}

/// A piece definition with its movement parsed, per colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    pub def: PieceDef,
    rules: [Vec<MoveRule>; 2],
    has_overlapping_rules: bool,
}

/// Whether two rules may reach one square from one start: their steps point the same way (equal
/// steps with different paths, a rider and a longer leap along its line, ...).
fn rules_overlap(rules: &[MoveRule]) -> bool {
    rules.iter().enumerate().any(|(i, a)| {
        rules[i + 1..].iter().any(|b| {
            let (x1, y1, x2, y2) = (a.step.df as i32, a.step.dr as i32, b.step.df as i32, b.step.dr as i32);
            x1 * y2 == x2 * y1 && x1.signum() == x2.signum() && y1.signum() == y2.signum()
        })
    })
}

impl PieceType {
    pub fn has_overlapping_rules(&self) -> bool {
        self.has_overlapping_rules
    }

    pub fn rules(&self, color: Color) -> &[MoveRule] {
        &self.rules[color.index()]
    }
}

/// Index of a piece type within its variant's piece table.
pub type Kind = u8;

/// The most piece types one variant may have (the packed cell has six bits for the kind).
pub const MAX_KINDS: usize = 60;

/// A piece on the board: its kind in the variant's table, its colour, and whether it carries a
/// mark (Beirut's bomb). Marks are secrets; views decide who sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: Kind,
    pub color: Color,
    pub is_marked: bool,
}

impl Piece {
    pub fn new(kind: Kind, color: Color) -> Piece {
        Piece {
            kind,
            color,
            is_marked: false,
        }
    }
}

/// One board square's content, packed in a byte: 0 empty, 1 a statue (a neutral immobile blocker),
/// otherwise `2 + kind` in the low six bits, bit 6 for Black and bit 7 for a mark.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cell(u8);

impl Cell {
    pub const EMPTY: Cell = Cell(0);
    pub const STATUE: Cell = Cell(1);

    pub fn piece(piece: Piece) -> Cell {
        debug_assert!((piece.kind as usize) < MAX_KINDS);
        let mut byte = 2 + piece.kind;
        if piece.color.is_black() {
            byte |= 0x40;
        }
        if piece.is_marked {
            byte |= 0x80;
        }
        Cell(byte)
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn is_statue(self) -> bool {
        self.0 == 1
    }
    #[inline]
    pub fn as_piece(self) -> Option<Piece> {
        (self.0 >= 2).then(|| Piece {
            kind: (self.0 & 0x3f) - 2,
            color: if self.0 & 0x40 != 0 { Color::Black } else { Color::White },
            is_marked: self.0 & 0x80 != 0,
        })
    }
    /// Whether a piece of `color` stands here.
    #[inline]
    pub fn has_color(self, color: Color) -> bool {
        self.0 >= 2 && ((self.0 & 0x40 != 0) == color.is_black())
    }
    /// The packed byte, for compact keys.
    pub fn byte(self) -> u8 {
        self.0
    }
    /// The same cell with any mark removed.
    pub fn unmarked(self) -> Cell {
        if self.0 >= 2 { Cell(self.0 & 0x7f) } else { self }
    }
}

impl std::fmt::Debug for Cell {
    // Marks are secrets: Debug output never shows them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.as_piece() {
            None if self.is_statue() => write!(f, "*"),
            None => write!(f, "."),
            Some(p) => write!(f, "{}{}", if p.color.is_black() { 'b' } else { 'w' }, p.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_pack_and_unpack_every_kind_and_colour() {
        for kind in 0..MAX_KINDS as u8 {
            for color in Color::BOTH {
                for is_marked in [false, true] {
                    let piece = Piece { kind, color, is_marked };
                    let cell = Cell::piece(piece);
                    assert_eq!(cell.as_piece(), Some(piece));
                    assert!(cell.has_color(color) && !cell.has_color(color.other()));
                    assert_eq!(
                        cell.unmarked().as_piece(),
                        Some(Piece {
                            is_marked: false,
                            ..piece
                        })
                    );
                }
            }
        }
        assert!(Cell::EMPTY.as_piece().is_none() && Cell::STATUE.as_piece().is_none());
        assert!(!Cell::STATUE.has_color(Color::White));
    }

    #[test]
    fn debug_output_hides_marks() {
        let marked = Cell::piece(Piece {
            kind: 3,
            color: Color::White,
            is_marked: true,
        });
        assert_eq!(format!("{marked:?}"), format!("{:?}", marked.unmarked()));
    }
}
