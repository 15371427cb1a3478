//! Domination Chess (rules page docs/rules/domination.md): the
//! squares d4, d5, e4 and e5 belong to whoever last ended a move on them; after each full turn
//! each player scores a point per square owned; after 30 full turns the higher score wins, and a
//! mate wins at once. White's first move may not end on d4 or e4.

use crate::chess_move::Move;
use crate::fen::FenError;
use crate::game::{Action, EndReason, Outcome, Seat, Viewer};
use crate::geometry::Square;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::Rules;
use crate::start::StartRefusal;
use crate::variant_file::Variant;
use crate::variants::chess::ChessCore;
use crate::variants::chess_based::{self, ChessBased};
use crate::view::{Mark, MarkKind, Tone, View};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The domination squares: d4, d5, e4, e5.
pub const SQUARES: [Square; 4] = [
    Square::new(3, 3),
    Square::new(3, 4),
    Square::new(4, 3),
    Square::new(4, 4),
];

/// How many full turns a game lasts.
pub const TURNS: u32 = 30;

/// The rules hooks of Domination Chess: White's first move may not end on d4 or e4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Domination;

impl Rules for Domination {
    fn is_legal(&self, variant: &Variant, before: &Position, mv: &Move, after: &Position) -> bool {
        let is_banned = is_first_move(before) && [SQUARES[0], SQUARES[2]].contains(&mv.landing());
        !is_banned && !self.is_in_check(variant, after, before.turn)
    }

    fn refusal(&self, _variant: &Variant, position: &Position, text: &str) -> Option<String> {
        let written = text.trim_end_matches(['+', '#', '!', '?']);
        let lands_in_centre = written.ends_with("d4") || written.ends_with("e4");
        (is_first_move(position) && lands_in_centre).then(|| {
            format!(
                "{text}: White's first move may not end on d4 or e4 in Domination Chess; any other first move is fine"
            )
        })
    }
}

/// White's first move of the game, the one Domination restricts.
fn is_first_move(position: &Position) -> bool {
    position.turn == Color::White && position.fullmove_number == 1
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DominationGame {
    core: ChessCore<Domination>,
    /// The owner of each domination square, in the order of [`SQUARES`].
    owners: [Option<Color>; 4],
    /// Points per colour after the last full turn.
    scores: [i32; 2],
    full_turns: u32,
    outcome: Option<Outcome>,
}

impl DominationGame {
    /// Whether a game can start from this position (`crate::start`): a chess board's checks;
    /// a move number within the 30 turns (the turns played are counted from it, and no owner or
    /// score can be given, so there is nothing else of the game's own to check); and, at
    /// White's first move, a move that does not end on d4 or e4.
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
        let notes = self.core.check_start(fen)?;
        self.check_turns_left()?;
        self.check_first_move_possible()?;
        Ok(notes)
    }

    /// The move number leaves a turn to play: past the 30th the game would be decided on points
    /// before anyone moved.
    fn check_turns_left(&self) -> Result<(), StartRefusal> {
        let number = self.core.position.fullmove_number;
        if number <= TURNS {
            return Ok(());
        }
        Err(StartRefusal::new(format!(
            "the move number {number} is past the game's {TURNS} turns: the game would already be over on points"
        )))
    }

    /// At White's first move (move 1, White to move) White has a move that does not end on d4 or
    /// e4. Otherwise the game would end at once, in a mate or stalemate that only the rule of the
    /// first move made.
    fn check_first_move_possible(&self) -> Result<(), StartRefusal> {
        let position = &self.core.position;
        if !is_first_move(position) || self.core.can_move() {
            return Ok(());
        }
        let mut later = position.clone();
        later.fullmove_number = 2;
        if !self.core.has_legal_move(&later) {
            return Ok(());
        }
        Err(StartRefusal::new(
            "every move White has ends on d4 or e4, where White's first move (move 1) may not: \
             give a later move number",
        ))
    }

    pub fn new(variant: Arc<Variant>) -> DominationGame {
        let position = variant.start_position();
        DominationGame::from_position(variant, position)
    }

    /// A game from a position: nobody owns a square yet, no point is scored, and the turns
    /// played are counted from the move number.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<DominationGame, FenError> {
        let position = variant.position_from_fen(fen)?;
        Ok(DominationGame::from_position(variant, position))
    }

    fn from_position(variant: Arc<Variant>, position: Position) -> DominationGame {
        let full_turns = position.fullmove_number.saturating_sub(1);
        let mut game = DominationGame {
            core: ChessCore::new(variant, position),
            owners: [None; 4],
            scores: [0, 0],
            full_turns,
            outcome: None,
        };
        game.outcome = game.evaluate();
        game
    }

    pub fn scores(&self) -> [i32; 2] {
        self.scores
    }

    pub fn owner(&self, square: Square) -> Option<Color> {
        SQUARES.iter().position(|&s| s == square).and_then(|i| self.owners[i])
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if self.outcome.is_some() {
            return u64::from(depth == 0);
        }
        crate::movegen::perft(&self.core.rules, &self.core.variant, &self.core.position, depth)
    }
}

