//! How late clock warnings and forfeits reach their channels when many Death Matches run out of
//! time together, with Discord's rate limits on (5 messages per 5 s in a channel, 50 requests a
//! second in all): the real bot, its scheduler and its announcement queues against the fake
//! Discord, on SQLite.
//!
//! `cargo bench --profile dev --bench delivery [-- 100 1000] [--processes 2]` (match counts; 100
//! and 1,000 by default). With `--processes N`, N bot processes share the shards and the
//! database, each pacing itself to its share of the bot's one global budget: the report counts
//! the 429s of the global limit apart. The numbers are waits imposed by the rate limits, not
//! CPU, so the dev profile measures the same thing as a release build.

use arbiter::arena::{Arena, Caller, MatchRequest};
use arbiter::clock::{Notice, SystemClock, TimeControl};
use arbiter::discord::{ANNOUNCEMENTS, Config, Shards};
use arbiter::ids::{Place, UserId};
use arbiter_engine::{Seat, VariantId};
use fake_discord::FakeDiscord;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A Death Match's shape, scaled down twelve-fold so a run takes seconds: 5 s of normal time a
/// turn and a 25 s reserve (the show plays 60 s and 5 minutes). Each match warns at 1.25 s of
/// normal time left, when the reserve starts, at 5 s, 2.5 s and 0.8 s of reserve left, then
/// forfeits.
const CONTROL: TimeControl = TimeControl {
    normal_ms: 5_000,
    reserve_ms: 25_000,
};
/// First channel id; match `i` is played in channel `FIRST_CHANNEL + i`.
const FIRST_CHANNEL: u64 = 70_000;

/// One kind of announcement and when each of its instances fell due, per match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    NormalLeft,
    ReserveStarts,
    ReserveLeft,
    Forfeit,
}

impl Kind {
    fn of_notice(notice: Notice) -> Option<Kind> {
        match notice {
            Notice::NormalLeft(_) => Some(Kind::NormalLeft),
            Notice::ReserveStarts => Some(Kind::ReserveStarts),
            Notice::ReserveLeft(_) => Some(Kind::ReserveLeft),
            Notice::Flagged => Some(Kind::Forfeit),
            Notice::Reminder { .. } => None,
        }
    }

    fn of_text(text: &str) -> Option<Kind> {
        [
            ("of normal time left", Kind::NormalLeft),
            ("your reserve is running", Kind::ReserveStarts),
            ("of reserve left", Kind::ReserveLeft),
            ("ran out of time", Kind::Forfeit),
        ]
        .into_iter()
        .find(|(words, _)| text.contains(words))
        .map(|(_, kind)| kind)
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as i64
}

fn percentile(sorted: &[i64], p: usize) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[(sorted.len() - 1) * p / 100]
}

fn describe(mut late: Vec<i64>) -> String {
    late.sort_unstable();
    format!(
        "p50 {:.2} s, p99 {:.2} s, max {:.2} s",
        percentile(&late, 50) as f64 / 1e3,
        percentile(&late, 99) as f64 / 1e3,
        late.last().copied().unwrap_or(0) as f64 / 1e3
    )
}

