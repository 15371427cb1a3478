//! Playing and hosting by clicks, in headless Chromium against the real binary: a chess game
//! played to its end on both players' own pages (one of them a phone's, by touch), a Blockade
//! Death Match played to its end the same way, and a host pausing and adding time from the
//! host's panel while the overlay follows.

use crate::browser::{Browser, Page};
use crate::pages::BOARD_LOADED;
use crate::terminal::Terminal;
use serde_json::{Value, json};
use std::time::Duration;

const PATIENCE: Duration = Duration::from_secs(20);

/// The private link `user` is given for game `game` (`kind`: `play` or `host`).
fn private_link(terminal: &mut Terminal, user: &str, game: u32, kind: &str) -> String {
    terminal.send(&format!("{user}: watch #{game}"));
    let read = terminal.read_until(|line| line.starts_with("http") && line.contains(&format!("/{kind}/")));
    read.last().unwrap().clone()
}

/// How a page is pointed at: a mouse's click, or a finger's tap.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pointer {
    Mouse,
    Finger,
}

/// Clicks (or taps) the middle of what `selector` finds on the page, as a player does.
async fn press(page: &mut Page, selector: &str, pointer: Pointer) {
    let script = format!(
        "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
         e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
         return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
    );
    let at = page.eval(&script).await;
    let (x, y) = match at.as_array() {
        Some(xy) => (xy[0].as_f64().unwrap(), xy[1].as_f64().unwrap()),
        None => panic!("nothing to press at {selector}"),
    };
    match pointer {
        Pointer::Mouse => {
            for kind in ["mousePressed", "mouseReleased"] {
                page.call(
                    "Input.dispatchMouseEvent",
                    json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
                )
                .await;
            }
        }
        Pointer::Finger => {
            page.call(
                "Input.dispatchTouchEvent",
                json!({ "type": "touchStart", "touchPoints": [{ "x": x, "y": y }] }),
            )
            .await;
            page.call(
                "Input.dispatchTouchEvent",
                json!({ "type": "touchEnd", "touchPoints": [] }),
            )
            .await;
        }
    }
}

/// Plays, on a player's own page, the action whose steps `pick` chooses from the page's state
/// (the state's actions, by steps): each square on the board, anything else by its button.
/// The version it was played from.
async fn play_by_clicks(page: &mut Page, pointer: Pointer, pick: impl Fn(&[Value]) -> Value) -> i64 {
    page.wait_for(
        "Boolean(window.arbiterState && (window.arbiterState.actions || []).length > 0) && \
         document.querySelector('#board-frame .sq') !== null",
        PATIENCE,
    )
    .await;
    let state = page.eval("window.arbiterState").await;
    let action = pick(state["actions"].as_array().unwrap());
    for (index, step) in action["steps"].as_array().unwrap().iter().enumerate() {
        match step["at"].as_object() {
            Some(at) => {
                let selector = format!(
                    "#board-frame .sq[data-board=\"{}\"][data-square=\"{}\"]",
                    at["board"],
                    at["square"].as_str().unwrap()
                );
                press(page, &selector, pointer).await;
            }
            None => {
                let label = step["label"].as_str().unwrap();
                let find = format!(
                    "[...document.querySelectorAll('#choices button')].findIndex(b => b.textContent.startsWith({label:?}))"
                );
                let found = page.eval(&find).await.as_i64().unwrap();
                assert!(found >= 0, "no button for {label} (step {index} of {action})");
                press(page, &format!("#choices button:nth-child({})", found + 1), pointer).await;
            }
        }
    }
    state["version"].as_i64().unwrap()
}

