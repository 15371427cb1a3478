//! `arbiter-soak`: many games played at once through the real bot (two processes splitting the
//! shards on one PostgreSQL database) and a fake Discord — challenges, Death Matches with their
//! hosts, rematches, imports of exported records, a club night — while faults are injected
//! (`faults`): processes killed outright and restarted, 429 storms and 5xx bursts, gateway
//! trouble, moderators, a PostgreSQL crash-restart. At the end the
//! invariants are checked from the database and the calls Discord received, and the figures
//! printed; the last line is the verdict, and the exit code is 0 only when every invariant holds.
//!
//! `cargo run --release -p arbiter-soak -- --minutes M [--games N] [--seed K]`, on PostgreSQL at
//! `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`); the soak works in a
//! database of its own, created and dropped there.

mod begin;
mod bots;
mod calls;
mod check;
mod cluster;
mod faults;
mod hosting;
mod play;
mod privately;
mod records;
mod secrets;
mod table;
mod tournament;

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
    /// The games to play, by id (default: every hosted game, in turn).
    #[arg(long, value_delimiter = ',', value_parser = variant_of)]
    variants: Vec<VariantId>,
    /// The share of games played with a clock.
    #[arg(long, default_value_t = 0.25)]
    timed: f64,
    /// The share of timed games in which a player walks away and must lose on time.
    #[arg(long, default_value_t = 0.4)]
    walk_away: f64,
    /// Plays on a PostgreSQL cluster of the soak's own (made with initdb, on a free port, removed
    /// afterwards) instead of TEST_DATABASE_URL's server, and restarts it mid-run.
    #[arg(long)]
    own_postgres: bool,
    /// Injects no faults (to show a checker's verdict on its own).
    #[arg(long)]
    no_faults: bool,
    /// Runs no club night beside the games.
    #[arg(long)]
    no_club_night: bool,
    /// The bot binary (default: the one built alongside this one).
    #[arg(long)]
    bot: Option<std::path::PathBuf>,
    /// Defects the bot is to have, by name (a build with the `deliberately-broken` feature
    /// only): the run must then fail.
    #[arg(long)]
    broken: Option<String>,
}

/// Failures past this many are counted, not shown.
const MOST_FAILURES_SHOWN: usize = 60;

/// How many games with secrets a spectator exports at the end.
const MOST_EXPORTS: usize = 60;

fn variant_of(id: &str) -> Result<VariantId, String> {
    VariantId::ALL
        .iter()
        .copied()
        .find(|v| v.info().id == id)
        .ok_or_else(|| format!("no game is called {id}"))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let cluster = if args.own_postgres {
        Some(Arc::new(cluster::Cluster::start()?))
    } else {
        None
    };
    let base = match &cluster {
        Some(cluster) => cluster.url(),
        None => std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into()),
    };
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
    let verdict = soak(&args, &database, cluster.clone()).await;
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
    admin.close().await;
    // `exit` runs no destructors: the cluster goes first.
    drop(cluster);
    let holds = verdict?;
    std::process::exit(if holds { 0 } else { 1 });
}

