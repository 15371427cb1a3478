//! Beirut Chess (RULES.md; rules page docs/rules/beirut.md): FIDE chess where each side secretly
//! arms one of its units with a bomb before move 1 and may detonate it instead of moving.
//!
//! The carrier is a mark on the board cell, so it travels with the piece, survives promotion and
//! vanishes when the piece is captured (a silent defusal). Views show a mark only to its owner,
//! and to everyone once the game has ended.

use crate::game::{Action, ActionError, EndReason, Game, Outcome, Phase, RecordEntry, Seat, View, Viewer, check_turn};
use crate::geometry::Square;
use crate::movegen::{self, Move};
use crate::piece::{Cell, Color, Piece};
use crate::position::{FenError, Position};
use crate::variant::Variant;
use crate::variants::chess::ChessCore;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Shown in place of a sealed choice to anyone who may not know it.
pub const HIDDEN_CHOICE: &str = "(chose a bomb carrier)";

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BeirutGame {
    core: ChessCore,
    has_chosen: [bool; 2],
    /// Where each side's carrier stood when chosen (unknown for a game read from a FEN whose
    /// carrier is gone); secret until the game ends.
    start_carriers: [Option<Square>; 2],
    outcome: Option<Outcome>,
}

// Secrets stay out of logs: Debug shows whether a choice was made, never where.
impl fmt::Debug for BeirutGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BeirutGame")
            .field("fen", &self.core.public_fen())
            .field("has_chosen", &self.has_chosen)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl BeirutGame {
    pub fn new() -> BeirutGame {
        let variant = Variant::fide();
        let position = variant.start_position();
        BeirutGame {
            core: ChessCore::new(variant, position),
            has_chosen: [false, false],
            start_carriers: [None, None],
            outcome: None,
        }
    }

    /// Reads a FEN, optionally followed by a field `bombs:W,B` naming each side's carrier square
    /// (`-` for a carrier already gone). Without that field the game starts with the sealed
    /// choice.
    pub fn from_fen(fen: &str) -> Result<BeirutGame, FenError> {
        let variant = Variant::fide();
        let (chess_fen, bombs) = match fen.split_whitespace().last() {
            Some(last) if last.starts_with("bombs:") => (fen.trim_end().strip_suffix(last).unwrap_or(fen), Some(last)),
            _ => (fen, None),
        };
        let mut position = Position::from_fen(&variant, chess_fen)?;
        let mut start_carriers = [None, None];
        if let Some(field) = bombs {
            let bad = || FenError::Extra(field.to_string());
            let (white, black) = field["bombs:".len()..].split_once(',').ok_or_else(bad)?;
            for (color, text) in [(Color::White, white), (Color::Black, black)] {
                if text == "-" {
                    continue;
                }
                let square = variant.size.parse_square(text).ok_or_else(bad)?;
                let piece = position
                    .board
                    .piece_at(square)
                    .filter(|p| p.color == color && Some(p.kind) != variant.royal_kind)
                    .ok_or_else(bad)?;
                position.board.set(
                    square,
                    Cell::piece(Piece {
                        is_marked: true,
                        ..piece
                    }),
                );
                start_carriers[color.index()] = Some(square);
            }
        }
        let has_chosen = [bombs.is_some(); 2];
        let mut game = BeirutGame {
            core: ChessCore::new(variant, position),
            has_chosen,
            start_carriers,
            outcome: None,
        };
        game.outcome = game.evaluate();
        Ok(game)
    }

    fn is_choosing(&self) -> bool {
        self.has_chosen.contains(&false)
    }

    fn carrier(&self, color: Color) -> Option<Square> {
        self.core
            .position
            .board
            .pieces()
            .find(|(_, p)| p.color == color && p.is_marked)
            .map(|(sq, _)| sq)
    }

    /// The squares a detonation at `center` clears.
    fn blast(&self, center: Square) -> Vec<Square> {
        let size = self.core.variant.size;
        let mut squares = vec![center];
        for df in -1..=1 {
            for dr in -1..=1 {
                if (df, dr) != (0, 0) {
                    squares.extend(size.offset(center, df, dr));
                }
            }
        }
        squares
    }

    /// The position after the side to move detonates, and whether the enemy king was destroyed;
    /// `None` when detonating is not legal now.
    fn detonation(&self) -> Option<(Position, bool)> {
        let mover = self.core.position.turn;
        let center = self.carrier(mover)?;
        let variant = &self.core.variant;
        let mut after = self.core.position.clone();
        let (mut destroys_own_king, mut destroys_enemy_king) = (false, false);
        for square in self.blast(center) {
            if let Some(piece) = after.board.piece_at(square) {
                if Some(piece.kind) == variant.royal_kind {
                    if piece.color == mover {
                        destroys_own_king = true;
                    } else {
                        destroys_enemy_king = true;
                    }
                    after.royals[piece.color.index()] = None;
                }
                after.board.set(square, Cell::EMPTY);
            }
        }
        if destroys_own_king {
            return None;
        }
        // Rooks blown off their corners take their castling rights with them.
        for color in Color::BOTH {
            for is_king_side in [true, false] {
                if after.castling.has(color, is_king_side)
                    && movegen::castling_rook(variant, &after, color, is_king_side).is_none()
                {
                    after.castling.set(color, is_king_side, false);
                }
            }
        }
        after.en_passant = None;
        after.halfmove_clock = 0;
        if mover == Color::Black {
            after.fullmove_number += 1;
        }
        after.turn = mover.other();
        if !destroys_enemy_king && movegen::is_in_check(variant, &after, mover) {
            return None;
        }
        Some((after, destroys_enemy_king))
    }

    fn evaluate(&self) -> Option<Outcome> {
        if self.is_choosing() {
            return None;
        }
        let mover = self.core.position.turn;
        if self.core.position.royals[mover.index()].is_none() {
            return Some(Outcome::win(mover.other(), EndReason::KingDestroyed));
        }
        if self.core.legal_moves().is_empty() && self.detonation().is_none() {
            return Some(self.core.no_action_outcome());
        }
        let may_be_dead = self.carrier(Color::White).is_none() && self.carrier(Color::Black).is_none();
        self.core.draw_by_rule(may_be_dead)
    }

    /// '+' or '#' after a move, where mate counts the opponent's detonation as a way out.
    fn check_suffix(&self, mv: Move) -> &'static str {
        let mut next = self.clone();
        next.core.play(self.core.position.turn, mv, String::new());
        if !next.core.is_in_check(next.core.position.turn) {
            ""
        } else if next.core.legal_moves().is_empty() && next.detonation().is_none() {
            "#"
        } else {
            "+"
        }
    }

    fn parse_bomb(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let square_text = text
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .trim_start_matches([':', ' ']);
        let square = self.core.variant.size.parse_square(square_text.trim()).ok_or_else(|| {
            ActionError::Unreadable(format!("could not read \"{text}\": choose a carrier like bomb:d2"))
        })?;
        let action = Action::ChooseBomb(square);
        if self.legal_actions(seat).contains(&action) {
            Ok(action)
        } else {
            Err(ActionError::Illegal(format!(
                "{square} does not hold one of your units other than the king"
            )))
        }
    }

    /// The record as `viewer` may see it.
    fn visible_record(&self, viewer: Viewer) -> Vec<RecordEntry> {
        let reveals_all = self.outcome.is_some() || viewer == Viewer::Arbiter;
        self.core
            .record
            .iter()
            .map(|entry| {
                let is_secret = entry.text.starts_with("bomb:");
                if is_secret && !reveals_all && viewer != Viewer::Seat(entry.seat) {
                    RecordEntry {
                        seat: entry.seat,
                        text: HIDDEN_CHOICE.into(),
                    }
                } else {
                    entry.clone()
                }
            })
            .collect()
    }
}

