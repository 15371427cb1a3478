//! The shared chess core, and chess-like games defined wholly by a variant file (FIDE chess is
//! `variants/chess.toml`). Rules page: docs/rules/chess.md.

use crate::game::{
    Action, ActionError, EndReason, Game, Outcome, Phase, RecordEntry, Seat, View, ViewCell, Viewer, check_turn,
};
use crate::movegen::{self, Move, Special};
use crate::notation;
use crate::piece::{Color, Piece};
use crate::position::{FenError, Position};
use crate::variant::{StalemateRule, Variant};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A chess position with its history: what every chess-based game shares. Games built on it add
/// their own actions and end conditions on top.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessCore {
    pub variant: Arc<Variant>,
    pub position: Position,
    /// Repetition keys (64-bit FNV-1a hashes, stable across builds since they are stored) of
    /// every position reached, the current one last.
    keys: Vec<u64>,
    pub record: Vec<RecordEntry>,
    pub last_move: Option<(crate::geometry::Square, crate::geometry::Square)>,
}

impl ChessCore {
    pub fn new(variant: Arc<Variant>, position: Position) -> ChessCore {
        let mut core = ChessCore {
            variant,
            position,
            keys: Vec::new(),
            record: Vec::new(),
            last_move: None,
        };
        core.keys.push(core.repetition_key());
        core
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        movegen::legal_moves(&self.variant, &self.position)
    }

    pub fn is_in_check(&self, color: Color) -> bool {
        movegen::is_in_check(&self.variant, &self.position, color)
    }

    pub fn parse_move(&self, text: &str) -> Result<Move, ActionError> {
        Ok(notation::parse_move(
            &self.variant,
            &self.position,
            text,
            &self.legal_moves(),
        )?)
    }

    /// SAN without the check suffix.
    pub fn san_body(&self, mv: Move) -> String {
        notation::san_body(&self.variant, &self.position, mv, &self.legal_moves())
    }

    /// The position after `mv`, without recording it.
    pub fn after(&self, mv: Move) -> Position {
        let mut after = self.position.clone();
        movegen::make_move(&self.variant, &mut after, mv);
        after
    }

    /// Plays a move already checked for legality and records `text` for it.
    pub fn play(&mut self, seat: Seat, mv: Move, text: String) {
        movegen::make_move(&self.variant, &mut self.position, mv);
        self.finish_action(seat, text, Some((mv.from, mv.to)));
    }

    /// Records an action that changed the position in another way (a detonation, say).
    pub fn finish_action(
        &mut self,
        seat: Seat,
        text: String,
        last_move: Option<(crate::geometry::Square, crate::geometry::Square)>,
    ) {
        self.last_move = last_move;
        self.record.push(RecordEntry { seat, text });
        let key = self.repetition_key();
        self.keys.push(key);
    }

