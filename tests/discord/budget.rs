//! The bot's request budget, proven with two real `arbiter bot` processes splitting two shards of
//! one bot (one token, one database) against one fake Discord, which counts every request the
//! token makes in each second, across both. Many Death Matches' clock warnings fall due at the
//! same moment, far more than either process may send in a second; each process paces itself to
//! its share (`pace::Limit::global_share`), so the two together stay within Discord's 50 a second.
//! A process that paces itself to the whole budget instead (the deliberately broken build's
//! `ignores-budget-share`) takes the two past it.

use crate::support;
use arbiter::arena::{Arena, Caller, MatchRequest};
use arbiter::clock::{SystemClock, TimeControl};
use arbiter::ids::{Place, UserId};
use arbiter_engine::{Seat, VariantId};
use fake_discord::FakeDiscord;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The bot's one token, shared by both processes as a real deployment's are.
const TOKEN: &str = "budget-token";
/// Death Matches whose clocks warn at the same moments: about 80 warnings for each process at
/// once, when a process may send 20 a second.
const MATCHES: usize = 160;
/// The first match's channel; match `i` is played in `FIRST_CHANNEL + i`, so Discord's limit of
/// 5 messages per channel never binds: only the global budget does.
const FIRST_CHANNEL: u64 = 80_000;
/// From the start of the set-up to the moment every match's reserve starts (its normal time's
/// last quarter is warned of a quarter of the normal time before): room to make the matches and
/// start both processes first.
const LEAD: Duration = Duration::from_secs(12);
/// The most requests Discord takes from one bot in a second.
const DISCORDS_LIMIT: usize = 50;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
}

/// The bot processes of one test, killed when it ends, however it ends.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `binary` as `arbiter bot` running shard `shard` of two, on `database`, against `fake`, with
/// the deliberate defects `broken` names (a build with them). None of the developer's settings
/// reach it: the same environment the tests give the binary they built.
fn bot_process(binary: &Path, shard: u32, database: &str, fake: &FakeDiscord, broken: Option<&str>) -> Child {
    let mut command = Command::new(binary);
    for (key, value) in support::arbiter_binary().get_envs() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    command.env_remove("ARBITER_BROKEN");
    if let Some(broken) = broken {
        command.env("ARBITER_BROKEN", broken);
    }
    command
        .arg("bot")
        .env("DATABASE_URL", database)
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_API_BASE", fake.api_base())
        .env("DISCORD_GUILD_ID", FakeDiscord::GUILD_ID.to_string())
        .env("DISCORD_SHARDS", "2")
        .env("DISCORD_SHARD_RANGE", shard.to_string())
        .env("ARBITER_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the bot binary starts")
}

/// Makes the matches on the bot's database: each waits for its first move, White's reserve
/// starting at `reserve_starts` (Unix ms); the players' names are known, so nothing is looked up.
async fn make_matches(arena: &Arena, fake: &FakeDiscord, reserve_starts: i64) {
    let host = UserId::new("discord:1");
    for i in 0..MATCHES {
        let players = [3_000 + 2 * i as u64, 3_001 + 2 * i as u64].map(|id| UserId::new(format!("discord:{id}")));
        for (n, player) in players.iter().enumerate() {
            arena
                .players()
                .remember_name(player, &format!("Player {}", 2 * i + n))
                .await
                .unwrap();
        }
        let channel = FIRST_CHANNEL + i as u64;
        fake.add_channel(channel, FakeDiscord::GUILD_ID);
        let request = MatchRequest {
            variant: VariantId::Blockade,
            players: players.clone(),
            advantage: players[0].clone(),
            control: TimeControl {
                normal_ms: reserve_starts - now_ms(),
                reserve_ms: 60_000,
            },
            location: Place::new(format!("discord:{channel}")),
            computer: None,
        };
        let started = arena
            .matches()
            .start(&Caller::host(&host, None), request)
            .await
            .unwrap();
        let id = started.game.expect("a match");
        let chosen = arena
            .matches()
            .choose_side(id, &Caller::player(&players[0], None), Seat::First)
            .await
            .unwrap();
        // The matches began before the bot started: their start is taken as announced.
        arena
            .watching()
            .mark_shown(id, chosen.version.expect("a version"))
            .await
            .unwrap();
    }
}

