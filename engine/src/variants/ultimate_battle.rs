//! Ultimate Battle Chess (rules page //! docs/rules/ultimate-battle.md). Its pieces are data (engine/variants/ultimate-battle.toml);
//! what the game adds is the last-rank pawn rule: a pawn that reaches its last rank stays there
//! and counts as giving check, so the opponent must capture it at once (with a move that is legal
//! otherwise too) or lose as if mated.

use crate::geometry::Square;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::Rules;
use crate::start::{StartRefusal, side};
use crate::variant_file::Variant;

/// The rules hooks of Ultimate Battle Chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UltimateBattle;

/// Whether a pawn of `color`'s opponent stands on `color`'s first rank (its own last rank).
fn faces_a_pawn_on_its_first_rank(variant: &Variant, position: &Position, color: Color) -> bool {
    let first = if color == Color::White {
        0
    } else {
        variant.size.ranks - 1
    };
    (0..variant.size.files).any(|file| {
        position
            .board
            .piece_at(Square::new(file, first))
            .is_some_and(|p| p.color != color && variant.piece(p.kind).def.is_pawn)
    })
}

/// The squares of `color`'s pawns standing on its last rank (its opponent's first).
fn pawns_on_last_rank(variant: &Variant, position: &Position, color: Color) -> Vec<Square> {
    let last = if color == Color::White {
        variant.size.ranks - 1
    } else {
        0
    };
    (0..variant.size.files)
        .map(|file| Square::new(file, last))
        .filter(|&square| {
            position
                .board
                .piece_at(square)
                .is_some_and(|p| p.color == color && variant.piece(p.kind).def.is_pawn)
        })
        .collect()
}

impl Rules for UltimateBattle {
    /// A pawn on its last rank has just arrived, and its opponent, to move, must capture it at
    /// once: so there is at most one, and only its opponent is to move. (Said here in the pawn's
    /// words: the shared check would call it a check on the king.)
    fn check_start(&self, variant: &Variant, position: &Position) -> Result<(), StartRefusal> {
        for color in Color::BOTH {
            let pawns = pawns_on_last_rank(variant, position, color);
            let (owner, opponent) = (side(color), side(color.other()));
            match pawns.as_slice() {
                [] => {}
                [first, second, ..] => {
                    return Err(StartRefusal::new(format!(
                        "{owner} has pawns on {first} and {second}, {opponent}'s first rank: a pawn that arrives there \
                         must be captured at once, so only one can stand there"
                    )));
                }
                [pawn] if position.turn == color => {
                    return Err(StartRefusal::new(format!(
                        "{owner}'s pawn on {pawn} stands on {opponent}'s first rank with {owner} to move: {opponent} \
                         had to capture it at once"
                    )));
                }
                [_] => {}
            }
        }
        Ok(())
    }

    /// A move no piece of that letter can make: the letters name other pieces here than in
    /// FIDE chess, so the refusal says how the piece moves.
    fn refusal(&self, variant: &Variant, _: &Position, text: &str) -> Option<String> {
        let written = text.trim_end_matches(['+', '#', '!', '?']);
        let destination = written.get(written.len().checked_sub(2)?..)?;
        variant.size.parse_square(destination)?;
        let how = match written.chars().next()? {
            'Q' => "Q is the mao here: one step straight to an empty square, then one diagonally outward",
            'N' => "N is the camel here: a (1,3) leap",
            'K' => {
                "the king here steps diagonally to an empty square, then straight: it reaches the knight squares \
                 and its four straight neighbours, never a diagonal one"
            }
            // A pawn's move in SAN (`e5`, `exd5`), not a move given by coordinates.
            'a'..='h' if written.len() == 2 || (written.len() == 4 && written.as_bytes()[1] == b'x') => {
                "pawns here move and capture one square diagonally forward (a first move may also go two \
                 squares straight, without capturing)"
            }
            _ => return None,
        };
        Some(format!("{text} is not a legal move here: {how}"))
    }

    /// In check when the royal king is attacked, or when an enemy pawn stands on the side's
    /// first rank: then every legal move captures it.
    fn is_in_check(&self, variant: &Variant, position: &Position, color: Color) -> bool {
        faces_a_pawn_on_its_first_rank(variant, position, color)
            || position.royals[color.index()].is_some_and(|sq| self.is_attacked(variant, position, sq, color.other()))
    }
}
