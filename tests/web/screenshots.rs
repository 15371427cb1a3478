//! The screenshots in docs/images (a Death Match, an Assault match and a Pick-the-team game, each
//! page on a desktop and a phone, its overlay at 1920x1080 and compact), taken by the real binary
//! and browser (those from before the last round of polish are in docs/images/web-before):
//! `ARBITER_SCREENSHOTS=docs/images cargo test --test web screenshots -- --ignored`.

use crate::browser::{Browser, tempdir};
use crate::pages::{BOARD_LOADED, legal};
use crate::terminal::Terminal;
use std::time::Duration;

/// Plays `turns` rounds of each player's first legal action in game `id`.
fn play_first_actions(terminal: &mut Terminal, id: u32, turns: usize) {
    for _ in 0..turns {
        for user in ["alice", "bob"] {
            terminal.send(&format!("{user}: legal #{id}"));
            let read = terminal.read_until(|line| line.starts_with(&format!("(to {user})")));
            let line = read.last().unwrap();
            if line.contains("error:") {
                continue;
            }
            let action = legal(terminal, user, id, false);
            terminal.send(&format!("{user}: move #{id} {action}"));
            terminal.read_until(|line| line.starts_with('[') || line.starts_with(&format!("(to {user})")));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes docs/images: run with ARBITER_SCREENSHOTS=docs/images"]
async fn screenshots() {
    let Some(out) = std::env::var_os("ARBITER_SCREENSHOTS") else {
        return;
    };
    let out = std::path::PathBuf::from(out);
    let data = tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    terminal.send("host: deathmatch alice bob alice garden 60s 5m");
    terminal.read_until(|line| line.contains("Death Match #1"));
    terminal.send("alice: side first");
    terminal.read_until(|line| line.contains("to place"));
    play_first_actions(&mut terminal, 1, 7);
    terminal.send("alice: challenge bob assault white");
    terminal.read_until(|line| line.contains("Game #2"));
    terminal.send("bob: accept #2");
    terminal.read_until(|line| line.contains("to move"));
    for action in [
        "alice: move #2 e4",
        "bob: move #2 d4",
        "bob: move #2 e5",
        "alice: move #2 d5",
    ] {
        terminal.send(action);
        terminal.read_until(|line| line.starts_with('[') || line.starts_with("(to"));
    }
    terminal.send("alice: challenge bob pick-the-team white");
    terminal.read_until(|line| line.contains("Game #3"));
    terminal.send("bob: accept #3");
    terminal.read_until(|line| line.contains("to place"));
    play_first_actions(&mut terminal, 3, 6);
    for (id, name) in [(1, "deathmatch"), (2, "assault"), (3, "pick-the-team")] {
        // A browser of its own for each game: Chromium keeps at most six connections to one
        // server, and each page left open holds one for its event stream.
        let browser = Browser::start().expect("Chromium");
        let (page_url, overlay_url) = terminal.links("carol", id);
        let mut page = browser.open_sized(&page_url, 1400, 900).await;
        page.wait_for(BOARD_LOADED, Duration::from_secs(20)).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        std::fs::write(out.join(format!("web-{name}-page.png")), page.screenshot_png().await).unwrap();
        let mut phone = browser.open_sized(&page_url, 390, 844).await;
        phone.wait_for(BOARD_LOADED, Duration::from_secs(20)).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        std::fs::write(out.join(format!("web-{name}-phone.png")), phone.screenshot_png().await).unwrap();
        for (address, file) in [
            (overlay_url.clone(), format!("web-{name}-overlay.png")),
            (
                format!("{overlay_url}?compact=1"),
                format!("web-{name}-overlay-compact.png"),
            ),
        ] {
            let mut overlay = browser.open_overlay(&address).await;
            overlay.wait_for(BOARD_LOADED, Duration::from_secs(20)).await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            std::fs::write(out.join(file), overlay.screenshot_png().await).unwrap();
        }
    }
    // A player's own page (the Assault game, alice to move, a unit clicked and its targets lit)
    // and the Death Match host's panel.
    let browser = Browser::start().expect("Chromium");
    terminal.send("alice: watch #2");
    let read = terminal.read_until(|line| line.contains("/play/"));
    let play = read.last().unwrap().clone();
    terminal.send("host: watch #1");
    let read = terminal.read_until(|line| line.contains("/host/"));
    let panel = read.last().unwrap().clone();
    for (width, height, file) in [(1400, 900, "web-play-page.png"), (390, 844, "web-play-phone.png")] {
        let mut page = browser.open_sized(&play, width, height).await;
        page.wait_for(BOARD_LOADED, Duration::from_secs(20)).await;
        page.wait_for(
            "document.querySelector('#board-frame .sq.can') !== null",
            Duration::from_secs(20),
        )
        .await;
        page.eval(
            "document.querySelector('#board-frame .sq[data-square=\"g1\"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        std::fs::write(out.join(file), page.screenshot_png().await).unwrap();
    }
    let mut host = browser.open_sized(&panel, 1400, 900).await;
    host.wait_for(BOARD_LOADED, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    std::fs::write(out.join("web-host-panel.png"), host.screenshot_png().await).unwrap();
}
