//! Arbiter's FEN dialect (docs/fen.md): FIDE's fields, boards up to 16x16 (two-digit runs of
//! empty squares), `*` for a statue, and symbols longer than one letter in parentheses.

use crate::geometry::{BoardSize, Square};
use crate::piece::{Cell, Color, Piece, Symbol};
use crate::piece_table::PieceTable;
use crate::position::{Board, CastlingRights, Position};
use thiserror::Error;

/// "rank" or "ranks", for `n` of them.
fn ranks(n: usize) -> &'static str {
    if n == 1 { "rank" } else { "ranks" }
}

/// A FEN that could not be read, with what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("a FEN needs at least the board, got nothing")]
    Empty,
    #[error("the board has {found} {} but this variant has {expected}", ranks(*.found))]
    RankCount { found: usize, expected: u8 },
    #[error("rank {rank} describes {found} squares but the board is {expected} files wide")]
    RankWidth { rank: u8, found: usize, expected: u8 },
    #[error("'{0}' is not a piece of this variant")]
    UnknownPiece(String),
    #[error("a piece symbol opened with '(' is not closed with ')'")]
    UnclosedSymbol,
    #[error("the side to move must be 'w' or 'b', not \"{0}\"")]
    Turn(String),
    #[error("castling rights must be '-' or letters from KQkq, not \"{0}\"")]
    Castling(String),
    #[error("the en passant square must be '-' or a square on the board, not \"{0}\"")]
    EnPassant(String),
    #[error("the {which} must be a number, not \"{text}\"")]
    Counter { which: &'static str, text: String },
    #[error("the {which} \"{text}\" is too large")]
    CounterTooLarge { which: &'static str, text: String },
    #[error("{0} has more than one royal piece")]
    SeveralRoyals(&'static str),
    /// A game of several boards got the wrong number of them, or boards that do not fit together.
    #[error("{0}")]
    Boards(String),
    #[error("unexpected extra field \"{0}\"")]
    Extra(String),
    /// A game's own field that does not say what it must (Beirut's `bombs:`), and why.
    #[error("{0}")]
    Field(String),
}

/// Reads one piece token at the start of `text` (`N`, `n`, `(CN)`, `(cn)`): the piece and the
/// bytes it took.
fn read_piece(table: &PieceTable, text: &str) -> Result<(Piece, usize), FenError> {
    let (token, used) = match text.strip_prefix('(') {
        Some(rest) => {
            let end = rest.find(')').ok_or(FenError::UnclosedSymbol)?;
            (&rest[..end], end + 2)
        }
        None => {
            let c = text.chars().next().ok_or(FenError::Empty)?;
            (&text[..c.len_utf8()], c.len_utf8())
        }
    };
    let unknown = || FenError::UnknownPiece(token.to_string());
    let is_white = token.bytes().all(|b| b.is_ascii_uppercase());
    let is_black = token.bytes().all(|b| b.is_ascii_lowercase());
    if !(is_white || is_black) {
        return Err(unknown());
    }
    let kind = Symbol::new(token)
        .and_then(|symbol| table.by_symbol(symbol))
        .ok_or_else(unknown)?;
    let color = if is_white { Color::White } else { Color::Black };
    Ok((Piece::new(kind, color), used))
}

/// Parses the board field of a FEN: ranks from the top, `/` between them, digits (one or two) for
/// empty squares, `*` for a statue, symbols for pieces.
pub fn parse_placement(table: &PieceTable, size: BoardSize, text: &str) -> Result<Board, FenError> {
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
        let mut rest = *row;
        while let Some(c) = rest.chars().next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                rest = &rest[1..];
                if let Some(d2) = rest.chars().next().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as usize;
                    rest = &rest[1..];
                }
                file += n;
                continue;
            }
            let (cell, used) = if c == '*' {
                (Cell::STATUE, 1)
            } else {
                let (piece, used) = read_piece(table, rest)?;
                (Cell::piece(piece), used)
            };
            rest = &rest[used..];
            if file < size.files as usize {
                board.set(Square::new(file as u8, rank), cell);
            }
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
pub fn format_placement(table: &PieceTable, board: &Board) -> String {
    use std::fmt::Write;
    let size = board.size();
    let mut out = String::with_capacity(usize::from(size.files) * usize::from(size.ranks) / 2);
    let mut empty = 0;
    let flush_empty = |out: &mut String, empty: &mut u32| {
        if *empty > 0 {
            let _ = write!(out, "{empty}");
            *empty = 0;
        }
    };
    for rank in (0..size.ranks).rev() {
        for file in 0..size.files {
            let cell = board.get(Square::new(file, rank));
            if cell.is_statue() {
                flush_empty(&mut out, &mut empty);
                out.push('*');
            } else if let Some(piece) = cell.as_piece() {
                flush_empty(&mut out, &mut empty);
                table.symbol(piece.kind).write_fen(piece.color, &mut out);
            } else {
                empty += 1;
            }
        }
        flush_empty(&mut out, &mut empty);
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

fn parse_counter(text: Option<&str>, which: &'static str, default: u32) -> Result<u32, FenError> {
    match text {
        None => Ok(default),
        Some(t) => t.parse().map_err(|error: std::num::ParseIntError| {
            let text = t.to_string();
            match error.kind() {
                std::num::IntErrorKind::PosOverflow => FenError::CounterTooLarge { which, text },
                _ => FenError::Counter { which, text },
            }
        }),
    }
}

/// Parses a FEN. Fields after the board may be left out (White to move, no castling, no en
/// passant, counters 0 and 1). Extra fields are an error here; games that add fields read them
/// first. Castling rights are kept only where `castles` and the pieces stand in place.
pub fn parse_position(table: &PieceTable, size: BoardSize, castles: bool, fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_whitespace();
    let board = parse_placement(table, size, fields.next().ok_or(FenError::Empty)?)?;
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
            size.parse_square(text)
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
        castling: if castles { castling } else { CastlingRights::NONE },
        en_passant,
        halfmove_clock,
        fullmove_number,
        royals: [None, None],
        kings_unmoved: Color::BOTH.map(|c| castles && (castling.has(c, true) || castling.has(c, false))),
    };
    position
        .locate_royals(table)
        .map_err(|color| FenError::SeveralRoyals(color.name()))?;
    position.drop_impossible_castling(table);
    Ok(position)
}

/// A FEN without its last field when that field starts with `name` (a game's own field, such as
/// Capture the Flag's `bases:`), and that field.
pub fn split_last_field<'a>(fen: &'a str, name: &str) -> (&'a str, Option<&'a str>) {
    match fen.split_whitespace().last() {
        Some(last) if last.starts_with(name) => (fen.trim_end().strip_suffix(last).unwrap_or(fen), Some(last)),
        _ => (fen, None),
    }
}

/// Writes a position as FEN. Marks are never written.
pub fn format_position(table: &PieceTable, position: &Position) -> String {
    let mut castling = String::new();
    for (color, is_king_side, c) in [
        (Color::White, true, 'K'),
        (Color::White, false, 'Q'),
        (Color::Black, true, 'k'),
        (Color::Black, false, 'q'),
    ] {
        if position.castling.has(color, is_king_side) {
            castling.push(c);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    format!(
        "{} {} {} {} {} {}",
        format_placement(table, &position.board),
        if position.turn == Color::White { 'w' } else { 'b' },
        castling,
        position.en_passant.map_or("-".to_string(), |s| s.to_string()),
        position.halfmove_clock,
        position.fullmove_number
    )
}

#[cfg(test)]
mod tests {
    use crate::piece::PieceDef;
    use crate::piece_table::PieceTable;
    use crate::variant_file::Variant;

    #[test]
    fn fen_round_trips() {
        let fide = crate::variants::fide();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        ] {
            assert_eq!(fide.fen(&fide.position_from_fen(fen).unwrap()), fen);
        }
    }

    #[test]
    fn fen_errors_say_what_was_expected() {
        let fide = crate::variants::fide();
        let cases = [
            ("", "at least the board"),
            ("8/8/8 w - - 0 1", "3 ranks"),
            ("8 w - - 0 1", "has 1 rank but"),
            (
                "8/8/8/8/8/8/8/8 w - - 99999999999 1",
                "the halfmove clock \"99999999999\" is too large",
            ),
            ("9/8/8/8/8/8/8/8 w - - 0 1", "9 squares"),
            ("8/8/8/8/8/8/8/7Z w - - 0 1", "'Z'"),
            ("8/8/8/8/8/8/8/7(QQ) w - - 0 1", "'QQ'"),
            ("8/8/8/8/8/8/8/7(Q w - - 0 1", "not closed"),
            ("8/8/8/8/8/8/8/8 x - - 0 1", "'w' or 'b'"),
            ("8/8/8/8/8/8/8/8 w KX - 0 1", "KQkq"),
            ("8/8/8/8/8/8/8/8 w - z9 0 1", "en passant"),
            ("8/8/8/8/8/8/8/8 w - - x 1", "halfmove clock"),
            ("K6K/8/8/8/8/8/8/8 w - - 0 1", "more than one royal"),
        ];
        for (fen, expected) in cases {
            let err = fide.position_from_fen(fen).unwrap_err().to_string();
            assert!(err.contains(expected), "{fen}: {err}");
        }
    }

    #[test]
    fn long_symbols_stand_in_parentheses_and_mixed_case_is_refused() {
        let table = PieceTable::new(vec![
            PieceDef::new("k", "King", "K", "K").royal(),
            PieceDef::new("cn", "Chinese nightrider", "CN", "nNN"),
        ])
        .unwrap();
        let size = crate::geometry::BoardSize::STANDARD;
        let fen = "4k3/8/8/3(cn)4/8/2(CN)5/8/4K3 w - - 0 1";
        let position = super::parse_position(&table, size, false, fen).unwrap();
        assert_eq!(super::format_position(&table, &position), fen);
        assert!(super::parse_position(&table, size, false, "4k3/8/8/3(Cn)4/8/8/8/4K3").is_err());
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
        let position = variant.position_from_fen(fen).unwrap();
        assert!(position.board.get(variant.size.parse_square("c8").unwrap()).is_statue());
        assert_eq!(variant.fen(&position), fen);
    }
}
