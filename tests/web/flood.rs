//! The live pages under a flood, served by the real binary (`arbiter local --web`) with small
//! caps set as an operator sets them: one address's flood of event streams is refused (429),
//! the pages full are refused (503), while a viewer at another address follows the game within a
//! second and the game goes on; streams give their place back when they end or their page goes;
//! each request counts against its address, read from X-Forwarded-For only when a trusted proxy
//! sent it. Every client is a distinct address of 127.0.0.0/8, as an audience's would be.

use crate::browser::{Browser, tempdir};
use crate::pages::{BOARD_LOADED, FOLLOWS_WITHIN};
use crate::terminal::Terminal;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A client of the pages from its own address, 127.0.0.`last`.
fn client(last: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::from([127, 0, 0, last]))
        .no_proxy()
        .build()
        .unwrap()
}

/// Asks for the page's event stream, with an `X-Forwarded-For` header when given.
async fn ask_stream(client: &reqwest::Client, page: &str, forwarded: Option<&str>) -> reqwest::Response {
    let mut request = client.get(format!("{page}/events"));
    if let Some(forwarded) = forwarded {
        request = request.header("x-forwarded-for", forwarded);
    }
    request.send().await.unwrap()
}

/// A stream that was let open.
async fn opened(client: &reqwest::Client, page: &str, forwarded: Option<&str>) -> reqwest::Response {
    let stream = ask_stream(client, page, forwarded).await;
    assert_eq!(stream.status(), 200, "{forwarded:?}: {:?}", stream.text().await);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    stream
}

/// A stream refused with `status`: what it said, a short plain text.
async fn refused(client: &reqwest::Client, page: &str, forwarded: Option<&str>, status: u16) -> String {
    let answer = ask_stream(client, page, forwarded).await;
    assert_eq!(answer.status(), status, "{forwarded:?}");
    assert!(
        answer.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"),
        "{:?}",
        answer.headers()
    );
    assert!(answer.headers().contains_key("retry-after"));
    answer.text().await.unwrap()
}

/// Reads `stream` until it has said `wanted` (within 10 s); all it said meanwhile.
async fn read_until(stream: &mut reqwest::Response, wanted: &str) -> String {
    let mut seen = String::new();
    while !seen.contains(wanted) {
        match tokio::time::timeout(Duration::from_secs(10), stream.chunk()).await {
            Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            other => panic!("the stream never said {wanted:?} ({other:?}); it said:\n{seen}"),
        }
    }
    seen
}

/// A game of chess between alice and bob: its page's address.
fn chess_game(terminal: &mut Terminal) -> String {
    terminal.send("alice: challenge bob chess white");
    terminal.read_until(|line| line.contains("Game #1"));
    terminal.send("bob: accept");
    terminal.read_until(|line| line.contains("to move"));
    terminal.links("carol", 1).0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_flood_is_refused_past_each_cap_while_a_viewer_elsewhere_follows_the_game() {
    let data = tempdir::new();
    let settings = [
        ("ARBITER_WEB_MAX_STREAMS", "12"),
        ("ARBITER_WEB_MAX_STREAMS_PER_ADDR", "4"),
    ];
    let mut terminal = Terminal::start_with(data.path(), "127.0.0.1:0", &settings);
    let page = chess_game(&mut terminal);

    // One address floods: its first four streams open, every one after that is refused.
    let flooder = client(2);
    let mut flood = Vec::new();
    for _ in 0..4 {
        flood.push(opened(&flooder, &page, None).await);
    }
    for _ in 0..20 {
        let said = refused(&flooder, &page, None, 429).await;
        assert!(said.contains("from your address (4 at most)"), "{said}");
    }

    // A viewer at another address: the move reaches its stream (how soon: `arbiter bench web`), and the
    // terminal (the arena behind it) took the move as usual.
    let viewer = client(3);
    let mut watching = opened(&viewer, &page, None).await;
    read_until(&mut watching, "event: state").await;
    let moved = Instant::now();
    terminal.send("alice: move e4");
    read_until(&mut watching, "\"moves\":\"1. e4\"").await;
    assert!(
        moved.elapsed() < FOLLOWS_WITHIN,
        "the move reached the viewer after {:?}",
        moved.elapsed()
    );
    terminal.read_until(|line| line.contains("played e4"));

    // Others fill the pages (4 + 1 open, then 4 and 3 more): the next address finds them full,
    // while the flooder still hears of its own cap.
    let (fourth, fifth) = (client(4), client(5));
    let mut others = Vec::new();
    for _ in 0..4 {
        others.push(opened(&fourth, &page, None).await);
    }
    for _ in 0..3 {
        others.push(opened(&fifth, &page, None).await);
    }
    let late = client(6);
    let said = refused(&late, &page, None, 503).await;
    assert!(said.contains("full just now (12 open)"), "{said}");
    refused(&flooder, &page, None, 429).await;
    let moved = Instant::now();
    terminal.send("bob: move e5");
    read_until(&mut watching, "\"moves\":\"1. e4 e5\"").await;
    assert!(moved.elapsed() < FOLLOWS_WITHIN, "{:?}", moved.elapsed());
    terminal.read_until(|line| line.contains("played e5"));

    // The flood's pages go: their places are given back, and the late viewer gets in.
    drop(flood);
    let until = Instant::now() + Duration::from_secs(20);
    let mut late_stream = loop {
        let answer = ask_stream(&late, &page, None).await;
        if answer.status() == 200 {
            break answer;
        }
        assert_eq!(answer.status(), 503);
        assert!(Instant::now() < until, "the flood's places were never given back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    read_until(&mut late_stream, "\"moves\":\"1. e4 e5\"").await;
    for _ in 0..3 {
        opened(&flooder, &page, None).await;
    }
}

/// A page's event stream asked for over a bare socket from `from` (a thousand clients cost a
/// thousand sockets, nothing more).
async fn bare_stream(server: SocketAddr, path: &str, from: IpAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut stream = socket.connect(server).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {server}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// Reads a bare stream until it has said `wanted`, by `deadline`; all it said meanwhile.
async fn bare_read_until(stream: &mut TcpStream, wanted: &str, deadline: Instant) -> String {
    let mut seen = String::new();
    let mut buffer = [0u8; 8192];
    while !seen.contains(wanted) {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(read)) if read > 0 => seen.push_str(&String::from_utf8_lossy(&buffer[..read])),
            other => panic!("the stream never said {wanted:?} ({other:?}); it said:\n{seen}"),
        }
    }
    seen
}

/// The `n`th viewer's own address: 127.0.1.1, 127.0.1.2, ... 250 a block.
fn viewer_address(n: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8))
}

