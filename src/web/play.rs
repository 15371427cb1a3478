//! Acting from a page: a player's own page (`/play/<token>`), where they click a unit to light
//! its targets, then a target, and make their secret choices, placements, picks and list; and a
//! Death Match host's panel (`/host/<token>`), whose buttons run the clocks and the match.
//!
//! Each token is given to its one holder privately (`/watch` in Discord, the terminal's
//! `watch`). A page acts through the same arena requests as a command, at the version it shows
//! (an out-of-date page is refused, as a stale menu is), counted against its holder's rate
//! limit, and what it does is announced where the game is played as if it were typed. Only a
//! same-site request with a JSON body acts: a form on another site cannot.

use super::Web;
use super::opened::{Opened, PageKind, not_found, open, unavailable};
use crate::arena::guide::{GuidedAction, Step};
use crate::arena::text::plain;
use crate::arena::{ArenaError, Caller, Effects, ListSource, Menu, PageRole, WatchState};
use crate::ids::UserId;
use crate::render::{Scene, square_spots};
use arbiter_engine::Seat;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::Deserialize;
use serde_json::{Value, json};
use std::fmt::Write;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<Web>> {
    Router::new()
        .route("/play/{token}/act", post(act))
        .route("/play/{token}/list", post(send_list))
        .route("/host/{token}/act", post(host_act))
}

/// A player's action, as their page sends it.
#[derive(Debug, Deserialize)]
struct ActBody {
    /// As `legal` writes it.
    action: String,
    /// The version the page showed.
    version: i64,
    /// The secret prompt the page answered, when it answered one.
    #[serde(default)]
    prompt_key: Option<String>,
}

/// A list, written or asked to be drawn.
#[derive(Debug, Deserialize)]
struct ListBody {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    drawn: bool,
}

/// What a host's panel asks.
#[derive(Debug, Deserialize)]
struct HostBody {
    /// `pause`, `resume`, `add-time`, `adjudicate`, `abort` or `rematch`.
    what: String,
    /// The player given time or adjudicated the win: `first` or `second` (none: a draw).
    #[serde(default)]
    seat: Option<String>,
    /// Seconds of reserve to add.
    #[serde(default)]
    seconds: Option<i64>,
}

async fn act(State(web): State<Arc<Web>>, Path(token): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    let (opened, user) = match acting_player(&web, &token, &headers).await {
        Ok(found) => found,
        Err(refused) => return refused,
    };
    let Ok(body) = serde_json::from_slice::<ActBody>(&body) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "The page sent something unreadable: reload it.",
        );
    };
    let menu = Menu {
        version: body.version,
        prompt_key: body.prompt_key,
    };
    let done = web
        .arena
        .play()
        .act_from_menu(opened.id, &user, &body.action, menu)
        .await;
    answer(&web, done)
}

async fn send_list(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (opened, user) = match acting_player(&web, &token, &headers).await {
        Ok(found) => found,
        Err(refused) => return refused,
    };
    let source = match serde_json::from_slice::<ListBody>(&body) {
        Ok(ListBody { drawn: true, .. }) => ListSource::Drawn,
        Ok(ListBody { text: Some(text), .. }) => ListSource::Text(text),
        _ => {
            return refused(
                StatusCode::BAD_REQUEST,
                "Write your list, one piece a line, or draw one.",
            );
        }
    };
    let done = web.arena.lists().submit(Some(opened.id), &user, source).await;
    answer(&web, done)
}

async fn host_act(State(web): State<Arc<Web>>, Path(token): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    if let Some(refusal) = cross_site_refusal(&headers, &web.base) {
        return refusal;
    }
    let Some(opened) = open(&web, PageKind::Host, &token).await else {
        return not_found();
    };
    let Ok(state) = web.arena.watching().state_as(opened.id, opened.viewer()).await else {
        return unavailable();
    };
    let Ok(Some(facts)) = web.arena.facts(opened.id).await else {
        return not_found();
    };
    let Some(host) = facts.host.clone() else {
        return not_found();
    };
    if let Some(wait) = web.limits.refusal(&host, web.arena.now()) {
        return refused(StatusCode::TOO_MANY_REQUESTS, &wait);
    }
    let Ok(body) = serde_json::from_slice::<HostBody>(&body) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "The panel sent something unreadable: reload it.",
        );
    };
    // The panel was given to the match's host: they act as its host wherever they are.
    let caller = Caller::host(&host, facts.server.as_ref());
    let player = |seat: &Option<String>| -> Option<UserId> {
        let seat = match seat.as_deref()? {
            "first" => Seat::First,
            "second" => Seat::Second,
            _ => return None,
        };
        state.players[seat.index()].user.clone()
    };
    let (id, matches) = (opened.id, web.arena.matches());
    let done = match body.what.as_str() {
        "pause" => matches.pause(id, &caller, true).await,
        "resume" => matches.pause(id, &caller, false).await,
        "add-time" => match (player(&body.seat), body.seconds) {
            (Some(player), Some(seconds)) => {
                let ms = seconds.saturating_mul(1000);
                matches.add_time(id, &caller, &player, ms).await
            }
            _ => Err(ArenaError::Rejected("say whose reserve and how many seconds".into())),
        },
        "adjudicate" => {
            matches
                .adjudicate(id, &caller, player(&body.seat).as_ref(), false)
                .await
        }
        "abort" => matches.adjudicate(id, &caller, None, true).await,
        "rematch" => {
            let place = facts.location.clone();
            web.arena
                .press(id, &caller, crate::arena::Button::Rematch, state.version, &place)
                .await
        }
        _ => Err(ArenaError::Rejected("that is not one of the panel's buttons".into())),
    };
    answer(&web, done)
}

