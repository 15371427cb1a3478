//! The web transport: each game's live page (`/watch/<token>`) and stream overlay
//! (`/overlay/<token>`), kept current by Server-Sent Events. Off unless an address is given
//! (`ARBITER_WEB_ADDR`). The pages, their style, script and fonts are built into the binary, so
//! they work offline and as a browser source in OBS. Everything served is built from the
//! spectators' view: a page holds a secret only once the game has revealed it.
//!
//! Files: pages.rs (the HTML, assets and boards), events.rs (the live stream), state.rs
//! (a game's state as the page reads it); what guards them against a flood: gate.rs (a request
//! limit per client, the settings), client.rs (who the client is, behind a trusted proxy or
//! not), slots.rs (the caps on open streams).

mod client;
mod events;
mod gate;
mod opened;
mod pages;
mod play;
mod slots;
mod state;

pub use gate::{
    DEFAULT_BURST, DEFAULT_MAX_STREAMS, DEFAULT_MAX_STREAMS_PER_ADDR, DEFAULT_RATE, DEFAULT_STREAM_LIFETIME, WebLimits,
};

use crate::arena::{Arena, Effects};
use crate::ids::{GameId, UserId};
use crate::rate_limits::RateLimits;
use async_trait::async_trait;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// How a transport names its users on a page (Discord: as Discord shows them).
#[async_trait]
pub trait NameBook: Send + Sync {
    async fn name(&self, user: &UserId) -> String;
}

/// Users by the name in their id (the terminal's users, and any transport without names).
pub struct DisplayNames;

#[async_trait]
impl NameBook for DisplayNames {
    async fn name(&self, user: &UserId) -> String {
        user.display_name().to_string()
    }
}

/// The pages' listening socket (bound before anything else starts, so a port in use stops the
/// start-up at once), the address their links start with, and the limits they are served with.
#[derive(Clone, Debug)]
pub struct WebListener {
    listener: Arc<std::net::TcpListener>,
    pub base: String,
    pub limits: WebLimits,
}

impl WebListener {
    /// Binds `addr`; links start with `public` when given (see [`base_url`]).
    pub fn bind(addr: std::net::SocketAddr, public: Option<&str>) -> std::io::Result<WebListener> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let base = base_url(&listener.local_addr()?, public);
        Ok(WebListener {
            listener: Arc::new(listener),
            base,
            limits: WebLimits::default(),
        })
    }

    /// The same socket, served with `limits` instead of the defaults.
    pub fn with_limits(self, limits: WebLimits) -> WebListener {
        WebListener { limits, ..self }
    }

    /// The address served (its port, when bound to port 0).
    pub fn local_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.listener.local_addr()
    }

    /// The socket, for serving (inside the runtime).
    pub fn listener(&self) -> std::io::Result<tokio::net::TcpListener> {
        tokio::net::TcpListener::from_std(self.listener.try_clone()?)
    }
}

/// A game's two public links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchLinks {
    pub page: String,
    pub overlay: String,
}

/// What the pages are served from.
pub struct Web {
    arena: Arena,
    names: Arc<dyn NameBook>,
    /// How links start: `http://host:port`, or the public address given for the pages.
    base: String,
    /// Boards (SVG) drawn lately, by game, version, side at the bottom, layout and viewer: a
    /// thousand viewers of one move cost one drawing.
    boards: Mutex<HashMap<BoardKey, Arc<String>>>,
    /// Each user's rate limit, shared with the transport's commands.
    limits: Arc<RateLimits>,
    /// Where what a page does is announced (the game's place, as if typed); until a transport
    /// gives one, nothing a page does is announced.
    announcer: Mutex<Option<tokio::sync::mpsc::Sender<Effects>>>,
}

type BoardKey = (GameId, i64, bool, pages::BoardLayout, arbiter_engine::Viewer);

/// How many boards are kept drawn.
const BOARD_CACHE: usize = 256;

impl Web {
    pub fn new(arena: Arena, names: Arc<dyn NameBook>, base: impl Into<String>) -> Web {
        Web {
            arena,
            names,
            base: base.into().trim_end_matches('/').to_string(),
            boards: Mutex::default(),
            limits: Arc::default(),
            announcer: Mutex::default(),
        }
    }

