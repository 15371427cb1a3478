//! Death Matches through the fake Discord, as a show's host runs them: the host starts a match,
//! the player holding the Advantage chooses colours, and the match ends on the board (Blockade)
//! or on time, with the warnings on the way.

use crate::bot::*;
use arbiter::ids::GameId;
use arbiter_engine::Game;
use serde_json::json;

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
