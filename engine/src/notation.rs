//! Move notation: SAN out, tolerant input in.
//!
//! Input accepts SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`), coordinates (`e2e4`, `e2-e4`, `e7e8q`), a
//! missing `x`, `+` or `#`, and a lower-case piece letter where that is unambiguous.

use crate::geometry::Square;
use crate::movegen::{Move, Special};
use crate::position::Position;
use crate::variant::Variant;
use thiserror::Error;

/// Why a move could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveInputError {
    #[error("could not read \"{0}\": expected a move such as e4, Nf3, exd5, O-O, e8=Q or e2e4")]
    Unreadable(String),
    #[error("{0} is not a legal move here")]
    Illegal(String),
    #[error("\"{text}\" could mean {}: say which", options.join(" or "))]
    Ambiguous { text: String, options: Vec<String> },
}

/// SAN of a legal move without the check suffix (games that change what mate means add their own).
pub fn san_body(variant: &Variant, position: &Position, mv: Move, legal: &[Move]) -> String {
    if let Special::Castle { .. } = mv.special {
        return if mv.to.file() > mv.from.file() {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let board = &position.board;
    let piece = board.piece_at(mv.from).expect("a legal move starts on a piece");
    let def = &variant.piece(piece.kind).def;
    let is_capture = mv.is_capture(board);
    let mut out = String::new();
    if !def.is_pawn {
        out.push(def.letter);
    }
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| o.to == mv.to && o.from != mv.from && board.piece_at(o.from).map(|p| p.kind) == Some(piece.kind))
        .map(|o| o.from)
        .collect();
    let pawn_file = def.is_pawn && is_capture;
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
        out.push(from.chars().next().expect("square names start with a file"));
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
        out.push(variant.piece(kind).def.letter);
    }
    out
}

/// What a piece of input says about a move; `None` fields are left open.
#[derive(Clone, Debug, Default, PartialEq)]
struct Pattern {
    letter: Option<char>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Option<Square>,
    promotion: Option<char>,
    castle_king_side: Option<bool>,
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

/// Every way the text can be read as a move pattern.
fn patterns(text: &str) -> Vec<Pattern> {
    let cleaned: String = text.trim().trim_end_matches(['+', '#', '!', '?']).to_string();
    let castle = cleaned.replace('0', "O").to_ascii_uppercase();
    match castle.as_str() {
        "O-O" | "OO" => {
            return vec![Pattern {
                castle_king_side: Some(true),
                ..Default::default()
            }];
        }
        "O-O-O" | "OOO" => {
            return vec![Pattern {
                castle_king_side: Some(false),
                ..Default::default()
            }];
        }
        _ => {}
    }
    let mut body = cleaned.as_str();
    // Promotion: `=Q`, `(Q)`, or a letter right after the destination (`e8q`, `e7e8Q`).
    let mut promotions: Vec<(Option<char>, &str)> = vec![(None, body)];
    if let Some(rest) = body.strip_suffix(')') {
        if let Some((head, letter)) = rest.rsplit_once('(') {
            let mut chars = letter.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                promotions = vec![(Some(c), head)];
            }
        }
    } else if let Some((head, letter)) = body.rsplit_once('=') {
        let mut chars = letter.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            promotions = vec![(Some(c), head)];
        }
    } else if let Some(last) = body.chars().last().filter(|c| c.is_ascii_alphabetic()) {
        let head = &body[..body.len() - 1];
        if head.chars().last().is_some_and(|c| c.is_ascii_digit()) {
            promotions = vec![(Some(last), head)];
        }
    }
    let mut out = Vec::new();
    for (promotion, head) in promotions {
        body = head;
        // The destination: a file letter and one or two digits at the end.
        let digits = body.chars().rev().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || body.len() < digits + 1 {
            continue;
        }
        let Some(to) = Square::parse(&body[body.len() - digits - 1..]) else {
            continue;
        };
        let mut prefix = &body[..body.len() - digits - 1];
        for separator in ['-', ':', 'x'] {
            if let Some(p) = prefix.strip_suffix(separator) {
                // A trailing `x` may also be a piece letter: try both readings.
                if separator == 'x' {
                    out.extend(prefix_patterns(prefix, to, promotion));
                }
                prefix = p;
                break;
            }
        }
        out.extend(prefix_patterns(prefix, to, promotion));
    }
    out
}

