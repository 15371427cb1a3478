//! The one move generator and attack detector, for any piece a variant defines.
//!
//! Variants differ through their data (pieces, castling, en passant, promotion) and through the
//! game layer built on top (extra actions, side effects, end conditions); nothing here is copied
//! per variant.

use crate::betza::{MoveRule, Offset, Travel};
use crate::geometry::{BoardSize, Square};
use crate::piece::{Cell, Color, Kind, Piece, Promotion};
use crate::position::{Board, Position};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};

/// What a move does beyond lifting a piece from one square and putting it on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Special {
    Normal,
    /// A pawn's initial two-square step, which may allow en passant.
    DoubleStep,
    /// Captures the pawn beside the destination that just made a double step.
    EnPassant,
    Castle {
        rook_from: Square,
        rook_to: Square,
    },
}

/// A move of a chess-like game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Kind>,
    pub special: Special,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
            special: Special::Normal,
        }
    }
    /// The square of the piece this move captures, if it captures.
    pub fn captured_square(&self, board: &Board) -> Option<Square> {
        match self.special {
            Special::EnPassant => Some(Square::new(self.to.file(), self.from.rank())),
            Special::Castle { .. } => None,
            _ => board.piece_at(self.to).map(|_| self.to),
        }
    }
    pub fn is_capture(&self, board: &Board) -> bool {
        self.captured_square(board).is_some()
    }
}

/// The rank of `square` counted from `color`'s side, starting at 1.
pub fn relative_rank(size: BoardSize, color: Color, square: Square) -> u8 {
    match color {
        Color::White => square.rank() + 1,
        Color::Black => size.ranks - square.rank(),
    }
}

fn offset(size: BoardSize, from: Square, o: Offset) -> Option<Square> {
    size.offset(from, o.df, o.dr)
}

fn back(size: BoardSize, from: Square, o: Offset) -> Option<Square> {
    size.offset(from, -o.df, -o.dr)
}

/// Whether every square of a lame or multi-leg path from `origin` is on the board and empty.
#[inline]
fn is_path_clear(board: &Board, origin: Square, path: &[Offset]) -> bool {
    path.iter()
        .all(|&o| offset(board.size(), origin, o).is_some_and(|sq| board.get(sq).is_empty()))
}

