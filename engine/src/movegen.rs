//! The one move generator, for any piece a variant defines.
//!
//! Variants differ through their data (pieces, castling, en passant, promotion) and through the
//! hooks of their [`Rules`] (extra moves and attacks, what a move does after it lands, the last
//! word on legality); nothing here is copied per variant.

use crate::attacks::{is_capturable, is_path_clear, offset, promotes_on};
use crate::betza::{MoveRule, Travel};
use crate::chess_move::{Made, Move, Special};
use crate::geometry::Square;
use crate::piece::{Cell, Color, MultiStep, Piece, Promotion};
use crate::position::{Board, Position};
use crate::rules::Rules;
use crate::variant_file::Variant;

pub use crate::attacks::relative_rank;

/// Destinations of one piece's move rules, as (destination, rule) pairs, ignoring castling,
/// en passant and promotion: the common core of move generation and of piece diagrams.
pub fn rule_targets(
    variant: &Variant,
    board: &Board,
    from: Square,
    piece: Piece,
    mut visit: impl FnMut(Square, &MoveRule),
) {
    debug_assert_eq!(board.size(), variant.size);
    let map = &variant.move_map;
    let rules = variant.piece(piece.kind).rules(piece.color);
    for reach in map.reaches(piece.kind, piece.color, from) {
        let rule = &rules[usize::from(reach.rule)];
        let land = |to: Square, visit: &mut dyn FnMut(Square, &MoveRule)| {
            let cell = board.get(to);
            if (cell.is_empty() && rule.can_move) || (rule.can_capture && is_capturable(variant, cell, piece.color)) {
                visit(to, rule);
            }
        };
        // The squares the rule reaches on an empty board, within its range.
        let line = map.squares(reach);
        match rule.travel {
            Travel::Leap => {
                if is_path_clear(board, from, &rule.path) {
                    land(line[0], &mut visit);
                }
            }
            Travel::Ride { .. } => {
                let mut origin = from;
                for &to in line {
                    if !rule.path.is_empty() && !is_path_clear(board, origin, &rule.path) {
                        break;
                    }
                    land(to, &mut visit);
                    if !board.get(to).is_empty() {
                        break;
                    }
                    origin = to;
                }
            }
            Travel::Hop => {
                let mut has_screen = false;
                for &to in line {
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
                if let Some(hurdle) = line.iter().position(|&sq| !board.get(sq).is_empty())
                    && let Some(&landing) = line.get(hurdle + 1)
                {
                    land(landing, &mut visit);
                }
            }
        }
    }
}

/// Appends a move, expanded into one move per promotion choice where the piece must promote,
/// each finished by the rules.
#[inline]
pub fn push_move<R: Rules>(
    rules: &R,
    variant: &Variant,
    position: &Position,
    piece: Piece,
    mv: Move,
    out: &mut Vec<Move>,
) {
    if !variant.promotion_kinds.is_empty() && promotes_on(variant, piece.kind, piece.color, mv.to) {
        for &kind in &variant.promotion_kinds {
            rules.finish_move(
                variant,
                position,
                Move {
                    promotion: Some(kind),
                    ..mv
                },
                out,
            );
        }
    } else {
        rules.finish_move(variant, position, mv, out);
    }
}

/// The moves of the piece on `from`, without checking whether they leave a royal attacked.
pub fn piece_moves<R: Rules>(rules: &R, variant: &Variant, position: &Position, from: Square, out: &mut Vec<Move>) {
    moves_of_piece(rules, variant, position, from, Listed::All, out);
}

/// Which moves of a piece to list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listed {
    All,
    /// Those of its leaps and rides that land on a piece of the other side (and the rules' extra
    /// moves, for the caller to sort): never a multi-step, en passant or castling, which land
    /// on an empty square or the side's own.
    Captures,
}

