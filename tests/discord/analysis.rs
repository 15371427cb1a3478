//! `/analyse` on Discord: a finished game's analysis is posted where it was asked, for everyone
//! there, with its graph and the worst turning point's board, each image described in words; a
//! game still being played is refused privately.

use crate::bot::*;
use fake_discord::{Call, FakeDiscord, command_interaction};
use serde_json::json;

/// carol's answer to `command` in the game's thread: the interaction's answer, or where the bot
/// deferred it (an analysis may take longer than Discord's 3 seconds), the message that settled
/// the placeholder, shaped as an answer.
async fn settled(bot: &Bot, thread: u64, command: &str) -> Call {
    let id = next_id();
    let first = bot
        .interact(command_interaction(id, &carol(), thread, command, json!([])))
        .await;
    if first.json["type"] != 5 {
        return first;
    }
    let original = format!(
        "/api/v10/webhooks/{}/token{id}/messages/@original",
        FakeDiscord::APPLICATION_ID
    );
    let settled = bot
        .fake
        .wait_for_call("the placeholder settled", |c| c.method == "PATCH" && c.path == original)
        .await;
    Call {
        json: json!({ "type": 4, "data": settled.json }),
        ..settled
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_analysis_is_posted_with_its_graph_and_board() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(0).await;
    let early = bot.command(&carol(), thread, "analyse", json!([])).await;
    assert!(is_ephemeral(&early), "{}", early.json);
    assert!(content(&early).contains("is not over"), "{}", content(&early));
    for (who, action) in [
        (alice(), "e4"),
        (bob(), "e5"),
        (alice(), "Bc4"),
        (bob(), "Nc6"),
        (alice(), "Qh5"),
        (bob(), "Nf6"),
        (alice(), "Qxf7#"),
    ] {
        bot.play(&who, thread, action).await;
    }
    let answer = settled(&bot, thread, "analyse").await;
    assert!(
        !is_ephemeral(&answer),
        "everyone in the thread sees it: {}",
        answer.json
    );
    let text = content(&answer);
    assert!(
        text.contains(&format!("Analysis of game #{game}"))
            && text.contains("<@1001>")
            && text.contains("3... Nf6?? (blunder"),
        "{text}"
    );
    let names: Vec<&str> = answer.files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, [format!("game-{game}-analysis.png").as_str(), "board.png"]);
    for (_, bytes) in &answer.files {
        assert!(bytes.starts_with(b"\x89PNG"), "a PNG");
    }
    let attachments = answer.json["data"]["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let described: Vec<&str> = attachments.iter().filter_map(|a| a["description"].as_str()).collect();
    assert_eq!(described.len(), 2, "{}", answer.json);
    assert!(
        described[0].contains("White's winning chance") && described[0].contains("3... Nf6??"),
        "{}",
        described[0]
    );
    assert!(described[1].starts_with("Instead of 3... Nf6: "), "{}", described[1]);
    bot.stop().await;
}
