//! Names Discord users go by, and names in the records they import, reach public posts, thread
//! names and board images with only what a reader can see: a display name holding a direction
//! override, an isolate, a zero-width space and an escape shows as the name without them.

use crate::bot::*;
use fake_discord::{Invoker, command_interaction, public_calls};
use serde_json::json;
use std::collections::HashSet;

/// What no public call may hold: a direction override, a direction isolate, a zero-width space,
/// an escape (raw, or as JSON writes it).
const HIDDEN: [&str; 5] = ["\u{202E}", "\u{2066}", "\u{200B}", "\u{1B}", "\\u001b"];

/// alice, going by a display name that reads "alice" once what cannot be seen is gone.
fn hidden_alice() -> Invoker {
    Invoker {
        user_id: 1_001,
        name: "\u{202E}al\u{2066}ice\u{200B}\u{1B}".into(),
    }
}

/// Another member, going by "alice" plainly.
fn plain_alice() -> Invoker {
    Invoker {
        user_id: 1_004,
        name: "alice".into(),
    }
}

/// A chess challenge by `who` (White) to bob, accepted: the game's thread.
async fn accepted(bot: &Bot, who: &Invoker) -> u64 {
    let challenge = bot.challenge(who, &bob(), 0, 1).await;
    let accept = custom_ids(&challenge.json)
        .into_iter()
        .find(|id| id.starts_with("arb:accept:"))
        .expect("an Accept button");
    let message = bot.message_of(&challenge);
    bot.click(&bob(), CHANNEL, &accept, message).await;
    message
}

/// The pixels (RGBA, with the size) of the board image first posted in `thread`.
async fn first_board(bot: &Bot, thread: u64) -> (u32, u32, Vec<u8>) {
    let messages = format!("/api/v10/channels/{thread}/messages");
    let post = bot
        .fake
        .wait_for_call("the board in the thread", |c| c.path == messages && !c.files.is_empty())
        .await;
    assert_png(&post);
    let mut decoder = png::Decoder::new(std::io::Cursor::new(post.files[0].1.clone()));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut pixels).expect("one frame");
    pixels.truncate(frame.buffer_size());
    (frame.width, frame.height, pixels)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invisible_characters_in_names_reach_no_post_thread_name_or_image() {
    let bot = Bot::start().await;
    let hidden = hidden_alice();
    let thread = accepted(&bot, &hidden).await;
    let drawn = first_board(&bot, thread).await;

    // A record whose names hold the same characters, imported to study: its names are in the
    // public post.
    let record = "[White \"Mal\u{202E}lory\u{200B}\u{1B}\"]\n[Black \"\u{2066}Eve\u{2069}\"]\n\n1. e4 *\n";
    let attachment = bot.fake.attach("game.pgn", record.as_bytes());
    let id = attachment["id"].as_str().unwrap().to_string();
    let options = json!([
        { "name": "file", "type": 11, "value": id },
        { "name": "side", "type": 4, "value": 0 },
    ]);
    let mut import = command_interaction(next_id(), &hidden, CHANNEL, "import", options);
    import["data"]["resolved"] = json!({ "attachments": { id: attachment } });
    let imported = bot.interact(import).await;
    assert!(
        content(&imported).contains("(Mallory vs Eve, 1 action)"),
        "{}",
        imported.json
    );

    // The same game begun by a member going by "alice" plainly draws the very same pixels.
    let plain_thread = accepted(&bot, &plain_alice()).await;
    let plain = first_board(&bot, plain_thread).await;
    assert_eq!((drawn.0, drawn.1), (plain.0, plain.1), "the images' sizes");
    assert!(
        drawn.2 == plain.2,
        "the board of the hidden name differs from the board of the name as shown"
    );

    let calls = bot.fake.calls();
    let threads: Vec<String> = calls
        .iter()
        .filter(|c| c.path.ends_with("/threads"))
        .map(|c| c.json["name"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(threads, ["#1 Chess: alice vs bob", "#3 Chess: alice vs bob"]);
    let public = public_calls(&calls, &HashSet::new());
    assert!(public.len() >= 6, "the challenges, threads, boards and the import");
    for call in public {
        let sent = call.json.to_string();
        for hidden in HIDDEN {
            assert!(
                !sent.contains(hidden),
                "{hidden:?} in {} {}: {sent}",
                call.method,
                call.path
            );
        }
    }
    bot.stop().await;
}
