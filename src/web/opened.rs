//! Which game and whose view a page's token opens: the public page's, a seat's own page's or a
//! host's panel's; and the plain answers when it opens nothing.

use super::Web;
use crate::arena::PageRole;
use crate::ids::GameId;
use arbiter_engine::Viewer;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

/// Which kind of page a token is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PageKind {
    /// The public page and overlay (`/watch/<token>`, `/overlay/<token>`).
    Watch,
    /// A player's own page (`/play/<token>`).
    Play,
    /// A match host's panel (`/host/<token>`).
    Host,
}

impl PageKind {
    pub(super) fn parse(word: &str) -> Option<PageKind> {
        [PageKind::Watch, PageKind::Play, PageKind::Host]
            .into_iter()
            .find(|kind| kind.path() == word)
    }

    fn path(self) -> &'static str {
        match self {
            PageKind::Watch => "watch",
            PageKind::Play => "play",
            PageKind::Host => "host",
        }
    }
}

/// A page's token, once it is known to open a game: the game, whose page it is, and the address
/// its script reads from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Opened {
    pub id: GameId,
    /// Whose private page it is; none for the public page.
    pub role: Option<PageRole>,
    /// `/watch/<token>`, `/play/<token>` or `/host/<token>`.
    pub base: String,
}

impl Opened {
    /// What the page shows: a seat's page its own view, the others the spectators'.
    pub fn viewer(&self) -> Viewer {
        self.role.map_or(Viewer::Spectator, PageRole::viewer)
    }
}

/// The game a token of `kind` opens now; none for a token nobody holds (or a replaced one).
pub(super) async fn open(web: &Web, kind: PageKind, token: &str) -> Option<Opened> {
    let base = format!("/{}/{token}", kind.path());
    if kind == PageKind::Watch {
        let id = web.arena.watching().game(token).await.ok()??;
        return Some(Opened { id, role: None, base });
    }
    let (id, role) = web.arena.watching().page(token).await.ok()??;
    let fits = matches!(
        (kind, role),
        (PageKind::Play, PageRole::Seat(_)) | (PageKind::Host, PageRole::Host)
    );
    fits.then_some(Opened {
        id,
        role: Some(role),
        base,
    })
}

pub(super) fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(
            "<!doctype html><meta charset=utf-8><title>No game here</title><p>No game here: the link may be \
             mistyped or cut short. Ask the bot for it again with <code>/watch</code>.</p>",
        ),
    )
        .into_response()
}

pub(super) fn unavailable() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "The game cannot be read just now; the page tries again by itself.",
    )
        .into_response()
}
