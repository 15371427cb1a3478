//! The log of a bot playing secret games, captured at debug level as `arbiter bot` writes it
//! with `ARBITER_LOG=debug`: it holds no interaction token, no bot token and no secret. A binary
//! of its own, since the log it reads is the whole process's.

#[path = "discord/bot.rs"]
mod bot;
#[path = "support/mod.rs"]
mod support;

use arbiter_engine::VariantId;
use bot::{Bot, alice, bob, button, content, custom_ids, next_id, variant_index, wait_for_nth};
use fake_discord::{FakeDiscord, command_interaction, dm_component_interaction};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, OnceLock};

/// Everything the bot logs in this binary, at debug level, as `arbiter bot` logs it with
/// `ARBITER_LOG=debug` and `ARBITER_LOG_FORMAT=json`.
fn captured_log() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        use tracing_subscriber::layer::SubscriberExt;
        let log = Arc::new(Mutex::new(Vec::new()));
        let writer = Captured(log.clone());
        let subscriber = tracing_subscriber::registry().with(arbiter::logging::layer(
            "debug",
            move || writer.clone(),
            arbiter::logging::Format::Json,
        ));
        tracing::subscriber::set_global_default(subscriber).expect("the test binary's one log");
        log
    })
}

#[derive(Clone)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debug_log_of_secret_games_holds_no_token_and_no_secret() {
    let log = captured_log();
    let bot = Bot::start().await;
    let mut tokens = Vec::new();
    let mut interact = |interaction: Value| {
        tokens.push(interaction["token"].as_str().unwrap().to_string());
        interaction
    };
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let bob_dm = FakeDiscord::dm_channel_id(1_002);
    // Beirut and Capture the Flag: each player's secret choice from their DM menu.
    for (variant, choices) in [
        (VariantId::Beirut, ["bomb:d2", "bomb:e7"]),
        (VariantId::Ctf, ["base:e3", "base:d6"]),
    ] {
        let (_, _) = bot.started(variant_index(variant)).await;
        for ((who, dm), choice) in [(alice(), alice_dm), (bob(), bob_dm)].into_iter().zip(choices) {
            let prompt = wait_for_nth(&bot, dm, 1, |c| {
                custom_ids(&c.json).iter().any(|id| id.starts_with("arb:menu:")) && c.json.to_string().contains(choice)
            })
            .await;
            let menu = custom_ids(&prompt.json)
                .into_iter()
                .find(|id| id.starts_with("arb:menu:"))
                .unwrap();
            let chosen = bot
                .interact(interact(dm_component_interaction(
                    next_id(),
                    &who,
                    dm,
                    &menu,
                    3,
                    vec![choice.into()],
                    bot.message_of(&prompt),
                )))
                .await;
            assert_eq!(chosen.json["type"], 7, "{choice}: {}", chosen.json);
        }
    }
    // Rejection: bob rejects alice's Nh3.
    let (_, thread) = bot.started(variant_index(VariantId::Rejection)).await;
    let proposal = command_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "Nh3" }]),
    );
    bot.interact(interact(proposal)).await;
    let offer = wait_for_nth(&bot, bob_dm, 1, |c| content(c).contains("proposes Nh3")).await;
    let reject = button(&offer, "arb:answer:", ":reject");
    let rejected = bot
        .interact(interact(dm_component_interaction(
            next_id(),
            &bob(),
            bob_dm,
            &reject,
            2,
            Vec::new(),
            bot.shown(bob_dm, &reject),
        )))
        .await;
    assert_eq!(rejected.json["type"], 7, "{}", rejected.json);
    bot.stop().await;

    let log = String::from_utf8(log.lock().unwrap().clone()).unwrap();
    assert!(log.contains("signed in to Discord"), "the log was written: {log}");
    // JSON lines (ARBITER_LOG_FORMAT=json): each an object with its level, its place in the
    // code and its message; what a line is about (a game) is a field of its own.
    let lines: Vec<serde_json::Map<String, Value>> = log
        .lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(Value::Object(fields)) => fields,
            _ => panic!("a log line that is not a JSON object: {line}"),
        })
        .collect();
    assert!(
        lines.iter().all(|line| ["timestamp", "level", "target", "message"]
            .iter()
            .all(|key| line.contains_key(*key))),
        "{log}"
    );
    for field in ["game", "user", "server"] {
        assert!(
            lines.iter().any(|line| line.get(field).is_some_and(Value::is_string)),
            "no line names its {field} as a field: {log}"
        );
    }
    for token in &tokens {
        assert!(
            !log.contains(token.as_str()),
            "interaction token {token} in the log:\n{log}"
        );
    }
    for secret in ["bomb:", "base:", "Nh3", "test-token"] {
        assert!(!log.contains(secret), "{secret} in the log:\n{log}");
    }
}
