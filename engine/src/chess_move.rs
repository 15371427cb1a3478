//! A move of a chess-like game, and what making one did.

use crate::geometry::Square;
use crate::piece::{Kind, Piece};
use crate::position::Board;

/// What a move does beyond lifting a piece from one square and putting it on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Normal,
    /// A pawn's initial two-square step, which may allow en passant.
    DoubleStep,
    /// Captures the pawn beside the destination that just made a double step.
    EnPassant,
    Castle {
        rook_from: Square,
        rook_to: Square,
    },
}

/// A move of a chess-like game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    /// The square the move enters, which notation names.
    pub to: Square,
    pub promotion: Option<Kind>,
    pub special: Special,
    /// Where the piece comes to rest when the rules carry it on from `to` (a portal's partner
    /// square); an enemy piece there is captured too.
    pub arrival: Option<Square>,
    /// A square the mover chooses as part of the move (where a captured unit is reborn in Circe).
    pub choice: Option<Square>,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
            special: Special::Normal,
            arrival: None,
            choice: None,
        }
    }

    /// Where the moving piece ends.
    #[inline]
    pub fn landing(&self) -> Square {
        self.arrival.unwrap_or(self.to)
    }

    /// The square of the piece this move captures on entering, if it captures there.
    pub fn captured_square(&self, board: &Board) -> Option<Square> {
        match self.special {
            Special::EnPassant => Some(Square::new(self.to.file(), self.from.rank())),
            Special::Castle { .. } => None,
            _ => board.piece_at(self.to).map(|_| self.to),
        }
    }

    /// Whether the move captures anything, where it enters or where it is carried on to.
    pub fn is_capture(&self, board: &Board) -> bool {
        self.captured_square(board).is_some()
            || self
                .arrival
                .is_some_and(|square| square != self.from && board.piece_at(square).is_some())
    }
}

/// What making a move did: the pieces it captured (at most two: where it entered and where it
/// was carried on to) and where the moving piece came to rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub captures: [Option<(Square, Piece)>; 2],
    pub arrival: Square,
}

impl Made {
    pub fn captures(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.captures.iter().flatten().copied()
    }

    pub fn has_captured(&self) -> bool {
        self.captures[0].is_some() || self.captures[1].is_some()
    }
}

/// The last move as images show it: where the piece came from, the square it entered, where it
/// came to rest, and the square chosen with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LastMove {
    pub from: Square,
    pub to: Square,
    pub landing: Square,
    pub choice: Option<Square>,
}

impl LastMove {
    pub fn of(mv: &Move) -> LastMove {
        LastMove {
            from: mv.from,
            to: mv.to,
            landing: mv.landing(),
            choice: mv.choice,
        }
    }

    /// A move that stayed on one square (a detonation at `square`).
    pub fn at(square: Square) -> LastMove {
        LastMove {
            from: square,
            to: square,
            landing: square,
            choice: None,
        }
    }
}
