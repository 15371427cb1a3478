//! Move notation: SAN out, tolerant input in.
//!
//! Input accepts SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`), coordinates (`e2e4`, `e2-e4`, `e7e8q`), a
//! missing `x`, `+` or `#`, a lower-case piece symbol where that is unambiguous, symbols of more
//! than one letter (`CNf3`), a square chosen with the move in brackets (`Bxd5(a4)`), and where
//! a piece is carried on (`Nf3>b5`).

use crate::chess_move::{Move, Special};
use crate::game::ActionError;
use crate::geometry::Square;
use crate::piece::Symbol;
use crate::position::Position;
use crate::variant_file::Variant;

/// What input looks like, for messages about input that is not a move at all.
pub const MOVE_EXAMPLES: &str = "expected a move such as e4, Nf3, exd5, O-O, e8=Q or e2e4";

/// SAN of a legal move without the check suffix (games that change what mate means add their
/// own). `legal` is every legal move of the position, for disambiguation.
pub fn san_body(variant: &Variant, position: &Position, mv: Move, legal: &[Move]) -> String {
    let mut out = if let Special::Castle { .. } = mv.special {
        if mv.to.file() > mv.from.file() {
            "O-O".into()
        } else {
            "O-O-O".into()
        }
    } else {
        piece_move_san(variant, position, mv, legal)
    };
    if let Some(arrival) = mv.arrival {
        out.push('>');
        out.push_str(&arrival.to_string());
    }
    if let Some(choice) = mv.choice {
        out.push('(');
        out.push_str(&choice.to_string());
        out.push(')');
    }
    out
}

fn piece_move_san(variant: &Variant, position: &Position, mv: Move, legal: &[Move]) -> String {
    let board = &position.board;
    let piece = board.piece_at(mv.from).expect("a legal move starts on a piece");
    let def = &variant.piece(piece.kind).def;
    let is_capture = mv.is_capture(board);
    let mut out = String::new();
    // A pawn's borrowed move is written like a piece's, with its symbol (`Pd4`), so that the
    // pawn's own moves keep their SAN (`d4` is always the push).
    let borrowed = is_borrowed(variant, position, &mv);
    let is_bare = def.is_written_without_symbol() && !borrowed;
    if !is_bare {
        out.push_str(def.symbol.as_str());
    }
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| o.to == mv.to && o.from != mv.from && board.piece_at(o.from).map(|p| p.kind) == Some(piece.kind))
        .filter(|o| !def.is_written_without_symbol() || is_borrowed(variant, position, o) == borrowed)
        .map(|o| o.from)
        .collect();
    let pawn_file = is_bare && is_capture;
    let (shows_file, shows_rank) = if rivals.is_empty() {
        (pawn_file, false)
    } else if rivals.iter().all(|r| r.file() != mv.from.file()) {
        (true, false)
    } else if rivals.iter().all(|r| r.rank() != mv.from.rank()) {
        (pawn_file, true)
    } else {
        (true, true)
    };
    let from = mv.from.to_string();
    if shows_file {
        out.push_str(&from[..1]);
    }
    if shows_rank {
        out.push_str(&from[1..]);
    }
    if is_capture {
        out.push('x');
    }
    out.push_str(&mv.to.to_string());
    if let Some(kind) = mv.promotion {
        out.push('=');
        out.push_str(variant.piece(kind).def.symbol.as_str());
    }
    out
}

/// Whether `mv` is a move a pawn (a piece written without its symbol) makes by a move it has
/// borrowed, not by its own (Knights are God's pawns, which may move as knights when a knight
/// guards them): anything but its own moves, double and triple steps and en passant.
fn is_borrowed(variant: &Variant, position: &Position, mv: &Move) -> bool {
    let Some(piece) = position.board.piece_at(mv.from) else {
        return false;
    };
    let def = &variant.piece(piece.kind).def;
    if !def.is_written_without_symbol() || !matches!(mv.special, Special::Normal | Special::DoubleStep) {
        return false;
    }
    let mut is_own = false;
    crate::movegen::rule_targets(variant, &position.board, mv.from, piece, |to, _| is_own |= to == mv.to);
    !is_own && !is_multi_step(variant, piece, mv)
}

