//! Clocks around a game: what a timed game's posts show, what falls due as time passes
//! (reminders, a Death Match's warnings, a forfeit on time, a colour choice), what an action
//! does to the clock, and the time the bot was down, which nobody is charged for.

use super::lifecycle::conclude;
use super::messages::{board_post, name, player_label};
use super::{Arena, ArenaError, Change, Countdown, DirectMessage, Effects, Post, PrivateText};
use crate::clock::{ClockEvent, Notice, duration, duration_words};
use crate::ids::GameId;
use crate::store::{GameRow, GameStatus, Reminders, UserSettings};
use arbiter_engine::{Game, Phase, Seat, Timeout, Viewer};

impl Arena {
    /// Fires whatever fell due for the game by now (a colour choice, a reminder, a clock
    /// warning, a forfeit); nothing when nothing is due, so any number of schedulers may call it.
    pub async fn tick(&self, id: GameId) -> Result<Effects, ArenaError> {
        let (game, credited) = self.load_credited(id).await?;
        if game.next_deadline().is_none_or(|due| due > self.now()) {
            if credited > 0 {
                // Downtime moved the deadline: saving the game stores where it now is.
                return self.mutate(id, false, |_, _, _| Ok(Change::nothing())).await;
            }
            return Ok(Effects::default());
        }
        // Reminders go as each player wishes.
        let mut settings: [UserSettings; 2] = Default::default();
        for seat in Seat::BOTH {
            if let Some(player) = game.player(seat) {
                settings[seat.index()] = self.store.settings(player).await?;
            }
        }
        self.mutate(id, false, |game, _, now| match game.status {
            GameStatus::Challenge => Ok(super::deathmatch::colours_due(game, now)),
            GameStatus::Active => Ok(fire_clock(game, now, &settings)),
            _ => Ok(Change::nothing()),
        })
        .await
    }

    /// Applies the stretches of downtime the game's clock has not seen yet; returns the most
    /// any turn was credited.
    pub(super) async fn credit_downtime(&self, game: &mut GameRow) -> Result<i64, ArenaError> {
        if !game.clock.is_timed() || game.clock.running().is_empty() {
            return Ok(0);
        }
        let downtimes = self.store.downtimes(&game.location, game.clock.credited_to).await?;
        if downtimes.is_empty() {
            return Ok(0);
        }
        Ok(game.clock.credit(&downtimes, self.now()))
    }
}

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

/// After an action by `actor` (none: the rules acted): the clock follows the turn, and stops
/// when the game ends.
pub(super) fn follow_turn(game: &mut GameRow, actor: Option<Seat>, now: i64) {
    // A study waits for nobody: its one player needs no reminding.
    if game.state.outcome().is_some() || game.is_study() {
        game.clock.stop(now);
        return;
    }
    let to_act = game.state.to_act();
    let mid_turn = actor.is_some_and(|seat| game.state.is_mid_turn(seat));
    game.clock.follow(actor, &to_act, mid_turn, now);
}

/// Announces what fell due by `now`: a forfeit when a time ran out, otherwise each waiting
/// player's latest warning or reminder (only the latest of several, after a restart).
fn fire_clock(game: &mut GameRow, now: i64, settings: &[UserSettings; 2]) -> Change {
    let mut latest: [Option<ClockEvent>; 2] = [None, None];
    while let Some(event) = game.clock.next_event() {
        if event.at > now {
            break;
        }
        game.clock.event_done(event.seat);
        if event.notice == Notice::Flagged {
            let player = game.player(event.seat).map(name).unwrap_or_default();
            return time_out(game, event.seat, format!("{player} ran out of time."), now);
        }
        latest[event.seat.index()] = Some(event);
    }
    let mut effects = Effects::default();
    for event in latest.into_iter().flatten() {
        announce(game, event, now, settings[event.seat.index()].reminders, &mut effects);
    }
    Change {
        entries: Vec::new(),
        effects,
    }
}

/// Says what a clock event means to the players: warnings in the game's place with a ping, a
/// reminder as the waiting player wishes (and always a line in the game's place, which also
/// keeps a thread from closing for inactivity).
fn announce(game: &GameRow, event: ClockEvent, now: i64, wish: Reminders, effects: &mut Effects) {
    let Some(user) = game.player(event.seat).cloned() else {
        return;
    };
    let player = name(&user);
    let reserve = game.clock.left(event.seat, now).map_or(0, |(_, reserve)| reserve);
    let warning = match event.notice {
        Notice::NormalLeft(left) => Some(format!(
            "{player}: {} of normal time left in this turn.",
            duration(left)
        )),
        Notice::ReserveStarts => Some(format!(
            "{player}: your normal time is over; your reserve is running ({} left).",
            duration(reserve)
        )),
        Notice::ReserveLeft(_) => Some(format!("{player}: {} of reserve left.", duration(reserve))),
        Notice::Reminder { .. } | Notice::Flagged => None,
    };
    if let Some(text) = warning {
        let mut post = board_post(game, text);
        post.board = None;
        post.buttons = Vec::new();
        post.pieces = Vec::new();
        post.mentions = vec![user];
        // The next warning (or the flag) makes this one pointless.
        post.stale_at = game.clock.upcoming(event.seat);
        effects.posts.push(post);
        return;
    }
    let Notice::Reminder { waited, left } = event.notice else {
        return;
    };
    let what = match game.state.phase() {
        Phase::SealedChoice => "your secret choice",
        Phase::Setup => "your placement",
        _ => "your move",
    };
    let variant = game.setup.variant.name();
    let reminder = match left {
        Some(left) => format!(
            "⏰ {player}, {} left for {what} in game #{} ({variant}).",
            duration_words(left),
            game.id
        ),
        None => format!(
            "⏰ {player}, game #{} ({variant}) has waited {} for {what}.",
            game.id,
            duration_words(waited)
        ),
    };
    let countdown = game.clock.flag_at(event.seat).map(|at| Countdown {
        what: "Your time runs out".into(),
        at,
    });
    let mut post = Post {
        game: Some(game.id),
        location: game.location.clone(),
        text: reminder.clone(),
        board: None,
        mentions: Vec::new(),
        buttons: Vec::new(),
        pieces: Vec::new(),
        countdown: countdown.clone(),
        table: None,
        stale_at: None,
    };
    match wish {
        Reminders::Thread => post.mentions = vec![user],
        Reminders::Dm => {
            post.text = format!("{reminder} (reminded by DM)");
            effects.direct_messages.push(DirectMessage {
                to: user,
                game: game.id,
                text: PrivateText::new(match &countdown {
                    Some(countdown) => format!("{reminder}\n{} <t:{}:R>.", countdown.what, countdown.at / 1000),
                    None => reminder,
                }),
                board: None,
                choices: Vec::new(),
                menu_hint: String::new(),
                asks_for_list: false,
                is_reminder: true,
                prompt_key: None,
            });
        }
        Reminders::Off => {}
    }
    effects.posts.push(post);
}

/// Before an action: refuses it while the clocks are paused, and names a seat whose time ran
/// out before the action (the caller ends the game instead).
pub(super) fn check_clock(game: &GameRow, now: i64) -> Result<Option<Seat>, ArenaError> {
    if game.clock.paused_at.is_some() {
        return Err(ArenaError::Paused(game.id));
    }
    Ok(game.clock.flagged(now))
}

/// Ends a game whose player ran out of time before acting.
pub(super) fn flag_fall(game: &mut GameRow, seat: Seat, now: i64) -> Change {
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
