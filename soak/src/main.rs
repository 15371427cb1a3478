//! `arbiter-soak`: many games played at once through the real bot (two processes splitting the
//! shards on one PostgreSQL database) and a fake Discord, while faults are injected: processes
//! killed outright and restarted, 429 storms and 5xx bursts from Discord. At the end the
//! invariants are checked from the database and the calls Discord received, and the figures
//! printed; the last line is the verdict, and the exit code is 0 only when every invariant holds.
//!
//! `cargo run --release -p arbiter-soak -- --minutes M [--games N] [--seed K]`, on PostgreSQL at
//! `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`); the soak works in a
//! database of its own, created and dropped there.

mod bots;
mod calls;
mod check;
mod faults;
mod play;

use anyhow::Context;
use arbiter_engine::VariantId;
use clap::Parser;
use fake_discord::FakeDiscord;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "Plays many games through the real bot under injected faults and checks nothing is lost")]
struct Args {
    /// How long to keep starting games; games under way are played to their end.
    #[arg(long, default_value_t = 2.0)]
    minutes: f64,
    /// How many games at most.
    #[arg(long, default_value_t = 40)]
    games: u64,
    /// The seed of every random choice (actions, faults), so a failing run can be repeated.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 8)]
    at_once: usize,
}

/// The games whose every action is a `/move` in the game's thread.
const VARIANTS: [VariantId; 8] = [
    VariantId::Chess,
    VariantId::Circe,
    VariantId::Portal,
    VariantId::KnightsAreGod,
    VariantId::Domination,
    VariantId::UltimateBattle,
    VariantId::Blockade,
    VariantId::Assault,
];

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let base = std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let (server, _) = base.rsplit_once('/').context("a database URL ends with its database")?;
    let name = format!("arbiter_soak_{}", std::process::id());
    let admin = sqlx::PgPool::connect(&base)
        .await
        .context("PostgreSQL at TEST_DATABASE_URL")?;
    // The name is made here of digits and letters only.
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await?;
    let database = format!("{server}/{name}");
    let verdict = soak(&args, &database).await;
    // Best effort: a database left behind costs some disk, not the verdict. (`WITH (FORCE)`
    // needs PostgreSQL 13; before it, the plain form once the soak's connections have closed.)
    let force = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
    if sqlx::query(sqlx::AssertSqlSafe(force)).execute(&admin).await.is_err() {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let plain = format!("DROP DATABASE IF EXISTS {name}");
        if let Err(e) = sqlx::query(sqlx::AssertSqlSafe(plain)).execute(&admin).await {
            eprintln!("the soak's database {name} could not be dropped: {e}");
        }
    }
    let holds = verdict?;
    std::process::exit(if holds { 0 } else { 1 });
}