/// Whether `mv` is one of a pawn's row-based double and triple steps.
fn is_multi_step(variant: &Variant, piece: crate::piece::Piece, mv: &Move) -> bool {
    let Some(multi) = &variant.piece(piece.kind).def.multi_step else {
        return false;
    };
    let forward = i16::from(piece.color.forward());
    let (df, dr) = (
        i16::from(mv.to.file()) - i16::from(mv.from.file()),
        i16::from(mv.to.rank()) - i16::from(mv.from.rank()),
    );
    let row = crate::movegen::relative_rank(variant.size, piece.color, mv.from);
    let count = dr * forward;
    // Left and right are the owner's: Black's mirror White's.
    count >= 2
        && multi.steps_from(row).contains(&(count as u8))
        && multi
            .files()
            .iter()
            .any(|&file| i16::from(file) * forward * count == df)
}

/// Reads a placement written as a piece's symbol and a square, `CN@c1` (the symbol in either
/// case, spaces allowed around the `@`).
pub fn parse_placement(text: &str) -> Option<(Symbol, Square)> {
    let (symbol, square) = text.trim().split_once('@')?;
    Some((Symbol::new(symbol.trim())?, Square::parse(square.trim())?))
}

/// What a piece of input says about a move; `None` fields are left open.
#[derive(Clone, Debug, Default, PartialEq)]
struct Pattern {
    symbol: Option<Symbol>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Option<Square>,
    promotion: Option<Symbol>,
    castle_king_side: Option<bool>,
    choice: Option<Square>,
    arrival: Option<Square>,
    /// A lower-case first letter read as a piece: tried only when no other reading fits, so
    /// `bxc3` is the b-pawn's capture even where a bishop could capture on c3.
    is_fallback: bool,
}

fn split_rank_prefix(text: &str) -> Option<(u8, &str)> {
    // One or two digits (1-16) at the start.
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).take(2).collect();
    if digits.is_empty() || digits.starts_with('0') {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    (1..=16).contains(&rank).then(|| (rank - 1, &text[digits.len()..]))
}

/// Splits what follows the move proper: a chosen square in brackets (`(a4)`) and where the piece
/// is carried on (`>b5`), in either order.
fn split_suffixes(mut body: &str) -> (&str, Option<Square>, Option<Square>) {
    let (mut choice, mut arrival) = (None, None);
    loop {
        if let Some((head, tail)) = body.rsplit_once('>')
            && let Some(square) = Square::parse(tail)
        {
            arrival = Some(square);
            body = head;
            continue;
        }
        if let Some(inner) = body.strip_suffix(')')
            && let Some((head, tail)) = inner.rsplit_once('(')
            && let Some(square) = Square::parse(tail)
        {
            choice = Some(square);
            body = head;
            continue;
        }
        return (body, choice, arrival);
    }
}

