//! The ways into the chess core: a variant that plays chess with a twist implements [`Rules`],
//! overriding only the hooks it needs. The generator, the attack test, castling, check and
//! legality all go through these hooks, and are monomorphised per rules type, so FIDE chess
//! ([`Standard`]) pays nothing for them.

use crate::attacks;
use crate::chess_move::{LastMove, Made, Move};
use crate::geometry::Square;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::seat::Viewer;
use crate::start::refusal::StartRefusal;
use crate::variant_file::Variant;
use crate::view::Mark;

pub trait Rules {
    /// Moves the piece on `from` has beyond its Betza movement (Knights are God: a relayed
    /// knight move). They go through [`Rules::finish_move`] like every other move.
    #[inline]
    fn extra_moves(
        &self,
        _variant: &Variant,
        _position: &Position,
        _from: Square,
        _piece: Piece,
        _out: &mut Vec<Move>,
    ) {
    }

    /// Turns a generated move into what it really is: pushes nothing (it cannot be played), the
    /// move (the default), the move carried on (a portal sets `arrival`), or one move per choice
    /// the mover makes with it (Circe: one per rebirth square, in `choice`).
    #[inline]
    fn finish_move(&self, _variant: &Variant, _position: &Position, mv: Move, out: &mut Vec<Move>) {
        out.push(mv);
    }

    /// Attacks beyond the pieces' own movement (through a portal, by a relayed knight move):
    /// whether `by` could capture on `target`.
    #[inline]
    fn extra_attack(&self, _variant: &Variant, _position: &Position, _target: Square, _by: Color) -> bool {
        false
    }

    /// What a move does after its piece has come to rest and its captures were made (Circe: the
    /// rebirth). `made` says what was captured and where the piece is.
    #[inline]
    fn after_move(&self, _variant: &Variant, _position: &mut Position, _mv: &Move, _made: &Made) {}

    /// Whether `color` is in check: by default, its royal piece is attacked.
    #[inline]
    fn is_in_check(&self, variant: &Variant, position: &Position, color: Color) -> bool {
        position.royals[color.index()].is_some_and(|sq| self.is_attacked(variant, position, sq, color.other()))
    }

    /// Whether the side to move may have pseudo-legal moves that are illegal. Sides without a
    /// royal piece (CTF) skip the legality test altogether.
    #[inline]
    fn needs_legality_test(&self, _variant: &Variant, position: &Position) -> bool {
        position.royals[position.turn.index()].is_some()
    }

    /// Whether a move is legal exactly when the mover's royal is not attacked afterwards by the
    /// pieces' own movement: no extra attacks, nothing done after a move lands, no other word on
    /// legality. The generator may then judge most moves without playing them
    /// ([`crate::movegen::legal_moves`]). Only rules that add nothing may say so.
    #[inline]
    fn judges_by_royal_safety_alone(&self) -> bool {
        false
    }

    /// The last word on a pseudo-legal move, given the position before and after it: by default,
    /// the mover may not be in check afterwards.
    #[inline]
    fn is_legal(&self, variant: &Variant, before: &Position, _mv: &Move, after: &Position) -> bool {
        !self.is_in_check(variant, after, before.turn)
    }

    /// Why `text`, which names no legal move here, is refused, when this game's own rule is the
    /// reason (a banned first move, a move written through a portal): the player is told the
    /// rule, or how the game writes the move. `None` leaves the plain refusal.
    fn refusal(&self, _variant: &Variant, _position: &Position, _text: &str) -> Option<String> {
        None
    }

    /// What the game marks on its board for `viewer` beyond the last move and a check (portals,
    /// a rebirth square, the pieces that may move as knights).
    fn marks(&self, _variant: &Variant, _position: &Position, _last: Option<&LastMove>, _viewer: Viewer) -> Vec<Mark> {
        Vec::new()
    }

    /// What this game's own rules ask of a position a player gives as a start, beyond the
    /// checks every chess-like board shares (`crate::start::check_chess_position`, which comes
    /// after this, so a game's own reason is given first): Portal Chess's en passant square
    /// behind a portal, Ultimate Battle's last-rank pawn. Asked only of new games, never of
    /// stored ones.
    fn check_start(&self, _variant: &Variant, _position: &Position) -> Result<(), StartRefusal> {
        Ok(())
    }

    /// Whether `by` attacks `target`, its pieces' movement and the variant's extra attacks
    /// together. Not meant to be overridden: override [`Rules::extra_attack`].
    #[inline]
    fn is_attacked(&self, variant: &Variant, position: &Position, target: Square, by: Color) -> bool {
        attacks::pieces_attack(variant, &position.board, target, by) || self.extra_attack(variant, position, target, by)
    }
}

/// The rules exactly as the variant's data give them (FIDE chess, and any variant file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standard;

impl Rules for Standard {
    fn judges_by_royal_safety_alone(&self) -> bool {
        true
    }
}