/// Runs the soak on `database`; whether every invariant held.
async fn soak(args: &Args, database: &str) -> anyhow::Result<bool> {
    let logs = std::env::temp_dir().join(format!("arbiter-soak-{}", std::process::id()));
    std::fs::create_dir_all(&logs)?;
    let binary = bots::binary()?;
    let fake = Arc::new(FakeDiscord::start().await);
    let calls = calls::Calls::default();
    let bots = bots::Bots::start(binary, fake.api_base(), database.to_string(), &logs)?;
    fake.wait_ready().await;
    let store: Arc<dyn arbiter::store::Store> = Arc::new(arbiter::store::PostgresStore::connect(database).await?);
    let reading = {
        let (fake, calls) = (fake.clone(), calls.clone());
        tokio::spawn(async move {
            loop {
                calls.read_new(&fake);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let table = play::Table {
        fake: fake.clone(),
        calls: calls.clone(),
        store: store.clone(),
    };
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(args.minutes * 60.0);
    let faults = faults::Faults::start(bots, fake.clone(), args.seed);
    let gate = Arc::new(tokio::sync::Semaphore::new(args.at_once));
    let mut games = tokio::task::JoinSet::new();
    for number in 0..args.games {
        if Instant::now() >= until {
            break;
        }
        let permit = gate.clone().acquire_owned().await?;
        let table = table.clone();
        let variant = VARIANTS[(number as usize) % VARIANTS.len()];
        let guild = if number % 2 == 0 {
            FakeDiscord::GUILD_ID
        } else {
            FakeDiscord::OTHER_GUILD_ID
        };
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(number);
        games.spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed);
            let played = table.play(number, variant, guild, &mut rng).await;
            drop(permit);
            played
        });
    }
    let mut played = Vec::new();
    let mut unstarted = 0;
    while let Some(result) = games.join_next().await {
        match result? {
            Some(game) => played.push(game),
            None => unstarted += 1,
        }
    }
    let (mut bots, injected) = faults.stop().await;
    // Whatever the bots still had to deliver goes out before they stop.
    tokio::time::sleep(Duration::from_secs(5)).await;
    bots.stop();
    calls.read_new(&fake);
    reading.abort();
    let mut found = check::check(&played, store.as_ref(), &calls, &injected.kills).await;
    // Requests Discord would have refused by its rules are the bot's mistakes.
    let refused = fake.refused_calls();
    let all = fake.calls();
    for call in &refused {
        // The calls to the same path before it show how it came to be refused.
        let before: Vec<String> = all
            .iter()
            .filter(|c| c.path == call.path && c.at < call.at)
            .map(|c| format!("{} by {} answered {}", c.method, c.auth, c.status))
            .collect();
        found.failures.push(format!(
            "Discord refused {} {} by {} ({}): {}; before it: {before:?}",
            call.method, call.path, call.auth, call.status, call.answer
        ));
    }
    found.refused = refused.len();
    fake.expect_refused(refused.len());
    // The bots' logs are kept for a failing run only.
    if found.holds() {
        let _ = std::fs::remove_dir_all(&logs);
    } else {
        println!("the bots' logs: {}", logs.display());
    }
    report(&played, unstarted, &injected, &found, &fake, &calls, started.elapsed());
    Ok(found.holds())
}

fn report(
    played: &[play::Played],
    unstarted: usize,
    injected: &faults::Injected,
    found: &check::Findings,
    fake: &FakeDiscord,
    calls: &calls::Calls,
    took: Duration,
) {
    for failure in &found.failures {
        println!("FAILED {failure}");
    }
    let mut by_variant: BTreeMap<&str, usize> = BTreeMap::new();
    for game in played {
        *by_variant.entry(game.variant.info().id).or_default() += 1;
    }
    let games: Vec<String> = by_variant.iter().map(|(v, n)| format!("{v} {n}")).collect();
    println!(
        "games: {} played in {:.1} min ({}), {unstarted} never started (a process killed while they began)",
        played.len(),
        took.as_secs_f64() / 60.0,
        games.join(", ")
    );
    let sent: Vec<&play::Sent> = played.iter().flat_map(|g| &g.sent).collect();
    let acknowledged = sent.iter().filter(|s| check::is_acknowledged(calls, s)).count();
    println!("actions: {} sent, {acknowledged} acknowledged", sent.len());
    println!(
        "faults: {} processes killed and restarted, {} 429 storms, {} 5xx bursts injected; {} more 429s by Discord's own limits",
        injected.kills.len(),
        injected.storms,
        injected.server_errors,
        fake.rate_limited()
    );
    let mut latencies: Vec<Duration> = sent.iter().filter_map(|s| s.latency).collect();
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .map_or(0, |d| d.as_millis())
    };
    println!(
        "interaction latency under faults: p50 {} ms, p99 {} ms",
        at(0.5),
        at(0.99)
    );
    println!(
        "lost {}, duplicated {}, unanswered {} ({} at kills), mismatched positions {}, result posts wrong {}, refused by Discord {}",
        found.lost,
        found.duplicated,
        found.unanswered,
        found.unanswered_at_kills,
        found.mismatched,
        found.result_posts,
        found.refused
    );
}
