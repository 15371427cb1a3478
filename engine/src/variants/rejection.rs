//! Rejection Chess (rules page docs/rules/rejection.md): FIDE chess
//! in which each move is first proposed to the opponent, who accepts it or, once per turn,
//! rejects it; after a rejection the mover's next move is played at once. A mover with a single
//! legal move plays it without a proposal.
//!
//! Secrecy: a proposal is known to the two players only until it is accepted (then it is the
//! move played); a rejected proposal stays the players' alone, for good. Spectators learn that a
//! proposal was made and whether it was accepted or rejected, never which move was refused.

use crate::chess_move::{LastMove, Move};
use crate::fen::FenError;
use crate::game::{Action, ActionError, Game, Outcome, Seat, Timeout, Viewer, loss_on_time};
use crate::movegen;
use crate::piece::Color;
use crate::record::{Entry, Secrecy};
use crate::variant_file::Variant;
use crate::variants::chess::ChessCore;
use crate::variants::chess_based::{self, ChessBased};
use crate::view::{Mark, MarkKind, Prompt, PromptKind, Tone, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// What spectators read in place of a proposal they may not know.
pub const HIDDEN_PROPOSAL: &str = "(proposed a move)";

/// A proposed move: the action that plays it and its SAN.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Proposal {
    action: Action,
    text: String,
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectionGame {
    core: ChessCore,
    /// The move waiting for the opponent's answer.
    proposal: Option<Proposal>,
    /// The move the opponent rejected this turn: the mover now plays another, at once.
    rejected: Option<Proposal>,
    /// The proposal just accepted, which its mover is told of.
    accepted: Option<String>,
    outcome: Option<Outcome>,
}

// Secrets stay out of logs: Debug shows the position and whether a proposal waits, never which.
impl fmt::Debug for RejectionGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RejectionGame")
            .field("fen", &self.core.public_fen())
            .field("has_proposal", &self.proposal.is_some())
            .field("has_rejected", &self.rejected.is_some())
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl RejectionGame {
    /// Whether a game can start from this position (`crate::start`): a chess board's checks,
    /// nothing of its own. A FEN cannot carry a proposal or a rejection, so a game from one
    /// starts at the beginning of a turn, with the mover to propose (or, with a single legal
    /// move, to play it).
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, crate::start::StartRefusal> {
        self.core.check_start(fen)
    }

    /// A new game of `variant` (FIDE chess's file).
    pub fn new(variant: Arc<Variant>) -> RejectionGame {
        let position = variant.start_position();
        RejectionGame::from_core(ChessCore::new(variant, position))
    }

    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<RejectionGame, FenError> {
        let position = variant.position_from_fen(fen)?;
        Ok(RejectionGame::from_core(ChessCore::new(variant, position)))
    }

    fn from_core(core: ChessCore) -> RejectionGame {
        let mut game = RejectionGame {
            core,
            proposal: None,
            rejected: None,
            accepted: None,
            outcome: None,
        };
        game.outcome = game.evaluate();
        game
    }

    /// The proposal waiting for an answer, in SAN (the players' secret).
    pub fn proposal(&self) -> Option<&str> {
        self.proposal.as_ref().map(|p| p.text.as_str())
    }

    /// The proposal rejected this turn, in SAN (the players' secret).
    pub fn rejected(&self) -> Option<&str> {
        self.rejected.as_ref().map(|p| p.text.as_str())
    }

    /// The side whose move it is (the proposer while a proposal waits).
    fn mover(&self) -> Color {
        self.core.position.turn
    }

    /// The moves the mover may make now: every legal move, less the one rejected this turn.
    fn playable(&self) -> Vec<(Move, String)> {
        let legal = self.core.legal_moves();
        let texts = self.core.noted_moves(&legal);
        legal
            .iter()
            .copied()
            .zip(texts)
            .filter(|(mv, _)| {
                self.rejected
                    .as_ref()
                    .is_none_or(|rejected| self.core.action_of(*mv) != rejected.action)
            })
            .collect()
    }

    /// Plays a move on the board; its record entry is the caller's. (The game is judged after
    /// every action.)
    fn play(&mut self, action: &Action) {
        let legal = self.core.legal_moves();
        let mv = self.core.move_of(action, &legal).expect("a move checked for legality");
        movegen::make_move(&self.core.rules, &self.core.variant, &mut self.core.position, mv);
        self.core.finish_action(Some(LastMove::of(&mv)));
        self.rejected = None;
    }

    /// Marks of a move on the board: its squares in `tone`.
    fn move_marks(action: &Action, tone: Tone, meaning: &str) -> Vec<Mark> {
        let Action::Move { from, to, .. } = action else {
            return Vec::new();
        };
        [*from, *to]
            .into_iter()
            .map(|square| Mark {
                square,
                kind: MarkKind::Tint(tone),
                meaning: meaning.to_string(),
            })
            .collect()
    }
}

impl ChessBased for RejectionGame {
    /// The action's notation.
    type Checked = String;

    fn id(&self) -> &str {
        "rejection"
    }
    chess_based::fields!(outcome: outcome, record: core.record);
    fn answering(&self) -> bool {
        self.proposal.is_some()
    }
    /// The answerer while a proposal waits, otherwise the mover.
    fn seat_to_move(&self) -> Seat {
        match &self.proposal {
            Some(_) => Seat::of_color(self.mover().other()),
            None => Seat::of_color(self.mover()),
        }
    }
    fn actions(&self, _seat: Seat) -> Vec<(Action, String)> {
        if self.proposal.is_some() {
            return vec![(Action::Accept, "accept".into()), (Action::Reject, "reject".into())];
        }
        self.playable()
            .into_iter()
            .map(|(mv, text)| (self.core.action_of(mv), text))
            .collect()
    }
    fn read(&self, _seat: Seat, text: &str) -> Result<Action, ActionError> {
        let word = text.trim().to_ascii_lowercase();
        if self.proposal.is_some() {
            return match word.as_str() {
                "accept" => Ok(Action::Accept),
                "reject" => Ok(Action::Reject),
                _ => Err(ActionError::unreadable(
                    text,
                    "answer the proposal with accept or reject",
                )),
            };
        }
        if word == "accept" || word == "reject" {
            return Err(ActionError::Illegal(
                "there is no proposal to answer: it is your move".into(),
            ));
        }
        let mv = self.core.parse_move(text)?;
        let action = self.core.action_of(mv);
        if self.rejected.as_ref().is_some_and(|r| r.action == action) {
            return Err(ActionError::Illegal(format!(
                "{} was rejected this turn: play another move",
                self.rejected.as_ref().map_or("", |r| r.text.as_str())
            )));
        }
        Ok(action)
    }
    /// The actions without their SAN, which costs a move generation per move.
    fn bare_actions(&self, _seat: Seat) -> Vec<Action> {
        if self.proposal.is_some() {
            return vec![Action::Accept, Action::Reject];
        }
        self.core
            .move_actions()
            .into_iter()
            .filter(|action| self.rejected.as_ref().is_none_or(|rejected| *action != rejected.action))
            .collect()
    }
    fn write(&self, seat: Seat, action: &Action) -> String {
        match action {
            Action::Accept => "accept".into(),
            Action::Reject => "reject".into(),
            other => self
                .core
                .write_move(other)
                .unwrap_or_else(|| format!("{action:?} by {seat:?}")),
        }
    }
    fn check(&self, seat: Seat, action: &Action) -> Result<String, ActionError> {
        self.checked_text(seat, action)
    }
    fn act(&mut self, seat: Seat, action: &Action, text: String) -> Option<Outcome> {
        self.accepted = None;
        let mover_name = self.mover().name();
        match action {
            Action::Accept => {
                let proposal = self.proposal.take().expect("an answer answers a proposal");
                // The proposal becomes the move played.
                if let Some(entry) = self.core.record.last_mut() {
                    entry.secrecy = Secrecy::Public;
                }
                self.core.record.push_entry(Entry {
                    said: Some(format!("accepted {mover_name}'s {}", proposal.text)),
                    is_move: false,
                    ..Entry::public(seat, text)
                });
                self.play(&proposal.action);
                self.accepted = Some(proposal.text);
            }
            Action::Reject => {
                let proposal = self.proposal.take().expect("an answer answers a proposal");
                if let Some(entry) = self.core.record.last_mut() {
                    entry.is_move = false;
                }
                self.core.record.push_entry(Entry {
                    said: Some(format!(
                        "rejected {mover_name}'s proposal; {mover_name} plays another move"
                    )),
                    is_move: false,
                    ..Entry::public(seat, text)
                });
                self.rejected = Some(proposal);
            }
            _ if self.rejected.is_some() => {
                // The move after a rejection is played at once.
                self.core.record.push_entry(Entry {
                    said: Some(format!("played {text} in place of the rejected proposal")),
                    ..Entry::public(seat, text)
                });
                self.play(action);
            }
            _ if self.core.legal_moves().len() == 1 => {
                self.core.record.push_entry(Entry {
                    said: Some(format!("played {text}, the only legal move")),
                    ..Entry::public(seat, text)
                });
                self.play(action);
            }
            _ => {
                self.core.record.push_entry(Entry {
                    secrecy: Secrecy::Players {
                        shown: HIDDEN_PROPOSAL.into(),
                    },
                    ..Entry::public(seat, text.clone())
                });
                self.proposal = Some(Proposal {
                    action: action.clone(),
                    text,
                });
            }
        }
        None
    }
    fn evaluate(&self) -> Option<Outcome> {
        self.core.chess_ending(true)
    }
    /// A proposal left unanswered when the answerer's time runs out counts as accepted.
    fn timeout_ruling(&self, seat: Seat) -> Timeout {
        if self.proposal.is_some() && self.to_act() == [seat] {
            Timeout::Plays(Action::Accept)
        } else {
            loss_on_time(seat)
        }
    }
    /// A takeback undoes the asker's last move (proposed or played) and everything after it.
    fn takeback_count(&self, asker: Seat, history: &[(Seat, Action)]) -> Result<usize, ActionError> {
        history
            .iter()
            .rposition(|(seat, action)| *seat == asker && matches!(action, Action::Move { .. }))
            .map(|i| history.len() - i)
            .ok_or_else(|| ActionError::Illegal("you have no move of your own to take back".into()))
    }
    fn show(&self, viewer: Viewer) -> View {
        let mut view = self.core.game_view(self, viewer);
        let mover_name = self.mover().name();
        if matches!(viewer, Viewer::Seat(_)) {
            if let Some(proposal) = &self.proposal {
                let meaning = format!("{mover_name}'s proposal: {}", proposal.text);
                view.boards[0]
                    .marks
                    .extend(RejectionGame::move_marks(&proposal.action, Tone::Highlight, &meaning));
            }
            if let Some(rejected) = &self.rejected {
                let meaning = format!("{mover_name}'s rejected proposal: {}", rejected.text);
                view.boards[0]
                    .marks
                    .extend(RejectionGame::move_marks(&rejected.action, Tone::Danger, &meaning));
            }
        }
        view
    }
    /// The answerer of a proposal answers it; a mover whose proposal was rejected plays another
    /// move.
    fn prompt_for(&self, seat: Seat) -> Option<Prompt> {
        let mover = Seat::of_color(self.mover());
        let (mover_name, answerer_name) = (self.mover().name(), self.mover().other().name());
        if let Some(rejected) = &self.rejected
            && seat == mover
        {
            return Some(Prompt {
                kind: PromptKind::Move,
                text: format!(
                    "{answerer_name} rejected {}. Play another move: it is played at once.",
                    rejected.text
                ),
                choices: self.playable().into_iter().map(|(_, text)| text).collect(),
            });
        }
        let proposal = self.proposal.as_ref().filter(|_| seat == mover.other())?;
        Some(Prompt {
            kind: PromptKind::Answer,
            text: format!(
                "{mover_name} proposes {} (highlighted on your board): accept it, or reject it and \
                 {mover_name} plays another move at once.",
                proposal.text
            ),
            choices: vec!["accept".into(), "reject".into()],
        })
    }
    fn prompts(&self, seat: Seat) -> bool {
        let mover = Seat::of_color(self.mover());
        (self.rejected.is_some() && seat == mover) || (self.proposal.is_some() && seat == mover.other())
    }
    fn notes_for(&self, viewer: Viewer) -> Vec<String> {
        let mover = Seat::of_color(self.mover());
        let (mover_name, answerer_name) = (self.mover().name(), self.mover().other().name());
        let mut notes = Vec::new();
        if let Some(proposal) = &self.proposal {
            if viewer == Viewer::Seat(mover) {
                notes.push(format!(
                    "Your proposal {} is waiting for {answerer_name}'s answer.",
                    proposal.text
                ));
            } else if viewer != Viewer::Seat(mover.other()) {
                notes.push(format!(
                    "{mover_name} has proposed a move; {answerer_name} answers privately."
                ));
            }
        }
        if let Some(rejected) = &self.rejected {
            if viewer == Viewer::Seat(mover.other()) {
                notes.push(format!(
                    "You rejected {}; {mover_name} plays another move at once.",
                    rejected.text
                ));
            } else if viewer != Viewer::Seat(mover) {
                notes.push(format!(
                    "{answerer_name} rejected {mover_name}'s proposal; {mover_name} plays another move at once."
                ));
            }
        }
        notes
    }
    /// The proposer learns that its proposal was accepted. (The turn has passed: the proposer is
    /// now the side not to move.)
    fn notice_for(&self, seat: Seat) -> Option<String> {
        let accepted = self.accepted.as_ref()?;
        (seat == Seat::of_color(self.mover().other()))
            .then(|| format!("{} accepted your proposal: {accepted} is played.", self.mover().name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_never_names_a_proposal() {
        let mut game = RejectionGame::new(crate::variants::fide());
        let action = game.parse_action(Seat::First, "e4").unwrap();
        game.apply(Seat::First, &action).unwrap();
        let printed = format!("{game:?}");
        assert!(
            !printed.contains("e4") && printed.contains("has_proposal: true"),
            "{printed}"
        );
    }
}
