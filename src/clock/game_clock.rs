//! A game's clock as data. Every active game has one: a timed game's clock charges each seat's
//! turns to its time control (normal time first, then the reserve, which is never refilled); an
//! untimed game's clock only keeps track of whom the game waits for and since when, so reminders
//! go out. Several seats' turns run at once while they act at once (secret choices, Assault's
//! half-turns). All times are Unix milliseconds from the arena's clock, so tests control them and
//! a restart loses nothing.

use super::control::TimeControl;
use super::duration::{DAY_MS, HOUR_MS, LONGEST_MS, duration};
use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

/// When an untimed game first reminds the player it waits for, and how often after that.
pub const FIRST_REMINDER_MS: i64 = DAY_MS;
pub const REMINDER_EVERY_MS: i64 = 2 * DAY_MS;

/// A seat's turn being timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub started_at: i64,
    /// How many of this turn's events (see [`GameClock::event`]) have been announced.
    pub events_done: u8,
}

/// Something the clock says at a moment of a seat's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Death Matches: only this much normal time is left (a quarter of it).
    NormalLeft(i64),
    /// Death Matches: the normal time is over; the reserve runs from now.
    ReserveStarts,
    /// Death Matches: only this much reserve is left.
    ReserveLeft(i64),
    /// The game has waited this long for the seat; a timed game says how much time is left.
    Reminder { waited: i64, left: Option<i64> },
    /// The time is gone: the game's ruling on a timeout applies.
    Flagged,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockEvent {
    pub at: i64,
    pub seat: Seat,
    pub notice: Notice,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    /// Each seat's time control (handicaps give them different ones); none for an untimed game.
    pub controls: Option<[TimeControl; 2]>,
    /// Death Matches warn in seconds as the time runs down; other games send reminders.
    pub warns: bool,
    /// Reserve left per seat, as of the start of its current turn.
    pub reserve_ms: [i64; 2],
    /// The turn each seat is on, while the game waits for it.
    pub turns: [Option<Turn>; 2],
    /// When the clocks were frozen by the host, if they are.
    pub paused_at: Option<i64>,
    /// The end of the last stretch of downtime credited to the running turns.
    pub credited_to: i64,
}

impl GameClock {
    /// The clock of an untimed game, made at `now`.
    pub fn untimed(now: i64) -> GameClock {
        GameClock {
            controls: None,
            warns: false,
            reserve_ms: [0, 0],
            turns: [None, None],
            paused_at: None,
            credited_to: now,
        }
    }

    /// The clock of a timed game; `warns` for a Death Match's warnings instead of reminders.
    pub fn timed(controls: [TimeControl; 2], warns: bool, now: i64) -> GameClock {
        GameClock {
            controls: Some(controls),
            warns,
            reserve_ms: controls.map(|c| c.reserve_ms),
            turns: [None, None],
            paused_at: None,
            credited_to: now,
        }
    }

    pub fn is_timed(&self) -> bool {
        self.controls.is_some()
    }

    pub fn control(&self, seat: Seat) -> Option<TimeControl> {
        self.controls.map(|c| c[seat.index()])
    }

    /// The seats whose turns run.
    pub fn running(&self) -> Vec<Seat> {
        Seat::BOTH
            .into_iter()
            .filter(|s| self.turns[s.index()].is_some())
            .collect()
    }

    /// Time `seat` has spent on its current turn by `now` (a pause does not count).
    pub fn spent(&self, seat: Seat, now: i64) -> i64 {
        match self.turns[seat.index()] {
            Some(turn) => (self.paused_at.unwrap_or(now) - turn.started_at).max(0),
            None => 0,
        }
    }

    /// Normal time and reserve left for `seat` at `now`; none when untimed.
    pub fn left(&self, seat: Seat, now: i64) -> Option<(i64, i64)> {
        let control = self.control(seat)?;
        let reserve = self.reserve_ms[seat.index()];
        if self.turns[seat.index()].is_none() {
            return Some((control.normal_ms, reserve));
        }
        let spent = self.spent(seat, now);
        let normal = (control.normal_ms - spent).max(0);
        let over = (spent - control.normal_ms).max(0);
        Some((normal, (reserve - over).max(0)))
    }

    /// All the time `seat` has left at `now` (normal time plus reserve); none when untimed.
    pub fn total_left(&self, seat: Seat, now: i64) -> Option<i64> {
        self.left(seat, now).map(|(normal, reserve)| normal + reserve)
    }