/// Every way the text can be read as a move pattern.
fn patterns(text: &str) -> Vec<Pattern> {
    let cleaned = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let (cleaned, choice, arrival) = split_suffixes(cleaned);
    let cleaned = cleaned.trim_end_matches(['+', '#', '!', '?']);
    let castle = cleaned.replace('0', "O").to_ascii_uppercase();
    let castle_side = match castle.as_str() {
        "O-O" | "OO" => Some(true),
        "O-O-O" | "OOO" => Some(false),
        _ => None,
    };
    if castle_side.is_some() {
        return vec![Pattern {
            castle_king_side: castle_side,
            choice,
            arrival,
            ..Default::default()
        }];
    }
    // Promotion: `=Q`, `(Q)`, or one letter right after the destination (`e8q`, `e7e8Q`).
    let mut promotions: Vec<(Option<Symbol>, &str)> = vec![(None, cleaned)];
    if let Some(rest) = cleaned.strip_suffix(')') {
        if let Some((head, symbol)) = rest.rsplit_once('(')
            && let Some(symbol) = Symbol::new(symbol)
        {
            promotions = vec![(Some(symbol), head)];
        }
    } else if let Some((head, symbol)) = cleaned.rsplit_once('=') {
        if let Some(symbol) = Symbol::new(symbol) {
            promotions = vec![(Some(symbol), head)];
        }
    } else if let Some(last) = cleaned.chars().last().filter(|c| c.is_ascii_alphabetic()) {
        let head = &cleaned[..cleaned.len() - 1];
        if head.chars().last().is_some_and(|c| c.is_ascii_digit()) {
            promotions = vec![(Symbol::from_char(last), head)];
        }
    }
    let mut out = Vec::new();
    for (promotion, body) in promotions {
        // The destination: a file letter and one or two digits at the end.
        let digits = body.chars().rev().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || body.len() < digits + 1 {
            continue;
        }
        let Some(to) = Square::parse(&body[body.len() - digits - 1..]) else {
            continue;
        };
        let base = Pattern {
            to: Some(to),
            promotion,
            choice,
            arrival,
            ..Default::default()
        };
        let mut prefix = &body[..body.len() - digits - 1];
        for separator in ['-', ':', 'x'] {
            if let Some(p) = prefix.strip_suffix(separator) {
                // A trailing `x` may also be a piece letter: try both readings.
                if separator == 'x' {
                    out.extend(prefix_patterns(prefix, &base));
                }
                prefix = p;
                break;
            }
        }
        out.extend(prefix_patterns(prefix, &base));
    }
    out
}

/// Readings of what stands before the destination: `[symbol][file][rank]`, each optional.
fn prefix_patterns(prefix: &str, base: &Pattern) -> Vec<Pattern> {
    let mut out = Vec::new();
    let with_origin = |mut p: Pattern, rest: &str| -> Option<Pattern> {
        let mut rest = rest;
        if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_lowercase() && *c <= 'p') {
            p.from_file = Some(c as u8 - b'a');
            rest = &rest[1..];
        }
        if let Some((rank, r)) = split_rank_prefix(rest) {
            p.from_rank = Some(rank);
            rest = r;
        }
        rest.is_empty().then_some(p)
    };
    // Upper-case letters are a symbol and nothing else; a lower-case start may be a symbol of
    // any length (tried last) or a file.
    let upper = prefix.bytes().take_while(u8::is_ascii_uppercase).count();
    if upper > 0 {
        if let Some(symbol) = Symbol::new(&prefix[..upper]) {
            let p = Pattern {
                symbol: Some(symbol),
                ..base.clone()
            };
            out.extend(with_origin(p, &prefix[upper..]));
        }
    } else {
        let lower = prefix.bytes().take_while(u8::is_ascii_lowercase).count();
        for len in 1..=lower.min(Symbol::MAX_LEN) {
            if let Some(symbol) = Symbol::new(&prefix[..len]) {
                let p = Pattern {
                    symbol: Some(symbol),
                    is_fallback: true,
                    ..base.clone()
                };
                out.extend(with_origin(p, &prefix[len..]));
            }
        }
        out.extend(with_origin(base.clone(), prefix));
    }
    out
}

