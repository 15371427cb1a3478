//! The real bot (serenity + poise, the arena, a real database) against a fake Discord on
//! loopback: challenges, games in threads, secret choices by DM and by the private fallback,
//! stale buttons, outsiders, autocomplete and malformed payloads.

use crate::bot::*;
use arbiter::ids::{GameId, UserId};
use arbiter::model::{GameRow, GameStatus, NewEntry};
use arbiter::ratings::Rating;
use arbiter::store::layer::{Layer, Layered};
use arbiter::store::{Store, StoreError};
use arbiter_engine::{Game, VariantId};
use fake_discord::{
    Call, Failure, FakeDiscord, Invoker, autocomplete_interaction, command_interaction, component_interaction,
    dm_component_interaction,
};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_challenge_is_accepted_and_played_to_mate_in_its_thread() {
    let bot = Bot::start().await;
    let names: Vec<String> = bot
        .fake
        .registered_commands()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    for command in [
        "challenge",
        "move",
        "board",
        "moves",
        "resign",
        "draw",
        "takeback",
        "abort",
        "games",
        "rules",
        "piece",
        "export",
    ] {
        assert!(
            names.contains(&command.to_string()),
            "/{command} is registered: {names:?}"
        );
    }

    let challenge = bot.challenge(&alice(), &bob(), 0, 1).await;
    assert_eq!(challenge.json["type"], 4);
    assert!(!is_ephemeral(&challenge));
    assert!(
        content(&challenge).contains("<@1001> challenges <@1002>"),
        "{}",
        challenge.json
    );
    assert_eq!(
        challenge.json["data"]["allowed_mentions"]["users"],
        json!(["1002"]),
        "only bob is pinged"
    );

    let (game, thread) = bot.started(0).await;
    let threads: Vec<Call> = bot
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.path.ends_with("/threads"))
        .collect();
    assert_eq!(threads.len(), 1);
    assert!(
        threads[0].json["name"].as_str().unwrap().contains("alice vs bob"),
        "{}",
        threads[0].json
    );
    let opening = bot
        .fake
        .wait_for_call("the board in the thread", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages")
        })
        .await;
    assert_png(&opening);
    assert!(
        content(&opening).contains("<@1001> (White) to move"),
        "{}",
        opening.json
    );
    assert_eq!(opening.json["allowed_mentions"]["users"], json!(["1001"]));

    let mut latencies = Vec::new();
    let moves = [
        ("e4", alice()),
        ("e5", bob()),
        ("Bc4", alice()),
        ("Nc6", bob()),
        ("Qh5", alice()),
        ("Nf6", bob()),
    ];
    for (action, player) in &moves {
        let id = next_id();
        let sent = bot
            .fake
            .send_interaction(command_interaction(
                id,
                player,
                thread,
                "move",
                json!([{ "name": "action", "type": 3, "value": action }]),
            ))
            .await;
        let path = format!("/api/v10/interactions/{id}/token{id}/callback");
        let answer = bot.fake.wait_for_call(action, |c| c.path == path).await;
        latencies.push(answer.at - sent);
        assert!(!is_ephemeral(&answer), "{action}: {}", answer.json);
        assert!(
            content(&answer).contains(&format!("played {action}")),
            "{}",
            answer.json
        );
        assert_png(&answer);
        let next = if player.user_id == 1_001 { "1002" } else { "1001" };
        assert_eq!(
            answer.json["data"]["allowed_mentions"]["users"],
            json!([next]),
            "the player to act is pinged"
        );
    }
    let mate = bot.play(&alice(), thread, "Qxf7#").await;
    assert!(
        content(&mate).contains("1-0") && content(&mate).contains("checkmate"),
        "{}",
        mate.json
    );
    assert_png(&mate);
    let stored = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(stored.location, format!("discord:{thread}"));
    assert!(stored.state.outcome().is_some());

    latencies.sort();
    eprintln!(
        "INTERACTION_CREATE to callback over {} moves: median {:.1} ms, max {:.1} ms",
        latencies.len(),
        latencies[latencies.len() / 2].as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    );
    bot.stop().await;
}