    /// When `seat`'s time runs out if it does not act first.
    pub fn flag_at(&self, seat: Seat) -> Option<i64> {
        let control = self.control(seat)?;
        let turn = self.turns[seat.index()]?;
        Some(turn.started_at + control.normal_ms + self.reserve_ms[seat.index()])
    }

    /// The seat whose time has run out by `now` (the earliest, if several).
    pub fn flagged(&self, now: i64) -> Option<Seat> {
        let at = self.paused_at.unwrap_or(now);
        Seat::BOTH
            .into_iter()
            .filter_map(|seat| self.flag_at(seat).map(|flag| (flag, seat)))
            .filter(|(flag, _)| *flag <= at)
            .min()
            .map(|(_, seat)| seat)
    }

    /// Starts timing `seat`'s turn.
    pub fn start_turn(&mut self, seat: Seat, now: i64) {
        self.turns[seat.index()] = Some(Turn {
            started_at: self.paused_at.unwrap_or(now),
            events_done: 0,
        });
    }

    /// Ends `seat`'s turn, charging its overtime to the reserve.
    pub fn end_turn(&mut self, seat: Seat, now: i64) {
        if let Some((_, reserve)) = self.left(seat, now) {
            self.reserve_ms[seat.index()] = reserve;
        }
        self.turns[seat.index()] = None;
    }

    /// Stops the clock (the game ended), charging the turns in progress.
    pub fn stop(&mut self, now: i64) {
        for seat in Seat::BOTH {
            self.end_turn(seat, now);
        }
    }

    /// After an action by `actor` (none: the rules acted), the clock follows the game: a seat no
    /// longer to act stops, a seat that comes to act starts, and the actor starts a new turn if
    /// it acts again, unless it is `mid_turn` (the second placement of a set-up turn).
    pub fn follow(&mut self, actor: Option<Seat>, to_act: &[Seat], mid_turn: bool, now: i64) {
        for seat in Seat::BOTH {
            let is_running = self.turns[seat.index()].is_some();
            let must_act = to_act.contains(&seat);
            let turn_ended = actor == Some(seat) && !mid_turn;
            if is_running && (!must_act || turn_ended) {
                self.end_turn(seat, now);
            }
            if must_act && self.turns[seat.index()].is_none() {
                self.start_turn(seat, now);
            }
        }
    }

    /// The `index`th event of `seat`'s current turn, at the moment it falls due.
    pub fn event(&self, seat: Seat, index: usize) -> Option<(i64, Notice)> {
        let turn = self.turns[seat.index()]?;
        let start = turn.started_at;
        let Some(control) = self.control(seat) else {
            // Untimed: a reminder after a day, then every two days, as many as the count of
            // events announced can tell apart (over a year's worth: the game can be claimed as
            // abandoned long before); past that the count stands still, and an event it kept
            // naming would fall due forever.
            if index >= usize::from(u8::MAX) {
                return None;
            }
            let waited = FIRST_REMINDER_MS + REMINDER_EVERY_MS * i64::try_from(index).ok()?;
            return Some((start + waited, Notice::Reminder { waited, left: None }));
        };
        let reserve = self.reserve_ms[seat.index()];
        let total = control.normal_ms + reserve;
        let mut events = Vec::new();
        if self.warns {
            let reserve_starts = start + control.normal_ms;
            // The same events in the same order as matches stored before (their count of
            // events announced must keep meaning the same).
            let quarter = control.normal_ms / 4;
            events.push((reserve_starts - quarter, Notice::NormalLeft(quarter)));
            events.push((reserve_starts, Notice::ReserveStarts));
            for point in control.warning_points() {
                if point > 0 && point < reserve {
                    events.push((reserve_starts + reserve - point, Notice::ReserveLeft(point)));
                }
            }
        } else if control.is_correspondence() && total >= HOUR_MS {
            // At half the time left, and at the last tenth of it or its last hour, whichever
            // comes later.
            for left in [total / 2, (total / 10).min(HOUR_MS)] {
                let waited = total - left;
                events.push((
                    start + waited,
                    Notice::Reminder {
                        waited,
                        left: Some(left),
                    },
                ));
            }
        }
        events.push((start + total, Notice::Flagged));
        events.get(index).copied()
    }

    /// The next event not announced yet, while the clocks run: the earliest of the seats'.
    pub fn next_event(&self) -> Option<ClockEvent> {
        if self.paused_at.is_some() {
            return None;
        }
        Seat::BOTH
            .into_iter()
            .filter_map(|seat| {
                let done = self.turns[seat.index()]?.events_done as usize;
                let (at, notice) = self.event(seat, done)?;
                Some(ClockEvent { at, seat, notice })
            })
            .min_by_key(|event| (event.at, event.seat.index()))
    }

