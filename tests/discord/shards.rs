//! Several bot processes on one PostgreSQL database, each running some of the shards (as the
//! README describes): Discord sends each server's interactions to one shard, so each is answered
//! once, by the process that runs it; the clocks' deadlines, shared through the database, fire
//! once whichever process claims them. Two clients in one test stand for the two processes; each
//! has its own token, so the fake can tell whose requests are whose.

use crate::bot::{CHANNEL, HOST_ROLE, alice, button, content, deathmatch_start, next_id};
use crate::support;
use arbiter::arena::Arena;
use arbiter::discord::{Config, Shards};
use fake_discord::{Call, FakeDiscord, command_interaction, component_interaction, in_guild};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// Sends an interaction from `guild` and waits for its first response.
async fn interact(fake: &FakeDiscord, interaction: Value, guild: u64) -> Call {
    let interaction = in_guild(interaction, guild);
    let id = interaction["id"].as_str().unwrap().to_string();
    fake.send_interaction(interaction).await;
    fake.wait_for_call(&format!("the answer to {id}"), |c| {
        c.path.contains(&format!("/interactions/{id}/"))
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_shards_and_each_interaction_and_deadline_is_served_once() {
    let Some(db) = support::postgres().await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    let clock = Arc::new(arbiter::clock::ManualClock::new(1_700_000_000_000));
    let mut processes = Vec::new();
    for (shard, token) in [(0, "token-a"), (1, "token-b")] {
        let config = Config {
            token: token.into(),
            web: None,
            guild_id: Some(FakeDiscord::GUILD_ID),
            api_base: Some(fake.api_base()),
            host_role: Some(HOST_ROLE),
            shards: Shards::Range {
                first: shard,
                last: shard,
                total: 2,
            },
            metrics: None,
            attachments: Default::default(),
        };
        let arena = Arena::new(db.store.clone(), clock.clone());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(arbiter::discord::run(config, arena, async {
            let _ = stopped.await;
        }));
        processes.push((stop, task));
    }
    fake.wait_ready().await;
    assert_eq!(
        fake.shard_of(&json!({ "guild_id": FakeDiscord::GUILD_ID.to_string() })),
        0
    );
    assert_eq!(
        fake.shard_of(&json!({ "guild_id": FakeDiscord::OTHER_GUILD_ID.to_string() })),
        1
    );

    // Only the process of shard 0 registers the commands.
    fake.wait_for_call("the commands registered", |c| c.method == "PUT")
        .await;
    let registrations: Vec<String> = fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "PUT")
        .map(|c| c.auth)
        .collect();
    assert_eq!(registrations, ["Bot token-a"]);

    // Each server's commands are answered by the process of its shard, once.
    let alice = alice();
    for (guild, process) in [
        (FakeDiscord::GUILD_ID, "Bot token-a"),
        (FakeDiscord::OTHER_GUILD_ID, "Bot token-b"),
    ] {
        let games = command_interaction(next_id(), &alice, CHANNEL, "games", json!([]));
        let answer = interact(&fake, games, guild).await;
        assert_eq!(answer.auth, process, "guild {guild}");
    }

    // A Death Match in the second server, lost on time: both processes' schedulers watch the
    // same deadlines, and the forfeit is announced once.
    let start = deathmatch_start(0, Some(("10s", "30s")));
    let announced = interact(&fake, start, FakeDiscord::OTHER_GUILD_ID).await;
    assert_eq!(announced.auth, "Bot token-b");
    let first = button(&announced, "arb:first:", "");
    let message = fake.response_message_id(announced.path.split('/').nth(5).unwrap());
    let click = component_interaction(next_id(), &alice, CHANNEL, &first, 2, Vec::new(), message);
    interact(&fake, click, FakeDiscord::OTHER_GUILD_ID).await;
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    fake.wait_for_call("the match's first board", |c| {
        c.path == messages && content(c).contains("The match begins")
    })
    .await;
    clock.advance(10_000 + 30_000 + 1_000);
    fake.wait_for_call("the forfeit", |c| {
        c.path == messages && content(c).contains("ran out of time")
    })
    .await;
    // Both stopped, each has delivered all it queued: were the deadline claimed twice, the
    // second forfeit would be in by now.
    for (stop, task) in processes {
        let _ = stop.send(());
        let ended = tokio::time::timeout(Duration::from_secs(30), task).await;
        assert!(ended.expect("each process stops when asked").unwrap().is_ok());
    }
    let forfeits = fake
        .calls()
        .into_iter()
        .filter(|c| content(c).contains("ran out of time"))
        .count();
    assert_eq!(forfeits, 1, "the forfeit is announced once");
    assert!(fake.refused_calls().is_empty(), "{:?}", fake.refused_calls());
}
