//! The scheduler under a correspondence load: many timed games in the database, their
//! reminders and forfeits falling due at the pace a real day brings them, and what serving them
//! costs (CPU, store calls per minute) and how late each fires.

use super::percentile;
use crate::arena::Arena;
use crate::clock::{Clock, DAY_MS, GameClock, SystemClock, TimeControl, Turn};
use crate::ids::{GameId, Place, Places, ServerId, TournamentId, UserId};
use crate::ratings::Rating;
use crate::scheduler::Scheduler;
use crate::store::{
    Deadlines, GameRow, GameSetup, GameStatus, Games, LoggedEntry, NewEntry, NewGame, NewTournament, Players, Store,
    StoreError, TournamentRow, Tournaments, UserSettings, Vitals, WhitePlayer,
};

use anyhow::{Context, Result};
use arbiter_engine::{AnyGame, Seat, VariantId};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What was asked for and what came back.
pub struct Load {
    pub games: usize,
    /// How long the scheduler serves the load, in real time.
    pub seconds: u64,
    /// Events already due this long when the scheduler starts (a backlog, as after downtime).
    pub backlog_minutes: i64,
}

/// Seeds `load.games` games played at "bench" with one day per move, each waiting for its
/// first player, their turns begun so that reminders (half time, last hour) and forfeits fall due
/// evenly over the next day; events older than the backlog are marked announced. Then runs one
/// scheduler for `load.seconds` and reports.
pub async fn run(store: Arc<dyn Store>, name: &str, load: Load) -> Result<String> {
    let counting = Arc::new(CountingStore::new(store));
    let arena = Arena::new(counting.clone(), Arc::new(SystemClock));
    let seeded_at = Instant::now();
    let due = seed(counting.clone(), load.games, load.backlog_minutes).await?;
    let seeding = seeded_at.elapsed();
    let start = SystemClock.now_ms();
    let backlog = due.values().flatten().filter(|at| **at <= start).count();

    let (announce, mut announcements) = tokio::sync::mpsc::channel(4096);
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let scheduler = Scheduler::new(arena.clone(), crate::ids::Places::starting_with("bench"));
    let runner = tokio::spawn(async move {
        scheduler
            .run(announce, async move {
                let _ = stopped.wait_for(|s| *s).await;
            })
            .await
    });
    counting.reset();
    let cpu_before = super::cpu_time();
    let wall = Instant::now();
    let mut fired: HashMap<GameId, usize> = HashMap::new();
    let mut lateness = Vec::new();
    let mut backlog_cleared = None;
    let mut backlog_left = backlog;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(load.seconds);
    loop {
        let effects = tokio::select! {
            effects = announcements.recv() => effects,
            () = tokio::time::sleep_until(deadline) => None,
        };
        let Some(effects) = effects else {
            break;
        };
        let now = SystemClock.now_ms();
        let Some(id) = effects.game else {
            continue;
        };
        // The game's next expected event is the one announced (only the latest of several
        // overdue ones is; the others count as fired with it).
        let events = due.get(&id).map(Vec::as_slice).unwrap_or_default();
        let done = fired.entry(id).or_default();
        while *done < events.len() && events[*done] <= now {
            if events[*done] <= start {
                backlog_left = backlog_left.saturating_sub(1);
            } else {
                lateness.push(Duration::from_millis((now - events[*done]).max(0) as u64));
            }
            *done += 1;
        }
        if backlog_left == 0 && backlog_cleared.is_none() {
            backlog_cleared = Some(wall.elapsed());
        }
    }
    let elapsed = wall.elapsed();
    let cpu = match (cpu_before, super::cpu_time()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => Duration::ZERO,
    };
    let calls = counting.counts();
    let _ = stop.send(true);
    let _ = runner.await;
    lateness.sort();
    let minutes = elapsed.as_secs_f64() / 60.0;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let total_calls: u64 = calls.values().sum();
    let mut by_call: Vec<(&str, u64)> = calls.iter().map(|(k, v)| (*k, *v)).collect();
    by_call.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    let by_call: Vec<String> = by_call
        .iter()
        .map(|(call, count)| format!("{call} {:.0}", *count as f64 / minutes))
        .collect();
    Ok(format!(
        "{name}: {} timed games (1 day per move) seeded in {:.1} s; served for {:.0} s.\n  \
         backlog of {backlog} events due at the start (the last {} min): cleared in {}\n  \
         {} reminders and forfeits fell due while it ran: late by p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms\n  \
         cost: CPU {:.2} s over {:.0} s ({:.1}% of one core, {:.2} s per minute); store calls {:.0} per minute ({})\n",
        load.games,
        seeding.as_secs_f64(),
        elapsed.as_secs_f64(),
        load.backlog_minutes,
        backlog_cleared.map_or("not within the run".to_string(), |d| format!(
            "{:.2} s",
            d.as_secs_f64()
        )),
        lateness.len(),
        ms(percentile(&lateness, 50)),
        ms(percentile(&lateness, 99)),
        ms(lateness.last().copied().unwrap_or_default()),
        cpu.as_secs_f64(),
        elapsed.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / elapsed.as_secs_f64().max(1e-9),
        cpu.as_secs_f64() / minutes.max(1e-9),
        total_calls as f64 / minutes.max(1e-9),
        by_call.join(", ")
    ))
}

