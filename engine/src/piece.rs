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

/// A piece's symbol in notation and FEN: one to three upper-case ASCII letters (`N`, `CN`).
/// Single letters are written as themselves; longer symbols stand in parentheses in FEN (`(CN)`
/// for White, `(cn)` for Black) and as they are in SAN (`CNf3`), where no other upper-case letter
/// can follow a piece's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol([u8; Symbol::MAX_LEN]);

impl Symbol {
    pub const MAX_LEN: usize = 3;

    /// Reads a symbol; letters may be given in either case.
    pub fn new(text: &str) -> Option<Symbol> {
        if text.is_empty() || text.len() > Symbol::MAX_LEN || !text.bytes().all(|b| b.is_ascii_alphabetic()) {
            return None;
        }
        let mut bytes = [0; Symbol::MAX_LEN];
        for (slot, b) in bytes.iter_mut().zip(text.bytes()) {
            *slot = b.to_ascii_uppercase();
        }
        Some(Symbol(bytes))
    }

    pub fn from_char(letter: char) -> Option<Symbol> {
        let mut buffer = [0; 4];
        Symbol::new(letter.encode_utf8(&mut buffer))
    }

    pub fn as_str(&self) -> &str {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(Symbol::MAX_LEN);
        std::str::from_utf8(&self.0[..len]).expect("symbols are ASCII")
    }

    pub fn is_single(&self) -> bool {
        self.0[1] == 0
    }

    /// The first letter (what a one-letter symbol is).
    pub fn first(&self) -> char {
        self.0[0] as char
    }

    /// How FEN writes a piece with this symbol: case for the colour, parentheses around longer
    /// symbols.
    pub fn fen(&self, color: Color) -> String {
        let mut text = String::new();
        self.write_fen(color, &mut text);
        text
    }

    /// [`Symbol::fen`], written at the end of `out` (a whole board's FEN, without a string a
    /// piece).
    pub fn write_fen(&self, color: Color, out: &mut String) {
        let letters = self.as_str().chars().map(|letter| match color {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        });
        if self.is_single() {
            out.extend(letters);
        } else {
            out.push('(');
            out.extend(letters);
            out.push(')');
        }
    }
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl Serialize for Symbol {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Symbol {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Symbol, D::Error> {
        let text = String::deserialize(deserializer)?;
        Symbol::new(&text).filter(|s| s.as_str() == text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "a piece symbol is one to {} upper-case letters, not \"{text}\"",
                Symbol::MAX_LEN
            ))
        })
    }
}

/// Which sides' pieces of a type are royal: checked, mated, never left attacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Royalty {
    #[default]
    None,
    Both,
    /// Royal for one side only (Assault: Black's king is royal, White's is not).
    Only(Color),
}

impl Royalty {
    pub fn applies_to(self, color: Color) -> bool {
        match self {
            Royalty::None => false,
            Royalty::Both => true,
            Royalty::Only(side) => side == color,
        }
    }
}

/// Written `true`/`false` for both sides or none, or `"white"`/`"black"` for one side.
impl Serialize for Royalty {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Royalty::None => serializer.serialize_bool(false),
            Royalty::Both => serializer.serialize_bool(true),
            Royalty::Only(Color::White) => serializer.serialize_str("white"),
            Royalty::Only(Color::Black) => serializer.serialize_str("black"),
        }
    }
}

impl<'de> Deserialize<'de> for Royalty {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Royalty, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Flag(bool),
            Side(String),
        }
        Ok(match Written::deserialize(deserializer)? {
            Written::Flag(true) => Royalty::Both,
            Written::Flag(false) => Royalty::None,
            Written::Side(side) => match side.as_str() {
                "white" => Royalty::Only(Color::White),
                "black" => Royalty::Only(Color::Black),
                "both" => Royalty::Both,
                "none" => Royalty::None,
                _ => {
                    return Err(serde::de::Error::custom(format!(
                        "royal must be true, false, \"white\" or \"black\", not \"{side}\""
                    )));
                }
            },
        })
    }
}

/// The directions of a pawn's row-based multi-steps: its one-square non-capturing forward
/// directions, as its owner sees them (left and right are the owner's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepDirection {
    /// Straight ahead.
    Straight,
    /// Along either forward diagonal.
    Diagonal,
    /// Along the forward-left diagonal only.
    Left,
    /// Along the forward-right diagonal only.
    Right,
    /// Straight ahead and along both forward diagonals.
    StraightAndDiagonal,
    StraightAndLeft,
    StraightAndRight,
}

impl StepDirection {
    /// The file each step moves by, for White (Black's mirror the board: -1 is always left).
    pub fn files(self) -> &'static [i8] {
        match self {
            StepDirection::Straight => &[0],
            StepDirection::Diagonal => &[-1, 1],
            StepDirection::Left => &[-1],
            StepDirection::Right => &[1],
            StepDirection::StraightAndDiagonal => &[-1, 0, 1],
            StepDirection::StraightAndLeft => &[-1, 0],
            StepDirection::StraightAndRight => &[0, 1],
        }
    }

    /// The directions of these file steps (-1 left, 0 straight, 1 right), if any.
    pub fn of_files(files: &[i8]) -> Option<StepDirection> {
        let has = |file: i8| files.contains(&file);
        Some(match (has(-1), has(0), has(1)) {
            (false, true, false) => StepDirection::Straight,
            (true, false, true) => StepDirection::Diagonal,
            (true, false, false) => StepDirection::Left,
            (false, false, true) => StepDirection::Right,
            (true, true, true) => StepDirection::StraightAndDiagonal,
            (true, true, false) => StepDirection::StraightAndLeft,
            (false, true, true) => StepDirection::StraightAndRight,
            (false, false, false) => return None,
        })
    }
}