fn moves_of_piece<R: Rules>(
    rules: &R,
    variant: &Variant,
    position: &Position,
    from: Square,
    listed: Listed,
    out: &mut Vec<Move>,
) {
    let board = &position.board;
    let Some(piece) = board.piece_at(from) else {
        return;
    };
    let piece_type = variant.piece(piece.kind);
    let def = &piece_type.def;
    let first = out.len();
    let may_promote = def.promotion != Promotion::Never && !variant.promotion_kinds.is_empty();
    let enemy = piece.color.other();
    rule_targets(variant, board, from, piece, |to, rule| {
        if listed == Listed::Captures && !board.get(to).has_color(enemy) {
            return;
        }
        let special = if def.is_pawn && rule.is_initial_only && rule.step.df == 0 && rule.step.dr.abs() == 2 {
            Special::DoubleStep
        } else {
            Special::Normal
        };
        let mv = Move {
            special,
            ..Move::new(from, to)
        };
        if may_promote {
            push_move(rules, variant, position, piece, mv, out);
        } else {
            rules.finish_move(variant, position, mv, out);
        }
    });
    // Pieces whose rules overlap (a multi-leg move with two paths to one square) would list a
    // destination twice.
    if piece_type.has_overlapping_rules() {
        let mut seen = Vec::new();
        let mut index = first;
        while index < out.len() {
            let key = (out[index].to, out[index].promotion, out[index].choice);
            if seen.contains(&key) {
                out.remove(index);
            } else {
                seen.push(key);
                index += 1;
            }
        }
    }
    if let Some(multi) = def.multi_step.as_ref().filter(|_| listed == Listed::All) {
        multi_steps(rules, variant, position, from, piece, multi, out);
    }
    // En passant: a pawn's capture-only leap onto the square a double step skipped.
    let en_passant = position.en_passant.filter(|_| listed == Listed::All);
    if let Some(target) = en_passant.filter(|_| def.is_pawn && variant.def.en_passant) {
        for rule in piece_type.rules(piece.color) {
            let is_capture_leap = rule.travel == Travel::Leap && rule.can_capture && !rule.can_move;
            if is_capture_leap && offset(board.size(), from, rule.step) == Some(target) && board.get(target).is_empty()
            {
                let victim = Square::new(target.file(), from.rank());
                if board
                    .get(victim)
                    .as_piece()
                    .is_some_and(|v| v.color != piece.color && variant.piece(v.kind).def.is_pawn)
                {
                    let mv = Move {
                        special: Special::EnPassant,
                        ..Move::new(from, target)
                    };
                    push_move(rules, variant, position, piece, mv, out);
                }
            }
        }
    }
    rules.extra_moves(variant, position, from, piece, out);
}

/// A pawn's row-based double and triple steps: non-capturing, every square on the way empty.
fn multi_steps<R: Rules>(
    rules: &R,
    variant: &Variant,
    position: &Position,
    from: Square,
    piece: Piece,
    multi: &MultiStep,
    out: &mut Vec<Move>,
) {
    let steps = multi.steps_from(relative_rank(variant.size, piece.color, from));
    let Some(&longest) = steps.iter().max() else {
        return;
    };
    // Left and right are the owner's: Black's mirror White's.
    let side = if piece.color == Color::White { 1 } else { -1 };
    for df in multi.files().iter().map(|&file| file * side) {
        let mut square = from;
        for count in 1..=longest {
            match variant.size.offset(square, df, piece.color.forward()) {
                Some(next) if position.board.get(next).is_empty() => square = next,
                _ => break,
            }
            if count >= 2 && steps.contains(&count) {
                push_move(rules, variant, position, piece, Move::new(from, square), out);
            }
        }
    }
}

/// The rook a side may castle with on one wing, if the variant castles and both pieces stand in
/// place.
pub fn castling_rook(variant: &Variant, position: &Position, color: Color, is_king_side: bool) -> Option<Square> {
    if !variant.def.castling {
        return None;
    }
    position.castling_rook(&variant.table, color, is_king_side)
}

fn castling_moves<R: Rules>(rules: &R, variant: &Variant, position: &Position, out: &mut Vec<Move>) {
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
        let is_safe = (walk_low..=walk_high)
            .all(|f| !rules.is_attacked(variant, position, Square::new(f, king.rank()), color.other()));
        if is_safe {
            let mv = Move {
                special: Special::Castle { rook_from, rook_to },
                ..Move::new(king, king_to)
            };
            rules.finish_move(variant, position, mv, out);
        }
    }
}

