//! Capture the Flag (rules page docs/rules/ctf.md): FIDE pieces, kings not
//! royal. Before move 1 each side secretly chooses a base in its own half; its flag lies there.
//! A piece that ends a move on the enemy flag catches it and carries it; bringing it (or dropping
//! it) on its own base wins. A carrier captured gives the flag back to its base at once.

use crate::chess_move::{LastMove, Move};
use crate::fen::{FenError, split_last_field};
use crate::game::{Action, ActionError, EndReason, Game, Outcome, Seat, Viewer};
use crate::geometry::Square;
use crate::movegen;
use crate::piece::Color;
use crate::start::{StartRefusal, side};
use crate::variant_file::Variant;
use crate::variants::chess::ChessCore;
use crate::variants::chess_based::{self, ChessBased, Stage};
use crate::view::{Mark, MarkKind, Prompt, Tone, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// What others read in place of a base choice they may not know.
pub const HIDDEN_BASE: &str = "(chose a base)";

/// Where a side's flag is: lying on a square, or carried by the enemy piece standing there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    pub square: Square,
    pub is_carried: bool,
}

impl Flag {
    /// A flag lying on `square`, carried by nobody.
    fn lying(square: Square) -> Flag {
        Flag {
            square,
            is_carried: false,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CtfGame {
    core: ChessCore,
    /// Each side's base, by colour; secret until both are chosen.
    bases: [Option<Square>; 2],
    /// Each side's flag, by its owner's colour, once the bases are revealed.
    flags: [Option<Flag>; 2],
    /// Repetition keys of every position reached in play, flags included.
    keys: Vec<u64>,
    outcome: Option<Outcome>,
}

// Secrets stay out of logs: Debug shows the bases only once both are known.
impl fmt::Debug for CtfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CtfGame")
            .field("fen", &self.core.public_fen())
            .field("flags", &self.flags)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl CtfGame {
    pub fn new(variant: Arc<Variant>) -> CtfGame {
        let position = variant.start_position();
        CtfGame::from_core(ChessCore::new(variant, position), [None, None])
    }

    /// Reads a FEN, optionally followed by a field `bases:W,B` naming both bases; without it the
    /// game starts with the choice of bases. After the bases a field `flags:W,B` may say where
    /// each flag is: `-` at its base, or a square, where the flag is carried by a piece of the
    /// other side standing there and lies there otherwise. Without it both flags lie on their
    /// bases.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<CtfGame, FenError> {
        let (rest, flags) = split_last_field(fen, "flags:");
        let (chess_fen, bases) = split_last_field(rest, "bases:");
        let position = variant.position_from_fen(chess_fen)?;
        let mut chosen = [None, None];
        if let Some(field) = bases {
            let bad = || FenError::Extra(field.to_string());
            let (white, black) = field["bases:".len()..].split_once(',').ok_or_else(bad)?;
            for (color, text) in [(Color::White, white), (Color::Black, black)] {
                chosen[color.index()] = Some(variant.size.parse_square(text).ok_or_else(bad)?);
            }
        }
        let placed = match (flags, bases) {
            (None, _) => None,
            (Some(field), Some(_)) => Some(read_flags_field(&variant, field)?),
            // Flags lie on bases: without bases they cannot be anywhere yet.
            (Some(field), None) => return Err(FenError::Extra(field.to_string())),
        };
        let mut game = CtfGame::from_core(ChessCore::new(variant, position), chosen);
        if let Some(placed) = placed {
            game.place_flags(placed);
        }
        Ok(game)
    }

    /// Puts each flag where a FEN's `flags:` field says (`None`: at its base): carried by a
    /// piece of the other side standing there, lying there otherwise. The game is judged afresh.
    fn place_flags(&mut self, placed: [Option<Square>; 2]) {
        for owner in Color::BOTH {
            let Some(square) = placed[owner.index()] else {
                continue;
            };
            let is_carried = self
                .core
                .position
                .board
                .piece_at(square)
                .is_some_and(|piece| piece.color != owner);
            self.flags[owner.index()] = Some(Flag { square, is_carried });
        }
        // The start position is the first one counted for repetition, flags included.
        self.keys = vec![self.key()];
        self.outcome = self.evaluate();
    }

    /// Whether a game can start from this position (`crate::start`): a chess board's checks
    /// (the kings are not royal, so none is required); then, with the bases still to choose,
    /// a square for each side to choose and a game left after the choice; with bases given,
    /// each in its owner's half on a square free of enemy pieces, and no flag already home.
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
        crate::start::check_chess_position(&self.core.variant, &self.core.rules, &self.core.position)?;
        if self.is_choosing() {
            self.check_bases_to_choose()?;
        } else {
            for color in Color::BOTH {
                self.check_base(color)?;
            }
            for color in Color::BOTH {
                self.check_not_won_by(color)?;
            }
        }
        let position = &self.core.position;
        Ok(crate::start::dropped_castling(&self.core.variant, fen, position)
            .into_iter()
            .collect())
    }

    /// Each side still to choose has a square to choose, and the game is not over whichever it
    /// chooses (neither side can move, or the 50-move count has run out: no base changes that).
    fn check_bases_to_choose(&self) -> Result<(), StartRefusal> {
        let mut chosen = self.clone();
        for color in Color::BOTH {
            if self.base(color).is_some() {
                continue;
            }
            let Some(&square) = self.base_squares(color).first() else {
                return Err(StartRefusal::new(format!(
                    "{} has no square to choose as its base: every square of {} holds a {} piece, \
                     and a base is an empty square or one holding its owner's own piece",
                    side(color),
                    self.half_name(color),
                    side(color.other())
                )));
            };
            chosen.bases[color.index()] = Some(square);
        }
        chosen.raise_flags();
        match chosen.evaluate() {
            Some(outcome) => Err(crate::start::already_over(&outcome)),
            None => Ok(()),
        }
    }

    /// `color`'s base lies in its half, on a square empty or holding its own piece (RULES.md).
    fn check_base(&self, color: Color) -> Result<(), StartRefusal> {
        let Some(base) = self.base(color) else {
            return Ok(());
        };
        if !self.is_in_half(color, base) {
            return Err(StartRefusal::new(format!(
                "{}'s base {base} is in {}'s half: a base lies in its owner's half, {} for {}",
                side(color),
                side(color.other()),
                self.half_name(color),
                side(color)
            )));
        }
        if let Some(piece) = self.core.position.board.piece_at(base)
            && piece.color != color
        {
            return Err(StartRefusal::new(format!(
                "{}'s base {base} holds {}'s {}: a base is an empty square or one holding its owner's own piece",
                side(color),
                side(piece.color),
                self.core.variant.piece(piece.kind).def.name.to_lowercase()
            )));
        }
        Ok(())
    }

    /// `color` has not already won: the enemy flag is not carried by its piece standing on its
    /// base, nor lying there (dropped on it). The game only sees a win as a move makes it, so
    /// a position that starts won is refused here.
    fn check_not_won_by(&self, color: Color) -> Result<(), StartRefusal> {
        let (Some(flag), Some(base)) = (self.flag(color.other()), self.base(color)) else {
            return Ok(());
        };
        if flag.square != base {
            return Ok(());
        }
        let how = if flag.is_carried {
            format!(
                "{}'s flag is carried onto {base}, {}'s own base",
                side(color.other()),
                side(color)
            )
        } else {
            format!(
                "{}'s flag lies on {base}, {}'s own base",
                side(color.other()),
                side(color)
            )
        };
        Err(StartRefusal::new(format!(
            "{how}: {} has already won, so nothing would be left to play",
            side(color)
        )))
    }

    fn from_core(core: ChessCore, bases: [Option<Square>; 2]) -> CtfGame {
        let mut game = CtfGame {
            core,
            bases,
            flags: [None, None],
            keys: Vec::new(),
            outcome: None,
        };
        if !game.is_choosing() {
            game.raise_flags();
        }
        game.outcome = game.evaluate();
        game
    }

    fn is_choosing(&self) -> bool {
        self.bases.contains(&None)
    }

    /// Both bases are chosen: the flags lie on them and play begins.
    fn raise_flags(&mut self) {
        for color in Color::BOTH {
            self.send_flag_home(color);
        }
        self.keys.push(self.key());
    }

    /// `owner`'s flag goes back to lie on its base.
    fn send_flag_home(&mut self, owner: Color) {
        self.flags[owner.index()] = self.base(owner).map(Flag::lying);
    }

    /// Where `owner`'s flag is, once the bases are known.
    pub fn flag(&self, owner: Color) -> Option<Flag> {
        self.flags[owner.index()]
    }

    /// `owner`'s base, once chosen (a secret until both are).
    pub fn base(&self, owner: Color) -> Option<Square> {
        self.bases[owner.index()]
    }

    /// Where `color`'s piece carrying the enemy flag stands, if one does.
    fn carrier(&self, color: Color) -> Option<Square> {
        self.flag(color.other()).filter(|f| f.is_carried).map(|f| f.square)
    }

    /// The squares `color` may choose as its base: its half, empty or holding its own piece.
    fn base_squares(&self, color: Color) -> Vec<Square> {
        self.core
            .variant
            .size
            .squares()
            .filter(|&sq| self.is_in_half(color, sq))
            .filter(|sq| self.core.position.board.piece_at(*sq).is_none_or(|p| p.color == color))
            .collect()
    }

    /// Whether `square` lies in `color`'s half of the board (ranks 1-4 for White on 8x8).
    fn is_in_half(&self, color: Color, square: Square) -> bool {
        let ranks = self.core.variant.size.ranks;
        let half = ranks / 2;
        if color == Color::White {
            square.rank() < half
        } else {
            square.rank() >= ranks - half
        }
    }

    /// `color`'s half as players name it: "ranks 1-4", "ranks 5-8".
    fn half_name(&self, color: Color) -> String {
        let ranks = self.core.variant.size.ranks;
        let half = ranks / 2;
        match color {
            Color::White => format!("ranks 1-{half}"),
            Color::Black => format!("ranks {}-{ranks}", ranks - half + 1),
        }
    }

    /// The position's repetition key with both flags in it.
    fn key(&self) -> u64 {
        let mut key = self.core.position_key();
        for flag in self.flags.iter().flatten() {
            let byte = flag.square.index() as u64 | if flag.is_carried { 0x100 } else { 0 };
            key = (key ^ byte).wrapping_mul(0x0100_0000_01b3);
        }
        key
    }

    /// The moves of the side to move, with their notation (a carrier marked, `[N]f3`).
    fn moves(&self) -> Vec<(Move, String)> {
        let legal = self.core.legal_moves();
        legal.iter().map(|&mv| (mv, self.move_text(mv))).collect()
    }

    /// A move's notation: SAN, with the carrier's letter in brackets in place of the piece
    /// letter (`[N]f3`, `[P]dxc8=Q`).
    fn move_text(&self, mv: Move) -> String {
        let body = self.core.san_body(mv);
        match self.carrier(self.core.position.turn) {
            Some(square) if square == mv.from => {
                let piece = self
                    .core
                    .position
                    .board
                    .piece_at(square)
                    .expect("a carrier stands there");
                let symbol = self.core.variant.piece(piece.kind).def.symbol.to_string();
                let rest = body.strip_prefix(symbol.as_str()).unwrap_or(&body);
                format!("[{symbol}]{rest}")
            }
            _ => body,
        }
    }

    fn can_drop(&self) -> bool {
        self.carrier(self.core.position.turn).is_some()
    }

    /// Whether the side to move in this game has any move or a drop.
    fn has_action(&self) -> bool {
        self.core.can_move() || self.can_drop()
    }

    /// Ends an action: the turn is recorded for repetition. Returns the win when the side that
    /// moved brought the flag home (`won`); otherwise the game is judged as usual.
    fn finish(&mut self, won: bool) -> Option<Outcome> {
        self.keys.push(self.key());
        won.then(|| Outcome::win(Seat::of_color(self.core.position.turn.other()), EndReason::FlagCaptured))
    }

    /// Plays a move and what it does to the flags; returns whether it wins.
    fn play_move(&mut self, mv: Move) -> bool {
        let mover = self.core.position.turn;
        let enemy = mover.other();
        let carried_before = self.carrier(mover) == Some(mv.from);
        let made = movegen::make_move(&self.core.rules, &self.core.variant, &mut self.core.position, mv);
        self.core.finish_action(Some(LastMove::of(&mv)));
        let at = made.arrival;
        let mut flag_event = false;
        // The carrier's flag goes with it.
        if carried_before && let Some(flag) = self.flags[enemy.index()].as_mut() {
            flag.square = at;
        }
        // Capturing the enemy's carrier (of the mover's own flag) sends the flag home.
        for (square, _) in made.captures() {
            if let Some(flag) = self.flag(mover)
                && flag.is_carried
                && flag.square == square
            {
                self.send_flag_home(mover);
                flag_event = true;
            }
        }
        // The mover's own flag lying away from home goes back when its piece reaches it.
        if let Some(flag) = self.flag(mover)
            && !flag.is_carried
            && flag.square == at
            && Some(at) != self.base(mover)
        {
            self.send_flag_home(mover);
            flag_event = true;
        }
        // The enemy flag lying where the move ends (at its base or anywhere) is caught.
        if let Some(flag) = self.flag(enemy)
            && !flag.is_carried
            && flag.square == at
        {
            self.flags[enemy.index()] = Some(Flag {
                square: at,
                is_carried: true,
            });
            flag_event = true;
        }
        if flag_event {
            self.core.position.halfmove_clock = 0;
        }
        self.carrier(mover) == self.base(mover) && self.carrier(mover).is_some()
    }

    /// The carrier drops the flag on its square; returns whether that wins.
    fn drop_flag(&mut self) -> bool {
        let mover = self.core.position.turn;
        let Some(square) = self.carrier(mover) else {
            return false;
        };
        self.flags[mover.other().index()] = Some(Flag::lying(square));
        self.core.pass();
        self.core.position.halfmove_clock = 0;
        self.core.last = Some(LastMove::at(square));
        self.base(mover) == Some(square)
    }

    /// `text` as the player wrote it (errors quote it so), read without regard to case.
    fn parse_base(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let lower = text.trim().to_ascii_lowercase();
        // A bare square is not a base choice: the choice is for good, so it is never guessed.
        let Some(square_text) = lower.strip_prefix("base") else {
            return Err(match self.core.variant.size.parse_square(&lower) {
                Some(square) => ActionError::Illegal(format!(
                    "first each player chooses a base, for good: to make it {square}, write base:{square}"
                )),
                None => ActionError::unreadable(text, "choose a base like base:e3"),
            });
        };
        let square_text = square_text.trim_start_matches([':', ' ']);
        let square = self
            .core
            .variant
            .size
            .parse_square(square_text.trim())
            .ok_or_else(|| ActionError::unreadable(text, "choose a base like base:e3"))?;
        if self.base_squares(seat.color()).contains(&square) {
            Ok(Action::ChooseBase { square })
        } else {
            Err(ActionError::Illegal(format!(
                "{square} is not a square of your half that is empty or holds one of your pieces"
            )))
        }
    }

    /// Counts the leaf nodes of the action tree to `depth` (drops and passes are actions).
    pub fn perft(&self, depth: u32) -> u64 {
        crate::variants::generic_perft(self, depth)
    }
}

impl ChessBased for CtfGame {
    /// The action's notation.
    type Checked = String;

