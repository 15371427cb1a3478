//! Pick-the-team chess, version one (rules page //! docs/rules/pick-the-team.md): the 40 piece types start in a pool beside an empty 10x10 board;
//! the players pick them in snake order (White 1, then blocks of 2, White the last one), each pick
//! placed at once on the picker's first row, then its second; each player's first pick is royal;
//! then the game is played as chess with these pieces.
//!
//! The games of players' own lists (Pick-the-team version two, Patch, Easy Patch;
//! [`super::own_pieces`]) pick and play the same way from the pool of both lists, where a type
//! listed by both players can be picked twice.

use crate::chess_move::LastMove;
use crate::fen::FenError;
use crate::game::{Action, ActionError, Game, Outcome, PieceId, Seat, Viewer};
use crate::geometry::Square;
use crate::movegen;
use crate::notation;
use crate::piece::{Cell, Color, Kind, Piece};
use crate::position::Position;
use crate::rules::{Rules, Standard};
use crate::start::{FirstRankPawns, StartRefusal, check_chess_position_with};
use crate::variant_file::Variant;
use crate::variants::chess::ChessCore;
use crate::variants::chess_based::{self, ChessBased, Stage};
use crate::view::View;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Who picks the `index`th piece (from 0): White, then blocks of two alternating from Black.
/// With an even number of picks the last block is a single pick: White's of 40 and 32, Black's
/// of Easy Patch's 14.
pub fn picker(index: usize) -> Color {
    if index == 0 {
        Color::White
    } else if ((index - 1) / 2).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PickTheTeamGame {
    core: ChessCore,
    /// The types still to be picked, in the variant's order; a type listed twice can be picked
    /// twice.
    pool: Vec<Kind>,
    /// How many picks the game has in all.
    total_picks: usize,
    outcome: Option<Outcome>,
}

impl PickTheTeamGame {
    /// Whether a game can start from this position (`crate::start`). A position is a game in
    /// play, the picking done (a FEN has no pool). The chess board's checks, but for one: pawns
    /// are picked onto their first and second rows and some move backwards, so a pawn may stand
    /// on its own first row; only its promotion row (the last, or the 8th for Mecklenberg
    /// pawns) and beyond are closed to it. Each side has exactly one royal (a King or a Royal
    /// knight), the side not to move is not in check, no en passant, counters in range.
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
        let variant = self.variant();
        let position = &self.core.position;
        check_chess_position_with(variant, &Standard, position, FirstRankPawns::Allowed)?;
        Ok(crate::start::dropped_castling(variant, fen, position)
            .into_iter()
            .collect())
    }

    /// A new game: an empty board and every type of the variant in the pool.
    pub fn new(variant: Arc<Variant>) -> PickTheTeamGame {
        let pool: Vec<Kind> = variant.table.iter().map(|(kind, _)| kind).collect();
        PickTheTeamGame::with_pool(variant, pool)
    }

    /// A new game from the variant's start position with `pool` to pick from.
    pub fn with_pool(variant: Arc<Variant>, pool: Vec<Kind>) -> PickTheTeamGame {
        let position = variant.start_position();
        let total_picks = pool.len();
        PickTheTeamGame {
            core: ChessCore::new(variant, position),
            pool,
            total_picks,
            outcome: None,
        }
    }

    /// A game in play from a position (the picking done).
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<PickTheTeamGame, FenError> {
        let position = variant.position_from_fen(fen)?;
        let mut game = PickTheTeamGame {
            core: ChessCore::new(variant, position),
            pool: Vec::new(),
            total_picks: 0,
            outcome: None,
        };
        game.outcome = game.evaluate();
        Ok(game)
    }

    fn is_picking(&self) -> bool {
        !self.pool.is_empty()
    }

    fn picks_made(&self) -> usize {
        self.total_picks - self.pool.len()
    }

    fn variant(&self) -> &Variant {
        &self.core.variant
    }

    /// The squares `color` may place on now: its first row while it has a free square, then its
    /// second.
    fn free_home_squares(&self, color: Color) -> Vec<Square> {
        let size = self.variant().size;
        let row = |relative: u8| {
            if color == Color::White {
                relative - 1
            } else {
                size.ranks - relative
            }
        };
        for relative in [1, 2] {
            let free: Vec<Square> = (0..size.files)
                .map(|file| Square::new(file, row(relative)))
                .filter(|&sq| self.core.position.board.get(sq).is_empty())
                .collect();
            if !free.is_empty() {
                return free;
            }
        }
        Vec::new()
    }

    /// The board after `color` places a `kind` on `to`.
    fn placed(&self, color: Color, kind: Kind, to: Square) -> Position {
        let mut position = self.core.position.clone();
        position.board.set(to, Cell::piece(Piece::new(kind, color)));
        // Each side has at most one royal piece: the placement cannot make a second.
        let _ = position.locate_royals(&self.variant().table);
        position
    }

    /// Whether a placement keeps the placer's royal safe and leaves the opponent's unattacked.
    fn is_quiet(&self, color: Color, kind: Kind, to: Square) -> bool {
        let after = self.placed(color, kind, to);
        let variant = self.variant();
        let is_attacked = |side: Color| {
            after.royals[side.index()].is_some_and(|sq| Standard.is_attacked(variant, &after, sq, side.other()))
        };
        !is_attacked(color) && !is_attacked(color.other())
    }

    /// The picks `color` may make now: each type still in the pool (royal ones only for a first
    /// pick) on each square it may take; those that disturb no royal, unless none does.
    fn picks(&self, color: Color) -> Vec<(Kind, Square)> {
        let variant = self.variant();
        let has_royal = self.core.position.royals[color.index()].is_some();
        // A type listed twice is one choice.
        let mut kinds: Vec<Kind> = self
            .pool
            .iter()
            .copied()
            .filter(|&kind| has_royal || variant.is_royal(kind, color))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        let squares = self.free_home_squares(color);
        let all: Vec<(Kind, Square)> = kinds
            .iter()
            .flat_map(|&kind| squares.iter().map(move |&sq| (kind, sq)))
            .collect();
        let quiet: Vec<(Kind, Square)> = all
            .iter()
            .copied()
            .filter(|&(kind, sq)| self.is_quiet(color, kind, sq))
            .collect();
        if quiet.is_empty() { all } else { quiet }
    }

    fn place_action(&self, kind: Kind, to: Square) -> Action {
        Action::Place {
            piece: PieceId(self.variant().piece(kind).def.id.clone()),
            to,
        }
    }

    fn pick_text(&self, kind: Kind, to: Square) -> String {
        format!("{}@{to}", self.variant().piece(kind).def.symbol)
    }

    /// Places a pick, and once the pool is empty starts the play: the owner of the one royal
    /// under attack moves first, otherwise White.
    fn place(&mut self, color: Color, kind: Kind, to: Square) {
        let variant = self.core.variant.clone();
        self.core.position = self.placed(color, kind, to);
        if let Some(index) = self.pool.iter().position(|&k| k == kind) {
            self.pool.remove(index);
        }
        let next = if self.is_picking() {
            picker(self.picks_made())
        } else {
            let attacked: Vec<Color> = Color::BOTH
                .into_iter()
                .filter(|&side| self.core.rules.is_in_check(&variant, &self.core.position, side))
                .collect();
            match attacked.as_slice() {
                [only] => *only,
                _ => Color::White,
            }
        };
        self.core.position.turn = next;
    }

    /// Counts the leaf nodes of the action tree (picks, then moves) to `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.is_picking() || self.outcome.is_some() {
            return crate::variants::generic_perft(self, depth);
        }
        movegen::perft(&Standard, &self.core.variant, &self.core.position, depth)
    }
}

