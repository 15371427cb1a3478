//! Starting the bot as its users do, and failing loudly when it cannot work: a refused token,
//! commands Discord refuses, Discord out of reach; stopping promptly on SIGTERM in every state;
//! plain-text output when it is not a terminal; old server commands removed on going global.

use crate::support;
use arbiter::arena::Arena;
use arbiter::discord::{Config, Shards};
use fake_discord::{Failure, FakeDiscord};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn config(fake: &FakeDiscord, guild_id: Option<u64>) -> Config {
    Config {
        token: "test-token".into(),
        web: None,
        guild_id,
        api_base: Some(fake.api_base()),
        host_role: None,
        shards: Shards::Automatic,
        metrics: None,
        attachments: Default::default(),
    }
}

async fn fresh_arena() -> (Arena, support::TestDb) {
    let db = support::sqlite().await;
    let arena = Arena::new(db.store.clone(), Arc::new(arbiter::clock::SystemClock));
    (arena, db)
}

/// Runs the bot, never asked to stop, until it ends by itself; fails after 30 s.
async fn run_until_it_ends(config: Config, arena: Arena) -> anyhow::Result<()> {
    let ran = tokio::time::timeout(
        Duration::from_secs(30),
        arbiter::discord::run(config, arena, std::future::pending()),
    )
    .await;
    ran.expect("the bot ends by itself instead of waiting forever")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_ends_the_bot_with_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.fail("GET", "/users/@me", Failure::Unauthorized, usize::MAX);
    let (arena, _db) = fresh_arena().await;
    let error = run_until_it_ends(config(&fake, None), arena)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("refused the bot's token") && error.contains("DISCORD_TOKEN"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_discord_refuses_end_the_bot_and_passing_trouble_is_retried() {
    // The bot is not on the test server: Discord answers Missing Access, for good.
    let fake = FakeDiscord::start().await;
    fake.fail("PUT", "/guilds/", Failure::MissingAccess, usize::MAX);
    let (arena, _db) = fresh_arena().await;
    let error = run_until_it_ends(config(&fake, Some(FakeDiscord::GUILD_ID)), arena)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("DISCORD_GUILD_ID") && error.contains("Invite the bot"),
        "{error}"
    );

    // Discord's own errors twice, then it works: the bot comes up.
    let fake = FakeDiscord::start().await;
    fake.fail("PUT", "/guilds/", Failure::ServerError, 2);
    let (arena, _db) = fresh_arena().await;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let bot = tokio::spawn(arbiter::discord::run(
        config(&fake, Some(FakeDiscord::GUILD_ID)),
        arena,
        async {
            let _ = stopped.await;
        },
    ));
    fake.wait_ready().await;
    let puts = fake.calls().into_iter().filter(|c| c.method == "PUT").count();
    assert_eq!(puts, 3, "two failures, then the registration that worked");
    assert!(fake.server_commands(FakeDiscord::GUILD_ID).as_array().unwrap().len() > 10);
    let _ = stop.send(());
    let ended = tokio::time::timeout(Duration::from_secs(10), bot).await;
    assert!(ended.expect("stops when asked").unwrap().is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn going_global_removes_the_commands_a_server_run_left() {
    let fake = FakeDiscord::start().await;
    let (arena, _db) = fresh_arena().await;
    for guild_id in [Some(FakeDiscord::GUILD_ID), None] {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let bot = tokio::spawn(arbiter::discord::run(config(&fake, guild_id), arena.clone(), async {
            let _ = stopped.await;
        }));
        fake.wait_ready().await;
        if guild_id.is_some() {
            assert!(
                !fake
                    .server_commands(FakeDiscord::GUILD_ID)
                    .as_array()
                    .unwrap()
                    .is_empty()
            );
        } else {
            fake.wait_for_call("the old server commands removed", |c| {
                c.method == "PUT" && c.path.contains("/guilds/") && c.json == serde_json::json!([])
            })
            .await;
            assert_eq!(fake.server_commands(FakeDiscord::GUILD_ID), serde_json::json!([]));
            let global = fake.wait_for_call("the global commands", |c| {
                c.method == "PUT"
                    && c.path
                        .ends_with(&format!("/applications/{}/commands", FakeDiscord::APPLICATION_ID))
            });
            assert!(global.await.json.as_array().unwrap().len() > 10);
        }
        let _ = stop.send(());
        let ended = tokio::time::timeout(Duration::from_secs(10), bot).await;
        assert!(ended.expect("stops when asked").unwrap().is_ok());
    }
}

/// `arbiter bot` as a user starts it, its standard error going to `log` (so not a terminal).
fn start_binary(api_base: &str, data_dir: &std::path::Path, log: &std::path::Path) -> Child {
    support::arbiter_binary()
        .args(["bot", "--data-dir"])
        .arg(data_dir)
        .env("DISCORD_TOKEN", "abc")
        .env("DISCORD_API_BASE", api_base)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("a log file"))
        .spawn()
        .expect("the binary starts")
}

/// Waits (at most 30 s, polling the file) until the log says `words`.
fn wait_for_log(log: &std::path::Path, words: &str) {
    let started = Instant::now();
    loop {
        let output = std::fs::read_to_string(log).unwrap_or_default();
        if output.contains(words) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the log never said `{words}`:\n{output}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends SIGTERM and waits (at most 30 s) for the process to end: its exit status and log.
fn terminate(mut child: Child, log: &std::path::Path) -> (std::process::ExitStatus, String) {
    // The shell's own `kill`: there on every machine, whatever packages are installed.
    let status = Command::new("sh")
        .args(["-c", &format!("kill -TERM {}", child.id())])
        .status()
        .expect("sh runs");
    assert!(status.success());
    let asked = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().expect("the process can be waited on") {
            break exit;
        }
        if asked.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let output = std::fs::read_to_string(log).unwrap_or_default();
            panic!("still running 30 s after SIGTERM; its output:\n{output}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (exit, std::fs::read_to_string(log).unwrap_or_default())
}

/// A data folder of its own, removed however the test ends.
fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("arbiter-startup-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn out_of_reach_it_says_so_in_plain_text_and_stops_on_sigterm() {
    // Nothing listens on port 9 of loopback: Discord cannot be reached.
    let dir = scratch_dir("unreachable");
    let log = dir.path().join("bot.log");
    let child = start_binary("http://127.0.0.1:9", dir.path(), &log);
    wait_for_log(&log, "trying again in");
    let (exit, output) = terminate(child, &log);
    assert!(exit.success(), "a requested stop is not a failure: {exit:?}\n{output}");
    assert!(
        output.contains("opening the database: the embedded SQLite file"),
        "{output}"
    );
    assert!(output.contains("connecting to Discord"), "{output}");
    assert!(
        output.contains("cannot reach Discord") && output.contains("trying again in"),
        "{output}"
    );
    assert!(!output.contains('\u{1b}'), "no colour codes in a file: {output:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_it_reports_each_step_and_stops_on_sigterm() {
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("running");
    let log = dir.path().join("bot.log");
    let child = start_binary(&fake.api_base(), dir.path(), &log);
    fake.wait_ready().await;
    let ready = log.clone();
    tokio::task::spawn_blocking(move || wait_for_log(&ready, "ready for players"))
        .await
        .unwrap();
    let (exit, output) = tokio::task::spawn_blocking(move || terminate(child, &log))
        .await
        .unwrap();
    assert!(exit.success(), "{exit:?}\n{output}");
    for step in [
        "database ready",
        "signed in to Discord as Arbiter",
        "commands registered globally",
        "ready for players",
        "asked to stop",
    ] {
        assert!(output.contains(step), "`{step}` missing from:\n{output}");
    }
}

#[test]
fn a_refused_token_exits_non_zero_with_the_reason() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let fake = runtime.block_on(FakeDiscord::start());
    fake.fail("GET", "/users/@me", Failure::Unauthorized, usize::MAX);
    let dir = scratch_dir("badtoken");
    let log = dir.path().join("bot.log");
    let mut child = start_binary(&fake.api_base(), dir.path(), &log);
    let started = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the bot ends by itself");
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = std::fs::read_to_string(&log).unwrap();
    assert!(!exit.success(), "{output}");
    assert!(output.contains("arbiter: Discord refused the bot's token"), "{output}");
    drop(fake);
}
