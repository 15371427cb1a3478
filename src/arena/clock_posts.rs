//! What a timed game's posts show of its clocks, and the notice that the bot's downtime was
//! charged to nobody.

use super::messages::{board_post, name, player_label};
use super::{Countdown, Post};
use crate::clock::duration;
use crate::model::{GameRow, GameStatus};
use arbiter_engine::{Game, Seat, Viewer};

/// The announcement that a match's clocks were credited for the time the bot was down.
pub(super) fn downtime_post(game: &GameRow, credited: i64) -> Post {
    let text = format!(
        "The match resumed after Arbiter was unavailable for {}; that time was not charged to anyone.",
        duration(credited)
    );
    board_post(game, text)
}

/// A post about a game with a clock: both clocks in the text and the image, and the countdown
/// of the player whose time runs out first. Other posts pass unchanged.
pub(super) fn with_clocks(mut post: Post, game: &GameRow, now: i64) -> Post {
    if post.game != Some(game.id) || !game.clock.is_timed() || game.status != GameStatus::Active {
        return post;
    }
    show_clocks(game, now, &mut post.text, post.board.as_mut());
    let next_flag = game
        .clock
        .running()
        .into_iter()
        .filter_map(|seat| game.clock.flag_at(seat).map(|at| (at, seat)))
        .min();
    if let (Some((at, seat)), None) = (next_flag, game.clock.paused_at) {
        let who = game.player(seat).map(name).unwrap_or_default();
        post.countdown = Some(Countdown {
            what: format!("{who}'s time runs out"),
            at,
        });
    }
    post
}

/// Adds a timed game's clocks at `now` to a message's text (both players on one line) and to
/// its board image (a line per player); untimed games are left as they are.
pub(super) fn show_clocks(game: &GameRow, now: i64, text: &mut String, board: Option<&mut crate::render::BoardImage>) {
    let lines = Seat::BOTH.map(|seat| game.clock.line(seat, now));
    if lines.iter().all(Option::is_none) {
        return;
    }
    let view = game.state.view(Viewer::Spectator);
    let both: Vec<String> = Seat::BOTH
        .into_iter()
        .filter_map(|seat| {
            let line = lines[seat.index()].as_ref()?;
            Some(format!("{}: {line}", player_label(game, &view, seat)))
        })
        .collect();
    text.push_str(&format!("\n⏱ {}", both.join(" · ")));
    if let Some(board) = board {
        board.decor.clocks = lines;
    }
}
