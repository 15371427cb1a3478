//! Whether a game can start from a position a player gives (RULES.md, "Start positions that
//! players give"): only if its rules can play it, from there, to an end. Every way a position
//! reaches a new game (a challenge's FEN, practice, an imported record's FEN, a variant file's
//! start) asks [`crate::AnyGame::from_players_fen`], which parses the position, asks the game's
//! own check ([`crate::variants::Hosted::check_start`]) and refuses a position already over. The
//! analysis tools (perft, legal, render, ai) compute on any position that parses, and only say
//! what a game would refuse.
//!
//! The checks every chess-like board shares are here; each game adds its own (a carrier still to
//! choose, a base in its owner's half, two boards).

pub mod refusal;

pub use refusal::{Start, StartError, StartRefusal};

use crate::geometry::Square;
use crate::piece::{Color, Promotion};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant_file::Variant;

/// The most a halfmove clock may say: a hundred half-moves without a capture or a pawn's move
/// draw the game (the 50-move rule), so a count past it is no position a game reached.
pub const MOST_HALFMOVES: u32 = 100;
/// The most a move number may say (a game of ten thousand moves is none anyone played).
pub const MOST_MOVES: u32 = 10_000;

/// "White", "Black": a side as the FIDE-based games name it.
pub fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The checks every chess-like board shares, for a game played with `rules` on `variant`:
/// - each side that has a royal kind has exactly one royal, and the side not to move is not in
///   check (its royal could be taken);
/// - no pawn stands on its own first rank or on the rank it promotes on;
/// - an en passant square is where a pawn of the side that just moved skipped over it, with the
///   square it left empty;
/// - the counters are within range.
pub fn check_chess_position(variant: &Variant, rules: &impl Rules, position: &Position) -> Result<(), StartRefusal> {
    check_chess_position_with(variant, rules, position, FirstRankPawns::Refused)
}

/// Whether a pawn may stand on its own first rank: never in the FIDE-based games; in
/// Pick-the-team, whose pawns are picked onto their first and second rows, it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstRankPawns {
    Refused,
    Allowed,
}

/// [`check_chess_position`], for a game whose pawns may stand on their own first rank.
pub fn check_chess_position_with(
    variant: &Variant,
    rules: &impl Rules,
    position: &Position,
    first_rank: FirstRankPawns,
) -> Result<(), StartRefusal> {
    check_royals(variant, rules, position)?;
    check_pawns(variant, position, first_rank)?;
    check_en_passant(variant, position)?;
    check_counters(position)
}

fn check_royals(variant: &Variant, rules: &impl Rules, position: &Position) -> Result<(), StartRefusal> {
    for color in Color::BOTH {
        if !variant.table.has_royal_type(color) {
            continue;
        }
        let royals: Vec<(Square, &str)> = position
            .board
            .pieces()
            .filter(|(_, piece)| piece.color == color && variant.is_royal(piece.kind, color))
            .map(|(square, piece)| (square, variant.piece(piece.kind).def.name.as_str()))
            .collect();
        match royals.as_slice() {
            [] => {
                let name = royal_name(variant, color);
                return Err(StartRefusal::new(format!(
                    "{} has no {name}: each side needs exactly one",
                    side(color)
                )));
            }
            [_] => {}
            [(first, name), (second, _), ..] => {
                return Err(StartRefusal::new(format!(
                    "{} has more than one {}, on {first} and {second}: each side needs exactly one",
                    side(color),
                    name.to_lowercase()
                )));
            }
        }
    }
    let waiting = position.turn.other();
    if let Some(royal) = position.royals[waiting.index()]
        && rules.is_in_check(variant, position, waiting)
    {
        let name = position.board.piece_at(royal).map_or("king".to_string(), |piece| {
            variant.piece(piece.kind).def.name.to_lowercase()
        });
        return Err(StartRefusal::new(format!(
            "{}'s {name} on {royal} is in check with {} to move: it could be taken",
            side(waiting),
            side(position.turn)
        )));
    }
    Ok(())
}

/// The names of `color`'s royal kinds ("king", "king or royal knight"), for a side that has
/// none on the board.
fn royal_name(variant: &Variant, color: Color) -> String {
    let mut names: Vec<String> = variant
        .table
        .iter()
        .filter(|&(kind, _)| variant.is_royal(kind, color))
        .map(|(_, piece)| piece.def.name.to_lowercase())
        .collect();
    names.dedup();
    if names.is_empty() {
        return "king".to_string();
    }
    names.join(" or ")
}

fn check_pawns(variant: &Variant, position: &Position, first_rank: FirstRankPawns) -> Result<(), StartRefusal> {
    let ranks = position.board.size().ranks;
    for (square, piece) in position.board.pieces() {
        let def = &variant.piece(piece.kind).def;
        if !def.is_pawn {
            continue;
        }
        // Ranks counted from the owner's side, 1 its first.
        let relative = match piece.color {
            Color::White => square.rank() + 1,
            Color::Black => ranks - square.rank(),
        };
        let name = def.name.to_lowercase();
        if relative == 1 && first_rank == FirstRankPawns::Refused {
            return Err(StartRefusal::new(format!(
                "a {} {name} stands on {square}, its own first rank, where no {name} can be",
                side(piece.color)
            )));
        }
        let promoted = match def.promotion {
            Promotion::Never => None,
            Promotion::LastRank => (relative == ranks).then(|| ", its last rank".to_string()),
            Promotion::RelativeRank(rank) => {
                (relative >= rank).then(|| format!(", on or past the rank it promotes on ({rank})"))
            }
        };
        if let Some(past) = promoted {
            return Err(StartRefusal::new(format!(
                "a {} {name} stands on {square}{past}: it would already have been promoted",
                side(piece.color)
            )));
        }
    }
    Ok(())
}

