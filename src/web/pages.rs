//! The routes: a game's page and overlay, its state, stream and board image, and the files the
//! pages use (built into the binary). A token nobody was given gets a plain "no game here".
//! Every route passes the gate first (`gate.rs`: a request limit per client, caps on streams).

use super::gate::{Admitted, Gate, admit};
use super::opened::{Opened, PageKind, not_found, open, unavailable};
use super::{BOARD_CACHE, Web};
use crate::arena::{PageRole, WatchState};
use crate::render::{Decor, to_svg};
use arbiter_engine::Seat;
use axum::Router;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use std::sync::Arc;

const PAGE: &str = include_str!("../../assets/web/watch.html");
const STYLE: &str = include_str!("../../assets/web/watch.css");
const SCRIPT: &str = include_str!("../../assets/web/watch.js");
const PLAY_SCRIPT: &str = include_str!("../../assets/web/play.js");
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const BOLD_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

pub(super) fn router(web: Arc<Web>, gate: Arc<Gate>) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/watch/{token}", get(watch_page))
        .route("/overlay/{token}", get(overlay_page))
        .route("/play/{token}", get(play_page))
        .route("/host/{token}", get(host_page))
        .route("/{kind}/{token}/state", get(state))
        .route("/{kind}/{token}/events", get(events))
        .route("/{kind}/{token}/board.svg", get(board))
        .route("/{kind}/{token}/graph.svg", get(graph))
        .merge(super::play::routes())
        .route(
            "/assets/play.js",
            get(|| async { asset("text/javascript; charset=utf-8", PLAY_SCRIPT.as_bytes()) }),
        )
        .route(
            "/assets/watch.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE.as_bytes()) }),
        )
        .route(
            "/assets/watch.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT.as_bytes()) }),
        )
        .route("/assets/DejaVuSans.ttf", get(|| async { asset("font/ttf", FONT) }))
        .route(
            "/assets/DejaVuSans-Bold.ttf",
            get(|| async { asset("font/ttf", BOLD_FONT) }),
        )
        .fallback(|| async { not_found() })
        .with_state(web)
        .layer(axum::middleware::from_fn_with_state(gate, admit))
}

/// What the overlay's address may say.
#[derive(Debug, Default, Deserialize)]
pub(super) struct OverlayOptions {
    /// `black` (or the second side's name) puts that side at the bottom.
    bottom: Option<String>,
    /// `1`: the board and a slim bar, for a corner of the screen.
    compact: Option<String>,
    /// The board's layout: `wide` (the overlay's: boards side by side and the notes beside
    /// them), `bare` (the compact overlay's: the board alone, without key or legend).
    layout: Option<String>,
    /// `1`: the page as it stands, without its stream (for a capture tool: a screenshot of a
    /// page that streams waits as long as the stream is open).
    still: Option<String>,
    /// `1`: the overlay shows the game's evaluation graph once it is analysed (the page always
    /// does).
    graph: Option<String>,
}

async fn home() -> Html<&'static str> {
    Html(
        "<!doctype html><meta charset=utf-8><title>Arbiter</title><p>Arbiter's game pages. Ask the bot for a \
         game's links with <code>/watch</code>.</p>",
    )
}

async fn watch_page(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Query(options): Query<OverlayOptions>,
) -> Response {
    // The page takes a still too; its layout is its own.
    let options = OverlayOptions {
        still: options.still,
        graph: Some("1".into()),
        ..OverlayOptions::default()
    };
    let Some(opened) = open(&web, PageKind::Watch, &token).await else {
        return not_found();
    };
    page(&web, &opened, "watch", &options).await
}

async fn play_page(State(web): State<Arc<Web>>, Path(token): Path<String>) -> Response {
    let Some(opened) = open(&web, PageKind::Play, &token).await else {
        return not_found();
    };
    page(&web, &opened, "play", &OverlayOptions::default()).await
}

async fn host_page(State(web): State<Arc<Web>>, Path(token): Path<String>) -> Response {
    let Some(opened) = open(&web, PageKind::Host, &token).await else {
        return not_found();
    };
    page(&web, &opened, "host", &OverlayOptions::default()).await
}

/// The page a `kind` word and a token in an address open.
async fn open_at(web: &Web, (kind, token): &(String, String)) -> Option<Opened> {
    open(web, PageKind::parse(kind)?, token).await
}

async fn overlay_page(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Query(options): Query<OverlayOptions>,
) -> Response {
    let Some(opened) = open(&web, PageKind::Watch, &token).await else {
        return not_found();
    };
    page(&web, &opened, "overlay", &options).await
}

