//! The live page without sight, in a real browser: the board is in the page's accessibility tree
//! in words (the describer's, from the spectators' view) and follows each move; the moves and
//! the news are announced as they change; nothing on the page is out of the keyboard's reach.

use crate::browser::{Browser, Page, tempdir};
use crate::pages::BOARD_LOADED;
use crate::terminal::Terminal;
use serde_json::{Value, json};
use std::time::Duration;

/// Every name and value in the page's accessibility tree (what a screen reader reads), joined.
async fn accessible_text(page: &mut Page) -> String {
    page.call("Accessibility.enable", json!({})).await;
    let tree = page.call("Accessibility.getFullAXTree", json!({})).await;
    let mut text = Vec::new();
    for node in tree["nodes"].as_array().into_iter().flatten() {
        if node["ignored"] == json!(true) {
            continue;
        }
        for field in ["name", "value", "description"] {
            if let Some(words) = node[field]["value"].as_str() {
                text.push(words.to_string());
            }
        }
    }
    text.join("\n")
}

/// The board in words as the server sends it to pages now (`board_words` of the state).
async fn served_words(page_url: &str) -> String {
    let state: Value = serde_json::from_str(&crate::text_of(format!("{page_url}/state")).await).unwrap();
    state["board_words"]
        .as_str()
        .expect("the state holds the board in words")
        .to_string()
}

/// Waits until the accessibility tree holds `words`.
async fn wait_until_read(page: &mut Page, words: &str) {
    for _ in 0..200 {
        if accessible_text(page).await.contains(words) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the accessibility tree never held the board's words \"{words}\":\n{}",
        accessible_text(page).await
    );
}

/// A chess game begun in the terminal (alice White, bob Black) and its live page, open and loaded
/// in the browser as a spectator sees it: the data folder (kept while the test runs), the
/// terminal, the page's address and the page.
async fn chess_page_in_play(browser: &Browser) -> (tempdir::Dir, Terminal, String, Page) {
    let data = tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    terminal.send("alice: challenge bob chess white");
    terminal.read_until(|line| line.contains("Game #1"));
    terminal.send("bob: accept");
    terminal.read_until(|line| line.contains("to move"));
    let (page_url, _) = terminal.links("carol", 1);
    let mut page = browser.open(&page_url).await;
    page.wait_for(BOARD_LOADED, Duration::from_secs(10)).await;
    // The page's stream opens once the board is drawn; a move made before it is open would come
    // as the state alone, without its news.
    page.wait_for(
        "source !== null && source.readyState === EventSource.OPEN",
        Duration::from_secs(10),
    )
    .await;
    (data, terminal, page_url, page)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_is_in_the_accessibility_tree_in_words_and_follows_a_move() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let (_data, mut terminal, page_url, mut page) = chess_page_in_play(&browser).await;

    // The position in words: every piece's square, the two kings' among them.
    let before = served_words(&page_url).await;
    for square in ["e1", "e8", "e2", "d1"] {
        assert!(before.contains(square), "{square} in: {before}");
    }
    wait_until_read(&mut page, &before).await;
    // The drawing itself is not read (its words stand for it), nor announced twice.
    let drawing_hidden = page
        .eval("document.getElementById('board-frame').getAttribute('aria-hidden')")
        .await;
    assert_eq!(drawing_hidden, json!("true"));

    terminal.send("alice: move e4");
    let mut after = served_words(&page_url).await;
    for _ in 0..100 {
        if after != before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        after = served_words(&page_url).await;
    }
    assert_ne!(after, before, "the words follow the move");
    assert!(after.contains("e4"), "the pawn on e4: {after}");
    wait_until_read(&mut page, &after).await;
    assert!(
        !accessible_text(&mut page).await.contains(&before),
        "the old position is no longer read"
    );
    terminal.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_and_news_are_announced_and_nothing_is_out_of_the_keyboards_reach() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let (_data, mut terminal, _, mut page) = chess_page_in_play(&browser).await;

    // Polite live regions: read when they change, without interrupting.
    for region in ["moves", "news"] {
        let live = page
            .eval(&format!(
                "document.getElementById('{region}').getAttribute('aria-live')"
            ))
            .await;
        assert_eq!(live, json!("polite"), "#{region}");
    }
    terminal.send("alice: move e4");
    page.wait_for(
        "document.getElementById('moves').textContent.includes('e4') && document.getElementById('news').children.length > 0",
        Duration::from_secs(10),
    )
    .await;
    let tree = accessible_text(&mut page).await;
    assert!(tree.contains("e4"), "the move is read: {tree}");

    // Whatever may take focus is in the tab order, and nothing the keyboard cannot reach has a
    // handler (the board's drawing holds no link or control).
    let unreachable = page
        .eval(
            "Array.from(document.querySelectorAll('a[href], button, input, select, textarea, [tabindex], [onclick], #board-frame a'))\
             .filter((e) => e.tabIndex < 0 || e.closest('[aria-hidden=\"true\"]') !== null)\
             .map((e) => e.outerHTML.slice(0, 80))",
        )
        .await;
    assert_eq!(unreachable, json!([]), "controls out of the keyboard's reach");
    terminal.kill();
}
