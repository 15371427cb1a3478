//! The routes: a game's page and overlay, its state, stream and board image, and the files the
//! pages use (built into the binary). A token nobody was given gets a plain "no game here".
//! Every route passes the gate first (`gate.rs`: a request limit per client, caps on streams).

use super::gate::{Admitted, Gate, admit};
use super::{BOARD_CACHE, Web};
use crate::arena::WatchState;
use crate::ids::GameId;
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
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const BOLD_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

pub(super) fn router(web: Arc<Web>, gate: Arc<Gate>) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/watch/{token}", get(watch_page))
        .route("/overlay/{token}", get(overlay_page))
        .route("/watch/{token}/state", get(state))
        .route("/watch/{token}/events", get(events))
        .route("/watch/{token}/board.svg", get(board))
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
struct OverlayOptions {
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
        ..OverlayOptions::default()
    };
    page(&web, &token, "watch", &options).await
}

async fn overlay_page(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Query(options): Query<OverlayOptions>,
) -> Response {
    page(&web, &token, "overlay", &options).await
}

/// The page, once its token is known to name a game. The token goes into the page only as the
/// address its script reads from (it is already in the page's own address).
async fn page(web: &Web, token: &str, mode: &str, options: &OverlayOptions) -> Response {
    let Ok(Some(id)) = web.arena.watching().game(token).await else {
        return not_found();
    };
    let flipped = bottom_is_second(options);
    let bottom = if flipped { "second" } else { "first" };
    let is_set = |option: &Option<String>| option.as_deref().is_some_and(|c| c == "1" || c == "true");
    let compact = is_set(&options.compact);
    // The first frame is in the page itself (its state and board), so it shows before the
    // stream opens: a capture tool's or OBS's first frame is the game, never "Connecting…".
    let (initial, board, board_src) = match web.arena.watching().state(id).await {
        Ok(state) => {
            let layout = match (mode, compact) {
                ("overlay", false) => BoardLayout::Wide,
                ("overlay", true) => BoardLayout::Bare,
                _ => BoardLayout::Page,
            };
            let json = web.state_json(token, &state).await;
            let src = board_address(&json, flipped, layout);
            let svg = board_svg(web, id, &state, flipped, layout).await;
            (script_safe(&json.to_string()), svg.as_ref().clone(), src)
        }
        Err(_) => ("null".to_string(), String::new(), String::new()),
    };
    let html = PAGE
        .replace("{{mode}}", mode)
        .replace("{{token}}", token)
        .replace("{{bottom}}", bottom)
        .replace("{{compact}}", if compact { "compact" } else { "" })
        .replace("{{still}}", if is_set(&options.still) { "1" } else { "0" })
        .replace("{{board_src}}", &board_src)
        .replace("{{initial}}", &initial)
        .replace("{{board}}", &board);
    let mut response = Html(html).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    response
}

fn bottom_is_second(options: &OverlayOptions) -> bool {
    options
        .bottom
        .as_deref()
        .is_some_and(|side| matches!(side.to_ascii_lowercase().as_str(), "black" | "second" | "blue"))
}

async fn state(State(web): State<Arc<Web>>, Path(token): Path<String>) -> Response {
    let Ok(Some(id)) = web.arena.watching().game(&token).await else {
        return not_found();
    };
    match web.arena.watching().state(id).await {
        Ok(state) => axum::Json(web.state_json(&token, &state).await).into_response(),
        Err(_) => unavailable(),
    }
}

/// A page's stream, when the caps leave room for it (before the database is asked anything:
/// a flood of streams costs no more than its refusals).
async fn events(
    State(web): State<Arc<Web>>,
    Extension(admitted): Extension<Admitted>,
    Path(token): Path<String>,
) -> Response {
    let slot = match admitted.open_stream() {
        Ok(slot) => slot,
        Err(refused) => return refused.into_response(),
    };
    let Ok(Some(id)) = web.arena.watching().game(&token).await else {
        return not_found();
    };
    super::events::stream(web.clone(), id, token, slot, admitted.stream_lifetime()).into_response()
}

/// The board as spectators see it now, as SVG (sharp at any size; the page's own fonts draw
/// its words). The page asks for it by version, so a browser's cache never shows an old one;
/// each version and side is drawn once.
async fn board(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Query(options): Query<OverlayOptions>,
) -> Response {
    let Ok(Some(id)) = web.arena.watching().game(&token).await else {
        return not_found();
    };
    let Ok(state) = web.arena.watching().state(id).await else {
        return unavailable();
    };
    let flipped = bottom_is_second(&options);
    let layout = match options.layout.as_deref() {
        Some("wide") => BoardLayout::Wide,
        Some("bare") => BoardLayout::Bare,
        _ => BoardLayout::Page,
    };
    let svg = board_svg(&web, id, &state, flipped, layout).await;
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        svg.as_ref().clone(),
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
async fn board_svg(web: &Web, id: GameId, state: &WatchState, flipped: bool, layout: BoardLayout) -> Arc<String> {
    let key = (id, state.version, flipped, layout);
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
    let svg = Arc::new(to_svg(&scene));
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

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(
            "<!doctype html><meta charset=utf-8><title>No game here</title><p>No game here: the link may be \
             mistyped or cut short. Ask the bot for it again with <code>/watch</code>.</p>",
        ),
    )
        .into_response()
}

fn unavailable() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "The game cannot be read just now; the page tries again by itself.",
    )
        .into_response()
}

impl Web {
    fn lock_boards(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<super::BoardKey, Arc<String>>> {
        self.boards.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
