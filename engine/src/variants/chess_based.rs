//! What chess-based games do alike, written once. A game of this family is its data (its state,
//! with its outcome in one field) and the hooks of [`ChessBased`]; its [`Game`] comes from them.
//!
//! What they share: the game ends when it is judged over, and an outcome from outside (a
//! resignation, time) stays the first one; an action is refused unless the game runs, the seat is
//! to act and has not already made its sealed choice, and the action is legal; a legal action is
//! played by the game's own hook, and the game is then judged afresh, unless the action decided
//! it itself (a flag brought home). Sealed choices before play are made by both seats at once;
//! otherwise one seat acts at a time.
//!
//! A view's record, notes, prompt and notice come from hooks of their own, which [`Game`] also
//! answers with alone (`Game::record` and the rest, what [`crate::applied`] compares): a view and
//! its parts agree by construction.
//!
//! Assault (two boards in lock-step, judged when a step resolves) and the games of players' own
//! lists (a sealed phase wrapped around a Pick-the-team game) implement [`Game`] themselves.

use crate::game::{
    Action, ActionError, Game, Outcome, Phase, Seat, Timeout, Viewer, check_turn, last_own_action_plies, loss_on_time,
};
use crate::geometry::Square;
use crate::piece::Color;
use crate::record::Record;
use crate::view::{Prompt, PromptKind, RecordEntry, View};

/// Where a chess-based game stands before its play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Pieces are placed or picked, one seat at a time.
    Setup,
    /// Both seats make a sealed choice at once; which of them have made theirs, by seat.
    Choosing([bool; 2]),
    Play,
}

/// The hooks of a chess-based game: what sets it apart from the others.
pub trait ChessBased: Sized {
    /// What checking an action finds that playing it needs: its notation, and the move it names.
    type Checked;

    /// The stable id of the game's variant (see [`Game::variant_id`]).
    fn id(&self) -> &str;
    /// The field that holds the outcome once the game has ended.
    fn ending(&self) -> &Option<Outcome>;
    /// See [`Game::search_key`].
    fn search_key(&self) -> Option<u64> {
        None
    }
    fn ending_mut(&mut self) -> &mut Option<Outcome>;
    /// See [`Game::stop_writing`].
    fn stop_writing(&mut self) {}
    /// See [`Game::pass_in_search`].
    fn pass_in_search(&mut self) -> bool {
        false
    }
    /// See [`Game::guarded`] (a game of one board).
    fn guarded(&self, _square: Square, _by: Seat) -> Option<bool> {
        None
    }
    /// See [`Game::gives_check`].
    fn gives_check(&self, _action: &Action) -> Option<bool> {
        None
    }
    /// See [`Game::search_captures`] (for the seat to act).
    fn search_captures(&self) -> Option<Vec<Action>> {
        None
    }

