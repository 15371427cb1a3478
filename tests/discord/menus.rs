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

/// The piece menus of a message: each menu's options as (label, value).
fn piece_menus(body: &Value) -> Vec<(String, Vec<(String, String)>)> {
    let mut menus = Vec::new();
    let rows = body["components"]
        .as_array()
        .or_else(|| body["data"]["components"].as_array());
    for row in rows.into_iter().flatten() {
        for menu in row["components"].as_array().into_iter().flatten() {
            let id = menu["custom_id"].as_str().unwrap_or_default();
            if id.starts_with("arb:piece:") {
                let options = menu["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| {
                        (
                            o["label"].as_str().unwrap().to_string(),
                            o["value"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect();
                menus.push((id.to_string(), options));
            }
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
            c.path == format!("/api/v10/channels/{thread}/messages") && !piece_menus(&c.json).is_empty()
        })
        .await;
    assert_png(&opening);
    let menus = piece_menus(&opening.json);
    assert_eq!(menus.len(), 1, "{menus:?}");
    let (menu, options) = &menus[0];
    assert_eq!(
        options,
        &[
            ("K · King".to_string(), "ptt-king".to_string()),
            ("RN · Royal knight".to_string(), "ptt-royal-knight".to_string())
        ],
        "the first pick is royal"
    );

    // Only the picker gets the squares.
    let choose_piece = |who: &Invoker, menu: &str, piece: &str| {
        component_interaction(
            next_id(),
            who,
            thread,
            menu,
            3,
            vec![piece.to_string()],
            bot.shown(thread, menu),
        )
    };
    let outsider = bot.interact(choose_piece(&bob(), menu, "ptt-king")).await;
    assert!(
        is_ephemeral(&outsider) && content(&outsider).contains("not your turn"),
        "{}",
        outsider.json
    );
    let squares = bot.interact(choose_piece(&alice(), menu, "ptt-king")).await;
    assert!(is_ephemeral(&squares), "only alice sees her squares: {}", squares.json);
    assert_png(&squares);
    assert!(
        content(&squares).contains("where does your King (K) go?"),
        "{}",
        squares.json
    );
    let square_menu = custom_ids(&squares.json)
        .into_iter()
        .find(|id| id.starts_with("arb:choose:"))
        .expect("a menu of squares");
    let offered = squares.json["data"]["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    let first_row: Vec<String> = "abcdefghij".chars().map(|f| format!("K@{f}1")).collect();
    assert_eq!(offered, first_row);
    let placed = bot
        .interact(component_interaction(
            next_id(),
            &alice(),
            thread,
            &square_menu,
            3,
            vec!["K@e1".into()],
            bot.shown(thread, &square_menu),
        ))
        .await;
    assert_eq!(
        placed.json["type"], 7,
        "the square menu becomes the confirmation: {}",
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
    let menus = piece_menus(&after.json);
    assert_eq!(
        menus[0].1,
        [("RN · Royal knight".to_string(), "ptt-royal-knight".to_string())]
    );

    // The first menu is out of date now.
    let stale = bot.interact(choose_piece(&alice(), menu, "ptt-queen")).await;
    assert!(content(&stale).contains("out of date"), "{}", stale.json);
    // A piece that is not in the menu, or nonsense, changes nothing.
    for bogus in ["ptt-queen", "nonsense"] {
        let refused = bot.interact(choose_piece(&bob(), &menus[0].0, bogus)).await;
        assert!(
            is_ephemeral(&refused) && content(&refused).contains("cannot be placed now"),
            "{}",
            refused.json
        );
    }

    // Bob picks with /move instead, then his second pick faces the whole pool: pieces and
    // pawns in two menus.
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
    let menus = piece_menus(&moved.json);
    assert_eq!(menus.len(), 2, "{menus:?}");
    assert_eq!(menus[0].1.len(), 22, "pieces 3-20 and the four spears");
    assert_eq!(menus[1].1.len(), 16, "the pawns");
    assert!(menus[1].1.iter().any(|(label, _)| label == "BE · Berolina pawn"));
    assert!(menus[1].0.ends_with(":1"), "distinct ids: {menus:?}");

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