fn check_en_passant(variant: &Variant, position: &Position) -> Result<(), StartRefusal> {
    let Some(target) = position.en_passant else {
        return Ok(());
    };
    if !variant.def.en_passant {
        return Err(StartRefusal::new(format!(
            "this game has no en passant, so the en passant square {target} cannot be"
        )));
    }
    // The side that moved last made the double step; its pawn skipped `target`.
    let mover = position.turn.other();
    let size = position.board.size();
    if size.ranks < 4 {
        return Err(StartRefusal::new(format!(
            "a board of {} ranks has no room for a double step, so the en passant square {target} cannot be",
            size.ranks
        )));
    }
    let skipped_rank = if mover == Color::White { 2 } else { size.ranks - 3 };
    if target.rank() != skipped_rank {
        return Err(StartRefusal::new(format!(
            "with {} to move, an en passant square is on rank {}, the square a {} pawn's double step \
             skips: {target} is not",
            side(position.turn),
            skipped_rank + 1,
            side(mover)
        )));
    }
    let (ahead, behind) = match mover {
        Color::White => (target.rank() + 1, target.rank() - 1),
        Color::Black => (target.rank() - 1, target.rank() + 1),
    };
    let pawn_square = Square::new(target.file(), ahead);
    let left = Square::new(target.file(), behind);
    let is_pawn_of_mover = position
        .board
        .piece_at(pawn_square)
        .is_some_and(|piece| piece.color == mover && variant.piece(piece.kind).def.is_pawn);
    let is_empty =
        |square: Square| position.board.get(square).as_piece().is_none() && !position.board.get(square).is_statue();
    if !is_pawn_of_mover || !is_empty(target) || !is_empty(left) {
        return Err(StartRefusal::new(format!(
            "the en passant square {target} needs a {} pawn on {pawn_square} that has just moved two squares \
             from {left}, with {target} and {left} empty",
            side(mover)
        )));
    }
    Ok(())
}

fn check_counters(position: &Position) -> Result<(), StartRefusal> {
    if position.halfmove_clock > MOST_HALFMOVES {
        return Err(StartRefusal::new(format!(
            "the halfmove clock {} is out of range: at most {MOST_HALFMOVES} (the 50-move rule)",
            position.halfmove_clock
        )));
    }
    if position.fullmove_number > MOST_MOVES {
        return Err(StartRefusal::new(format!(
            "the move number {} is out of range: at most {MOST_MOVES}",
            position.fullmove_number
        )));
    }
    Ok(())
}

/// The castling rights a FEN asked for that its position dropped, as a note for the game's first
/// post: rights whose king or rook is not in place, or every right in a game without castling.
/// None when nothing was dropped.
pub fn dropped_castling(variant: &Variant, fen: &str, position: &Position) -> Option<String> {
    let asked = fen.split_whitespace().nth(2).unwrap_or("-");
    let dropped: String = asked
        .chars()
        .filter(|&c| {
            let (color, king_side) = match c {
                'K' => (Color::White, true),
                'Q' => (Color::White, false),
                'k' => (Color::Black, true),
                'q' => (Color::Black, false),
                _ => return false,
            };
            !position.castling.has(color, king_side)
        })
        .collect();
    if dropped.is_empty() {
        return None;
    }
    Some(if variant.def.castling {
        format!("Castling rights dropped: {dropped} (their king or rook is not on its starting square).")
    } else {
        format!("Castling rights dropped: {dropped} (this game has no castling).")
    })
}

/// Why a position already over by its game's rules cannot start one: nothing is left to play.
pub fn already_over(outcome: &crate::game::Outcome) -> StartRefusal {
    StartRefusal::new(format!(
        "this position is already over ({}): nothing would be left to play",
        outcome.reason.describe()
    ))
}

/// `fen` without the castling rights of a side whose royal is not on its starting square (where
/// `variant`'s start puts it), or `None` when it keeps them all. (Reading a FEN keeps a right
/// whose king stands anywhere on its first rank, as the positions of stored games always have;
/// a new game drops it, as RULES.md says.)
pub fn castling_at_home(variant: &Variant, fen: &str) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let asked = *fields.get(2)?;
    if !variant.def.castling || asked == "-" {
        return None;
    }
    let board = variant.position_from_fen(&format!("{} w - - 0 1", fields[0])).ok()?;
    let home = variant.start_position().royals;
    let kept: String = asked
        .chars()
        .filter(|&c| {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            board.royals[color.index()] == home[color.index()]
        })
        .collect();
    if kept.len() == asked.len() {
        return None;
    }
    let mut fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    fields[2] = if kept.is_empty() { "-".to_string() } else { kept };
    Some(fields.join(" "))
}
