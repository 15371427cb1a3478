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

/// A server's ladder, as the store keeps it: `user`'s ratings there.
async fn ratings_on(bot: &Bot, guild: u64, user: u64) -> Vec<arbiter::ratings::Rating> {
    let server = arbiter::ids::ServerId::new(format!("discord-guild:{guild}"));
    let user = arbiter::ids::UserId::new(format!("discord:{user}"));
    bot.arena.store().ratings_of(Some(&server), &user).await.unwrap()
}

/// `user`'s games of `variant` on a server's ladder.
async fn games_on(bot: &Bot, guild: u64, user: u64, variant: arbiter_engine::VariantId) -> Option<i64> {
    let ratings = ratings_on(bot, guild, user).await;
    ratings
        .iter()
        .find(|rating| rating.variant == variant)
        .map(|rating| rating.games)
}

/// The host rules the match on its post's game to alice.
async fn adjudicate_to_alice(bot: &Bot, game: i64) -> fake_discord::Call {
    let mut adjudicate = host_command(
        "deathmatch",
        json!([{ "name": "adjudicate", "type": 1, "options": [
            { "name": "result", "type": 4, "value": 0 },
            { "name": "winner", "type": 6, "value": "1001" },
            { "name": "game", "type": 4, "value": game },
        ] }]),
    );
    adjudicate["data"]["resolved"] = json!({ "users": { "1001": fake_discord::user_json(1_001, "alice", false) } });
    bot.interact(adjudicate).await
}

/// A host may start a match between any two members, but only the players' own consent makes it
/// rated: without it the host's ruling moves nobody's rating (and the match says so); with it the
/// result moves this server's ladder and no other server's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_death_match_is_rated_only_when_both_players_accept_and_only_on_its_server() {
    use arbiter_engine::VariantId::{Blockade, Chess};
    let bot = Bot::start().await;
    let other = FakeDiscord::OTHER_GUILD_ID;
    let here = FakeDiscord::GUILD_ID;
    // Bob's rating on the other server, from a rated game there.
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": 0 }),
        json!({ "name": "opponent", "type": 6, "value": "1001" }),
    ];
    let challenge = bot
        .interact(in_guild(challenge_interaction(&bob(), &alice(), options), other))
        .await;
    let accept = button(&challenge, "arb:accept:", "");
    let thread = bot.message_of(&challenge);
    let click = fake_discord::component_interaction(next_id(), &alice(), CHANNEL, &accept, 2, Vec::new(), thread);
    bot.interact(in_guild(click, other)).await;
    let resign = command_interaction(next_id(), &alice(), thread, "resign", json!([]));
    bot.interact(in_guild(resign, other)).await;
    assert_eq!(games_on(&bot, other, 1002, Chess).await, Some(1));
    let bobs_elsewhere = ratings_on(&bot, other, 1002).await;

    // Without consent: played, ruled, and not rated.
    let started = bot.interact(deathmatch_start(0, None)).await;
    let said = content(&started);
    assert!(
        said.contains("Rated only if both players accept (`/deathmatch rated`) before the first placement")
            && said.contains("Waiting for <@1001> and <@1002>"),
        "{said}"
    );
    let rated = button(&started, "arb:rated:", "");
    let game: i64 = rated.split(':').nth(2).unwrap().parse().unwrap();
    bot.click(
        &alice(),
        CHANNEL,
        &button(&started, "arb:first:", ""),
        bot.message_of(&started),
    )
    .await;
    let ruled = adjudicate_to_alice(&bot, game).await;
    assert!(
        content(&ruled).contains("<@1009> adjudicated the match to <@1001>"),
        "{}",
        ruled.json
    );
    assert!(
        content(&ruled).contains("wins by adjudication. Not rated."),
        "{}",
        ruled.json
    );
    for player in [1001, 1002] {
        assert_eq!(games_on(&bot, here, player, Blockade).await, None, "{player}");
    }

    // With both players' consent, given on the match's first post before the colours.
    let started = bot.interact(deathmatch_start(0, None)).await;
    let rated = button(&started, "arb:rated:", "");
    let game: i64 = rated.split(':').nth(2).unwrap().parse().unwrap();
    let message = bot.message_of(&started);
    let by_carol = bot.click(&carol(), CHANNEL, &rated, message).await;
    assert!(
        content(&by_carol).contains("only the two players of Death Match"),
        "{}",
        by_carol.json
    );
    let by_alice = bot.click(&alice(), CHANNEL, &rated, message).await;
    assert!(
        content(&by_alice).contains(&format!(
            "<@1001> accepts that **Death Match #{game}** is rated. It is once <@1002> accepts too"
        )),
        "{}",
        by_alice.json
    );
    assert_eq!(by_alice.json["data"]["allowed_mentions"]["users"], json!(["1002"]));
    let by_bob = bot.click(&bob(), CHANNEL, &rated, message).await;
    assert!(
        content(&by_bob).contains(&format!("Both players accepted: **Death Match #{game}** is rated")),
        "{}",
        by_bob.json
    );
    // The colours are still the Advantage holder's to choose on the same post.
    let chose = bot
        .click(&alice(), CHANNEL, &button(&started, "arb:first:", ""), message)
        .await;
    assert!(!content(&chose).contains("⚠️"), "{}", chose.json);
    let ruled = adjudicate_to_alice(&bot, game).await;
    assert!(
        content(&ruled).contains("wins by adjudication. Rated on this server's ladder."),
        "{}",
        ruled.json
    );
    assert_eq!(games_on(&bot, here, 1001, Blockade).await, Some(1));
    assert_eq!(games_on(&bot, here, 1002, Blockade).await, Some(1));
    // Another server's ladder is untouched: nothing new there, bob's chess rating as it was.
    assert_eq!(games_on(&bot, other, 1001, Blockade).await, None);
    assert_eq!(ratings_on(&bot, other, 1002).await, bobs_elsewhere);
    bot.stop().await;
}