fn is_initial_square(variant: &Variant, color: Color, square: Square) -> bool {
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
fn is_capturable(variant: &Variant, cell: Cell, by: Color) -> bool {
    cell.as_piece()
        .is_some_and(|p| p.color != by && !variant.piece(p.kind).def.is_uncapturable)
}

/// Destinations of one piece's move rules, as (destination, rule) pairs, ignoring castling,
/// en passant and promotion: the common core of move generation and of piece diagrams.
pub fn rule_targets(
    variant: &Variant,
    board: &Board,
    from: Square,
    piece: Piece,
    mut visit: impl FnMut(Square, &MoveRule),
) {
    let size = board.size();
    for rule in variant.piece(piece.kind).rules(piece.color) {
        if rule.is_initial_only && !is_initial_square(variant, piece.color, from) {
            continue;
        }
        let land = |to: Square, visit: &mut dyn FnMut(Square, &MoveRule)| {
            let cell = board.get(to);
            if (cell.is_empty() && rule.can_move) || (rule.can_capture && is_capturable(variant, cell, piece.color)) {
                visit(to, rule);
            }
        };
        match rule.travel {
            Travel::Leap => {
                if let Some(to) = offset(size, from, rule.step)
                    && is_path_clear(board, from, &rule.path)
                {
                    land(to, &mut visit);
                }
            }
            Travel::Ride { range } => {
                let mut origin = from;
                let mut steps = 0u8;
                while range == 0 || steps < range {
                    steps += 1;
                    if !is_path_clear(board, origin, &rule.path) {
                        break;
                    }
                    let Some(to) = offset(size, origin, rule.step) else {
                        break;
                    };
                    land(to, &mut visit);
                    if !board.get(to).is_empty() {
                        break;
                    }
                    origin = to;
                }
            }
            Travel::Hop => {
                let mut square = from;
                let mut has_screen = false;
                while let Some(to) = offset(size, square, rule.step) {
                    square = to;
                    let is_occupied = !board.get(to).is_empty();
                    if has_screen {
                        land(to, &mut visit);
                        if is_occupied {
                            break;
                        }
                    } else if is_occupied {
                        has_screen = true;
                    }
                }
            }
            Travel::Grasshop => {
                let mut square = from;
                while let Some(to) = offset(size, square, rule.step) {
                    square = to;
                    if !board.get(to).is_empty() {
                        if let Some(landing) = offset(size, to, rule.step) {
                            land(landing, &mut visit);
                        }
                        break;
                    }
                }
            }
        }
    }
}

/// Appends a move, expanded into one move per promotion choice where the piece must promote.
fn push_move(variant: &Variant, piece: Piece, mv: Move, out: &mut Vec<Move>) {
    if !variant.promotion_kinds.is_empty() && promotes_on(variant, piece.kind, piece.color, mv.to) {
        for &kind in &variant.promotion_kinds {
            out.push(Move {
                promotion: Some(kind),
                ..mv
            });
        }
    } else {
        out.push(mv);
    }
}

/// The moves of the piece on `from`, without checking whether they leave a royal attacked.
pub fn piece_moves(variant: &Variant, position: &Position, from: Square, out: &mut Vec<Move>) {
    let board = &position.board;
    let Some(piece) = board.piece_at(from) else {
        return;
    };
    let piece_type = variant.piece(piece.kind);
    let def = &piece_type.def;
    let first = out.len();
    rule_targets(variant, board, from, piece, |to, rule| {
        let special = if def.is_pawn && rule.is_initial_only && rule.step.df == 0 && rule.step.dr.abs() == 2 {
            Special::DoubleStep
        } else {
            Special::Normal
        };
        push_move(
            variant,
            piece,
            Move {
                from,
                to,
                promotion: None,
                special,
            },
            out,
        );
    });
    // Pieces whose rules overlap (a multi-leg move with two paths to one square) would list a
    // destination twice.
    if piece_type.has_overlapping_rules() {
        let mut seen = Vec::new();
        let mut index = first;
        while index < out.len() {
            let key = (out[index].to, out[index].promotion);
            if seen.contains(&key) {
                out.remove(index);
            } else {
                seen.push(key);
                index += 1;
            }
        }
    }
    // En passant: a pawn's capture-only leap onto the square a double step skipped.
    if let Some(target) = position.en_passant.filter(|_| def.is_pawn && variant.def.en_passant) {
        for rule in variant.piece(piece.kind).rules(piece.color) {
            let is_capture_leap = rule.travel == Travel::Leap && rule.can_capture && !rule.can_move;
            if is_capture_leap && offset(board.size(), from, rule.step) == Some(target) && board.get(target).is_empty()
            {
                let victim = Square::new(target.file(), from.rank());
                if board
                    .get(victim)
                    .as_piece()
                    .is_some_and(|v| v.color != piece.color && variant.piece(v.kind).def.is_pawn)
                {
                    push_move(
                        variant,
                        piece,
                        Move {
                            from,
                            to: target,
                            promotion: None,
                            special: Special::EnPassant,
                        },
                        out,
                    );
                }
            }
        }
    }
}

/// The rook a side may castle with on one wing, if the variant castles and both pieces stand in
/// place: the royal on its first rank, an own non-royal piece in that corner.
pub fn castling_rook(variant: &Variant, position: &Position, color: Color, is_king_side: bool) -> Option<Square> {
    if !variant.def.castling {
        return None;
    }
    let king = position.royals[color.index()]?;
    let rank = if color == Color::White {
        0
    } else {
        variant.size.ranks - 1
    };
    let corner = Square::new(if is_king_side { variant.size.files - 1 } else { 0 }, rank);
    let rook = position.board.piece_at(corner)?;
    let is_partner =
        rook.color == color && Some(rook.kind) != variant.royal_kind && !variant.piece(rook.kind).def.is_pawn;
    let is_between = if is_king_side {
        king.file() < corner.file()
    } else {
        king.file() > corner.file()
    };
    (king.rank() == rank && is_partner && is_between).then_some(corner)
}

fn castling_moves(variant: &Variant, position: &Position, out: &mut Vec<Move>) {
    let color = position.turn;
    let Some(king) = position.royals[color.index()] else {
        return;
    };
    let board = &position.board;
    for is_king_side in [true, false] {
        if !position.castling.has(color, is_king_side) {
            continue;
        }
        let Some(rook_from) = castling_rook(variant, position, color, is_king_side) else {
            continue;
        };
        let files = variant.size.files;
        let (king_file, rook_file) = if is_king_side { (files - 2, files - 3) } else { (2, 3) };
        let king_to = Square::new(king_file, king.rank());
        let rook_to = Square::new(rook_file, king.rank());
        let (low, high) = (king.file().min(rook_from.file()), king.file().max(rook_from.file()));
        let is_clear = (low + 1..high).all(|f| board.get(Square::new(f, king.rank())).is_empty());
        let lands_free = [king_to, rook_to]
            .iter()
            .all(|&sq| sq == king || sq == rook_from || board.get(sq).is_empty());
        if !is_clear || !lands_free {
            continue;
        }
        let (walk_low, walk_high) = (king.file().min(king_file), king.file().max(king_file));
        let is_safe =
            (walk_low..=walk_high).all(|f| !is_attacked(variant, board, Square::new(f, king.rank()), color.other()));
        if is_safe {
            out.push(Move {
                from: king,
                to: king_to,
                promotion: None,
                special: Special::Castle { rook_from, rook_to },
            });
        }
    }
}

/// Every move of the side to move, without checking whether it leaves its royal attacked.
pub fn pseudo_legal_moves(variant: &Variant, position: &Position, out: &mut Vec<Move>) {
    for square in variant.size.squares() {
        if position.board.get(square).has_color(position.turn) {
            piece_moves(variant, position, square, out);
        }
    }
    castling_moves(variant, position, out);
}

/// Whether a piece of `by` attacks `target`: could capture there if an enemy piece stood on it.
pub fn is_attacked(variant: &Variant, board: &Board, target: Square, by: Color) -> bool {
    let size = board.size();
    for (index, piece_type) in variant.pieces.iter().enumerate() {
        let attacker = Cell::piece(Piece::new(index as Kind, by));
        let is_attacker = |sq: Square| board.get(sq).unmarked() == attacker;
        for rule in piece_type.rules(by).iter().filter(|r| r.can_capture) {
            let found = match rule.travel {
                Travel::Leap => back(size, target, rule.step).is_some_and(|from| {
                    is_attacker(from)
                        && is_path_clear(board, from, &rule.path)
                        && (!rule.is_initial_only || is_initial_square(variant, by, from))
                }),
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
                            found = is_attacker(from) && ride_paths_clear(board, from, rule, steps);
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

/// Whether `color`'s royal piece is attacked. A side without a royal is never in check.
pub fn is_in_check(variant: &Variant, position: &Position, color: Color) -> bool {
    position.royals[color.index()].is_some_and(|sq| is_attacked(variant, &position.board, sq, color.other()))
}

/// Plays a move that the generator produced, without checking it. Returns the captured piece and
/// its square.
pub fn make_move(variant: &Variant, position: &mut Position, mv: Move) -> Option<(Square, Piece)> {
    let board = &mut position.board;
    let moving = board.piece_at(mv.from).expect("a move starts on a piece");
    let color = moving.color;
    let captured = mv
        .captured_square(board)
        .and_then(|sq| board.piece_at(sq).map(|p| (sq, p)));
    if let Some((square, _)) = captured {
        board.set(square, Cell::EMPTY);
    }
    board.set(mv.from, Cell::EMPTY);
    if let Special::Castle { rook_from, rook_to } = mv.special {
        let rook = board.get(rook_from);
        board.set(rook_from, Cell::EMPTY);
        board.set(rook_to, rook);
    }
    let placed = Piece {
        kind: mv.promotion.unwrap_or(moving.kind),
        ..moving
    };
    board.set(mv.to, Cell::piece(placed));

    if Some(moving.kind) == variant.royal_kind {
        position.castling.clear_color(color);
        position.royals[color.index()] = Some(mv.to);
    }
    if let Some((_, victim)) = captured
        && Some(victim.kind) == variant.royal_kind
    {
        position.royals[victim.color.index()] = None;
    }
    for corner_color in Color::BOTH {
        let rank = if corner_color == Color::White {
            0
        } else {
            variant.size.ranks - 1
        };
        for (is_king_side, file) in [(true, variant.size.files - 1), (false, 0)] {
            let corner = Square::new(file, rank);
            if mv.from == corner || mv.to == corner {
                position.castling.set(corner_color, is_king_side, false);
            }
        }
    }
    position.en_passant = match mv.special {
        Special::DoubleStep if variant.def.en_passant => {
            Some(Square::new(mv.from.file(), (mv.from.rank() + mv.to.rank()) / 2))
        }
        _ => None,
    };
    let is_pawn = variant.piece(moving.kind).def.is_pawn;
    position.halfmove_clock = if is_pawn || captured.is_some() {
        0
    } else {
        position.halfmove_clock + 1
    };
    if color == Color::Black {
        position.fullmove_number += 1;
    }
    position.turn = color.other();
    captured
}

/// Whether the side that just moved left its own royal attacked.
pub fn leaves_royal_attacked(variant: &Variant, after: &Position) -> bool {
    is_in_check(variant, after, after.turn.other())
}

/// The legal moves of the side to move.
pub fn legal_moves(variant: &Variant, position: &Position) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    pseudo_legal_moves(variant, position, &mut moves);
    if position.royals[position.turn.index()].is_some() {
        moves.retain(|&mv| {
            let mut after = position.clone();
            make_move(variant, &mut after, mv);
            !leaves_royal_attacked(variant, &after)
        });
    }
    moves
}

/// Counts the leaf nodes of the legal move tree to `depth`.
pub fn perft(variant: &Variant, position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(variant, position);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut after = position.clone();
            make_move(variant, &mut after, mv);
            perft(variant, &after, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;
    use crate::piece::PieceDef;
    use crate::variant::{PieceSpec, VariantDef};

    /// A one-piece variant on an empty board, to count a catalogue piece's moves.
    fn lone_piece_moves(piece: &PieceDef, files: u8, square: &str) -> usize {
        let def = VariantDef {
            id: "lone".into(),
            name: "lone".into(),
            files,
            ranks: files,
            start: vec![files.to_string(); files as usize].join("/"),
            pieces: vec![PieceSpec::Inline(PieceDef {
                is_royal: false,
                promotion: Promotion::Never,
                ..piece.clone()
            })],
            castling: false,
            en_passant: false,
            initial_move_ranks: vec![2],
            promotion_choices: vec![],
            draws: Default::default(),
            stalemate: Default::default(),
        };
        let variant = Variant::compile(def).unwrap();
        let mut position = variant.start_position();
        let from = variant.size.parse_square(square).unwrap();
        position.board.set(from, Cell::piece(Piece::new(0, Color::White)));
        let mut moves = Vec::new();
        piece_moves(&variant, &position, from, &mut moves);
        moves.len()
    }

    #[test]
    fn every_catalogue_piece_has_its_move_count_on_an_empty_board() {
        let expected_8x8_d4 = [
            ("king", 8),
            ("queen", 27),
            ("rook", 14),
            ("bishop", 13),
            ("knight", 8),
            ("pawn", 1),
            ("ubc-king", 12),
            ("ubc-queen", 8),
            ("ubc-knight", 8),
            ("ubc-pawn", 2),
            ("blockade-queen", 27),
            ("blockade-rook", 14),
            ("blockade-bishop", 13),
        ];
        // Pick-the-team pieces on 10x10 from e5, in the numbered order of RULES.md.
        let expected_10x10_e5 = [
            8, 8, 35, 18, 8, 17, 16, 18, 8, 16, 25, 26, 4, 4, 8, 4, 12, 4, 8, 0, 1, 1, 2, 2, 1, 1, 2, 2, 5, 5, 6, 6, 5,
            5, 9, 9, 2, 2, 3, 3,
        ];
        for (id, count) in expected_8x8_d4 {
            let piece = catalogue::find(id).unwrap();
            assert_eq!(lone_piece_moves(&piece, 8, "d4"), count, "{id}");
        }
        let ptt = catalogue::pick_the_team_pieces();
        assert_eq!(ptt.len(), expected_10x10_e5.len());
        for (piece, count) in ptt.iter().zip(expected_10x10_e5) {
            assert_eq!(lone_piece_moves(piece, 10, "e5"), count, "{}", piece.id);
        }
        let covered = expected_8x8_d4.len() + ptt.len();
        assert_eq!(
            covered,
            catalogue::all().len(),
            "every catalogue entry has an expected count"
        );
    }
}
