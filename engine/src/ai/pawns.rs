//! Where each side's pawns stand, file by file, and what follows for the evaluation: passed
//! pawns, doubled and isolated ones, and open files for the pieces that ride along them.

use crate::geometry::Square;
use crate::piece::Color;

/// A pawn with another of its side on its file, or with none on the files beside it.
const DOUBLED_PAWN: i32 = 12;
const ISOLATED_PAWN: i32 = 10;

/// A piece that rides along files, on a file without pawns, or without pawns of its own side.
const OPEN_FILE: i32 = 20;
const HALF_OPEN_FILE: i32 = 10;

/// Files a board may have.
const FILES: usize = crate::geometry::MAX_SIDE as usize;

/// Per file, the rank of White's rearmost pawn and of Black's (each side's pawns move away from
/// its own first rank), and how many pawns each side has there.
pub(super) struct PawnFiles {
    white_lowest: [i16; FILES],
    black_highest: [i16; FILES],
    counts: [[u8; FILES]; 2],
    /// The board's files.
    files: usize,
}

impl PawnFiles {
    /// No pawns yet, on a board of `files` files.
    pub(super) fn new(files: u8) -> PawnFiles {
        PawnFiles {
            white_lowest: [i16::MAX; FILES],
            black_highest: [-1; FILES],
            counts: [[0; FILES]; 2],
            files: usize::from(files),
        }
    }

    /// A pawn of `color` on `square`.
    pub(super) fn add(&mut self, square: Square, color: Color) {
        let (file, rank) = (usize::from(square.file()), i16::from(square.rank()));
        self.counts[color.index()][file] += 1;
        match color {
            Color::White => self.white_lowest[file] = self.white_lowest[file].min(rank),
            Color::Black => self.black_highest[file] = self.black_highest[file].max(rank),
        }
    }

    /// Whether no pawn of the other side stands ahead of a pawn of `color` on `square`, on its
    /// file or the files beside it.
    pub(super) fn is_passed(&self, square: Square, color: Color) -> bool {
        let rank = i16::from(square.rank());
        let mut files = self.around(square);
        match color {
            Color::White => files.all(|f| self.black_highest[f] <= rank),
            Color::Black => files.all(|f| self.white_lowest[f] >= rank),
        }
    }

    /// What a pawn of `color` on `square` loses for its file: a pawn doubled behind or ahead of
    /// another blocks it and guards nothing new; a pawn with no own pawn on the files beside it
    /// (isolated) can be defended only by pieces.
    pub(super) fn weakness(&self, square: Square, color: Color) -> i32 {
        let file = usize::from(square.file());
        let own = &self.counts[color.index()];
        let mut weakness = 0;
        if own[file] > 1 {
            weakness += DOUBLED_PAWN;
        }
        if self.around(square).all(|f| f == file || own[f] == 0) {
            weakness += ISOLATED_PAWN;
        }
        weakness
    }

    /// What a piece of `color` that rides along files gains on `square`'s file: an open file
    /// (no pawn at all) or a half-open one (none of its own) lets it reach the other side.
    pub(super) fn file_bonus(&self, square: Square, color: Color) -> i32 {
        let file = usize::from(square.file());
        match (
            self.counts[color.index()][file],
            self.counts[color.other().index()][file],
        ) {
            (0, 0) => OPEN_FILE,
            (0, _) => HALF_OPEN_FILE,
            _ => 0,
        }
    }

    /// `square`'s file and the files beside it on the board.
    fn around(&self, square: Square) -> std::ops::RangeInclusive<usize> {
        let file = usize::from(square.file());
        file.saturating_sub(1)..=(file + 1).min(self.files.max(1) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Seat, Viewer};
    use crate::variants::{AnyGame, VariantId};
    use crate::view::ViewCell;

    /// The pawns of a chess position.
    fn surveyed(fen: &str) -> PawnFiles {
        let game = AnyGame::from_fen(VariantId::Chess, fen).unwrap();
        let view = game.sight(Viewer::Seat(Seat::First));
        let board = &view.boards[0];
        let mut pawns = PawnFiles::new(board.files);
        for (index, cell) in board.cells.iter().enumerate() {
            if let ViewCell::Piece { color, piece } = *cell
                && view.pieces[piece].is_pawn
            {
                let square = Square::new(index as u8 % board.files, index as u8 / board.files);
                pawns.add(square, color);
            }
        }
        pawns
    }

    fn at(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn doubled_and_isolated_pawns_are_weaknesses_of_their_own_side() {
        // White: a lone pawn on a2, two on c2 and c3 with d2 beside them, f2 and g2 together.
        // Black: h7 alone.
        let pawns = surveyed("4k3/7p/8/8/8/2P5/P1PP1PP1/4K3 w - - 0 1");
        assert_eq!(pawns.weakness(at("a2"), Color::White), ISOLATED_PAWN);
        assert_eq!(pawns.weakness(at("c3"), Color::White), DOUBLED_PAWN);
        assert_eq!(pawns.weakness(at("c2"), Color::White), DOUBLED_PAWN);
        assert_eq!(pawns.weakness(at("f2"), Color::White), 0);
        assert_eq!(
            pawns.weakness(at("h7"), Color::Black),
            ISOLATED_PAWN,
            "White's g2 is no help"
        );
    }

    #[test]
    fn a_file_rider_gains_on_files_without_its_own_pawns() {
        let pawns = surveyed("4k3/p3p3/8/8/8/8/4P2P/4K3 w - - 0 1");
        assert_eq!(
            pawns.file_bonus(at("a1"), Color::White),
            HALF_OPEN_FILE,
            "Black's a7 only"
        );
        assert_eq!(pawns.file_bonus(at("b1"), Color::White), OPEN_FILE);
        assert_eq!(pawns.file_bonus(at("e1"), Color::White), 0);
        assert_eq!(
            pawns.file_bonus(at("h8"), Color::Black),
            HALF_OPEN_FILE,
            "White's h2 only"
        );
    }
}