impl ChessBased for DominationGame {
    chess_based::fields!(id: core.variant.def.id, outcome: outcome, record: core.record, turn: core.position.turn);
    chess_based::chess_moves!(core);

    fn act(&mut self, seat: Seat, _action: &Action, (mv, text): (Move, String)) -> Option<Outcome> {
        let mover = self.core.position.turn;
        self.core.play(seat, mv, text);
        if let Some(i) = SQUARES.iter().position(|&s| s == mv.landing()) {
            self.owners[i] = Some(mover);
        }
        if mover == Color::Black {
            self.full_turns += 1;
            for owner in self.owners.iter().flatten() {
                self.scores[owner.index()] += 1;
            }
        }
        None
    }
    /// A mate ends the game at once (on Black's 30th move too), a stalemate before the 30 turns
    /// are done draws, and after the last full turn the higher score wins: a stalemate made by
    /// Black's 30th move ends the 30 turns like any other (White never has to move again), so the
    /// points decide. The outcome always carries the score.
    fn evaluate(&self) -> Option<Outcome> {
        let has_no_move = !self.core.can_move();
        let is_mate = has_no_move && self.core.is_in_check(self.core.position.turn);
        let outcome = if is_mate || (has_no_move && self.full_turns < TURNS) {
            self.core.no_action_outcome()
        } else if self.full_turns >= TURNS {
            let [white, black] = self.scores;
            match white.cmp(&black) {
                std::cmp::Ordering::Greater => Outcome::win(Seat::First, EndReason::Points),
                std::cmp::Ordering::Less => Outcome::win(Seat::Second, EndReason::Points),
                std::cmp::Ordering::Equal => Outcome::draw(EndReason::Points),
            }
        } else {
            return self.core.draw_by_rule(false);
        };
        Some(Outcome {
            scores: Some(self.scores),
            ..outcome
        })
    }
    /// The outcome carries the score, however the game ends.
    fn concluded(&self, outcome: Outcome) -> Outcome {
        Outcome {
            scores: Some(self.scores),
            ..outcome
        }
    }
    fn show(&self, viewer: Viewer) -> View {
        let marks = SQUARES
            .iter()
            .zip(self.owners)
            .flat_map(|(&square, owner)| match owner {
                Some(color) => vec![
                    Mark {
                        square,
                        kind: MarkKind::Tint(Tone::SideLight(color)),
                        meaning: "Tinted and lettered W or B: a domination square and its owner".into(),
                    },
                    Mark {
                        square,
                        // The owner's initial, small in the square's corner.
                        kind: MarkKind::Label {
                            text: color.name()[..1].into(),
                            tone: Tone::Side(color),
                        },
                        meaning: String::new(),
                    },
                ],
                None => vec![Mark {
                    square,
                    kind: MarkKind::Ring(Tone::Neutral),
                    meaning: "Ringed: a domination square nobody owns yet".into(),
                }],
            })
            .collect();
        let mut view = self.core.game_view(self, viewer);
        view.boards = vec![self.core.board_view(viewer, marks)];
        view.scores = Some(self.scores);
        view.turns = Some((self.full_turns, TURNS));
        view
    }
    // Everything the game goes on from: the position, the squares' owners, the score and the
    // turns played (two games alike but for the score end differently).
    fn search_key(&self) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        self.core.position.search_key().hash(&mut hasher);
        self.owners.hash(&mut hasher);
        self.scores.hash(&mut hasher);
        self.full_turns.hash(&mut hasher);
        Some(hasher.finish())
    }
    // The game reads its position, never its record.
    fn stop_writing(&mut self) {
        self.core.stop_writing();
    }
    fn guarded(&self, square: Square, by: Seat) -> Option<bool> {
        Some(self.core.guarded(square, by))
    }
    fn gives_check(&self, action: &Action) -> Option<bool> {
        self.core.gives_check(action)
    }
}