/// Runs the soak on `database`; whether every invariant held.
async fn soak(args: &Args, database: &str, cluster: Option<Arc<cluster::Cluster>>) -> anyhow::Result<bool> {
    let logs = std::env::temp_dir().join(format!("arbiter-soak-{}", std::process::id()));
    std::fs::create_dir_all(&logs)?;
    let binary = match &args.bot {
        Some(bot) => bot.clone(),
        None => bots::binary()?,
    };
    let fake = Arc::new(FakeDiscord::start().await);
    // Board images are checked as they arrive; a long run keeps only their names.
    fake.forget_images();
    let calls = calls::Calls::default();
    let bots = bots::Bots::start(
        binary,
        fake.api_base(),
        database.to_string(),
        args.broken.clone(),
        &logs,
    )?;
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
    let table = table::Table {
        fake: fake.clone(),
        calls: calls.clone(),
        store: store.clone(),
        closed_dms: Default::default(),
        private: Default::default(),
        threads: Default::default(),
        troubles: Default::default(),
    };
    let started = Instant::now();
    let timeline = check::Timeline::now();
    let until = started + Duration::from_secs_f64(args.minutes * 60.0);
    let faults = faults::Faults::start(
        bots,
        fake.clone(),
        table.threads.clone(),
        cluster,
        args.seed,
        !args.no_faults,
    );
    // A club night runs beside the games, from the start (its rounds follow one another).
    let night = {
        let (table, seed, runs) = (table.clone(), args.seed, !args.no_club_night);
        tokio::spawn(async move {
            match runs {
                true => table.club_night(FakeDiscord::GUILD_ID, seed).await,
                false => tournament::Night::default(),
            }
        })
    };
    let (mut played, unstarted) = play_games(args, &table, until).await?;
    let night = night.await?;
    let tournament_games = (night.games.len(), night.adjudicated);
    played.extend(night.games);
    let (mut bots, injected) = faults.stop().await;
    let exports = export_secret_games(&table, &played).await;
    // Whatever the bots still had to deliver goes out before they stop.
    tokio::time::sleep(Duration::from_secs(5)).await;
    bots.stop();
    calls.read_new(&fake);
    reading.abort();
    let all = fake.take_calls();
    let private = table.private.lock().map(|p| p.clone()).unwrap_or_default();
    let evidence = check::Evidence {
        calls: &calls,
        all_calls: &all,
        private: &private,
        kills: &injected.kills,
        timeline,
        exports: &exports,
    };
    let mut found = check::check(&played, store.as_ref(), &evidence).await;
    found.lost += night.failures.len();
    found.failures.extend(night.failures);
    let troubles = table::lock(&table.troubles).clone();
    found.mismatched += troubles.len();
    found.failures.extend(troubles);
    for (id, story) in &found.stories {
        let file = logs.join(format!("game-{id}.txt"));
        if std::fs::write(&file, story).is_ok() {
            found.failures.push(format!("game #{id}'s story: {}", file.display()));
        }
    }
    note_refused_calls(&fake, &all, &mut found);
    // The bots' logs are kept for a failing run only.
    if found.holds() {
        let _ = std::fs::remove_dir_all(&logs);
    } else {
        println!("the bots' logs: {}", logs.display());
    }
    let run = Run {
        played: &played,
        unstarted,
        injected: &injected,
        exported: exports.len(),
        took: started.elapsed(),
        timeline,
        tournament_games,
    };
    report(&run, &found, &fake, &calls);
    Ok(found.holds())
}

/// Plays `args.games` games (or as many as start before `until`), `args.at_once` at a time, each
/// with a seed of its own; the games played, and how many never started.
async fn play_games(args: &Args, table: &table::Table, until: Instant) -> anyhow::Result<(Vec<table::Played>, usize)> {
    let gate = Arc::new(tokio::sync::Semaphore::new(args.at_once));
    let mut games = tokio::task::JoinSet::new();
    for number in 0..args.games {
        if Instant::now() >= until {
            break;
        }
        let permit = gate.clone().acquire_owned().await?;
        let table = table.clone();
        let variants = if args.variants.is_empty() {
            VariantId::ALL
        } else {
            &args.variants[..]
        };
        let variant = variants[(number as usize) % variants.len()];
        let guild = if number % 2 == 0 {
            FakeDiscord::GUILD_ID
        } else {
            FakeDiscord::OTHER_GUILD_ID
        };
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(number);
        let shares = table::Shares {
            timed: args.timed.clamp(0.0, 1.0),
            walk_away: args.walk_away.clamp(0.0, 1.0),
        };
        games.spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed);
            let played = table.play(number, variant, guild, shares, &mut rng).await;
            drop(permit);
            played
        });
    }
    let mut played = Vec::new();
    let mut unstarted = 0;
    while let Some(result) = games.join_next().await {
        match result? {
            series if series.is_empty() => unstarted += 1,
            series => played.extend(series),
        }
    }
    Ok((played, unstarted))
}