/// The player a private page's token belongs to, once the request may act at all: same-site,
/// JSON, within the player's rate limit.
async fn acting_player(web: &Web, token: &str, headers: &HeaderMap) -> Result<(Opened, UserId), Response> {
    if let Some(refusal) = cross_site_refusal(headers, &web.base) {
        return Err(refusal);
    }
    let opened = open(web, PageKind::Play, token).await.ok_or_else(not_found)?;
    let Some(PageRole::Seat(seat)) = opened.role else {
        return Err(not_found());
    };
    let state = web
        .arena
        .watching()
        .state_as(opened.id, opened.viewer())
        .await
        .map_err(|_| unavailable())?;
    let user = state.players[seat.index()].user.clone().ok_or_else(not_found)?;
    if let Some(wait) = web.limits.refusal(&user, web.arena.now()) {
        return Err(refused(StatusCode::TOO_MANY_REQUESTS, &wait));
    }
    Ok((opened, user))
}

/// Refuses what another site could make a browser send: a request the browser marks as
/// cross-site, one from another origin than the pages' (`base`, or the host asked), or one that
/// is not JSON (a plain form's body is not, and a page elsewhere cannot send JSON here without
/// asking first, which is never allowed).
fn cross_site_refusal(headers: &HeaderMap, base: &str) -> Option<Response> {
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    let foreign_site = site.is_some_and(|site| site != "same-origin" && site != "none");
    let origin = text(header::ORIGIN);
    let host = text(header::HOST);
    let foreign_origin = !origin.is_empty()
        && origin.trim_end_matches('/') != base.trim_end_matches('/')
        && origin
            .split_once("://")
            .is_none_or(|(_, rest)| rest.trim_end_matches('/') != host);
    if foreign_site || foreign_origin {
        return Some(refused(
            StatusCode::FORBIDDEN,
            "Only the game's own page can act on it.",
        ));
    }
    if !text(header::CONTENT_TYPE).starts_with("application/json") {
        return Some(refused(StatusCode::UNSUPPORTED_MEDIA_TYPE, "Send the action as JSON."));
    }
    None
}

/// The answer to a page's action: what the actor is told, once what it changed is announced
/// where the game is played (as a typed command's would be); or why nothing changed.
fn answer(web: &Web, done: Result<Effects, ArenaError>) -> Response {
    match done {
        Ok(mut effects) => {
            let said = effects.reply.take().map(|reply| plain(&reply.text));
            web.announce(effects);
            axum::Json(json!({ "ok": true, "said": said })).into_response()
        }
        Err(error) => refused(StatusCode::CONFLICT, &plain(&error.to_string())),
    }
}

fn refused(status: StatusCode, text: &str) -> Response {
    (status, axum::Json(json!({ "ok": false, "refused": text }))).into_response()
}

/// Adds what a seat's page may do now: the actions by steps, the secret prompt it answers, and
/// whether it owes a list.
pub(super) async fn add_what_to_play(web: &Web, opened: &Opened, state: &WatchState, seat: Seat, json: &mut Value) {
    json["you"] = json!(seat.index());
    let Some(user) = state.players[seat.index()].user.clone() else {
        return;
    };
    let guide = match web.arena.play().guide(opened.id, &user, None).await {
        Ok(guide) if guide.version == state.version => Some(guide),
        _ => None,
    };
    let actions: Vec<Value> = guide.iter().flat_map(|g| &g.actions).map(action_json).collect();
    json["actions"] = Value::Array(actions);
    if let Ok(prompt) = web.arena.play().private_prompt(opened.id, &user).await
        && let Some(message) = prompt.direct_messages.first()
        && prompt.version == Some(state.version)
    {
        json["prompt"] = json!({
            "text": plain(message.text.reveal()),
            "key": message.prompt_key,
            "asks_for_list": message.asks_for_list,
        });
    }
}

/// What a host's panel shows beside the page: whether the clocks stand still.
pub(super) fn add_what_to_host(state: &WatchState, json: &mut Value) {
    json["paused"] = json!(state.paused);
}

fn action_json(action: &GuidedAction) -> Value {
    json!({
        "text": action.text,
        "steps": action.steps.iter().map(step_json).collect::<Vec<_>>(),
    })
}

fn step_json(step: &Step) -> Value {
    json!({
        "key": step.key,
        "label": step.label,
        "detail": step.detail,
        "at": step.at.map(|at| json!({ "board": at.board, "square": at.square.to_string() })),
    })
}

/// A seat's board, made to be clicked: a transparent square over each square of each board,
/// named by its board and square, drawn last so that it takes the clicks.
pub(super) fn add_squares_to_click(svg: &mut String, scene: &Scene) {
    let mut squares = String::from("<g class=\"squares\">");
    for (board, at, (x, y, side)) in square_spots(scene) {
        let _ = write!(
            squares,
            "<rect class=\"sq\" data-board=\"{board}\" data-square=\"{at}\" x=\"{x}\" y=\"{y}\" width=\"{side}\" \
             height=\"{side}\" fill=\"transparent\"/>"
        );
    }
    squares.push_str("</g>\n");
    if let Some(end) = svg.rfind("</svg>") {
        svg.insert_str(end, &squares);
    }
}