/// Waits until the page shows a version after `version`.
async fn wait_past(page: &mut Page, version: i64) {
    page.wait_for(
        &format!("Boolean(window.arbiterState) && window.arbiterState.version > {version}"),
        PATIENCE,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_game_is_played_to_its_end_by_clicks_on_both_players_pages() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let data = crate::browser::tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    terminal.send("alice: challenge bob chess white");
    terminal.read_until(|line| line.contains("Game #1"));
    terminal.send("bob: accept");
    terminal.read_until(|line| line.contains("to move"));
    let alice_link = private_link(&mut terminal, "alice", 1, "play");
    let bob_link = private_link(&mut terminal, "bob", 1, "play");
    let mut alice = browser.open_sized(&alice_link, 1400, 900).await;
    alice.wait_for(BOARD_LOADED, PATIENCE).await;
    // bob plays on a phone, by touch.
    let mut bob = browser.open_sized(&bob_link, 390, 844).await;
    bob.call("Emulation.setTouchEmulationEnabled", json!({ "enabled": true }))
        .await;
    bob.wait_for(BOARD_LOADED, PATIENCE).await;
    let lit = alice
        .eval("document.querySelectorAll('#board-frame .sq.can').length")
        .await;
    assert_eq!(lit, json!(10), "alice's ten units that can move are lit");
    // Fool's mate, each move found by its notation among the page's actions.
    for (who, text) in [("alice", "f3"), ("bob", "e5"), ("alice", "g4"), ("bob", "Qh4#")] {
        let (page, pointer) = if who == "alice" {
            (&mut alice, Pointer::Mouse)
        } else {
            (&mut bob, Pointer::Finger)
        };
        let version = play_by_clicks(page, pointer, |actions| {
            actions
                .iter()
                .find(|a| a["text"] == text)
                .unwrap_or_else(|| panic!("{text} among {actions:?}"))
                .clone()
        })
        .await;
        // Announced where the game is played, as if typed.
        terminal.read_until(|line| line.contains(&format!("played {text}")));
        wait_past(page, version).await;
    }
    terminal.read_until(|line| line.contains("checkmate"));
    for page in [&mut alice, &mut bob] {
        page.wait_for("window.arbiterState.finished === true", PATIENCE).await;
        let to_do = page.eval("document.getElementById('to-do').textContent").await;
        assert_eq!(to_do, json!("The game is over."));
        assert_eq!(
            page.eval("document.querySelectorAll('#board-frame .sq.can').length")
                .await,
            json!(0)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blockade_death_match_is_played_to_its_end_by_clicks_and_hosted_from_the_panel() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let data = crate::browser::tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    terminal.send("host: deathmatch alice bob alice blockade 60s 5m");
    terminal.read_until(|line| line.contains("Death Match #1"));
    terminal.send("alice: side first");
    terminal.read_until(|line| line.contains("to place"));
    let panel_link = private_link(&mut terminal, "host", 1, "host");
    let (_, overlay_link) = terminal.links("carol", 1);
    let alice_link = private_link(&mut terminal, "alice", 1, "play");
    let bob_link = private_link(&mut terminal, "bob", 1, "play");

    // The host pauses, then gives alice 30 s more reserve; the overlay follows.
    let mut panel = browser.open_sized(&panel_link, 1400, 900).await;
    let mut overlay = browser.open_overlay(&overlay_link).await;
    overlay.wait_for(BOARD_LOADED, PATIENCE).await;
    panel.wait_for("Boolean(window.arbiterState)", PATIENCE).await;
    press(&mut panel, "#host-pause", Pointer::Mouse).await;
    terminal.read_until(|line| line.contains("paused the clocks"));
    overlay
        .wait_for("window.arbiterState.players.every(p => !p.clock.running)", PATIENCE)
        .await;
    panel
        .wait_for("document.getElementById('host-pause').hidden", PATIENCE)
        .await;
    let reserve = overlay.eval("window.arbiterState.players[0].clock.reserve_ms").await;
    panel.eval("document.getElementById('host-seconds').value = '30'").await;
    press(&mut panel, "#host-add-first", Pointer::Mouse).await;
    terminal.read_until(|line| line.contains("more reserve"));
    overlay
        .wait_for(
            &format!("window.arbiterState.players[0].clock.reserve_ms >= {} + 30000", reserve),
            PATIENCE,
        )
        .await;
    press(&mut panel, "#host-resume", Pointer::Mouse).await;
    terminal.read_until(|line| line.contains("resumed the clocks"));

    // The match, by clicks alone: each turn the first of the actions the page offers.
    let mut alice = browser.open_sized(&alice_link, 1400, 900).await;
    let mut bob = browser.open_sized(&bob_link, 1400, 900).await;
    let mut turns = 0;
    loop {
        let over = alice
            .eval("Boolean(window.arbiterState && window.arbiterState.finished)")
            .await;
        if over == json!(true) {
            break;
        }
        assert!(turns < 200, "the match did not end in 200 turns");
        let alice_to_act = alice
            .eval("(window.arbiterState && (window.arbiterState.actions || []).length > 0) === true")
            .await;
        let page = if alice_to_act == json!(true) {
            &mut alice
        } else {
            &mut bob
        };
        let to_act = page.eval("(window.arbiterState.actions || []).length > 0").await;
        if to_act != json!(true) {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let version = play_by_clicks(page, Pointer::Mouse, |actions| actions[0].clone()).await;
        wait_past(page, version).await;
        turns += 1;
    }
    terminal.read_until(|line| line.contains("wins") || line.contains("drawn"));
    overlay
        .wait_for("window.arbiterState.finished === true", PATIENCE)
        .await;
    panel
        .wait_for("!document.getElementById('host-rematch').hidden", PATIENCE)
        .await;
    println!("a Blockade Death Match of {turns} turns, played by clicks");
}
