//! What the clocks announce, delivered through Discord's trouble: a warning that cannot go out
//! before the next one falls due is dropped, and everything else is retried until it is posted.

use crate::bot::*;
use fake_discord::{Call, Failure};

/// A Blockade Death Match on `normal` + `reserve`, alice to move first.
async fn start_match(bot: &Bot, normal: &str, reserve: &str) {
    let announced = bot.interact(deathmatch_start(0, Some((normal, reserve)))).await;
    let first = button(&announced, "arb:first:", "");
    let chosen = bot.click(&alice(), CHANNEL, &first, bot.message_of(&announced)).await;
    assert_eq!(chosen.json["type"], 7, "{}", chosen.json);
    wait_for_nth(bot, CHANNEL, 1, |c| content(c).contains("The match begins")).await;
}

fn posts_saying(bot: &Bot, text: &str) -> Vec<Call> {
    posts_in(&bot.fake, CHANNEL)
        .into_iter()
        .filter(|c| content(c).contains(text))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warning_gone_stale_is_dropped_and_the_rest_get_through_server_errors_and_rate_limits() {
    let bot = Bot::start().await;
    start_match(&bot, "10s", "30s").await;
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    bot.fake.fail("POST", &messages, Failure::ServerError, 1);
    bot.fake
        .fail("POST", &messages, Failure::RateLimited { retry_after: 0.3 }, 1);

    // 2.5 s of normal time left: the warning meets Discord's trouble...
    bot.clock.advance(7_500);
    bot.fake
        .wait_for_call("the first warning, refused", |c| {
            c.path == messages && c.status == 500 && content(c).contains("of normal time left")
        })
        .await;
    // ...and by its next try the normal time is over: it is no longer worth posting.
    bot.clock.advance(2_500);
    let over = bot
        .fake
        .wait_for_call("the second warning, posted", |c| {
            c.path == messages && c.status == 200 && content(c).contains("normal time is over")
        })
        .await;
    assert!(
        posts_saying(&bot, "normal time is over")
            .iter()
            .any(|c| c.status == 429),
        "it waited out a rate limit first"
    );
    assert!(content(&over).contains("<@1001>"));
    let stale: Vec<Call> = posts_saying(&bot, "of normal time left");
    assert_eq!(stale.len(), 1, "the stale warning is tried once, never posted");
    assert_eq!(stale[0].status, 500);

    bot.clock.advance(30_000);
    bot.fake
        .wait_for_call("the forfeit", |c| {
            c.path == messages && c.status == 200 && content(c).contains("ran out of time")
        })
        .await;
    // Stopped, the bot has delivered all it queued: no duplicate can come after the count.
    let fake = bot.fake.clone();
    bot.stop().await;
    let forfeits = posts_in(&fake, CHANNEL)
        .into_iter()
        .filter(|c| content(c).contains("ran out of time"))
        .count();
    assert_eq!(forfeits, 1, "posted once");
}
