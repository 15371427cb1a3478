//! The bot when what it stands on is slow or loses an answer: a slow database (commands deferred,
//! still answered right), a save committed as the database went away (told as played), and a
//! thread whose creation is slow or whose answer is lost (the game still gets its thread).

use crate::bot::*;
use arbiter::ids::GameId;
use arbiter::model::{GameRow, NewEntry};
use arbiter::ratings::Rating;
use arbiter::store::layer::{Layer, Layered};
use arbiter::store::{Store, StoreError};
use fake_discord::{FakeDiscord, command_interaction, component_interaction, dm_component_interaction};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A store whose saves wait while `is_slow` is set (the test clears it once it has seen the bot
/// defer), so they take longer than Discord's patience whatever the machine's speed, and the bot
/// must defer and then answer through the deferred placeholder; and, while `loses_answer` is
/// set, whose next save is committed but answered with a database error, as when PostgreSQL
/// restarts between the commit and its answer.
struct SlowStore {
    inner: Arc<dyn Store>,
    is_slow: Arc<AtomicBool>,
    loses_answer: Arc<AtomicBool>,
}

impl SlowStore {
    fn new(inner: Arc<dyn Store>, is_slow: Arc<AtomicBool>) -> SlowStore {
        SlowStore {
            inner,
            is_slow,
            loses_answer: Arc::default(),
        }
    }
}

#[async_trait::async_trait]
impl Layer for SlowStore {
    fn inner(&self) -> &dyn Store {
        self.inner.as_ref()
    }

    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        while self.is_slow.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        self.inner.update_game(game, entries, ratings).await?;
        if self.loses_answer.swap(false, Ordering::SeqCst) {
            return Err(StoreError::Database(sqlx::Error::PoolClosed));
        }
        Ok(())
    }
}

