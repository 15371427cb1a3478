//! Portal Chess (rules page docs/rules/portal.md): the portal pairs
//! f3-b5 and f6-b4. A move ending on a portal goes on at once to its partner, capturing there
//! too; attacks count through portals, for check, mate and castling alike.

use crate::attacks::pieces_attack;
use crate::chess_move::{LastMove, Move};
use crate::geometry::Square;
use crate::movegen::piece_moves;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::{Rules, Standard};
use crate::seat::Viewer;
use crate::start::{StartRefusal, side};
use crate::variant_file::Variant;
use crate::view::{Mark, MarkKind, Tone};

/// The rules hooks of Portal Chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portals;

/// The portal pairs, with the number each pair is labelled with on the board.
const PAIRS: [(Square, Square, &str); 2] = [
    (Square::new(5, 2), Square::new(1, 4), "1"),
    (Square::new(5, 5), Square::new(1, 3), "2"),
];

/// The other end of the portal on `square`, if it is one.
pub fn partner(square: Square) -> Option<Square> {
    PAIRS.iter().find_map(|&(a, b, _)| {
        if square == a {
            Some(b)
        } else if square == b {
            Some(a)
        } else {
            None
        }
    })
}

impl Rules for Portals {
    /// A move written with the way through a portal (`Bf1>b5`): Portal Chess writes a move by
    /// the square it enters, as chess does, and the piece comes out at the other end.
    fn refusal(&self, _: &Variant, _: &Position, text: &str) -> Option<String> {
        let (_, after) = text.split_once('>')?;
        let entered = Square::parse(after.get(..2)?)?;
        let exit = partner(entered)?;
        let piece = text
            .chars()
            .next()
            .filter(char::is_ascii_uppercase)
            .map(String::from)
            .unwrap_or_default();
        Some(format!(
            "{text}: a move names the portal square it enters, like {piece}{entered} (the piece comes out on {exit})"
        ))
    }

    /// An en passant square only behind a pawn whose double step stayed where it ended: a
    /// double step ending on a portal (b2-b4, b7-b5) goes on at once to the partner square and
    /// leaves no en passant square. (Pieces may stand on portals: a piece carried through one
    /// comes to rest on the other.)
    fn check_start(&self, variant: &Variant, position: &Position) -> Result<(), StartRefusal> {
        let Some(target) = position.en_passant else {
            return Ok(());
        };
        let mover = position.turn.other();
        let forward = if mover == Color::White { 1 } else { -1 };
        let Some(landing) = variant.size.offset(target, 0, forward) else {
            return Ok(());
        };
        match partner(landing) {
            Some(exit) => Err(StartRefusal::new(format!(
                "the en passant square {target} cannot be: a {} pawn's double step to {landing} ends on a portal and \
                 goes on at once to {exit}, so it leaves no en passant square",
                side(mover)
            ))),
            None => Ok(()),
        }
    }

    /// A move ending on a portal goes on to its partner, unless a friendly piece stands there
    /// (then it cannot be played). Teleports do not chain.
    fn finish_move(&self, _: &Variant, position: &Position, mv: Move, out: &mut Vec<Move>) {
        let Some(partner) = partner(mv.to) else {
            out.push(mv);
            return;
        };
        let mover = position.board.piece_at(mv.from).map(|p| p.color);
        let is_blocked = partner != mv.from && mover.is_some_and(|color| position.board.get(partner).has_color(color));
        if !is_blocked {
            out.push(Move {
                arrival: Some(partner),
                ..mv
            });
        }
    }

    /// A piece of `by` that can move onto a portal attacks its partner: by a capture when an
    /// enemy stands on the portal, by any move (a pawn's push and an en passant capture too)
    /// when it is empty.
    fn extra_attack(&self, variant: &Variant, position: &Position, target: Square, by: Color) -> bool {
        let Some(portal) = partner(target) else {
            return false;
        };
        let cell = position.board.get(portal);
        if cell.has_color(by) {
            return false;
        }
        if !cell.is_empty() {
            return pieces_attack(variant, &position.board, portal, by);
        }
        let mut probe = position.clone();
        probe.turn = by;
        let mut moves = Vec::new();
        variant
            .size
            .squares()
            .filter(|&square| position.board.get(square).has_color(by))
            .any(|square| {
                moves.clear();
                piece_moves(&Standard, variant, &probe, square, &mut moves);
                moves.iter().any(|mv| mv.to == portal)
            })
    }

    fn marks(&self, _: &Variant, _: &Position, last: Option<&LastMove>, _: Viewer) -> Vec<Mark> {
        let mut marks = Vec::new();
        for (a, b, label) in PAIRS {
            for square in [a, b] {
                marks.push(Mark {
                    square,
                    kind: MarkKind::Ring(Tone::Neutral),
                    meaning: "Ringed: a portal; a move ending on one goes on to the other of its number (f3-b5, f6-b4)"
                        .into(),
                });
                marks.push(Mark {
                    square,
                    kind: MarkKind::Label {
                        text: label.into(),
                        tone: Tone::Neutral,
                    },
                    meaning: String::new(),
                });
            }
        }
        if let Some(last) = last.filter(|last| last.landing != last.to) {
            marks.push(Mark {
                square: last.to,
                kind: MarkKind::Tint(Tone::Highlight),
                meaning: "Blue: the portal the last move went through".into(),
            });
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pairs_are_f3_b5_and_f6_b4_both_ways() {
        let sq = |name| Square::parse(name).unwrap();
        assert_eq!(partner(sq("f3")), Some(sq("b5")));
        assert_eq!(partner(sq("b5")), Some(sq("f3")));
        assert_eq!(partner(sq("f6")), Some(sq("b4")));
        assert_eq!(partner(sq("b4")), Some(sq("f6")));
        assert_eq!(partner(sq("e4")), None);
    }
}