/// Inserts the games; returns each game's event times (half-time reminder, last-hour
/// reminder, forfeit).
async fn seed(store: Arc<dyn Store>, games: usize, backlog_minutes: i64) -> Result<HashMap<GameId, Vec<i64>>> {
    let now = SystemClock.now_ms();
    let control = TimeControl::days_per_move(1);
    let state = AnyGame::new(VariantId::Chess);
    let step = DAY_MS / games.max(1) as i64;
    let tasks = 8;
    let mut handles = Vec::new();
    for task in 0..tasks {
        let store = store.clone();
        let state = state.clone();
        handles.push(tokio::spawn(async move {
            let mut due = HashMap::new();
            for i in (task..games).step_by(tasks) {
                // Its turn began so that it runs out `i` steps into the coming day.
                let started_at = now - DAY_MS + i as i64 * step + 1_000;
                let mut clock = GameClock::timed([control; 2], false, now);
                clock.turns[Seat::First.index()] = Some(Turn {
                    started_at,
                    events_done: 0,
                });
                let events: Vec<i64> = (0..)
                    .map_while(|n| clock.event(Seat::First, n).map(|(at, _)| at))
                    .collect();
                let announced = events
                    .iter()
                    .filter(|at| **at <= now - backlog_minutes * 60_000)
                    .count();
                if let Some(turn) = clock.turns[Seat::First.index()].as_mut() {
                    turn.events_done = announced as u8;
                }
                let players = [UserId::new(format!("bench:w{i}")), UserId::new(format!("bench:b{i}"))];
                let new = NewGame {
                    setup: GameSetup::new(VariantId::Chess),
                    location: "bench".into(),
                    status: GameStatus::Active,
                    challenger: players[0].clone(),
                    opponent: players[1].clone(),
                    white_player: WhitePlayer::Challenger,
                    players: Some(players),
                    state: state.clone(),
                    now,
                    deathmatch: None,
                    clock,
                    server: None,
                    tournament: None,
                    is_rated: true,
                };
                let row = store.insert_game(&new).await?;
                due.insert(row.id, events[announced..].to_vec());
            }
            anyhow::Ok(due)
        }));
    }
    let mut due = HashMap::new();
    for handle in handles {
        due.extend(handle.await.context("a seeding task")??);
    }
    Ok(due)
}

/// A store that counts the calls made through it, by kind.
struct CountingStore {
    inner: Arc<dyn Store>,
    counts: Mutex<HashMap<&'static str, AtomicU64>>,
}

