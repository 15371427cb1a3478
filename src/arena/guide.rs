//! A seat's legal actions as steps to choose by, for players who click rather than type: what
//! acts (a unit on a square, a piece to place, a word such as "pass"), then where it goes (a
//! square, a capture marked), then what else the turn holds (a promotion, a Circe rebirth, a
//! Blockade statue). Discord's menus and a player's page walk the same steps; whatever is chosen
//! is played as its notation, through the same path as a typed move.

use super::{ArenaError, Play};
use crate::ids::{GameId, UserId};
use crate::render::BoardImage;
use arbiter_engine::geometry::Square;
use arbiter_engine::view::{View, ViewCell};
use arbiter_engine::{Action, Game, Seat, Viewer};

/// One step of an action: its key (short, stable while the game stays at its version), how it
/// reads, and the square it stands on, for a board to light.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub key: String,
    pub label: String,
    /// A word more: "takes Rook", "castles", "2 moves".
    pub detail: Option<String>,
    pub at: Option<OnBoard>,
}

/// A square of one of a game's boards (Assault has two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnBoard {
    pub board: u8,
    pub square: Square,
}

/// A legal action and the steps that choose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuidedAction {
    /// The action as `legal` writes it and `move` reads it.
    pub text: String,
    pub steps: Vec<Step>,
}

/// What a seat may do now, by steps, at the game's version.
#[derive(Clone, Debug, PartialEq)]
pub struct Guide {
    pub game: GameId,
    pub version: i64,
    pub seat: Seat,
    pub actions: Vec<GuidedAction>,
    /// The seat's own board, as they may see it.
    pub board: BoardImage,
}

/// Where a path of chosen keys leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// The choices for the next step, each once, in order, with how many actions follow it.
    Choose(Vec<(&'a Step, usize)>),
    /// The path names one action whole: it is played.
    Play(&'a GuidedAction),
    /// The path leads nowhere (a key that is not one of the choices).
    Nowhere,
}

impl Guide {
    /// The actions whose steps begin with `path`.
    pub fn following(&self, path: &[String]) -> Vec<&GuidedAction> {
        self.actions
            .iter()
            .filter(|action| {
                action.steps.len() >= path.len() && action.steps.iter().zip(path).all(|(step, key)| step.key == *key)
            })
            .collect()
    }

    /// What follows the keys chosen so far.
    pub fn next(&self, path: &[String]) -> Next<'_> {
        let following = self.following(path);
        if let [action] = following.as_slice()
            && action.steps.len() == path.len()
        {
            return Next::Play(action);
        }
        let mut choices: Vec<(&Step, usize)> = Vec::new();
        for action in following {
            let Some(step) = action.steps.get(path.len()) else {
                continue;
            };
            match choices.iter_mut().find(|(seen, _)| seen.key == step.key) {
                Some((_, count)) => *count += 1,
                None => choices.push((step, 1)),
            }
        }
        if choices.is_empty() {
            Next::Nowhere
        } else {
            Next::Choose(choices)
        }
    }

    /// The steps chosen so far, as they read ("Knight g1", "f3").
    pub fn chosen(&self, path: &[String]) -> Vec<&Step> {
        let Some(action) = self.following(path).into_iter().next() else {
            return Vec::new();
        };
        action.steps.iter().take(path.len()).collect()
    }
}

impl Play<'_> {
    /// What `user` may do now in game `id`, by steps. At `version` when given: a menu shown at
    /// an older version is refused as out of date, as a stale button is.
    pub async fn guide(self, id: GameId, user: &UserId, version: Option<i64>) -> Result<Guide, ArenaError> {
        let game = self.load(id).await?;
        super::require_active(&game)?;
        let seat = game.seat_of(user).ok_or(ArenaError::NotAPlayer(id))?;
        if version.is_some_and(|version| version != game.version) {
            return Err(ArenaError::Stale(id));
        }
        if !game.state.to_act().contains(&seat) {
            return Err(ArenaError::NotYourTurn(id));
        }
        let view = game.state.view(Viewer::Seat(seat));
        let actions = guided(&view, seat, game.state.noted_actions(seat));
        Ok(Guide {
            game: id,
            version: game.version,
            seat,
            actions,
            board: super::messages::board_image_of(&game, view),
        })
    }
}

