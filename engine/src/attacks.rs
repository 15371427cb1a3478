//! Whether a square is attacked by the pieces' own movement, for any piece a variant defines,
//! and the geometry the generator shares with it.

use crate::attack_index::KindSet;
use crate::betza::{MoveRule, Offset, Travel};
use crate::geometry::{BoardSize, Square};
use crate::piece::{Cell, Color, Kind, Piece, Promotion};
use crate::position::Board;
use crate::variant_file::Variant;

/// The rank of `square` counted from `color`'s side, starting at 1.
pub fn relative_rank(size: BoardSize, color: Color, square: Square) -> u8 {
    match color {
        Color::White => square.rank() + 1,
        Color::Black => size.ranks - square.rank(),
    }
}

#[inline]
pub(crate) fn offset(size: BoardSize, from: Square, o: Offset) -> Option<Square> {
    size.offset(from, o.df, o.dr)
}

#[inline]
fn back(size: BoardSize, from: Square, o: Offset) -> Option<Square> {
    size.offset(from, -o.df, -o.dr)
}

/// Whether every square of a lame or multi-leg path from `origin` is on the board and empty.
#[inline]
pub(crate) fn is_path_clear(board: &Board, origin: Square, path: &[Offset]) -> bool {
    path.iter()
        .all(|&o| offset(board.size(), origin, o).is_some_and(|sq| board.get(sq).is_empty()))
}

#[inline]
pub(crate) fn is_initial_square(variant: &Variant, color: Color, square: Square) -> bool {
    variant
        .def
        .initial_move_ranks
        .contains(&relative_rank(variant.size, color, square))
}

/// Whether a piece of `kind` standing on `square` must promote.
pub fn promotes_on(variant: &Variant, kind: Kind, color: Color, square: Square) -> bool {
    match variant.piece(kind).def.promotion {
        Promotion::Never => false,
        Promotion::LastRank => relative_rank(variant.size, color, square) == variant.size.ranks,
        Promotion::RelativeRank(rank) => relative_rank(variant.size, color, square) == rank,
    }
}

/// Whether a piece of `by` could capture on a square holding `cell`.
#[inline]
pub(crate) fn is_capturable(variant: &Variant, cell: Cell, by: Color) -> bool {
    cell.as_piece()
        .is_some_and(|p| p.color != by && !variant.piece(p.kind).def.is_uncapturable)
}

/// Whether `cell` holds a piece of `by` whose kind is in `kinds`.
#[inline]
fn holds(cell: Cell, by: Color, kinds: KindSet) -> bool {
    cell.has_color(by) && cell.as_piece().is_some_and(|p| kinds & (1 << p.kind) != 0)
}

/// Whether a piece of `by` attacks `target` with its own movement: could capture there if an
/// enemy piece stood on it. Variants' extra attacks come on top (see [`crate::rules::Rules`]).
pub fn pieces_attack(variant: &Variant, board: &Board, target: Square, by: Color) -> bool {
    let size = board.size();
    let index = variant.table.attacks(by);
    for (rule, kinds) in index.leaps() {
        if let Some(from) = back(size, target, rule.step)
            && holds(board.get(from), by, *kinds)
            && is_path_clear(board, from, &rule.path)
            && (!rule.is_initial_only || is_initial_square(variant, by, from))
        {
            return true;
        }
    }
    for &(step, kinds) in index.rays() {
        let mut square = target;
        while let Some(from) = back(size, square, step) {
            let cell = board.get(from);
            if !cell.is_empty() {
                if holds(cell, by, kinds) {
                    return true;
                }
                break;
            }
            square = from;
        }
    }
    for (kind, rule) in index.others() {
        let attacker = Cell::piece(Piece::new(*kind, by));
        let is_attacker = |sq: Square| board.get(sq).unmarked() == attacker;
        let found = match rule.travel {
            Travel::Leap => false,
            Travel::Ride { range } => {
                let mut square = target;
                let mut steps = 0u8;
                let mut found = false;
                while let Some(from) = back(size, square, rule.step) {
                    steps += 1;
                    if range != 0 && steps > range {
                        break;
                    }
                    if !board.get(from).is_empty() {
                        found = is_attacker(from)
                            && ride_paths_clear(board, from, rule, steps)
                            && (!rule.is_initial_only || is_initial_square(variant, by, from));
                        break;
                    }
                    square = from;
                }
                found
            }
            Travel::Hop => {
                let mut square = target;
                let mut has_screen = false;
                let mut found = false;
                while let Some(from) = back(size, square, rule.step) {
                    square = from;
                    if board.get(from).is_empty() {
                        continue;
                    }
                    if has_screen {
                        found = is_attacker(from);
                        break;
                    }
                    has_screen = true;
                }
                found
            }
            Travel::Grasshop => match back(size, target, rule.step) {
                Some(hurdle) if !board.get(hurdle).is_empty() => {
                    let mut square = hurdle;
                    let mut found = false;
                    while let Some(from) = back(size, square, rule.step) {
                        square = from;
                        if !board.get(from).is_empty() {
                            found = is_attacker(from);
                            break;
                        }
                    }
                    found
                }
                _ => false,
            },
        };
        if found {
            return true;
        }
    }
    false
}

/// For lame riders: the inner squares of each of `steps` steps from `from` are empty.
fn ride_paths_clear(board: &Board, from: Square, rule: &MoveRule, steps: u8) -> bool {
    if rule.path.is_empty() {
        return true;
    }
    let mut origin = from;
    for _ in 0..steps {
        if !is_path_clear(board, origin, &rule.path) {
            return false;
        }
        match offset(board.size(), origin, rule.step) {
            Some(next) => origin = next,
            None => return false,
        }
    }
    true
}
