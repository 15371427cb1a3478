//! Beirut Chess (rules page docs/rules/beirut.md): FIDE chess where each side secretly
//! arms one of its units with a bomb before move 1 and may detonate it instead of moving.
//!
//! The carrier is a mark on the board cell, so it travels with the piece, survives promotion and
//! vanishes when the piece is captured (a silent defusal). Views show a mark only to its owner,
//! and to everyone once the game has ended.

use crate::chess_move::{LastMove, Move};
use crate::fen::{FenError, split_last_field};
use crate::game::{Action, ActionError, EndReason, Game, Outcome, Seat, Viewer};
use crate::geometry::Square;
use crate::piece::{Cell, Color, Piece};
use crate::position::Position;
use crate::record::Entry;
use crate::rules::Rules;
use crate::start::{StartRefusal, side};
use crate::variant_file::Variant;
use crate::variants::chess::ChessCore;
use crate::variants::chess_based::{self, ChessBased, Stage};
use crate::view::{Mark, MarkKind, Prompt, Tone, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

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
    /// A new game of `variant` (FIDE chess's file).
    pub fn new(variant: Arc<Variant>) -> BeirutGame {
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
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<BeirutGame, FenError> {
        let (chess_fen, bombs) = split_last_field(fen, "bombs:");
        let mut position = variant.position_from_fen(chess_fen)?;
        let mut start_carriers = [None, None];
        if let Some(field) = bombs {
            let (white, black) = field["bombs:".len()..].split_once(',').ok_or_else(|| {
                FenError::Field(format!(
                    "\"{field}\" should name each side's carrier square, White's first: bombs:d2,e7 (- for one gone)"
                ))
            })?;
            for (color, text) in [(Color::White, white), (Color::Black, black)] {
                if text == "-" {
                    continue;
                }
                let side = crate::start::side(color);
                let square = variant.size.parse_square(text).ok_or_else(|| {
                    FenError::Field(format!(
                        "{side}'s carrier \"{text}\" in \"{field}\" is not a square on the board"
                    ))
                })?;
                let piece = position
                    .board
                    .piece_at(square)
                    .filter(|p| p.color == color && !variant.is_royal(p.kind, color))
                    .ok_or_else(|| {
                        FenError::Field(format!(
                            "{side}'s carrier square {square} (\"{field}\") must hold one of {side}'s units other than its king"
                        ))
                    })?;
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

    /// Whether a game can start from this position (`crate::start`): a chess board's checks;
    /// then, with the carriers still to choose, a unit other than its king for each side to
    /// choose, and a game left after the choice. (A `bombs:` field naming a square that does not
    /// hold one of its side's units other than the king does not read at all: `from_fen`.)
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
        let notes = self.core.check_start(fen)?;
        if self.is_choosing() {
            for color in Color::BOTH {
                self.check_has_candidate(color)?;
            }
            self.check_not_over_whatever_chosen()?;
        }
        Ok(notes)
    }

    /// The units `color` may choose as its carrier: any of its own but the king.
    fn candidates(&self, color: Color) -> Vec<Square> {
        let variant = &self.core.variant;
        self.core
            .position
            .board
            .pieces()
            .filter(|(_, p)| p.color == color && !variant.is_royal(p.kind, color))
            .map(|(square, _)| square)
            .collect()
    }

    /// A side still to choose its carrier has a unit to choose (RULES.md: otherwise the game
    /// would wait for a choice nobody can make).
    fn check_has_candidate(&self, color: Color) -> Result<(), StartRefusal> {
        if self.has_chosen[color.index()] || !self.candidates(color).is_empty() {
            return Ok(());
        }
        Err(StartRefusal::new(format!(
            "{} has no unit but its king to carry the bomb: each side chooses a carrier among its other units",
            side(color)
        )))
    }

    /// Some choice of carriers leaves a game to play. Only the side to move's choice can matter
    /// (a detonation may be its way out of mate or stalemate; the other side's bomb never gives
    /// check), so each of its candidates is tried with any of the other side's.
    fn check_not_over_whatever_chosen(&self) -> Result<(), StartRefusal> {
        let mover = self.core.position.turn;
        let other = self.candidates(mover.other()).first().copied();
        let mut first_end = None;
        for square in self.candidates(mover) {
            let mut chosen = self.clone();
            chosen.choose(mover, square);
            if let Some(square) = other {
                chosen.choose(mover.other(), square);
            }
            match chosen.evaluate() {
                None => return Ok(()),
                Some(outcome) => {
                    first_end.get_or_insert(outcome);
                }
            }
        }
        let Some(outcome) = first_end else {
            return Ok(());
        };
        if self.core.can_move() {
            return Err(crate::start::already_over(&outcome));
        }
        Err(StartRefusal::new(format!(
            "{} has no legal move, and no unit it could choose as its carrier could detonate: \
             the position is already over ({}), so nothing would be left to play",
            side(mover),
            outcome.reason.describe()
        )))
    }

    /// Arms the unit on `square` as `color`'s carrier: the sealed choice, made.
    fn choose(&mut self, color: Color, square: Square) {
        let board = &mut self.core.position.board;
        if let Some(piece) = board.piece_at(square) {
            board.set(
                square,
                Cell::piece(Piece {
                    is_marked: true,
                    ..piece
                }),
            );
        }
        self.has_chosen[color.index()] = true;
        self.start_carriers[color.index()] = Some(square);
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

    /// How the news words a detonation of the carrier on `center`: every unit it destroys, by
    /// colour, kind and square, so players need not compare boards to learn what the blast took.
    fn detonation_said(&self, center: Square) -> String {
        let board = &self.core.position.board;
        let name = |square: Square| {
            board.piece_at(square).map(|piece| {
                let kind = &self.core.variant.piece(piece.kind).def.name;
                format!("{}'s {} on {square}", piece.color.name(), kind.to_lowercase())
            })
        };
        let carrier = name(center).unwrap_or_default();
        let others: Vec<String> = self
            .blast(center)
            .into_iter()
            .filter(|&square| square != center)
            .filter_map(name)
            .collect();
        let destroyed = match others.split_last() {
            None => "destroying only the carrier".to_string(),
            Some((last, [])) => format!("destroying the carrier and {last}"),
            Some((last, rest)) => format!("destroying the carrier, {} and {last}", rest.join(", ")),
        };
        format!("detonated the bomb carried by {carrier}, {destroyed}")
    }

    /// The squares the last action blew up, when it was a detonation (for the blast mark).
    fn last_blast(&self) -> Option<Vec<Square>> {
        let last = self.core.record.entries().last()?;
        let center = self.core.last?.from;
        (last.text == "detonate").then(|| self.blast(center))
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
                if variant.is_royal(piece.kind, piece.color) {
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
        after.drop_impossible_castling(&variant.table);
        after.en_passant = None;
        after.halfmove_clock = 0;
        if mover == Color::Black {
            after.fullmove_number += 1;
        }
        after.turn = mover.other();
        if !destroys_enemy_king && self.core.rules.is_in_check(variant, &after, mover) {
            return None;
        }
        Some((after, destroys_enemy_king))
    }

    /// '+' or '#' after a move, where mate counts the opponent's detonation as a way out.
    fn check_suffix(&self, mv: Move) -> &'static str {
        self.core.check_suffix(mv, |after| {
            let mut next = self.clone();
            next.core.position = after.clone();
            next.core.has_legal_move(after) || next.detonation().is_some()
        })
    }

    /// The SAN of a legal move, with the suffix that counts detonations as replies.
    fn move_text(&self, mv: Move, legal: &[Move]) -> String {
        let body = crate::notation::san_body(&self.core.variant, &self.core.position, mv, legal);
        format!("{body}{}", self.check_suffix(mv))
    }

    /// `text` as the player wrote it (errors quote it so), read without regard to case.
    fn parse_bomb(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let lower = text.trim().to_ascii_lowercase();
        let square_text = lower
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .trim_start_matches([':', ' ']);
        let square = self
            .core
            .variant
            .size
            .parse_square(square_text.trim())
            .ok_or_else(|| ActionError::unreadable(text, "choose a carrier like bomb:d2"))?;
        let action = Action::ChooseBomb { square };
        if self.legal_actions(seat).contains(&action) {
            Ok(action)
        } else {
            Err(ActionError::Illegal(format!(
                "{square} does not hold one of your units other than the king"
            )))
        }
    }
}

impl ChessBased for BeirutGame {
    /// The action's notation.
    type Checked = String;

    fn id(&self) -> &str {
        "beirut"
    }
    chess_based::fields!(outcome: outcome, record: core.record, turn: core.position.turn);

    fn stage(&self) -> Stage {
        if self.is_choosing() {
            Stage::Choosing(self.has_chosen)
        } else {
            Stage::Play
        }
    }
    fn actions(&self, seat: Seat) -> Vec<(Action, String)> {
        let color = seat.color();
        if self.is_choosing() {
            return self
                .candidates(color)
                .into_iter()
                .map(|square| (Action::ChooseBomb { square }, format!("bomb:{square}")))
                .collect();
        }
        let legal = self.core.legal_moves();
        let mut actions: Vec<(Action, String)> = legal
            .iter()
            .map(|&mv| (self.core.action_of(mv), self.move_text(mv, &legal)))
            .collect();
        if self.detonation().is_some() {
            actions.push((Action::Detonate, "detonate".into()));
        }
        actions
    }
    /// The actions without their notation, which costs a move generation per move.
    fn bare_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_choosing() {
            return self.actions(seat).into_iter().map(|(action, _)| action).collect();
        }
        let mut actions: Vec<Action> = self.core.move_actions();
        if self.detonation().is_some() {
            actions.push(Action::Detonate);
        }
        actions
    }
    fn write(&self, _seat: Seat, action: &Action) -> String {
        match action {
            Action::ChooseBomb { square } => format!("bomb:{square}"),
            Action::Detonate => "detonate".into(),
            other => {
                let legal = self.core.legal_moves();
                match self.core.move_of(other, &legal) {
                    Some(mv) => self.move_text(mv, &legal),
                    None => format!("{other:?}"),
                }
            }
        }
    }
    fn read(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let lower = text.trim().to_ascii_lowercase();
        if self.is_choosing() {
            return self.parse_bomb(seat, text);
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
        self.core.read_move(text)
    }
    fn check(&self, seat: Seat, action: &Action) -> Result<String, ActionError> {
        self.legal_text(seat, action).ok_or_else(|| {
            ActionError::Illegal(match action {
                Action::ChooseBomb { square } => {
                    format!("{square} does not hold one of your units other than the king")
                }
                Action::Detonate => "you cannot detonate now".into(),
                _ => "that is not a legal action here".into(),
            })
        })
    }
    fn act(&mut self, seat: Seat, action: &Action, text: String) -> Option<Outcome> {
        match action {
            Action::ChooseBomb { square } => {
                self.choose(seat.color(), *square);
                self.core.record.push_secret(seat, text, HIDDEN_CHOICE);
            }
            Action::Detonate => {
                let center = self.carrier(seat.color());
                let said = center.map(|center| self.detonation_said(center));
                let (after, _) = self.detonation().expect("checked legal above");
                self.core.position = after;
                self.core.record.push_entry(Entry {
                    said,
                    ..Entry::public(seat, text)
                });
                self.core.finish_action(center.map(LastMove::at));
            }
            other => self.core.play_action(seat, other, text),
        }
        None
    }
    fn evaluate(&self) -> Option<Outcome> {
        if self.is_choosing() {
            return None;
        }
        let mover = self.core.position.turn;
        if self.core.position.royals[mover.index()].is_none() {
            return Some(Outcome::win(Seat::of_color(mover.other()), EndReason::KingDestroyed));
        }
        if !self.core.can_move() && self.detonation().is_none() {
            return Some(self.core.no_action_outcome());
        }
        let may_be_dead = self.carrier(Color::White).is_none() && self.carrier(Color::Black).is_none();
        self.core.draw_by_rule(may_be_dead)
    }
    fn may_take_back(&self, action: &Action) -> bool {
        !matches!(action, Action::ChooseBomb { .. })
    }
    fn show(&self, viewer: Viewer) -> View {
        let mut view = self.core.game_view(self, viewer);
        let is_revealed = self.outcome.is_some() || viewer == Viewer::Arbiter;
        let meaning = if self.outcome.is_some() {
            "B: a bomb carrier, revealed now the game is over"
        } else {
            "B: your secret bomb carrier (only you see this mark)"
        };
        let marks: Vec<Mark> = self
            .core
            .position
            .board
            .pieces()
            .filter(|(_, piece)| {
                piece.is_marked && (is_revealed || viewer == Viewer::Seat(Seat::of_color(piece.color)))
            })
            .map(|(square, _)| Mark {
                square,
                kind: MarkKind::Badge {
                    text: "B".into(),
                    tone: Tone::Danger,
                },
                meaning: meaning.into(),
            })
            .collect();
        view.boards[0].marks.extend(marks);
        if let Some(blast) = self.last_blast() {
            view.boards[0].marks.extend(blast.into_iter().map(|square| Mark {
                square,
                kind: MarkKind::Ring(Tone::Danger),
                meaning: "Ringed in red: the squares the last detonation cleared".into(),
            }));
        }
        view
    }
    fn prompt_for(&self, seat: Seat) -> Option<Prompt> {
        let text = "Choose your bomb carrier: any of your units except the king.";
        chess_based::sealed_choice_prompt(self, seat, text.into())
    }
    /// A seat still to choose its carrier.
    fn prompts(&self, seat: Seat) -> bool {
        self.is_choosing() && self.to_act().contains(&seat)
    }
    fn notes_for(&self, _viewer: Viewer) -> Vec<String> {
        let mut notes = chess_based::choosing_notes(self, "a bomb carrier");
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
                notes.push(note);
            }
        }
        notes
    }
}
