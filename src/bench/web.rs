//! The live pages' and replays' costs: a replay's drawing time and size, how soon a move reaches
//! a page's event stream, and what open streams cost in memory. The pages are served with the
//! bot's default limits, and each stream comes from an address of its own in 127.0.0.0/8, as an
//! audience's would (one address may hold only a few streams).

use super::{GAME, percentile, scratch_sqlite};
use crate::arena::{Arena, ChallengeRequest, animation};
use crate::clock::SystemClock;
use crate::ids::{GameId, UserId};
use crate::model::{GameSetup, WhitePlayer};
use crate::render::{MOST_REPLAY_BYTES, Renderer};
use crate::web::{DisplayNames, Web, WebListener};
use anyhow::{Context, Result};
use arbiter_engine::{Action, AnyGame, Seat, VariantId};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::fmt::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Replays drawn `iterations` times each: a 93-frame chess game (lila-gif's measure) and a
/// 200-action game on Pick-the-team's 10x10 board.
pub fn replay(iterations: usize) -> Result<String> {
    let renderer = Renderer::new();
    let mut out = String::new();
    for (variant, actions) in [(VariantId::Chess, 92), (VariantId::PickTheTeam, 200)] {
        let (start, played, end) = random_game(variant, actions);
        let names = [Some("alice".to_string()), Some("bob".to_string())];
        let animation = animation(&start, &played, &end, names).map_err(anyhow::Error::msg)?;
        let mut times = Vec::with_capacity(iterations);
        let mut gif = None;
        for _ in 0..iterations.max(1) {
            let timer = Instant::now();
            gif = Some(renderer.gif(&animation, MOST_REPLAY_BYTES)?);
            times.push(timer.elapsed());
        }
        times.sort();
        let gif = gif.context("one drawing at least")?;
        let _ = writeln!(
            out,
            "replay {}: {} actions, {} frames, {} KiB; drawn in p50 {:.0} ms, min {:.0} ms ({} runs)",
            variant.name(),
            played.len(),
            gif.shown,
            gif.bytes.len().div_ceil(1024),
            percentile(&times, 50).as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times.len()
        );
    }
    Ok(out)
}

/// A game of `actions` actions chosen at random (the same every run), from a seed whose game
/// lasts that long.
fn random_game(variant: VariantId, actions: usize) -> (AnyGame, Vec<(Seat, Action)>, AnyGame) {
    let start = AnyGame::new(variant);
    for seed in 0.. {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = start.clone();
        let mut played = Vec::with_capacity(actions);
        while played.len() < actions {
            let Some(action) = super::play_at_random(&mut game, &mut rng) else {
                break;
            };
            played.push(action);
        }
        if played.len() == actions {
            return (start, played, game);
        }
    }
    unreachable!("some seed plays on")
}

/// `moves` moves through the arena, each timed until its state reached a page's event stream;
/// then `streams` streams of one game held open at once, the memory they took, and how soon a
/// move reached all of them.
pub async fn streams(moves: usize, streams: usize) -> Result<String> {
    let (store, dir) = scratch_sqlite().await?;
    let arena = Arena::new(store, Arc::new(SystemClock));
    let listening = WebListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), None)?;
    let addr = listening.local_addr()?;
    let web = Arc::new(Web::new(arena.clone(), Arc::new(DisplayNames), listening.base.clone()));
    tokio::spawn(web.serve(&listening, std::future::pending())?);
    let mut viewers = 0;
    let mut latencies = Vec::with_capacity(moves);
    let mut id_and_stream: Option<(GameId, [UserId; 2], usize, Stream)> = None;
    let mut games = 0;
    while latencies.len() < moves {
        let (id, players, ply, stream) = match id_and_stream.take() {
            Some(current) if current.2 < GAME.len() => current,
            _ => {
                games += 1;
                let (id, players) = new_game(&arena, games).await?;
                let token = arena.watching().token(id).await?;
                viewers += 1;
                let mut stream = Stream::open(addr, &token, viewers).await?;
                stream.wait_for("event: state").await?;
                (id, players, 0, stream)
            }
        };
        let mut stream = stream;
        let timer = Instant::now();
        let effects = arena.play().act(id, &players[ply % 2], GAME[ply]).await?;
        let version = effects.version.context("a move saves a version")?;
        // The state's keys are in order: its version comes last.
        stream.wait_for(&format!("\"version\":{version}}}")).await?;
        latencies.push(timer.elapsed());
        id_and_stream = Some((id, players, ply + 1, stream));
    }
    drop(id_and_stream);
    latencies.sort();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "event stream: {} moves, from the move's request to its state on the stream p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        latencies.len(),
        percentile(&latencies, 50).as_secs_f64() * 1e3,
        percentile(&latencies, 99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    // Many pages on one game: each stream costs what the server keeps for it.
    let (id, players) = new_game(&arena, games + 1).await?;
    let token = arena.watching().token(id).await?;
    let before = resident_kib();
    let mut open = Vec::with_capacity(streams);
    for _ in 0..streams {
        viewers += 1;
        let mut stream = Stream::open(addr, &token, viewers).await?;
        stream.wait_for("event: state").await?;
        open.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = resident_kib();
    if let (Some(before), Some(after)) = (before, after) {
        let _ = writeln!(
            out,
            "{} open event streams: resident memory {} MiB before, {} MiB after, {:.1} KiB a stream (server and client sockets both)",
            open.len(),
            before / 1024,
            after / 1024,
            after.saturating_sub(before) as f64 / open.len().max(1) as f64
        );
    }
    // A move before that audience: how soon the last of them has it.
    let timer = Instant::now();
    let effects = arena.play().act(id, &players[0], GAME[0]).await?;
    let version = effects.version.context("a move saves a version")?;
    for stream in &mut open {
        stream.wait_for(&format!("\"version\":{version}}}")).await?;
    }
    let _ = writeln!(
        out,
        "a move before {} open streams: on the last of them {:.0} ms after its request",
        open.len(),
        timer.elapsed().as_secs_f64() * 1e3
    );
    drop(open);
    let _ = std::fs::remove_dir_all(dir);
    Ok(out)
}

/// `moves` moves played by clicks on the players' own pages, each timed from its request
/// (`POST /play/<token>/act`) to the thread's post (the announcement made and its board image
/// drawn, ready to send) and to its state on a spectator's event stream, both at once.
pub async fn clicks(moves: usize) -> Result<String> {
    let (store, dir) = scratch_sqlite().await?;
    let arena = Arena::new(store, Arc::new(SystemClock));
    let listening = WebListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), None)?;
    let addr = listening.local_addr()?;
    let web = Arc::new(Web::new(arena.clone(), Arc::new(DisplayNames), listening.base.clone()));
    let (announce, mut announced) = tokio::sync::mpsc::channel(16);
    web.announce_to(announce);
    tokio::spawn(web.serve(&listening, std::future::pending())?);
    let renderer = Renderer::new();
    let (mut to_post, mut to_page) = (Vec::with_capacity(moves), Vec::with_capacity(moves));
    let mut games = 0;
    while to_post.len() < moves {
        games += 1;
        let (id, players) = new_game(&arena, games).await?;
        let mut pages = Vec::new();
        for player in &players {
            pages.push(arena.watching().seat_token(id, player, false).await?);
        }
        let token = arena.watching().token(id).await?;
        let mut stream = Stream::open(addr, &token, games).await?;
        stream.wait_for("event: state").await?;
        for (ply, action) in GAME.iter().enumerate().take(moves - to_post.len()) {
            let shown = arena.facts(id).await?.context("the game")?.version;
            let version = shown + 1;
            let body = format!("{{\"action\":\"{action}\",\"version\":{shown}}}");
            let timer = Instant::now();
            // Each player clicks from their own address, as players do (one address's clicks
            // would soon be over the pages' per-address limit).
            let player = viewer_address(PLAYERS_FROM + games * 2 + ply % 2);
            let answer = post_json(addr, player, &format!("/play/{}/act", pages[ply % 2]), &body).await?;
            anyhow::ensure!(answer.contains("\"ok\":true"), "the click was refused: {answer}");
            let post = async {
                let effects = announced.recv().await.context("the click is announced")?;
                let board = effects.posts.first().and_then(|post| post.board.clone());
                let board = board.context("the post shows the board")?;
                renderer.image(&board)?;
                anyhow::Ok(timer.elapsed())
            };
            let page = async {
                stream.wait_for(&format!("\"version\":{version}}}")).await?;
                anyhow::Ok(timer.elapsed())
            };
            let (post, page) = tokio::join!(post, page);
            to_post.push(post?);
            to_page.push(page?);
        }
    }
    let _ = std::fs::remove_dir_all(dir);
    let mut out = String::new();
    for (what, times) in [
        ("the thread's post (text and board image)", &mut to_post),
        ("the spectators' page", &mut to_page),
    ] {
        times.sort();
        let _ = writeln!(
            out,
            "click to {what}: {} moves, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            times.len(),
            percentile(times, 50).as_secs_f64() * 1e3,
            percentile(times, 99).as_secs_f64() * 1e3,
            times.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        );
    }
    Ok(out)
}

