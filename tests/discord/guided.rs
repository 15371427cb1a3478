//! Playing without typing: every game to its end by the **Move** button's menus (what acts, where,
//! then the rest of the turn), the **Choose privately** prompts and a list drawn by a button;
//! choices past what one menu holds; a stale menu refused.

use crate::bot::*;
use arbiter::arena::guide::guided;
use arbiter::ids::GameId;
use arbiter::model::GameRow;
use arbiter_engine::ai::evaluate::Evaluator;
use arbiter_engine::view::PromptKind;
use arbiter_engine::{Action, AnyGame, Game, Seat, VariantId, Viewer};
use fake_discord::{Call, Invoker, component_interaction};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::Value;
use std::time::Duration;

/// Every component of a message (a menu, a button), row by row.
fn components(body: &Value) -> impl Iterator<Item = &Value> {
    let rows = body["components"]
        .as_array()
        .or_else(|| body["data"]["components"].as_array());
    rows.into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
}

/// Every select menu of a message: its custom id and its options' values.
fn menus(body: &Value) -> Vec<(String, Vec<String>)> {
    components(body)
        .filter_map(|component| {
            let options = component["options"].as_array()?;
            let values = options
                .iter()
                .map(|o| o["value"].as_str().unwrap().to_string())
                .collect();
            Some((component["custom_id"].as_str()?.to_string(), values))
        })
        .collect()
}