/// Runs the two processes (`binaries`, with the defects each is asked to have) through the
/// warnings' bursts: the most requests the bot's token made in one second.
async fn busiest_second_of(binaries: [(PathBuf, Option<&str>); 2]) -> usize {
    let db = support::sqlite().await;
    let fake = FakeDiscord::start().await;
    let arena = Arena::new(db.store.clone(), Arc::new(SystemClock));
    let reserve_starts = now_ms() + i64::try_from(LEAD.as_millis()).unwrap_or(i64::MAX);
    make_matches(&arena, &fake, reserve_starts).await;
    let processes = Processes(
        binaries
            .iter()
            .zip(0..)
            .map(|((binary, broken), shard)| bot_process(binary, shard, &db.address(), &fake, *broken))
            .collect(),
    );
    fake.wait_ready().await;
    // The first warnings fall due a quarter of the normal time before the reserves start (the
    // first match's normal time is about the whole lead).
    let first_warnings = reserve_starts - i64::try_from(LEAD.as_millis() / 4).unwrap_or(0);
    assert!(
        now_ms() < first_warnings,
        "the set-up took longer than its lead: the warnings fell due before both processes ran"
    );
    // Every match's "reserve is running" is out (about four seconds after the reserves start
    // for the slower process), or the bound runs out.
    let give_up = tokio::time::Instant::now() + LEAD + Duration::from_secs(30);
    loop {
        let posted = fake
            .calls()
            .iter()
            .filter(|call| {
                call.status == 200
                    && call.json["content"]
                        .as_str()
                        .unwrap_or("")
                        .contains("your reserve is running")
            })
            .count();
        if posted >= MATCHES {
            break;
        }
        assert!(
            tokio::time::Instant::now() < give_up,
            "only {posted} of {MATCHES} reserve warnings were posted"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    drop(processes);
    let busiest = fake.busiest_second(TOKEN);
    eprintln!(
        "busiest second: {busiest} requests; {} answered 429 by the global limit",
        fake.rate_limited_globally()
    );
    busiest
}

/// The bot built with the tests: the sound one.
fn sound_bot() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arbiter"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_of_one_bot_stay_within_discords_50_requests_a_second_together() {
    let _alone = crate::bot::ALONE.lock().await;
    let busiest = busiest_second_of([(sound_bot(), None), (sound_bot(), None)]).await;
    assert!(
        busiest <= DISCORDS_LIMIT,
        "{busiest} requests in one second from the two processes together"
    );
    // More than one process's share (20 a second, a burst at most beside it) went out in one
    // second: both were sending at once, so the bound above held with both at full pace.
    assert!(
        busiest > 25,
        "only {busiest} requests in the busiest second: the load never kept both processes busy at once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_ignoring_its_share_takes_the_bot_past_discords_50() {
    let Ok(broken) = std::env::var("ARBITER_BROKEN_BOT") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI builds the deliberately broken bot and names it in ARBITER_BROKEN_BOT"
        );
        eprintln!(
            "skipped: ARBITER_BROKEN_BOT is not set (cargo build --features deliberately-broken --bin arbiter, \
             then copy target/debug/arbiter aside and name it there)"
        );
        return;
    };
    let _alone = crate::bot::ALONE.lock().await;
    let busiest = busiest_second_of([
        (PathBuf::from(broken), Some("ignores-budget-share")),
        (sound_bot(), None),
    ])
    .await;
    assert!(
        busiest > DISCORDS_LIMIT,
        "one process paced to the whole budget beside one paced to its share made only {busiest} requests in \
         the busiest second: the count would not catch a process ignoring its share"
    );
}
