//! The board and a chess-like position. Arbiter's FEN dialect is in [`crate::fen`].

use crate::geometry::{BoardSize, MAX_SIDE, Square};
use crate::piece::{Cell, Color, Piece};
use crate::piece_table::PieceTable;
use serde::{Deserialize, Serialize};

const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// The squares of a board and what stands on them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: BoardSize,
    cells: [Cell; CELLS],
}

impl Board {
    pub fn empty(size: BoardSize) -> Board {
        Board {
            size,
            cells: [Cell::EMPTY; CELLS],
        }
    }
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }
    #[inline]
    pub fn get(&self, square: Square) -> Cell {
        self.cells[square.index()]
    }
    #[inline]
    pub fn set(&mut self, square: Square, cell: Cell) {
        debug_assert!(self.size.contains(square));
        self.cells[square.index()] = cell;
    }
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.get(square).as_piece()
    }
    /// Squares holding a piece, with the piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.size.squares().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }
    /// The same board with every mark removed (what a public view shows).
    pub fn without_marks(&self) -> Board {
        let mut board = self.clone();
        for cell in board.cells.iter_mut() {
            *cell = cell.unmarked();
        }
        board
    }
    /// The cells of the board area, eight at a time, rank by rank (a rank's cells past the
    /// board's files are empty): what a search key reads.
    fn words(&self) -> impl Iterator<Item = u64> + '_ {
        let words_a_rank = usize::from(self.size.files).div_ceil(8);
        (0..usize::from(self.size.ranks)).flat_map(move |rank| {
            let row = &self.cells[rank * usize::from(MAX_SIDE)..(rank + 1) * usize::from(MAX_SIDE)];
            row.chunks_exact(8)
                .take(words_a_rank)
                .map(|eight| u64::from_le_bytes(std::array::from_fn(|i| eight[i].byte())))
        })
    }
    /// The cells of the board area, rank by rank: a compact key for repetition.
    pub fn key(&self) -> impl Iterator<Item = u8> + '_ {
        self.size.squares().map(|sq| self.get(sq).unmarked().byte())
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..self.size.ranks).rev() {
            for file in 0..self.size.files {
                write!(f, "{:?} ", self.get(Square::new(file, rank)))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Serialised as its size and the cells of its area, marks included: stored state must keep
/// secrets (views are what redact them).
#[derive(Serialize, Deserialize)]
struct BoardData {
    files: u8,
    ranks: u8,
    cells: Vec<Cell>,
}

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let cells = self.size.squares().map(|sq| self.get(sq)).collect();
        BoardData {
            files: self.size.files,
            ranks: self.size.ranks,
            cells,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        let data = BoardData::deserialize(deserializer)?;
        let size = BoardSize::new(data.files, data.ranks).ok_or_else(|| serde::de::Error::custom("bad board size"))?;
        if data.cells.len() != size.square_count() {
            return Err(serde::de::Error::custom("cell count does not match the board size"));
        }
        let mut board = Board::empty(size);
        for (sq, cell) in size.squares().zip(data.cells) {
            board.set(sq, cell);
        }
        Ok(board)
    }
}

/// Castling rights: the king side and queen side rook of each colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CastlingRights(u8);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    fn bit(color: Color, is_king_side: bool) -> u8 {
        1 << (color.index() * 2 + usize::from(!is_king_side))
    }
    pub fn has(self, color: Color, is_king_side: bool) -> bool {
        self.0 & Self::bit(color, is_king_side) != 0
    }
    pub fn set(&mut self, color: Color, is_king_side: bool, on: bool) {
        if on {
            self.0 |= Self::bit(color, is_king_side);
        } else {
            self.0 &= !Self::bit(color, is_king_side);
        }
    }
    pub fn clear_color(&mut self, color: Color) {
        self.set(color, true, false);
        self.set(color, false, false);
    }
}

