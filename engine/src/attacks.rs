//! Whether a square is attacked by the pieces' own movement, for any piece a variant defines,
//! and the geometry the generator shares with it.

use crate::attack_index::KindSet;
use crate::betza::{MoveRule, Offset, Travel};
use crate::geometry::{BoardSize, Square};
use crate::piece::{Cell, Color, Kind, Piece, Promotion};
use crate::position::Board;
use crate::variant_file::Variant;

pub use crate::variant_file::relative_rank;

#[inline]
pub(crate) fn offset(size: BoardSize, from: Square, o: Offset) -> Option<Square> {
    size.offset(from, o.df, o.dr)
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
        .is_some_and(|p| p.color != by && !variant.table.is_uncapturable(p.kind))
}

/// Whether `cell` holds a piece of `by` whose kind is in `kinds`.
#[inline]
fn holds(cell: Cell, by: Color, kinds: KindSet) -> bool {
    cell.has_color(by) && cell.as_piece().is_some_and(|p| kinds & (1 << p.kind) != 0)
}

/// Whether a piece of `by` attacks `target` with its own movement: could capture there if an
/// enemy piece stood on it. Variants' extra attacks come on top (see [`crate::rules::Rules`]).
pub fn pieces_attack(variant: &Variant, board: &Board, target: Square, by: Color) -> bool {
    debug_assert_eq!(board.size(), variant.size);
    let map = &variant.attack_map;
    if map
        .leaps(by, target)
        .iter()
        .any(|&(from, kinds)| holds(board.get(from), by, kinds))
    {
        return true;
    }
    for (line, kinds) in map.lines(by, target) {
        if let Some(&from) = line.iter().find(|&&sq| !board.get(sq).is_empty())
            && holds(board.get(from), by, kinds)
        {
            return true;
        }
    }
    let rays = &variant.rays;
    for (rule, kinds) in map.other_leaps(by) {
        if let Some(from) = rays.next(target, rule.step.flipped())
            && holds(board.get(from), by, *kinds)
            && is_path_clear(board, from, &rule.path)
            && (!rule.is_initial_only || is_initial_square(variant, by, from))
        {
            return true;
        }
    }
    let index = variant.table.attacks(by);
    for (kind, rule) in index.others() {
        let attacker = Cell::piece(Piece::new(*kind, by));
        let is_attacker = |sq: Square| board.get(sq).unmarked() == attacker;
        let line = rays.along(target, rule.step.flipped());
        let mut occupied = line.iter().enumerate().filter(|&(_, &sq)| !board.get(sq).is_empty());
        let found = match rule.travel {
            Travel::Leap => false,
            Travel::Ride { range } => occupied.next().is_some_and(|(at, &from)| {
                let steps = at as u8 + 1;
                (range == 0 || steps <= range)
                    && is_attacker(from)
                    && ride_paths_clear(board, from, rule, steps)
                    && (!rule.is_initial_only || is_initial_square(variant, by, from))
            }),
            // A cannon attacks over exactly one screen.
            Travel::Hop => occupied.nth(1).is_some_and(|(_, &from)| is_attacker(from)),
            // A grasshopper lands right beyond its hurdle: the hurdle is next to the target.
            Travel::Grasshop => {
                matches!(occupied.next(), Some((0, _))) && occupied.next().is_some_and(|(_, &from)| is_attacker(from))
            }
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