    /// When `seat`'s next event not announced yet falls due (the next warning, or the flag).
    pub fn upcoming(&self, seat: Seat) -> Option<i64> {
        let done = self.turns[seat.index()]?.events_done as usize;
        self.event(seat, done).map(|(at, _)| at)
    }

    /// Marks `seat`'s next event announced.
    pub fn event_done(&mut self, seat: Seat) {
        if let Some(turn) = self.turns[seat.index()].as_mut() {
            turn.events_done = turn.events_done.saturating_add(1);
        }
    }

    pub fn pause(&mut self, now: i64) {
        if self.paused_at.is_none() {
            self.paused_at = Some(now);
        }
    }

    /// Unfreezes the clocks: the turns continue as if the pause had not happened.
    pub fn resume(&mut self, now: i64) {
        if let Some(paused_at) = self.paused_at.take() {
            self.shift(now - paused_at);
        }
    }

    /// Moves the running turns' starts later by `ms`: time that must not be charged.
    pub fn shift(&mut self, ms: i64) {
        for turn in self.turns.iter_mut().flatten() {
            turn.started_at += ms.max(0);
        }
    }

    /// Credits stretches of downtime (`(from, to)`, oldest first) the clock has not seen yet to
    /// the turns that ran through them; returns the most any turn was credited.
    pub fn credit(&mut self, downtimes: &[(i64, i64)], now: i64) -> i64 {
        let mut most = 0;
        let is_paused = self.paused_at.is_some();
        let seen = self.credited_to;
        for &(from, to) in downtimes.iter().filter(|(_, to)| *to > seen) {
            let to = to.min(now);
            if !is_paused {
                for turn in self.turns.iter_mut().flatten() {
                    let lost = (to - from.max(turn.started_at)).max(0);
                    turn.started_at += lost;
                    most = most.max(lost);
                }
            }
            self.credited_to = self.credited_to.max(to);
        }
        most
    }

    /// Gives `seat` more reserve. Announcements already made for its turn stay made, but the
    /// ones now ahead again are made again.
    pub fn add_reserve(&mut self, seat: Seat, ms: i64, now: i64) {
        let reserve = &mut self.reserve_ms[seat.index()];
        *reserve = reserve.saturating_add(ms.max(0)).min(LONGEST_MS);
        // While paused, the turn stands where the pause froze it.
        let at = self.paused_at.unwrap_or(now);
        let due = (0..u8::MAX as usize)
            .take_while(|&i| self.event(seat, i).is_some_and(|(due, _)| due <= at))
            .count();
        if let Some(turn) = self.turns[seat.index()].as_mut() {
            turn.events_done = due.min(usize::from(turn.events_done)) as u8;
        }
    }

    /// "0:42 + 4:12 reserve", or "2d 03:00:00" where there is no reserve, for the seat at `now`.
    pub fn line(&self, seat: Seat, now: i64) -> Option<String> {
        let (normal, reserve) = self.left(seat, now)?;
        let control = self.control(seat)?;
        let paused = if self.paused_at.is_some() { " (paused)" } else { "" };
        Some(if control.reserve_ms == 0 {
            format!("{}{paused}", duration(normal))
        } else {
            format!("{} + {} reserve{paused}", duration(normal), duration(reserve))
        })
    }
}

/// A Death Match clock as stored inside its match before every game had a clock of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchClockV0 {
    pub control: TimeControl,
    pub reserve_ms: [i64; 2],
    pub turn: Option<TurnV0>,
    pub paused_at: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnV0 {
    pub seat: Seat,
    pub started_at: i64,
    pub events_done: u8,
}

