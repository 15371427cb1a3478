//! Games against the computer through the fake Discord: a challenge to the bot's own user opens
//! a thread where the computer answers each move; `/practice` in a game of secrets, where its
//! choice reaches no public call and it is sent nothing; and a restart while it is to move.

use crate::bot::*;
use arbiter::arena::ChallengeRequest;
use arbiter::ids::{GameId, UserId};
use arbiter::model::{ComputerPlayer, GameSetup, WhitePlayer};
use arbiter_engine::ai::Level;
use arbiter_engine::{Game, VariantId};
use fake_discord::{Call, FakeDiscord, Invoker};
use serde_json::json;

fn me() -> Invoker {
    Invoker {
        user_id: FakeDiscord::BOT_USER_ID,
        name: "Arbiter".into(),
    }
}

/// The mention of the bot, as its posts name the computer.
fn mention() -> String {
    format!("<@{}>", FakeDiscord::BOT_USER_ID)
}

/// The thread a post points to (`<#id>`).
fn thread_in(text: &str) -> u64 {
    let start = text.find("<#").expect("a thread named") + 2;
    let end = start + text[start..].find('>').unwrap();
    text[start..end].parse().unwrap()
}

/// The game a post names (`Game #7`).
fn game_in(text: &str) -> GameId {
    let start = text.find("Game #").expect("a game named") + 6;
    let digits: String = text[start..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// Nothing was sent to the bot's own user: no DM channel opened to it.
fn sent_nothing_to_itself(bot: &Bot) {
    let to_itself = bot.fake.calls().into_iter().any(|call: Call| {
        call.path.ends_with("/users/@me/channels")
            && call.json["recipient_id"].as_str() == Some(&FakeDiscord::BOT_USER_ID.to_string())
    });
    assert!(!to_itself, "the bot opened a DM to itself");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_the_bot_is_a_game_against_the_computer_in_a_thread_of_its_own() {
    let bot = Bot::start().await;
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": variant_index(VariantId::Chess) }),
        json!({ "name": "opponent", "type": 6, "value": me().user_id.to_string() }),
        json!({ "name": "colour", "type": 4, "value": 1 }),
    ];
    let mut interaction = challenge_interaction(&alice(), &me(), options);
    // Discord resolves the bot's own user as a bot.
    interaction["data"]["resolved"]["users"][me().user_id.to_string()]["bot"] = json!(true);
    let answer = bot.interact(interaction).await;
    let said = content(&answer);
    assert!(!is_ephemeral(&answer), "the channel hears of it: {}", answer.json);
    assert!(said.contains(&format!("<@1001> plays {}", mention())), "{said}");
    let thread = thread_in(&said);
    let game = game_in(&said);

    let begun = wait_for_posts(&bot, thread, 1).await;
    let text = content(&begun);
    assert!(
        text.contains("plays the computer") && text.contains("not rated"),
        "{text}"
    );
    assert_png(&begun);

    for (moves, action) in ["e4", "Nf3"].into_iter().enumerate() {
        let played = bot.play(&alice(), thread, action).await;
        assert!(
            content(&played).contains(&format!("played {action}")),
            "{}",
            played.json
        );
        let reply = wait_for_nth(&bot, thread, moves + 1, |call| {
            content(call).contains(&format!("{} played", mention()))
        })
        .await;
        assert_png(&reply);
        assert!(
            content(&reply).contains("<@1001>"),
            "alice is pinged for her turn: {}",
            reply.json
        );
    }
    let stored = bot.arena.store().game(game).await.unwrap().unwrap();
    assert!(!stored.is_rated);
    assert_eq!(stored.state.view(arbiter_engine::Viewer::Spectator).record.len(), 4);
    sent_nothing_to_itself(&bot);

    // Other bots still cannot play.
    let other = Invoker {
        user_id: 7_777,
        name: "otherbot".into(),
    };
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": 0 }),
        json!({ "name": "opponent", "type": 6, "value": "7777" }),
    ];
    let mut interaction = challenge_interaction(&alice(), &other, options);
    interaction["data"]["resolved"]["users"]["7777"]["bot"] = json!(true);
    let refused = bot.interact(interaction).await;
    assert!(is_ephemeral(&refused));
    assert!(content(&refused).contains("other bots cannot play"), "{}", refused.json);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn practice_beirut_the_computers_secret_carrier_reaches_no_public_call() {
    let bot = Bot::start().await;
    let options = json!([
        { "name": "variant", "type": 4, "value": variant_index(VariantId::Beirut) },
        { "name": "level", "type": 4, "value": 0 },
        { "name": "colour", "type": 4, "value": 1 },
    ]);
    let answer = bot.command(&alice(), CHANNEL, "practice", options).await;
    let said = content(&answer);
    let (game, thread) = (game_in(&said), thread_in(&said));
    // alice is prompted by DM; the computer chooses by itself.
    let alice_dm = FakeDiscord::dm_channel_id(alice().user_id);
    let prompt = wait_for_posts(&bot, alice_dm, 1).await;
    assert!(content(&prompt).contains("carrier"), "{}", prompt.json);
    let chose = wait_for_nth(&bot, thread, 1, |call| {
        content(call).contains(&format!("{} chose a bomb carrier", mention()))
    })
    .await;
    assert!(chose.files.is_empty(), "nothing visible changed: {}", chose.json);
    let log = bot.arena.store().log(game).await.unwrap();
    let carrier = log
        .iter()
        .map(|entry| entry.notation.clone())
        .find(|notation| notation.starts_with("bomb:"))
        .expect("the computer's choice is logged");
    let public = public_text(&bot.fake, &[]);
    assert!(!public.contains(&carrier), "{carrier} leaked: {public}");
    sent_nothing_to_itself(&bot);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_moves_once_the_bot_is_back_when_its_turn_came_while_it_was_down() {
    let mut bot = Bot::start().await;
    bot.fake.add_channel(CHANNEL, FakeDiscord::GUILD_ID);
    bot.halt().await;
    // While the bot is down, a game where the computer moves first is stored (by another
    // process of the bot, say).
    let computer = UserId::new(format!("discord:{}", FakeDiscord::BOT_USER_ID));
    let setup = GameSetup {
        computer: Some(ComputerPlayer {
            user: computer.clone(),
            level: Level::Easy,
        }),
        ..GameSetup::new(VariantId::Chess)
    };
    let alice = UserId::new("discord:1001");
    let request = ChallengeRequest::untimed(&computer, setup, WhitePlayer::Opponent, format!("discord:{CHANNEL}"));
    let game = bot
        .arena
        .challenges()
        .challenge(&alice, request)
        .await
        .unwrap()
        .game
        .unwrap();
    assert!(bot.arena.computer_waiting(game).await.unwrap());

    bot.resume();
    let moved = wait_for_nth(&bot, CHANNEL, 1, |call| {
        content(call).contains(&format!("{} played", mention()))
    })
    .await;
    assert!(content(&moved).contains("<@1001>"), "alice is pinged: {}", moved.json);
    // The game as the bot found it was shown first, pinging nobody: the computer is not pinged.
    let shown = wait_for_posts(&bot, CHANNEL, 1).await;
    assert!(content(&shown).contains("as it stands"), "{}", shown.json);
    let pinged = shown.json["allowed_mentions"]["users"].to_string();
    assert!(!pinged.contains(&FakeDiscord::BOT_USER_ID.to_string()), "{pinged}");
    assert!(!bot.arena.computer_waiting(game).await.unwrap());
    bot.stop().await;
}
