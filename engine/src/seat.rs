//! Who sits at a game and who looks at it.

use crate::piece::Color;
use serde::{Deserialize, Serialize};

/// A player's place in a game: the first seat or the second. A game names its seats ("White",
/// "Red", "A") and says which colour a seat plays on which board; in a one-board game the first
/// seat plays White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    pub fn index(self) -> usize {
        self as usize
    }
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
    pub fn from_index(index: usize) -> Option<Seat> {
        Seat::BOTH.get(index).copied()
    }
    /// The colour this seat plays in a one-board game.
    pub fn color(self) -> Color {
        match self {
            Seat::First => Color::White,
            Seat::Second => Color::Black,
        }
    }
    /// The seat that plays `color` in a one-board game.
    pub fn of_color(color: Color) -> Seat {
        match color {
            Color::White => Seat::First,
            Color::Black => Seat::Second,
        }
    }
}

/// Stored as its index (0 or 1); the colour names of stored format 0 still read.
impl Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.index() as u8)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seat, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Index(u8),
            Colour(String),
        }
        let seat = match Stored::deserialize(deserializer)? {
            Stored::Index(index) => Seat::from_index(index as usize),
            Stored::Colour(name) => match name.as_str() {
                "white" => Some(Seat::First),
                "black" => Some(Seat::Second),
                _ => None,
            },
        };
        seat.ok_or_else(|| serde::de::Error::custom("a seat is 0 or 1"))
    }
}

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// A seated player: sees the board and their own secrets.
    Seat(Seat),
    /// Anyone else: sees only what is public.
    Spectator,
    /// Sees everything, the players' own secrets included: for checks and logs, never shown to
    /// anyone (a finished game's secrets reach spectators through the game's own view).
    Arbiter,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_stored_as_numbers_and_the_colour_names_of_format_0_still_read() {
        assert_eq!(serde_json::to_string(&Seat::Second).unwrap(), "1");
        assert_eq!(serde_json::from_str::<Seat>("0").unwrap(), Seat::First);
        assert_eq!(serde_json::from_str::<Seat>("\"black\"").unwrap(), Seat::Second);
        assert!(serde_json::from_str::<Seat>("2").is_err());
        assert!(serde_json::from_str::<Seat>("\"red\"").is_err());
    }
}