/// Every move of the side to move, without checking whether it leaves its royal attacked.
pub fn pseudo_legal_moves<R: Rules>(rules: &R, variant: &Variant, position: &Position, out: &mut Vec<Move>) {
    for square in variant.size.squares() {
        if position.board.get(square).has_color(position.turn) {
            piece_moves(rules, variant, position, square, out);
        }
    }
    castling_moves(rules, variant, position, out);
}

/// Whether `color` is in check under `rules`.
pub fn is_in_check<R: Rules>(rules: &R, variant: &Variant, position: &Position, color: Color) -> bool {
    rules.is_in_check(variant, position, color)
}

/// Plays a move that the generator produced, without checking it, and says what it did.
#[inline]
pub fn make_move<R: Rules>(rules: &R, variant: &Variant, position: &mut Position, mv: Move) -> Made {
    let board = &mut position.board;
    let moving = board.piece_at(mv.from).expect("a move starts on a piece");
    let color = moving.color;
    let entered = mv
        .captured_square(board)
        .and_then(|sq| board.piece_at(sq).map(|p| (sq, p)));
    if let Some((square, _)) = entered {
        board.set(square, Cell::EMPTY);
    }
    board.set(mv.from, Cell::EMPTY);
    if let Special::Castle { rook_from, rook_to } = mv.special {
        let rook = board.get(rook_from);
        board.set(rook_from, Cell::EMPTY);
        board.set(rook_to, rook);
    }
    let landing = mv.landing();
    let carried_on = match mv.arrival {
        Some(arrival) => board.piece_at(arrival).map(|p| (arrival, p)),
        None => None,
    };
    let placed = Piece {
        kind: mv.promotion.unwrap_or(moving.kind),
        ..moving
    };
    board.set(landing, Cell::piece(placed));
    let made = Made {
        captures: [entered, carried_on],
        arrival: landing,
    };

    if variant.is_royal(moving.kind, color) {
        position.castling.clear_color(color);
        position.kings_unmoved[color.index()] = false;
        position.royals[color.index()] = Some(landing);
    }
    if let Some((_, victim)) = entered
        && variant.is_royal(victim.kind, victim.color)
    {
        position.royals[victim.color.index()] = None;
    }
    if let Some((_, victim)) = carried_on
        && variant.is_royal(victim.kind, victim.color)
    {
        position.royals[victim.color.index()] = None;
    }
    // A move from or onto a corner takes that corner's castling right away.
    for corner_color in Color::BOTH {
        let rank = if corner_color == Color::White {
            0
        } else {
            variant.size.ranks - 1
        };
        for (is_king_side, file) in [(true, variant.size.files - 1), (false, 0)] {
            let corner = Square::new(file, rank);
            if mv.from == corner || mv.to == corner || (mv.arrival.is_some() && landing == corner) {
                position.castling.set(corner_color, is_king_side, false);
            }
        }
    }
    position.en_passant = match mv.special {
        Special::DoubleStep if variant.def.en_passant && mv.arrival.is_none() => {
            Some(Square::new(mv.from.file(), (mv.from.rank() + mv.to.rank()) / 2))
        }
        _ => None,
    };
    let is_pawn = variant.piece(moving.kind).def.is_pawn;
    position.halfmove_clock = if is_pawn || made.has_captured() {
        0
    } else {
        position.halfmove_clock + 1
    };
    if color == Color::Black {
        position.fullmove_number += 1;
    }
    position.turn = color.other();
    rules.after_move(variant, position, &mv, &made);
    made
}

/// The position after `mv`.
pub fn after<R: Rules>(rules: &R, variant: &Variant, position: &Position, mv: Move) -> Position {
    let mut after = position.clone();
    make_move(rules, variant, &mut after, mv);
    after
}

/// The legal moves of the side to move.
pub fn legal_moves<R: Rules>(rules: &R, variant: &Variant, position: &Position) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    pseudo_legal_moves(rules, variant, position, &mut moves);
    legal_among(rules, variant, position, moves, |_| true)
}

