//! What those who run the bot watch: `/metrics` moving as people play (a game, a game against
//! the computer, a Death Match with its warnings and a forfeit), `/healthz` and `/readyz`; and
//! the real binary's readiness following its PostgreSQL database down and back up.

use crate::bot::*;
use crate::support;
use arbiter_engine::VariantId;
use fake_discord::{Failure, FakeDiscord, Invoker};
use serde_json::json;
use std::time::{Duration, Instant};

/// The sum of a family's samples whose labels hold every one of `labels` (`key="value"`).
fn total(metrics: &str, name: &str, labels: &[&str]) -> f64 {
    metrics
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (family, rest) = series.split_once('{').unwrap_or((series, ""));
            (family == name && labels.iter().all(|label| rest.contains(label)))
                .then(|| value.parse::<f64>().ok())
                .flatten()
        })
        .sum()
}

fn has_family(metrics: &str, name: &str) -> bool {
    metrics.lines().any(|line| line.starts_with(name))
}

async fn get(url: &str) -> (u16, String) {
    match reqwest::get(url).await {
        Ok(answer) => (answer.status().as_u16(), answer.text().await.unwrap_or_default()),
        Err(error) => (0, error.to_string()),
    }
}

/// Asks `url` until its status is `status` (within `patience`); the last answer.
async fn until_status(url: &str, status: u16, patience: Duration) -> (u16, String) {
    let until = Instant::now() + patience;
    loop {
        let answer = get(url).await;
        if answer.0 == status || Instant::now() >= until {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn computer() -> Invoker {
    Invoker {
        user_id: FakeDiscord::BOT_USER_ID,
        name: "Arbiter".into(),
    }
}

/// Without `ARBITER_METRICS_ADDR` the operators' routes are served nowhere: the public pages'
/// address answers them as any path it does not know.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_metrics_address_the_pages_address_serves_no_operators_routes() {
    let bot = Bot::start_serving_pages().await;
    let base = bot.pages.as_ref().unwrap().base.clone();
    // The pages are served once the bot is connected.
    let (status, home) = until_status(&format!("{base}/"), 200, Duration::from_secs(10)).await;
    assert_eq!(status, 200, "{home}");
    for route in ["/metrics", "/healthz", "/readyz"] {
        let (status, said) = get(&format!("{base}{route}")).await;
        assert_eq!(status, 404, "{route}: {said}");
        assert!(
            !said.contains("arbiter_") && !said.contains("ready") && !said.contains("alive"),
            "{route}: {said}"
        );
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_metric_family_moves_as_games_and_a_death_match_are_played() {
    let bot = Bot::start_serving_metrics().await;
    let base = bot.metrics.as_ref().unwrap().base.clone();
    let (status, alive) = get(&format!("{base}/healthz")).await;
    assert_eq!((status, alive.as_str()), (200, "alive\n"));
    let (status, ready) = until_status(&format!("{base}/readyz"), 200, Duration::from_secs(10)).await;
    assert_eq!(status, 200, "{ready}");
    let (_, before) = get(&format!("{base}/metrics")).await;

    // A game of chess, two moves.
    let (_, thread) = bot.started(variant_index(VariantId::Chess)).await;
    for (who, action) in [(alice(), "e4"), (bob(), "e5")] {
        let played = bot.play(&who, thread, action).await;
        assert!(
            content(&played).contains(&format!("played {action}")),
            "{}",
            played.json
        );
    }
    // A game against the computer: it thinks, then answers.
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": variant_index(VariantId::Chess) }),
        json!({ "name": "opponent", "type": 6, "value": computer().user_id.to_string() }),
        json!({ "name": "colour", "type": 4, "value": 1 }),
    ];
    let mut challenge = challenge_interaction(&carol(), &computer(), options);
    challenge["data"]["resolved"]["users"][computer().user_id.to_string()]["bot"] = json!(true);
    let answer = content(&bot.interact(challenge).await);
    let start = answer.find("<#").expect("the game's thread") + 2;
    let against_computer: u64 = answer[start..start + answer[start..].find('>').unwrap()]
        .parse()
        .unwrap();
    wait_for_posts(&bot, against_computer, 1).await;
    bot.play(&carol(), against_computer, "d4").await;
    wait_for_nth(&bot, against_computer, 1, |call| content(call).contains("played")).await;
    // A Death Match whose warning meets a 429 first (tried again), then runs out of time.
    crate::deathmatch::start_match(&bot, 0, "10s", "30s").await;
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    bot.fake
        .fail("POST", &messages, Failure::RateLimited { retry_after: 0.05 }, 1);
    bot.clock.advance(10_000);
    bot.fake
        .wait_for_call("the reserve warning", |c| {
            c.path == messages && content(c).contains("normal time is over")
        })
        .await;
    bot.clock.advance(30_000);
    bot.fake
        .wait_for_call("the forfeit", |c| {
            c.path == messages && content(c).contains("ran out of time")
        })
        .await;

    // The gauges read from the database are refreshed every few seconds.
    let metrics_url = format!("{base}/metrics");
    let until = Instant::now() + Duration::from_secs(12);
    let after = loop {
        let (_, now) = get(&metrics_url).await;
        if has_family(&now, "arbiter_games_active{variant=\"chess\"}") || Instant::now() >= until {
            break now;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let moved = |name: &str, labels: &[&str]| total(&after, name, labels) > total(&before, name, labels);
    for (name, labels) in [
        (
            "arbiter_interactions_total",
            &["command=\"move\"", "outcome=\"answered\""][..],
        ),
        ("arbiter_interactions_total", &["command=\"component\""]),
        ("arbiter_interaction_answer_seconds_count", &["kind=\"command\""]),
        (
            "arbiter_discord_requests_total",
            &["route=\"POST /interactions/{id}/{token}/callback\"", "status=\"200\""],
        ),
        (
            "arbiter_discord_requests_total",
            &["route=\"POST /channels/{id}/messages\"", "status=\"429\""],
        ),
        ("arbiter_discord_rate_limited_total", &["scope=\"route\""]),
        ("arbiter_discord_retries_total", &[]),
        ("arbiter_announcements_total", &["fate=\"posted\""]),
        ("arbiter_announcement_lateness_seconds_count", &[]),
        ("arbiter_deadlines_fired_total", &[]),
        ("arbiter_deadline_lateness_seconds_count", &[]),
        ("arbiter_db_transaction_wait_seconds_count", &[]),
        ("arbiter_game_actions_total", &["variant=\"chess\""]),
        ("arbiter_ai_thinking_seconds_count", &["variant=\"chess\""]),
    ] {
        assert!(moved(name, labels), "{name} {labels:?} did not move:\n{after}");
    }
    // The gauge of games in progress is the whole process's, and this binary runs a bot a test:
    // what feeds it is this bot's store, which counts the two games of chess going on.
    let active = bot.arena.store().active_games().await.unwrap();
    assert!(active.contains(&(VariantId::Chess, 2)), "{active:?}");
    for gauge in [
        "arbiter_games_active",
        "arbiter_announcements_waiting",
        "arbiter_db_pool_connections",
    ] {
        assert!(has_family(&after, gauge), "{gauge} missing:\n{after}");
    }
    // Described, with units in the names, and nothing of a user's in a label.
    assert!(after.contains("# HELP arbiter_interaction_answer_seconds"), "{after}");
    assert!(
        after.contains("# TYPE arbiter_interaction_answer_seconds histogram"),
        "{after}"
    );
    // Only the labels are read: a value may hold any digits (a sum of 0.1001... seconds).
    let labels = |line: &str| {
        let opened = line.find('{').map_or(line.len(), |at| at + 1);
        let closed = line.rfind('}').unwrap_or(opened).max(opened);
        line[opened..closed].to_string()
    };
    for user in ["1001", "1002", "1003", "alice", "bob", "carol"] {
        assert!(
            !after
                .lines()
                .any(|line| line.starts_with("arbiter_") && labels(line).contains(user)),
            "{user} in a metric's labels:\n{after}"
        );
    }
    bot.stop().await;
}

/// A TCP relay on loopback between the bot and PostgreSQL: stopping it is, for the bot, the
/// database going away (its connections cut, new ones refused); starting it again, coming back.
struct Relay {
    port: u16,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Relay {
    async fn start(port: u16) -> Relay {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let mut links = tokio::task::JoinSet::new();
            while let Ok((mut client, _)) = listener.accept().await {
                links.spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect("127.0.0.1:5432").await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        Relay { port, task: Some(task) }
    }

    /// Cuts every connection and refuses new ones (the JoinSet's links end with its task).
    fn stop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_postgresql_down_and_back_up() {
    let Some(db) = support::postgres().await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    let mut relay = Relay::start(0).await;
    let address = db
        .address()
        .replace("127.0.0.1:5432", &format!("127.0.0.1:{}", relay.port));
    assert!(address.contains(&relay.port.to_string()), "{address}");
    let metrics_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut bot = support::arbiter_binary()
        .arg("bot")
        .env("DATABASE_URL", &address)
        .env("DISCORD_TOKEN", "test-token")
        .env("DISCORD_API_BASE", fake.api_base())
        .env("DISCORD_GUILD_ID", FakeDiscord::GUILD_ID.to_string())
        .env("ARBITER_METRICS_ADDR", format!("127.0.0.1:{metrics_port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the bot starts");
    let ready = format!("http://127.0.0.1:{metrics_port}/readyz");
    let (status, said) = until_status(&ready, 200, Duration::from_secs(60)).await;
    assert_eq!(status, 200, "{said}");

    relay.stop();
    let (status, said) = until_status(&ready, 503, Duration::from_secs(20)).await;
    assert_eq!(status, 503, "{said}");
    assert!(said.starts_with("not ready:\ndatabase: "), "{said}");
    assert!(!said.contains("gateway") && !said.contains("scheduler"), "{said}");
    let (status, _) = get(&format!("http://127.0.0.1:{metrics_port}/healthz")).await;
    assert_eq!(status, 200, "the process is alive all the same");

    let relay = Relay::start(relay.port).await;
    let (status, said) = until_status(&ready, 200, Duration::from_secs(30)).await;
    assert_eq!(status, 200, "{said}");

    // SIGTERM: the bot stops as it does for systemd.
    let _ = std::process::Command::new("kill").arg(bot.id().to_string()).status();
    let stopped = tokio::task::spawn_blocking(move || bot.wait()).await.unwrap().unwrap();
    assert!(stopped.success(), "the bot stops cleanly on SIGTERM");
    drop(relay);
}
