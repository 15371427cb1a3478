//! A page's first frame comes with the page itself: the board, the players and the last actions
//! as news, before (and without) its stream; the overlay's compact layout is the board and one
//! slim bar; after a forfeit on time the loser's clock reads nothing left, and the result is said
//! once beside the board.

use crate::browser::Browser;
use crate::events::{serve_pages, served, standard_match};
use crate::support;
use arbiter::ids::Places;
use arbiter::scheduler::Scheduler;
use arbiter_engine::VariantId;
use std::time::Duration;

/// What `script` gives on the page, as a string.
async fn text(page: &mut crate::browser::Page, script: &str) -> String {
    page.eval(script).await.as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_itself_carries_its_first_frame() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let id = support::started(&arena, VariantId::Chess).await;
    let links = serve_pages(&arena, id).await;
    support::play_alternately(&arena, id, "e4 e5").await;
    let html = crate::text_of(format!("{}?still=1", links.overlay)).await;
    assert!(html.contains("data-still=\"1\""), "{html}");
    let initial = html
        .split("<script id=\"initial-state\" type=\"application/json\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap_or_else(|| panic!("{html}"));
    let state: serde_json::Value = serde_json::from_str(initial).unwrap();
    assert_eq!(state["game"], id.get());
    let recent: Vec<&str> = state["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(recent.len(), 2, "{recent:?}");
    assert!(
        recent[0].ends_with("played e4") && recent[1].ends_with("played e5"),
        "{recent:?}"
    );
    let board = html.split("<div id=\"board-frame\"").nth(1).unwrap();
    assert!(
        board.contains("<svg") && board.contains("data-src=\"/watch/"),
        "{board}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_opened_late_shows_its_game_and_last_actions_without_its_stream() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let id = support::started(&arena, VariantId::Chess).await;
    let links = serve_pages(&arena, id).await;
    support::play_alternately(&arena, id, "e4 e5").await;
    let mut page = browser.open_sized(&format!("{}?still=1", links.page), 1400, 900).await;
    page.wait_for(crate::pages::BOARD_LOADED, Duration::from_secs(10)).await;
    let news = text(
        &mut page,
        "[...document.querySelectorAll('#news li')].map(li => li.textContent).join('|')",
    )
    .await;
    let lines: Vec<&str> = news.split('|').collect();
    assert_eq!(lines.len(), 2, "{news}");
    assert!(
        lines[0].ends_with("played e5") && lines[1].ends_with("played e4"),
        "newest first: {news}"
    );
    // The bars name the players; the board does not name them again.
    let name = text(&mut page, "document.querySelector('#player-bottom .name').textContent").await;
    assert!(!name.is_empty());
    let drawn = text(&mut page, "document.querySelector('#board-frame svg').textContent").await;
    assert!(!drawn.contains(&name), "{name} in the board: {drawn}");
    assert_eq!(
        text(&mut page, "String(document.getElementById('banner').hidden)").await,
        "true"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_compact_overlay_is_the_board_and_one_slim_bar() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let db = support::sqlite().await;
    let (_arena, links) = served(&db, VariantId::Chess).await;
    let mut overlay = browser
        .open_overlay(&format!("{}?still=1&compact=1", links.overlay))
        .await;
    overlay
        .wait_for(crate::pages::BOARD_LOADED, Duration::from_secs(10))
        .await;
    let shown = |selector: &str| format!("getComputedStyle(document.querySelector('{selector}')).display");
    assert_eq!(text(&mut overlay, &shown("#player-top")).await, "none");
    assert_eq!(text(&mut overlay, &shown("#player-bottom")).await, "none");
    assert_eq!(text(&mut overlay, &shown("#slim-bar")).await, "flex");
    let asked = text(&mut overlay, "document.getElementById('board-frame').dataset.src").await;
    assert!(asked.ends_with("&layout=bare"), "the board alone: {asked}");
    let bar = text(&mut overlay, "document.getElementById('slim-bar').textContent").await;
    let names: Vec<String> = [
        text(&mut overlay, "document.querySelector('#player-top .name').textContent").await,
        text(
            &mut overlay,
            "document.querySelector('#player-bottom .name').textContent",
        )
        .await,
    ]
    .into();
    assert!(
        names.iter().all(|name| !name.is_empty() && bar.contains(name.as_str())),
        "{bar}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_forfeit_on_time_the_loser_has_no_time_left_and_the_result_is_said_once() {
    let db = support::sqlite().await;
    let (arena, clock) = support::arena(&db);
    let id = standard_match(&arena).await;
    let links = serve_pages(&arena, id).await;
    // Red lets the whole turn and reserve run out.
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("show"));
    clock.advance(6 * 60 * 1000 + 1000);
    scheduler.run_once().await.unwrap();
    let state: serde_json::Value =
        serde_json::from_str(&crate::text_of(format!("{}/state", links.page)).await).unwrap();
    assert_eq!(state["finished"], true, "{state}");
    let red_clock = &state["players"][0]["clock"];
    assert_eq!(
        (red_clock["normal_ms"].as_i64(), red_clock["reserve_ms"].as_i64()),
        (Some(0), Some(0)),
        "{state}"
    );

    let Some(browser) = Browser::start() else {
        return;
    };
    let mut overlay = browser.open_overlay(&format!("{}?still=1", links.overlay)).await;
    overlay
        .wait_for(crate::pages::BOARD_LOADED, Duration::from_secs(10))
        .await;
    let clocks = text(
        &mut overlay,
        "[...document.querySelectorAll('.player .clock')].map(c => c.textContent).join('|')",
    )
    .await;
    assert!(clocks.contains("0:00 + 0:00"), "{clocks}");
    assert_eq!(
        text(&mut overlay, "String(document.getElementById('status').hidden)").await,
        "true"
    );
    let banner = text(&mut overlay, "document.getElementById('banner').textContent").await;
    assert!(banner.contains("wins by time"), "{banner}");
}