    /// Board, side to move, castling rights, and the en passant square only where a capture
    /// there is legal (FIDE's definition of the same position).
    fn repetition_key(&self) -> u64 {
        let mut key = self.position.board.key();
        key.push(self.position.turn as u8);
        key.push(self.position.castling_byte());
        let can_take_en_passant =
            self.position.en_passant.is_some() && self.legal_moves().iter().any(|m| m.special == Special::EnPassant);
        if can_take_en_passant {
            key.extend(self.position.en_passant.map(|s| s.index() as u8));
        }
        key.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
            (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// Checkmate or stalemate of the side to move, which has no legal action.
    pub fn no_action_outcome(&self) -> Outcome {
        let mover = self.position.turn;
        if self.is_in_check(mover) {
            Outcome::win(mover.other(), EndReason::Checkmate)
        } else if self.variant.def.stalemate == StalemateRule::Loss {
            Outcome::win(mover.other(), EndReason::Stalemate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        }
    }

    /// The automatic draws the variant has: repetition, 50 moves, and (where `may_be_dead`) the
    /// FIDE dead positions.
    pub fn draw_by_rule(&self, may_be_dead: bool) -> Option<Outcome> {
        let draws = self.variant.def.draws;
        let current = self.keys.last().expect("the start position is always recorded");
        if draws.fifty_moves && self.position.halfmove_clock >= 100 {
            return Some(Outcome::draw(EndReason::FiftyMoves));
        }
        if draws.repetition && self.keys.iter().filter(|k| *k == current).count() >= 3 {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        if draws.insufficient_material && may_be_dead && self.is_dead_position() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        None
    }

    /// King against king with at most one minor piece, or with bishops all on one square colour.
    fn is_dead_position(&self) -> bool {
        let mut minors = Vec::new();
        for (square, piece) in self.position.board.pieces() {
            match self.variant.piece(piece.kind).def.id.as_str() {
                "king" => {}
                "knight" => minors.push((false, square)),
                "bishop" => minors.push((true, square)),
                _ => return false,
            }
        }
        match minors.as_slice() {
            [] | [_] => true,
            several => {
                let colour = |sq: crate::geometry::Square| (sq.file() + sq.rank()) % 2;
                several
                    .iter()
                    .all(|&(is_bishop, sq)| is_bishop && colour(sq) == colour(several[0].1))
            }
        }
    }

    /// The board as `viewer` sees it: marks shown only where `shows_mark` allows.
    pub fn view_cells(&self, shows_mark: impl Fn(Piece) -> bool) -> Vec<ViewCell> {
        let board = &self.position.board;
        board
            .size()
            .squares()
            .map(|sq| {
                let cell = board.get(sq);
                match cell.as_piece() {
                    None if cell.is_statue() => ViewCell::Statue,
                    None => ViewCell::Empty,
                    Some(piece) => {
                        let def = &self.variant.piece(piece.kind).def;
                        ViewCell::Piece {
                            color: piece.color,
                            letter: def.letter,
                            piece_id: def.id.clone(),
                            is_marked: piece.is_marked && shows_mark(piece),
                        }
                    }
                }
            })
            .collect()
    }

    /// A view with everything public filled in; games add their secrets and notes.
    pub fn base_view(&self, viewer: Viewer, phase: Phase, to_act: Vec<Seat>, outcome: Option<&Outcome>) -> View {
        let size = self.variant.size;
        let mover = self.position.turn;
        View {
            variant: self.variant.def.id.clone(),
            viewer,
            files: size.files,
            ranks: size.ranks,
            cells: self.view_cells(|_| false),
            phase,
            to_act,
            seat_names: ["White".into(), "Black".into()],
            last_move: self.last_move,
            check: self
                .is_in_check(mover)
                .then(|| self.position.royals[mover.index()])
                .flatten(),
            last_statue: None,
            hands: [Vec::new(), Vec::new()],
            record: self.record.clone(),
            notes: Vec::new(),
            fen: self.public_fen(),
            outcome: outcome.cloned(),
        }
    }

    /// FEN without marks (secrets never appear in FEN).
    pub fn public_fen(&self) -> String {
        self.position.to_fen(&self.variant)
    }
}

impl Position {
    /// The castling rights as one byte, for keys.
    pub fn castling_byte(&self) -> u8 {
        let mut byte = 0;
        for (i, (color, side)) in [
            (Color::White, true),
            (Color::White, false),
            (Color::Black, true),
            (Color::Black, false),
        ]
        .into_iter()
        .enumerate()
        {
            if self.castling.has(color, side) {
                byte |= 1 << i;
            }
        }
        byte
    }
}

/// A chess-like game defined wholly by its variant file: FIDE chess, and any variant loaded from
/// a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessGame {
    pub core: ChessCore,
    outcome: Option<Outcome>,
}

impl ChessGame {
    pub fn new(variant: Arc<Variant>) -> ChessGame {
        let position = variant.start_position();
        ChessGame::from_position(variant, position)
    }

    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<ChessGame, FenError> {
        let position = Position::from_fen(&variant, fen)?;
        Ok(ChessGame::from_position(variant, position))
    }

    fn from_position(variant: Arc<Variant>, position: Position) -> ChessGame {
        let mut game = ChessGame {
            core: ChessCore::new(variant, position),
            outcome: None,
        };
        game.outcome = game.evaluate();
        game
    }

    fn evaluate(&self) -> Option<Outcome> {
        if self.core.legal_moves().is_empty() {
            return Some(self.core.no_action_outcome());
        }
        self.core.draw_by_rule(true)
    }

    fn check_suffix(&self, mv: Move) -> &'static str {
        let after = self.core.after(mv);
        if !movegen::is_in_check(&self.core.variant, &after, after.turn) {
            ""
        } else if movegen::legal_moves(&self.core.variant, &after).is_empty() {
            "#"
        } else {
            "+"
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        movegen::perft(&self.core.variant, &self.core.position, depth)
    }
}

impl Game for ChessGame {
    fn variant_id(&self) -> &str {
        &self.core.variant.def.id
    }
    fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            Phase::Finished
        } else {
            Phase::Play
        }
    }
    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_some() {
            Vec::new()
        } else {
            vec![self.core.position.turn]
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if check_turn(self, seat).is_err() {
            return Vec::new();
        }
        self.core.legal_moves().into_iter().map(Action::Move).collect()
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        check_turn(self, seat)?;
        self.core.parse_move(text).map(Action::Move)
    }
    fn notation(&self, _seat: Seat, action: &Action) -> String {
        match action {
            Action::Move(mv) => format!("{}{}", self.core.san_body(*mv), self.check_suffix(*mv)),
            other => format!("{other:?}"),
        }
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        check_turn(self, seat)?;
        let Action::Move(mv) = action else {
            return Err(ActionError::Illegal("only moves can be played in this game".into()));
        };
        if !self.core.legal_moves().contains(mv) {
            return Err(ActionError::Illegal("that move is not legal here".into()));
        }
        let text = self.notation(seat, action);
        self.core.play(seat, *mv, text);
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
        self.core
            .base_view(viewer, self.phase(), self.to_act(), self.outcome.as_ref())
    }
}