    /// Where the game stands before its play ([`Stage::Play`] for a game that starts playing).
    fn stage(&self) -> Stage {
        Stage::Play
    }
    /// The seat to act, outside a sealed choice.
    fn seat_to_move(&self) -> Seat;
    /// The legal actions of `seat`, which is to act, with their notation.
    fn actions(&self, seat: Seat) -> Vec<(Action, String)>;
    /// The legal actions of `seat`, which is to act, without their notation; a game that finds
    /// them more cheaply than with it says how.
    fn bare_actions(&self, seat: Seat) -> Vec<Action> {
        self.actions(seat).into_iter().map(|(action, _)| action).collect()
    }
    /// An action in the game's notation (see [`Game::notation`]): by default, its notation among
    /// the legal actions.
    fn write(&self, seat: Seat, action: &Action) -> String {
        self.noted_actions(seat)
            .into_iter()
            .find(|(legal, _)| legal == action)
            .map_or_else(|| format!("{action:?}"), |(_, text)| text)
    }
    /// The notation of `action` if `seat` may take it now, found without writing every legal
    /// action's (what a game's `check` needs when the record keeps the text).
    fn legal_text(&self, seat: Seat, action: &Action) -> Option<String> {
        self.bare_actions(seat)
            .contains(action)
            .then(|| self.write(seat, action))
    }
    /// The notation of `action` if `seat` may take it now, or a refusal that says only that it
    /// may not: the `check` of a game whose actions need nothing but their notation to be played.
    fn checked_text(&self, seat: Seat, action: &Action) -> Result<String, ActionError> {
        self.legal_text(seat, action)
            .ok_or_else(|| ActionError::Illegal("that is not a legal action here".into()))
    }
    /// Reads an action written by `seat`, which may act now (see [`Game::parse_action`]).
    fn read(&self, seat: Seat, text: &str) -> Result<Action, ActionError>;
    /// Checks that `action` is legal for `seat`, which may act now: what playing it needs, or why
    /// it is refused.
    fn check(&self, seat: Seat, action: &Action) -> Result<Self::Checked, ActionError>;
    /// Plays a checked action. Returns the outcome the action decides at once, if it does;
    /// otherwise the game is judged by [`ChessBased::evaluate`].
    fn act(&mut self, seat: Seat, action: &Action, checked: Self::Checked) -> Option<Outcome>;
    /// How the game stands: its outcome, if it is over.
    fn evaluate(&self) -> Option<Outcome>;
    /// An outcome from outside as the game keeps it (Domination adds the score).
    fn concluded(&self, outcome: Outcome) -> Outcome {
        outcome
    }

    /// What `viewer` may know of the game (see [`Game::view`]), but for the parts the hooks below
    /// give: the record, the notes, the prompt and the notice. (They are filled in from the hooks,
    /// so a view and the parts asked for alone always agree.)
    fn show(&self, viewer: Viewer) -> View;
    /// [`ChessBased::show`] written over `view`, an earlier one of this game (see
    /// [`Game::sight_into`]).
    fn show_into(&self, viewer: Viewer, view: &mut View) {
        *view = self.show(viewer);
    }
    /// The game's record, which views redact.
    fn game_record(&self) -> &Record;
    /// Whether the seats' own secrets in the record are open to everyone: once the game is over.
    fn reveals_secrets(&self) -> bool {
        self.ending().is_some()
    }
    /// Remarks about the state for `viewer` (see [`View::notes`]).
    fn notes_for(&self, _viewer: Viewer) -> Vec<String> {
        Vec::new()
    }
    /// What `seat` must answer privately now (see [`View::prompt`]).
    fn prompt_for(&self, _seat: Seat) -> Option<Prompt> {
        None
    }
    /// Whether `seat` has a prompt now; a game whose prompts cost something to write (a list of
    /// choices) says so without writing one.
    fn prompts(&self, seat: Seat) -> bool {
        self.prompt_for(seat).is_some()
    }
    /// News for `seat` alone about the last action (see [`View::notice`]).
    fn notice_for(&self, _seat: Seat) -> Option<String> {
        None
    }

    // The rulings of [`Game`], for the games that rule otherwise than its defaults.

    /// See [`Game::on_timeout`].
    fn timeout_ruling(&self, seat: Seat) -> Timeout {
        loss_on_time(seat)
    }
    /// See [`Game::is_mid_turn`].
    fn mid_turn(&self, _seat: Seat) -> bool {
        false
    }
    /// See [`Game::awaits_answer`].
    fn answering(&self) -> bool {
        false
    }
    /// See [`Game::can_take_back`].
    fn may_take_back(&self, _action: &Action) -> bool {
        true
    }
    /// See [`Game::takeback_plies`].
    fn takeback_count(&self, asker: Seat, history: &[(Seat, Action)]) -> Result<usize, ActionError> {
        last_own_action_plies(asker, history, |action| self.may_take_back(action))
    }
}

