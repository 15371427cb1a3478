//! Each server has its own leaderboard: a game rated on one server puts its players on that
//! server's board and on no other's.

use crate::bot::*;
use fake_discord::{FakeDiscord, command_interaction, in_guild};
use serde_json::json;

/// `/leaderboard variant:Chess` asked by carol on `guild`: what it lists.
async fn chess_board(bot: &Bot, guild: u64) -> String {
    let asked = command_interaction(
        next_id(),
        &carol(),
        CHANNEL,
        "leaderboard",
        json!([{ "name": "variant", "type": 4, "value": 0 }]),
    );
    content(&bot.interact(in_guild(asked, guild)).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_rated_on_one_server_is_on_its_leaderboard_and_on_no_other() {
    let bot = Bot::start().await;
    // Alice beats bob on the other server (bob resigns in the game's thread there).
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": 0 }),
        json!({ "name": "opponent", "type": 6, "value": "1002" }),
        json!({ "name": "colour", "type": 4, "value": 1 }),
    ];
    let other = FakeDiscord::OTHER_GUILD_ID;
    let challenge = bot
        .interact(in_guild(challenge_interaction(&alice(), &bob(), options), other))
        .await;
    let accept = button(&challenge, "arb:accept:", "");
    let thread = bot.message_of(&challenge);
    let click = fake_discord::component_interaction(next_id(), &bob(), CHANNEL, &accept, 2, Vec::new(), thread);
    bot.interact(in_guild(click, other)).await;
    let e4 = command_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "e4" }]),
    );
    let moved = bot.interact(in_guild(e4, other)).await;
    assert!(content(&moved).contains("played e4"), "{}", moved.json);
    let resign = command_interaction(next_id(), &bob(), thread, "resign", json!([]));
    let resigned = bot.interact(in_guild(resign, other)).await;
    assert!(content(&resigned).contains("resign"), "{}", resigned.json);

    let there = chess_board(&bot, other).await;
    assert!(
        there.contains("1. <@1001>") && there.contains("2. <@1002>"),
        "the other server's board has them: {there}"
    );
    let here = chess_board(&bot, FakeDiscord::GUILD_ID).await;
    assert!(
        !here.contains("<@1001>") && !here.contains("<@1002>"),
        "this server's board does not: {here}"
    );
    bot.stop().await;
}
