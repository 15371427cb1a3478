//! `/replay` and `/watch` on Discord: a replay is a GIF posted where it was asked, for everyone
//! there; the live pages' links are refused politely on a bot that does not serve them.

use crate::bot::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_is_a_gif_posted_in_the_thread() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(0).await;
    bot.play(&alice(), thread, "e4").await;
    bot.play(&bob(), thread, "e5").await;
    let replay = bot.command(&carol(), thread, "replay", json!([])).await;
    assert!(
        !is_ephemeral(&replay),
        "everyone in the thread sees it: {}",
        replay.json
    );
    let text = content(&replay);
    assert!(
        text.contains(&format!("Replay of game #{game}"))
            && text.contains("<@1001> vs <@1002>")
            && text.contains("3 positions"),
        "{text}"
    );
    let (name, bytes) = replay.files.first().expect("a GIF");
    assert_eq!(name, &format!("game-{game}.gif"));
    assert!(bytes.starts_with(b"GIF89a"), "a GIF file");
    // Three positions, each a frame.
    let mut decoder = gif::DecodeOptions::new().read_info(bytes.as_slice()).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 3);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_says_when_the_bot_serves_no_pages() {
    let bot = Bot::start().await;
    let (_, thread) = bot.started(0).await;
    let answer = bot.command(&carol(), thread, "watch", json!([])).await;
    assert!(is_ephemeral(&answer), "{}", answer.json);
    assert!(
        content(&answer).contains("does not serve live pages") && content(&answer).contains("ARBITER_WEB_ADDR"),
        "{}",
        content(&answer)
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_serving_pages_links_them_from_watch_and_a_death_match() {
    let bot = Bot::start_serving_pages().await;
    let base = bot.pages.as_ref().unwrap().base.clone();
    let (game, thread) = bot.started(0).await;
    let answer = bot.command(&carol(), thread, "watch", json!([])).await;
    assert!(is_ephemeral(&answer), "{}", answer.json);
    let text = content(&answer);
    let links: Vec<&str> = text.lines().filter(|line| line.starts_with("http")).collect();
    assert_eq!(links.len(), 2, "{text}");
    assert!(links[0].starts_with(&format!("{base}/watch/")), "{text}");
    assert!(links[1].starts_with(&format!("{base}/overlay/")), "{text}");
    assert!(
        !links[0].ends_with(&format!("/{game}")),
        "never the game's number: {text}"
    );
    // The page is there, with the players as Discord names them.
    let state = reqwest::get(format!("{}/state", links[0]))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        state.contains("\"name\":\"alice\"") && state.contains("\"name\":\"bob\""),
        "{state}"
    );
    assert_eq!(
        reqwest::get(format!("{base}/watch/0123456789abcdef0123456789abcdef/state"))
            .await
            .unwrap()
            .status(),
        404,
        "a token nobody was given finds nothing"
    );

    // A Death Match's first post carries its links for the audience.
    let started = bot.interact(deathmatch_start(0, None)).await;
    let post = content(&started);
    assert!(
        post.contains("Watch live:")
            && post.contains(&format!("{base}/watch/"))
            && post.contains(&format!("{base}/overlay/")),
        "{post}"
    );
    bot.stop().await;
}
