//! A game's page and overlay in a real browser, and its state and stream over plain HTTP.

use crate::browser::{Browser, Page, tempdir};
use crate::terminal::Terminal;
use serde_json::Value;
use std::time::{Duration, Instant};

/// The box of the board on the page: x, y, width, height.
async fn board_box(page: &mut Page) -> [u32; 4] {
    let rect = page
        .eval("(() => { const r = document.querySelector('#board-frame svg').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
        .await;
    let n = |i: usize| rect[i].as_f64().unwrap().round() as u32;
    [n(0), n(1), n(2), n(3)]
}

/// How many pixels of the box differ between two screenshots.
fn changed_pixels(before: &(u32, u32, Vec<u8>), after: &(u32, u32, Vec<u8>), [x, y, w, h]: [u32; 4]) -> usize {
    assert_eq!((before.0, before.1), (after.0, after.1));
    let mut changed = 0;
    for row in y..(y + h).min(before.1) {
        for col in x..(x + w).min(before.0) {
            let at = ((row * before.0 + col) * 4) as usize;
            if before.2[at..at + 3] != after.2[at..at + 3] {
                changed += 1;
            }
        }
    }
    changed
}

/// "4:58 + 0:00" or "4:58": the seconds the clock's text shows, summed.
fn seconds(text: &str) -> u64 {
    text.split('+')
        .map(|part| {
            part.trim()
                .split(':')
                .fold(0, |total, field| total * 60 + field.trim().parse::<u64>().unwrap_or(0))
        })
        .sum()
}

async fn text_of(page: &mut Page, selector: &str) -> String {
    page.eval(&format!("document.querySelector('{selector}').textContent"))
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// How long a page may take to show a move before the test calls it lost. Generous on purpose:
/// the latency players see is measured by `arbiter bench web`, never asserted by the clock here.
pub(crate) const FOLLOWS_WITHIN: Duration = Duration::from_secs(10);

pub(crate) const BOARD_LOADED: &str = "(() => { const frame = document.getElementById('board-frame'); return Boolean(frame.dataset.src) && frame.querySelector('svg') !== null; })()";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_follows_its_game_live_and_comes_back_after_a_restart() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let data = tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    terminal.send("alice: challenge bob chess white time 0+5m");
    terminal.read_until(|line| line.contains("Game #1"));
    terminal.send("bob: accept");
    terminal.read_until(|line| line.contains("to move"));
    let (page_url, overlay_url) = terminal.links("carol", 1);
    let token = page_url.rsplit('/').next().unwrap();
    assert!(
        token.len() == 32 && token.chars().all(|c| c.is_ascii_hexdigit()),
        "a page is found by an unguessable token, never its number: {page_url}"
    );

    let mut page = browser.open(&page_url).await;
    page.wait_for(BOARD_LOADED, Duration::from_secs(10)).await;
    assert!(text_of(&mut page, "#status").await.contains("to move"));
    // White's clock runs: its text counts down in the page by itself.
    let first = text_of(&mut page, "#player-bottom .clock").await;
    tokio::time::sleep(Duration::from_millis(2200)).await;
    let later = text_of(&mut page, "#player-bottom .clock").await;
    assert!(
        seconds(&later) < seconds(&first) && seconds(&first) <= 300,
        "{first} then {later}"
    );
    assert_eq!(
        text_of(&mut page, "#player-top .clock").await,
        "0:00 + 5:00",
        "Black's stands"
    );

    // A move through the arena: the board's pixels change on the screen. How soon is measured by
    // `arbiter bench web`, not here: a loaded test machine may take longer than a player's would.
    let board = board_box(&mut page).await;
    let before = page.screenshot().await;
    let moved = Instant::now();
    terminal.send("alice: move e4");
    loop {
        let now = page.screenshot().await;
        if changed_pixels(&before, &now, board) > 100 {
            break;
        }
        assert!(
            moved.elapsed() < FOLLOWS_WITHIN,
            "the board on the page did not change within {FOLLOWS_WITHIN:?} of the move"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    page.wait_for(
        "document.getElementById('moves').textContent.includes('e4')",
        FOLLOWS_WITHIN,
    )
    .await;

    // The overlay: 1920x1080 on a transparent background, names and clocks in big type.
    let mut overlay = browser.open_overlay(&overlay_url).await;
    overlay.wait_for(BOARD_LOADED, Duration::from_secs(10)).await;
    let asked = overlay.eval("document.getElementById('board-frame').dataset.src").await;
    assert!(
        asked.as_str().is_some_and(|src| src.ends_with("&layout=wide")),
        "the overlay asks for its board laid out for a wide screen: {asked}"
    );
    let shot = overlay.screenshot().await;
    assert_eq!((shot.0, shot.1), (1920, 1080));
    assert_eq!(shot.2[3], 0, "the overlay's corner is transparent");
    let [x, y, w, h] = board_box(&mut overlay).await;
    let centre = (((y + h / 2) * 1920 + x + w / 2) * 4 + 3) as usize;
    assert_eq!(shot.2[centre], 255, "the board is opaque");
    let clock_size = overlay
        .eval("parseFloat(getComputedStyle(document.querySelector('#player-bottom .clock')).fontSize)")
        .await;
    assert!(clock_size.as_f64().unwrap() >= 48.0, "{clock_size}");

    // The bot stops (as in a crash) and starts again on the same address: the page says it lost
    // the connection, reconnects by itself, and follows the game on.
    let base = terminal.base.clone();
    terminal.kill();
    page.wait_for("!document.getElementById('connection').hidden", Duration::from_secs(10))
        .await;
    let addr = base.trim_start_matches("http://").to_string();
    let mut terminal = Terminal::start(data.path(), &addr);
    terminal.send("bob: move e5");
    terminal.read_until(|line| line.contains("e5"));
    page.wait_for(
        "document.getElementById('moves').textContent.includes('e5') && document.getElementById('connection').hidden",
        Duration::from_secs(10),
    )
    .await;
}

/// The first legal action `user` has in game `id`, or their last.
pub(crate) fn legal(terminal: &mut Terminal, user: &str, id: u32, last: bool) -> String {
    terminal.send(&format!("{user}: legal #{id}"));
    let read = terminal.read_until(|line| line.starts_with(&format!("(to {user})")));
    let line = read.last().unwrap();
    let actions: Vec<&str> = line
        .trim_start_matches(&format!("(to {user})"))
        .split_whitespace()
        .collect();
    assert!(actions.len() > 1, "{line}");
    let pick = if last { actions[actions.len() - 1] } else { actions[0] };
    pick.to_string()
}

/// A state without what differs between two games alike: their numbers, tokens and times.
fn comparable(mut state: Value) -> Value {
    for key in ["game", "board", "now"] {
        state[key] = Value::Null;
    }
    state
}

/// A page's state as served.
async fn served_state(url: &str) -> Value {
    let text = crate::text_of(format!("{url}/state")).await;
    let state: Value = serde_json::from_str(&text).unwrap();
    comparable(state)
}

/// The first event of a page's stream: its name and its state.
async fn first_event(url: &str) -> (String, Value) {
    let mut response = reqwest::get(format!("{url}/events")).await.unwrap();
    let mut text = String::new();
    while !text.contains("\n\n") {
        match tokio::time::timeout(Duration::from_secs(10), response.chunk()).await {
            Ok(Ok(Some(chunk))) => text.push_str(&String::from_utf8_lossy(&chunk)),
            other => panic!("the stream ended or stalled: {other:?}\n{text}"),
        }
    }
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(&format!("{name}:")))
            .map(|value| value.trim().to_string())
            .unwrap_or_default()
    };
    let state: Value = serde_json::from_str(&field("data")).unwrap();
    (field("event"), comparable(state))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beirut_and_ctf_pages_hold_no_secret_before_the_reveal() {
    let browser = Browser::start();
    let data = tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    let mut id = 0;
    for variant in ["beirut", "ctf"] {
        // Two games alike but for the secret choices made in them.
        let mut pages = Vec::new();
        for last in [false, true] {
            id += 1;
            terminal.send(&format!("alice: challenge bob {variant} white"));
            terminal.read_until(|line| line.contains(&format!("Game #{id}")));
            terminal.send(&format!("bob: accept #{id}"));
            terminal.read_until(|line| line.contains(&format!("Game #{id}")));
            // CTF reveals both bases once both are in: only the first is in. Beirut's carriers
            // stay secret for good.
            let choosing: &[&str] = if variant == "ctf" {
                &["alice"]
            } else {
                &["alice", "bob"]
            };
            for &user in choosing {
                let secret = legal(&mut terminal, user, id, last);
                terminal.send(&format!("{user}: move #{id} {secret}"));
                terminal.read_until(|line| line.starts_with(&format!("(to {user})")) || line.starts_with('['));
            }
            terminal.send(&format!("carol: watch #{id}"));
            let read = terminal.read_until(|line| line.starts_with("http") && line.contains("/overlay/"));
            let page = read.iter().find(|line| line.contains("/watch/")).unwrap().clone();
            pages.push((id, page));
        }
        let [(first_id, first), (second_id, second)] = [pages[0].clone(), pages[1].clone()];
        assert_eq!(served_state(&first).await, served_state(&second).await, "{variant}");
        let token = |url: &str| url.rsplit('/').next().unwrap().to_string();
        let (event, state) = first_event(&first).await;
        assert_eq!(event, "state");
        assert_eq!(
            (event, state),
            first_event(&second).await,
            "{variant}: the streams say the same"
        );
        let board = |url: &str| format!("{url}/board.svg");
        assert_eq!(
            reqwest::get(board(&first)).await.unwrap().bytes().await.unwrap(),
            reqwest::get(board(&second)).await.unwrap().bytes().await.unwrap(),
            "{variant}: the boards are the same picture"
        );
        // And the page in a browser, its whole document, after its scripts ran.
        if let Some(browser) = &browser {
            let mut documents = Vec::new();
            for (game, url) in [(first_id, &first), (second_id, &second)] {
                let mut page = browser.open(url).await;
                page.wait_for(BOARD_LOADED, Duration::from_secs(10)).await;
                let html = page.eval("document.documentElement.outerHTML").await;
                let html = html.as_str().unwrap().replace(&token(url), "TOKEN");
                // The state the page came with (its game's number and moment) is compared above,
                // as the served state.
                let html = match html.split_once("<script id=\"initial-state\"") {
                    Some((before, after)) => format!("{before}{}", after.split_once("</script>").unwrap().1),
                    None => html,
                };
                documents.push(html.replace(&format!("Game #{game}"), "Game #N"));
            }
            assert_eq!(documents[0], documents[1], "{variant}: the pages are the same");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_round_prints_each_games_page() {
    let data = tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    terminal.send("host: tournament create Club | rounds 1 | variants chess");
    terminal.read_until(|line| line.contains("Club"));
    for player in ["p1", "p2", "p3", "p4"] {
        terminal.send(&format!("{player}: tournament join"));
        terminal.read_until(|line| line.contains("joined"));
    }
    terminal.send("host: tournament start");
    terminal.read_until(|line| line.starts_with("Watch round 1 live:"));
    let read = terminal.read_until(|line| line.starts_with("http") && line.contains("/watch/"));
    let more = terminal.read_until(|line| line.starts_with("http") && line.contains("/watch/"));
    let pages: Vec<&String> = read
        .iter()
        .chain(&more)
        .filter(|line| line.starts_with("http"))
        .collect();
    assert_eq!(
        pages.len(),
        2,
        "a page a game, each alone on its line: {read:?} {more:?}"
    );
    for page in pages {
        let state = crate::text_of(format!("{page}/state")).await;
        assert!(state.contains("\"variant\":\"Chess\""), "{state}");
    }
}

/// The operators' routes live on ARBITER_METRICS_ADDR alone: the public pages' address answers
/// them as it answers any unknown path.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_address_serves_no_operators_routes() {
    let data = tempdir::new();
    let terminal = Terminal::start(data.path(), "127.0.0.1:0");
    for route in ["/metrics", "/healthz", "/readyz"] {
        let answer = reqwest::get(format!("{}{route}", terminal.base)).await.unwrap();
        assert_eq!(answer.status(), 404, "{route}");
        let said = answer.text().await.unwrap();
        assert!(said.contains("No game here"), "{route}: {said}");
    }
}
