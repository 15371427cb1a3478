//! The game model every variant implements: seats, phases, actions, outcomes, and the rulings a
//! game makes about time and takebacks. What a viewer may see is in [`crate::view`].

use crate::geometry::Square;
use crate::view::{RecordEntry, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

pub use crate::outcome::{EndReason, Outcome, Phase};
pub use crate::seat::{Seat, Viewer};

/// A piece's stable id (a catalogue id such as `queen`): how actions name pieces, so that stored
/// actions mean the same piece whatever order a variant lists its pieces in.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PieceId(pub String);

impl PieceId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for PieceId {
    fn from(id: &str) -> PieceId {
        PieceId(id.to_string())
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// Everything a seat can do in some game. Each game accepts the kinds it knows and refuses the
/// rest. This is what game logs store (docs/game-model.md), so squares travel by name and pieces
/// by id, and nothing in it depends on how a game keeps its state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Action {
    /// A chess-like move: the square left, the square entered, the piece promoted to, a square
    /// chosen with the move (Circe's rebirth), and the board it is played on (0 for the first).
    Move {
        from: Square,
        to: Square,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<PieceId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        choice: Option<Square>,
        #[serde(default, skip_serializing_if = "is_first_board")]
        board: u8,
    },
    /// A set-up placement of a piece from hand (`Q@d4`).
    Place { piece: PieceId, to: Square },
    /// Blockade's turn: a move without capture, then a statue (`Qd1-d5@d7`).
    MoveAndStatue { from: Square, to: Square, statue: Square },
    /// Beirut's secret choice of bomb carrier (`bomb:d2`).
    ChooseBomb { square: Square },
    /// Beirut's detonation.
    Detonate,
    /// CTF's secret choice of base (`base:e3`).
    ChooseBase { square: Square },
    /// CTF: the carrier drops the flag it carries on its square.
    Drop,
    /// A turn without a move, for a side that has none (CTF).
    Pass,
    /// Rejection: the proposed move is played.
    Accept,
    /// Rejection: the proposed move is refused; the mover plays another.
    Reject,
    /// A player's own list of pieces (Pick-the-team version two, Patch, Easy Patch).
    SubmitList { pieces: Vec<crate::lists::ListPiece> },
}

fn is_first_board(board: &u8) -> bool {
    *board == 0
}

impl Action {
    /// A move on the first board, without promotion or choice.
    pub fn simple_move(from: Square, to: Square) -> Action {
        Action::Move {
            from,
            to,
            promotion: None,
            choice: None,
            board: 0,
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
    /// The text is not an action of this game at all; `expected` says what one looks like.
    #[error("could not read \"{text}\": {expected}")]
    Unreadable { text: String, expected: String },
    /// A readable action that may not be played now; the text says why.
    #[error("{0}")]
    Illegal(String),
    #[error("\"{text}\" could mean {}: say which", options.join(" or "))]
    Ambiguous { text: String, options: Vec<String> },
}

impl ActionError {
    pub fn unreadable(text: &str, expected: impl Into<String>) -> ActionError {
        ActionError::Unreadable {
            text: text.trim().to_string(),
            expected: expected.into(),
        }
    }
}

/// What happens when a seat's time runs out: the game's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timeout {
    /// The game ends so (a loss on time in most games).
    Ends(Outcome),
    /// This action is played for the seat (Rejection: the pending proposal is accepted).
    Plays(Action),
}

/// A game: a state machine over actions by seats. Implementations keep their state unchanged
/// whenever an action is refused, and everything they let out goes through [`Game::view`].
pub trait Game {
    /// The stable id of the game's variant.
    fn variant_id(&self) -> &str;
    fn phase(&self) -> Phase;
    /// The seats that must act now; several during a simultaneous sealed choice.
    fn to_act(&self) -> Vec<Seat>;
    /// Every action `seat` may take now (empty when it is not that seat's turn).
    fn legal_actions(&self, seat: Seat) -> Vec<Action>;
    /// A key of everything the rules will decide from here on, for the computer opponent's
    /// table of positions it has searched ([`crate::ai::table`]): two games with the same key
    /// go on alike (the history a repetition or the 50-move rule reads aside, as every engine's
    /// table leaves it). `None` for a game without one: it is searched without a table.
    fn search_key(&self) -> Option<u64> {
        None
    }
    /// Stops writing what only people read (the record, each action's notation, a board's FEN)
    /// in a copy the computer opponent searches: it reads positions and weighs them, and writing
    /// costs as much as checking a move. A game whose rules read its record keeps writing.
    fn stop_writing(&mut self) {}
    /// Hands the turn to the other side without an action, in a copy the computer opponent
    /// searches: if the side to act could pass and still be well off, its real actions are
    /// better (null-move pruning). False, and nothing changed, in a game where passing says
    /// nothing (Blockade's whole point is having a move) or that does not keep turns so.
    fn pass_in_search(&mut self) -> bool {
        false
    }
    /// Whether a piece of `by` attacks `square` of `board` as the position stands, where the game
    /// can tell cheaply: the computer opponent's guess at which captures lose the capturer (a
    /// queen taking a guarded pawn). `None` where it cannot; the search then guesses nothing.
    fn guarded(&self, _board: u8, _square: Square, _by: Seat) -> Option<bool> {
        None
    }
    /// Whether `action`, legal for `seat`, checks the other side's royal piece, where the game can
    /// tell cheaply: the computer opponent never leaves out nor cuts short the search of a check,
    /// which may be the start of a mate. `None` where it cannot.
    fn gives_check(&self, _seat: Seat, _action: &Action) -> Option<bool> {
        None
    }
    /// The legal actions of `seat` that capture a piece of the other side where they land,
    /// where the game can list them without the rest: the computer opponent's quiescence search
    /// tries nothing else. `None` where it cannot; the search then lists every action.
    fn search_captures(&self, _seat: Seat) -> Option<Vec<Action>> {
        None
    }
    /// The legal actions with their notation, in one pass (what menus and autocomplete list).
    fn noted_actions(&self, seat: Seat) -> Vec<(Action, String)> {
        self.legal_actions(seat)
            .into_iter()
            .map(|action| {
                let text = self.notation(seat, &action);
                (action, text)
            })
            .collect()
    }
    /// Reads an action written by `seat`, checking that it is legal now.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError>;
    /// The action in the game's notation, as its actor writes it (call before applying it).
    fn notation(&self, seat: Seat, action: &Action) -> String;
    /// Checks and applies an action.
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError>;
    fn outcome(&self) -> Option<&Outcome>;
    /// Ends the game for a reason outside the board: resignation, agreement, time, a host's
    /// ruling. A game that has ended stays as it ended.
    fn conclude(&mut self, outcome: Outcome);
    /// Everything `viewer` may know of the game.
    fn view(&self, viewer: Viewer) -> View;

    // Parts of a view on their own, for callers that need only them (what an action changed:
    // [`crate::applied`]): each is exactly that part of [`Game::view`], without the cost of the rest
    // (boards, pieces, a prompt's list of choices). The defaults take them from the view; the
    // games override them with what costs less.

    /// [`View::record`]: the record as `viewer` reads it. Every viewer reads as many entries.
    fn record(&self, viewer: Viewer) -> Vec<RecordEntry> {
        self.view(viewer).record
    }
    /// [`View::notes`] of `viewer`'s view.
    fn notes(&self, viewer: Viewer) -> Vec<String> {
        self.view(viewer).notes
    }
    /// Whether `seat`'s view has a [`View::prompt`].
    fn has_prompt(&self, seat: Seat) -> bool {
        self.view(Viewer::Seat(seat)).prompt.is_some()
    }
    /// [`View::notice`] of `seat`'s view.
    fn notice(&self, seat: Seat) -> Option<String> {
        self.view(Viewer::Seat(seat)).notice
    }

    /// [`Game::view`] without its record, notes, prompt and notice: the position as `viewer` sees
    /// it, for the computer opponent ([`crate::ai`]), which weighs many positions a move.
    fn sight(&self, viewer: Viewer) -> View {
        self.view(viewer)
    }
    /// [`Game::sight`] written over `view`, an earlier sight of this game: the same view, where
    /// the game can reuse the earlier one's allocations (the search takes a sight at every
    /// position it visits).
    fn sight_into(&self, viewer: Viewer, view: &mut View) {
        *view = self.sight(viewer);
    }

    /// What happens when `seat` runs out of time: a loss, unless the game rules otherwise.
    fn on_timeout(&self, seat: Seat) -> Timeout {
        loss_on_time(seat)
    }

    /// Whether `seat`, having just acted and still to act, is in the middle of one turn of several
    /// actions (the second placement of a set-up turn follows), so its clock runs on; otherwise
    /// its next action begins a new turn (Assault's next half-turn).
    fn is_mid_turn(&self, _seat: Seat) -> bool {
        false
    }

    /// Whether the seats to act answer the other's proposal rather than move (Rejection, while
    /// a proposal waits): announcements say they are "to answer".
    fn awaits_answer(&self) -> bool {
        false
    }

    /// Whether `seat`, having made a sealed choice, may still change it (a list of pieces, until
    /// the other list is in): such a seat may act without being among [`Game::to_act`].
    fn may_revise(&self, _seat: Seat) -> bool {
        false
    }

    /// Whether a played action may be undone by a takeback (a secret choice may not).
    fn can_take_back(&self, _action: &Action) -> bool {
        true
    }

    /// How many of the last actions of `history` (the actions in effect, oldest first) a
    /// takeback asked for by `asker` undoes: their last action and any reply after it.
    fn takeback_plies(&self, asker: Seat, history: &[(Seat, Action)]) -> Result<usize, ActionError> {
        last_own_action_plies(asker, history, |action| self.can_take_back(action))
    }
}

/// What running out of time means unless a game rules otherwise: a loss.
pub fn loss_on_time(seat: Seat) -> Timeout {
    Timeout::Ends(Outcome::win(seat.other(), EndReason::Timeout))
}

/// The takeback most games allow (see [`Game::takeback_plies`]): `asker`'s last action and any
/// reply after it, unless one of them cannot be taken back (`can_take_back`).
pub fn last_own_action_plies(
    asker: Seat,
    history: &[(Seat, Action)],
    can_take_back: impl Fn(&Action) -> bool,
) -> Result<usize, ActionError> {
    let last_own = history.iter().rposition(|(seat, _)| *seat == asker);
    let plies = match last_own {
        Some(i) if history.len() - i <= 2 => history.len() - i,
        _ => return Err(ActionError::Illegal("you have no move of your own to take back".into())),
    };
    if history[history.len() - plies..]
        .iter()
        .any(|(_, action)| !can_take_back(action))
    {
        return Err(ActionError::Illegal("secret choices cannot be taken back".into()));
    }
    Ok(plies)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_stored_with_square_names_and_piece_ids() {
        let action = Action::Move {
            from: Square::parse("b7").unwrap(),
            to: Square::parse("b8").unwrap(),
            promotion: Some("knight".into()),
            choice: None,
            board: 0,
        };
        let json = serde_json::to_string(&action).unwrap();
        assert_eq!(json, r#"{"type":"move","from":"b7","to":"b8","promotion":"knight"}"#);
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
        let place = serde_json::to_string(&Action::Place {
            piece: "blockade-queen".into(),
            to: Square::parse("d4").unwrap(),
        })
        .unwrap();
        assert_eq!(place, r#"{"type":"place","piece":"blockade-queen","to":"d4"}"#);
    }
}
