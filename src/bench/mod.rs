//! Benchmarks run by `arbiter bench`: measured numbers for the closing notes, never assertions.

pub mod correspondence;
pub mod images;
pub mod lists;
pub mod web;

use crate::arena::{Arena, ChallengeRequest};
use crate::clock::SystemClock;
use crate::ids::{GameId, UserId};
use crate::model::{GameSetup, WhitePlayer};
use crate::store::{PostgresStore, SqliteStore, Store};
use anyhow::{Context, Result};
use arbiter_engine::VariantId;
use std::fmt::Write;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A 40-ply game played over and over: ordinary moves, captures, castling, checks.
const GAME: [&str; 40] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3",
    "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7", "Bg5", "b4", "Nb1", "h6", "Bh4", "c5", "dxe5",
    "Nxe4", "Bxe7", "Qxe7", "exd6", "Qf6", "Nbd2", "Nxd6",
];

/// Percentile `p` (0..=100) of sorted durations.
pub(crate) fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() - 1) * p / 100]
}

/// What one benchmark run measured.
pub struct ArenaReport {
    pub store: &'static str,
    pub games: usize,
    pub moves: usize,
    pub elapsed: Duration,
    pub latencies: Vec<Duration>,
}

impl ArenaReport {
    pub fn summary(&self) -> String {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} moves in {} concurrent games in {:.2} s = {:.0} moves/s; per move p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.store,
            self.moves,
            self.games,
            self.elapsed.as_secs_f64(),
            self.moves as f64 / self.elapsed.as_secs_f64(),
            percentile(&sorted, 50).as_secs_f64() * 1e3,
            percentile(&sorted, 99).as_secs_f64() * 1e3,
            sorted.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        );
        out
    }
}

/// Plays `games` chess games at once through the arena, each move a full request (load, check,
/// apply, save in one transaction), and times every move. No images are rendered.
pub async fn arena_throughput(store: Arc<dyn Store>, name: &'static str, games: usize) -> Result<ArenaReport> {
    let arena = Arena::new(store, Arc::new(SystemClock));
    let mut ids = Vec::new();
    for i in 0..games {
        let white = UserId::new(format!("bench:w{i}"));
        let black = UserId::new(format!("bench:b{i}"));
        let id = arena
            .challenges()
            .challenge(
                &white,
                ChallengeRequest {
                    opponent: black.clone(),
                    setup: GameSetup::new(VariantId::Chess),
                    white_player: WhitePlayer::Challenger,
                    control: None,
                    location: "bench".into(),
                    server: None,
                },
            )
            .await?
            .game
            .context("a challenge creates a game")?;
        arena.challenges().accept(id, &black).await?;
        ids.push((id, [white, black]));
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (id, players) in ids {
        let arena = arena.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(GAME.len());
            for (ply, text) in GAME.iter().enumerate() {
                let timer = Instant::now();
                arena.play().act(id, &players[ply % 2], text).await?;
                latencies.push(timer.elapsed());
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    Ok(ArenaReport {
        store: name,
        games,
        moves: latencies.len(),
        elapsed: started.elapsed(),
        latencies,
    })
}

/// A fresh SQLite file in a temporary directory, removed afterwards by the caller.
pub async fn scratch_sqlite() -> Result<(Arc<dyn Store>, std::path::PathBuf)> {
    let dir = std::env::temp_dir().join(format!("arbiter-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
    Ok((Arc::new(SqliteStore::connect(&url).await?), dir))
}

/// A PostgreSQL store in a schema of its own, so the benchmark never touches real games; the
/// caller drops the schema afterwards with `drop_schema`.
pub async fn scratch_postgres(url: &str) -> Result<(Arc<dyn Store>, String)> {
    let schema = format!("arbiter_bench_{}", std::process::id());
    let admin = sqlx::PgPool::connect(url)
        .await
        .with_context(|| format!("no PostgreSQL at {url}"))?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\"")))
        .execute(&admin)
        .await?;
    admin.close().await;
    let options = sqlx::postgres::PgConnectOptions::from_str(url)?.options([("search_path", schema.as_str())]);
    Ok((Arc::new(PostgresStore::connect_with(options).await?), schema))
}

pub async fn drop_schema(url: &str, schema: &str) -> Result<()> {
    let admin = sqlx::PgPool::connect(url).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"
    )))
    .execute(&admin)
    .await?;
    admin.close().await;
    Ok(())
}

/// Runs the arena benchmark on SQLite and, when `postgres_url` is given, on PostgreSQL.
pub async fn arena(postgres_url: Option<&str>, games: usize, metrics: bool) -> Result<String> {
    let mut out = String::new();
    if metrics {
        crate::telemetry::install();
    }
    let (store, dir) = scratch_sqlite().await?;
    let report = arena_throughput(store, "sqlite", games).await;
    let _ = std::fs::remove_dir_all(&dir);
    out.push_str(&report?.summary());
    if let Some(url) = postgres_url {
        let (store, schema) = scratch_postgres(url).await?;
        let report = arena_throughput(store, "postgres", games).await;
        drop_schema(url, &schema).await?;
        out.push_str(&report?.summary());
    }
    if metrics {
        let series = crate::telemetry::render()
            .lines()
            .filter(|line| line.starts_with("arbiter_"))
            .count();
        out.push_str(&format!("metrics: recorded ({series} series)\n"));
    } else {
        out.push_str("metrics: off\n");
    }
    Ok(out)
}