/// Readings of what stands before the destination: `[piece][file][rank]`, each optional.
fn prefix_patterns(prefix: &str, to: Square, promotion: Option<char>) -> Vec<Pattern> {
    let base = Pattern {
        to: Some(to),
        promotion,
        ..Default::default()
    };
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
    if let Some(first) = prefix.chars().next().filter(|c| c.is_ascii_alphabetic()) {
        let letter = Pattern {
            letter: Some(first.to_ascii_uppercase()),
            is_fallback: first.is_ascii_lowercase(),
            ..base.clone()
        };
        out.extend(with_origin(letter, &prefix[first.len_utf8()..]));
    }
    out.extend(with_origin(base, prefix));
    out
}

fn matches(variant: &Variant, position: &Position, pattern: &Pattern, mv: &Move) -> bool {
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
    match pattern.letter {
        Some(letter) if def.letter != letter => return false,
        Some(_) => {}
        // Without a letter, SAN means a pawn; a full origin square (coordinates) may be any piece.
        None if !has_full_origin && !def.is_pawn => return false,
        None => {}
    }
    if pattern.from_file.is_some_and(|f| f != mv.from.file()) || pattern.from_rank.is_some_and(|r| r != mv.from.rank())
    {
        return false;
    }
    match (pattern.promotion, mv.promotion) {
        (None, _) => true,
        (Some(letter), Some(kind)) => variant.piece(kind).def.letter == letter.to_ascii_uppercase(),
        (Some(_), None) => false,
    }
}

/// Finds the legal move that `text` names.
pub fn parse_move(variant: &Variant, position: &Position, text: &str, legal: &[Move]) -> Result<Move, MoveInputError> {
    // Move notation is ASCII; anything else cannot be a move (and must not be sliced).
    let patterns = if text.is_ascii() { patterns(text) } else { Vec::new() };
    if patterns.is_empty() {
        return Err(MoveInputError::Unreadable(text.trim().to_string()));
    }
    let mut found: Vec<Move> = Vec::new();
    for is_fallback in [false, true] {
        for pattern in patterns.iter().filter(|p| p.is_fallback == is_fallback) {
            for mv in legal {
                if matches(variant, position, pattern, mv) && !found.contains(mv) {
                    found.push(*mv);
                }
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(MoveInputError::Illegal(text.trim().to_string())),
        several => Err(MoveInputError::Ambiguous {
            text: text.trim().to_string(),
            options: several
                .iter()
                .map(|&mv| san_body(variant, position, mv, legal))
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    fn setup(fen: &str) -> (std::sync::Arc<Variant>, Position, Vec<Move>) {
        let variant = Variant::fide();
        let position = Position::from_fen(&variant, fen).unwrap();
        let legal = legal_moves(&variant, &position);
        (variant, position, legal)
    }

    fn read(fen: &str, text: &str) -> Result<String, MoveInputError> {
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
            MoveInputError::Ambiguous { options, .. } => assert_eq!(options.len(), 4),
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
        assert!(matches!(read(fen, "Ra3"), Err(MoveInputError::Ambiguous { .. })));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(matches!(read(START, "e5"), Err(MoveInputError::Illegal(_))));
        assert!(matches!(read(START, "hello"), Err(MoveInputError::Unreadable(_))));
        assert!(matches!(read(START, ""), Err(MoveInputError::Unreadable(_))));
        let lower_b = "4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1";
        // `bb3`: the b-pawn's push or the bishop? Only the pawn reaches b3 from b2... and the
        // bishop on c1 does not: one reading is legal.
        assert_eq!(read(lower_b, "b3").unwrap(), "b3");
        assert_eq!(read(lower_b, "bd2").unwrap(), "Bd2");
        // A b-pawn capture stays a pawn capture even where a bishop could capture there too.
        assert_eq!(read("4k3/8/8/4b3/1p6/2P5/8/4K3 b - - 0 1", "bxc3").unwrap(), "bxc3");
        assert!(matches!(read(START, "\u{df}6"), Err(MoveInputError::Unreadable(_))));
        let msg = read(START, "hello").unwrap_err().to_string();
        assert!(msg.contains("expected a move"), "{msg}");
    }
}
