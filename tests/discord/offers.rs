//! Draw and takeback offers, aborts, and which game a command means, as players reach them: slash
//! commands and the offer's buttons through the fake Discord.

use crate::bot::*;
use arbiter::model::GameStatus;
use arbiter_engine::{Game, Outcome, Seat};
use fake_discord::Invoker;
use serde_json::json;

const OFFER: u8 = 0;
const ACCEPT: u8 = 1;
const DECLINE: u8 = 2;

/// `/draw` or `/takeback` with an answer, in `channel`.
async fn offer_command(bot: &Bot, who: &Invoker, channel: u64, command: &str, answer: u8) -> fake_discord::Call {
    bot.command(
        who,
        channel,
        command,
        json!([{ "name": "answer", "type": 4, "value": answer }]),
    )
    .await
}

/// What the thread saw of an action: the public answer to it, when it was asked in the thread,
/// or else the bot's post there saying `words`.
async fn public_answer(bot: &Bot, answer: &fake_discord::Call, thread: u64, words: &str) -> fake_discord::Call {
    if content(answer).contains(words) {
        assert!(!is_ephemeral(answer), "the thread sees it: {}", answer.json);
        return answer.clone();
    }
    wait_for_nth(bot, thread, 1, |c| content(c).contains(words)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_is_refused_by_button_then_allowed_and_a_draw_is_agreed_by_command() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(variant_index(arbiter_engine::VariantId::Chess)).await;
    bot.play(&alice(), thread, "e4").await;
    bot.play(&bob(), thread, "e5").await;

    // Alice asks; bob is pinged with the two buttons and refuses with one.
    let asked = offer_command(&bot, &alice(), thread, "takeback", OFFER).await;
    let offer = public_answer(&bot, &asked, thread, "asks to take back their last move").await;
    assert!(
        content(&offer).contains("<@1002>"),
        "bob is pinged: {}",
        content(&offer)
    );
    let declined = bot.click_on_post(&bob(), thread, &offer, "arb:takeback-no:").await;
    public_answer(&bot, &declined, thread, "declined the takeback offer").await;
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(
        bot.arena.store().log(game).await.unwrap().len(),
        2,
        "nothing taken back"
    );
    assert!(row.offer.is_none(), "the refused offer is gone");

    // Asked again and allowed: both plies go (her move and the reply), White to move again.
    let asked = offer_command(&bot, &alice(), thread, "takeback", OFFER).await;
    let offer = public_answer(&bot, &asked, thread, "asks to take back their last move").await;
    let allowed = bot.click_on_post(&bob(), thread, &offer, "arb:takeback-yes:").await;
    let taken = public_answer(
        &bot,
        &allowed,
        thread,
        "agreed to take back <@1001>'s e4 and <@1002>'s e5.",
    )
    .await;
    assert_png(&taken);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.state.to_act(), vec![Seat::First]);
    assert_eq!(
        bot.arena
            .store()
            .log(game)
            .await
            .unwrap()
            .last()
            .map(|e| e.notation.clone()),
        Some("takeback 2".to_string()),
        "the takeback is in the record"
    );

    // Back at the start: e4 is a move again (the pawn went home).
    bot.play(&alice(), thread, "e4").await;
    let log = bot.arena.store().log(game).await.unwrap();
    assert_eq!(log.last().map(|e| e.notation.as_str()), Some("e4"), "e4 played again");

    // A draw offered by command and accepted by command ends the game drawn.
    let offered = offer_command(&bot, &bob(), thread, "draw", OFFER).await;
    let offer = public_answer(&bot, &offered, thread, "offers a draw").await;
    assert!(
        custom_ids(&offer.json).iter().any(|id| id.starts_with("arb:draw-yes:")),
        "the offer has its buttons: {}",
        offer.json
    );
    let own = offer_command(&bot, &bob(), thread, "draw", ACCEPT).await;
    assert!(
        is_ephemeral(&own) && content(&own).contains("you cannot answer your own offer"),
        "{}",
        own.json
    );
    let agreed = offer_command(&bot, &alice(), thread, "draw", ACCEPT).await;
    public_answer(&bot, &agreed, thread, "Draw agreed.").await;
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.state.outcome().map(|o: &Outcome| o.winner), Some(None), "a draw");
    // Nothing to answer any more: a late decline changes nothing and says why.
    let late = offer_command(&bot, &bob(), thread, "draw", DECLINE).await;
    assert!(is_ephemeral(&late), "{}", late.json);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abort_before_both_have_moved_ends_the_game_for_nobody() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(variant_index(arbiter_engine::VariantId::Chess)).await;
    let aborted = bot.command(&bob(), thread, "abort", json!([])).await;
    assert!(!content(&aborted).is_empty(), "{}", aborted.json);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(
        row.state.outcome().map(|o| o.reason),
        Some(arbiter_engine::EndReason::Aborted),
        "aborted, counting for nobody"
    );
    // Once both have moved, an abort is refused, privately, and the game goes on.
    let (game, thread) = bot.started(variant_index(arbiter_engine::VariantId::Chess)).await;
    bot.play(&alice(), thread, "e4").await;
    bot.play(&bob(), thread, "e5").await;
    let refused = bot.command(&alice(), thread, "abort", json!([])).await;
    assert!(is_ephemeral(&refused), "{}", refused.json);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Active);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_without_a_game_means_this_threads_game_or_the_only_one_and_asks_otherwise() {
    let bot = Bot::start().await;
    let chess = variant_index(arbiter_engine::VariantId::Chess);
    // None: said so, privately.
    let none = bot.command(&carol(), CHANNEL, "resign", json!([])).await;
    assert!(is_ephemeral(&none), "{}", none.json);
    assert!(content(&none).contains("there is no game here"), "{}", content(&none));
    // One: meant, from anywhere.
    let (first, _) = bot.started(chess).await;
    let (second, second_thread) = bot.started(chess).await;
    // Two, asked about outside their threads: both named, nothing done.
    let which = bot.command(&alice(), CHANNEL, "resign", json!([])).await;
    let said = content(&which);
    assert!(is_ephemeral(&which), "{}", which.json);
    assert!(
        said.contains("you have several games")
            && said.contains(&format!("#{first}"))
            && said.contains(&format!("#{second}")),
        "{said}"
    );
    for id in [first, second] {
        let row = bot.arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Active, "game #{id} goes on");
    }
    // In a game's thread, that game; elsewhere, the one named.
    bot.command(&alice(), second_thread, "resign", json!([])).await;
    let row = bot.arena.store().game(second).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.state.outcome().unwrap().winner, Some(Seat::Second));
    let named = bot
        .command(
            &bob(),
            CHANNEL,
            "resign",
            json!([{ "name": "game", "type": 4, "value": first.get() }]),
        )
        .await;
    assert!(!content(&named).is_empty(), "{}", named.json);
    let row = bot.arena.store().game(first).await.unwrap().unwrap();
    assert_eq!(
        row.state.outcome().unwrap().winner,
        Some(Seat::First),
        "bob resigned #{first}"
    );
    bot.stop().await;
}