/// A 10x10 position with many fairy pieces (docs/images/ten-by-ten.toml).
pub const TEN_BY_TEN: &str = include_str!("../../docs/images/ten-by-ten.toml");

/// The positions the image benchmark draws: a FIDE middlegame and a 10x10 fairy army.
fn render_positions() -> Result<Vec<(&'static str, arbiter_engine::View)>> {
    use arbiter_engine::{AnyGame, Game, Viewer};
    let mut chess = AnyGame::new(VariantId::Chess);
    let mut ten = AnyGame::custom(
        Arc::new(arbiter_engine::variant_file::Variant::from_toml(TEN_BY_TEN)?),
        None,
    )?;
    for (game, moves) in [(&mut chess, &GAME[..24]), (&mut ten, &["CAd4", "CAd7"][..])] {
        for text in moves {
            let seat = game.to_act()[0];
            let action = game
                .parse_action(seat, text)
                .map_err(|e| anyhow::anyhow!("{text}: {e}"))?;
            game.apply(seat, &action).map_err(|e| anyhow::anyhow!("{text}: {e}"))?;
        }
    }
    Ok(vec![
        ("8x8", chess.view(Viewer::Spectator)),
        ("10x10", ten.view(Viewer::Spectator)),
    ])
}

/// One action of the first seat to act, chosen at random and played: what it was, or `None`
/// when the game is over or stuck.
pub(crate) fn play_at_random(
    game: &mut arbiter_engine::AnyGame,
    rng: &mut rand::rngs::SmallRng,
) -> Option<(arbiter_engine::Seat, arbiter_engine::Action)> {
    use arbiter_engine::Game;
    use rand::Rng;
    if game.outcome().is_some() {
        return None;
    }
    let seat = *game.to_act().first()?;
    let legal = game.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let action = legal[rng.random_range(0..legal.len())].clone();
    game.apply(seat, &action).ok()?;
    Some((seat, action))
}

/// Times every image from view to PNG bytes, and its stages, over `iterations` runs; then, with
/// `images_per_game` above 0, the memory the image caches take ([`images::memory`]).
pub fn render(iterations: usize, images_per_game: usize) -> Result<String> {
    use crate::render::{Decor, Renderer, Scene, encode_indexed};
    let renderer = Renderer::new();
    let decor = Decor {
        player_names: [Some("alice".into()), Some("bob".into())],
        clocks: [Some("0:42 · reserve 4:12".into()), Some("1:00 · reserve 5:00".into())],
        ..Decor::default()
    };
    let mut out = String::new();
    for (name, view) in render_positions()? {
        let (mut total, mut build, mut raster, mut encode) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut size = 0;
        let mut dimensions = (0, 0);
        for _ in 0..iterations.max(1) {
            let start = Instant::now();
            let scene = Scene::from_view(&view, &decor);
            let built = Instant::now();
            let pixmap = renderer.pixels(&scene)?;
            let drawn = Instant::now();
            let png = encode_indexed(&pixmap)?;
            let done = Instant::now();
            total.push(done - start);
            build.push(built - start);
            raster.push(drawn - built);
            encode.push(done - drawn);
            size = png.len();
            dimensions = (pixmap.width(), pixmap.height());
        }
        let median = |times: &mut Vec<Duration>| {
            times.sort();
            percentile(times, 50).as_secs_f64() * 1e3
        };
        let _ = writeln!(
            out,
            "{name} ({}x{} px): median {:.2} ms per image (scene {:.2}, layout+raster {:.2}, PNG encode {:.2}); p99 {:.2} ms; PNG {:.1} KB",
            dimensions.0,
            dimensions.1,
            median(&mut total),
            median(&mut build),
            median(&mut raster),
            median(&mut encode),
            percentile(&total, 99).as_secs_f64() * 1e3,
            size as f64 / 1024.0
        );
    }
    if images_per_game > 0 {
        out.push_str(&images::memory(images_per_game)?);
    }
    Ok(out)
}

/// CPU time this process has used (user + system), from /proc on Linux.
pub(crate) fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel's clock tick is 100 Hz on the machines this runs on.
    Some(Duration::from_millis(ticks * 10))
}

