//! Clocks around a game: what a timed game's posts show, what falls due as time passes, and what
//! an action does to the clock. (Death Matches have clocks today; every timed game will.)

use super::lifecycle::conclude;
use super::messages::{board_post, name, player_label};
use super::{ArenaError, Change, Effects, Post};
use crate::clock::{ClockEvent, duration};
use crate::store::GameRow;
use arbiter_engine::{Game, Seat, Timeout, Viewer};

/// A post about a game with a clock: both clocks in the text and the image, and the countdown
/// of the player to act. Other posts pass unchanged.
pub(super) fn with_clocks(mut post: Post, game: &GameRow, now: i64) -> Post {
    if post.game != game.id {
        return post;
    }
    let Some(clock) = game.deathmatch.as_ref().and_then(|d| d.clock.as_ref()) else {
        return post;
    };
    show_clocks(game, now, &mut post.text, post.board.as_mut());
    if let (Some(turn), None) = (clock.turn, clock.paused_at) {
        let who = game.player(turn.seat).map(name).unwrap_or_default();
        let flag = clock.events().last().map_or(now, |(at, _)| *at);
        post.countdown = Some(super::Countdown {
            what: format!("{who}'s time runs out"),
            at: flag,
        });
    }
    post
}

/// Adds a match's clocks at `now` to a message's text (both players on one line) and to its
/// board image (a line per player); games without a clock are left as they are.
pub(super) fn show_clocks(game: &GameRow, now: i64, text: &mut String, board: Option<&mut crate::render::BoardImage>) {
    let Some(clock) = game.deathmatch.as_ref().and_then(|d| d.clock.as_ref()) else {
        return;
    };
    let view = game.state.view(Viewer::Spectator);
    let lines: Vec<String> = Seat::BOTH
        .into_iter()
        .map(|seat| {
            let who = player_label(game, &view, seat);
            format!("{who}: {}", clock.line(seat, now))
        })
        .collect();
    text.push_str(&format!("\n⏱ {}", lines.join(" · ")));
    if let Some(board) = board {
        board.decor.clocks = Seat::BOTH.map(|seat| Some(clock.line(seat, now)));
    }
}

/// Announces the clock events due by `now` (only the latest of several, after a restart), and
/// ends the game when the reserve has run out.
pub(super) fn fire_clock(game: &mut GameRow, now: i64) -> Change {
    let Some(clock) = game.deathmatch.as_mut().and_then(|d| d.clock.as_mut()) else {
        return Change::nothing();
    };
    let Some(turn) = clock.turn else {
        return Change::nothing();
    };
    let mut latest = None;
    while let Some((at, event)) = clock.next_event() {
        if at > now {
            break;
        }
        clock.event_done();
        latest = Some(event);
    }
    let (_, reserve) = clock.left(turn.seat, now);
    let player = game.player(turn.seat).map(name).unwrap_or_default();
    match latest {
        None => Change::nothing(),
        Some(ClockEvent::Flagged) => time_out(game, turn.seat, format!("{player} ran out of time."), now),
        Some(event) => {
            let text = match event {
                ClockEvent::NormalLeft(left) => {
                    format!("{player}: {} of normal time left in this turn.", duration(left))
                }
                ClockEvent::ReserveStarts => {
                    format!(
                        "{player}: your normal time is over; your reserve is running ({} left).",
                        duration(reserve)
                    )
                }
                _ => format!("{player}: {} of reserve left.", duration(reserve)),
            };
            let mut post = board_post(game, text);
            post.board = None;
            post.mentions = game.player(turn.seat).cloned().into_iter().collect();
            Change {
                entries: Vec::new(),
                effects: Effects {
                    posts: vec![post],
                    ..Default::default()
                },
            }
        }
    }
}

/// Charges the turn in progress and stops the clock (the game is over).
/// Before an action in a Death Match: refuses it while the clocks are paused, and reports a
/// player whose reserve ran out before acting (the caller ends the game instead).
pub(super) fn check_clock(game: &GameRow, now: i64) -> Result<bool, ArenaError> {
    let Some(clock) = game.deathmatch.as_ref().and_then(|d| d.clock.as_ref()) else {
        return Ok(false);
    };
    if clock.paused_at.is_some() {
        return Err(ArenaError::Paused(game.id));
    }
    Ok(clock.is_flagged(now))
}

/// Ends a game whose player to act ran out of time before acting.
pub(super) fn flag_fall(game: &mut GameRow, now: i64) -> Change {
    let seat = game
        .deathmatch
        .as_ref()
        .and_then(|d| d.clock.as_ref())
        .and_then(|c| c.turn)
        .map(|t| t.seat);
    let Some(seat) = seat else {
        return Change::nothing();
    };
    let player = game.player(seat).map(name).unwrap_or_default();
    time_out(game, seat, format!("{player} ran out of time before moving."), now)
}

/// What the game rules when `seat` runs out of time: the end of the game (a loss on time in most
/// games), or an action played for the seat.
fn time_out(game: &mut GameRow, seat: Seat, text: String, now: i64) -> Change {
    match game.state.on_timeout(seat) {
        Timeout::Ends(outcome) => conclude(game, outcome, text, now),
        Timeout::Plays(action) => match super::acting::apply_action(game, None, seat, action, now) {
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