/// The page of a game a token opened (`mode`: `watch`, `overlay`, `play` or `host`). The token
/// goes into the page only as the address its script reads from (it is already in the page's
/// own address); no link on the page carries it elsewhere (no referrer is sent).
pub(super) async fn page(web: &Web, opened: &Opened, mode: &str, options: &OverlayOptions) -> Response {
    let id = opened.id;
    let flipped = bottom_is_second(options);
    let bottom = if flipped { "second" } else { "first" };
    let is_set = |option: &Option<String>| option.as_deref().is_some_and(|c| c == "1" || c == "true");
    let compact = is_set(&options.compact);
    // The first frame is in the page itself (its state and board), so it shows before the
    // stream opens: a capture tool's or OBS's first frame is the game, never "Connecting…".
    let (initial, board, board_src) = match web.arena.watching().state_as(id, opened.viewer()).await {
        Ok(state) => {
            let layout = match (mode, compact) {
                ("overlay", false) => BoardLayout::Wide,
                ("overlay", true) => BoardLayout::Bare,
                _ => BoardLayout::Page,
            };
            let json = web.page_json(opened, &state).await;
            let src = board_address(&json, flipped, layout);
            let svg = board_svg(web, opened, &state, flipped, layout).await;
            (script_safe(&json.to_string()), svg.as_ref().clone(), src)
        }
        Err(_) => ("null".to_string(), String::new(), String::new()),
    };
    let html = PAGE
        .replace("{{mode}}", mode)
        .replace("{{base}}", &opened.base)
        .replace("{{scripts}}", if opened.role.is_some() { PLAY_SCRIPT_TAG } else { "" })
        .replace("{{bottom}}", bottom)
        .replace("{{compact}}", if compact { "compact" } else { "" })
        .replace("{{graph}}", if is_set(&options.graph) { "1" } else { "0" })
        .replace("{{still}}", if is_set(&options.still) { "1" } else { "0" })
        .replace("{{board_src}}", &board_src)
        .replace("{{initial}}", &initial)
        .replace("{{palette}}", &list_palette(opened))
        .replace("{{board}}", &board);
    let mut response = Html(html).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    // A private page's address is its key: no request from it names it to anyone.
    headers.insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    response
}

/// A seat's page's pieces to click into a list (for the games of players' own pieces; it
/// shows only while the game asks for a list).
fn list_palette(opened: &Opened) -> String {
    if !matches!(opened.role, Some(PageRole::Seat(_))) {
        return String::new();
    }
    arbiter_engine::ai::lists::palette()
        .map(|line| {
            let name = line.split(',').next().unwrap_or(line);
            format!(
                "<button type=\"button\" data-line=\"{}\">{}</button>",
                html_escape(line),
                html_escape(name)
            )
        })
        .collect()
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The script a private page adds to the public page's: clicking to act.
const PLAY_SCRIPT_TAG: &str = "<script src=\"/assets/play.js\"></script>";

pub(super) fn bottom_is_second(options: &OverlayOptions) -> bool {
    options
        .bottom
        .as_deref()
        .is_some_and(|side| matches!(side.to_ascii_lowercase().as_str(), "black" | "second" | "blue"))
}

async fn state(State(web): State<Arc<Web>>, Path(address): Path<(String, String)>) -> Response {
    let Some(opened) = open_at(&web, &address).await else {
        return not_found();
    };
    match web.arena.watching().state_as(opened.id, opened.viewer()).await {
        Ok(state) => {
            let mut response = axum::Json(web.page_json(&opened, &state).await).into_response();
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
            response
        }
        Err(_) => unavailable(),
    }
}

/// A page's stream, when the caps leave room for it (before the database is asked anything:
/// a flood of streams costs no more than its refusals).
async fn events(
    State(web): State<Arc<Web>>,
    Extension(admitted): Extension<Admitted>,
    Path(address): Path<(String, String)>,
) -> Response {
    let slot = match admitted.open_stream() {
        Ok(slot) => slot,
        Err(refused) => return refused.into_response(),
    };
    let Some(opened) = open_at(&web, &address).await else {
        return not_found();
    };
    super::events::stream(web.clone(), opened, slot, admitted.stream_lifetime()).into_response()
}

/// The board as spectators see it now, as SVG (sharp at any size; the page's own fonts draw
/// its words). The page asks for it by version, so a browser's cache never shows an old one;
/// each version and side is drawn once.
async fn board(
    State(web): State<Arc<Web>>,
    Path(address): Path<(String, String)>,
    Query(options): Query<OverlayOptions>,
) -> Response {
    let Some(opened) = open_at(&web, &address).await else {
        return not_found();
    };
    let Ok(state) = web.arena.watching().state_as(opened.id, opened.viewer()).await else {
        return unavailable();
    };
    let flipped = bottom_is_second(&options);
    let layout = match options.layout.as_deref() {
        Some("wide") => BoardLayout::Wide,
        Some("bare") => BoardLayout::Bare,
        _ => BoardLayout::Page,
    };
    let svg = board_svg(&web, &opened, &state, flipped, layout).await;
    // A seat's board holds its secrets: kept by no cache but the player's own browser's.
    let caching = if opened.role.is_some() {
        "private, max-age=31536000, immutable"
    } else {
        "public, max-age=31536000, immutable"
    };
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, caching),
        ],
        svg.as_ref().clone(),
    )
        .into_response()
}