/// Writes the hooks of [`ChessBased`] that only say where a game keeps things, inside its
/// `impl ChessBased`, by the paths of its fields: its id (where a field holds it), its outcome,
/// its record, and (where the seat to act is always the side to move) the side to move:
/// `chess_based::fields!(id: core.variant.def.id, outcome: outcome, record: core.record, turn:
/// core.position.turn);`.
macro_rules! fields {
    (
        $(id: $($id:ident).+,)?
        outcome: $outcome:ident,
        record: $($record:ident).+
        $(, turn: $($turn:ident).+)?
        $(,)?
    ) => {
        $(
            fn id(&self) -> &str {
                &self.$($id).+
            }
        )?
        fn ending(&self) -> &Option<$crate::game::Outcome> {
            &self.$outcome
        }
        fn ending_mut(&mut self) -> &mut Option<$crate::game::Outcome> {
            &mut self.$outcome
        }
        fn game_record(&self) -> &$crate::record::Record {
            &self.$($record).+
        }
        $(
            fn seat_to_move(&self) -> $crate::game::Seat {
                $crate::game::Seat::of_color(self.$($turn).+)
            }
        )?
    };
}
pub(crate) use fields;

/// Writes the hooks of [`ChessBased`] for a game whose actions are the chess moves of its
/// [`ChessCore`](crate::variants::chess::ChessCore) (in the field named) and nothing else, inside
/// its `impl ChessBased`: what checking an action finds is the move and its SAN.
macro_rules! chess_moves {
    ($core:ident) => {
        /// The move an action names, and its SAN.
        type Checked = ($crate::chess_move::Move, String);

        fn actions(&self, _seat: $crate::game::Seat) -> Vec<($crate::game::Action, String)> {
            self.$core.noted_move_actions()
        }
        /// The moves without their SAN, which costs a move generation per move.
        fn bare_actions(&self, _seat: $crate::game::Seat) -> Vec<$crate::game::Action> {
            self.$core.move_actions()
        }
        /// The SAN of one move, without the SAN of the others.
        fn write(&self, _seat: $crate::game::Seat, action: &$crate::game::Action) -> String {
            self.$core
                .write_move(action)
                .unwrap_or_else(|| format!("{action:?}"))
        }
        fn read(
            &self,
            _seat: $crate::game::Seat,
            text: &str,
        ) -> Result<$crate::game::Action, $crate::game::ActionError> {
            self.$core.read_move(text)
        }
        fn check(
            &self,
            _seat: $crate::game::Seat,
            action: &$crate::game::Action,
        ) -> Result<($crate::chess_move::Move, String), $crate::game::ActionError> {
            self.$core.checked_move(action)
        }
    };
}
pub(crate) use chess_moves;

/// Who has made the sealed choice of `what` ("a base") and who is still making it, while the
/// seats choose and the game runs.
pub fn choosing_notes<G: ChessBased>(game: &G, what: &str) -> Vec<String> {
    let Stage::Choosing(chosen) = game.stage() else {
        return Vec::new();
    };
    if game.ending().is_some() {
        return Vec::new();
    }
    Color::BOTH
        .into_iter()
        .map(|color| {
            let state = if chosen[color.index()] {
                "has chosen"
            } else {
                "is choosing"
            };
            format!("{} {state} {what}", color.name())
        })
        .collect()
}

/// The prompt of `seat` while it has one ([`ChessBased::prompts`]) in a sealed choice: `text`
/// says what to choose, and the choices are its legal actions' notation.
pub fn sealed_choice_prompt<G: ChessBased>(game: &G, seat: Seat, text: String) -> Option<Prompt> {
    game.prompts(seat).then(|| Prompt {
        kind: PromptKind::SecretChoice,
        text,
        choices: game.noted_actions(seat).into_iter().map(|(_, text)| text).collect(),
    })
}

/// The checks before any action: the game runs, `seat` has not already made its sealed choice,
/// and it is to act.
fn may_act<G: ChessBased>(game: &G, seat: Seat) -> Result<(), ActionError> {
    let has_chosen = matches!(game.stage(), Stage::Choosing(chosen) if chosen[seat.index()]);
    if game.ending().is_none() && has_chosen {
        return Err(ActionError::AlreadyChosen);
    }
    check_turn(game, seat)
}