impl ChessBased for PickTheTeamGame {
    /// The action's notation.
    type Checked = String;

    chess_based::fields!(id: core.variant.def.id, outcome: outcome, record: core.record, turn: core.position.turn);

    fn stage(&self) -> Stage {
        if self.is_picking() { Stage::Setup } else { Stage::Play }
    }
    /// A block of two picks is one turn.
    fn mid_turn(&self, seat: Seat) -> bool {
        let done = self.picks_made();
        self.is_picking() && done > 0 && picker(done - 1) == picker(done) && Seat::of_color(picker(done)) == seat
    }
    fn actions(&self, seat: Seat) -> Vec<(Action, String)> {
        if self.is_picking() {
            return self
                .picks(seat.color())
                .into_iter()
                .map(|(kind, to)| (self.place_action(kind, to), self.pick_text(kind, to)))
                .collect();
        }
        self.core.noted_move_actions()
    }
    fn read(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        if !self.is_picking() {
            return self.core.read_move(text);
        }
        let (symbol, to) = notation::parse_placement(text).ok_or_else(|| {
            ActionError::unreadable(
                text,
                "a pick is written with the piece's symbol and the square, like CN@c1",
            )
        })?;
        let variant = self.variant();
        let kind = variant
            .kind_by_symbol(symbol)
            .ok_or_else(|| ActionError::Illegal(format!("{symbol} is not a piece of this game")))?;
        let action = self.place_action(kind, to);
        if self.legal_actions(seat).contains(&action) {
            return Ok(action);
        }
        let color = seat.color();
        let message = if !self.pool.contains(&kind) {
            format!("every {} has already been picked", variant.piece(kind).def.name)
        } else if self.core.position.royals[color.index()].is_none() && !variant.is_royal(kind, color) {
            let mut royals: Vec<&str> = self
                .pool
                .iter()
                .filter(|&&k| variant.is_royal(k, color))
                .map(|&k| variant.piece(k).def.name.as_str())
                .collect();
            royals.dedup();
            format!("your first pick must be royal: {}", royals.join(" or "))
        } else if !self.free_home_squares(color).contains(&to) {
            "a pick goes on a free square of your first row, then of your second".to_string()
        } else {
            "that placement would attack a royal piece, and another pick does not".to_string()
        };
        Err(ActionError::Illegal(message))
    }
    /// The actions without their notation, which costs a move generation per move.
    fn bare_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_picking() {
            return self
                .picks(seat.color())
                .into_iter()
                .map(|(kind, to)| self.place_action(kind, to))
                .collect();
        }
        self.core.move_actions()
    }
    fn write(&self, seat: Seat, action: &Action) -> String {
        match action {
            Action::Place { piece, to } => match self.variant().kind_by_id(piece.as_str()) {
                Some(kind) => self.pick_text(kind, *to),
                None => format!("{action:?} by {seat:?}"),
            },
            other => self
                .core
                .write_move(other)
                .unwrap_or_else(|| format!("{action:?} by {seat:?}")),
        }
    }
    fn check(&self, seat: Seat, action: &Action) -> Result<String, ActionError> {
        if self.is_picking() {
            return self.checked_text(seat, action);
        }
        // In play, a move is checked as in chess: its notation only where it is written.
        self.core
            .checked_move(action)
            .map(|(_, text)| text)
            .map_err(|_| ActionError::Illegal("that is not a legal action here".into()))
    }
    fn act(&mut self, seat: Seat, action: &Action, text: String) -> Option<Outcome> {
        match action {
            Action::Place { piece, to } => {
                let kind = self
                    .variant()
                    .kind_by_id(piece.as_str())
                    .expect("a legal pick names a type");
                self.place(seat.color(), kind, *to);
                self.core.record.push(seat, text);
                // The pick is shown like a last move, on the square it was placed on.
                self.core.finish_action(Some(LastMove::at(*to)));
            }
            other => self.core.play_action(seat, other, text),
        }
        None
    }
    fn evaluate(&self) -> Option<Outcome> {
        if self.is_picking() {
            return None;
        }
        self.core.chess_ending(false)
    }
    fn show(&self, viewer: Viewer) -> View {
        let mut view = self.core.game_view(self, viewer);
        view.pool = self.pool.iter().map(|&kind| kind as usize).collect();
        view
    }
    // In play, everything the game goes on from is its position (the pool is empty); while
    // picking, the search keeps no table.
    fn search_key(&self) -> Option<u64> {
        (!self.is_picking()).then(|| self.core.position.search_key())
    }
    // The game reads its position and pool, never its record.
    fn stop_writing(&mut self) {
        self.core.stop_writing();
    }
    // In play, the turn is the position's, as in chess; while picking, a pass says nothing.
    fn pass_in_search(&mut self) -> bool {
        if self.is_picking() {
            return false;
        }
        self.core.pass();
        true
    }
    fn guarded(&self, square: Square, by: Seat) -> Option<bool> {
        (!self.is_picking()).then(|| self.core.guarded(square, by))
    }
    fn gives_check(&self, action: &Action) -> Option<bool> {
        if self.is_picking() {
            return None;
        }
        self.core.gives_check(action)
    }
    fn search_captures(&self) -> Option<Vec<Action>> {
        (!self.is_picking()).then(|| self.core.capture_actions())
    }
    fn notes_for(&self, _viewer: Viewer) -> Vec<String> {
        if !self.is_picking() {
            return Vec::new();
        }
        vec![format!(
            "Pick {} of {}: {} {} left in the pool",
            self.picks_made() + 1,
            self.total_picks,
            self.pool.len(),
            if self.pool.len() == 1 { "piece" } else { "pieces" }
        )]
    }
}