/// The audience the caps must never turn away: a thousand viewers of one game, each at an
/// address of its own, under the default settings. All of them get the game, and a move reaches
/// every one within a few seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_viewers_at_their_own_addresses_all_follow_one_game() {
    const VIEWERS: usize = 1000;
    // This process holds a socket per viewer (the server raises its own limit).
    rlimit::increase_nofile_limit(4 * VIEWERS as u64).unwrap();
    let data = tempdir::new();
    let mut terminal = Terminal::start(data.path(), "127.0.0.1:0");
    let page = chess_game(&mut terminal);
    let server: SocketAddr = terminal.base.trim_start_matches("http://").parse().unwrap();
    let path = format!("{}/events", &page[terminal.base.len()..]);
    let mut audience = Vec::with_capacity(VIEWERS);
    for viewer in 0..VIEWERS {
        audience.push(bare_stream(server, &path, viewer_address(viewer)).await);
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    for stream in &mut audience {
        let said = bare_read_until(stream, "event: state", deadline).await;
        assert!(said.starts_with("HTTP/1.1 200 OK"), "{said}");
    }
    terminal.send("alice: move e4");
    terminal.read_until(|line| line.contains("played e4"));
    let deadline = Instant::now() + Duration::from_secs(5);
    for stream in &mut audience {
        bare_read_until(stream, "\"moves\":\"1. e4\"", deadline).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_ends_when_its_lifetime_is_up_and_gives_its_place_back() {
    let data = tempdir::new();
    let settings = [
        ("ARBITER_WEB_STREAM_LIFETIME_SECS", "2"),
        ("ARBITER_WEB_MAX_STREAMS_PER_ADDR", "1"),
    ];
    let mut terminal = Terminal::start_with(data.path(), "127.0.0.1:0", &settings);
    let page = chess_game(&mut terminal);
    let viewer = client(7);
    let started = Instant::now();
    let mut stream = opened(&viewer, &page, None).await;
    refused(&viewer, &page, None, 429).await;
    // The stream says its time is up, then ends (its lifetime less up to a tenth).
    let mut seen = read_until(&mut stream, "event: reconnect").await;
    loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.chunk()).await {
            Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            Ok(Ok(None)) => break,
            other => panic!("the stream did not end ({other:?}); it said:\n{seen}"),
        }
    }
    let lasted = started.elapsed();
    assert!(lasted >= Duration::from_millis(1700), "it lasted {lasted:?}");
    assert!(seen.starts_with("event: state\n"), "{seen}");
    // Its place is free again: the page's next stream opens.
    let mut again = opened(&viewer, &page, None).await;
    read_until(&mut again, "event: state").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_an_addresss_burst_are_answered_429_with_retry_after() {
    let data = tempdir::new();
    let settings = [("ARBITER_WEB_RATE", "1"), ("ARBITER_WEB_BURST", "5")];
    let mut terminal = Terminal::start_with(data.path(), "127.0.0.1:0", &settings);
    let page = chess_game(&mut terminal);
    let hasty = client(8);
    let mut answers = Vec::new();
    for _ in 0..20 {
        let answer = hasty.get(format!("{page}/state")).send().await.unwrap();
        let status = answer.status().as_u16();
        if status == 429 {
            let wait: u64 = answer.headers()["retry-after"].to_str().unwrap().parse().unwrap();
            assert!(wait >= 1, "{wait}");
            let said = answer.text().await.unwrap();
            assert!(said.starts_with("Too many requests from your address"), "{said}");
            break;
        }
        answers.push(status);
    }
    assert!(
        answers.len() >= 5 && answers.len() < 20,
        "the burst of 5 passes, then 429: {answers:?}"
    );
    assert!(answers.iter().all(|&status| status == 200), "{answers:?}");
    // Every route counts, the pages' files too; another address is not slowed.
    let answer = hasty.get(format!("{page}/board.svg")).send().await.unwrap();
    assert_eq!(answer.status(), 429);
    let other = client(9);
    let answer = other.get(format!("{page}/state")).send().await.unwrap();
    assert_eq!(answer.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn x_forwarded_for_names_the_client_only_when_a_trusted_proxy_sends_it() {
    let data = tempdir::new();
    let settings = [
        ("ARBITER_TRUSTED_PROXIES", "127.0.0.10, ::1"),
        ("ARBITER_WEB_MAX_STREAMS_PER_ADDR", "1"),
    ];
    let mut terminal = Terminal::start_with(data.path(), "127.0.0.1:0", &settings);
    let page = chess_game(&mut terminal);

    // Not a proxy: whatever it forwards, it is one client.
    let stranger = client(11);
    let _first = opened(&stranger, &page, Some("203.0.113.1")).await;
    refused(&stranger, &page, Some("203.0.113.2"), 429).await;

    // The trusted proxy: each address it forwards is a client of its own.
    let proxy = client(10);
    let _one = opened(&proxy, &page, Some("203.0.113.1")).await;
    let _two = opened(&proxy, &page, Some("203.0.113.2")).await;
    // What a client wrote itself stands left of what the proxy added, and is not believed.
    refused(&proxy, &page, Some("198.51.100.7, 203.0.113.1"), 429).await;
    refused(&proxy, &page, Some("203.0.113.2, 127.0.0.10"), 429).await;
    // Without the header, the proxy is the client.
    let _itself = opened(&proxy, &page, None).await;
    refused(&proxy, &page, None, 429).await;
}

/// In a browser: a page whose stream's time is up opens another quietly (no "connection lost")
/// and follows the game on; a page refused because its address holds its share keeps trying,
/// and gets in once a place is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_comes_back_after_its_streams_lifetime_and_after_a_refusal() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let data = tempdir::new();
    let short_lived = [("ARBITER_WEB_STREAM_LIFETIME_SECS", "2")];
    let mut terminal = Terminal::start_with(data.path(), "127.0.0.1:0", &short_lived);
    let page_url = chess_game(&mut terminal);
    let mut page = browser.open(&page_url).await;
    page.wait_for(BOARD_LOADED, Duration::from_secs(10)).await;
    page.eval(
        "window.connectionShown = 0; new MutationObserver(() => { \
         if (!document.getElementById('connection').hidden) window.connectionShown += 1; }) \
         .observe(document.getElementById('connection'), { attributes: true }); true",
    )
    .await;
    // Three lifetimes go by; then a move reaches the page all the same.
    tokio::time::sleep(Duration::from_secs(6)).await;
    terminal.send("alice: move e4");
    page.wait_for(
        "document.getElementById('moves').textContent.includes('e4')",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        page.eval("window.connectionShown").await,
        serde_json::json!(0),
        "the page never said it lost the connection"
    );
    drop(terminal);

    // One stream per address: a second page is refused, says so, and gets in once the first is
    // left for another page (kept in the browser's back-forward cache, it gives its stream back).
    let data = tempdir::new();
    let one_each = [("ARBITER_WEB_MAX_STREAMS_PER_ADDR", "1")];
    let mut terminal = Terminal::start_with(data.path(), "127.0.0.1:0", &one_each);
    let page_url = chess_game(&mut terminal);
    let mut first = browser.open(&page_url).await;
    first.wait_for(BOARD_LOADED, Duration::from_secs(10)).await;
    let mut second = browser.open(&page_url).await;
    second
        .wait_for("!document.getElementById('connection').hidden", Duration::from_secs(10))
        .await;
    // Refused, it still shows the game as the page itself brought it (its first frame).
    assert_eq!(second.eval(BOARD_LOADED).await, serde_json::json!(true));
    first
        .call("Page.navigate", serde_json::json!({ "url": "about:blank" }))
        .await;
    second
        .wait_for("document.getElementById('connection').hidden", Duration::from_secs(20))
        .await;
    // In, it follows the game.
    terminal.send("alice: move e4");
    second
        .wait_for(
            "document.getElementById('moves').textContent.includes('e4')",
            Duration::from_secs(10),
        )
        .await;
}
