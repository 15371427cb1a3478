//! Players' own piece lists (Pick-the-team version two, Patch, Easy Patch; rules pages
//! docs/rules/pick-the-team-2.md, patch.md, easy-patch.md, "Reading the list rules"): reading a list a player wrote, and
//! each list rule as a function that says why a piece or a list breaks it (the square, the
//! arrangement, the counts), not only whether.
//!
//! The counts come from the move generator itself, on the game's board: a piece is placed on a
//! square with other pieces arranged around it and its destinations are read off, so what the
//! rules measure is what the game plays.
//!
//! The modules: [`ListKind`], the games lists are for and their limits; [`ListPiece`], a piece as
//! written and how a list is read; [`Lab`], a piece on a board to see what it reaches, with its
//! two hardest questions each in a file of its own (the most it reaches in any position, for the
//! royal limit; whether it reaches the last row from a full home); the checks of a piece and of a
//! list; and the review a player reads.

mod any_position;
mod check;
mod full_home;
mod kind;
mod lab;
mod piece;
mod review;
#[cfg(test)]
mod tests;

pub use check::{ListReport, PieceReport, check_list, check_piece, same_piece};
pub use kind::{LONGEST_BETZA, LONGEST_NAME, ListKind, MOST_LINES, MOST_SQUARES, ROYAL_SQUARES, SMALL_PIECE};
pub use lab::{Lab, Reach};
pub use piece::{ListLine, ListPiece, read_list};
pub use review::{Review, review};