/// The players' addresses come after the spectators' (`viewer_address`).
const PLAYERS_FROM: usize = 100_000;

/// A JSON body posted to the pages from address `from`, as a page's script posts it; the
/// answer's body.
async fn post_json(addr: SocketAddr, from: IpAddr, path: &str, body: &str) -> Result<String> {
    let client = TcpSocket::new_v4()?;
    client.bind(SocketAddr::new(from, 0))?;
    let mut socket = client.connect(addr).await?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).await?;
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await?;
    Ok(answer)
}

/// The `n`th viewer's own address in 127.0.0.0/8 (from 127.0.1.1 on: 250 a block, so a million
/// viewers before the range runs out).
fn viewer_address(n: usize) -> IpAddr {
    let block = n / 250;
    let [high, low] = u16::try_from(1 + block).unwrap_or(u16::MAX).to_be_bytes();
    IpAddr::V4(Ipv4Addr::new(127, high, low, (1 + n % 250) as u8))
}

async fn new_game(arena: &Arena, number: usize) -> Result<(GameId, [UserId; 2])> {
    let white = UserId::new(format!("bench:w{number}"));
    let black = UserId::new(format!("bench:b{number}"));
    let request = ChallengeRequest::untimed(
        &black,
        GameSetup::new(VariantId::Chess),
        WhitePlayer::Challenger,
        "bench",
    );
    let id = arena
        .challenges()
        .challenge(&white, request)
        .await?
        .game
        .context("a challenge creates a game")?;
    arena.challenges().accept(id, &black).await?;
    Ok((id, [white, black]))
}

/// A page's event stream read as bytes off its socket.
struct Stream {
    socket: TcpStream,
    seen: String,
}

impl Stream {
    /// The stream of the `viewer`th page, from that viewer's own address.
    async fn open(addr: SocketAddr, token: &str, viewer: usize) -> Result<Stream> {
        let client = TcpSocket::new_v4()?;
        client.bind(SocketAddr::new(viewer_address(viewer), 0))?;
        let mut socket = client.connect(addr).await?;
        let request =
            format!("GET /watch/{token}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
        socket.write_all(request.as_bytes()).await?;
        Ok(Stream {
            socket,
            seen: String::new(),
        })
    }

    /// Reads until `text` arrives (then forgets what was read).
    async fn wait_for(&mut self, text: &str) -> Result<()> {
        let mut buffer = [0u8; 16 * 1024];
        while !self.seen.contains(text) {
            let read = tokio::time::timeout(Duration::from_secs(10), self.socket.read(&mut buffer))
                .await
                .context("the stream stalled")??;
            anyhow::ensure!(read > 0, "the stream closed");
            self.seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
        }
        self.seen.clear();
        Ok(())
    }
}

/// This process's resident memory, on Linux.
pub(crate) fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