impl Default for BeirutGame {
    fn default() -> Self {
        BeirutGame::new()
    }
}

impl Game for BeirutGame {
    fn variant_id(&self) -> &str {
        "beirut"
    }
    fn phase(&self) -> Phase {
        match (&self.outcome, self.is_choosing()) {
            (Some(_), _) => Phase::Finished,
            (None, true) => Phase::SealedChoice,
            (None, false) => Phase::Play,
        }
    }
    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_some() {
            Vec::new()
        } else if self.is_choosing() {
            Color::BOTH
                .into_iter()
                .filter(|c| !self.has_chosen[c.index()])
                .collect()
        } else {
            vec![self.core.position.turn]
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if check_turn(self, seat).is_err() {
            return Vec::new();
        }
        if self.is_choosing() {
            let royal = self.core.variant.royal_kind;
            return self
                .core
                .position
                .board
                .pieces()
                .filter(|(_, p)| p.color == seat && Some(p.kind) != royal)
                .map(|(sq, _)| Action::ChooseBomb(sq))
                .collect();
        }
        let mut actions: Vec<Action> = self.core.legal_moves().into_iter().map(Action::Move).collect();
        if self.detonation().is_some() {
            actions.push(Action::Detonate);
        }
        actions
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        if self.outcome.is_none() && self.is_choosing() && self.has_chosen[seat.index()] {
            return Err(ActionError::AlreadyChosen);
        }
        check_turn(self, seat)?;
        let lower = text.trim().to_ascii_lowercase();
        if self.is_choosing() {
            return self.parse_bomb(seat, &lower);
        }
        if lower.starts_with("bomb") {
            return Err(ActionError::Illegal(
                "bomb carriers are chosen before move 1 only".into(),
            ));
        }
        if lower == "detonate" {
            return if self.detonation().is_some() {
                Ok(Action::Detonate)
            } else {
                Err(ActionError::Illegal(
                    "you cannot detonate now: your bomb is gone, or the blast would destroy your king or leave it in check"
                        .into(),
                ))
            };
        }
        self.core.parse_move(text).map(Action::Move)
    }
    fn notation(&self, _seat: Seat, action: &Action) -> String {
        match action {
            Action::Move(mv) => format!("{}{}", self.core.san_body(*mv), self.check_suffix(*mv)),
            Action::ChooseBomb(square) => format!("bomb:{square}"),
            Action::Detonate => "detonate".into(),
            other => format!("{other:?}"),
        }
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        if self.outcome.is_none() && self.is_choosing() && self.has_chosen[seat.index()] {
            return Err(ActionError::AlreadyChosen);
        }
        check_turn(self, seat)?;
        if !self.legal_actions(seat).contains(action) {
            return Err(ActionError::Illegal(match action {
                Action::ChooseBomb(sq) => {
                    format!("{sq} does not hold one of your units other than the king")
                }
                Action::Detonate => "you cannot detonate now".into(),
                _ => "that is not a legal action here".into(),
            }));
        }
        let text = self.notation(seat, action);
        match *action {
            Action::ChooseBomb(square) => {
                let board = &mut self.core.position.board;
                let piece = board.piece_at(square).expect("a legal choice names a unit");
                board.set(
                    square,
                    Cell::piece(Piece {
                        is_marked: true,
                        ..piece
                    }),
                );
                self.has_chosen[seat.index()] = true;
                self.start_carriers[seat.index()] = Some(square);
                self.core.record.push(RecordEntry { seat, text });
            }
            Action::Detonate => {
                let center = self.carrier(seat);
                let (after, _) = self.detonation().expect("checked legal above");
                self.core.position = after;
                self.core.finish_action(seat, text, center.map(|c| (c, c)));
            }
            Action::Move(mv) => self.core.play(seat, mv, text),
            _ => unreachable!("legal_actions offers no other kind"),
        }
        self.outcome = self.evaluate();
        Ok(())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    fn conclude(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
        }
    }
    fn view(&self, viewer: Viewer) -> View {
        let mut view = self
            .core
            .base_view(viewer, self.phase(), self.to_act(), self.outcome.as_ref());
        let reveals_all = self.outcome.is_some() || viewer == Viewer::Arbiter;
        view.cells = self
            .core
            .view_cells(|piece| reveals_all || viewer == Viewer::Seat(piece.color));
        view.record = self.visible_record(viewer);
        if self.is_choosing() && self.outcome.is_none() {
            for color in Color::BOTH {
                let state = if self.has_chosen[color.index()] {
                    "has chosen"
                } else {
                    "is choosing"
                };
                view.notes.push(format!("{} {state} a bomb carrier", color.name()));
            }
        }
        if let Some(outcome) = &self.outcome
            && outcome.reason != EndReason::Aborted
        {
            for color in Color::BOTH {
                let name = color.name();
                let note = match (
                    self.has_chosen[color.index()],
                    self.start_carriers[color.index()],
                    self.carrier(color),
                ) {
                    (false, _, _) => format!("{name} never chose a bomb carrier"),
                    (true, Some(start), Some(now)) if start == now => {
                        format!("{name}'s bomb carrier: {now}")
                    }
                    (true, Some(start), Some(now)) => {
                        format!("{name}'s bomb carrier: started on {start}, now on {now}")
                    }
                    (true, None, Some(now)) => format!("{name}'s bomb carrier: {now}"),
                    (true, Some(start), None) => {
                        format!("{name}'s bomb carrier: started on {start}, captured or detonated")
                    }
                    (true, None, None) => {
                        format!("{name}'s bomb carrier: captured or detonated")
                    }
                };
                view.notes.push(note);
            }
        }
        view
    }
}
