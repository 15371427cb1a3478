//! Running out of time: the game rules what it means (a loss on time in most games, or an
//! action played for the player).

use super::Change;
use super::acting::apply_action;
use super::messages::name;
use super::turns::conclude;
use crate::model::GameRow;
use arbiter_engine::{Game, Seat, Timeout};

/// Ends a game whose player ran out of time before acting.
pub(super) fn flag_fall(game: &mut GameRow, seat: Seat, now: i64) -> Change {
    let player = game.player(seat).map(name).unwrap_or_default();
    time_out(game, seat, format!("{player} ran out of time before moving."), now)
}

/// What the game rules when `seat` runs out of time: the end of the game (a loss on time in most
/// games), or an action played for the seat.
pub(super) fn time_out(game: &mut GameRow, seat: Seat, text: String, now: i64) -> Change {
    match game.state.on_timeout(seat) {
        Timeout::Ends(outcome) => {
            let mut change = conclude(game, outcome, text, now);
            if crate::broken::has(crate::broken::Defect::DoubleDeadline) {
                change.entries.extend(change.entries.clone());
                change.effects.posts.extend(change.effects.posts.clone());
            }
            change
        }
        Timeout::Plays(action) => match apply_action(game, None, seat, action, now) {
            Ok(mut change) => {
                if let Some(post) = change.effects.posts.first_mut() {
                    post.text = format!("{text}\n{}", post.text);
                }
                change
            }
            // The game offered an action it then refused: end the game on time instead.
            Err(_) => conclude(
                game,
                arbiter_engine::Outcome::win(seat.other(), arbiter_engine::EndReason::Timeout),
                text,
                now,
            ),
        },
    }
}
