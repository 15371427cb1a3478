//! Choosing instead of typing: `/move` suggestions for every game's first actions (a Circe
//! rebirth chosen from them), and Pick-the-team's picks made from menus of pieces, then squares.

use crate::bot::*;
use arbiter_engine::{Game, VariantId};
use fake_discord::{Invoker, autocomplete_interaction, component_interaction};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_offered_and_a_circe_rebirth_is_chosen_from_the_suggestions() {
    let bot = Bot::start().await;
    let commands = bot.fake.registered_commands();
    let challenge = commands
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "challenge")
        .expect("/challenge is registered");
    let offered: Vec<&str> = challenge["options"][0]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = VariantId::ALL.iter().map(|v| v.name()).collect();
    assert_eq!(offered, registry, "the game menu is the registry");

    let circe = VariantId::ALL.iter().position(|&v| v == VariantId::Circe).unwrap() as u8;
    let (game, thread) = bot.started(circe).await;
    bot.play(&alice(), thread, "e4").await;
    bot.play(&bob(), thread, "d5").await;
    let typed = autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "exd5", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    let choices = suggested(&suggestions);
    assert_eq!(choices.len(), 17, "one suggestion per rebirth square: {choices:?}");
    assert!(choices.contains(&"exd5(a4)".to_string()), "{choices:?}");
    let rebirth = bot.play(&alice(), thread, "exd5(a4)").await;
    assert!(content(&rebirth).contains("played exd5(a4)"), "{}", rebirth.json);
    assert_png(&rebirth);
    let stored = bot.arena.store().game(game).await.unwrap().unwrap();
    assert!(
        stored
            .state
            .view(arbiter_engine::Viewer::Spectator)
            .fen()
            .starts_with("rnbqkbnr/ppp1pppp/8/3P4/p7/")
    );
    bot.stop().await;
}