/// The evaluation graph of the finished game, once analysed (`/analyse`), from what the page's
/// viewer may know; 404 until then (the page asks again now and then).
async fn graph(State(web): State<Arc<Web>>, Path(address): Path<(String, String)>) -> Response {
    let Some(opened) = open_at(&web, &address).await else {
        return not_found();
    };
    let Ok(graph) = web.arena.records().kept_graph(opened.id, opened.viewer()).await else {
        return unavailable();
    };
    let Some(graph) = graph else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, "no-store")],
            "This game has not been analysed yet: /analyse makes its graph.",
        )
            .into_response();
    };
    // Kept for good once made; a seat's holds its secrets (their own page's alone).
    let caching = if opened.role.is_some() {
        "private, max-age=3600"
    } else {
        "public, max-age=3600"
    };
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, caching),
        ],
        graph.to_svg(),
    )
        .into_response()
}

/// How a page lays its board out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum BoardLayout {
    /// The page's: notes under the board.
    Page,
    /// The overlay's: laid out for a wide screen.
    Wide,
    /// The compact overlay's: the board alone, for a corner of the screen.
    Bare,
}

/// The board of `state` as the page draws it (each version, side and layout drawn once). The
/// page's bars name the players and count their clocks, so the board's own strips are left out,
/// except while pieces wait in hand to be placed, which only the strips show.
async fn board_svg(web: &Web, opened: &Opened, state: &WatchState, flipped: bool, layout: BoardLayout) -> Arc<String> {
    let key = (opened.id, state.version, flipped, layout, opened.viewer());
    if let Some(svg) = web.lock_boards().get(&key).cloned() {
        return svg;
    }
    let names = web.player_names(state).await;
    let mut image = Web::named_board(state, &names);
    let pieces_in_hand = image.view.hands.iter().any(|hand| !hand.is_empty());
    image.decor = Decor {
        bottom: flipped.then_some(Seat::Second),
        wide: layout == BoardLayout::Wide,
        without_players: !pieces_in_hand,
        ..image.decor
    };
    let mut scene = image.scene();
    if layout == BoardLayout::Bare {
        // A corner of the screen holds the board and the slim bar: what marks mean is on the
        // full overlay and the page.
        scene.key.clear();
        scene.legend.clear();
        scene.lines.clear();
    }
    let mut svg = to_svg(&scene);
    if matches!(opened.role, Some(PageRole::Seat(_))) {
        super::play::add_squares_to_click(&mut svg, &scene);
    }
    let svg = Arc::new(svg);
    let mut boards = web.lock_boards();
    if boards.len() >= BOARD_CACHE {
        boards.clear();
    }
    boards.insert(key, svg.clone());
    svg
}

/// The address the page's script asks the board at, for the state `json` (as `watch.js`
/// writes it), so the board already in the page is not fetched again.
fn board_address(json: &serde_json::Value, flipped: bool, layout: BoardLayout) -> String {
    let mut address = json["board"].as_str().unwrap_or_default().to_string();
    if flipped {
        address.push_str("&bottom=second");
    }
    match layout {
        BoardLayout::Page => {}
        BoardLayout::Wide => address.push_str("&layout=wide"),
        BoardLayout::Bare => address.push_str("&layout=bare"),
    }
    address
}

/// JSON that may stand inside a `<script>` element: no `</script>` or `<!--` can close it early.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn asset(content_type: &'static str, body: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

impl Web {
    fn lock_boards(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<super::BoardKey, Arc<String>>> {
        self.boards.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