    /// The same pages, counting each user's actions in `limits` (the transport's own).
    pub fn with_rate_limits(mut self, limits: Arc<RateLimits>) -> Web {
        self.limits = limits;
        self
    }

    /// From now on, what a page does is announced through `announcer` (the transport's queue of
    /// announcements, which the clocks' go through too).
    pub fn announce_to(&self, announcer: tokio::sync::mpsc::Sender<Effects>) {
        *self.announcer.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(announcer);
    }

    /// Announces what a page's action changed, without waiting: a full queue loses nothing, as
    /// what was not shown is shown at the next start.
    fn announce(&self, effects: Effects) {
        let announcer = self
            .announcer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        if let Some(announcer) = announcer
            && let Err(error) = announcer.try_send(effects)
        {
            tracing::warn!(%error, "a page's action could not be queued for announcing");
        }
    }

    /// The game's page and overlay links (its token made now if it has none).
    pub async fn links(&self, id: GameId) -> Result<WatchLinks, crate::arena::ArenaError> {
        let token = self.arena.watching().token(id).await?;
        Ok(WatchLinks {
            page: format!("{}/watch/{token}", self.base),
            overlay: format!("{}/overlay/{token}", self.base),
        })
    }

    /// What serves the pages on `listening`, with its limits, until `stop` completes: the pages
    /// alone (the operators' routes are never on their address). Each request is counted
    /// against its client: the connection's own address, or behind a trusted proxy the one it
    /// forwards. An error now when the socket cannot be taken into the runtime.
    pub fn serve(
        self: Arc<Self>,
        listening: &WebListener,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<impl Future<Output = std::io::Result<()>> + Send + 'static> {
        let listener = listening.listener()?;
        let gate = gate::Gate::new(listening.limits.clone());
        let app = pages::router(self, gate.clone());
        Ok(async move {
            let _forgetting = gate.forget_idle_clients();
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
            )
            .with_graceful_shutdown(stop)
            .await
        })
    }
}

/// The address the pages are linked from: `ARBITER_WEB_URL` when given (a public name in front
/// of the bot), else the address served.
pub fn base_url(addr: &std::net::SocketAddr, public: Option<&str>) -> String {
    match public {
        Some(url) if !url.trim().is_empty() => url.trim().to_string(),
        // Served on every interface: this machine's own name at least opens on it.
        _ if addr.ip().is_unspecified() => format!("http://localhost:{}", addr.port()),
        _ => format!("http://{addr}"),
    }
}

impl Web {
    /// Words giving a game's links, for a post or an answer: each link on a line of its own.
    pub async fn link_lines(&self, id: GameId) -> Option<String> {
        match self.links(id).await {
            Ok(links) => Some(format!(
                "Watch live:\n{}\nStream overlay (1920x1080, transparent):\n{}",
                links.page, links.overlay
            )),
            Err(error) => {
                tracing::warn!(game = %id, error = %crate::logging::Quiet(&error), "could not make a game's page links");
                None
            }
        }
    }

    /// Words giving `user` their own links in game `id`, for them alone: their page to play on,
    /// if they play it, and the host's panel, if they host it. `replace` gives new links (the
    /// old ones then open nothing). None when they have neither.
    pub async fn private_lines(&self, id: GameId, user: &UserId, replace: bool) -> Option<String> {
        let watching = self.arena.watching();
        let mut lines = Vec::new();
        if let Ok(token) = watching.seat_token(id, user, replace).await {
            lines.push(format!(
                "Your own page, to play by clicking (yours alone: whoever opens it plays for you):\n{}/play/{token}",
                self.base
            ));
        }
        if let Ok(token) = watching.host_token(id, user, replace).await {
            lines.push(format!(
                "Your host's panel (yours alone: clocks, time, rulings):\n{}/host/{token}",
                self.base
            ));
        }
        if lines.is_empty() {
            return None;
        }
        if replace {
            lines.push("Your earlier links open nothing now.".to_string());
        }
        Some(lines.join("\n"))
    }
}