/// The legal moves that capture a piece of the other side where they land (en passant aside),
/// in [`legal_moves`]' order: what the computer opponent's quiescence search tries, without
/// testing the quiet moves for legality.
pub fn legal_captures<R: Rules>(rules: &R, variant: &Variant, position: &Position) -> Vec<Move> {
    let enemy = position.turn.other();
    let mut moves = Vec::with_capacity(16);
    for square in variant.size.squares() {
        if position.board.get(square).has_color(position.turn) {
            moves_of_piece(rules, variant, position, square, Listed::Captures, &mut moves);
        }
    }
    legal_among(rules, variant, position, moves, |mv| {
        position.board.get(mv.to).has_color(enemy)
    })
}

/// The legal ones among the pseudo-legal `moves` that `wanted` keeps, in their order.
fn legal_among<R: Rules>(
    rules: &R,
    variant: &Variant,
    position: &Position,
    mut moves: Vec<Move>,
    wanted: impl Fn(&Move) -> bool,
) -> Vec<Move> {
    moves.retain(&wanted);
    if !rules.needs_legality_test(variant, position) {
        return moves;
    }
    let mut pins = Pins::of(rules, variant, position);
    moves.retain(|&mv| is_legal(rules, variant, position, &mut pins, mv));
    moves
}

/// The first legal move from `from` that `wanted` keeps: the one [`legal_moves`] would list
/// first among those, found without listing the other pieces' moves.
pub fn legal_move_from<R: Rules>(
    rules: &R,
    variant: &Variant,
    position: &Position,
    from: Square,
    wanted: impl Fn(&Move) -> bool,
) -> Option<Move> {
    if !position.board.get(from).has_color(position.turn) {
        return None;
    }
    let mut moves = Vec::with_capacity(32);
    piece_moves(rules, variant, position, from, &mut moves);
    castling_moves(rules, variant, position, &mut moves);
    let tested = rules.needs_legality_test(variant, position);
    moves
        .into_iter()
        .filter(|mv| mv.from == from && wanted(mv))
        .find(|&mv| !tested || is_legal(rules, variant, position, &mut None, mv))
}

/// Whether the side to move has a legal en passant capture (what makes the en passant square part
/// of the position, for repetition): [`legal_moves`] lists one exactly when this holds, but here
/// only the pawns beside a pawn of the other side, on the file the double step skipped, are
/// tried.
pub fn has_legal_en_passant<R: Rules>(rules: &R, variant: &Variant, position: &Position) -> bool {
    let Some(target) = position.en_passant.filter(|_| variant.def.en_passant) else {
        return false;
    };
    let is_pawn = |square: Square, color: Color| {
        position
            .board
            .get(square)
            .as_piece()
            .is_some_and(|piece| piece.color == color && variant.piece(piece.kind).def.is_pawn)
    };
    let mover = position.turn;
    variant.size.squares().any(|from| {
        is_pawn(from, mover)
            && is_pawn(Square::new(target.file(), from.rank()), mover.other())
            && legal_move_from(rules, variant, position, from, |mv| mv.special == Special::EnPassant).is_some()
    })
}

/// Whether a pseudo-legal move is legal: judged by `pins` where they can tell, else played.
fn is_legal<R: Rules>(rules: &R, variant: &Variant, position: &Position, pins: &mut Option<Pins>, mv: Move) -> bool {
    if pins.as_mut().is_some_and(|pins| pins.clear(variant, position, &mv)) {
        return true;
    }
    // Cloned and made in place: a position returned by value would be copied once more.
    let mut next = position.clone();
    make_move(rules, variant, &mut next, mv);
    rules.is_legal(variant, position, &mv, &next)
}

/// What finds most moves legal without playing them, where the rules judge a move by the royal's
/// safety alone. While the side to move is not in check, a move of another piece, that takes
/// nothing off another square, is legal if leaving its square opens no line onto the royal. (If it
/// does, the move is played: a pinned piece may still move along its pin.) Adding a piece where it
/// lands can only block a line, unless it lands on a line a hopper of the other side could reach
/// the royal along, where a piece may be a screen or a hurdle: such a move is played. The royal's
/// own plain moves, in check or not, are legal where it would not be attacked.
struct Pins {
    royal: Square,
    enemy: Color,
    exposing: Exposing,
    /// The squares on the lines the other side's hoppers could reach the royal along.
    hopper_lines: SquareSet,
    /// The board with the royal lifted off it, for the royal's own moves (made when first needed).
    without_royal: Option<Board>,
}