/// Non-capturing steps of two or more squares that a pawn may make from some rows (counted from
/// its owner's side), every square crossed and the destination empty. They depend on the row
/// alone, not on whether the pawn has moved.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiStep {
    pub direction: StepDirection,
    /// Each row with the step counts allowed from it: `[[1, [2, 3]], [3, [2]]]`.
    pub rows: Vec<(u8, Vec<u8>)>,
}

impl MultiStep {
    /// Pick-the-team's: a double or triple step from rows 1 and 2, a double step from row 3.
    pub fn pick_the_team(direction: StepDirection) -> MultiStep {
        MultiStep {
            direction,
            rows: vec![(1, vec![2, 3]), (2, vec![2, 3]), (3, vec![2])],
        }
    }

    /// The file each step moves by (for White; a mirror image for Black, which is the same set):
    /// 0 straight ahead, -1 and 1 the forward diagonals.
    pub fn files(&self) -> &'static [i8] {
        self.direction.files()
    }

    /// The step counts allowed from `row`.
    pub fn steps_from(&self, row: u8) -> &[u8] {
        self.rows
            .iter()
            .find(|(r, _)| *r == row)
            .map_or(&[], |(_, steps)| steps.as_slice())
    }
}

/// A piece as data. Catalogue entries and variant files both produce these.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceDef {
    /// Stable identifier, stored with games: never rename one.
    pub id: String,
    pub name: String,
    /// Upper-case symbol in notation and FEN (lower case for Black in FEN).
    #[serde(alias = "letter")]
    pub symbol: Symbol,
    /// Movement in Betza notation (docs/betza.md).
    pub betza: String,
    #[serde(default, alias = "is_royal")]
    pub royal: Royalty,
    #[serde(default)]
    pub promotion: Promotion,
    /// Can never be captured nor landed on (Pick-the-team's blocking prince).
    #[serde(default)]
    pub is_uncapturable: bool,
    /// Resets the 50-move count, may capture en passant; a pawn written `P` is written without
    /// its symbol in SAN.
    #[serde(default)]
    pub is_pawn: bool,
    /// Row-based double and triple steps (Pick-the-team's pawns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multi_step: Option<MultiStep>,
    /// What the piece does, in a sentence, for players.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

impl PieceDef {
    /// A piece with a one-to-three-letter symbol.
    pub fn new(id: &str, name: &str, symbol: &str, betza: &str) -> PieceDef {
        PieceDef {
            id: id.to_string(),
            name: name.to_string(),
            symbol: Symbol::new(symbol).unwrap_or_else(|| panic!("\"{symbol}\" is not a valid piece symbol")),
            betza: betza.to_string(),
            royal: Royalty::None,
            promotion: Promotion::Never,
            is_uncapturable: false,
            is_pawn: false,
            multi_step: None,
            description: String::new(),
        }
    }
    pub fn described(mut self, description: &str) -> PieceDef {
        self.description = description.to_string();
        self
    }
    pub fn with_multi_step(mut self, multi_step: MultiStep) -> PieceDef {
        self.multi_step = Some(multi_step);
        self
    }
    /// Whether SAN writes moves of this piece without its symbol (FIDE's pawn).
    pub fn is_written_without_symbol(&self) -> bool {
        self.is_pawn && self.symbol.as_str() == "P"
    }
    pub fn royal(mut self) -> PieceDef {
        self.royal = Royalty::Both;
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
    fn symbols_are_one_to_three_letters_and_fen_brackets_the_long_ones() {
        let cn = Symbol::new("cn").unwrap();
        assert_eq!(cn.as_str(), "CN");
        assert_eq!(cn.fen(Color::White), "(CN)");
        assert_eq!(cn.fen(Color::Black), "(cn)");
        assert_eq!(Symbol::new("N").unwrap().fen(Color::Black), "n");
        for bad in ["", "ABCD", "N2", "é", "N'"] {
            assert!(Symbol::new(bad).is_none(), "{bad}");
        }
        assert_eq!(serde_json::to_string(&cn).unwrap(), "\"CN\"");
        assert!(
            serde_json::from_str::<Symbol>("\"cn\"").is_err(),
            "stored symbols are upper case"
        );
    }

    #[test]
    fn royalty_reads_as_a_flag_or_a_side() {
        for (text, royalty) in [
            ("true", Royalty::Both),
            ("false", Royalty::None),
            ("\"black\"", Royalty::Only(Color::Black)),
        ] {
            let read: Royalty = serde_json::from_str(text).unwrap();
            assert_eq!(read, royalty);
            assert_eq!(serde_json::to_string(&read).unwrap(), text);
        }
        assert!(Royalty::Only(Color::Black).applies_to(Color::Black));
        assert!(!Royalty::Only(Color::Black).applies_to(Color::White));
        assert!(serde_json::from_str::<Royalty>("\"red\"").is_err());
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