/// `/legal` and `/moves` answer the asker alone: every action they may write now (all of them,
/// which Discord's suggestions, 25 at most, cannot show), and the moves so far.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legal_and_moves_answer_the_asker_alone() {
    let bot = Bot::start().await;
    let (_, thread) = bot.started(variant_index(arbiter_engine::VariantId::Chess)).await;
    let legal = bot.command(&alice(), thread, "legal", json!([])).await;
    assert!(is_ephemeral(&legal), "{}", legal.json);
    assert_eq!(content(&legal).split(' ').count(), 20, "{}", content(&legal));
    assert!(
        content(&legal).contains("Nf3") && content(&legal).contains("e4"),
        "{}",
        content(&legal)
    );
    let out_of_turn = bot.command(&bob(), thread, "legal", json!([])).await;
    assert!(
        content(&out_of_turn).contains("not your turn"),
        "{}",
        content(&out_of_turn)
    );

    bot.play(&alice(), thread, "e4").await;
    let moves = bot.command(&bob(), thread, "moves", json!([])).await;
    assert!(is_ephemeral(&moves), "{}", moves.json);
    assert!(content(&moves).contains("1. e4"), "{}", content(&moves));
    assert!(moves.files.is_empty(), "the moves alone, no board: {}", moves.json);
    bot.stop().await;
}

/// An option in a shape the command does not take (a choice out of range, text for a number)
/// is refused in words, and the game is as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_option_in_the_wrong_shape_is_refused_and_changes_nothing() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(variant_index(arbiter_engine::VariantId::Chess)).await;
    let out_of_range = offer_command(&bot, &alice(), thread, "draw", 7).await;
    assert!(is_ephemeral(&out_of_range), "{}", out_of_range.json);
    assert!(
        content(&out_of_range).contains("the answer option came in a form I cannot read"),
        "{}",
        content(&out_of_range)
    );
    let wrong_kind = bot
        .command(
            &alice(),
            thread,
            "resign",
            json!([{ "name": "game", "type": 3, "value": "one" }]),
        )
        .await;
    assert!(
        content(&wrong_kind).contains("the game option came in a form I cannot read"),
        "{}",
        content(&wrong_kind)
    );
    let missing = bot.command(&alice(), thread, "move", json!([])).await;
    assert!(
        content(&missing).contains("the action option is missing"),
        "{}",
        content(&missing)
    );
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Active);
    assert!(row.offer.is_none(), "no offer was made");
    assert!(
        bot.arena.store().log(game).await.unwrap().is_empty(),
        "no move was made"
    );
    bot.stop().await;
}