/// The buttons of a message: custom id and label.
fn buttons(body: &Value) -> Vec<(String, String)> {
    components(body)
        .filter(|component| component["type"] == 2)
        .map(|b| {
            (
                b["custom_id"].as_str().unwrap_or_default().to_string(),
                b["label"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn invoker_of(row: &GameRow, seat: Seat) -> Invoker {
    match row.player(seat).map(|user| user.as_str().to_string()).as_deref() {
        Some("discord:1001") => alice(),
        Some("discord:1002") => bob(),
        Some("discord:1003") => carol(),
        Some("discord:1004") => dave(),
        other => panic!("not a player of the test: {other:?}"),
    }
}

/// The newest message in `thread` (a post, or a click's public answer there) showing a button
/// whose id starts with `prefix`, waited for (at most 30 s): its id and the button's.
async fn newest_button(bot: &Bot, thread: u64, prefix: &str) -> (u64, String) {
    for _ in 0..600 {
        if let Some(found) = bot.fake.newest_showing(thread, prefix) {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let last: Vec<String> = posts_in(&bot.fake, thread).iter().rev().take(3).map(content).collect();
    panic!("no message in {thread} with {prefix}; the last posts: {last:#?}")
}

async fn select(bot: &Bot, who: &Invoker, channel: u64, menu: &str, value: &str, message: u64) -> Call {
    bot.interact(component_interaction(
        next_id(),
        who,
        channel,
        menu,
        3,
        vec![value.to_string()],
        message,
    ))
    .await
}

/// Assault's boards are played in lock-step, so no one action ends it: there the players play
/// Scholar's mate on the first board (alice White, bob Black) while knights step on the other.
const ASSAULT_MATE: [&[&str]; 2] = [
    &["e4", "Nc6", "Bc4", "Nb8", "Qh5", "Nc6", "Qxf7#"],
    &["Nc3", "e5", "Nb1", "Nc6", "Nc3", "Nf6"],
];

/// How well a position serves the first player (`first`, to act in it), as a few of its replies
/// show: one that ends the game is best; else the one that corners the opponent most.
fn helped(game: &AnyGame, variant: VariantId, first: Seat, rng: &mut SmallRng) -> i64 {
    game.legal_actions(first)
        .choose_multiple(rng, 12)
        .filter_map(|reply| {
            let mut next = game.clone();
            next.apply(first, reply).ok()?;
            Some(if next.outcome().is_some() {
                ENDS
            } else {
                cornered(&next, variant, first)
            })
        })
        .max()
        .unwrap_or(0)
}

/// What an action that ends the game scores.
const ENDS: i64 = i64::MAX / 2;

/// How far the first player's opponent is cornered after its move: the computer's own weighing
/// of the position for the first player (its material, a flag carried home...), then the fewer
/// actions left to the opponent (so that a mate comes once material is won).
fn cornered(game: &AnyGame, variant: VariantId, first: Seat) -> i64 {
    let worth = Evaluator::new(first, variant).evaluate(game);
    let room = game.legal_actions(first.other()).len();
    i64::from(worth) * 10 - room as i64
}

/// What a player chooses, so that games end in good time (each is played to its end, whoever
/// wins): the next move of a scripted mate where there is one; else an action that ends the
/// game; else the first player corners the second (`cornered`) and the second plays into its
/// hands (`helped`). Rejection's proposals are accepted. A few of the second player's choices
/// are weighed, and a few dozen of the first's, so that a turn costs little.
fn decide(row: &GameRow, seat: Seat, choices: &[String], played: usize, rng: &mut SmallRng) -> String {
    if row.setup.variant == VariantId::Assault
        && let Some(next) = ASSAULT_MATE[seat.index()].get(played)
        && let Some(scripted) = choices
            .iter()
            .find(|c| c.trim_end_matches(['+', '#']) == next.trim_end_matches(['+', '#']))
    {
        return scripted.clone();
    }
    // Rejection's proposals are accepted: a game of rejections goes on for long.
    if let Some(accept) = choices.iter().find(|c| *c == "accept") {
        return accept.clone();
    }
    let after = |text: &String| {
        let mut game = row.state.clone();
        let action = game.parse_action(seat, text).ok()?;
        game.apply(seat, &action).ok()?;
        // A Rejection proposal is weighed as the move it becomes once accepted.
        if game.legal_actions(seat.other()).contains(&Action::Accept) {
            game.apply(seat.other(), &Action::Accept).ok()?;
        }
        Some(game)
    };
    let weighed = if seat == Seat::First { 40 } else { 8 };
    let scored: Vec<(i64, &String)> = choices
        .choose_multiple(rng, weighed)
        .collect::<Vec<_>>()
        .into_iter()
        .filter_map(|text| {
            let game = after(text)?;
            let score = if game.outcome().is_some() {
                ENDS
            } else if seat == Seat::First {
                cornered(&game, row.setup.variant, seat)
            } else {
                helped(&game, row.setup.variant, seat.other(), rng)
            };
            Some((score, text))
        })
        .collect();
    let best = scored.iter().map(|(score, _)| *score).max();
    let top: Vec<&String> = scored
        .iter()
        .filter(|(score, _)| Some(*score) == best)
        .map(|(_, text)| *text)
        .collect();
    top.choose(rng)
        .map(|text| (*text).clone())
        .unwrap_or_else(|| choices.choose(rng).expect("something to choose").clone())
}

/// What walking a turn's menus met: the most choices one step offered, and the pages turned.
#[derive(Clone, Copy, Debug, Default)]
struct Walked {
    most_choices: usize,
    pages_turned: usize,
}

/// Walks the menus of `answer` (a step's message) by `path`, turning pages when a key is on
/// another one; the answer to the last choice.
async fn walk(bot: &Bot, who: &Invoker, thread: u64, mut answer: Call, path: &[String]) -> (Call, Walked) {
    let message = bot.message_of(&answer);
    let mut walked = Walked::default();
    for key in path {
        loop {
            let body = &answer.json["data"];
            let shown = menus(body);
            let offered: usize = shown.iter().map(|(_, values)| values.len()).sum();
            walked.most_choices = walked.most_choices.max(offered);
            if let Some((menu, _)) = shown.into_iter().find(|(_, values)| values.contains(key)) {
                answer = select(bot, who, thread, &menu, key, message).await;
                break;
            }
            let (next, _) = buttons(body)
                .into_iter()
                .find(|(_, label)| label.ends_with('▶'))
                .unwrap_or_else(|| panic!("{key} is on no page of {}", answer.json));
            answer = bot.click(who, thread, &next, message).await;
            walked.pages_turned += 1;
        }
    }
    (answer, walked)
}

/// Plays one turn by menus: the Move button and its steps, or the Choose privately prompt.
async fn play_a_turn(
    bot: &Bot,
    game: GameId,
    thread: u64,
    row: &GameRow,
    played: &mut [usize; 2],
    rng: &mut SmallRng,
) -> Walked {
    let seat = row.state.to_act()[0];
    let done = played[seat.index()];
    played[seat.index()] += 1;
    let who = invoker_of(row, seat);
    let view = row.state.view(Viewer::Seat(seat));
    if let Some(prompt) = &view.prompt {
        let (post, private) = newest_button(bot, thread, &format!("arb:private:{game}:")).await;
        let shown = bot.click(&who, thread, &private, post).await;
        assert!(is_ephemeral(&shown) || shown.json["type"] == 4, "{}", shown.json);
        if prompt.kind == PromptKind::List {
            let (draw, _) = buttons(&shown.json["data"])
                .into_iter()
                .find(|(_, label)| label == "Draw a list for me")
                .unwrap_or_else(|| panic!("a button to draw a list: {}", shown.json));
            bot.click(&who, thread, &draw, bot.message_of(&shown)).await;
            // The player alone reads that it is in (the thread hears that a list was sent).
            let told = format!("Your list for game #{game} is in");
            let reply = bot
                .fake
                .wait_for_call("the list's verdict", |c| content(c).contains(&told))
                .await;
            assert!(reply.json["flags"].as_u64().unwrap_or(0) & 64 != 0, "{}", reply.json);
            return Walked::default();
        }
        let choice = tokio::task::block_in_place(|| decide(row, seat, &prompt.choices, done, rng));
        let body = &shown.json["data"];
        let answered = match menus(body).into_iter().find(|(_, values)| values.contains(&choice)) {
            Some((menu, _)) => select(bot, &who, thread, &menu, &choice, bot.message_of(&shown)).await,
            None => {
                let button = custom_ids(&shown.json)
                    .into_iter()
                    .find(|id| id.ends_with(&format!(":{choice}")))
                    .unwrap_or_else(|| panic!("{choice} is offered: {}", shown.json));
                bot.click(&who, thread, &button, bot.message_of(&shown)).await
            }
        };
        assert_eq!(answered.json["type"], 7, "{}", answered.json);
        return Walked::default();
    }
    let noted = row.state.noted_actions(seat);
    let texts: Vec<String> = noted.iter().map(|(_, text)| text.clone()).collect();
    let choice = tokio::task::block_in_place(|| decide(row, seat, &texts, done, rng));
    let steps = guided(&view, seat, noted);
    let path: Vec<String> = steps
        .iter()
        .find(|action| action.text == choice)
        .unwrap_or_else(|| panic!("{choice} has steps"))
        .steps
        .iter()
        .map(|step| step.key.clone())
        .collect();
    // Any post's Move button opens the game as it is now (posts keep to Discord's pace of five
    // a channel in five seconds, so the newest may still be on its way).
    let (post, button) = newest_button(bot, thread, &format!("arb:move:{game}:")).await;
    let first = bot.click(&who, thread, &button, post).await;
    assert!(is_ephemeral(&first), "only the player sees the menus: {}", first.json);
    assert_png(&first);
    let (played, walked) = walk(bot, &who, thread, first, &path).await;
    assert_eq!(
        played.json["type"], 7,
        "the last menu becomes the confirmation: {}",
        played.json
    );
    assert!(custom_ids(&played.json).is_empty(), "{}", played.json);
    walked
}

fn dave() -> Invoker {
    Invoker {
        user_id: 1_004,
        name: "dave".into(),
    }
}

/// Plays a game of `variant` to its end by menus alone: how many turns it took, and what its
/// menus met.
async fn play_to_its_end(bot: &Bot, players: [&Invoker; 2], variant: VariantId, seed: u64) -> (usize, Walked) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (game, thread, _) = bot
        .started_between(players[0], players[1], variant_index(variant), Vec::new())
        .await;
    let (mut turns, mut played, mut met) = (0, [0, 0], Walked::default());
    loop {
        let row = bot.arena.store().game(game).await.unwrap().unwrap();
        if row.state.outcome().is_some() {
            return (turns, met);
        }
        assert!(turns < 300, "{variant:?} did not end in 300 turns");
        // A player takes a few seconds over a turn (and so keeps within the rate limits).
        bot.clock.advance(4_000);
        let walked = play_a_turn(bot, game, thread, &row, &mut played, &mut rng).await;
        met.most_choices = met.most_choices.max(walked.most_choices);
        met.pages_turned += walked.pages_turned;
        turns += 1;
        // The turn is saved before the menu answers: the next turn reads it.
        let after = bot.arena.store().game(game).await.unwrap().unwrap();
        assert!(after.version > row.version, "{variant:?}: the turn was played");
    }
}

/// Each game of `variants` in turn, by the same two players.
async fn play_in_turn(
    bot: &Bot,
    variants: &[VariantId],
    players: [&Invoker; 2],
    seed: u64,
) -> Vec<(VariantId, (usize, Walked))> {
    let mut played = Vec::new();
    for (index, &variant) in variants.iter().enumerate() {
        let began = std::time::Instant::now();
        let turns = play_to_its_end(bot, players, variant, seed + index as u64).await;
        eprintln!(
            "{variant:?}: {} turns in {:.1} s",
            turns.0,
            began.elapsed().as_secs_f64()
        );
        played.push((variant, turns));
    }
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_to_its_end_by_menus_alone() {
    let _alone = ALONE.lock().await;
    let bot = Bot::start().await;
    // `GUIDED_ONLY=rejection,ctf` plays only those games (to look into one by hand).
    let only = std::env::var("GUIDED_ONLY").ok();
    let all: Vec<VariantId> = VariantId::ALL
        .iter()
        .copied()
        .filter(|v| {
            only.as_deref()
                .is_none_or(|only| only.split(',').any(|o| o == v.as_str()))
        })
        .collect();
    // Two games at a time, by two pairs of players (a pair plays one game at a time).
    let (first, second) = all.split_at(all.len() / 2);
    let (alice, bob, carol, dave) = (alice(), bob(), carol(), dave());
    let (one, other) = tokio::join!(
        play_in_turn(&bot, first, [&alice, &bob], 50),
        play_in_turn(&bot, second, [&carol, &dave], 150)
    );
    let played: Vec<(VariantId, (usize, Walked))> = one.into_iter().chain(other).collect();
    let turns: usize = played.iter().map(|(_, (turns, _))| turns).sum();
    let most = played.iter().map(|(_, (_, met))| met.most_choices).max().unwrap_or(0);
    if only.is_none() {
        assert_eq!(played.len(), 16);
    }
    assert!(
        only.is_some() || most > 25,
        "some step offered more choices than one menu holds: {most}"
    );
    println!(
        "{} games, {turns} turns, by menus alone (the most choices in one step: {most}): {played:?}",
        played.len()
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_menu_from_before_the_game_moved_on_is_refused_and_changes_nothing() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(variant_index(VariantId::Chess)).await;
    let (post, button) = newest_button(&bot, thread, &format!("arb:move:{game}:")).await;
    // Only the player to act gets menus.
    let outsider = bot.click(&bob(), thread, &button, post).await;
    assert!(
        is_ephemeral(&outsider) && content(&outsider).contains("not your turn"),
        "{}",
        outsider.json
    );
    let opened = bot.click(&alice(), thread, &button, post).await;
    let units = menus(&opened.json["data"]);
    assert_eq!(units.len(), 1);
    let (menu, values) = &units[0];
    assert_eq!(values.len(), 10, "eight pawns and two knights: {values:?}");
    let labels = opened.json["data"]["components"][0]["components"][0]["options"].clone();
    assert!(
        labels
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["label"] == "Knight g1" && o["description"] == "2 moves"),
        "{labels}"
    );
    let message = bot.message_of(&opened);
    let targets = select(&bot, &alice(), thread, menu, "g1", message).await;
    assert_eq!(
        targets.json["type"], 7,
        "the same message shows the next step: {}",
        targets.json
    );
    assert_png(&targets);
    assert!(content(&targets).contains("Knight g1"), "{}", targets.json);
    let (square_menu, squares) = menus(&targets.json["data"]).remove(0);
    assert_eq!(squares, ["f3", "h3"]);
    let back = buttons(&targets.json["data"])
        .into_iter()
        .find(|(_, label)| label.contains("Back"))
        .expect("a Back button");
    // alice types a move meanwhile: the menu is out of date, and picking from it does nothing.
    bot.play(&alice(), thread, "e4").await;
    let version = bot.arena.store().game(game).await.unwrap().unwrap().version;
    let stale = select(&bot, &alice(), thread, &square_menu, "f3", message).await;
    assert!(content(&stale).contains("out of date"), "{}", stale.json);
    let stale_back = bot.click(&alice(), thread, &back.0, message).await;
    assert!(content(&stale_back).contains("out of date"), "{}", stale_back.json);
    // A value bob's menu never offered (a broken payload) changes nothing either.
    let (post, button) = newest_button(&bot, thread, &format!("arb:move:{game}:")).await;
    let opened = bot.click(&bob(), thread, &button, post).await;
    let (menu, _) = menus(&opened.json["data"]).remove(0);
    let bogus = select(&bot, &bob(), thread, &menu, "e1", bot.message_of(&opened)).await;
    assert!(
        content(&bogus).contains("not one of the menu's choices"),
        "{}",
        bogus.json
    );
    assert_eq!(bot.arena.store().game(game).await.unwrap().unwrap().version, version);
    bot.stop().await;
}
