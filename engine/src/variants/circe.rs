//! Circe Chess, the club's version (rules page docs/rules/circe.md): a
//! captured unit is reborn at once on a square its capturer chooses, as part of the capturing
//! move. Each rebirth square makes its own move (`Bxd5(a4)`), so legality and mate are judged
//! after the rebirth, and a rebirth can block a check.

use crate::chess_move::{LastMove, Made, Move};
use crate::geometry::Square;
use crate::piece::{Cell, Color, Piece};
use crate::position::Position;
use crate::rules::Rules;
use crate::seat::Viewer;
use crate::variant_file::Variant;
use crate::view::{Mark, MarkKind, Tone};

/// The rules hooks of Circe Chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Circe;

/// Where a captured unit of `color` may be reborn, by its type's id; none for a type without
/// rebirth squares (it is removed).
fn rebirth_squares(variant: &Variant, id: &str, color: Color) -> Vec<Square> {
    let size = variant.size;
    let home = if color == Color::White { 0 } else { size.ranks - 1 };
    let on_home = |files: &[u8]| files.iter().map(|&f| Square::new(f, home)).collect();
    match id {
        "rook" => on_home(&[0, size.files - 1]),
        "knight" => on_home(&[1, size.files - 2]),
        "bishop" => on_home(&[2, size.files - 3]),
        "queen" => on_home(&[3]),
        // A pawn: any square of its owner's relative ranks 5 to 7.
        "pawn" => (5..=7u8)
            .flat_map(|relative| {
                let rank = if color == Color::White {
                    relative - 1
                } else {
                    size.ranks - relative
                };
                (0..size.files).map(move |file| Square::new(file, rank))
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl Rules for Circe {
    /// A capture written with a rebirth square the unit may not take: the rule, where the
    /// plain refusal would not say what was wrong with it.
    fn refusal(&self, variant: &Variant, _: &Position, text: &str) -> Option<String> {
        let (capture, rest) = text.split_once('(')?;
        let square = rest.trim_end_matches(['+', '#', '!', '?']).strip_suffix(')')?;
        variant.size.parse_square(square)?;
        capture.contains('x').then(|| {
            format!(
                "{text}: the captured unit cannot be reborn on {square}. A piece is reborn on a home square \
                 of its kind (a rook a1/h1, a knight b1/g1, a bishop c1/f1, a queen d1; rank 8 for Black's), \
                 a pawn on any empty square of its owner's 5th to 7th rank (ranks 5-7 for White's, 4-2 for \
                 Black's); write the capture without brackets to see the choices"
            )
        })
    }

    /// A capture becomes one move per free rebirth square (or stays one move, the unit removed,
    /// when none is free).
    fn finish_move(&self, variant: &Variant, position: &Position, mv: Move, out: &mut Vec<Move>) {
        let board = &position.board;
        let Some(victim_square) = mv.captured_square(board) else {
            out.push(mv);
            return;
        };
        let Some(victim) = board.piece_at(victim_square) else {
            out.push(mv);
            return;
        };
        let is_free = |square: Square| {
            square != mv.landing() && (board.get(square).is_empty() || square == mv.from || square == victim_square)
        };
        let id = &variant.piece(victim.kind).def.id;
        let before = out.len();
        for square in rebirth_squares(variant, id, victim.color) {
            if is_free(square) {
                out.push(Move {
                    choice: Some(square),
                    ..mv
                });
            }
        }
        if out.len() == before {
            out.push(mv);
        }
    }

    /// The captured unit is reborn on the chosen square; a rook reborn on its corner counts as
    /// unmoved, so its side may castle with it again while its king has not moved.
    fn after_move(&self, variant: &Variant, position: &mut Position, mv: &Move, made: &Made) {
        let (Some(square), Some((_, victim))) = (mv.choice, made.captures[0]) else {
            return;
        };
        let reborn = Piece {
            is_marked: false,
            ..victim
        };
        position.board.set(square, Cell::piece(reborn));
        let color = victim.color;
        let is_rook = variant.piece(victim.kind).def.id == "rook";
        let home = if color == Color::White {
            0
        } else {
            variant.size.ranks - 1
        };
        if is_rook && variant.def.castling && position.kings_unmoved[color.index()] && square.rank() == home {
            let is_king_side = square.file() == variant.size.files - 1;
            if square.file() == 0 || is_king_side {
                position.castling.set(color, is_king_side, true);
                position.drop_impossible_castling(&variant.table);
            }
        }
    }

    fn marks(&self, _: &Variant, _: &Position, last: Option<&LastMove>, _: Viewer) -> Vec<Mark> {
        last.and_then(|last| last.choice)
            .map(|square| Mark {
                square,
                kind: MarkKind::Ring(Tone::Highlight),
                meaning: "Ringed: where the unit captured last was reborn".into(),
            })
            .into_iter()
            .collect()
    }
}