impl<G: ChessBased> Game for G {
    fn variant_id(&self) -> &str {
        self.id()
    }
    fn phase(&self) -> Phase {
        if self.ending().is_some() {
            return Phase::Finished;
        }
        match self.stage() {
            Stage::Setup => Phase::Setup,
            Stage::Choosing(_) => Phase::SealedChoice,
            Stage::Play => Phase::Play,
        }
    }
    fn to_act(&self) -> Vec<Seat> {
        if self.ending().is_some() {
            return Vec::new();
        }
        match self.stage() {
            Stage::Choosing(chosen) => Seat::BOTH.into_iter().filter(|s| !chosen[s.index()]).collect(),
            Stage::Setup | Stage::Play => vec![self.seat_to_move()],
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if check_turn(self, seat).is_err() {
            return Vec::new();
        }
        self.bare_actions(seat)
    }
    fn search_key(&self) -> Option<u64> {
        ChessBased::search_key(self)
    }
    fn stop_writing(&mut self) {
        ChessBased::stop_writing(self)
    }
    fn pass_in_search(&mut self) -> bool {
        ChessBased::pass_in_search(self)
    }
    fn guarded(&self, board: u8, square: Square, by: Seat) -> Option<bool> {
        if board != 0 {
            return None;
        }
        ChessBased::guarded(self, square, by)
    }
    fn search_captures(&self, seat: Seat) -> Option<Vec<Action>> {
        if check_turn(self, seat).is_err() {
            return Some(Vec::new());
        }
        ChessBased::search_captures(self)
    }
    fn gives_check(&self, seat: Seat, action: &Action) -> Option<bool> {
        if check_turn(self, seat).is_err() {
            return None;
        }
        ChessBased::gives_check(self, action)
    }
    fn noted_actions(&self, seat: Seat) -> Vec<(Action, String)> {
        if check_turn(self, seat).is_err() {
            return Vec::new();
        }
        self.actions(seat)
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        may_act(self, seat)?;
        self.read(seat, text)
    }
    fn notation(&self, seat: Seat, action: &Action) -> String {
        self.write(seat, action)
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        may_act(self, seat)?;
        let checked = self.check(seat, action)?;
        let decided = self.act(seat, action, checked);
        let outcome = decided.or_else(|| self.evaluate());
        *self.ending_mut() = outcome;
        Ok(())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.ending().as_ref()
    }
    fn conclude(&mut self, outcome: Outcome) {
        let outcome = self.concluded(outcome);
        self.ending_mut().get_or_insert(outcome);
    }
    fn view(&self, viewer: Viewer) -> View {
        let mut view = self.show(viewer);
        view.record = self.record(viewer);
        view.notes = self.notes_for(viewer);
        if let Viewer::Seat(seat) = viewer {
            view.prompt = self.prompt_for(seat);
            view.notice = self.notice_for(seat);
        }
        view
    }
    fn record(&self, viewer: Viewer) -> Vec<RecordEntry> {
        self.game_record().visible(viewer, self.reveals_secrets())
    }
    fn sight(&self, viewer: Viewer) -> View {
        self.show(viewer)
    }
    fn sight_into(&self, viewer: Viewer, view: &mut View) {
        self.show_into(viewer, view);
    }
    fn notes(&self, viewer: Viewer) -> Vec<String> {
        self.notes_for(viewer)
    }
    fn has_prompt(&self, seat: Seat) -> bool {
        self.prompts(seat)
    }
    fn notice(&self, seat: Seat) -> Option<String> {
        self.notice_for(seat)
    }
    fn on_timeout(&self, seat: Seat) -> Timeout {
        self.timeout_ruling(seat)
    }
    fn is_mid_turn(&self, seat: Seat) -> bool {
        self.mid_turn(seat)
    }
    fn awaits_answer(&self) -> bool {
        self.answering()
    }
    fn can_take_back(&self, action: &Action) -> bool {
        self.may_take_back(action)
    }
    fn takeback_plies(&self, asker: Seat, history: &[(Seat, Action)]) -> Result<usize, ActionError> {
        self.takeback_count(asker, history)
    }
}