/// Spectators export the finished games that had secrets: each record, by game.
async fn export_secret_games(table: &table::Table, played: &[table::Played]) -> std::collections::HashMap<i64, String> {
    let mut exports = std::collections::HashMap::new();
    let secretive = [
        VariantId::Beirut,
        VariantId::Ctf,
        VariantId::Rejection,
        VariantId::PickTheTeam2,
        VariantId::Patch,
        VariantId::EasyPatch,
    ];
    for game in played
        .iter()
        .filter(|g| secretive.contains(&g.variant))
        .take(MOST_EXPORTS)
    {
        if let Some(export) = table.export(game).await {
            exports.insert(game.id.get(), export);
        }
    }
    exports
}

/// Requests Discord would have refused by its rules are the bot's mistakes: each is a failure,
/// with the calls to the same path before it, which show how it came to be refused.
fn note_refused_calls(fake: &FakeDiscord, all: &[fake_discord::Call], found: &mut check::Findings) {
    let refused = fake.refused_calls();
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
}

/// What a run did, for its figures.
struct Run<'a> {
    played: &'a [table::Played],
    /// Games whose challenge or acceptance went unanswered (a process killed then).
    unstarted: usize,
    injected: &'a faults::Injected,
    /// Games a spectator exported at the end.
    exported: usize,
    took: Duration,
    timeline: check::Timeline,
    /// Games of the club night, and how many of them its host adjudicated.
    tournament_games: (usize, usize),
}

/// Prints the failures, the figures, and last the verdict line.
fn report(run: &Run<'_>, found: &check::Findings, fake: &FakeDiscord, calls: &calls::Calls) {
    let Run {
        played,
        unstarted,
        injected,
        exported,
        took,
        timeline,
        tournament_games,
    } = *run;
    for failure in found.failures.iter().take(MOST_FAILURES_SHOWN) {
        println!("FAILED {failure}");
    }
    if found.failures.len() > MOST_FAILURES_SHOWN {
        println!("… and {} more failures", found.failures.len() - MOST_FAILURES_SHOWN);
    }
    if !found.holds() {
        // When each fault came, to read the failures (and the bots' logs) beside.
        let faults: Vec<String> = injected
            .log
            .iter()
            .map(|(at, kind)| format!("{} {kind:?}", check::clock_time(timeline.ms(*at))))
            .collect();
        println!("faults at: {}", faults.join(", "));
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
    let matches = played.iter().filter(|g| g.host.is_some()).count();
    let hosted = |what: &str| {
        let noted = format!("{} {what}", table::HOSTED);
        let sent = played.iter().flat_map(|g| &g.sent);
        sent.filter(|s| s.text == noted && check::is_acknowledged_command(calls, s))
            .count()
    };
    println!(
        "shows: {matches} Death Matches (host: {} pauses, {} reserves added, {} adjudications), {} rematches, {} games imported from records exported part-way, a club night of {} games ({} adjudicated)",
        hosted("pause"),
        hosted("addtime"),
        hosted("adjudicate"),
        played.iter().filter(|g| g.rematch_of.is_some()).count(),
        played.iter().filter(|g| g.imported_from.is_some()).count(),
        tournament_games.0,
        tournament_games.1,
    );
    let timed = played.iter().filter(|g| g.timed).count();
    let walked = played.iter().filter(|g| g.walked_away.is_some()).count();
    println!("timed games: {timed} ({walked} with a player who walked away and lost on time)");
    let sent: Vec<&calls::Sent> = played.iter().flat_map(|g| &g.sent).collect();
    let acknowledged = sent.iter().filter(|s| check::is_acknowledged(calls, s)).count();
    println!("actions: {} sent, {acknowledged} acknowledged", sent.len());
    println!("exports read by a spectator: {exported}");
    println!(
        "faults: {}; {} more 429s by Discord's own limits",
        injected.describe(),
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
        "mismatched positions {}, ratings wrong {}, refused by Discord {}",
        found.mismatched, found.ratings_wrong, found.refused
    );
    println!(
        "lost {}, duplicated {}, leaked {}, unanswered {} ({} at kills), deadlines missed {}",
        found.lost, found.duplicated, found.leaked, found.unanswered, found.unanswered_at_kills, found.deadlines_missed
    );
}