async fn run(matches: usize, processes: u32) -> anyhow::Result<String> {
    let (store, dir) = arbiter::bench::scratch_sqlite().await?;
    let arena = Arena::new(store.clone(), Arc::new(SystemClock));
    let fake = FakeDiscord::start().await;

    // Every match's reserve starts at the same moment, after the set-up and the bot's start.
    let lead_ms = 4_000 + matches as i64 * 20;
    let reserve_starts = now_ms() + lead_ms;
    let host = UserId::new("discord:1");
    let mut due: Vec<Vec<(Kind, i64)>> = Vec::with_capacity(matches);
    let mut ids = Vec::with_capacity(matches);
    for i in 0..matches {
        let players = [2_000 + 2 * i as u64, 2_001 + 2 * i as u64].map(|id| UserId::new(format!("discord:{id}")));
        // Players the bot has met before (a show's players have clicked its buttons): their
        // names are stored, so the boards need no lookups.
        for (n, player) in players.iter().enumerate() {
            store
                .save_display_name(player, &format!("Player {}", 2 * i + n), now_ms())
                .await?;
        }
        let control = TimeControl {
            normal_ms: CONTROL.normal_ms + (reserve_starts - CONTROL.normal_ms - now_ms()),
            ..CONTROL
        };
        let request = MatchRequest {
            variant: VariantId::Blockade,
            players: players.clone(),
            advantage: players[0].clone(),
            control,
            location: Place::new(format!("discord:{}", FIRST_CHANNEL + i as u64)),
            computer: None,
        };
        // The match's channel exists on the server, as a show's channel would.
        fake.add_channel(FIRST_CHANNEL + i as u64, FakeDiscord::GUILD_ID);
        let started = arena.matches().start(&Caller::host(&host, None), request).await?;
        let id = started.game.ok_or_else(|| anyhow::anyhow!("no match"))?;
        arena
            .matches()
            .choose_side(id, &Caller::player(&players[0], None), Seat::First)
            .await?;
        let game = store.game(id).await?.ok_or_else(|| anyhow::anyhow!("no match"))?;
        // The matches began before the bot started; their start is taken as announced.
        arena.watching().mark_shown(id, game.version).await?;
        let events = (0..)
            .map_while(|index| game.clock.event(Seat::First, index))
            .filter_map(|(at, notice)| Kind::of_notice(notice).map(|kind| (kind, at)))
            .collect();
        due.push(events);
        ids.push(id);
    }

    let posted_before = ANNOUNCEMENTS.posted.load(Ordering::Relaxed);
    let dropped_before = ANNOUNCEMENTS.dropped_stale.load(Ordering::Relaxed);
    let mut bots = Vec::new();
    for shard in 0..processes {
        let config = Config {
            token: "bench-token".into(),
            web: None,
            metrics: None,
            attachments: Default::default(),
            guild_id: Some(FakeDiscord::GUILD_ID),
            api_base: Some(fake.api_base()),
            host_role: None,
            shards: if processes == 1 {
                Shards::Automatic
            } else {
                Shards::Range {
                    first: shard,
                    last: shard,
                    total: processes,
                }
            },
        };
        // Each process has its own connections to the one database.
        let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
        let process_store: Arc<dyn arbiter::store::Store> = Arc::new(arbiter::store::SqliteStore::connect(&url).await?);
        let process_arena = Arena::new(process_store, Arc::new(SystemClock));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let bot = tokio::spawn(arbiter::discord::run(config, process_arena, async {
            let _ = stopped.await;
        }));
        bots.push((stop, bot));
    }
    fake.wait_ready().await;
    let wall = Instant::now();
    anyhow::ensure!(now_ms() < reserve_starts, "set-up took longer than its lead; raise it");

    // Moments on the fake's clock, converted to the arena's milliseconds.
    let (base_instant, base_ms) = (Instant::now(), now_ms());
    let at_ms = |at: Instant| {
        base_ms + at.saturating_duration_since(base_instant).as_millis() as i64
            - base_instant.saturating_duration_since(at).as_millis() as i64
    };
    let give_up = Instant::now() + Duration::from_secs(60 + matches as u64);
    let channel_of = |path: &str| -> Option<usize> {
        let channel: u64 = path
            .strip_prefix("/api/v10/channels/")?
            .strip_suffix("/messages")?
            .parse()
            .ok()?;
        let index = channel.checked_sub(FIRST_CHANNEL)? as usize;
        (index < matches).then_some(index)
    };
    let forfeits_posted = |calls: &[fake_discord::Call]| {
        calls
            .iter()
            .filter(|c| c.status == 200 && channel_of(&c.path).is_some())
            .filter(|c| Kind::of_text(c.json["content"].as_str().unwrap_or("")) == Some(Kind::Forfeit))
            .count()
    };
    while forfeits_posted(&fake.calls()) < matches && Instant::now() < give_up {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let elapsed = wall.elapsed();
    let requests = fake.calls().len();
    let busiest = busiest_second(&fake.calls());
    for (stop, bot) in bots {
        let _ = stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), bot).await;
    }

    let mut warnings_late = Vec::new();
    let mut forfeits_late = Vec::new();
    for call in fake.calls() {
        let Some(index) = channel_of(&call.path).filter(|_| call.status == 200) else {
            continue;
        };
        let Some(kind) = Kind::of_text(call.json["content"].as_str().unwrap_or("")) else {
            continue;
        };
        let arrived = at_ms(call.at);
        // The announcement this is: the latest of its kind that had fallen due (a warning is
        // dropped, not sent, once the next one falls due).
        let Some(fell_due) = due[index]
            .iter()
            .filter(|(k, at)| *k == kind && *at <= arrived)
            .map(|(_, at)| *at)
            .max()
        else {
            continue;
        };
        let late = arrived - fell_due;
        if kind == Kind::Forfeit {
            forfeits_late.push(late);
        } else {
            warnings_late.push(late);
        }
    }
    // Names the bot had to ask Discord for, within the same budget.
    let lookups = fake
        .calls()
        .iter()
        .filter(|c| c.method == "GET" && c.path.starts_with("/api/v10/users/") && c.path != "/api/v10/users/@me")
        .count();
    // The clocks themselves: how late each forfeit was saved, whatever its post waited for.
    let mut fired_late = Vec::with_capacity(matches);
    for (id, events) in ids.iter().zip(&due) {
        let flag = events.last().map_or(0, |(_, at)| *at);
        let log = store.log(*id).await?;
        if let Some(end) = log
            .iter()
            .find(|e| matches!(e.entry, arbiter::model::LogEntry::Conclude { .. }))
        {
            fired_late.push(end.at - flag);
        }
    }
    let warnings_due: usize = due.iter().map(|events| events.len() - 1).sum();
    let posted = ANNOUNCEMENTS.posted.load(Ordering::Relaxed) - posted_before;
    let dropped = ANNOUNCEMENTS.dropped_stale.load(Ordering::Relaxed) - dropped_before;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(format!(
        "{matches} matches, {processes} process{}: forfeits saved late by {}; {} of {matches} forfeits posted, \
         late by {}; {} of {warnings_due} warnings posted, late by {}; {dropped} warnings dropped as stale; \
         {posted} announcements posted in all, and {lookups} names looked up; {requests} requests, {:.1} a second \
         ({busiest} in the busiest second); \
         {} answered 429, {} of them by the global limit; {:.0} s from the bot's start to the last forfeit\n",
        if processes == 1 { "" } else { "es" },
        describe(fired_late),
        forfeits_late.len(),
        describe(forfeits_late),
        warnings_late.len(),
        describe(warnings_late),
        requests as f64 / elapsed.as_secs_f64(),
        fake.rate_limited(),
        fake.rate_limited_globally(),
        elapsed.as_secs_f64(),
    ))
}

