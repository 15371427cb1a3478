//! What one viewer may know of a game. Everything that leaves the engine (images, messages,
//! exports, autocomplete, logs) is built from a [`View`], or from parts of one a game gives alone
//! (`Game::record`, `notes`, `has_prompt`, `notice`), so secrets cannot leak by accident.
//!
//! A view speaks a general vocabulary (boards, pieces, marks in tones, scores, a pool, a prompt)
//! so that images and messages are made the same way for every game: no code outside the engine
//! needs to know which game it shows.

use crate::geometry::Square;
use crate::outcome::{Outcome, Phase};
use crate::piece::{Color, Symbol};
use crate::seat::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How a side's pieces and marks are painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideStyle {
    White,
    Black,
    Red,
    Blue,
}

/// A piece type as a viewer sees it: enough to draw it and name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PieceView {
    /// Stable id (a catalogue id, or the id a variant gives its own piece).
    pub id: Arc<str>,
    pub symbol: Symbol,
    pub name: Arc<str>,
    pub is_royal: bool,
    pub is_pawn: bool,
    /// Its moves in Betza notation (docs/betza.md).
    #[serde(default = "no_moves")]
    pub betza: Arc<str>,
    /// It can never be captured (Pick-the-team's blocking prince).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_uncapturable: bool,
}

fn no_moves() -> Arc<str> {
    Arc::from("")
}

impl PieceView {
    /// How a viewer sees a piece type the game defines.
    pub fn of(def: &crate::piece::PieceDef) -> PieceView {
        PieceView {
            id: def.id.as_str().into(),
            symbol: def.symbol,
            name: def.name.as_str().into(),
            is_royal: def.royal != crate::piece::Royalty::None,
            is_pawn: def.is_pawn,
            betza: def.betza.as_str().into(),
            is_uncapturable: def.is_uncapturable,
        }
    }
}

/// Index of a piece type in [`View::pieces`].
pub type PieceRef = usize;

/// What is on one square, as a viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ViewCell {
    Empty,
    Statue,
    Piece { color: Color, piece: PieceRef },
}

/// The colour of a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tone {
    /// The colour of a side (a statue's placer).
    Side(Color),
    /// A light wash of a side's colour, for squares that may hold pieces (a square's owner).
    SideLight(Color),
    /// Something dangerous or secret (a bomb).
    Danger,
    /// Something to look at (an arrival square, a rebirth).
    Highlight,
    /// A quiet mark (a portal, a legal destination).
    Neutral,
}

/// How a mark is drawn on its square.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkKind {
    /// The whole square tinted.
    Tint(Tone),
    /// A ring around the square's edge.
    Ring(Tone),
    /// A small disc in the middle.
    Dot(Tone),
    /// A round badge in the top-right corner with one or two characters.
    Badge { text: String, tone: Tone },
    /// Small words along the square's bottom edge.
    Label { text: String, tone: Tone },
}

/// A mark on a square, with what it means (for a legend; empty when it needs none).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mark {
    pub square: Square,
    pub kind: MarkKind,
    pub meaning: String,
}

/// One board of a game as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// A title for games with several boards ("Board 1: A White, B Black").
    pub label: Option<String>,
    pub files: u8,
    pub ranks: u8,
    /// Rank by rank from a1.
    pub cells: Vec<ViewCell>,
    /// The seat that plays each colour on this board, indexed by colour.
    pub seats: [Seat; 2],
    pub last_move: Option<(Square, Square)>,
    /// A royal piece in check.
    pub check: Option<Square>,
    pub marks: Vec<Mark>,
    /// The position as FEN, without secrets.
    pub fen: String,
}

impl BoardView {
    pub fn cell(&self, square: Square) -> ViewCell {
        self.cells[square.rank() as usize * self.files as usize + square.file() as usize]
    }

