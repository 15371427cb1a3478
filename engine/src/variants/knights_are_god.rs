//! Knights are God (rules page docs/rules/knights-are-god.md):
//! knights leap (1,3) like camels, and every other friendly unit but the king that a knight
//! guards (stands a camel leap from) may also move and capture as an ordinary (2,1) knight. The
//! relay is judged in each position afresh, for moves, checks and pins alike.

use crate::attacks::relative_rank;
use crate::chess_move::{LastMove, Move};
use crate::geometry::{BoardSize, Square};
use crate::movegen::push_move;
use crate::piece::{Color, Piece};
use crate::position::{Board, Position};
use crate::rules::Rules;
use crate::seat::{Seat, Viewer};
use crate::variant_file::Variant;
use crate::view::{Mark, MarkKind, Tone};

/// The rules hooks of Knights are God.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnightsAreGod;

/// The catalogue id of the game's knight (a camel that looks like a knight).
const KNIGHT: &str = "ubc-knight";

const CAMEL_LEAPS: [(i8, i8); 8] = [(1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1)];
const KNIGHT_LEAPS: [(i8, i8); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];

fn is_knight(variant: &Variant, piece: Piece) -> bool {
    variant.piece(piece.kind).def.id == KNIGHT
}

/// Whether `piece` may borrow the knight move: not a knight, not a royal piece.
fn may_relay(variant: &Variant, piece: Piece) -> bool {
    !is_knight(variant, piece) && !variant.is_royal(piece.kind, piece.color)
}

/// Whether a knight of `color` stands a camel leap from `square` (a pinned knight guards too).
fn is_guarded(variant: &Variant, board: &Board, square: Square, color: Color) -> bool {
    CAMEL_LEAPS.iter().any(|&(df, dr)| {
        board
            .size()
            .offset(square, df, dr)
            .and_then(|from| board.piece_at(from))
            .is_some_and(|p| p.color == color && is_knight(variant, p))
    })
}

/// Whether a relayed knight move of `piece` may end on `to`: a pawn never on its own first rank.
fn may_land(variant: &Variant, size: BoardSize, piece: Piece, to: Square) -> bool {
    !variant.piece(piece.kind).def.is_pawn || relative_rank(size, piece.color, to) != 1
}

impl Rules for KnightsAreGod {
    /// A knight move written as FIDE knights move: the refusal says how these knights leap.
    fn refusal(&self, variant: &Variant, _: &Position, text: &str) -> Option<String> {
        // Only a knight's move to a square: other text keeps the plain answer.
        let written = text.trim_end_matches(['+', '#', '!', '?']);
        let destination = written.get(written.len().checked_sub(2)?..)?;
        variant.size.parse_square(destination)?;
        text.starts_with(['N', 'n']).then(|| {
            format!(
                "{text} is not a legal move here: knights in this game leap only (1,3), like a camel (from b1: \
                 a4, c4 or e2); the units they guard may move as ordinary knights (a pawn's knight move is written \
                 like Pd4)"
            )
        })
    }

    fn extra_moves(&self, variant: &Variant, position: &Position, from: Square, piece: Piece, out: &mut Vec<Move>) {
        let board = &position.board;
        if !may_relay(variant, piece) || !is_guarded(variant, board, from, piece.color) {
            return;
        }
        for (df, dr) in KNIGHT_LEAPS {
            let Some(to) = board.size().offset(from, df, dr) else {
                continue;
            };
            let cell = board.get(to);
            let is_open = cell.is_empty()
                || cell
                    .as_piece()
                    .is_some_and(|p| p.color != piece.color && !variant.piece(p.kind).def.is_uncapturable);
            // A relayed move never makes a double step, so it never allows en passant.
            if is_open && may_land(variant, board.size(), piece, to) {
                push_move(self, variant, position, piece, Move::new(from, to), out);
            }
        }
    }

    fn extra_attack(&self, variant: &Variant, position: &Position, target: Square, by: Color) -> bool {
        let board = &position.board;
        KNIGHT_LEAPS.iter().any(|&(df, dr)| {
            board
                .size()
                .offset(target, -df, -dr)
                .and_then(|from| board.piece_at(from).map(|piece| (from, piece)))
                .is_some_and(|(from, piece)| {
                    piece.color == by
                        && may_relay(variant, piece)
                        && may_land(variant, board.size(), piece, target)
                        && is_guarded(variant, board, from, by)
                })
        })
    }

    /// On the image of the side to move: the units that may move as knights now.
    fn marks(&self, variant: &Variant, position: &Position, _: Option<&LastMove>, viewer: Viewer) -> Vec<Mark> {
        let mover = position.turn;
        if viewer != Viewer::Seat(Seat::of_color(mover)) {
            return Vec::new();
        }
        let board = &position.board;
        board
            .pieces()
            .filter(|&(square, piece)| {
                piece.color == mover && may_relay(variant, piece) && is_guarded(variant, board, square, mover)
            })
            .map(|(square, _)| Mark {
                square,
                kind: MarkKind::Ring(Tone::Highlight),
                meaning: "Ringed: may also move as a knight now (a knight of yours guards it)".into(),
            })
            .collect()
    }
}
