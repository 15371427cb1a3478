//! The shared chess core, and chess-like games defined by a variant file plus [`Rules`] hooks
//! (FIDE chess is `variants/chess.toml` with the standard rules). Rules page: docs/rules/chess.md.

use crate::chess_move::{LastMove, Move, Special};
use crate::fen::FenError;
use crate::game::{Action, ActionError, EndReason, Game, Outcome, Phase, PieceId, Seat, Viewer};
use crate::geometry::Square;
use crate::legal_cache::LegalCache;
use crate::movegen;
use crate::notation;
use crate::piece::{Cell, Color};
use crate::position::Position;
use crate::record::Record;
use crate::rules::{Rules, Standard};
use crate::variant_file::{StalemateRule, Variant};
use crate::variants::chess_based::{self, ChessBased};
use crate::view::{BoardView, Mark, PieceView, View, ViewCell};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A chess position with its history: what every chess-based game shares. Games built on it add
/// their own actions and end conditions on top; `R` is how the game reaches inside the chess
/// rules (see [`Rules`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = "R: Default"))]
pub struct ChessCore<R = Standard> {
    /// Rules hooks carry no state of a game (what they need is in the position or the variant).
    #[serde(skip)]
    pub rules: R,
    #[serde(with = "crate::variants::stored_variant")]
    pub variant: Arc<Variant>,
    pub position: Position,
    /// Repetition keys (64-bit FNV-1a hashes, stable across builds since they are stored) of
    /// every position reached, the current one last.
    keys: Vec<u64>,
    pub record: Record,
    pub last: Option<LastMove>,
    /// The legal moves last generated, with their position (no part of the game's state).
    #[serde(skip)]
    legal: LegalCache,
    /// A copy the computer searches, which writes no record, notation or FEN
    /// ([`Game::stop_writing`]).
    #[serde(skip)]
    unwritten: bool,
}

impl<R: Rules + Default> ChessCore<R> {
    pub fn new(variant: Arc<Variant>, position: Position) -> ChessCore<R> {
        let mut core = ChessCore {
            rules: R::default(),
            variant,
            position,
            keys: Vec::new(),
            record: Record::default(),
            last: None,
            legal: LegalCache::default(),
            unwritten: false,
        };
        core.keys.push(core.position_key());
        core
    }
}

impl<R: Rules> ChessCore<R> {
    /// The checks of a start every chess-like board shares (`crate::start`), after the game's
    /// own ([`Rules::check_start`]), with the castling rights `fen` asked for and the position
    /// dropped as a note.
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, crate::start::StartRefusal> {
        self.rules.check_start(&self.variant, &self.position)?;
        crate::start::check_chess_position(&self.variant, &self.rules, &self.position)?;
        Ok(crate::start::dropped_castling(&self.variant, fen, &self.position)
            .into_iter()
            .collect())
    }

    pub fn legal_moves(&self) -> Arc<Vec<Move>> {
        self.legal.get(&self.position, || {
            movegen::legal_moves(&self.rules, &self.variant, &self.position)
        })
    }

    pub fn is_in_check(&self, color: Color) -> bool {
        self.rules.is_in_check(&self.variant, &self.position, color)
    }

    /// Whether `action`, a legal move of the side to move, puts the other side in check.
    pub fn gives_check(&self, action: &Action) -> Option<bool> {
        let mv = self.move_of(action, &self.legal_moves())?;
        let mut after = self.position.clone();
        movegen::make_move(&self.rules, &self.variant, &mut after, mv);
        Some(
            self.rules
                .is_in_check(&self.variant, &after, self.position.turn.other()),
        )
    }

    pub fn parse_move(&self, text: &str) -> Result<Move, ActionError> {
        notation::parse_move(&self.variant, &self.position, text, &self.legal_moves()).map_err(|error| {
            match (&error, self.rules.refusal(&self.variant, &self.position, text.trim())) {
                (ActionError::Illegal(_) | ActionError::Unreadable { .. }, Some(why)) => ActionError::Illegal(why),
                _ => error,
            }
        })
    }

    /// The move `text` names, as the action that plays it.
    pub fn read_move(&self, text: &str) -> Result<Action, ActionError> {
        self.parse_move(text).map(|mv| self.action_of(mv))
    }