/// The most requests Discord received in any one second (a sliding window), interaction
/// answers aside, as Discord counts its global limit.
fn busiest_second(calls: &[fake_discord::Call]) -> usize {
    let mut times: Vec<Instant> = calls
        .iter()
        .filter(|c| !c.path.contains("/interactions/") && !c.path.contains("/webhooks/"))
        .map(|c| c.at)
        .collect();
    times.sort();
    let mut busiest = 0;
    let mut first = 0;
    for (last, at) in times.iter().enumerate() {
        while at.duration_since(times[first]) >= Duration::from_secs(1) {
            first += 1;
        }
        busiest = busiest.max(last - first + 1);
    }
    busiest
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let processes = args
        .iter()
        .position(|arg| arg == "--processes")
        .and_then(|at| args.get(at + 1))
        .map_or(Ok(1), |n| n.parse::<u32>())?
        .max(1);
    let counts: Vec<usize> = args
        .iter()
        .enumerate()
        .filter(|(i, _)| *i == 0 || args[i - 1] != "--processes")
        .filter_map(|(_, arg)| arg.parse().ok())
        .collect();
    let counts = if counts.is_empty() { vec![100, 1_000] } else { counts };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    for matches in counts {
        let report = runtime.block_on(run(matches, processes))?;
        print!("{report}");
    }
    Ok(())
}