impl CountingStore {
    fn new(inner: Arc<dyn Store>) -> CountingStore {
        CountingStore {
            inner,
            counts: Mutex::new(HashMap::new()),
        }
    }

    fn count(&self, call: &'static str) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.entry(call).or_default().fetch_add(1, Ordering::Relaxed);
    }

    fn reset(&self) {
        self.counts.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    fn counts(&self) -> HashMap<&'static str, u64> {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.iter().map(|(k, v)| (*k, v.load(Ordering::Relaxed))).collect()
    }
}

#[async_trait]
impl Games for CountingStore {
    async fn insert_game(&self, game: &NewGame) -> Result<GameRow, StoreError> {
        self.count("insert_game");
        self.inner.insert_game(game).await
    }

    async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        self.count("game");
        self.inner.game(id).await
    }

    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        self.count("update_game");
        self.inner.update_game(game, entries, ratings).await
    }

    async fn log(&self, id: GameId) -> Result<Vec<LoggedEntry>, StoreError> {
        self.count("log");
        self.inner.log(id).await
    }

    async fn games_of(&self, user: &UserId, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError> {
        self.count("games_of");
        self.inner.games_of(user, statuses).await
    }

    async fn games_at(&self, location: &Place, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError> {
        self.count("games_at");
        self.inner.games_at(location, statuses).await
    }

    async fn mark_shown(&self, id: GameId, version: i64) -> Result<(), StoreError> {
        self.count("mark_shown");
        self.inner.mark_shown(id, version).await
    }

    async fn unshown_games(&self, places: &Places) -> Result<Vec<GameId>, StoreError> {
        self.count("unshown_games");
        self.inner.unshown_games(places).await
    }

    async fn watch_token(&self, id: GameId, fresh: &str) -> Result<String, StoreError> {
        self.count("watch_token");
        self.inner.watch_token(id, fresh).await
    }

    async fn game_of_watch_token(&self, token: &str) -> Result<Option<GameId>, StoreError> {
        self.count("game_of_watch_token");
        self.inner.game_of_watch_token(token).await
    }

    async fn open_matches_on(&self, server: &ServerId) -> Result<i64, StoreError> {
        self.count("open_matches_on");
        self.inner.open_matches_on(server).await
    }
}

#[async_trait]
impl Deadlines for CountingStore {
    async fn claim_due(&self, places: &Places, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<GameId>, StoreError> {
        self.count("claim_due");
        self.inner.claim_due(places, now, lease_ms, limit).await
    }

    async fn earliest_deadline(&self, places: &Places) -> Result<Option<i64>, StoreError> {
        self.count("earliest_deadline");
        self.inner.earliest_deadline(places).await
    }

    async fn running_matches(&self, places: &Places) -> Result<Vec<GameId>, StoreError> {
        self.count("running_matches");
        self.inner.running_matches(places).await
    }

    async fn heartbeat(&self, places: &Places, now: i64) -> Result<Option<i64>, StoreError> {
        self.count("heartbeat");
        self.inner.heartbeat(places, now).await
    }

    async fn record_downtime(&self, places: &Places, from: i64, to: i64) -> Result<(), StoreError> {
        self.count("record_downtime");
        self.inner.record_downtime(places, from, to).await
    }

    async fn downtimes(&self, location: &Place, after: i64) -> Result<Vec<(i64, i64)>, StoreError> {
        self.count("downtimes");
        self.inner.downtimes(location, after).await
    }
}

#[async_trait]
impl Players for CountingStore {
    async fn settings(&self, user: &UserId) -> Result<UserSettings, StoreError> {
        self.count("settings");
        self.inner.settings(user).await
    }

    async fn save_settings(&self, user: &UserId, settings: &UserSettings) -> Result<(), StoreError> {
        self.count("save_settings");
        self.inner.save_settings(user, settings).await
    }

    async fn server_settings(&self, server: &ServerId) -> Result<crate::store::ServerSettings, StoreError> {
        self.count("server_settings");
        self.inner.server_settings(server).await
    }

    async fn save_server_settings(
        &self,
        server: &ServerId,
        settings: &crate::store::ServerSettings,
    ) -> Result<(), StoreError> {
        self.count("save_server_settings");
        self.inner.save_server_settings(server, settings).await
    }

    async fn display_name(&self, user: &UserId) -> Result<Option<String>, StoreError> {
        self.count("display_name");
        self.inner.display_name(user).await
    }

    async fn save_display_name(&self, user: &UserId, name: &str, now: i64) -> Result<(), StoreError> {
        self.count("save_display_name");
        self.inner.save_display_name(user, name, now).await
    }

    async fn saved_lists(&self, user: &UserId) -> Result<Vec<crate::store::SavedList>, StoreError> {
        self.count("saved_lists");
        self.inner.saved_lists(user).await
    }

    async fn save_list(&self, user: &UserId, list: &crate::store::SavedList) -> Result<(), StoreError> {
        self.count("save_list");
        self.inner.save_list(user, list).await
    }

    async fn delete_list(&self, user: &UserId, name: &str) -> Result<bool, StoreError> {
        self.count("delete_list");
        self.inner.delete_list(user, name).await
    }

    async fn rating(
        &self,
        server: Option<&ServerId>,
        user: &UserId,
        variant: VariantId,
    ) -> Result<Option<Rating>, StoreError> {
        self.count("rating");
        self.inner.rating(server, user, variant).await
    }

    async fn ratings_of(&self, server: Option<&ServerId>, user: &UserId) -> Result<Vec<Rating>, StoreError> {
        self.count("ratings_of");
        self.inner.ratings_of(server, user).await
    }

    async fn leaderboard(
        &self,
        server: Option<&ServerId>,
        variant: VariantId,
        limit: i64,
    ) -> Result<Vec<Rating>, StoreError> {
        self.count("leaderboard");
        self.inner.leaderboard(server, variant, limit).await
    }
}

#[async_trait]
impl Vitals for CountingStore {
    async fn ping(&self) -> Result<(), StoreError> {
        self.inner.ping().await
    }

    fn connections(&self) -> (usize, usize) {
        self.inner.connections()
    }

    async fn active_games(&self) -> Result<Vec<(VariantId, i64)>, StoreError> {
        self.inner.active_games().await
    }
}

#[async_trait]
impl Tournaments for CountingStore {
    async fn insert_tournament(&self, tournament: &NewTournament) -> Result<TournamentRow, StoreError> {
        self.count("insert_tournament");
        self.inner.insert_tournament(tournament).await
    }

    async fn tournament(&self, id: TournamentId) -> Result<Option<TournamentRow>, StoreError> {
        self.count("tournament");
        self.inner.tournament(id).await
    }

    async fn tournaments_at(&self, location: &Place) -> Result<Vec<TournamentRow>, StoreError> {
        self.count("tournaments_at");
        self.inner.tournaments_at(location).await
    }

    async fn update_tournament(
        &self,
        tournament: &TournamentRow,
        games: &[NewGame],
    ) -> Result<Vec<GameRow>, StoreError> {
        self.count("update_tournament");
        self.inner.update_tournament(tournament, games).await
    }

    async fn tournament_games(&self, id: TournamentId) -> Result<Vec<GameRow>, StoreError> {
        self.count("tournament_games");
        self.inner.tournament_games(id).await
    }

    async fn tournaments_due(&self, places: &Places, now: i64) -> Result<Vec<TournamentId>, StoreError> {
        self.count("tournaments_due");
        self.inner.tournaments_due(places, now).await
    }

    async fn open_tournaments_on(&self, server: &ServerId) -> Result<i64, StoreError> {
        self.count("open_tournaments_on");
        self.inner.open_tournaments_on(server).await
    }
}
