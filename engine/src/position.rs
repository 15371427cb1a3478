//! The board, a chess-like position, and Arbiter's FEN dialect (docs/fen.md).

use crate::geometry::{BoardSize, MAX_SIDE, Square};
use crate::piece::{Cell, Color, Piece};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use thiserror::Error;

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
    /// The cells of the board area, rank by rank: a compact key for repetition.
    pub fn key(&self) -> Vec<u8> {
        self.size.squares().map(|sq| self.get(sq).unmarked().byte()).collect()
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
}

/// A FEN that could not be read, with what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("a FEN needs at least the board, got nothing")]
    Empty,
    #[error("the board has {found} ranks but this variant has {expected}")]
    RankCount { found: usize, expected: u8 },
    #[error("rank {rank} describes {found} squares but the board is {expected} files wide")]
    RankWidth { rank: u8, found: usize, expected: u8 },
    #[error("'{0}' is not a piece of this variant")]
    UnknownPiece(char),
    #[error("the side to move must be 'w' or 'b', not \"{0}\"")]
    Turn(String),
    #[error("castling rights must be '-' or letters from KQkq, not \"{0}\"")]
    Castling(String),
    #[error("the en passant square must be '-' or a square on the board, not \"{0}\"")]
    EnPassant(String),
    #[error("the {which} must be a number, not \"{text}\"")]
    Counter { which: &'static str, text: String },
    #[error("{0} has more than one royal piece")]
    SeveralRoyals(&'static str),
    #[error("unexpected extra field \"{0}\"")]
    Extra(String),
}

/// Parses the board field of a FEN: ranks from the top, `/` between them, digits (one or two) for
/// empty squares, `*` for a statue, letters for pieces.
pub fn parse_placement(variant: &Variant, text: &str) -> Result<Board, FenError> {
    let size = variant.size;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != size.ranks as usize {
        return Err(FenError::RankCount {
            found: rows.len(),
            expected: size.ranks,
        });
    }
    let mut board = Board::empty(size);
    for (i, row) in rows.iter().enumerate() {
        let rank = size.ranks - 1 - i as u8;
        let mut file: usize = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                if let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    chars.next();
                    n = n * 10 + d2 as usize;
                }
                file += n;
                continue;
            }
            if file >= size.files as usize {
                file += 1;
                continue;
            }
            let cell = if c == '*' {
                Cell::STATUE
            } else {
                let kind = variant
                    .kind_by_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or(FenError::UnknownPiece(c))?;
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                Cell::piece(Piece::new(kind, color))
            };
            board.set(Square::new(file as u8, rank), cell);
            file += 1;
        }
        if file != size.files as usize {
            return Err(FenError::RankWidth {
                rank: rank + 1,
                found: file,
                expected: size.files,
            });
        }
    }
    Ok(board)
}