/// Starts `matches` Death Matches whose reserves run out at moments spread over `spread`, runs
/// `schedulers` schedulers until every one has fired, and reports how late each forfeit was.
pub async fn clocks(
    store: Arc<dyn Store>,
    name: &str,
    matches: usize,
    spread: Duration,
    schedulers: usize,
) -> Result<String> {
    use crate::arena::{Caller, MatchRequest};
    use crate::clock::TimeControl;
    use crate::model::LogEntry;
    use crate::scheduler::Scheduler;
    let arena = Arena::new(store.clone(), Arc::new(SystemClock));
    let host = UserId::new("bench:host");
    // Deadlines start after every match is set up, then spread evenly.
    let lead = Duration::from_secs(5) + Duration::from_millis(matches as u64 * 3);
    let mut due = Vec::with_capacity(matches);
    for i in 0..matches {
        let offset = lead + spread * i as u32 / matches.max(1) as u32;
        let control = TimeControl {
            normal_ms: offset.as_millis() as i64,
            reserve_ms: 0,
        };
        let players = [UserId::new(format!("bench:r{i}")), UserId::new(format!("bench:b{i}"))];
        let request = MatchRequest {
            variant: VariantId::Blockade,
            players: players.clone(),
            advantage: players[0].clone(),
            control,
            location: "bench".into(),
            computer: None,
        };
        let id = arena
            .matches()
            .start(&Caller::host(&host, None), request)
            .await?
            .game
            .context("a match")?;
        arena
            .matches()
            .choose_side(id, &Caller::player(&players[0], None), arbiter_engine::Seat::First)
            .await?;
        let game = store.game(id).await?.context("the match")?;
        let flag = game
            .clock
            .flag_at(arbiter_engine::Seat::First)
            .context("a running clock")?;
        due.push((id, flag));
    }
    let (announce, mut announcements) = tokio::sync::mpsc::channel(1024);
    let drain = tokio::spawn(async move { while announcements.recv().await.is_some() {} });
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let cpu_before = cpu_time();
    let wall = Instant::now();
    let mut runners = Vec::new();
    for _ in 0..schedulers.max(1) {
        let mut stopped = stopped.clone();
        let scheduler = Scheduler::new(arena.clone(), crate::ids::Places::starting_with("bench"));
        let announce = announce.clone();
        runners.push(tokio::spawn(async move {
            scheduler
                .run(announce, async move {
                    let _ = stopped.wait_for(|s| *s).await;
                })
                .await
        }));
    }
    drop(announce);
    let last_due = due.iter().map(|(_, at)| *at).max().unwrap_or(0);
    let give_up = last_due + 30_000;
    let mut lateness = Vec::with_capacity(matches);
    let mut pending: Vec<(GameId, i64)> = due.clone();
    while !pending.is_empty() && arena.now() < give_up {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut still = Vec::new();
        for (id, flag) in pending {
            let log = store.log(id).await?;
            match log.iter().find(|e| matches!(e.entry, LogEntry::Conclude { .. })) {
                Some(entry) => lateness.push(Duration::from_millis((entry.at - flag).max(0) as u64)),
                None => still.push((id, flag)),
            }
        }
        pending = still;
    }
    let elapsed = wall.elapsed();
    let cpu = match (cpu_before, cpu_time()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => Duration::ZERO,
    };
    let _ = stop.send(true);
    for runner in runners {
        let _ = runner.await;
    }
    let _ = drain.await;
    lateness.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    Ok(format!(
        "{name}: {} of {matches} forfeits fired ({} schedulers, deadlines over {:.0} s); late by p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; CPU {:.2} s over {:.0} s of wall time ({:.1}% of one core)\n",
        lateness.len(),
        schedulers.max(1),
        spread.as_secs_f64(),
        ms(percentile(&lateness, 50)),
        ms(percentile(&lateness, 99)),
        ms(lateness.last().copied().unwrap_or_default()),
        cpu.as_secs_f64(),
        elapsed.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / elapsed.as_secs_f64().max(1e-9)
    ))
}

/// The clock benchmark on SQLite and, when given, PostgreSQL.
pub async fn clocks_everywhere(
    postgres_url: Option<&str>,
    matches: usize,
    spread: Duration,
    schedulers: usize,
) -> Result<String> {
    let mut out = String::new();
    let (store, dir) = scratch_sqlite().await?;
    let report = clocks(store, "sqlite", matches, spread, 1).await;
    let _ = std::fs::remove_dir_all(&dir);
    out.push_str(&report?);
    if let Some(url) = postgres_url {
        let (store, schema) = scratch_postgres(url).await?;
        let report = clocks(store, "postgres", matches, spread, schedulers).await;
        drop_schema(url, &schema).await?;
        out.push_str(&report?);
    }
    Ok(out)
}

/// The correspondence benchmark on SQLite and, when given, PostgreSQL.
pub async fn correspondence_everywhere(postgres_url: Option<&str>, load: correspondence::Load) -> Result<String> {
    let mut out = String::new();
    if let Some(url) = postgres_url {
        let (store, schema) = scratch_postgres(url).await?;
        let report = correspondence::run(store, "postgres", load).await;
        drop_schema(url, &schema).await?;
        out.push_str(&report?);
    } else {
        let (store, dir) = scratch_sqlite().await?;
        let report = correspondence::run(store, "sqlite", load).await;
        let _ = std::fs::remove_dir_all(&dir);
        out.push_str(&report?);
    }
    Ok(out)
}