impl MatchClockV0 {
    /// The same clock today: both seats on the match's control, warning as matches do. Its
    /// warnings are the same events in the same order, so the count announced carries over.
    pub fn upgrade(self) -> GameClock {
        let mut clock = GameClock::timed([self.control; 2], true, 0);
        clock.reserve_ms = self.reserve_ms;
        clock.paused_at = self.paused_at;
        if let Some(turn) = self.turn {
            clock.turns[turn.seat.index()] = Some(Turn {
                started_at: turn.started_at,
                events_done: turn.events_done,
            });
        }
        clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::duration::{MINUTE_MS, SECOND_MS};

    const WHITE: Seat = Seat::First;
    const BLACK: Seat = Seat::Second;

    fn death_match() -> GameClock {
        GameClock::timed([TimeControl::STANDARD; 2], true, 0)
    }

    fn events(clock: &GameClock, seat: Seat) -> Vec<(i64, Notice)> {
        (0..).map_while(|i| clock.event(seat, i)).collect()
    }

    #[test]
    fn an_untimed_turn_left_for_years_runs_out_of_reminders_rather_than_repeat_the_last_forever() {
        let mut clock = GameClock::untimed(0);
        clock.follow(None, &[WHITE], false, 0);
        let mut fired = 0;
        while let Some(event) = clock.next_event() {
            assert!(fired < 300, "the reminders never end: {event:?}");
            clock.event_done(event.seat);
            fired += 1;
        }
        assert_eq!(fired, 255);
        assert_eq!(events(&clock, WHITE).len(), 255);
    }

    #[test]
    fn the_normal_time_is_used_first_and_only_overtime_comes_off_the_reserve() {
        let mut clock = death_match();
        clock.follow(None, &[WHITE], false, 0);
        assert_eq!(clock.left(WHITE, 45_000), Some((15_000, 300_000)));
        assert_eq!(clock.left(WHITE, 70_000), Some((0, 290_000)));
        clock.follow(Some(WHITE), &[BLACK], false, 70_000);
        assert_eq!(clock.reserve_ms, [290_000, 300_000]);
        clock.follow(Some(BLACK), &[WHITE], false, 100_000);
        assert_eq!(clock.reserve_ms, [290_000, 300_000], "a quick turn costs no reserve");
        // The next turn starts with the full normal time again, and the reserve is not refilled.
        assert_eq!(clock.left(WHITE, 100_000), Some((60_000, 290_000)));
    }

    #[test]
    fn death_match_events_fall_when_normal_time_ends_at_the_warning_points_and_at_the_flag() {
        let mut clock = death_match();
        clock.start_turn(WHITE, 1_000);
        assert_eq!(
            events(&clock, WHITE),
            vec![
                (46_000, Notice::NormalLeft(15_000)),
                (61_000, Notice::ReserveStarts),
                (301_000, Notice::ReserveLeft(60_000)),
                (331_000, Notice::ReserveLeft(30_000)),
                (351_000, Notice::ReserveLeft(10_000)),
                (361_000, Notice::Flagged),
            ]
        );
        assert_eq!(clock.flagged(360_999), None);
        assert_eq!(clock.flagged(361_000), Some(WHITE));
    }

    #[test]
    fn warnings_skip_points_already_past() {
        let mut clock = death_match();
        clock.reserve_ms[0] = 20_000;
        clock.start_turn(WHITE, 0);
        let kinds: Vec<Notice> = events(&clock, WHITE).into_iter().map(|(_, e)| e).collect();
        assert_eq!(
            kinds,
            [
                Notice::NormalLeft(15_000),
                Notice::ReserveStarts,
                Notice::ReserveLeft(10_000),
                Notice::Flagged
            ]
        );
    }

    #[test]
    fn an_untimed_game_reminds_after_a_day_then_every_two_days() {
        let mut clock = GameClock::untimed(0);
        clock.follow(None, &[WHITE], false, 5);
        let reminders: Vec<i64> = (0..3).map(|i| clock.event(WHITE, i).unwrap().0).collect();
        assert_eq!(reminders, [5 + DAY_MS, 5 + 3 * DAY_MS, 5 + 5 * DAY_MS]);
        assert_eq!(clock.flagged(i64::MAX / 2), None, "an untimed game never runs out");
        assert_eq!(clock.line(WHITE, 10), None);
    }

    #[test]
    fn a_timed_game_reminds_at_half_the_time_left_and_at_the_last_tenth_or_hour() {
        let mut clock = GameClock::timed([TimeControl::days_per_move(3); 2], false, 0);
        clock.start_turn(BLACK, 0);
        assert_eq!(
            events(&clock, BLACK),
            vec![
                (
                    36 * HOUR_MS,
                    Notice::Reminder {
                        waited: 36 * HOUR_MS,
                        left: Some(36 * HOUR_MS)
                    }
                ),
                (
                    71 * HOUR_MS,
                    Notice::Reminder {
                        waited: 71 * HOUR_MS,
                        left: Some(HOUR_MS)
                    }
                ),
                (72 * HOUR_MS, Notice::Flagged),
            ]
        );
        // Five hours in all: the last tenth (30 minutes) comes later than the last hour.
        let mut short = GameClock::timed([TimeControl::parse("5h").unwrap(); 2], false, 0);
        short.start_turn(WHITE, 0);
        assert_eq!(short.event(WHITE, 1).unwrap().0, 4 * HOUR_MS + 30 * MINUTE_MS);
        // A live game's players are at the board: no reminders, only the flag.
        let mut blitz = GameClock::timed([TimeControl::parse("0+5m").unwrap(); 2], false, 0);
        blitz.start_turn(WHITE, 0);
        assert_eq!(events(&blitz, WHITE), vec![(5 * MINUTE_MS, Notice::Flagged)]);
    }

    #[test]
    fn seats_acting_at_once_run_their_own_clocks() {
        let mut clock = GameClock::timed([TimeControl::parse("1m+1m").unwrap(); 2], false, 0);
        clock.follow(None, &[WHITE, BLACK], false, 0);
        // White submits after 90 seconds; Black's clock runs on alone.
        clock.follow(Some(WHITE), &[BLACK], false, 90 * SECOND_MS);
        assert_eq!(clock.reserve_ms[0], 30 * SECOND_MS);
        assert_eq!(clock.running(), [BLACK]);
        assert_eq!(clock.flag_at(BLACK), Some(2 * MINUTE_MS));
        // Black's move completes the step and both start the next one afresh.
        clock.follow(Some(BLACK), &[WHITE, BLACK], false, 100 * SECOND_MS);
        assert_eq!(clock.reserve_ms, [30 * SECOND_MS, 20 * SECOND_MS]);
        assert_eq!(clock.left(BLACK, 100 * SECOND_MS), Some((MINUTE_MS, 20 * SECOND_MS)));
    }

    #[test]
    fn the_second_placement_of_a_set_up_turn_keeps_the_turn_running() {
        let mut clock = death_match();
        clock.follow(None, &[BLACK], false, 0);
        clock.follow(Some(BLACK), &[BLACK], true, 50_000);
        assert_eq!(clock.turns[1].unwrap().started_at, 0);
        clock.follow(Some(BLACK), &[WHITE], false, 70_000);
        assert_eq!(clock.reserve_ms[1], 290_000, "both placements were one turn");
    }

    #[test]
    fn a_pause_freezes_the_turn_and_moves_its_events() {
        let mut clock = death_match();
        clock.start_turn(WHITE, 0);
        clock.pause(50_000);
        assert_eq!(clock.left(WHITE, 500_000), Some((10_000, 300_000)));
        assert_eq!(clock.next_event(), None, "nothing falls due while paused");
        clock.resume(500_000);
        assert_eq!(clock.left(WHITE, 500_000), Some((10_000, 300_000)));
        assert_eq!(clock.next_event().unwrap().at, 495_000);
    }

    #[test]
    fn downtime_is_credited_once_to_the_turns_that_ran_through_it() {
        let mut clock = GameClock::timed([TimeControl::days_per_move(1); 2], false, 0);
        clock.start_turn(WHITE, 1_000);
        let downtime = [(500, 3_000), (10_000, 20_000)];
        assert_eq!(clock.credit(&downtime, 30_000), 10_000);
        // 2 s of the first stretch fell in the turn, all 10 s of the second.
        assert_eq!(clock.spent(WHITE, 30_000), 29_000 - 12_000);
        assert_eq!(clock.credit(&downtime, 40_000), 0, "credited once");
        assert_eq!(clock.credited_to, 20_000);
    }

    #[test]
    fn added_reserve_counts_at_once_and_announcements_ahead_again_are_made_again() {
        let mut clock = death_match();
        clock.start_turn(WHITE, 0);
        for _ in 0..4 {
            clock.event_done(WHITE);
        }
        assert_eq!(clock.left(WHITE, 340_000), Some((0, 20_000)));
        clock.add_reserve(WHITE, 60_000, 340_000);
        assert_eq!(clock.left(WHITE, 340_000), Some((0, 80_000)));
        let next = clock.next_event().unwrap();
        assert_eq!((next.at, next.notice), (360_000, Notice::ReserveLeft(60_000)));
    }

    #[test]
    fn a_stored_match_clock_reads_as_the_same_clock() {
        let stored = r#"{"control":{"normal_ms":60000,"reserve_ms":300000},"reserve_ms":[300000,250000],
            "turn":{"seat":1,"started_at":1700000080000,"events_done":2},"paused_at":null}"#;
        let old: MatchClockV0 = serde_json::from_str(stored).unwrap();
        let clock = old.upgrade();
        assert!(clock.warns);
        assert_eq!(clock.reserve_ms, [300_000, 250_000]);
        assert_eq!(clock.turns[0], None);
        let turn = clock.turns[1].unwrap();
        assert_eq!((turn.started_at, turn.events_done), (1_700_000_080_000, 2));
        assert_eq!(clock.next_event().unwrap().notice, Notice::ReserveLeft(60_000));
    }
}
