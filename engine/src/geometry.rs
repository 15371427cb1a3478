//! Squares and board sizes for rectangular boards up to 16x16.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 16;

/// A square, packed as `rank * 16 + file` so that every supported board fits in one byte and a
/// board can be a fixed array of 256 cells whatever its size.
///
/// Stored and exchanged by its name (`"e4"`), which no change of the packing can alter; the packed
/// byte of stored format 0 is still read.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Name(String),
            Packed(u8),
        }
        match Stored::deserialize(deserializer)? {
            Stored::Name(name) => {
                Square::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("\"{name}\" is not a square")))
            }
            Stored::Packed(byte) => Ok(Square(byte)),
        }
    }
}

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * MAX_SIDE + file)
    }
    pub const fn file(self) -> u8 {
        self.0 % MAX_SIDE
    }
    pub const fn rank(self) -> u8 {
        self.0 / MAX_SIDE
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses a square name such as `e4` or `j10` (files `a`-`p`, ranks 1-16), without checking a
    /// board size.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() || file > 'p' {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        if !(1..=MAX_SIDE).contains(&rank) {
            return None;
        }
        Some(Square::new(file as u8 - b'a', rank - 1))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The size of a rectangular board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardSize {
    pub files: u8,
    pub ranks: u8,
}

impl BoardSize {
    pub const STANDARD: BoardSize = BoardSize { files: 8, ranks: 8 };

    pub fn new(files: u8, ranks: u8) -> Option<BoardSize> {
        let fits = |n: u8| (1..=MAX_SIDE).contains(&n);
        (fits(files) && fits(ranks)).then_some(BoardSize { files, ranks })
    }

    pub fn contains(self, square: Square) -> bool {
        square.file() < self.files && square.rank() < self.ranks
    }

    /// The square `(df, dr)` away from `from`, if it is on the board.
    #[inline]
    pub fn offset(self, from: Square, df: i8, dr: i8) -> Option<Square> {
        let file = from.file() as i16 + df as i16;
        let rank = from.rank() as i16 + dr as i16;
        (file >= 0 && rank >= 0 && file < self.files as i16 && rank < self.ranks as i16)
            .then(|| Square::new(file as u8, rank as u8))
    }

    /// Every square of the board, rank by rank from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks).flat_map(move |rank| (0..self.files).map(move |file| Square::new(file, rank)))
    }

    pub fn square_count(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Parses a square name and checks that it lies on this board.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        Square::parse(text).filter(|&square| self.contains(square))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_on_large_boards() {
        for name in ["a1", "h8", "j10", "p16", "e4"] {
            assert_eq!(Square::parse(name).unwrap().to_string(), name);
        }
        for bad in ["", "a", "a0", "q1", "a17", "A1", "a01", "e4x"] {
            assert!(Square::parse(bad).is_none(), "{bad} should not parse");
        }
    }

    #[test]
    fn squares_are_stored_by_name_and_the_packed_byte_still_reads() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(serde_json::to_string(&e4).unwrap(), "\"e4\"");
        assert_eq!(serde_json::from_str::<Square>("\"e4\"").unwrap(), e4);
        assert_eq!(serde_json::from_str::<Square>("52").unwrap(), e4);
        assert!(serde_json::from_str::<Square>("\"z9\"").is_err());
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let size = BoardSize::new(10, 10).unwrap();
        let j10 = size.parse_square("j10").unwrap();
        assert_eq!(size.offset(j10, 1, 0), None);
        assert_eq!(size.offset(j10, -9, -9), size.parse_square("a1"));
        assert!(BoardSize::STANDARD.parse_square("i1").is_none());
        assert_eq!(size.squares().count(), 100);
    }
}