    /// The colour `seat` plays on this board.
    pub fn color_of(&self, seat: Seat) -> Color {
        if self.seats[Color::White.index()] == seat {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// One entry of the game's record, as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordEntry {
    pub seat: Seat,
    pub text: String,
    /// The text stands in for an action this viewer may not know ("(chose a bomb carrier)").
    pub is_hidden: bool,
    /// How an announcement words it, where "played <text>" would not do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// False for a step of a protocol (an answer, a rejected proposal): move lists skip it.
    #[serde(default = "is_a_move")]
    pub is_move: bool,
}

fn is_a_move() -> bool {
    true
}

/// What a private prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromptKind {
    /// A secret choice made before or during play (a bomb carrier, a base).
    SecretChoice,
    /// An answer to the opponent, in private (accept or reject a proposal).
    Answer,
    /// A move to make after something happened privately (a proposal rejected).
    Move,
    /// A list of pieces to write (a form with one piece a line), not a choice from a menu.
    List,
}

/// Something a seat must answer privately, now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub kind: PromptKind,
    /// What to do, in a sentence ("Choose your bomb carrier: a unit other than your king.").
    pub text: String,
    /// The answers, in notation.
    pub choices: Vec<String>,
}

/// Everything one viewer may know about a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub variant: String,
    pub viewer: Viewer,
    /// What the game calls each seat ("White", "Red", "A").
    pub seat_names: [String; 2],
    /// How White's and Black's pieces are painted, indexed by colour.
    pub sides: [SideStyle; 2],
    /// The piece types this view mentions; cells, hands and the pool refer to them by index.
    pub pieces: Vec<PieceView>,
    pub boards: Vec<BoardView>,
    pub phase: Phase,
    pub to_act: Vec<Seat>,
    /// Pieces each seat still has to place.
    pub hands: [Vec<PieceRef>; 2],
    /// Pieces still to be picked (Pick-the-team).
    pub pool: Vec<PieceRef>,
    /// Points per seat, in games that keep a score.
    pub scores: Option<[i32; 2]>,
    /// Full turns played and how many the game lasts, in games with a fixed length.
    pub turns: Option<(u32, u32)>,
    /// The viewer's own prompt, when they must answer something privately now.
    pub prompt: Option<Prompt>,
    /// News for this viewer alone about the last action ("Black accepted your proposal"): sent
    /// to them privately when it appears.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// The record, with what the viewer may not know replaced.
    pub record: Vec<RecordEntry>,
    /// Public remarks about the state ("White has chosen a bomb carrier").
    pub notes: Vec<String>,
    pub outcome: Option<Outcome>,
}

impl View {
    /// A view of a game between White and Black with nothing but its boards and whose turn it
    /// is: no hands, pool, score or prompt, and an empty record and notes (games that have more
    /// fill it in).
    pub fn new(
        variant: String,
        viewer: Viewer,
        pieces: Vec<PieceView>,
        boards: Vec<BoardView>,
        phase: Phase,
        to_act: Vec<Seat>,
        outcome: Option<Outcome>,
    ) -> View {
        View {
            variant,
            viewer,
            seat_names: ["White".into(), "Black".into()],
            sides: [SideStyle::White, SideStyle::Black],
            pieces,
            boards,
            phase,
            to_act,
            hands: [Vec::new(), Vec::new()],
            pool: Vec::new(),
            scores: None,
            turns: None,
            prompt: None,
            notice: None,
            record: Vec::new(),
            notes: Vec::new(),
            outcome,
        }
    }

    /// The first board (every game has at least one).
    pub fn board(&self) -> &BoardView {
        &self.boards[0]
    }

    pub fn piece(&self, piece: PieceRef) -> &PieceView {
        &self.pieces[piece]
    }

    /// The FEN of every board, one per line.
    pub fn fen(&self) -> String {
        self.boards
            .iter()
            .map(|b| b.fen.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The colour that stands for `seat`: its colour on the first board.
    pub fn seat_style(&self, seat: Seat) -> SideStyle {
        self.sides[self.board().color_of(seat).index()]
    }
}
