//! A Death Match's page hears what its audience hears, as it happens: the game-show warnings as
//! the clock passes them and the forfeit when a reserve runs out, each as a `news` event followed
//! by the new state, on a clock the test controls.

use crate::support;
use arbiter::arena::{Caller, MatchRequest};
use arbiter::clock::TimeControl;
use arbiter::ids::{Places, ServerId, UserId};
use arbiter::scheduler::Scheduler;
use arbiter::web::{DisplayNames, Web, WebListener};
use arbiter_engine::{Seat, VariantId};
use std::sync::Arc;
use std::time::Duration;

/// Reads a stream until it has said `wanted`; all it said.
async fn read_until(stream: &mut reqwest::Response, seen: &mut String, wanted: &str) {
    while !seen.contains(wanted) {
        match tokio::time::timeout(Duration::from_secs(10), stream.chunk()).await {
            Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            other => panic!("the stream never said {wanted:?} ({other:?}); it said:\n{seen}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matchs_stream_carries_its_warnings_and_forfeit_as_they_happen() {
    let db = support::sqlite().await;
    let (arena, clock) = support::arena(&db);
    let id = standard_match(&arena).await;
    let links = serve_pages(&arena, id).await;
    let mut stream = reqwest::get(format!("{}/events", links.page)).await.unwrap();
    assert_eq!(stream.headers()["content-type"].to_str().unwrap(), "text/event-stream");
    let mut seen = String::new();
    read_until(&mut stream, &mut seen, "\"status\":\"red (Red) to place.\"").await;
    assert!(seen.starts_with("event: state\n"), "{seen}");
    assert!(
        seen.contains("retry: 1000"),
        "a dropped page comes back within a second: {seen}"
    );

    // Red lets the clock run: a quarter of the normal time left, then the reserve, then the
    // reserve's last seconds, then the forfeit, each heard as the scheduler fires it.
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("show"));
    let mut heard = Vec::new();
    for (seconds, expected) in [
        (45, "0:15 of normal time left in this turn"),
        (15, "your normal time is over; your reserve is running"),
        (240, "1:00 of reserve left"),
        (60, "red ran out of time"),
    ] {
        clock.advance(seconds * 1000);
        scheduler.run_once().await.unwrap();
        seen.clear();
        read_until(&mut stream, &mut seen, expected).await;
        assert!(seen.contains("event: news\n"), "{seen}");
        heard.push(expected);
    }
    read_until(&mut stream, &mut seen, "\"finished\":true").await;
    assert!(seen.contains("wins by time"), "{seen}");
    assert_eq!(heard.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_overlay_takes_the_side_at_the_bottom_and_a_compact_layout() {
    let db = support::sqlite().await;
    let (_arena, links) = served(&db, VariantId::Chess).await;
    let plain = crate::text_of(links.overlay.clone()).await;
    assert!(
        plain.contains("class=\"overlay \"") && plain.contains("data-bottom=\"first\""),
        "{plain}"
    );
    let asked = crate::text_of(format!("{}?bottom=black&compact=1", links.overlay)).await;
    assert!(
        asked.contains("class=\"overlay compact\"") && asked.contains("data-bottom=\"second\""),
        "{asked}"
    );
    // The board from Black's side: rank 8 is drawn below rank 1 (the page's bars name the
    // players; the board's own strips are left out).
    let page = links.page.clone();
    let white_side = crate::text_of(format!("{page}/board.svg?v=1")).await;
    let black_side = crate::text_of(format!("{page}/board.svg?v=1&bottom=second")).await;
    // A rank's number is a `<tspan x=".." y="..">8</tspan>` beside the board.
    let rank_y = |svg: &str, rank: &str| {
        let end = svg
            .find(&format!("\">{rank}</tspan>"))
            .unwrap_or_else(|| panic!("rank {rank} in {svg}"));
        let start = svg[..end].rfind("y=\"").unwrap() + 3;
        svg[start..end].parse::<f32>().unwrap()
    };
    assert!(rank_y(&white_side, "8") < rank_y(&white_side, "1"));
    assert!(rank_y(&black_side, "8") > rank_y(&black_side, "1"));
    assert!(!white_side.contains("alice (White)"), "{white_side}");
}

/// CTF's short key stays under its board on the overlay too: no column beside the board holds
/// only four lines; the compact overlay's board leaves the key out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_key_stays_under_the_overlays_board() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let id = support::started(&arena, VariantId::Ctf).await;
    support::play_in_turn(&arena, id, &["base:e3", "base:e6"]).await;
    let links = serve_pages(&arena, id).await;
    let page = links.page.clone();
    let on_page = crate::text_of(format!("{page}/board.svg?v=1")).await;
    let on_overlay = crate::text_of(format!("{page}/board.svg?v=1&layout=wide")).await;
    assert!(on_overlay.contains("flag"), "the key is drawn: {on_overlay}");
    assert_eq!(
        number(&on_overlay, "width"),
        number(&on_page, "width"),
        "no column beside the board"
    );
    // The compact overlay's board is the board alone.
    let bare = crate::text_of(format!("{page}/board.svg?v=1&layout=bare")).await;
    assert!(!bare.contains("flag"), "{bare}");
    assert!(number(&bare, "height") < number(&on_overlay, "height"));
}

/// Pick-the-team's pool and legend lie under its board on a page, and beside it on the overlay
/// (which asks for a wide layout); Assault's boards stand side by side there too.
/// On a wide screen the boards stay large.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tall_games_overlay_board_is_laid_out_for_a_wide_screen() {
    let db = support::sqlite().await;
    for variant in [VariantId::PickTheTeam, VariantId::Assault] {
        let (_arena, links) = served(&db, variant).await;
        let page = links.page.clone();
        let on_page = crate::text_of(format!("{page}/board.svg?v=1")).await;
        let on_overlay = crate::text_of(format!("{page}/board.svg?v=1&layout=wide")).await;
        let (width, height) = (number(&on_page, "width"), number(&on_page, "height"));
        if variant == VariantId::PickTheTeam {
            // (Assault's two boards stand side by side everywhere.)
            assert!(height > width, "{variant}: a tall image on a page ({width}x{height})");
        }
        let (width, height) = (number(&on_overlay, "width"), number(&on_overlay, "height"));
        assert!(
            width > height,
            "{variant}: a wide image on the overlay ({width}x{height})"
        );
        if variant == VariantId::PickTheTeam {
            // The 10x10 board is 460 px wide from 22 px in: beside it, the pool starts right of it.
            let pool_x = |svg: &str| {
                let at = svg.find(">Pool:").unwrap_or_else(|| panic!("a pool in {svg}"));
                number(&svg[svg[..at].rfind("<text").unwrap()..at], "x")
            };
            let (under, beside) = (pool_x(&on_page), pool_x(&on_overlay));
            assert!(under < 20.0 && beside > 482.0, "the pool at {under}, then at {beside}");
        }
    }
}

/// The first value of `attribute` in an SVG text (the image's own, for its size), as a number.
fn number(svg: &str, attribute: &str) -> f32 {
    let value = svg.split(&format!("{attribute}=\"")).nth(1).unwrap();
    value.split('"').next().unwrap().parse().unwrap()
}

/// A standard Garden of Statues match in "show" (60 s a turn, 5 minutes' reserve), red (who
/// holds the Advantage) moving first: red is to place, their clock running.
pub(crate) async fn standard_match(arena: &support::TestArena) -> arbiter::ids::GameId {
    let server = ServerId::new("test-server");
    let (red, blue) = (UserId::new("test:red"), UserId::new("test:blue"));
    let request = MatchRequest {
        variant: VariantId::Garden,
        players: [red.clone(), blue.clone()],
        advantage: red.clone(),
        control: TimeControl::STANDARD,
        location: "show".into(),
        computer: None,
    };
    let host = Caller::host(&UserId::new("test:host"), Some(&server));
    let id = arena.matches().start(&host, request).await.unwrap().game.unwrap();
    arena
        .matches()
        .choose_side(id, &Caller::player(&red, Some(&server)), Seat::First)
        .await
        .unwrap();
    id
}

/// The pages of `arena`'s games served until the test ends: game `id`'s links.
pub(crate) async fn serve_pages(arena: &support::TestArena, id: arbiter::ids::GameId) -> arbiter::web::WatchLinks {
    let listening = WebListener::bind("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let web = Arc::new(Web::new(arena.arena(), Arc::new(DisplayNames), listening.base.clone()));
    let links = web.links(id).await.unwrap();
    tokio::spawn(web.serve(&listening, std::future::pending()).unwrap());
    links
}

/// A game of `variant` started on `db`, its pages served until the test ends: its arena and links.
pub(crate) async fn served(db: &support::TestDb, variant: VariantId) -> (support::TestArena, arbiter::web::WatchLinks) {
    let (arena, _) = support::arena(db);
    let id = support::started(&arena, variant).await;
    let links = serve_pages(&arena, id).await;
    (arena, links)
}

/// A finished game's evaluation graph: none before `/analyse`, then on the page (always) and on
/// the overlay when asked (`?graph=1`), as SVG with its words for a screen reader.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_graph_shows_once_it_is_analysed() {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let id = support::started(&arena, VariantId::Chess).await;
    let links = serve_pages(&arena, id).await;
    support::play_alternately(&arena, id, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#").await;
    let graph = format!("{}/graph.svg", links.page);
    let before = reqwest::get(&graph).await.unwrap();
    assert_eq!(before.status(), 404, "not analysed yet");
    arena
        .records()
        .analyse(id, &support::asking(&support::carol()))
        .await
        .unwrap();
    let after = reqwest::get(&graph).await.unwrap();
    assert_eq!(after.status(), 200);
    let svg = after.text().await.unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<title>Game #") && svg.contains("3... Nf6??"),
        "{svg}"
    );
    assert!(crate::text_of(links.page.clone()).await.contains("data-graph=\"1\""));
    assert!(crate::text_of(links.overlay.clone()).await.contains("data-graph=\"0\""));
    let asked = crate::text_of(format!("{}?graph=1", links.overlay)).await;
    assert!(
        asked.contains("data-graph=\"1\"") && asked.contains("id=\"graph-frame\""),
        "{asked}"
    );
}