/// With a slow database the bot defers within Discord's window, then answers through the
/// placeholder: a move's post replaces it and the player to act still gets a ping; a private
/// answer (a secret choice typed in the wrong place) never shows in the public placeholder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_database_defers_and_still_answers_right() {
    let is_slow = Arc::new(AtomicBool::new(false));
    let slow = is_slow.clone();
    let bot = Bot::start_with(move |inner| Arc::new(Layered(SlowStore::new(inner, slow)))).await;
    let (game, thread) = bot.started(3).await;
    is_slow.store(true, Ordering::SeqCst);

    // alice types her secret choice in the parent channel, naming the game: the answer is private.
    let id = next_id();
    let options = json!([
        { "name": "action", "type": 3, "value": "bomb:d2" },
        { "name": "game", "type": 4, "value": game },
    ]);
    let deferred = bot
        .interact(command_interaction(id, &alice(), CHANNEL, "move", options))
        .await;
    assert_eq!(
        deferred.json["type"], 5,
        "deferred within the window: {}",
        deferred.json
    );
    is_slow.store(false, Ordering::SeqCst);
    let original = format!(
        "/api/v10/webhooks/{}/token{id}/messages/@original",
        FakeDiscord::APPLICATION_ID
    );
    let settled = bot
        .fake
        .wait_for_call("the placeholder settled", |c| c.method == "PATCH" && c.path == original)
        .await;
    assert!(
        !settled.json.to_string().contains("bomb"),
        "the placeholder stays neutral: {}",
        settled.json
    );
    let private = bot
        .fake
        .wait_for_call("the private answer", |c| {
            c.method == "POST" && c.path == format!("/api/v10/webhooks/{}/token{id}", FakeDiscord::APPLICATION_ID)
        })
        .await;
    assert!(
        private.json["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0,
        "{}",
        private.json
    );
    assert!(private.json.to_string().contains("bomb:d2"));
    bot.fake
        .wait_for_call("the placeholder removed", |c| {
            c.method == "DELETE" && c.path == original
        })
        .await;

    // bob's choice, then alice's first move in the thread: the post replaces the placeholder and
    // bob is pinged by a message of its own (an edit notifies nobody).
    let menu = custom_ids(&posts_in(&bot.fake, FakeDiscord::dm_channel_id(1_002))[0].json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .unwrap();
    let dm = FakeDiscord::dm_channel_id(1_002);
    bot.interact(dm_component_interaction(
        next_id(),
        &bob(),
        dm,
        &menu,
        3,
        vec!["bomb:e7".into()],
        bot.shown(dm, &menu),
    ))
    .await;
    is_slow.store(true, Ordering::SeqCst);
    let id = next_id();
    let options = json!([{ "name": "action", "type": 3, "value": "e4" }]);
    let deferred = bot
        .interact(command_interaction(id, &alice(), thread, "move", options))
        .await;
    assert_eq!(deferred.json["type"], 5);
    is_slow.store(false, Ordering::SeqCst);
    assert!(
        deferred.json["data"]["flags"].as_u64().unwrap_or(0) & EPHEMERAL == 0,
        "a public placeholder"
    );
    let original = format!(
        "/api/v10/webhooks/{}/token{id}/messages/@original",
        FakeDiscord::APPLICATION_ID
    );
    let post = bot
        .fake
        .wait_for_call("the move's post", |c| c.method == "PATCH" && c.path == original)
        .await;
    assert!(content(&post).contains("played e4"), "{}", post.json);
    assert_png(&post);
    let ping = bot
        .fake
        .wait_for_call("the ping", |c| {
            c.method == "POST" && c.path == format!("/api/v10/webhooks/{}/token{id}", FakeDiscord::APPLICATION_ID)
        })
        .await;
    assert_eq!(ping.json["allowed_mentions"]["users"], json!(["1002"]), "{}", ping.json);
    bot.stop().await;
}

/// Accepting a challenge opens a thread, which Discord may be slow to make, or make while the
/// answer is lost: the click is acknowledged at once whatever follows (the fake refuses late
/// answers, and the harness fails on any refusal), and the game lands in the thread either way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_or_lost_thread_answer_still_puts_the_game_in_its_thread() {
    let bot = Bot::start().await;
    for trouble in ["slow", "lost"] {
        let challenge = bot.challenge(&alice(), &bob(), 0, 1).await;
        let accept = button(&challenge, "arb:accept:", "");
        let message = bot.message_of(&challenge);
        let threads = format!("/channels/{CHANNEL}/messages/{message}/threads");
        match trouble {
            "slow" => bot.fake.slow_down("POST", &threads, Duration::from_secs(4), 1),
            _ => bot
                .fake
                .fail_after_doing("POST", &threads, fake_discord::Failure::ThreadAlreadyExists, 1),
        }
        let id = next_id();
        bot.fake
            .send_interaction(component_interaction(
                id,
                &bob(),
                CHANNEL,
                &accept,
                2,
                Vec::new(),
                message,
            ))
            .await;
        let acknowledged = bot
            .fake
            .wait_for_call("the acknowledgement", |c| {
                c.path.contains(&format!("/interactions/{id}/"))
            })
            .await;
        assert_eq!(acknowledged.json["type"], 6, "{trouble}: {}", acknowledged.json);
        // Acknowledged without waiting for the thread: the fake records calls as it answers them,
        // and the slow thread is answered only after the acknowledgement is in.
        let thread_made = bot
            .fake
            .wait_for_call(&format!("{trouble}: the thread's answer"), |c| {
                c.method == "POST" && c.path.ends_with(&threads)
            })
            .await;
        let calls = bot.fake.calls();
        let place = |call: &fake_discord::Call| calls.iter().position(|c| c.at == call.at && c.path == call.path);
        assert!(
            place(&acknowledged) < place(&thread_made),
            "{trouble}: acknowledged before the thread's answer came"
        );
        let first_post = wait_for_posts(&bot, message, 1).await;
        assert_png(&first_post);
        let game: GameId = accept.split(':').nth(2).unwrap().parse().unwrap();
        let row = bot.arena.store().game(game).await.unwrap().unwrap();
        assert_eq!(
            row.location,
            format!("discord:{message}"),
            "{trouble}: the game lives in the thread"
        );
        let updated = bot
            .fake
            .wait_for_call("the challenge updated", |c| {
                c.method == "PATCH" && c.path.ends_with(&format!("/token{id}/messages/@original"))
            })
            .await;
        assert!(
            content(&updated).contains(&format!("<#{message}>")),
            "{trouble}: {}",
            updated.json
        );
        assert!(
            bot.fake.message(message).unwrap()["content"]
                .as_str()
                .unwrap()
                .contains("Accepted"),
            "the challenge message itself now says so"
        );
    }
    bot.stop().await;
}

/// A move whose save is committed but whose answer from the database is lost (PostgreSQL
/// restarting between the two) is played once and the player is told so, not asked to try again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_committed_as_the_database_went_away_is_told_as_played() {
    let loses_answer = Arc::new(AtomicBool::new(false));
    let lose = loses_answer.clone();
    let bot = Bot::start_with(move |inner| {
        Arc::new(Layered(SlowStore {
            loses_answer: lose,
            ..SlowStore::new(inner, Arc::default())
        }))
    })
    .await;
    let (game, thread) = bot.started(0).await;
    loses_answer.store(true, Ordering::SeqCst);
    let played = bot.play(&alice(), thread, "e4").await;
    assert!(!loses_answer.load(Ordering::SeqCst), "the save's answer was lost");
    assert!(content(&played).contains("played e4"), "{}", played.json);
    let log = bot.arena.store().log(game).await.unwrap();
    let moves: Vec<&str> = log.iter().map(|entry| entry.notation.as_str()).collect();
    assert_eq!(moves, ["e4"], "played once");
    bot.stop().await;
}