/// The steps of each of `seat`'s noted actions, as `view` (the seat's own) shows the board.
/// Units are ordered as the game lists its pieces, then by square; words come last.
pub fn guided(view: &View, seat: Seat, noted: Vec<(Action, String)>) -> Vec<GuidedAction> {
    let several_boards = view.boards.len() > 1;
    let mut actions: Vec<((u32, usize), GuidedAction)> = noted
        .into_iter()
        // A list is written or drawn, never picked from the engine's one example.
        .filter(|(action, _)| !matches!(action, Action::SubmitList { .. }))
        .map(|(action, text)| {
            let (order, steps) = steps_of(view, seat, several_boards, &action, &text);
            // Within a unit, its targets by square (rank by rank from a1).
            let target = steps.get(1).and_then(|s| s.at).map_or(0, |at| at.square.index());
            ((order, target), GuidedAction { text, steps })
        })
        .collect();
    // A stable sort: what else the turn holds keeps the game's own order.
    actions.sort_by_key(|(order, _)| *order);
    let mut actions: Vec<GuidedAction> = actions.into_iter().map(|(_, action)| action).collect();
    set_apart_the_alike(&mut actions);
    actions
}

/// Two actions the steps cannot tell apart (a game whose notation says more than its squares)
/// get one step more: their notation.
fn set_apart_the_alike(actions: &mut [GuidedAction]) {
    let keys: Vec<Vec<String>> = actions
        .iter()
        .map(|a| a.steps.iter().map(|s| s.key.clone()).collect())
        .collect();
    for (index, action) in actions.iter_mut().enumerate() {
        if keys.iter().filter(|other| **other == keys[index]).count() > 1 {
            action.steps.push(Step {
                key: format!("~{index}"),
                label: action.text.clone(),
                detail: None,
                at: None,
            });
        }
    }
}

/// Words come after every unit.
const WORDS_ORDER: u32 = u32::MAX;

/// An action's steps, and its unit's place in the order of units.
fn steps_of(view: &View, seat: Seat, several_boards: bool, action: &Action, text: &str) -> (u32, Vec<Step>) {
    let stepper = Stepper {
        view,
        seat,
        several_boards,
        text,
    };
    match action {
        Action::Move {
            from,
            to,
            promotion,
            choice,
            board,
        } => stepper.move_steps(*board, (*from, *to), promotion.as_ref(), *choice),
        Action::MoveAndStatue { from, to, statue } => {
            let (order, first) = stepper.unit(0, *from);
            let statue = Step {
                key: stepper.square_key(0, *statue),
                label: format!("Statue on {statue}"),
                detail: None,
                at: on(0, *statue),
            };
            (order, vec![first, stepper.target(0, *to), statue])
        }
        Action::Place { piece, to } => stepper.placement(piece.as_str(), *to),
        Action::ChooseBomb { square } | Action::ChooseBase { square } => {
            let name = piece_on(view, 0, *square).map_or_else(|| square.to_string(), |(_, n)| format!("{n} {square}"));
            let step = Step {
                key: stepper.square_key(0, *square),
                label: name,
                detail: None,
                at: on(0, *square),
            };
            (square.index() as u32, vec![step])
        }
        _ => (
            WORDS_ORDER,
            vec![Step {
                key: text.to_ascii_lowercase().replace(' ', "-").chars().take(12).collect(),
                label: capitalised(text),
                detail: None,
                at: None,
            }],
        ),
    }
}

fn on(board: u8, square: Square) -> Option<OnBoard> {
    Some(OnBoard { board, square })
}

/// What the steps of one action are made from: the seat's view, and the action's notation.
struct Stepper<'a> {
    view: &'a View,
    seat: Seat,
    several_boards: bool,
    text: &'a str,
}

