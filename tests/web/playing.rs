//! A player's own page (`/play/<token>`) and a host's panel (`/host/<token>`), by plain HTTP:
//! what each may do is in its state, an action goes through the arena's checks and is
//! announced, a stale or foreign request changes nothing, a replaced link opens nothing, and a
//! seat's page holds its own secrets and never the other seat's.

use crate::support;
use arbiter::arena::Effects;
use arbiter::web::{DisplayNames, Web, WebListener};
use arbiter_engine::VariantId;
use serde_json::{Value, json};
use std::sync::Arc;

/// The pages of the games of `arena`, served until the test ends, and what they announce.
async fn serve(arena: &support::TestArena) -> (Arc<Web>, tokio::sync::mpsc::Receiver<Effects>) {
    let listening = WebListener::bind("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let web = Arc::new(Web::new(arena.arena(), Arc::new(DisplayNames), listening.base.clone()));
    let (announce, announced) = tokio::sync::mpsc::channel(16);
    web.announce_to(announce);
    tokio::spawn(web.clone().serve(&listening, std::future::pending()).unwrap());
    (web, announced)
}

/// The links in a user's private lines: their page to play on, their host's panel.
async fn private_link(web: &Web, id: arbiter::ids::GameId, user: &arbiter::ids::UserId, kind: &str) -> String {
    let lines = web.private_lines(id, user, false).await.expect("private links");
    lines
        .lines()
        .find(|line| line.contains(&format!("/{kind}/")))
        .unwrap_or_else(|| panic!("no /{kind}/ link in {lines}"))
        .to_string()
}

async fn state_of(page: &str) -> Value {
    let text = reqwest::get(format!("{page}/state"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Posts `body` to a page's `act` as the page's script does; the status and the answer.
async fn post(page: &str, what: &str, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{page}/{what}"))
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_plays_through_the_arena_and_refuses_what_it_must() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let id = support::started(&arena, VariantId::Chess).await;
    let (web, mut announced) = serve(&arena).await;
    let alice = private_link(&web, id, &support::alice(), "play").await;
    let bob = private_link(&web, id, &support::bob(), "play").await;
    assert_ne!(alice, bob);
    assert_eq!(
        private_link(&web, id, &support::alice(), "play").await,
        alice,
        "a link stays"
    );
    assert!(
        web.private_lines(id, &support::carol(), false).await.is_none(),
        "carol plays no seat"
    );

    let state = state_of(&alice).await;
    let actions = state["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 20);
    let e4 = actions.iter().find(|a| a["text"] == "e4").unwrap();
    assert_eq!(e4["steps"][0]["at"], json!({ "board": 0, "square": "e2" }));
    assert_eq!(e4["steps"][1]["at"], json!({ "board": 0, "square": "e4" }));
    assert!(
        state_of(&bob).await["actions"].as_array().unwrap().is_empty(),
        "not bob's turn"
    );
    let public = reqwest::get(web.links(id).await.unwrap().page + "/state")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!public.contains("\"actions\""), "the public page acts for nobody");

    let version = state["version"].as_i64().unwrap();
    let (status, answer) = post(&alice, "act", json!({ "action": "e4", "version": version })).await;
    assert_eq!(status, 200, "{answer}");
    let effects = announced.recv().await.expect("the move is announced");
    assert!(
        effects.posts.iter().any(|p| p.text.contains("played e4")),
        "{effects:?}"
    );

    // The same again, or anything at the old version: out of date, nothing changes.
    let (status, answer) = post(&bob, "act", json!({ "action": "e5", "version": version })).await;
    assert_eq!(status, 409);
    assert!(answer["refused"].as_str().unwrap().contains("out of date"), "{answer}");
    let (status, answer) = post(&alice, "act", json!({ "action": "d4", "version": version + 1 })).await;
    assert_eq!(status, 409);
    assert!(
        answer["refused"].as_str().unwrap().contains("not your turn"),
        "{answer}"
    );
    // What another site could send: a plain form, a cross-site fetch, another origin.
    let client = reqwest::Client::new();
    let form = client
        .post(format!("{bob}/act"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("action=e5&version=2")
        .send()
        .await
        .unwrap();
    assert_eq!(form.status().as_u16(), 415);
    for (header, value) in [("Sec-Fetch-Site", "cross-site"), ("Origin", "http://elsewhere.example")] {
        let foreign = client
            .post(format!("{bob}/act"))
            .header(header, value)
            .header("Content-Type", "application/json")
            .body(json!({ "action": "e5", "version": version + 1 }).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(foreign.status().as_u16(), 403, "{header}");
    }
    let (status, _) = post(&bob, "act", json!({ "nonsense": true })).await;
    assert_eq!(status, 400);
    assert_eq!(
        arena.store().game(id).await.unwrap().unwrap().version,
        version + 1,
        "nothing changed"
    );

    // bob asks for a new link: the old one opens nothing, the new one plays.
    let renewed = web.private_lines(id, &support::bob(), true).await.unwrap();
    assert!(renewed.contains("open nothing now"), "{renewed}");
    let (status, _) = post(&bob, "act", json!({ "action": "e5", "version": version + 1 })).await;
    assert_eq!(status, 404);
    assert_eq!(reqwest::get(&bob).await.unwrap().status().as_u16(), 404);
    let bob = private_link(&web, id, &support::bob(), "play").await;
    let page = reqwest::get(&bob).await.unwrap();
    assert_eq!(page.headers()["referrer-policy"], "no-referrer");
    let (status, answer) = post(&bob, "act", json!({ "action": "e5", "version": version + 1 })).await;
    assert_eq!(status, 200, "{answer}");

    // A finished game's page plays nothing.
    arena.play().resign(id, &support::alice()).await.unwrap();
    let over = state_of(&alice).await;
    assert!(over["actions"].as_array().unwrap().is_empty());
    let version = over["version"].as_i64().unwrap();
    let (status, answer) = post(&alice, "act", json!({ "action": "d4", "version": version })).await;
    assert_eq!(status, 409);
    assert!(answer["refused"].as_str().unwrap().contains("over"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_beirut_page_holds_its_own_carrier_and_never_the_others() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let id = support::started(&arena, VariantId::Beirut).await;
    let (web, _announced) = serve(&arena).await;
    let alice = private_link(&web, id, &support::alice(), "play").await;
    let bob = private_link(&web, id, &support::bob(), "play").await;
    let state = state_of(&alice).await;
    let prompt_key = state["prompt"]["key"].clone();
    assert!(
        state["prompt"]["text"].as_str().unwrap().contains("bomb carrier"),
        "{state}"
    );
    let choices: Vec<&str> = state["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["text"].as_str().unwrap())
        .collect();
    assert!(choices.contains(&"bomb:d2"), "{choices:?}");
    let version = state["version"].as_i64().unwrap();
    let body = json!({ "action": "bomb:d2", "version": version, "prompt_key": prompt_key });
    let (status, answer) = post(&alice, "act", body).await;
    assert_eq!(status, 200, "{answer}");
    // bob's choice comes after alice's: his page, at the version before hers, answers the
    // same prompt, which her choice left as it was.
    let bob_state = state_of(&bob).await;
    let body = json!({ "action": "bomb:e7", "version": version, "prompt_key": bob_state["prompt"]["key"] });
    let (status, answer) = post(&bob, "act", body).await;
    assert_eq!(status, 200, "a prompt answered at its key is not out of date: {answer}");
    let board_of = |page: &str, state: &Value| {
        format!(
            "{}{}",
            page.split("/play/").next().unwrap(),
            state["board"].as_str().unwrap()
        )
    };
    let alice_state = state_of(&alice).await;
    let alice_board = reqwest::get(board_of(&alice, &alice_state))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        alice_state["board_words"].as_str().unwrap().contains("d2"),
        "{alice_state}"
    );
    assert!(
        alice_board.contains("class=\"sq\""),
        "a seat's board is made to be clicked"
    );
    let bob_state = state_of(&bob).await;
    let bob_page = reqwest::get(&bob).await.unwrap().text().await.unwrap();
    let bob_board = reqwest::get(board_of(&bob, &bob_state))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for (what, text) in [
        ("state", bob_state.to_string()),
        ("page", bob_page),
        ("board", bob_board),
    ] {
        assert!(!text.contains("bomb:d2"), "bob's {what} names alice's carrier");
        assert!(
            !text.to_lowercase().contains("your secret bomb carrier") || text.contains("e7"),
            "bob's {what}"
        );
    }
    // What alice's words say of her carrier, bob's never say of d2.
    let said_of_d2 = |state: &Value| {
        state["board_words"]
            .as_str()
            .unwrap()
            .split(['.', ';'])
            .any(|part| part.contains("d2") && part.to_lowercase().contains("bomb"))
    };
    assert!(said_of_d2(&alice_state), "{alice_state}");
    assert!(!said_of_d2(&bob_state), "{bob_state}");
}