    /// SAN without the check suffix.
    pub fn san_body(&self, mv: Move) -> String {
        notation::san_body(&self.variant, &self.position, mv, &self.legal_moves())
    }

    /// The position after `mv`, without recording it.
    pub fn after(&self, mv: Move) -> Position {
        movegen::after(&self.rules, &self.variant, &self.position, mv)
    }

    /// '+' after a move that gives check, '#' when it also leaves the opponent no way out; what
    /// counts as a way out is `has_reply` (some games have replies besides moves).
    pub fn check_suffix(&self, mv: Move, has_reply: impl Fn(&Position) -> bool) -> &'static str {
        let after = self.after(mv);
        if !self.rules.is_in_check(&self.variant, &after, after.turn) {
            ""
        } else if has_reply(&after) {
            "+"
        } else {
            "#"
        }
    }

    /// Whether the side to move in `position` has a legal move.
    pub fn has_legal_move(&self, position: &Position) -> bool {
        movegen::has_legal_move(&self.rules, &self.variant, position)
    }

    /// Whether the side to move now has a legal move: from the moves already generated, or
    /// by looking for the first (most positions the computer searches are weighed without
    /// their moves being listed).
    pub fn can_move(&self) -> bool {
        self.legal
            .has_any(&self.position)
            .unwrap_or_else(|| self.has_legal_move(&self.position))
    }

    /// SAN with the chess check suffix, for every move of `legal` (the position's legal moves) in
    /// one pass.
    pub fn noted_moves(&self, legal: &[Move]) -> Vec<String> {
        legal.iter().map(|&mv| self.move_text(mv, legal)).collect()
    }

    /// The SAN of `mv`, one of `legal` (the position's legal moves), with the chess check suffix.
    pub fn move_text(&self, mv: Move, legal: &[Move]) -> String {
        let body = notation::san_body(&self.variant, &self.position, mv, legal);
        format!("{body}{}", self.check_suffix(mv, |after| self.has_legal_move(after)))
    }

    /// The legal moves as actions, each with its SAN (with the chess check suffix).
    pub fn noted_move_actions(&self) -> Vec<(Action, String)> {
        let legal = self.legal_moves();
        legal
            .iter()
            .map(|&mv| (self.action_of(mv), self.move_text(mv, &legal)))
            .collect()
    }

    /// The action that plays `mv`: squares by name, a promotion by the piece's id.
    pub fn action_of(&self, mv: Move) -> Action {
        Action::Move {
            from: mv.from,
            to: mv.to,
            promotion: mv
                .promotion
                .map(|kind| PieceId(self.variant.piece(kind).def.id.clone())),
            choice: mv.choice,
            board: 0,
        }
    }

    /// The legal moves as actions, without their SAN (which costs a move generation each, for
    /// the check suffix): what search and legality checks need.
    pub fn move_actions(&self) -> Vec<Action> {
        self.legal_moves().iter().map(|mv| self.action_of(*mv)).collect()
    }

    /// The SAN of the legal move `action` names, if it names one.
    pub fn write_move(&self, action: &Action) -> Option<String> {
        let legal = self.legal_moves();
        self.move_of(action, &legal).map(|mv| self.move_text(mv, &legal))
    }

    /// The legal move an action names, if it names one.
    pub fn move_of(&self, action: &Action, legal: &[Move]) -> Option<Move> {
        let Action::Move {
            from,
            to,
            promotion,
            choice,
            board: 0,
        } = action
        else {
            return None;
        };
        legal.iter().copied().find(|mv| {
            mv.from == *from
                && mv.to == *to
                && mv.choice == *choice
                && mv.promotion.map(|kind| self.variant.piece(kind).def.id.as_str())
                    == promotion.as_ref().map(|p| p.as_str())
        })
    }

    /// The legal move `action` names and its SAN, or why it is refused.
    pub fn checked_move(&self, action: &Action) -> Result<(Move, String), ActionError> {
        let illegal = || ActionError::Illegal("that move is not legal here".into());
        if self.unwritten {
            // No notation to write: the move alone is checked.
            return self
                .move_named(action)
                .map(|mv| (mv, String::new()))
                .ok_or_else(illegal);
        }
        let legal = self.legal_moves();
        let mv = self.move_of(action, &legal).ok_or_else(illegal)?;
        Ok((mv, self.move_text(mv, &legal)))
    }

    /// The legal move an action names: among the legal moves where they are listed already,
    /// else among its piece's own, so that a search's copy trying a capture its quiescence
    /// listed alone ([`ChessCore::legal_captures`]) lists no other moves to check it.
    fn move_named(&self, action: &Action) -> Option<Move> {
        if let Some(legal) = self.legal.cached(&self.position) {
            return self.move_of(action, &legal);
        }
        let Action::Move { from, .. } = action else {
            return None;
        };
        movegen::legal_move_from(&self.rules, &self.variant, &self.position, *from, |mv| {
            self.move_of(action, std::slice::from_ref(mv)).is_some()
        })
    }

    /// The legal moves that capture a piece where they land (see [`movegen::legal_captures`]).
    pub fn legal_captures(&self) -> Vec<Move> {
        let enemy = self.position.turn.other();
        match self.legal.cached(&self.position) {
            Some(legal) => legal
                .iter()
                .copied()
                .filter(|mv| self.position.board.get(mv.to).has_color(enemy))
                .collect(),
            None => movegen::legal_captures(&self.rules, &self.variant, &self.position),
        }
    }

    /// [`ChessCore::legal_captures`] as actions.
    pub fn capture_actions(&self) -> Vec<Action> {
        self.legal_captures().into_iter().map(|mv| self.action_of(mv)).collect()
    }

    /// Plays the move `action` names, already checked for legality, and records `text` for it.
    pub fn play_action(&mut self, seat: Seat, action: &Action, text: String) {
        let mv = self.move_named(action).expect("checked legal above");
        self.play(seat, mv, text);
    }

    /// The view of `game`, a game on this board, before what the game adds: under the game's
    /// own id (a game played with another's variant file, as Beirut is with chess's, is a game
    /// of its own).
    pub fn game_view(&self, game: &impl ChessBased, viewer: Viewer) -> View {
        let mut view = self.base_view(viewer, game.phase(), game.to_act(), game.ending().as_ref());
        view.variant = game.id().to_string();
        view
    }

    /// Whether `by` attacks `square` (see [`Game::guarded`]).
    pub fn guarded(&self, square: Square, by: Seat) -> bool {
        self.rules
            .is_attacked(&self.variant, &self.position, square, by.color())
    }

    /// [`ChessCore::game_view`] written over `view`, an earlier one of the same game: the same
    /// view, in the earlier one's allocations. Only for games whose view is this alone (a game
    /// that adds to it, as Beirut does, shows anew).
    pub fn refresh_game_view(&self, game: &impl ChessBased, viewer: Viewer, view: &mut View) {
        let same_game =
            view.variant == game.id() && view.pieces.len() == self.variant.piece_views.len() && view.boards.len() == 1;
        if !same_game {
            *view = self.game_view(game, viewer);
            return;
        }
        view.viewer = viewer;
        view.phase = game.phase();
        view.to_act = game.to_act();
        view.outcome.clone_from(game.ending());
        let board = &mut view.boards[0];
        fill_cells(&self.position.board, &mut board.cells);
        board.files = self.position.board.size().files;
        board.ranks = self.position.board.size().ranks;
        board.last_move = self.last.map(|last| (last.from, last.landing));
        board.check = self.check_square();
        board.marks = self
            .rules
            .marks(&self.variant, &self.position, self.last.as_ref(), viewer);
        board.fen.clear();
        if !self.unwritten {
            board.fen.push_str(&self.public_fen());
        }
    }

    /// Plays a move already checked for legality and records `text` for it.
    pub fn play(&mut self, seat: Seat, mv: Move, text: String) {
        movegen::make_move(&self.rules, &self.variant, &mut self.position, mv);
        if !self.unwritten {
            self.record.push(seat, text);
        }
        self.finish_action(Some(LastMove::of(&mv)));
    }

    /// See [`Game::stop_writing`]: the record is dropped, and from now on no move is written and
    /// views have no FEN.
    pub fn stop_writing(&mut self) {
        self.unwritten = true;
        self.record = Record::default();
    }

    /// Marks the end of an action already recorded (a move, or a detonation that changed the
    /// position another way).
    pub fn finish_action(&mut self, last: Option<LastMove>) {
        self.last = last;
        let key = self.position_key();
        self.keys.push(key);
    }

    /// The position's repetition key: board, side to move, castling rights, and the en passant
    /// square only where a capture there is legal (FIDE's definition of the same position).
    pub fn position_key(&self) -> u64 {
        let en_passant = self
            .position
            .en_passant
            .filter(|_| match self.legal.cached(&self.position) {
                Some(legal) => legal.iter().any(|m| m.special == Special::EnPassant),
                None => movegen::has_legal_en_passant(&self.rules, &self.variant, &self.position),
            })
            .map(|square| square.index() as u8);
        self.position
            .board
            .key()
            .chain([self.position.turn as u8, self.position.castling_byte()])
            .chain(en_passant)
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// Checkmate or stalemate of the side to move, which has no legal action.
    pub fn no_action_outcome(&self) -> Outcome {
        let mover = self.position.turn;
        if self.is_in_check(mover) {
            Outcome::win(Seat::of_color(mover.other()), EndReason::Checkmate)
        } else if self.variant.def.stalemate == StalemateRule::Loss {
            Outcome::win(Seat::of_color(mover.other()), EndReason::Stalemate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        }
    }

    /// How chess's own rules find the game: over when the side to move has no legal move (mate or
    /// stalemate), or by an automatic draw (a dead position only where `may_be_dead`).
    pub fn chess_ending(&self, may_be_dead: bool) -> Option<Outcome> {
        if !self.can_move() {
            return Some(self.no_action_outcome());
        }
        self.draw_by_rule(may_be_dead)
    }

    /// How many times the current position has been reached (1 the first time).
    pub fn repetitions(&self) -> usize {
        let current = self.keys.last().expect("the start position is always recorded");
        self.keys.iter().filter(|k| *k == current).count()
    }

    /// A half-move without a move (Assault's pass): the turn passes, en passant lapses, the
    /// 50-move count goes on, and the position counts for repetition.
    pub fn pass(&mut self) {
        let position = &mut self.position;
        if position.turn == Color::Black {
            position.fullmove_number += 1;
        }
        position.turn = position.turn.other();
        position.en_passant = None;
        position.halfmove_clock += 1;
        self.finish_action(None);
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

    /// King against king with at most one minor piece (a knight, Knights are God's (1,3) knight,
    /// or a bishop), or, where the variant says so, with bishops all on one square colour.
    fn is_dead_position(&self) -> bool {
        let mut minors = Vec::new();
        for (square, piece) in self.position.board.pieces() {
            match self.variant.piece(piece.kind).def.id.as_str() {
                "king" => {}
                "knight" | "ubc-knight" => minors.push((false, square)),
                "bishop" => minors.push((true, square)),
                _ => return false,
            }
        }
        match minors.as_slice() {
            [] | [_] => true,
            several if self.variant.def.draws.same_colour_bishops_are_dead => {
                let colour = |sq: Square| (sq.file() + sq.rank()) % 2;
                several
                    .iter()
                    .all(|&(is_bishop, sq)| is_bishop && colour(sq) == colour(several[0].1))
            }
            _ => false,
        }
    }

    /// The board as `viewer` sees it: the game's own marks (see [`Rules::marks`]) and `extra`.
    pub fn board_view(&self, viewer: Viewer, extra: Vec<Mark>) -> BoardView {
        let mut marks = self
            .rules
            .marks(&self.variant, &self.position, self.last.as_ref(), viewer);
        marks.extend(extra);
        board_view(
            &self.position.board,
            marks,
            self.last.map(|last| (last.from, last.landing)),
            self.check_square(),
            if self.unwritten {
                String::new()
            } else {
                self.public_fen()
            },
        )
    }

    /// The square of a royal piece in check, if the side to move is in check.
    fn check_square(&self) -> Option<Square> {
        let mover = self.position.turn;
        self.is_in_check(mover)
            .then(|| self.position.royals[mover.index()])
            .flatten()
    }

    /// A view with everything public filled in but the record, which [`Game::view`] fills in from
    /// the game's own hook; games add their secrets and notes.
    pub fn base_view(&self, viewer: Viewer, phase: Phase, to_act: Vec<Seat>, outcome: Option<&Outcome>) -> View {
        View::new(
            self.variant.def.id.clone(),
            viewer,
            piece_views(&self.variant),
            vec![self.board_view(viewer, Vec::new())],
            phase,
            to_act,
            outcome.cloned(),
        )
    }

    /// FEN without marks (secrets never appear in FEN).
    pub fn public_fen(&self) -> String {
        self.variant.fen(&self.position)
    }
}

/// The pieces of a variant as views name them (in kind order, so a kind is its own index).
pub fn piece_views(variant: &Variant) -> Vec<PieceView> {
    variant.piece_views.clone()
}

/// A board as anyone sees it: pieces (never their marks) by kind, statues, the last move, a
/// check, the marks a game adds, and its FEN.
pub fn board_view(
    board: &crate::position::Board,
    marks: Vec<Mark>,
    last_move: Option<(Square, Square)>,
    check: Option<Square>,
    fen: String,
) -> BoardView {
    let mut cells = Vec::new();
    fill_cells(board, &mut cells);
    BoardView {
        label: None,
        files: board.size().files,
        ranks: board.size().ranks,
        cells,
        seats: [Seat::First, Seat::Second],
        last_move,
        check,
        marks,
        fen,
    }
}

/// `cells` made the board's, rank by rank from a1: pieces by kind (never their marks), statues.
fn fill_cells(board: &crate::position::Board, cells: &mut Vec<ViewCell>) {
    let size = board.size();
    cells.clear();
    cells.reserve(size.square_count());
    for rank in 0..size.ranks {
        for file in 0..size.files {
            let cell: Cell = board.get(Square::new(file, rank));
            cells.push(match cell.as_piece() {
                None if cell.is_statue() => ViewCell::Statue,
                None => ViewCell::Empty,
                Some(piece) => ViewCell::Piece {
                    color: piece.color,
                    piece: piece.kind as usize,
                },
            });
        }
    }
}

/// A chess-like game defined by its variant file and its rules hooks: FIDE chess, and any
/// variant loaded from a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = "R: Default"))]
pub struct ChessGame<R = Standard> {
    pub core: ChessCore<R>,
    outcome: Option<Outcome>,
}

impl<R: Rules + Default> ChessGame<R> {
    pub fn new(variant: Arc<Variant>) -> ChessGame<R> {
        let position = variant.start_position();
        ChessGame::from_position(variant, position)
    }

    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<ChessGame<R>, FenError> {
        let position = variant.position_from_fen(fen)?;
        Ok(ChessGame::from_position(variant, position))
    }

    fn from_position(variant: Arc<Variant>, position: Position) -> ChessGame<R> {
        let mut game = ChessGame {
            core: ChessCore::new(variant, position),
            outcome: None,
        };
        game.outcome = game.evaluate();
        game
    }
}

impl<R: Rules> ChessGame<R> {
    /// Whether a game can start from this position (`crate::start`): a chess board's checks and
    /// the rules hooks' own.
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, crate::start::StartRefusal> {
        self.core.check_start(fen)
    }

    pub fn perft(&self, depth: u32) -> u64 {
        movegen::perft(&self.core.rules, &self.core.variant, &self.core.position, depth)
    }
}

impl<R: Rules> ChessBased for ChessGame<R> {
    chess_based::fields!(id: core.variant.def.id, outcome: outcome, record: core.record, turn: core.position.turn);
    chess_based::chess_moves!(core);

    fn act(&mut self, seat: Seat, _action: &Action, (mv, text): (Move, String)) -> Option<Outcome> {
        self.core.play(seat, mv, text);
        None
    }
    fn evaluate(&self) -> Option<Outcome> {
        self.core.chess_ending(true)
    }
    fn show(&self, viewer: Viewer) -> View {
        self.core.game_view(self, viewer)
    }
    fn show_into(&self, viewer: Viewer, view: &mut View) {
        self.core.refresh_game_view(self, viewer, view);
    }
    // Everything a chess-like game without state of its own goes on from is its position.
    fn search_key(&self) -> Option<u64> {
        Some(self.core.position.search_key())
    }
    fn stop_writing(&mut self) {
        self.core.stop_writing();
    }
    fn pass_in_search(&mut self) -> bool {
        self.core.pass();
        true
    }
    fn guarded(&self, square: Square, by: Seat) -> Option<bool> {
        Some(self.core.guarded(square, by))
    }
    fn gives_check(&self, action: &Action) -> Option<bool> {
        self.core.gives_check(action)
    }
    fn search_captures(&self) -> Option<Vec<Action>> {
        Some(self.core.capture_actions())
    }
}
