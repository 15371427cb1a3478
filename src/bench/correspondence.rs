//! The scheduler under a correspondence load: many timed games in the database, their
//! reminders and forfeits falling due at the pace a real day brings them, and what serving them
//! costs (CPU, store calls per minute) and how late each fires.

use super::percentile;
use crate::arena::Arena;
use crate::clock::{Clock, DAY_MS, GameClock, SystemClock, TimeControl, Turn};
use crate::ids::{GameId, UserId};
use crate::model::{GameSetup, GameStatus, NewGame, WhitePlayer};
use crate::scheduler::Scheduler;
use crate::store::Store;
use crate::store::layer::{Layer, Layered};

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
    let counting = Arc::new(Layered(CountingStore::new(store)));
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
impl Layer for CountingStore {
    fn inner(&self) -> &dyn Store {
        self.inner.as_ref()
    }

    async fn before(&self, request: &'static str) {
        self.count(request);
    }
}
