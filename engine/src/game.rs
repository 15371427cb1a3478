//! The game model every variant implements: phases, seats to act, actions, outcomes, and views.

use crate::geometry::Square;
use crate::movegen::Move;
use crate::piece::{Color, Kind};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A player's place in a game. The engine calls the starting side White whatever the game calls
/// it (Garden of Statues says Red).
pub type Seat = Color;

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// A seated player: sees the board and their own secrets.
    Seat(Seat),
    /// Anyone else: sees only what is public.
    Spectator,
    /// After the game has ended: sees everything.
    Arbiter,
}

/// The stage a game is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Pieces are being placed or picked.
    Setup,
    /// Seats choose something secretly and simultaneously.
    SealedChoice,
    Play,
    Finished,
}

/// Everything a seat can do in some game. Each game accepts the kinds it knows and refuses the rest.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// A chess-like move.
    Move(Move),
    /// A set-up placement of a piece from hand (`Q@d4`).
    Place { kind: Kind, to: Square },
    /// Blockade's turn: a move without capture, then a statue (`Qd1-d5@d7`).
    MoveAndStatue { from: Square, to: Square, statue: Square },
    /// Beirut's secret choice of bomb carrier (`bomb:d2`).
    ChooseBomb(Square),
    /// Beirut's detonation.
    Detonate,
}

impl Action {
    /// Whether other seats must not learn this action while the game runs.
    pub fn is_secret(&self) -> bool {
        matches!(self, Action::ChooseBomb(_))
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Blockade: the player to act had no complete turn.
    NoCompleteTurn,
    /// Beirut: a detonation destroyed the king.
    KingDestroyed,
    Resignation,
    Agreement,
    /// A clock ran out.
    Timeout,
    /// A host or arbiter decided the result.
    Adjudication,
    /// Called off before it really started; no result.
    Aborted,
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "threefold repetition",
            EndReason::FiftyMoves => "the 50-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::NoCompleteTurn => "no complete turn left",
            EndReason::KingDestroyed => "the king was blown up",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "time",
            EndReason::Adjudication => "adjudication",
            EndReason::Aborted => "abort",
        }
    }
}

/// How a game ended: the winner (none for a draw or an abort), why, and scores where the game
/// keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: EndReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<[i32; 2]>,
}

impl Outcome {
    pub fn win(winner: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            scores: None,
        }
    }
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
            scores: None,
        }
    }
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn result_text(&self) -> &'static str {
        match (self.winner, self.reason) {
            (_, EndReason::Aborted) => "*",
            (Some(Color::White), _) => "1-0",
            (Some(Color::Black), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }
}

/// Why an action was refused. The game is unchanged whenever one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("you have already made your choice; wait for your opponent")]
    AlreadyChosen,
    #[error("{0}")]
    Unreadable(String),
    #[error("{0}")]
    Illegal(String),
    #[error("{0}")]
    Ambiguous(String),
}

impl From<crate::notation::MoveInputError> for ActionError {
    fn from(e: crate::notation::MoveInputError) -> ActionError {
        use crate::notation::MoveInputError as E;
        match e {
            E::Unreadable(_) => ActionError::Unreadable(e.to_string()),
            E::Illegal(_) => ActionError::Illegal(e.to_string()),
            E::Ambiguous { .. } => ActionError::Ambiguous(e.to_string()),
        }
    }
}

/// One entry of the game's record, as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordEntry {
    pub seat: Seat,
    pub text: String,
}

/// What is on one square, as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ViewCell {
    Empty,
    Statue,
    Piece {
        color: Color,
        /// The variant's letter for the piece.
        letter: char,
        /// Stable catalogue id of the piece's kind (the renderer draws by it).
        piece_id: String,
        /// A mark this viewer may see (their own bomb carrier).
        is_marked: bool,
    },
}

/// Everything one viewer may know about a game. All that leaves the engine (images, messages,
/// exports, autocomplete, logs) is built from one of these.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub variant: String,
    pub viewer: Viewer,
    pub files: u8,
    pub ranks: u8,
    /// Rank by rank from a1.
    pub cells: Vec<ViewCell>,
    pub phase: Phase,
    pub to_act: Vec<Seat>,
    /// What the game calls each seat ("White", "Red", ...).
    pub seat_names: [String; 2],
    pub last_move: Option<(Square, Square)>,
    /// A royal piece in check.
    pub check: Option<Square>,
    /// The most recent statue, with the colour of its placer.
    pub last_statue: Option<(Square, Seat)>,
    /// Pieces still to be placed, per seat, as letters.
    pub hands: [Vec<char>; 2],
    /// The record, with secrets the viewer may not know replaced.
    pub record: Vec<RecordEntry>,
    /// Public remarks about the state ("White has chosen a bomb carrier").
    pub notes: Vec<String>,
    /// The position as FEN, without secrets.
    pub fen: String,
    pub outcome: Option<Outcome>,
}

impl View {
    pub fn cell(&self, square: Square) -> &ViewCell {
        &self.cells[square.rank() as usize * self.files as usize + square.file() as usize]
    }
}

/// A game: a state machine over actions by seats. Implementations keep their state unchanged
/// whenever an action is refused.
pub trait Game {
    /// The stable id of the game's variant.
    fn variant_id(&self) -> &str;
    fn phase(&self) -> Phase;
    /// The seats that must act now; several during a simultaneous sealed choice.
    fn to_act(&self) -> Vec<Seat>;
    /// Every action `seat` may take now (empty when it is not that seat's turn).
    fn legal_actions(&self, seat: Seat) -> Vec<Action>;
    /// Reads an action written by `seat`, checking that it is legal now.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError>;
    /// The action in the game's notation, as its actor writes it (call before applying it).
    fn notation(&self, seat: Seat, action: &Action) -> String;
    /// Checks and applies an action.
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError>;
    fn outcome(&self) -> Option<&Outcome>;
    /// Ends the game for a reason outside the board: resignation, agreement, time, a host's ruling.
    fn conclude(&mut self, outcome: Outcome);
    fn view(&self, viewer: Viewer) -> View;
}

/// Checks the common preconditions of an action: the game runs and `seat` is to act.
pub fn check_turn(game: &dyn Game, seat: Seat) -> Result<(), ActionError> {
    if game.outcome().is_some() {
        return Err(ActionError::GameOver);
    }
    if !game.to_act().contains(&seat) {
        return Err(ActionError::NotYourTurn);
    }
    Ok(())
}