/// A set of squares of a board up to 16x16, a bit per square.
#[derive(Default)]
struct SquareSet([u64; 4]);

impl SquareSet {
    fn insert(&mut self, square: Square) {
        self.0[square.index() / 64] |= 1 << (square.index() % 64);
    }
    fn contains(&self, square: Square) -> bool {
        self.0[square.index() / 64] & (1 << (square.index() % 64)) != 0
    }
}

/// Which squares, left, would expose the royal.
enum Exposing {
    /// The royal is in check already: another piece's move must be played to tell whether it
    /// answers the check.
    InCheck,
    /// The other side attacks only by leaps without a path and by open lines: only a piece
    /// between the royal and a rider of that line, alone on it, exposes it (found at once).
    Pinned(Vec<Square>),
    /// Otherwise each square is tested when a move leaves it, and remembered.
    Tested(Vec<(Square, bool)>),
}

impl Pins {
    fn of<R: Rules>(rules: &R, variant: &Variant, position: &Position) -> Option<Pins> {
        if !rules.judges_by_royal_safety_alone() {
            return None;
        }
        let color = position.turn;
        let royal = position.royals[color.index()]?;
        let enemy = color.other();
        let attacks = variant.table.attacks(enemy);
        let mut hopper_lines = SquareSet::default();
        for (_, rule) in attacks.others() {
            if matches!(rule.travel, Travel::Hop | Travel::Grasshop) {
                for &square in variant.rays.along(royal, rule.step.flipped()) {
                    hopper_lines.insert(square);
                }
            }
        }
        let lines_only = attacks.others().is_empty() && attacks.leaps().iter().all(|(rule, _)| rule.path.is_empty());
        let exposing = if crate::attacks::pieces_attack(variant, &position.board, royal, enemy) {
            Exposing::InCheck
        } else if lines_only {
            Exposing::Pinned(pinned(variant, &position.board, royal, enemy))
        } else {
            Exposing::Tested(Vec::with_capacity(16))
        };
        Some(Pins {
            royal,
            enemy,
            exposing,
            hopper_lines,
            without_royal: None,
        })
    }

    /// Whether `mv` is surely legal without being played: false when it must be played to tell.
    fn clear(&mut self, variant: &Variant, position: &Position, mv: &Move) -> bool {
        let is_plain = matches!(mv.special, Special::Normal | Special::DoubleStep) && mv.arrival.is_none();
        let Some(moving) = position.board.piece_at(mv.from) else {
            return false;
        };
        if !is_plain {
            return false;
        }
        if variant.is_royal(moving.kind, moving.color) {
            // The royal is safe where it lands unless that square is attacked once it has left
            // its own (which may have blocked a line through it). What it takes there blocks
            // nothing: an attack on a square never passes through the square itself.
            let without_royal = self.without_royal.get_or_insert_with(|| {
                let mut board = position.board.clone();
                board.set(self.royal, Cell::EMPTY);
                board
            });
            return !crate::attacks::pieces_attack(variant, without_royal, mv.to, self.enemy);
        }
        if self.hopper_lines.contains(mv.to) {
            return false;
        }
        let exposes = match &mut self.exposing {
            Exposing::InCheck => return false,
            Exposing::Pinned(pinned) => pinned.contains(&mv.from),
            Exposing::Tested(tested) => match tested.iter().find(|(square, _)| *square == mv.from) {
                Some(&(_, exposes)) => exposes,
                None => {
                    let mut board = position.board.clone();
                    board.set(mv.from, Cell::EMPTY);
                    let exposes = crate::attacks::pieces_attack(variant, &board, self.royal, self.enemy);
                    tested.push((mv.from, exposes));
                    exposes
                }
            },
        };
        !exposes
    }
}

