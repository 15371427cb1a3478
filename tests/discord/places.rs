//! Games whose place goes wrong on Discord: a thread archived for inactivity, locked or deleted
//! by a moderator, a channel the bot may no longer post in. The game stays playable, its posts
//! move somewhere that works, its players are told, and nothing saved goes unshown.

use crate::bot::*;
use arbiter::ids::GameId;
use arbiter::ids::Place;
use arbiter::ids::UserId;
use arbiter::model::GameStatus;
use arbiter_engine::VariantId;
use fake_discord::Failure;
use serde_json::json;

/// `/move action game:N` in `channel`.
async fn play_in(
    bot: &Bot,
    who: &fake_discord::Invoker,
    channel: u64,
    action: &str,
    game: GameId,
) -> fake_discord::Call {
    bot.command(
        who,
        channel,
        "move",
        json!([
            { "name": "action", "type": 3, "value": action },
            { "name": "game", "type": 4, "value": game },
        ]),
    )
    .await
}

async fn location_of(bot: &Bot, game: GameId) -> Place {
    bot.arena.store().game(game).await.unwrap().unwrap().location
}

/// A chess game alice (White) and bob began, once its first post is in its place (its thread,
/// or the channel when no thread could be opened): the game and that place.
async fn chess_begun(bot: &Bot) -> (GameId, u64) {
    let (game, _) = bot.started(variant_index(VariantId::Chess)).await;
    let location = location_of(bot, game).await;
    let place: u64 = location.local_part().parse().unwrap();
    wait_for_nth(bot, place, 1, |c| content(c).contains("The game begins")).await;
    (game, place)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_game_thread_is_reopened_and_a_locked_one_hands_its_game_to_the_channel() {
    let bot = Bot::start().await;
    let (game, thread) = chess_begun(&bot).await;

    // Discord archives the thread after a week without posts: the bot reopens it at once.
    bot.fake.archive_thread(thread, false).await;
    let reopened = bot
        .fake
        .wait_for_call("the thread reopened", |c| {
            c.method == "PATCH" && c.path == format!("/api/v10/channels/{thread}")
        })
        .await;
    assert_eq!(reopened.json["archived"], false, "{}", reopened.json);
    assert!(!bot.fake.is_archived(thread));
    let answer = bot.play(&alice(), thread, "e4").await;
    assert!(content(&answer).contains("e4"), "{}", answer.json);
    // Players are remembered by the names they go by, for boards drawn after a restart.
    let stored = bot
        .arena
        .store()
        .display_name(&arbiter::ids::UserId::new("discord:1001"))
        .await
        .unwrap();
    assert_eq!(stored.as_deref(), Some("alice"));

    // A moderator locks it: the game moves to the channel, where both players are told.
    bot.fake.archive_thread(thread, true).await;
    let notice = wait_for_nth(&bot, CHANNEL, 1, |c| content(c).contains("carries on here")).await;
    let text = content(&notice);
    assert!(text.contains(&format!("Game #{game}")), "{text}");
    assert_eq!(
        notice.json["allowed_mentions"]["users"],
        json!(["1001", "1002"]),
        "both players are pinged"
    );
    assert_png(&notice);
    assert_eq!(location_of(&bot, game).await, format!("discord:{CHANNEL}"));
    // The game goes on in the channel, with the buttons of the notice's version.
    let answer = bot.play(&bob(), CHANNEL, "e5").await;
    assert!(
        content(&answer).contains("e5") && !is_ephemeral(&answer),
        "{}",
        answer.json
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_deleted_while_the_bot_was_away_moves_its_game_and_the_saved_move_is_shown() {
    let bot = Bot::start().await;
    let (game, thread) = chess_begun(&bot).await;
    // Deleted with no event (the bot was down): the bot learns it when it next posts there.
    bot.fake.delete_channel(thread, false).await;
    let answer = play_in(&bot, &alice(), CHANNEL, "e4", game).await;
    assert!(
        is_ephemeral(&answer),
        "the mover is answered privately: {}",
        answer.json
    );
    let moved = wait_for_nth(&bot, CHANNEL, 1, |c| {
        content(c).contains("e4") && !content(c).contains("carries on here") && !is_ephemeral(c)
    })
    .await;
    assert_png(&moved);
    let notice = posts_in(&bot.fake, CHANNEL)
        .into_iter()
        .find(|c| content(c).contains("carries on here"))
        .expect("the players are told where the game went");
    assert!(notice.at <= moved.at, "told before the move is shown");
    assert_eq!(location_of(&bot, game).await, format!("discord:{CHANNEL}"));
    let stored = bot.arena.store().log(game).await.unwrap();
    assert_eq!(stored.len(), 1, "the move is saved once");
    // bob answers from the move's own buttons and commands, in the channel.
    let answer = bot.play(&bob(), CHANNEL, "e5").await;
    assert!(content(&answer).contains("e5"), "{}", answer.json);
    bot.stop().await;
}

/// Found by the soak: a game resigned just as its thread was deleted showed its result twice in
/// the channel, once on the "carries on here" notice and once on the resignation's own post.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ending_as_its_thread_is_deleted_shows_its_result_once_in_the_channel() {
    let bot = Bot::start().await;
    let (game, thread) = chess_begun(&bot).await;
    bot.fake.delete_channel(thread, false).await;
    let resigned = bot
        .command(
            &alice(),
            CHANNEL,
            "resign",
            json!([{ "name": "game", "type": 4, "value": game }]),
        )
        .await;
    assert!(is_ephemeral(&resigned), "{}", resigned.json);
    let result = wait_for_nth(&bot, CHANNEL, 1, |c| content(c).contains("wins by resignation")).await;
    assert!(content(&result).contains("resigned"), "{}", result.json);
    assert_png(&result);
    assert_eq!(location_of(&bot, game).await, format!("discord:{CHANNEL}"));
    // Everything queued is out once the bot stops: no second result, no notice that the game
    // carries on.
    let fake = bot.fake.clone();
    bot.stop().await;
    let posts = posts_in(&fake, CHANNEL);
    let results = posts.iter().filter(|c| content(c).contains("wins by")).count();
    assert_eq!(results, 1, "{:?}", posts.iter().map(content).collect::<Vec<_>>());
    assert!(!posts.iter().any(|c| content(c).contains("carries on here")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_deleted_by_a_moderator_hands_its_game_to_the_channel_at_once() {
    let bot = Bot::start().await;
    let (game, thread) = chess_begun(&bot).await;
    bot.fake.delete_channel(thread, true).await;
    let notice = wait_for_nth(&bot, CHANNEL, 1, |c| content(c).contains("carries on here")).await;
    assert!(content(&notice).contains(&format!("Game #{game}")));
    assert!(content(&notice).contains("to move"), "{}", notice.json);
    assert_png(&notice);
    assert_eq!(location_of(&bot, game).await, format!("discord:{CHANNEL}"));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_nowhere_left_to_post_is_sent_to_its_players_by_dm() {
    let bot = Bot::start().await;
    // No thread can be opened: the game is played in the channel itself, its only place.
    bot.fake
        .fail("POST", "/threads", Failure::MissingPermissions, usize::MAX);
    let (game, place) = chess_begun(&bot).await;
    assert_eq!(place, CHANNEL);
    // Then the bot loses the right to post there; alice moves from another channel.
    bot.fake.close_channel(CHANNEL);
    let elsewhere = CHANNEL + 1;
    let answer = play_in(&bot, &alice(), elsewhere, "e4", game).await;
    assert!(is_ephemeral(&answer), "{}", answer.json);
    for player in [1_001, 1_002] {
        let dm = fake_discord::FakeDiscord::dm_channel_id(player);
        let told = wait_for_nth(&bot, dm, 1, |c| content(c).contains("can no longer post")).await;
        let text = content(&told);
        assert!(text.contains(&format!("game #{game}")) && text.contains("e4"), "{text}");
        assert_png(&told);
    }
    assert_eq!(bot.arena.store().log(game).await.unwrap().len(), 1, "the move is saved");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_refused_as_archived_reopens_the_thread_and_goes_out() {
    let bot = Bot::start().await;
    let (game, thread) = chess_begun(&bot).await;
    // Archived while the bot was away (no event): its next post there is refused.
    let messages = format!("/api/v10/channels/{thread}/messages");
    bot.fake.fail("POST", &messages, Failure::ArchivedThread, 1);
    let answer = play_in(&bot, &alice(), CHANNEL, "e4", game).await;
    assert!(is_ephemeral(&answer), "{}", answer.json);
    let moved = wait_for_nth(&bot, thread, 1, |c| c.status == 200 && content(c).contains("played e4")).await;
    let reopened = bot
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "PATCH" && c.path == format!("/api/v10/channels/{thread}"))
        .expect("the thread is reopened");
    assert!(reopened.at < moved.at && reopened.json["archived"] == false);
    assert_eq!(
        location_of(&bot, game).await,
        format!("discord:{thread}"),
        "the game stays"
    );
    bot.stop().await;
}

/// Where the bot may not post files or open threads, starting a game, a match or a tournament is
/// refused at once, privately, naming what is missing, and nothing is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_where_the_bot_lacks_permissions_is_refused_with_what_is_missing() {
    let bot = Bot::start().await;
    // View, send, embed, history, use commands: no attaching files, no threads.
    use fake_discord::permissions::*;
    let limited = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS;
    bot.fake.set_bot_permissions(CHANNEL, limited);
    let options = vec![
        json!({ "name": "variant", "type": 4, "value": 0 }),
        json!({ "name": "opponent", "type": 6, "value": "1002" }),
    ];
    let challenge = challenge_interaction(&alice(), &bob(), options);
    let refused = bot.interact(challenge).await;
    let text = content(&refused);
    assert!(is_ephemeral(&refused), "{}", refused.json);
    assert!(
        text.contains("cannot start a game here")
            && text.contains("attach files")
            && text.contains("create public threads")
            && text.contains("send messages in threads"),
        "{text}"
    );
    let statuses = [GameStatus::Challenge, GameStatus::Active];
    let games = bot
        .arena
        .store()
        .games_of(&UserId::new("discord:1001"), &statuses)
        .await
        .unwrap();
    assert!(games.is_empty(), "no challenge was made");

    let refused = bot.interact(deathmatch_start(0, None)).await;
    assert!(
        is_ephemeral(&refused)
            && content(&refused)
                .contains("cannot run a Death Match here: this channel does not allow me to attach files"),
        "{}",
        refused.json
    );
    assert!(posts_in(&bot.fake, CHANNEL).is_empty(), "nothing was posted");
    bot.stop().await;
}
