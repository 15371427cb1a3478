//! Every image the bot posts is described in words (its alt text, which screen readers read):
//! in a game of each of the sixteen ids, every attachment carries a description within Discord's
//! 1,024 characters naming whose turn it is (or the result) and the last action; and in Beirut
//! and Capture the Flag, the public images' words name no secret a player's own images name.
//!
//! The describer's wording is its own (`arbiter::render::words`): these tests assert what it
//! guarantees (the length, the seat or player to act, the last action as the view records it, the
//! marks only their owner may see), never its phrases.

use crate::bot::*;
use arbiter::ids::{GameId, UserId};
use arbiter_engine::{Game, Seat, VariantId, View, Viewer};
use fake_discord::{Call, FakeDiscord};
use serde_json::Value;
use serde_json::json;
use std::collections::HashSet;

/// Discord's limit for an attachment's description, in characters.
const MOST_DESCRIPTION_CHARS: usize = 1024;

/// The attachments a call sent (a message, or an interaction's answer), as its payload gave them.
fn attachments(call: &Call) -> Vec<Value> {
    let body = if call.json.get("data").is_some() {
        &call.json["data"]
    } else {
        &call.json
    };
    body["attachments"].as_array().cloned().unwrap_or_default()
}

/// The description of each file a call uploaded; fails the test for a file without one.
fn descriptions(call: &Call) -> Vec<String> {
    let given = attachments(call);
    assert_eq!(
        given.len(),
        call.files.len(),
        "each uploaded file has its attachment entry: {} {}",
        call.path,
        call.json
    );
    given
        .iter()
        .map(|attachment| {
            let description = attachment["description"]
                .as_str()
                .unwrap_or_else(|| panic!("an attachment without a description: {} {}", call.path, call.json));
            assert!(!description.trim().is_empty(), "an empty description: {}", call.json);
            assert!(
                description.chars().count() <= MOST_DESCRIPTION_CHARS,
                "{} characters: {description}",
                description.chars().count()
            );
            description.to_string()
        })
        .collect()
}

/// Every file the bot uploaded since call `start` is described within the limit; how many.
fn all_described(bot: &Bot, start: usize) -> usize {
    bot.fake
        .calls_from(start)
        .iter()
        .filter(|call| !call.files.is_empty())
        .map(|call| descriptions(call).len())
        .sum()
}

fn has(text: &str, words: &str) -> bool {
    !words.is_empty() && text.to_lowercase().contains(&words.to_lowercase())
}

/// The description names whose turn it is (a seat to act by the game's own name for it, or its
/// player) or, the game over, the result; and the last action as `view` records it.
fn assert_turn_and_last_action(description: &str, view: &View, player_names: &[&str; 2]) {
    let seats = [Seat::First, Seat::Second];
    if let Some(outcome) = &view.outcome {
        assert!(
            has(description, outcome.result_text()),
            "{}: the result {} in: {description}",
            view.variant,
            outcome.result_text()
        );
    } else {
        let names_one_to_act = view.to_act.iter().any(|&seat| {
            let i = seats.iter().position(|&s| s == seat).unwrap();
            has(description, &view.seat_names[i]) || has(description, player_names[i])
        });
        assert!(
            names_one_to_act,
            "{}: whose turn ({:?}) in: {description}",
            view.variant, view.to_act
        );
    }
    if let Some(last) = view.record.last() {
        assert!(
            names_action(description, &last.text),
            "{}: the last action \"{}\" in: {description}",
            view.variant,
            last.text
        );
    }
}

/// Whether `description` names the action noted `noted` ("Nf3", "R@a5", "1:e4", "(chose a bomb
/// carrier)"): in words its notation may read otherwise, but every square it names is there, and
/// an action that names no square (a hidden choice, an answer) is there by one of its words, in
/// any of its forms.
fn names_action(description: &str, noted: &str) -> bool {
    let squares = squares_in(noted);
    if !squares.is_empty() {
        return squares.iter().all(|square| words_of(description).contains(square));
    }
    let words: Vec<String> = words_of(noted).into_iter().filter(|word| word.len() >= 4).collect();
    // "reject" reads "rejected".
    let said = words_of(description);
    words.is_empty()
        || words
            .iter()
            .any(|word| said.iter().any(|s| s.starts_with(word.as_str())))
}

/// The squares a text names ("a5", "j10"), lower case.
fn squares_in(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    let mut squares = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let starts = c.is_ascii_lowercase() && (i == 0 || !chars[i - 1].is_ascii_lowercase());
        let digits: String = chars[i + 1..].iter().take_while(|d| d.is_ascii_digit()).collect();
        if starts && ('a'..='j').contains(&c) && (1..=2).contains(&digits.len()) {
            squares.push(format!("{c}{digits}"));
        }
    }
    squares
}

