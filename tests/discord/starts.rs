//! Start positions players give, through Discord (RULES.md, "Start positions that players
//! give"): `/challenge fen` and `/practice fen` of a position its game cannot play are refused
//! privately with the reason, and nothing is created; a tricky but legal start plays on.

use crate::bot::*;
use arbiter::model::GameStatus;
use arbiter_engine::VariantId;
use fake_discord::command_interaction;
use serde_json::json;

/// Every game alice has, in any state.
async fn games_of_alice(bot: &Bot) -> usize {
    let all = [
        GameStatus::Challenge,
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Declined,
        GameStatus::Cancelled,
    ];
    let alice = arbiter::ids::UserId::new("discord:1001");
    bot.arena.store().games_of(&alice, &all).await.unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_its_game_cannot_play_is_refused_privately_and_nothing_is_created() {
    let bot = Bot::start().await;
    let chess = variant_index(VariantId::Chess);
    let fen = |value: &str| vec![json!({ "name": "fen", "type": 3, "value": value })];
    let refused = bot
        .challenge_with(&alice(), &bob(), chess, 1, fen("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"))
        .await;
    assert!(is_ephemeral(&refused), "{}", refused.json);
    assert!(
        content(&refused).contains(
            "that position cannot start a game: Black's king on e8 is in check with White to move: it could be taken"
        ),
        "{}",
        refused.json
    );
    let beirut = variant_index(VariantId::Beirut);
    let refused = bot
        .challenge_with(&alice(), &bob(), beirut, 1, fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
        .await;
    assert!(
        content(&refused).contains("White has no unit but its king to carry the bomb"),
        "{}",
        refused.json
    );
    let practice = command_interaction(
        next_id(),
        &alice(),
        CHANNEL,
        "practice",
        json!([
            { "name": "variant", "type": 4, "value": chess },
            { "name": "fen", "type": 3, "value": "8/8/8/8/8/8/8/8 w - - 0 1" },
        ]),
    );
    let refused = bot.interact(practice).await;
    assert!(is_ephemeral(&refused), "{}", refused.json);
    assert!(
        content(&refused).contains("that position cannot start a game: White has no king"),
        "{}",
        refused.json
    );
    assert_eq!(games_of_alice(&bot).await, 0, "nothing was created");
    assert!(
        posts_in(&bot.fake, CHANNEL).is_empty(),
        "nothing was posted in the channel"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn black_to_move_with_its_en_passant_square_plays_on() {
    let bot = Bot::start().await;
    let (_, thread) = bot
        .started_from(
            variant_index(VariantId::Chess),
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        )
        .await;
    let taken = bot.play(&bob(), thread, "dxe3").await;
    assert!(content(&taken).contains("played dxe3"), "{}", taken.json);
    bot.stop().await;
}