fn matches(variant: &Variant, position: &Position, pattern: &Pattern, mv: &Move) -> bool {
    if pattern.choice.is_some() && pattern.choice != mv.choice {
        return false;
    }
    if pattern.arrival.is_some_and(|arrival| arrival != mv.landing()) {
        return false;
    }
    if let Some(king_side) = pattern.castle_king_side {
        return matches!(mv.special, Special::Castle { .. }) && (mv.to.file() > mv.from.file()) == king_side;
    }
    let Some(piece) = position.board.piece_at(mv.from) else {
        return false;
    };
    let def = &variant.piece(piece.kind).def;
    if pattern.to != Some(mv.to) {
        return false;
    }
    let has_full_origin = pattern.from_file.is_some() && pattern.from_rank.is_some();
    match pattern.symbol {
        Some(symbol) if def.symbol != symbol => return false,
        Some(_) => {}
        // Without a symbol, SAN means a pawn written `P`; a full origin square (coordinates) may be
        // any piece.
        None if !has_full_origin && !def.is_written_without_symbol() => return false,
        None => {}
    }
    if pattern.from_file.is_some_and(|f| f != mv.from.file()) || pattern.from_rank.is_some_and(|r| r != mv.from.rank())
    {
        return false;
    }
    match (pattern.promotion, mv.promotion) {
        (None, _) => true,
        (Some(symbol), Some(kind)) => variant.piece(kind).def.symbol == symbol,
        (Some(_), None) => false,
    }
}

/// Whether `pattern` writes `mv` the way SAN does: a pawn's own move without a symbol, a move it
/// borrowed with one (other pieces' moves, either way).
fn is_written_as(variant: &Variant, position: &Position, pattern: &Pattern, mv: &Move) -> bool {
    let is_pawn = position
        .board
        .piece_at(mv.from)
        .is_some_and(|piece| variant.piece(piece.kind).def.is_written_without_symbol());
    !is_pawn || pattern.symbol.is_some() == is_borrowed(variant, position, mv)
}

/// Finds the legal move that `text` names.
pub fn parse_move(variant: &Variant, position: &Position, text: &str, legal: &[Move]) -> Result<Move, ActionError> {
    // Move notation is ASCII; anything else cannot be a move (and must not be sliced).
    let patterns = if text.is_ascii() { patterns(text) } else { Vec::new() };
    if patterns.is_empty() {
        return Err(ActionError::unreadable(text, MOVE_EXAMPLES));
    }
    let mut found: Vec<Move> = Vec::new();
    // First as SAN writes moves (a pawn's borrowed moves with its symbol, its own without);
    // then, if nothing fits, either way (`Pe4` for a pawn's push, an older record's `ed4`).
    'tiers: for is_strict in [true, false] {
        for is_fallback in [false, true] {
            for pattern in patterns.iter().filter(|p| p.is_fallback == is_fallback) {
                for mv in legal {
                    let fits_form = !is_strict || is_written_as(variant, position, pattern, mv);
                    if fits_form && matches(variant, position, pattern, mv) && !found.contains(mv) {
                        found.push(*mv);
                    }
                }
            }
            if !found.is_empty() {
                break 'tiers;
            }
        }
    }
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] if !variant.def.castling && is_castling(text) => Err(ActionError::Illegal(format!(
            "{} is not a legal move here: there is no castling in this game",
            text.trim()
        ))),
        [] => Err(ActionError::Illegal(format!(
            "{} is not a legal move here",
            text.trim()
        ))),
        several => Err(ActionError::Ambiguous {
            text: text.trim().to_string(),
            options: several
                .iter()
                .map(|&mv| san_body(variant, position, mv, legal))
                .collect(),
        }),
    }
}