impl Stepper<'_> {
    /// A square's key: its name, with its board's number first in a game of several boards.
    fn square_key(&self, board: u8, square: Square) -> String {
        if self.several_boards {
            format!("{}.{square}", board + 1)
        } else {
            square.to_string()
        }
    }

    /// The unit on `from`, and its place in the order of units (by kind, then board and square).
    fn unit(&self, board: u8, from: Square) -> (u32, Step) {
        let piece = piece_on(self.view, board, from);
        let name = piece.map_or("Unit", |(_, name)| name);
        let label = if self.several_boards {
            format!("{name} {from} (board {})", board + 1)
        } else {
            format!("{name} {from}")
        };
        let order = piece.map_or(u32::MAX - 1, |(index, _)| index as u32) * 1024 + u32::from(board) * 256;
        let step = Step {
            key: self.square_key(board, from),
            label,
            detail: None,
            at: on(board, from),
        };
        (order + from.index() as u32, step)
    }

    /// Where a unit goes, marked when it takes or castles.
    fn target(&self, board: u8, to: Square) -> Step {
        let mover = board_of(self.view, board).map(|b| b.color_of(self.seat));
        let taken = piece_on(self.view, board, to).filter(|_| {
            matches!(board_of(self.view, board).map(|b| b.cell(to)), Some(ViewCell::Piece { color, .. }) if Some(color) != mover)
        });
        let detail = if self.text.starts_with("O-O") {
            Some("castles".to_string())
        } else {
            taken.map(|(_, name)| format!("takes {name}"))
        };
        Step {
            key: self.square_key(board, to),
            label: to.to_string(),
            detail,
            at: on(board, to),
        }
    }

    /// A move: the unit, where it goes, then its promotion or the rebirth it chooses.
    fn move_steps(
        &self,
        board: u8,
        (from, to): (Square, Square),
        promotion: Option<&arbiter_engine::PieceId>,
        choice: Option<Square>,
    ) -> (u32, Vec<Step>) {
        let (order, first) = self.unit(board, from);
        let mut steps = vec![first, self.target(board, to)];
        if let Some(promotion) = promotion {
            let (index, name) = self
                .view
                .pieces
                .iter()
                .enumerate()
                .find(|(_, p)| *p.id == *promotion.as_str())
                .map_or((usize::MAX, promotion.as_str()), |(i, p)| (i, &*p.name));
            steps.push(Step {
                key: format!("={index}"),
                label: format!("Promote to {name}"),
                detail: None,
                at: None,
            });
        }
        if let Some(choice) = choice {
            steps.push(Step {
                key: self.square_key(board, choice),
                label: format!("Reborn on {choice}"),
                detail: Some("the captured piece's rebirth".to_string()),
                at: on(board, choice),
            });
        }
        (order, steps)
    }

    /// A piece placed from hand or picked from the pool, then its square.
    fn placement(&self, piece: &str, to: Square) -> (u32, Vec<Step>) {
        let found = self.view.pieces.iter().enumerate().find(|(_, p)| *p.id == *piece);
        let (index, label) = found.map_or((usize::MAX, piece.to_string()), |(i, p)| {
            (i, format!("{} ({})", p.name, p.symbol))
        });
        // Pieces first, then pawns (Pick-the-team's pool holds sixteen kinds of them).
        let pawns_after = if found.is_some_and(|(_, p)| p.is_pawn) {
            1 << 16
        } else {
            0
        };
        let unit = Step {
            key: format!("@{index}"),
            label,
            detail: Some("to place".to_string()),
            at: None,
        };
        let square = Step {
            key: self.square_key(0, to),
            label: to.to_string(),
            detail: None,
            at: on(0, to),
        };
        (index.min(1 << 15) as u32 + pawns_after, vec![unit, square])
    }
}

fn board_of(view: &View, board: u8) -> Option<&arbiter_engine::view::BoardView> {
    view.boards.get(usize::from(board))
}

/// The piece on a square as the view shows it: its index among the view's pieces and its name.
fn piece_on(view: &View, board: u8, square: Square) -> Option<(usize, &str)> {
    match board_of(view, board)?.cell(square) {
        ViewCell::Piece { piece, .. } => Some((piece, &*view.pieces.get(piece)?.name)),
        _ => None,
    }
}

