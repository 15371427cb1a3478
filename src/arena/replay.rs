//! Replays: a game's positions as a spectator saw them, one frame per change of the board. Each
//! frame is drawn from the spectator's view of the game as it stood then, so a secret is shown
//! only from the moment the game revealed it, and choices that change nothing a spectator sees
//! (a sealed half-turn, a secret choice) add no frame of their own.

use super::caller::{Caller, may_look_at, require_started};
use super::messages::name;
use super::{ArenaError, Effects, Records, Replay};
use crate::ids::GameId;
use crate::model::effective_actions;
use crate::model::{GameRow, GameStatus, LoggedEntry};
use crate::render::{Animation, AnimationFrame, BoardImage, Decor};
use arbiter_engine::{Action, AnyGame, Game, Seat, View, Viewer};

/// How long the first position stays, each position after a move, and the final one.
pub const FIRST_FRAME_MS: u32 = 1_500;
pub const MOVE_FRAME_MS: u32 = 900;
pub const FINAL_FRAME_MS: u32 = 4_000;

impl Records<'_> {
    /// The replay of a game so far, or finished, as its audience saw it.
    pub async fn replay(self, id: GameId, caller: &Caller) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        may_look_at(&game, caller)?;
        require_started(&game, "replay")?;
        let log = self.store.log(id).await?;
        let animation = game_animation(&game, &log).map_err(|_| {
            // Not the reason: it may name an action, and actions may be secret.
            tracing::error!(game = %id, "a stored game does not replay");
            ArenaError::Rejected(format!("game #{id} cannot be replayed: its record does not replay"))
        })?;
        let players = match (game.player(Seat::First), game.player(Seat::Second)) {
            (Some(first), Some(second)) => format!(": {} vs {}", name(first), name(second)),
            _ => String::new(),
        };
        let state = if game.status == GameStatus::Finished {
            "finished"
        } else {
            "so far"
        };
        Ok(Effects {
            replay: Some(Replay {
                caption: format!(
                    "Replay of game #{id} · {}{players} ({state}, {} positions).",
                    game.setup.variant.name(),
                    animation.frames.len()
                ),
                file_name: format!("game-{id}.gif"),
                animation,
            }),
            game: Some(id),
            ..Default::default()
        })
    }
}

/// A stored game's replay: from its start through the actions still in effect, ending on the
/// game as it stands (a resignation or a flag included).
pub fn game_animation(game: &GameRow, log: &[LoggedEntry]) -> Result<Animation, String> {
    let start = game.setup.start().map_err(|e| format!("the start position: {e}"))?;
    let names = Seat::BOTH.map(|seat| game.player(seat).map(|user| user.display_name().to_string()));
    animation(&start, &effective_actions(log), &game.state, names)
}

/// The frames from `start` through `actions` to `end` (the state the actions lead to, with any
/// result reached off the board), each position a spectator could tell from the one before.
pub fn animation(
    start: &AnyGame,
    actions: &[(Seat, Action)],
    end: &AnyGame,
    player_names: [Option<String>; 2],
) -> Result<Animation, String> {
    // The frames on the way leave out whose turn it is (so a frame holds only the squares a
    // move changed); the last is the game's board image as it stands, turn and all.
    let decor = |without_turns: bool| Decor {
        player_names: player_names.clone(),
        without_turns,
        ..Decor::default()
    };
    let image = |view: View| BoardImage {
        view,
        decor: decor(true),
    };
    let mut state = start.clone();
    let mut frames = vec![AnimationFrame {
        image: image(state.view(Viewer::Spectator)),
        delay_ms: FIRST_FRAME_MS,
    }];
    let mut last_key = picture_key(&frames[0].image.view);
    for (number, (seat, action)) in actions.iter().enumerate() {
        state
            .apply(*seat, action)
            .map_err(|e| format!("action {} does not replay: {e}", number + 1))?;
        let view = state.view(Viewer::Spectator);
        let key = picture_key(&view);
        if key != last_key {
            last_key = key;
            frames.push(AnimationFrame {
                image: image(view),
                delay_ms: MOVE_FRAME_MS,
            });
        }
    }
    // The last frame is the game as it stands: the board the final post showed, with its result.
    let view = end.view(Viewer::Spectator);
    let final_frame = AnimationFrame {
        image: BoardImage {
            view: view.clone(),
            decor: decor(false),
        },
        delay_ms: FINAL_FRAME_MS,
    };
    if picture_key(&view) == last_key {
        frames.pop();
    }
    frames.push(final_frame);
    Ok(Animation { frames })
}

/// What a spectator sees of a position: its boards, hands, pool, scores and result (not whose
/// turn it is, which a sealed choice changes without changing the picture of the game).
fn picture_key(view: &View) -> String {
    serde_json::to_string(&(&view.boards, &view.hands, &view.pool, &view.scores, &view.outcome)).unwrap_or_default()
}