/// Whether `text` is castling as people write it: `O-O`, `0-0`, `O-O-O`, with or without a
/// check sign.
fn is_castling(text: &str) -> bool {
    let written: String = text
        .trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .map(|c| if c == '0' { 'O' } else { c.to_ascii_uppercase() })
        .collect();
    matches!(written.as_str(), "O-O" | "O-O-O" | "OO" | "OOO")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::rules::Standard;

    fn setup(fen: &str) -> (std::sync::Arc<Variant>, Position, Vec<Move>) {
        let variant = crate::variants::fide();
        let position = variant.position_from_fen(fen).unwrap();
        let legal = legal_moves(&Standard, &variant, &position);
        (variant, position, legal)
    }

    fn read(fen: &str, text: &str) -> Result<String, ActionError> {
        let (variant, position, legal) = setup(fen);
        parse_move(&variant, &position, text, &legal).map(|mv| san_body(&variant, &position, mv, &legal))
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn accepts_san_coordinates_and_sloppy_forms() {
        for input in ["e4", "e2e4", "e2-e4", "e4+", " e4 "] {
            assert_eq!(read(START, input).unwrap(), "e4", "{input}");
        }
        for input in ["Nf3", "nf3", "g1f3", "Ng1f3", "Ng1-f3", "Ngf3"] {
            assert_eq!(read(START, input).unwrap(), "Nf3", "{input}");
        }
        let fen = "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1";
        for input in ["exd5", "ed5", "e4d5", "exd5+", "e4xd5"] {
            assert_eq!(read(fen, input).unwrap(), "exd5", "{input}");
        }
        for input in ["O-O", "0-0", "o-o", "e1g1"] {
            assert_eq!(read(fen, input).unwrap(), "O-O", "{input}");
        }
        assert_eq!(read(fen, "O-O-O").unwrap(), "O-O-O");
    }

    #[test]
    fn promotion_must_name_its_piece() {
        let fen = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
        for input in ["e8=Q", "e8Q", "e8q", "e7e8q", "e8(Q)"] {
            assert_eq!(read(fen, input).unwrap(), "e8=Q", "{input}");
        }
        assert_eq!(read(fen, "e8=N").unwrap(), "e8=N");
        match read(fen, "e8").unwrap_err() {
            ActionError::Ambiguous { options, .. } => assert_eq!(options.len(), 4),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn disambiguates_like_san() {
        // Knights on b1 and f3 both reach d2; rooks on a1 and a5 both reach a3.
        let fen = "4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1";
        let (variant, position, legal) = setup(fen);
        let sans: Vec<String> = legal
            .iter()
            .map(|&m| san_body(&variant, &position, m, &legal))
            .collect();
        assert!(
            sans.contains(&"R1a3".to_string()) && sans.contains(&"R5a3".to_string()),
            "{sans:?}"
        );
        assert!(sans.contains(&"Nbd2".to_string()), "{sans:?}");
        assert_eq!(read(fen, "R1a3").unwrap(), "R1a3");
        assert!(matches!(read(fen, "Ra3"), Err(ActionError::Ambiguous { .. })));
    }

    #[test]
    fn a_chosen_square_and_an_arrival_are_read_after_the_move() {
        for (text, body, choice, arrival) in [
            ("Bxd5(a4)", "Bxd5", Some("a4"), None),
            ("Nf3>b5", "Nf3", None, Some("b5")),
            ("exd8=Q(h8)+", "exd8=Q", Some("h8"), None),
        ] {
            let (rest, c, a) = split_suffixes(text.trim_end_matches('+'));
            assert_eq!(rest, body);
            assert_eq!(c, choice.and_then(Square::parse));
            assert_eq!(a, arrival.and_then(Square::parse));
        }
        // A bracketed piece is a promotion, not a square.
        assert_eq!(split_suffixes("e8(Q)").0, "e8(Q)");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(matches!(read(START, "e5"), Err(ActionError::Illegal(_))));
        assert!(matches!(read(START, "hello"), Err(ActionError::Unreadable { .. })));
        assert!(matches!(read(START, ""), Err(ActionError::Unreadable { .. })));
        let lower_b = "4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1";
        // `bb3`: the b-pawn's push or the bishop? Only the pawn reaches b3 from b2... and the
        // bishop on c1 does not: one reading is legal.
        assert_eq!(read(lower_b, "b3").unwrap(), "b3");
        assert_eq!(read(lower_b, "bd2").unwrap(), "Bd2");
        // A b-pawn capture stays a pawn capture even where a bishop could capture there too.
        assert_eq!(read("4k3/8/8/4b3/1p6/2P5/8/4K3 b - - 0 1", "bxc3").unwrap(), "bxc3");
        assert!(matches!(read(START, "\u{df}6"), Err(ActionError::Unreadable { .. })));
        let msg = read(START, "hello").unwrap_err().to_string();
        assert!(msg.contains("expected a move"), "{msg}");
    }
}