/// The pieces that alone stand between `royal` and a rider of `enemy` that could take it along
/// their line, were they gone.
fn pinned(variant: &Variant, board: &Board, royal: Square, enemy: Color) -> Vec<Square> {
    let mut pinned = Vec::new();
    for &(step, kinds) in variant.table.attacks(enemy).rays() {
        let mut occupied = variant
            .rays
            .along(royal, step.flipped())
            .iter()
            .filter(|&&sq| !board.get(sq).is_empty());
        if let (Some(&shield), Some(&beyond)) = (occupied.next(), occupied.next())
            && !board.get(shield).has_color(enemy)
            && board
                .get(beyond)
                .as_piece()
                .is_some_and(|p| p.color == enemy && kinds & (1 << p.kind) != 0)
        {
            pinned.push(shield);
        }
    }
    pinned
}

/// Whether the side to move has a legal move: [`legal_moves`] stopped at the first one found
/// (what judging mate and stalemate after every move needs), piece by piece.
pub fn has_legal_move<R: Rules>(rules: &R, variant: &Variant, position: &Position) -> bool {
    let tested = rules.needs_legality_test(variant, position);
    // Each move is played until one is legal, without finding the pins first: the first move
    // tried is mostly legal, and playing it costs less than finding the pins.
    let mut moves = Vec::with_capacity(32);
    let any_legal = |moves: &mut Vec<Move>| {
        let found = moves
            .iter()
            .any(|&mv| !tested || is_legal(rules, variant, position, &mut None, mv));
        moves.clear();
        found
    };
    for square in variant.size.squares() {
        if position.board.get(square).has_color(position.turn) {
            piece_moves(rules, variant, position, square, &mut moves);
            if any_legal(&mut moves) {
                return true;
            }
        }
    }
    castling_moves(rules, variant, position, &mut moves);
    any_legal(&mut moves)
}

/// Counts the leaf nodes of the legal move tree to `depth`.
pub fn perft<R: Rules>(rules: &R, variant: &Variant, position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(rules, variant, position);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut next = position.clone();
            make_move(rules, variant, &mut next, mv);
            perft(rules, variant, &next, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;
    use crate::piece::{PieceDef, Promotion, Royalty};
    use crate::rules::Standard;
    use crate::variant_file::{PieceSpec, VariantDef};

    /// A one-piece variant on an empty board, to count a catalogue piece's moves.
    fn lone_piece_moves(piece: &PieceDef, files: u8, square: &str) -> usize {
        let def = VariantDef {
            id: "lone".into(),
            name: "lone".into(),
            files,
            ranks: files,
            start: vec![files.to_string(); files as usize].join("/"),
            pieces: vec![PieceSpec::Inline(PieceDef {
                royal: Royalty::None,
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
        piece_moves(&Standard, &variant, &position, from, &mut moves);
        moves.len()
    }

    /// The moves of the piece on `from` among the legal moves of `fen`, by destination.
    fn legal_destinations(fen: &str, from: &str) -> Vec<String> {
        let fide = crate::variants::fide();
        let position = fide.position_from_fen(fen).unwrap();
        let from = Square::parse(from).unwrap();
        let mut found: Vec<String> = legal_moves(&Standard, &fide, &position)
            .into_iter()
            .filter(|mv| mv.from == from)
            .map(|mv| mv.to.to_string())
            .collect();
        found.sort();
        found
    }

    #[test]
    fn a_pinned_piece_moves_only_along_its_pin() {
        // The rook on e2 shields its king from the rook on e4: along the file, or taking it.
        assert_eq!(
            legal_destinations("4k3/8/8/8/4r3/8/4R3/4K3 w - - 0 1", "e2"),
            ["e3", "e4"]
        );
        // A pinned knight cannot move at all; an unpinned one beside it moves freely.
        let fen = "4k3/8/8/8/4r3/8/3NN3/4K3 w - - 0 1";
        assert!(legal_destinations(fen, "e2").is_empty());
        assert_eq!(legal_destinations(fen, "d2"), ["b1", "b3", "c4", "e4", "f1", "f3"]);
        // In check, every move is played out: only a block or the capture helps.
        assert_eq!(legal_destinations("4k3/8/8/8/4r3/R7/8/4K3 w - - 0 1", "a3"), ["e3"]);
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
        // Pick-the-team pieces on 10x10 from e5, in the numbered order of docs/rules/pick-the-team.md.
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