/// Found by the soak: a DM that met a passing 5xx was given up at once, and the player was sent
/// to the private button as though their DMs were closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_choice_prompt_that_meets_a_server_error_is_sent_again_by_dm() {
    let bot = Bot::start().await;
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let path = format!("/api/v10/channels/{alice_dm}/messages");
    bot.fake.fail("POST", &path, Failure::ServerError, 1);
    bot.started(3).await;
    let prompt = bot
        .fake
        .wait_for_call("alice's prompt, delivered", |c| c.path == path && c.status == 200)
        .await;
    assert!(prompt.json.to_string().contains("bomb:d2"), "{}", prompt.json);
    let tries: Vec<u16> = bot
        .fake
        .calls()
        .iter()
        .filter(|c| c.path == path)
        .map(|c| c.status)
        .collect();
    assert_eq!(tries, [500, 200], "one refusal, then the prompt itself");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beirut_bomb_choices_go_by_dm_and_stay_secret() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(3).await;
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let bob_dm = FakeDiscord::dm_channel_id(1_002);
    let prompt = bot
        .fake
        .wait_for_call("alice's prompt", |c| {
            c.path == format!("/api/v10/channels/{alice_dm}/messages")
        })
        .await;
    assert_png(&prompt);
    let menu = custom_ids(&prompt.json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .expect("a menu");
    let options = prompt.json.to_string();
    assert!(
        options.contains("bomb:d2") && !options.contains("bomb:e1"),
        "her own units, never the king"
    );
    bot.fake
        .wait_for_call("bob's prompt", |c| {
            c.path == format!("/api/v10/channels/{bob_dm}/messages")
        })
        .await;

    // Autocomplete in the thread offers alice her own choices too.
    let typed = autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "bomb:d", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    assert_eq!(suggestions.json["type"], 8);
    let choices = suggested(&suggestions);
    assert!(
        choices.iter().any(|c| c == "bomb:d2") && choices.iter().all(|c| c.starts_with("bomb:d")),
        "{choices:?}"
    );

    let private = [next_id(), next_id()];
    let chosen = bot
        .interact(dm_component_interaction(
            private[0],
            &alice(),
            alice_dm,
            &menu,
            3,
            vec!["bomb:d2".into()],
            bot.shown(alice_dm, &menu),
        ))
        .await;
    assert_eq!(
        chosen.json["type"], 7,
        "the menu becomes the confirmation: {}",
        chosen.json
    );
    assert!(content(&chosen).contains("bomb:d2"));
    assert!(custom_ids(&chosen.json).is_empty());
    let bob_menu = custom_ids(&posts_in(&bot.fake, bob_dm)[0].json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .unwrap();
    let bobs = bot
        .interact(dm_component_interaction(
            private[1],
            &bob(),
            bob_dm,
            &bob_menu,
            3,
            vec!["bomb:e7".into()],
            bot.shown(bob_dm, &bob_menu),
        ))
        .await;
    assert_eq!(
        bobs.json["type"], 7,
        "bob's menu still works after alice chose: {}",
        bobs.json
    );
    let e4 = bot.play(&alice(), thread, "e4").await;
    assert!(content(&e4).contains("played e4"), "{}", e4.json);

    // An old menu changes nothing once the game moved on.
    let again = bot
        .interact(dm_component_interaction(
            next_id(),
            &alice(),
            alice_dm,
            &menu,
            3,
            vec!["bomb:c2".into()],
            bot.shown(alice_dm, &menu),
        ))
        .await;
    assert!(
        is_ephemeral(&again) && content(&again).contains("out of date"),
        "{}",
        again.json
    );

    let public = public_text(&bot.fake, &private);
    assert!(
        !public.contains("bomb:d2") && !public.contains("bomb:e7"),
        "a carrier leaked: {public}"
    );
    assert!(public.contains("chose a bomb carrier"));
    let state = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(state.state.view(arbiter_engine::Viewer::Spectator).record.len(), 3);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_closed_dms_chooses_through_the_private_button() {
    let bot = Bot::start().await;
    bot.fake.close_dms_of(1_002);
    let (_, thread) = bot.started(3).await;
    let notice = bot
        .fake
        .wait_for_call("the fallback notice", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages")
                && content(c).contains("could not send you a direct message")
        })
        .await;
    assert!(content(&notice).contains("<@1002>"));
    assert!(
        !notice.json.to_string().contains("bomb:"),
        "the notice reveals nothing: {}",
        notice.json
    );
    let button = custom_ids(&notice.json)
        .into_iter()
        .find(|id| id.starts_with("arb:private:"))
        .expect("a Choose privately button");

    // Someone else pressing it learns nothing.
    let outsider = bot.click(&carol(), thread, &button, bot.shown(thread, &button)).await;
    assert!(
        is_ephemeral(&outsider) && content(&outsider).contains("not playing"),
        "{}",
        outsider.json
    );

    let private = bot.click(&bob(), thread, &button, bot.shown(thread, &button)).await;
    assert!(is_ephemeral(&private), "only bob sees it: {}", private.json);
    assert_png(&private);
    let menu = custom_ids(&private.json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .expect("a menu");
    assert!(private.json.to_string().contains("bomb:e7"));
    let choice = next_id();
    let chosen = bot
        .interact(component_interaction(
            choice,
            &bob(),
            thread,
            &menu,
            3,
            vec!["bomb:e7".into()],
            bot.shown(thread, &menu),
        ))
        .await;
    assert_eq!(chosen.json["type"], 7);
    assert!(content(&chosen).contains("bomb:e7"));
    let public = public_text(&bot.fake, &[choice]);
    assert!(!public.contains("bomb:e7"), "bob's carrier leaked: {public}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_buttons_outsiders_and_malformed_payloads_change_nothing() {
    let bot = Bot::start().await;
    let challenge = bot.challenge(&alice(), &bob(), 0, 1).await;
    let first = custom_ids(&challenge.json)
        .into_iter()
        .find(|id| id.starts_with("arb:accept:"))
        .unwrap();
    // Only bob may accept.
    let wrong = bot.click(&carol(), CHANNEL, &first, bot.message_of(&challenge)).await;
    assert!(
        is_ephemeral(&wrong) && content(&wrong).contains("only <@1002> can answer"),
        "{}",
        wrong.json
    );
    let (game, thread, accept) = bot.started_with_button(0).await;
    let version = bot.arena.store().game(game).await.unwrap().unwrap().version;
    // The first challenge's button, pressed again after the game began.
    let stale = bot.click(&bob(), CHANNEL, &accept, thread).await;
    assert!(
        is_ephemeral(&stale) && content(&stale).contains("no longer an open challenge"),
        "{}",
        stale.json
    );

    let outsider = bot.play(&carol(), thread, "e4").await;
    assert!(is_ephemeral(&outsider), "{}", outsider.json);
    assert!(
        content(&outsider).contains(&format!("you are not playing in game #{game}")),
        "{}",
        outsider.json
    );
    let early = bot.play(&bob(), thread, "e5").await;
    assert!(
        is_ephemeral(&early) && content(&early).contains("not your turn"),
        "{}",
        early.json
    );
    let illegal = bot.play(&alice(), thread, "e5").await;
    assert!(
        is_ephemeral(&illegal) && content(&illegal).contains("e5"),
        "{}",
        illegal.json
    );
    // A button no version of Arbiter made, on a message of the bot's from before.
    let old_message = bot.fake.add_message(thread, "an old post", &["somebody-elses-button"]);
    let foreign = bot.click(&alice(), thread, "somebody-elses-button", old_message).await;
    assert!(
        is_ephemeral(&foreign) && content(&foreign).contains("not one of Arbiter's"),
        "{}",
        foreign.json
    );
    assert_eq!(
        bot.arena.store().game(game).await.unwrap().unwrap().version,
        version,
        "nothing changed"
    );

    // Broken frames and payloads are dropped; the bot goes on answering.
    bot.fake.send_raw("{ this is not json".into()).await;
    bot.fake
        .send_raw(json!({ "op": 0, "t": "INTERACTION_CREATE", "s": 999, "d": { "type": 2 } }).to_string())
        .await;
    bot.fake
        .send_event("INTERACTION_CREATE", json!({ "id": "1", "type": 99 }))
        .await;
    let typed = autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "N", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    let choices = suggested(&suggestions);
    assert_eq!(choices, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let outsider_typing = autocomplete_interaction(
        next_id(),
        &carol(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "", "focused": true }]),
    );
    let nothing = bot.interact(outsider_typing).await;
    assert_eq!(
        nothing.json["data"]["choices"],
        json!([]),
        "no suggestions for someone not playing"
    );
    let e4 = bot.play(&alice(), thread, "e4").await;
    assert!(content(&e4).contains("played e4"), "{}", e4.json);
    bot.stop().await;
}

/// The host starts a Death Match between alice (holding the Advantage) and bob; alice takes the
/// side that moves first. Returns the match's id.
pub(crate) async fn start_match(bot: &Bot, game: u8, normal: &str, reserve: &str) -> GameId {
    let announced = bot.interact(deathmatch_start(game, Some((normal, reserve)))).await;
    assert!(!is_ephemeral(&announced), "{}", announced.json);
    let text = content(&announced);
    assert!(
        text.contains("Death Match #") && text.contains("<@1001> holds the Advantage"),
        "{text}"
    );
    assert!(text.contains("<t:"), "a countdown for the colour choice: {text}");
    let first = custom_ids(&announced.json)
        .into_iter()
        .find(|id| id.starts_with("arb:first:"))
        .expect("a button for the first side");
    let game: GameId = first.split(':').nth(2).unwrap().parse().unwrap();
    // bob cannot choose for alice.
    let wrong = bot.click(&bob(), CHANNEL, &first, bot.shown(CHANNEL, &first)).await;
    assert!(
        is_ephemeral(&wrong) && content(&wrong).contains("Advantage"),
        "{}",
        wrong.json
    );
    let chosen = bot.click(&alice(), CHANNEL, &first, bot.shown(CHANNEL, &first)).await;
    assert_eq!(chosen.json["type"], 7, "{}", chosen.json);
    let begun = bot
        .fake
        .wait_for_call("the match's first board", |c| {
            c.path == format!("/api/v10/channels/{CHANNEL}/messages") && content(c).contains("The match begins")
        })
        .await;
    assert_png(&begun);
    assert!(content(&begun).contains("⏱"), "{}", begun.json);
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosted_death_match_is_won_by_blockade() {
    let bot = Bot::start().await;
    // Only hosts start matches.
    let refused = bot
        .command(
            &alice(),
            CHANNEL,
            "deathmatch",
            json!([{ "name": "pause", "type": 1, "options": [] }]),
        )
        .await;
    assert!(is_ephemeral(&refused), "{}", refused.json);
    let game = start_match(&bot, 1, "60s", "5m").await;
    let setup = [
        "R@f8", "Q@h8", "R@g8", "B@f6", "Q@a1", "R@h7", "B@g7", "R@a3", "B@a4", "B@h6",
    ];
    for placement in setup {
        let stored = bot.arena.store().game(game).await.unwrap().unwrap();
        let player = if stored.state.to_act()[0] == arbiter_engine::Seat::First {
            alice()
        } else {
            bob()
        };
        bot.clock.advance(3_000);
        let answer = bot.play(&player, CHANNEL, placement).await;
        assert!(
            content(&answer).contains(&format!("played {placement}")),
            "{}",
            answer.json
        );
        assert!(
            content(&answer).contains("reserve"),
            "clocks after every turn: {}",
            answer.json
        );
    }
    let last = bot.play(&alice(), CHANNEL, "Qa1-c1@g5").await;
    let text = content(&last);
    assert!(text.contains("1-0") && text.contains("no complete turn left"), "{text}");
    assert_png(&last);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosted_death_match_is_lost_on_time_with_warnings_on_the_way() {
    let bot = Bot::start().await;
    let game = start_match(&bot, 0, "10s", "30s").await;
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    bot.clock.advance(10_000);
    let warning = bot
        .fake
        .wait_for_call("the reserve warning", |c| {
            c.path == messages && content(c).contains("normal time is over")
        })
        .await;
    assert!(content(&warning).contains("<@1001>"));
    assert_eq!(
        warning.json["allowed_mentions"]["users"],
        json!(["1001"]),
        "alice is warned"
    );
    // The host pauses: nothing falls due however long the pause.
    let paused = bot
        .interact(host_command(
            "deathmatch",
            json!([{ "name": "pause", "type": 1, "options": [] }]),
        ))
        .await;
    assert!(content(&paused).contains("paused the clocks"), "{}", paused.json);
    bot.clock.advance(600_000);
    let resumed = bot
        .interact(host_command(
            "deathmatch",
            json!([{ "name": "resume", "type": 1, "options": [] }]),
        ))
        .await;
    assert!(content(&resumed).contains("resumed the clocks"), "{}", resumed.json);
    bot.clock.advance(30_000);
    let flagged = bot
        .fake
        .wait_for_call("the forfeit", |c| {
            c.path == messages && content(c).contains("ran out of time")
        })
        .await;
    let text = content(&flagged);
    assert!(text.contains("0-1") && text.contains("wins by time"), "{text}");
    let stored = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(
        stored.state.outcome().unwrap().reason,
        arbiter_engine::EndReason::Timeout
    );
    // Stopped, the bot has delivered all it queued: no duplicate can come after the count.
    let fake = bot.fake.clone();
    bot.stop().await;
    let forfeits = fake
        .calls()
        .iter()
        .filter(|c| content(c).contains("ran out of time"))
        .count();
    assert_eq!(forfeits, 1, "announced once");
}

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_offered_and_a_circe_rebirth_is_chosen_from_the_suggestions() {
    let bot = Bot::start().await;
    let commands = bot.fake.registered_commands();
    let challenge = commands
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "challenge")
        .expect("/challenge is registered");
    let offered: Vec<&str> = challenge["options"][0]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = VariantId::ALL.iter().map(|v| v.name()).collect();
    assert_eq!(offered, registry, "the game menu is the registry");

    let circe = VariantId::ALL.iter().position(|&v| v == VariantId::Circe).unwrap() as u8;
    let (game, thread) = bot.started(circe).await;
    bot.play(&alice(), thread, "e4").await;
    bot.play(&bob(), thread, "d5").await;
    let typed = autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "exd5", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    let choices = suggested(&suggestions);
    assert_eq!(choices.len(), 17, "one suggestion per rebirth square: {choices:?}");
    assert!(choices.contains(&"exd5(a4)".to_string()), "{choices:?}");
    let rebirth = bot.play(&alice(), thread, "exd5(a4)").await;
    assert!(content(&rebirth).contains("played exd5(a4)"), "{}", rebirth.json);
    assert_png(&rebirth);
    let stored = bot.arena.store().game(game).await.unwrap().unwrap();
    assert!(
        stored
            .state
            .view(arbiter_engine::Viewer::Spectator)
            .fen()
            .starts_with("rnbqkbnr/ppp1pppp/8/3P4/p7/")
    );
    bot.stop().await;
}

/// The piece menus of a message: each menu's options as (label, value).
fn piece_menus(body: &Value) -> Vec<(String, Vec<(String, String)>)> {
    let mut menus = Vec::new();
    let rows = body["components"]
        .as_array()
        .or_else(|| body["data"]["components"].as_array());
    for row in rows.into_iter().flatten() {
        for menu in row["components"].as_array().into_iter().flatten() {
            let id = menu["custom_id"].as_str().unwrap_or_default();
            if id.starts_with("arb:piece:") {
                let options = menu["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| {
                        (
                            o["label"].as_str().unwrap().to_string(),
                            o["value"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect();
                menus.push((id.to_string(), options));
            }
        }
    }
    menus
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pick_the_team_picks_are_made_from_menus_of_pieces_then_squares() {
    let bot = Bot::start().await;
    let ptt = VariantId::ALL
        .iter()
        .position(|&v| v == VariantId::PickTheTeam)
        .unwrap() as u8;
    let (game, thread) = bot.started(ptt).await;
    let opening = bot
        .fake
        .wait_for_call("the first post", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages") && !piece_menus(&c.json).is_empty()
        })
        .await;
    assert_png(&opening);
    let menus = piece_menus(&opening.json);
    assert_eq!(menus.len(), 1, "{menus:?}");
    let (menu, options) = &menus[0];
    assert_eq!(
        options,
        &[
            ("K · King".to_string(), "ptt-king".to_string()),
            ("RN · Royal knight".to_string(), "ptt-royal-knight".to_string())
        ],
        "the first pick is royal"
    );

    // Only the picker gets the squares.
    let choose_piece = |who: &Invoker, menu: &str, piece: &str| {
        component_interaction(
            next_id(),
            who,
            thread,
            menu,
            3,
            vec![piece.to_string()],
            bot.shown(thread, menu),
        )
    };
    let outsider = bot.interact(choose_piece(&bob(), menu, "ptt-king")).await;
    assert!(
        is_ephemeral(&outsider) && content(&outsider).contains("not your turn"),
        "{}",
        outsider.json
    );
    let squares = bot.interact(choose_piece(&alice(), menu, "ptt-king")).await;
    assert!(is_ephemeral(&squares), "only alice sees her squares: {}", squares.json);
    assert_png(&squares);
    assert!(
        content(&squares).contains("where does your King (K) go?"),
        "{}",
        squares.json
    );
    let square_menu = custom_ids(&squares.json)
        .into_iter()
        .find(|id| id.starts_with("arb:choose:"))
        .expect("a menu of squares");
    let offered = squares.json["data"]["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    let first_row: Vec<String> = "abcdefghij".chars().map(|f| format!("K@{f}1")).collect();
    assert_eq!(offered, first_row);
    let placed = bot
        .interact(component_interaction(
            next_id(),
            &alice(),
            thread,
            &square_menu,
            3,
            vec!["K@e1".into()],
            bot.shown(thread, &square_menu),
        ))
        .await;
    assert_eq!(
        placed.json["type"], 7,
        "the square menu becomes the confirmation: {}",
        placed.json
    );
    assert!(content(&placed).contains("K@e1") && custom_ids(&placed.json).is_empty());
    let after = bot
        .fake
        .wait_for_call("the pick's post", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages") && content(c).contains("played K@e1")
        })
        .await;
    assert_png(&after);
    assert!(
        content(&after).contains("<@1002>"),
        "bob is pinged: {}",
        content(&after)
    );
    let menus = piece_menus(&after.json);
    assert_eq!(
        menus[0].1,
        [("RN · Royal knight".to_string(), "ptt-royal-knight".to_string())]
    );

    // The first menu is out of date now.
    let stale = bot.interact(choose_piece(&alice(), menu, "ptt-queen")).await;
    assert!(content(&stale).contains("out of date"), "{}", stale.json);
    // A piece that is not in the menu, or nonsense, changes nothing.
    for bogus in ["ptt-queen", "nonsense"] {
        let refused = bot.interact(choose_piece(&bob(), &menus[0].0, bogus)).await;
        assert!(
            is_ephemeral(&refused) && content(&refused).contains("cannot be placed now"),
            "{}",
            refused.json
        );
    }

    // Bob picks with /move instead, then his second pick faces the whole pool: pieces and
    // pawns in two menus.
    let typed = autocomplete_interaction(
        next_id(),
        &bob(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "RN@", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    assert_eq!(suggestions.json["data"]["choices"].as_array().unwrap().len(), 10);
    let moved = bot.play(&bob(), thread, "RN@f10").await;
    assert!(content(&moved).contains("played RN@f10"), "{}", moved.json);
    let menus = piece_menus(&moved.json);
    assert_eq!(menus.len(), 2, "{menus:?}");
    assert_eq!(menus[0].1.len(), 22, "pieces 3-20 and the four spears");
    assert_eq!(menus[1].1.len(), 16, "the pawns");
    assert!(menus[1].1.iter().any(|(label, _)| label == "BE · Berolina pawn"));
    assert!(menus[1].0.ends_with(":1"), "distinct ids: {menus:?}");

    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    let view = row.state.view(arbiter_engine::Viewer::Spectator);
    assert_eq!(view.record.len(), 2);
    assert_eq!(view.pool.len(), 38);

    // Any piece's card, with autocomplete over the catalogue.
    let typed = autocomplete_interaction(
        next_id(),
        &carol(),
        thread,
        "piece",
        json!([{ "name": "name", "type": 3, "value": "nightr", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    assert_eq!(
        suggestions.json["data"]["choices"][0],
        json!({ "name": "CN · Chinese nightrider (Pick-the-team)", "value": "ptt-chinese-nightrider" })
    );
    let card = bot
        .command(
            &carol(),
            thread,
            "piece",
            json!([{ "name": "name", "type": 3, "value": "ptt-chinese-nightrider" }]),
        )
        .await;
    assert!(is_ephemeral(&card), "{}", card.json);
    assert!(
        content(&card).contains("**Chinese nightrider** (`CN`) · Pick-the-team · Betza `nNN`"),
        "{}",
        card.json
    );
    assert_png(&card);
    let unknown = bot
        .command(
            &carol(),
            thread,
            "piece",
            json!([{ "name": "name", "type": 3, "value": "dragon" }]),
        )
        .await;
    assert!(content(&unknown).contains("no piece is called"), "{}", unknown.json);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assault_match_keeps_each_submitted_move_secret_until_both_are_in() {
    let bot = Bot::start().await;
    let assault = VariantId::ALL.iter().position(|&v| v == VariantId::Assault).unwrap() as u8;
    let (game, thread) = bot.started(assault).await;
    // Each step: alice (A) submits first, then bob (B) completes it; bob mates on board 2.
    let steps = [
        ("e4", "e4"),
        ("g5", "Nf6"),
        ("Nc3", "Nh3"),
        ("f6", "Nxe4"),
        ("Rb1", "Qh5"),
    ];
    for (step, (alices, bobs)) in steps.iter().enumerate() {
        let submitted = bot.play(&alice(), thread, alices).await;
        let text = content(&submitted);
        assert!(text.contains("alice") || text.contains("<@1001>"), "{}", submitted.json);
        assert!(text.contains("submitted a move on board"), "{}", submitted.json);
        assert!(submitted.files.is_empty(), "no image while nothing visible changed");
        let confirmation = bot
            .fake
            .wait_for_call("alice's private confirmation", |c| {
                c.path.contains("/webhooks/") && c.json.to_string().contains(&format!("Recorded: `{alices}`"))
            })
            .await;
        assert!(
            confirmation.json["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0,
            "{}",
            confirmation.json
        );
        // Nothing public names alice's move before bob's arrives (the first steps' moves may
        // have been revealed already, so only moves not played before are checked).
        if step > 0 {
            // The images' words list the public position's squares ("knights b8 f6"), which a
            // move may share; no image is posted while a move is pending (asserted above), so
            // the messages' own words are what could leak it.
            let public: String = public_text(&bot.fake, &[])
                .lines()
                .map(|line| {
                    let mut call: Value = serde_json::from_str(line).unwrap();
                    let body = if call.get("data").is_some() {
                        &mut call["data"]
                    } else {
                        &mut call
                    };
                    if let Some(attachments) = body.get_mut("attachments").and_then(Value::as_array_mut) {
                        attachments.iter_mut().for_each(|a| a["description"] = Value::Null);
                    }
                    call.to_string()
                })
                .collect::<Vec<_>>()
                .join("\n");
            // Whole words only: "f6" is not in "Nf6".
            let leaked = public
                .split(|c: char| !(c.is_ascii_alphanumeric() || "=+#".contains(c)))
                .any(|word| word.trim_end_matches(['+', '#']) == *alices);
            assert!(!leaked, "{alices} leaked: {public}");
        }
        let revealed = bot.play(&bob(), thread, bobs).await;
        assert!(
            content(&revealed).contains(&format!("(revealed: <@1001>'s {alices})")),
            "{}",
            revealed.json
        );
        assert_png(&revealed);
        // Both boards, one above the other as a phone shows them best: the image is taller than
        // wide (IHDR: width, then height).
        let png = &revealed.files[0].1;
        let (width, height) = (
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            u32::from_be_bytes(png[20..24].try_into().unwrap()),
        );
        assert!(height > 2 * width, "{width}x{height}");
    }
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    let outcome = row.state.outcome().expect("mate on board 2").clone();
    assert_eq!(outcome.winner, Some(arbiter_engine::Seat::Second));
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

/// Where the bot may not post files or open threads, starting a game, a match or a tournament is
/// refused at once, privately, naming what is missing, and nothing is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_where_the_bot_lacks_permissions_is_refused_with_what_is_missing() {
    let bot = Bot::start().await;
    // View, send, embed, history, use commands: no attaching files, no threads.
    use fake_discord::permissions::*;
    let limited = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS;
    bot.fake.set_bot_permissions(CHANNEL, limited);
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": 0 }),
        json!({ "name": "opponent", "type": 6, "value": "1002" }),
    ];
    let challenge = challenge_interaction(&alice(), &bob(), options);
    let refused = bot.interact(challenge).await;
    let text = content(&refused);
    assert!(is_ephemeral(&refused), "{}", refused.json);
    assert!(
        text.contains("cannot start a game here")
            && text.contains("attach files")
            && text.contains("create public threads")
            && text.contains("send messages in threads"),
        "{text}"
    );
    let statuses = [GameStatus::Challenge, GameStatus::Active];
    let games = bot
        .arena
        .store()
        .games_of(&UserId::new("discord:1001"), &statuses)
        .await
        .unwrap();
    assert!(games.is_empty(), "no challenge was made");

    let refused = bot.interact(deathmatch_start(0, None)).await;
    assert!(
        is_ephemeral(&refused)
            && content(&refused)
                .contains("cannot run a Death Match here: this channel does not allow me to attach files"),
        "{}",
        refused.json
    );
    assert!(posts_in(&bot.fake, CHANNEL).is_empty(), "nothing was posted");
    bot.stop().await;
}

/// A member spamming commands or buttons is slowed down privately; nothing they sent past the
/// limit is done, and other members are not affected. The limit (a burst of 20, then one a
/// second) keeps the arena's time, which stands still here unless the test moves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_spamming_commands_and_buttons_is_asked_to_slow_down() {
    let bot = Bot::start().await;
    // A challenge to carol, by alice: its Decline button is carol's to press.
    let challenge = bot.challenge(&alice(), &carol(), 0, 1).await;
    let decline = button(&challenge, "arb:decline:", "");
    let game: GameId = decline.split(':').nth(2).unwrap().parse().unwrap();
    let message = bot.message_of(&challenge);

    // 25 commands sent at once, as a spamming client would: the burst of 20 passes.
    let ids: Vec<u64> = (0..25).map(|_| next_id()).collect();
    for &id in &ids {
        let games = command_interaction(id, &carol(), CHANNEL, "games", json!([]));
        bot.fake.send_interaction(games).await;
    }
    let mut slowed = 0;
    for id in ids {
        let path = format!("/interactions/{id}/");
        let answer = bot.fake.wait_for_call("an answer", |c| c.path.contains(&path)).await;
        if content(&answer).contains("faster than I can follow") {
            assert!(
                is_ephemeral(&answer) && content(&answer).contains("Nothing was done"),
                "{}",
                answer.json
            );
            slowed += 1;
        }
    }
    assert_eq!(slowed, 5, "a burst of 20 passes, the other 5 are slowed");
    // A button is counted the same way: slowed, and the challenge is not declined.
    let click = bot.click(&carol(), CHANNEL, &decline, message).await;
    assert!(content(&click).contains("faster than I can follow"), "{}", click.json);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Challenge, "the challenge was not declined");
    // Someone else is served as usual.
    let games = bot.command(&alice(), CHANNEL, "games", json!([])).await;
    assert!(!content(&games).contains("faster"), "{}", games.json);
    // A second later, one more action is allowed: the click goes through.
    bot.clock.advance(1_000);
    bot.click(&carol(), CHANNEL, &decline, message).await;
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Declined, "declined once time allowed");
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