/// The select menus of an answer: each menu's custom id and options as (label, value).
fn step_menus(answer: &Value) -> Vec<(String, Vec<(String, String)>)> {
    let mut menus = Vec::new();
    for row in answer["data"]["components"].as_array().into_iter().flatten() {
        for menu in row["components"].as_array().into_iter().flatten() {
            let Some(options) = menu["options"].as_array() else {
                continue;
            };
            let options = options
                .iter()
                .map(|o| {
                    (
                        o["label"].as_str().unwrap().to_string(),
                        o["value"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            menus.push((menu["custom_id"].as_str().unwrap().to_string(), options));
        }
    }
    menus
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pick_the_team_picks_are_made_from_menus_of_pieces_then_squares() {
    let bot = Bot::start().await;
    let ptt = VariantId::ALL
        .iter()
        .position(|&v| v == VariantId::PickTheTeam)
        .unwrap() as u8;
    let (game, thread) = bot.started(ptt).await;
    let opening = bot
        .fake
        .wait_for_call("the first post", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages")
                && custom_ids(&c.json).iter().any(|id| id.starts_with("arb:move:"))
        })
        .await;
    assert_png(&opening);
    let move_button = button(&opening, "arb:move:", "");
    let post = bot.shown(thread, &move_button);

    // Only the picker gets menus.
    let outsider = bot.click(&bob(), thread, &move_button, post).await;
    assert!(
        is_ephemeral(&outsider) && content(&outsider).contains("not your turn"),
        "{}",
        outsider.json
    );
    let pieces = bot.click(&alice(), thread, &move_button, post).await;
    assert!(is_ephemeral(&pieces), "only alice sees her menus: {}", pieces.json);
    assert_png(&pieces);
    let menus = step_menus(&pieces.json);
    assert_eq!(menus.len(), 1, "{menus:?}");
    let (menu, options) = &menus[0];
    let labels: Vec<&str> = options.iter().map(|(label, _)| label.as_str()).collect();
    assert_eq!(labels, ["King (K)", "Royal knight (RN)"], "the first pick is royal");
    let king = options[0].1.clone();
    let message = bot.message_of(&pieces);
    let pick = |who: &Invoker, menu: &str, value: &str, message: u64| {
        component_interaction(next_id(), who, thread, menu, 3, vec![value.to_string()], message)
    };
    let squares = bot.interact(pick(&alice(), menu, &king, message)).await;
    assert_eq!(
        squares.json["type"], 7,
        "the menu becomes the squares: {}",
        squares.json
    );
    assert_png(&squares);
    assert!(content(&squares).contains("King (K)"), "{}", squares.json);
    let (square_menu, offered) = step_menus(&squares.json).remove(0);
    let offered: Vec<String> = offered.into_iter().map(|(_, value)| value).collect();
    let first_row: Vec<String> = "abcdefghij".chars().map(|f| format!("{f}1")).collect();
    assert_eq!(offered, first_row);
    let placed = bot.interact(pick(&alice(), &square_menu, "e1", message)).await;
    assert_eq!(
        placed.json["type"], 7,
        "the last menu becomes the confirmation: {}",
        placed.json
    );
    assert!(content(&placed).contains("K@e1") && custom_ids(&placed.json).is_empty());
    let after = bot
        .fake
        .wait_for_call("the pick's post", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages") && content(c).contains("played K@e1")
        })
        .await;
    assert_png(&after);
    assert!(
        content(&after).contains("<@1002>"),
        "bob is pinged: {}",
        content(&after)
    );

    // alice's menus are out of date now.
    let stale = bot.interact(pick(&alice(), &square_menu, "f1", message)).await;
    assert!(content(&stale).contains("out of date"), "{}", stale.json);

    // Bob picks with /move instead, then his second pick faces the whole pool, pieces first,
    // spread over two menus.
    let typed = autocomplete_interaction(
        next_id(),
        &bob(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "RN@", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    assert_eq!(suggestions.json["data"]["choices"].as_array().unwrap().len(), 10);
    let moved = bot.play(&bob(), thread, "RN@f10").await;
    assert!(content(&moved).contains("played RN@f10"), "{}", moved.json);
    let button_now = button(&moved, "arb:move:", "");
    let pool = bot.click(&bob(), thread, &button_now, bot.message_of(&moved)).await;
    let menus = step_menus(&pool.json);
    assert_eq!(menus.len(), 2, "{menus:?}");
    assert_eq!((menus[0].1.len(), menus[1].1.len()), (25, 13), "38 types, none dropped");
    assert!(menus[1].0.ends_with(":1"), "distinct ids: {menus:?}");
    let all: Vec<&str> = menus
        .iter()
        .flat_map(|(_, o)| o.iter().map(|(l, _)| l.as_str()))
        .collect();
    assert!(all.contains(&"Berolina pawn (BE)"), "{all:?}");
    let first_pawn = all.iter().position(|l| l.contains("pawn")).unwrap();
    assert!(
        all[first_pawn..]
            .iter()
            .all(|l| l.contains("pawn") || l.contains("Pawn")),
        "pieces, then pawns: {all:?}"
    );

    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    let view = row.state.view(arbiter_engine::Viewer::Spectator);
    assert_eq!(view.record.len(), 2);
    assert_eq!(view.pool.len(), 38);

    // Any piece's card, with autocomplete over the catalogue.
    let typed = autocomplete_interaction(
        next_id(),
        &carol(),
        thread,
        "piece",
        json!([{ "name": "name", "type": 3, "value": "nightr", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    assert_eq!(
        suggestions.json["data"]["choices"][0],
        json!({ "name": "CN · Chinese nightrider (Pick-the-team)", "value": "ptt-chinese-nightrider" })
    );
    let card = bot
        .command(
            &carol(),
            thread,
            "piece",
            json!([{ "name": "name", "type": 3, "value": "ptt-chinese-nightrider" }]),
        )
        .await;
    assert!(is_ephemeral(&card), "{}", card.json);
    assert!(
        content(&card).contains("**Chinese nightrider** (`CN`) · Pick-the-team · Betza `nNN`"),
        "{}",
        card.json
    );
    assert_png(&card);
    let unknown = bot
        .command(
            &carol(),
            thread,
            "piece",
            json!([{ "name": "name", "type": 3, "value": "dragon" }]),
        )
        .await;
    assert!(content(&unknown).contains("no piece is called"), "{}", unknown.json);
    bot.stop().await;
}
