//! What falls due as time passes (reminders, a Death Match's warnings, a forfeit on time, a
//! colour choice), fired when a scheduler asks, and the time the bot was down, which nobody is
//! charged for.

use super::messages::{board_post, name};
use super::time_out::time_out;
use super::{ArenaError, Change, Clocks, Countdown, DirectMessage, Effects, Post, PrivateText};
use crate::clock::{ClockEvent, Notice, duration, duration_words};
use crate::ids::{GameId, Places};
use crate::model::{GameRow, GameStatus, Reminders, UserSettings};
use arbiter_engine::{Game, Phase, Seat};

/// A silence longer than this since a scheduler's last heartbeat means the bot was down.
const DOWNTIME_GAP_MS: i64 = 5_000;

impl Clocks<'_> {
    /// Records that a scheduler serving `places` is alive. After a silence (no scheduler ran),
    /// records the time the bot was down, so no clock charges it to anyone (each game's clock is
    /// credited when the game is next touched), and touches the running Death Matches at once so
    /// their audiences hear it; returns those announcements.
    pub async fn resume(self, places: &Places) -> Result<Vec<Effects>, ArenaError> {
        let now = self.now();
        let previous = self.store.heartbeat(places, now).await?;
        let Some(last_alive) = previous.filter(|at| now - at > DOWNTIME_GAP_MS) else {
            return Ok(Vec::new());
        };
        self.store.record_downtime(places, last_alive, now).await?;
        let mut announcements = Vec::new();
        for id in self.store.running_matches(places).await? {
            match self.matches().touch(id).await {
                Ok(effects) if !effects.posts.is_empty() => announcements.push(effects),
                Ok(_) => {}
                Err(error) => {
                    tracing::error!(game = %id, error = %crate::logging::Quiet(&error), "could not credit the downtime")
                }
            }
        }
        Ok(announcements)
    }

    /// Records that a scheduler serving `places` is still alive.
    pub async fn heartbeat(self, places: &Places) -> Result<(), ArenaError> {
        self.store.heartbeat(places, self.now()).await?;
        Ok(())
    }

    /// Claims up to `batch` games at `places` whose deadline has come, keeping other schedulers
    /// off them for `lease_ms`; the claimer then fires each with [`Clocks::tick`].
    pub async fn claim_due(self, places: &Places, lease_ms: i64, batch: i64) -> Result<Vec<GameId>, ArenaError> {
        Ok(self.store.claim_due(places, self.now(), lease_ms, batch).await?)
    }

    /// When the next deadline at `places` falls, if any.
    pub async fn next_deadline(self, places: &Places) -> Result<Option<i64>, ArenaError> {
        Ok(self.store.earliest_deadline(places).await?)
    }

    /// Fires whatever fell due for the game by now (a colour choice, a reminder, a clock
    /// warning, a forfeit); nothing when nothing is due, so any number of schedulers may call it.
    pub async fn tick(self, id: GameId) -> Result<Effects, ArenaError> {
        let (game, credited) = self.load_credited(id).await?;
        // The computer's turn is not the clock's: the scheduler hands it to `computer_turn`.
        if game.clock_deadline().is_none_or(|due| due > self.now()) {
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
    pub(super) async fn credit_downtime(self, game: &mut GameRow) -> Result<i64, ArenaError> {
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
    if game.is_computer(&user) {
        // It needs no reminding, nor a warning.
        return;
    }
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
                    Some(countdown) => format!("{reminder}\n{} {}.", countdown.what, super::text::time(countdown.at)),
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