/// Writes the board field of a FEN. Marks are never written.
pub fn format_placement(variant: &Variant, board: &Board) -> String {
    let size = board.size();
    let mut out = String::new();
    for rank in (0..size.ranks).rev() {
        let mut empty = 0;
        for file in 0..size.files {
            let cell = board.get(Square::new(file, rank));
            let symbol = if cell.is_statue() {
                Some('*')
            } else {
                cell.as_piece().map(|p| {
                    let letter = variant.piece(p.kind).def.letter;
                    if p.color.is_black() {
                        letter.to_ascii_lowercase()
                    } else {
                        letter
                    }
                })
            };
            match symbol {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

fn parse_counter(text: Option<&str>, which: &'static str, default: u32) -> Result<u32, FenError> {
    match text {
        None => Ok(default),
        Some(t) => t.parse().map_err(|_| FenError::Counter {
            which,
            text: t.to_string(),
        }),
    }
}

impl Position {
    /// Parses a FEN of this variant. Fields after the board may be left out (White to move, no
    /// castling, no en passant, counters 0 and 1). Extra fields are an error here; games that
    /// add fields read them before calling this.
    pub fn from_fen(variant: &Variant, fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = parse_placement(variant, fields.next().ok_or(FenError::Empty)?)?;
        let turn = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => return Err(FenError::Turn(other.to_string())),
        };
        let mut castling = CastlingRights::NONE;
        match fields.next() {
            None | Some("-") => {}
            Some(text) => {
                for c in text.chars() {
                    match c {
                        'K' => castling.set(Color::White, true, true),
                        'Q' => castling.set(Color::White, false, true),
                        'k' => castling.set(Color::Black, true, true),
                        'q' => castling.set(Color::Black, false, true),
                        _ => return Err(FenError::Castling(text.to_string())),
                    }
                }
            }
        }
        let en_passant = match fields.next() {
            None | Some("-") => None,
            Some(text) => Some(
                variant
                    .size
                    .parse_square(text)
                    .ok_or_else(|| FenError::EnPassant(text.to_string()))?,
            ),
        };
        let halfmove_clock = parse_counter(fields.next(), "halfmove clock", 0)?;
        let fullmove_number = parse_counter(fields.next(), "move number", 1)?.max(1);
        if let Some(extra) = fields.next() {
            return Err(FenError::Extra(extra.to_string()));
        }
        let mut position = Position {
            board,
            turn,
            castling,
            en_passant,
            halfmove_clock,
            fullmove_number,
            royals: [None, None],
        };
        position.find_royals(variant)?;
        position.drop_impossible_castling(variant);
        Ok(position)
    }

    fn find_royals(&mut self, variant: &Variant) -> Result<(), FenError> {
        self.royals = [None, None];
        let Some(royal) = variant.royal_kind else {
            return Ok(());
        };
        for (sq, piece) in self.board.pieces() {
            if piece.kind == royal {
                if self.royals[piece.color.index()].is_some() {
                    return Err(FenError::SeveralRoyals(piece.color.name()));
                }
                self.royals[piece.color.index()] = Some(sq);
            }
        }
        Ok(())
    }

    /// Castling rights whose king or rook is not in place are meaningless: drop them, so that
    /// two FENs of one position compare equal.
    fn drop_impossible_castling(&mut self, variant: &Variant) {
        for color in Color::BOTH {
            for is_king_side in [true, false] {
                if self.castling.has(color, is_king_side)
                    && crate::movegen::castling_rook(variant, self, color, is_king_side).is_none()
                {
                    self.castling.set(color, is_king_side, false);
                }
            }
        }
    }

    pub fn to_fen(&self, variant: &Variant) -> String {
        let mut castling = String::new();
        for (color, is_king_side, c) in [
            (Color::White, true, 'K'),
            (Color::White, false, 'Q'),
            (Color::Black, true, 'k'),
            (Color::Black, false, 'q'),
        ] {
            if self.castling.has(color, is_king_side) {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        format!(
            "{} {} {} {} {} {}",
            format_placement(variant, &self.board),
            if self.turn == Color::White { 'w' } else { 'b' },
            castling,
            self.en_passant.map_or("-".to_string(), |s| s.to_string()),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trips() {
        let fide = Variant::fide();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        ] {
            assert_eq!(Position::from_fen(&fide, fen).unwrap().to_fen(&fide), fen);
        }
    }

    #[test]
    fn fen_errors_say_what_was_expected() {
        let fide = Variant::fide();
        let cases = [
            ("", "at least the board"),
            ("8/8/8 w - - 0 1", "3 ranks"),
            ("9/8/8/8/8/8/8/8 w - - 0 1", "9 squares"),
            ("8/8/8/8/8/8/8/7Z w - - 0 1", "'Z'"),
            ("8/8/8/8/8/8/8/8 x - - 0 1", "'w' or 'b'"),
            ("8/8/8/8/8/8/8/8 w KX - 0 1", "KQkq"),
            ("8/8/8/8/8/8/8/8 w - z9 0 1", "en passant"),
            ("8/8/8/8/8/8/8/8 w - - x 1", "halfmove clock"),
            ("K6K/8/8/8/8/8/8/8 w - - 0 1", "more than one royal"),
        ];
        for (fen, expected) in cases {
            let err = Position::from_fen(&fide, fen).unwrap_err().to_string();
            assert!(err.contains(expected), "{fen}: {err}");
        }
    }

    #[test]
    fn ten_by_ten_boards_and_statues_parse() {
        let text = include_str!("../variants/chess.toml")
            .replace("files = 8\nranks = 8", "files = 10\nranks = 10")
            .replace(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1",
            );
        let variant = Variant::from_toml(&text).unwrap();
        let fen = "4k5/10/2*7/10/10/10/10/10/9P/4K5 w - - 0 1";
        let position = Position::from_fen(&variant, fen).unwrap();
        assert!(position.board.get(variant.size.parse_square("c8").unwrap()).is_statue());
        assert_eq!(position.to_fen(&variant), fen);
    }
}
