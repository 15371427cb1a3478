//! Long games through the fake Discord: a timed challenge, the clock on every post, a reminder
//! ping in the thread, the Rematch button, ratings on /leaderboard and /profile, a PGN file
//! from /export.

use crate::bot::*;
use arbiter_engine::Game;
use fake_discord::Call;
use fake_discord::FakeDiscord;
use fake_discord::autocomplete_interaction;
use fake_discord::command_interaction;
use fake_discord::user_json;
use serde_json::Value;
use serde_json::json;

const HOUR_MS: i64 = 3_600_000;

/// `/challenge` of bob by alice (White) in chess with a time control.
fn timed_challenge(time: &str) -> Value {
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": 0 }),
        json!({ "name": "opponent", "type": 6, "value": bob().user_id.to_string() }),
        json!({ "name": "colour", "type": 4, "value": 1 }),
        json!({ "name": "time", "type": 3, "value": time }),
    ];
    challenge_interaction(&alice(), &bob(), options)
}

/// The `arb:rematch:...` button of a message, if it has one.
fn rematch_button(call: &fake_discord::Call) -> Option<String> {
    custom_ids(&call.json)
        .into_iter()
        .find(|id| id.starts_with("arb:rematch:"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_game_shows_its_clock_pings_a_reminder_offers_a_rematch_and_exports_pgn() {
    let bot = Bot::start().await;
    let answer = bot
        .interact(autocomplete_interaction(
            next_id(),
            &alice(),
            CHANNEL,
            "challenge",
            json!([{ "name": "time", "type": 3, "value": "3d", "focused": true }]),
        ))
        .await;
    let values = suggested(&answer);
    assert_eq!(values, ["3d"], "{}", answer.json);
    let refused = bot.interact(timed_challenge("whenever")).await;
    assert!(
        is_ephemeral(&refused) && content(&refused).contains("`24h+72h`"),
        "{}",
        refused.json
    );

    let challenge = bot.interact(timed_challenge("3d")).await;
    assert!(
        content(&challenge).contains("Chess · 3 days per move"),
        "{}",
        challenge.json
    );
    let accept = custom_ids(&challenge.json)
        .into_iter()
        .find(|id| id.starts_with("arb:accept:"))
        .unwrap();
    let game: i64 = accept.split(':').nth(2).unwrap().parse().unwrap();
    let thread = bot.message_of(&challenge);
    bot.click(&bob(), CHANNEL, &accept, thread).await;
    let moved = bot.play(&alice(), thread, "e4").await;
    let text = content(&moved);
    assert!(text.contains("⏱") && text.contains("3d 00:00:00"), "{text}");
    assert!(text.contains("'s time runs out <t:"), "{text}");

    // Half of bob's three days later, the thread pings him.
    bot.clock.advance(36 * HOUR_MS);
    let messages = format!("/api/v10/channels/{thread}/messages");
    let reminder = bot
        .fake
        .wait_for_call("the reminder", |c| {
            c.path == messages && content(c).contains("left for your move")
        })
        .await;
    assert!(content(&reminder).contains("<@1002>"), "{}", reminder.json);
    assert_eq!(reminder.json["allowed_mentions"]["users"], json!(["1002"]));

    let games = bot.command(&bob(), CHANNEL, "games", json!([])).await;
    let listed = content(&games);
    assert!(
        listed.contains("(3 days per move)") && listed.contains("time runs out <t:"),
        "{listed}"
    );

    let resigned = bot.command(&bob(), thread, "resign", json!([])).await;
    let rematch = rematch_button(&resigned).expect("the final post offers a rematch");
    assert!(rematch.starts_with(&format!("arb:rematch:{game}:")), "{rematch}");
    let pressed = bot.click(&alice(), thread, &rematch, bot.shown(thread, &rematch)).await;
    assert_eq!(pressed.json["type"], 7, "the clicked post is updated: {}", pressed.json);
    assert!(
        pressed.json["data"].get("attachments").is_none(),
        "an edit that names no attachments keeps the board image: {}",
        pressed.json
    );
    let offered = bot
        .fake
        .wait_for_call("the rematch challenge", |c| {
            c.path == format!("/api/v10/channels/{CHANNEL}/messages") && content(c).contains("challenges")
        })
        .await;
    let text = content(&offered);
    assert!(
        text.contains("3 days per move") && text.contains("<@1001> challenges <@1002>"),
        "{text}"
    );
    assert!(text.contains("<@1002> plays White"), "the sides are swapped: {text}");
    let again = bot.click(&bob(), thread, &rematch, bot.shown(thread, &rematch)).await;
    assert!(
        is_ephemeral(&again) && content(&again).contains("already been asked for"),
        "{}",
        again.json
    );

    let board = bot
        .command(
            &carol(),
            CHANNEL,
            "leaderboard",
            json!([{ "name": "variant", "type": 4, "value": 0 }]),
        )
        .await;
    let leaders = content(&board);
    assert!(
        leaders.contains("1. <@1001> 16"),
        "alice won the only rated game: {leaders}"
    );
    assert!(
        leaders.contains("2. <@1002> 13") && leaders.contains("provisional"),
        "{leaders}"
    );
    let mut asked = command_interaction(
        next_id(),
        &carol(),
        CHANNEL,
        "profile",
        json!([{ "name": "user", "type": 6, "value": "1002" }]),
    );
    asked["data"]["resolved"] = json!({ "users": { "1002": user_json(1002, "bob", false) } });
    let profile = bot.interact(asked).await;
    let text = content(&profile);
    assert!(
        text.contains("Chess: 13") && text.contains("1 game: 0 won, 0 drawn, 1 lost"),
        "{text}"
    );

    let export = bot.command(&carol(), thread, "export", json!([])).await;
    let (name, bytes) = export.files.first().expect("a PGN file");
    assert!(name.ends_with(".pgn"), "{name}");
    let pgn = String::from_utf8(bytes.clone()).unwrap();
    assert!(
        pgn.contains("[White \"alice\"]") && pgn.contains("[Black \"bob\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. e4 {[%clk 72:00:00]} 1-0"), "{pgn}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_with_a_player_who_left_the_server_is_refused_politely() {
    let bot = Bot::start().await;
    let (_, thread) = bot.started(0).await;
    let resigned = bot.command(&bob(), thread, "resign", json!([])).await;
    let rematch = rematch_button(&resigned).unwrap();
    bot.fake.remove_member(bob().user_id);
    let refused = bot.click(&alice(), thread, &rematch, bot.shown(thread, &rematch)).await;
    assert!(is_ephemeral(&refused), "{}", refused.json);
    assert!(
        content(&refused).contains("<@1002> is no longer on this server"),
        "{}",
        refused.json
    );
    let challenges = posts_in(&bot.fake, CHANNEL)
        .into_iter()
        .filter(|c| content(c).contains("challenges"))
        .count();
    assert_eq!(challenges, 0, "no rematch was offered");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminder_settings_are_kept_per_player() {
    let bot = Bot::start().await;
    let shown = bot
        .command(
            &alice(),
            CHANNEL,
            "settings",
            json!([{ "name": "reminders", "type": 1, "options": [] }]),
        )
        .await;
    assert!(
        content(&shown).contains("a ping in the game's thread"),
        "{}",
        shown.json
    );
    let set = bot
        .command(
            &alice(),
            CHANNEL,
            "settings",
            json!([{ "name": "reminders", "type": 1, "options": [{ "name": "how", "type": 4, "value": 1 }] }]),
        )
        .await;
    assert!(
        is_ephemeral(&set) && content(&set).contains("a direct message"),
        "{}",
        set.json
    );
    let stored = bot
        .arena
        .store()
        .settings(&arbiter::ids::UserId::new("discord:1001"))
        .await
        .unwrap();
    assert_eq!(stored.reminders, arbiter::model::Reminders::Dm);
    bot.stop().await;
}

/// A player who asked for reminders by DM gets them there (the thread says so, without a ping);
/// when their DMs are closed, the thread pings them instead, so the reminder is never lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_by_dm_falls_back_to_a_ping_in_the_thread_when_dms_are_closed() {
    let bot = Bot::start().await;
    let dm_choice = json!([{ "name": "reminders", "type": 1, "options": [{ "name": "how", "type": 4, "value": 1 }] }]);
    bot.command(&bob(), CHANNEL, "settings", dm_choice).await;
    let bob_dm = FakeDiscord::dm_channel_id(1_002);
    for dms_closed in [false, true] {
        if dms_closed {
            bot.fake.close_dms_of(1_002);
        }
        let challenge = bot.interact(timed_challenge("3d")).await;
        let accept = button(&challenge, "arb:accept:", "");
        let thread = bot.message_of(&challenge);
        bot.click(&bob(), CHANNEL, &accept, thread).await;
        bot.play(&alice(), thread, "e4").await;
        bot.clock.advance(36 * HOUR_MS);
        let line = wait_for_nth(&bot, thread, 1, |c| content(c).contains("(reminded by DM)")).await;
        assert_eq!(
            line.json["allowed_mentions"]["users"],
            json!([]),
            "the thread's line pings nobody: {}",
            line.json
        );
        if dms_closed {
            let ping = wait_for_nth(&bot, thread, 1, |c| {
                content(c).contains("I could not send you a direct message") && c.status == 200
            })
            .await;
            let text = content(&ping);
            assert!(
                text.contains("<@1002>") && text.contains("left for your move"),
                "{text}"
            );
            assert_eq!(ping.json["allowed_mentions"]["users"], json!(["1002"]));
        } else {
            let dm = wait_for_nth(&bot, bob_dm, 1, |c| content(c).contains("left for your move")).await;
            assert_eq!(dm.status, 200, "{}", dm.json);
        }
    }
    bot.stop().await;
}

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