/// A text's words, lower case, split at anything but letters and digits.
fn words_of(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

fn invoker_of(user: &UserId) -> fake_discord::Invoker {
    if *user == UserId::new("discord:1001") {
        alice()
    } else {
        bob()
    }
}

/// Plays up to `most` actions of game `id` through `/move` in `thread`, each the middle one of
/// those its actor is offered; after each, the answer's images are described from the view they
/// were drawn from (the spectators' for a public answer, the actor's for a private one).
async fn play_some(bot: &Bot, id: GameId, thread: u64, most: usize) -> usize {
    let mut checked = 0;
    for _ in 0..most {
        let game = bot.arena.store().game(id).await.unwrap().unwrap();
        if game.state.outcome().is_some() {
            break;
        }
        let Some(&seat) = game.state.to_act().first() else {
            break;
        };
        let user = game.player(seat).unwrap().clone();
        let offered = bot.arena.play().legal_actions(id, &user).await.unwrap();
        // A list to write (Patch, Pick-the-team 2) is not a move: the game's start is described.
        let Some(action) = offered.get(offered.len() / 2) else {
            break;
        };
        let answer = bot.play(&invoker_of(&user), thread, action).await;
        let after = bot.arena.store().game(id).await.unwrap().unwrap();
        let viewer = if is_ephemeral(&answer) {
            Viewer::Seat(seat)
        } else {
            Viewer::Spectator
        };
        let view = after.state.view(viewer);
        for description in descriptions(&answer) {
            assert_turn_and_last_action(&description, &view, &["alice", "bob"]);
            checked += 1;
        }
    }
    checked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_image_in_a_game_of_each_id_is_described_within_discords_limit() {
    let bot = Bot::start().await;
    let mut checked_answers = 0;
    for &variant in VariantId::ALL {
        // The players' rate limits fill again between games (the last one is over: no clock
        // runs meanwhile).
        bot.clock.advance(30_000);
        let start = bot.fake.calls().len();
        let (id, thread) = bot.started(variant_index(variant)).await;
        checked_answers += play_some(&bot, id, thread, 4).await;
        // The game ends (a pair of players has one game at a time): its last image, the result.
        let game = bot.arena.store().game(id).await.unwrap().unwrap();
        if game.state.outcome().is_none() {
            let resigned = bot.command(&bob(), thread, "resign", json!([])).await;
            let over = bot.arena.store().game(id).await.unwrap().unwrap();
            for description in descriptions(&resigned) {
                assert_turn_and_last_action(&description, &over.state.view(Viewer::Spectator), &["alice", "bob"]);
                checked_answers += 1;
            }
        }
        let described = all_described(&bot, start);
        assert!(described > 0, "{variant}: no image was posted");
    }
    assert!(
        checked_answers >= 16,
        "moves were answered with their boards: {checked_answers}"
    );
    // Threads, DMs and private answers alike.
    let dms: Vec<Call> = [1_001, 1_002]
        .iter()
        .flat_map(|&user| posts_in(&bot.fake, FakeDiscord::dm_channel_id(user)))
        .filter(|call| !call.files.is_empty())
        .collect();
    assert!(
        !dms.is_empty(),
        "secret choices were prompted by DM with the player's board"
    );
    assert!(all_described(&bot, 0) > 16);
    bot.stop().await;
}

/// The marks `seat` sees that the spectators do not (its secrets on the board): each as its
/// words (a mark's meaning after the drawing it names, "B: your secret bomb carrier" reading
/// "your secret bomb carrier") and its square.
fn secret_marks(state: &arbiter_engine::AnyGame, seat: Seat) -> Vec<(String, String)> {
    let marks = |viewer| -> Vec<(String, String)> {
        state
            .view(viewer)
            .boards
            .iter()
            .flat_map(|board| board.marks.clone())
            .filter(|mark| !mark.meaning.trim().is_empty())
            .map(|mark| {
                let words = mark
                    .meaning
                    .split_once(": ")
                    .map_or(mark.meaning.as_str(), |(_, what)| what);
                (words.trim().to_string(), mark.square.to_string())
            })
            .collect()
    };
    let public = marks(Viewer::Spectator);
    marks(Viewer::Seat(seat))
        .into_iter()
        .filter(|mark| !public.contains(mark))
        .collect()
}

/// The words of the image in a private answer to `/board` by `who` in `thread`.
async fn own_board_words(bot: &Bot, who: &fake_discord::Invoker, thread: u64) -> String {
    let answer = bot.command(who, thread, "board", json!([])).await;
    assert!(is_ephemeral(&answer), "/board answers privately: {}", answer.json);
    descriptions(&answer)
        .pop()
        .unwrap_or_else(|| panic!("/board shows an image: {}", answer.json))
}

/// alice makes her secret choice (a carrier, a base); while it is hers alone, no public image's
/// words name it, nor the spectators' board that carol asks for, while alice's own board does.
async fn a_secret_stays_out_of_public_words(variant: VariantId) -> (Bot, GameId, u64) {
    let bot = Bot::start().await;
    let (id, thread) = bot.started(variant_index(variant)).await;
    let offered = bot
        .arena
        .play()
        .legal_actions(id, &UserId::new("discord:1001"))
        .await
        .unwrap();
    let choice = offered
        .first()
        .unwrap_or_else(|| panic!("{variant}: alice has a secret to choose"));
    bot.play(&alice(), thread, choice).await;
    let game = bot.arena.store().game(id).await.unwrap().unwrap();
    let secrets = secret_marks(&game.state, Seat::First);
    assert!(!secrets.is_empty(), "{variant}: alice's choice marks her board");

    let calls = bot.fake.calls();
    let mut public_words: Vec<String> = fake_discord::public_calls(&calls, &HashSet::new())
        .iter()
        .filter(|call| !call.files.is_empty())
        .flat_map(|call| descriptions(call))
        .collect();
    // The spectators' board, as anyone who asks sees it.
    public_words.push(own_board_words(&bot, &carol(), thread).await);
    for words in &public_words {
        for (secret, square) in &secrets {
            assert!(
                !has(words, secret),
                "{variant}: \"{secret}\" ({square}) in a public image's words: {words}"
            );
        }
    }
    let own = own_board_words(&bot, &alice(), thread).await;
    assert!(
        secrets
            .iter()
            .any(|(secret, square)| has(&own, secret) && words_of(&own).contains(square)),
        "{variant}: alice's own board names her secret ({secrets:?}): {own}"
    );
    (bot, id, thread)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_beirut_carrier_is_described_to_its_owner_alone() {
    let (bot, id, thread) = a_secret_stays_out_of_public_words(VariantId::Beirut).await;
    // Carriers stay secret in play: bob chooses his, alice moves, and the move's public image
    // names neither.
    let offered = bot
        .arena
        .play()
        .legal_actions(id, &UserId::new("discord:1002"))
        .await
        .unwrap();
    bot.play(&bob(), thread, &offered[0]).await;
    let offered = bot
        .arena
        .play()
        .legal_actions(id, &UserId::new("discord:1001"))
        .await
        .unwrap();
    let moved = bot.play(&alice(), thread, &offered[offered.len() / 2]).await;
    assert!(!is_ephemeral(&moved), "{}", moved.json);
    let state = bot.arena.store().game(id).await.unwrap().unwrap().state;
    let secrets: Vec<(String, String)> = [Seat::First, Seat::Second]
        .into_iter()
        .flat_map(|seat| secret_marks(&state, seat))
        .collect();
    let words = descriptions(&moved);
    assert!(!words.is_empty(), "the move is posted with its board: {}", moved.json);
    for words in words {
        for (secret, _) in &secrets {
            assert!(!has(&words, secret), "\"{secret}\" in the move's public words: {words}");
        }
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ctf_base_is_described_to_its_owner_alone() {
    let (bot, _, _) = a_secret_stays_out_of_public_words(VariantId::Ctf).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_and_a_record_are_described() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(variant_index(VariantId::Chess)).await;
    bot.play(&alice(), thread, "e4").await;
    bot.play(&bob(), thread, "e5").await;
    let replay = bot.command(&carol(), thread, "replay", json!([])).await;
    let words = descriptions(&replay);
    assert_eq!(words.len(), 1, "{}", replay.json);
    // Its caption, then where it ends: the last position, with the last move.
    assert!(has(&words[0], &format!("game #{game}")), "{}", words[0]);
    // Players by their names, never as mentions (a description shows no mention).
    assert!(
        has(&words[0], "alice vs bob") && !words[0].contains("<@"),
        "{}",
        words[0]
    );
    let last = bot
        .arena
        .store()
        .game(game)
        .await
        .unwrap()
        .unwrap()
        .state
        .view(Viewer::Spectator);
    assert!(
        names_action(&words[0], &last.record.last().unwrap().text),
        "{}",
        words[0]
    );
    assert!(has(&words[0], "e5") && has(&words[0], "e4"), "{}", words[0]);

    let export = bot.command(&carol(), thread, "export", json!([])).await;
    let words = descriptions(&export);
    assert_eq!(words, [format!("Game record (PGN) of game #{game}")], "{}", export.json);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piece_card_is_described_by_the_piece_and_its_moves() {
    let bot = Bot::start().await;
    let card = bot
        .command(
            &carol(),
            CHANNEL,
            "piece",
            json!([{ "name": "name", "type": 3, "value": "ptt-chinese-nightrider" }]),
        )
        .await;
    let words = descriptions(&card);
    assert_eq!(words.len(), 1, "{}", card.json);
    // Which piece, its moves by Betza and in words, read plainly (no markdown).
    assert!(
        has(&words[0], "Chinese nightrider") && words[0].contains("nNN") && !words[0].contains("**"),
        "{}",
        words[0]
    );
    bot.stop().await;
}