    chess_based::fields!(id: core.variant.def.id, outcome: outcome, record: core.record, turn: core.position.turn);

    fn stage(&self) -> Stage {
        if self.is_choosing() {
            Stage::Choosing(self.bases.map(|base| base.is_some()))
        } else {
            Stage::Play
        }
    }
    fn actions(&self, seat: Seat) -> Vec<(Action, String)> {
        if self.is_choosing() {
            return self
                .base_squares(seat.color())
                .into_iter()
                .map(|square| (Action::ChooseBase { square }, format!("base:{square}")))
                .collect();
        }
        let mut actions: Vec<(Action, String)> = self
            .moves()
            .into_iter()
            .map(|(mv, text)| (self.core.action_of(mv), text))
            .collect();
        if self.can_drop() {
            actions.push((Action::Drop, "drop".into()));
        }
        if actions.is_empty() {
            actions.push((Action::Pass, "pass".into()));
        }
        actions
    }
    fn read(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let lower = text.trim().to_ascii_lowercase();
        if self.is_choosing() {
            return self.parse_base(seat, text);
        }
        match lower.as_str() {
            "drop" if self.can_drop() => return Ok(Action::Drop),
            "drop" => {
                return Err(ActionError::Illegal(
                    "none of your pieces carries the enemy flag".into(),
                ));
            }
            "pass" if self.legal_actions(seat) == [Action::Pass] => return Ok(Action::Pass),
            "pass" => return Err(ActionError::Illegal("you may pass only when you have no move".into())),
            _ if lower.starts_with("base") => {
                return Err(ActionError::Illegal("bases are chosen before move 1 only".into()));
            }
            _ => {}
        }
        // A carrier's mark may be left out, or given in place of the piece letter: `[N]f3`.
        let san = match text.trim().split_once(']') {
            Some((mark, rest)) if mark.starts_with('[') => {
                let symbol = mark.trim_start_matches('[');
                if symbol.eq_ignore_ascii_case("P") {
                    rest.to_string()
                } else {
                    format!("{symbol}{rest}")
                }
            }
            _ => text.to_string(),
        };
        self.core.parse_move(&san).map(|mv| self.core.action_of(mv))
    }
    /// The actions without their notation, which costs a move generation per move.
    fn bare_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_choosing() {
            return self.actions(seat).into_iter().map(|(action, _)| action).collect();
        }
        let mut actions: Vec<Action> = self.core.move_actions();
        if self.can_drop() {
            actions.push(Action::Drop);
        }
        if actions.is_empty() {
            actions.push(Action::Pass);
        }
        actions
    }
    fn write(&self, seat: Seat, action: &Action) -> String {
        match action {
            Action::ChooseBase { square } => format!("base:{square}"),
            Action::Drop => "drop".into(),
            Action::Pass => "pass".into(),
            other => {
                let legal = self.core.legal_moves();
                match self.core.move_of(other, &legal) {
                    Some(mv) => self.move_text(mv),
                    None => format!("{action:?} by {seat:?}"),
                }
            }
        }
    }
    fn check(&self, seat: Seat, action: &Action) -> Result<String, ActionError> {
        self.legal_text(seat, action).ok_or_else(|| {
            ActionError::Illegal(match action {
                Action::ChooseBase { square } => {
                    format!("{square} is not a square of your half that is empty or holds one of your pieces")
                }
                Action::Drop => "none of your pieces carries the enemy flag".into(),
                Action::Pass => "you may pass only when you have no move".into(),
                _ => "that is not a legal action here".into(),
            })
        })
    }
    fn act(&mut self, seat: Seat, action: &Action, text: String) -> Option<Outcome> {
        match action {
            Action::ChooseBase { square } => {
                self.bases[seat.color().index()] = Some(*square);
                self.core.record.push_secret(seat, text, HIDDEN_BASE);
                if !self.is_choosing() {
                    // Both bases are revealed together.
                    self.core.record.reveal_from(0);
                    self.raise_flags();
                }
                None
            }
            Action::Drop => {
                self.core.record.push(seat, text);
                let won = self.drop_flag();
                self.finish(won)
            }
            Action::Pass => {
                self.core.record.push(seat, text);
                self.core.pass();
                self.finish(false)
            }
            other => {
                let legal = self.core.legal_moves();
                let mv = self.core.move_of(other, &legal).expect("checked legal above");
                self.core.record.push(seat, text);
                let won = self.play_move(mv);
                self.finish(won)
            }
        }
    }
    fn evaluate(&self) -> Option<Outcome> {
        if self.is_choosing() {
            return None;
        }
        if !self.has_action() {
            let mut other = self.clone();
            other.core.pass();
            if !other.has_action() {
                return Some(Outcome::draw(EndReason::NeitherCanMove));
            }
        }
        if self.core.position.halfmove_clock >= 100 {
            return Some(Outcome::draw(EndReason::FiftyMoves));
        }
        let current = self.keys.last().copied();
        if self.keys.iter().filter(|k| Some(**k) == current).count() >= 3 {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        None
    }
    fn may_take_back(&self, action: &Action) -> bool {
        !matches!(action, Action::ChooseBase { .. })
    }
    fn show(&self, viewer: Viewer) -> View {
        let mut view = self.core.game_view(self, viewer);
        let mut marks = Vec::new();
        for color in Color::BOTH {
            let owner = color.name();
            let knows_base = !self.is_choosing()
                || viewer == Viewer::Arbiter
                || viewer == Viewer::Seat(Seat::of_color(color))
                || self.outcome.is_some();
            if let (Some(base), true) = (self.base(color), knows_base) {
                let meaning = if self.is_choosing() {
                    "your base (only you see it until both bases are chosen)".to_string()
                } else {
                    format!("{owner}'s base")
                };
                marks.push(Mark {
                    square: base,
                    kind: MarkKind::Ring(Tone::Side(color)),
                    meaning,
                });
            }
            if let Some(flag) = self.flag(color) {
                let meaning = if flag.is_carried {
                    format!("{owner}'s flag, carried")
                } else {
                    format!("{owner}'s flag")
                };
                marks.push(Mark {
                    square: flag.square,
                    kind: MarkKind::Badge {
                        text: "F".into(),
                        tone: Tone::Side(color),
                    },
                    meaning,
                });
            }
        }
        view.boards[0].marks.extend(marks);
        view
    }
    fn prompt_for(&self, seat: Seat) -> Option<Prompt> {
        let half = if seat.color() == Color::White {
            "ranks 1-4"
        } else {
            "ranks 5-8"
        };
        let text = format!(
            "Choose your base: a square of your half ({half}), empty or holding one of your pieces. \
             Your flag lies there; bring the enemy flag to it to win."
        );
        chess_based::sealed_choice_prompt(self, seat, text)
    }
    /// A seat still to choose its base.
    fn prompts(&self, seat: Seat) -> bool {
        self.is_choosing() && self.outcome.is_none() && self.to_act().contains(&seat)
    }
    fn notes_for(&self, _viewer: Viewer) -> Vec<String> {
        let mut notes = chess_based::choosing_notes(self, "a base");
        if !self.is_choosing() {
            for color in Color::BOTH {
                let (Some(flag), Some(base)) = (self.flag(color), self.base(color)) else {
                    continue;
                };
                let place = match (flag.is_carried, flag.square == base) {
                    (true, _) => format!("carried by a {} piece on {}", color.other().name(), flag.square),
                    (false, true) => format!("at its base, {base}"),
                    (false, false) => format!("lying on {} (its base is {base})", flag.square),
                };
                notes.push(format!("{}'s flag: {place}", color.name()));
            }
        }
        notes
    }
}

/// Reads a field `flags:W,B`: each flag's square, `None` (written `-`) for one at its base.
fn read_flags_field(variant: &Variant, field: &str) -> Result<[Option<Square>; 2], FenError> {
    let bad = || FenError::Extra(field.to_string());
    let (white, black) = field["flags:".len()..].split_once(',').ok_or_else(bad)?;
    let read = |text: &str| match text {
        "-" => Ok(None),
        _ => variant.size.parse_square(text).map(Some).ok_or_else(bad),
    };
    Ok([read(white)?, read(black)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_hides_bases_until_both_are_chosen() {
        let mut game = CtfGame::new(crate::variants::built_in_file("ctf").unwrap());
        let action = game.parse_action(Seat::First, "base:e3").unwrap();
        game.apply(Seat::First, &action).unwrap();
        assert!(!format!("{game:?}").contains("e3"));
    }

    #[test]
    fn castling_is_refused_as_a_rule_of_the_game_not_a_mistyped_move() {
        let mut game = CtfGame::new(crate::variants::built_in_file("ctf").unwrap());
        for (seat, base) in [(Seat::First, "base:e3"), (Seat::Second, "base:e6")] {
            let action = game.parse_action(seat, base).unwrap();
            game.apply(seat, &action).unwrap();
        }
        for written in ["O-O", "0-0-0"] {
            let refusal = game.parse_action(Seat::First, written).unwrap_err().to_string();
            assert!(refusal.ends_with("there is no castling in this game"), "{refusal}");
        }
    }
}