/// "pass" as a menu shows it: "Pass".
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::{AnyGame, VariantId};

    fn guide_of(variant: VariantId, moves: &[&str]) -> (AnyGame, Vec<GuidedAction>) {
        let mut game = AnyGame::new(variant);
        for text in moves {
            let seat = game.to_act()[0];
            let action = game.parse_action(seat, text).unwrap();
            game.apply(seat, &action).unwrap();
        }
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let actions = guided(&view, seat, game.noted_actions(seat));
        (game, actions)
    }

    fn guide(actions: Vec<GuidedAction>) -> Guide {
        let game = AnyGame::new(VariantId::Chess);
        Guide {
            game: GameId::new(1),
            version: 1,
            seat: Seat::First,
            actions,
            board: BoardImage {
                view: game.view(Viewer::Spectator),
                decor: Default::default(),
            },
        }
    }

    fn keys(path: &[&str]) -> Vec<String> {
        path.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn a_chess_move_is_a_unit_then_a_square() {
        let (_, actions) = guide_of(VariantId::Chess, &[]);
        let guide = guide(actions);
        let Next::Choose(units) = guide.next(&[]) else {
            panic!("units first")
        };
        let labels: Vec<String> = units.iter().map(|(s, n)| format!("{}:{n}", s.label)).collect();
        assert_eq!(labels.len(), 10, "eight pawns and two knights: {labels:?}");
        assert!(labels.contains(&"Knight g1:2".to_string()), "{labels:?}");
        let path = keys(&["g1"]);
        let Next::Choose(targets) = guide.next(&path) else {
            panic!("then squares")
        };
        let squares: Vec<&str> = targets.iter().map(|(s, _)| s.key.as_str()).collect();
        assert_eq!(squares, ["f3", "h3"]);
        let path = keys(&["g1", "f3"]);
        assert!(matches!(guide.next(&path), Next::Play(action) if action.text == "Nf3"));
        let path = keys(&["g1", "g3"]);
        assert_eq!(guide.next(&path), Next::Nowhere);
        let path = keys(&["e4"]);
        assert_eq!(guide.next(&path), Next::Nowhere, "a square nothing moves from");
    }

    #[test]
    fn every_action_of_every_game_has_steps_of_its_own() {
        for &variant in VariantId::ALL {
            let (_, actions) = guide_of(variant, &[]);
            let guide = guide(actions.clone());
            for action in &actions {
                let path: Vec<String> = action.steps.iter().map(|s| s.key.clone()).collect();
                assert!(
                    matches!(guide.next(&path), Next::Play(found) if found.text == action.text),
                    "{variant:?}: {} by {path:?}",
                    action.text
                );
                assert!(
                    path.iter().all(|k| !k.contains([':', '/']) && k.len() <= 12),
                    "{path:?}"
                );
            }
        }
    }

    #[test]
    fn captures_promotions_and_statues_are_steps_of_their_own() {
        let (_, actions) = guide_of(VariantId::Chess, &["e4", "d5"]);
        let guide = guide(actions);
        let Next::Choose(targets) = guide.next(&keys(&["e4"])) else {
            panic!()
        };
        let capture = targets.iter().find(|(s, _)| s.key == "d5").unwrap();
        assert_eq!(capture.0.detail.as_deref(), Some("takes Pawn"));
        let mut game = AnyGame::new(VariantId::Blockade);
        while game.phase() == arbiter_engine::Phase::Setup {
            let seat = game.to_act()[0];
            let action = game.legal_actions(seat).remove(0);
            game.apply(seat, &action).unwrap();
        }
        let seat = game.to_act()[0];
        let actions = guided(&game.view(Viewer::Seat(seat)), seat, game.noted_actions(seat));
        let some = &actions[0];
        assert_eq!(some.steps.len(), 3, "{some:?}");
        assert!(some.steps[2].label.starts_with("Statue on "), "{some:?}");
    }
}