/// A chess-like position: board, side to move, castling rights, en passant, move counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    pub board: Board,
    pub turn: Color,
    pub castling: CastlingRights,
    /// The square a pawn skipped with its double step on the last move.
    pub en_passant: Option<Square>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
    /// Where each side's royal piece stands (kept up to date by `make`).
    pub royals: [Option<Square>; 2],
    /// Whether each side's royal piece has never moved (what a castling right needs besides its
    /// rook; Circe's reborn rooks restore a right only while it holds). Read from FEN as "has a
    /// castling right".
    #[serde(default)]
    pub kings_unmoved: [bool; 2],
}

impl Position {
    /// What decides the moves from here: the board (statues and marks included), the side to
    /// move, castling rights, en passant and the royals; not the move counters, so that the same
    /// position reached by another order of moves has the same key. The search asks for it at
    /// every position, so it reads the board eight cells at a time; it is never stored (the
    /// repetition keys are), so a new build may hash differently.
    pub fn search_key(&self) -> u64 {
        let square = |square: Option<Square>| square.map_or(u8::MAX, |square| square.index() as u8);
        let rest = u64::from_le_bytes([
            self.turn as u8,
            self.castling.0,
            square(self.en_passant),
            square(self.royals[0]),
            square(self.royals[1]),
            u8::from(self.kings_unmoved[0]) | u8::from(self.kings_unmoved[1]) << 1,
            self.board.size.files,
            self.board.size.ranks,
        ]);
        let mixed = self.board.words().chain([rest]).fold(0, |hash: u64, word| {
            (hash.rotate_left(29) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        });
        // The table finds a key's slot by its low bits: every bit of the board must reach them.
        let mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        mixed ^ (mixed >> 31)
    }

    /// A position with `board`, no castling, no en passant, move 1.
    pub fn new(board: Board, turn: Color) -> Position {
        Position {
            board,
            turn,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            royals: [None, None],
            kings_unmoved: [false, false],
        }
    }

    /// Finds each side's royal piece. A side may have none; `Err` names a side with several.
    pub fn locate_royals(&mut self, table: &PieceTable) -> Result<(), Color> {
        self.royals = [None, None];
        for (sq, piece) in self.board.pieces() {
            if table.is_royal(piece.kind, piece.color) {
                if self.royals[piece.color.index()].is_some() {
                    return Err(piece.color);
                }
                self.royals[piece.color.index()] = Some(sq);
            }
        }
        Ok(())
    }

    /// The rook a side may castle with on one wing, if both pieces stand in place: the royal on
    /// its first rank, an own non-royal, non-pawn piece in that corner, on the right side of it.
    /// (Whether the variant castles at all is the caller's question.)
    pub fn castling_rook(&self, table: &PieceTable, color: Color, is_king_side: bool) -> Option<Square> {
        let king = self.royals[color.index()]?;
        let size = self.board.size();
        let rank = if color == Color::White { 0 } else { size.ranks - 1 };
        let corner = Square::new(if is_king_side { size.files - 1 } else { 0 }, rank);
        let rook = self.board.piece_at(corner)?;
        let is_partner =
            rook.color == color && !table.is_royal(rook.kind, color) && !table.piece(rook.kind).def.is_pawn;
        let is_between = if is_king_side {
            king.file() < corner.file()
        } else {
            king.file() > corner.file()
        };
        (king.rank() == rank && is_partner && is_between).then_some(corner)
    }

    /// Castling rights whose king or rook is not in place are meaningless: drop them, so that
    /// two FENs of one position compare equal.
    pub fn drop_impossible_castling(&mut self, table: &PieceTable) {
        for color in Color::BOTH {
            for is_king_side in [true, false] {
                if self.castling.has(color, is_king_side) && self.castling_rook(table, color, is_king_side).is_none() {
                    self.castling.set(color, is_king_side, false);
                }
            }
        }
    }

    /// The castling rights as one byte, for keys.
    pub fn castling_byte(&self) -> u8 {
        self.castling.0
    }
}
