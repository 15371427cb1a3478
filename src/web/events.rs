//! A game's live stream (Server-Sent Events): its state when a page connects, then the news and
//! the new state of every change as it is saved. Browsers reconnect by themselves after a drop
//! or a restart (the stream asks them to within a second) and get the state afresh. A stream
//! lasts a while (`ARBITER_WEB_STREAM_LIFETIME_SECS`), then says `reconnect` and ends; the page
//! opens another, which wins its place against the caps again (`slots.rs`).

use super::Web;
use super::opened::Opened;
use super::slots::StreamSlot;
use crate::arena::GameNews;
use axum::response::sse::{Event, KeepAlive, Sse};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

/// How soon a page reconnects after its stream drops.
const RECONNECT: Duration = Duration::from_secs(1);
/// How often a stream looks at its game without news: a change saved by another of the bot's
/// processes has no news here.
const LOOK_AGAIN: Duration = Duration::from_secs(10);
/// A comment now and then keeps proxies from closing a quiet stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// However long the setting, a stream ends within a year (an instant never overflows).
const LONGEST_LIFETIME: Duration = Duration::from_secs(365 * 24 * 3600);

/// The stream of the page `opened`; it holds `slot` until it ends, at the
/// latest after `lifetime` (less up to a tenth, so that pages opened together do not all come
/// back at the same moment).
pub(super) fn stream(
    web: Arc<Web>,
    opened: Opened,
    slot: StreamSlot,
    lifetime: Duration,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    // Subscribed before the first state is read, so no change falls between the two.
    let news = web.arena.watching().news();
    let now = tokio::time::Instant::now();
    let spread = lifetime.mul_f64(rand::random_range(0.0..0.1));
    let watcher = Watcher {
        web,
        opened,
        news,
        shown: None,
        queue: VecDeque::new(),
        next_look: now + LOOK_AGAIN,
        ends: now + lifetime.min(LONGEST_LIFETIME).saturating_sub(spread),
        ended: false,
        _slot: slot,
    };
    let events = futures_util::stream::unfold(watcher, |mut watcher| async move {
        let event = watcher.next().await?;
        Some((Ok(event), watcher))
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

struct Watcher {
    web: Arc<Web>,
    opened: Opened,
    news: Receiver<GameNews>,
    /// The version the page was last sent.
    shown: Option<i64>,
    queue: VecDeque<Event>,
    /// When the stream next looks at its game whatever the news (other games' news must not
    /// put that off).
    next_look: tokio::time::Instant,
    /// When the stream's lifetime is over.
    ends: tokio::time::Instant,
    /// Whether it said its last (`reconnect`).
    ended: bool,
    /// Its place among the open streams, given back when the stream is dropped: by the server
    /// once it ends, or once the page's connection is gone.
    _slot: StreamSlot,
}

impl Watcher {
    async fn next(&mut self) -> Option<Event> {
        if self.shown.is_none() && self.queue.is_empty() {
            self.queue_state(&[]).await;
        }
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Some(event);
            }
            if self.ended {
                return None;
            }
            tokio::select! {
                () = tokio::time::sleep_until(self.ends) => {
                    // The page's script opens a new stream when it hears this; a browser that
                    // misses it reconnects by itself after the normal end.
                    self.ended = true;
                    self.queue.push_back(Event::default().event("reconnect").data("this stream's time is up"));
                }
                news = self.news.recv() => match news {
                    Ok(news) if news.game == self.opened.id && self.shown.is_none_or(|v| news.version > v) => {
                        self.queue_state(&news.said).await;
                    }
                    Ok(_) => {}
                    // Missed changes: the state as it stands says where the game is.
                    Err(RecvError::Lagged(_)) => self.queue_state(&[]).await,
                    Err(RecvError::Closed) => return None,
                },
                () = tokio::time::sleep_until(self.next_look) => {
                    self.next_look = tokio::time::Instant::now() + LOOK_AGAIN;
                    self.queue_state(&[]).await;
                }
            }
        }
    }

    /// Queues the news of a change and the game's state, when the state is newer than the one
    /// the page has. A database that does not answer now is asked again later.
    async fn queue_state(&mut self, said: &[String]) {
        let watching = self.web.arena.watching();
        let state = match watching.state_as(self.opened.id, self.opened.viewer()).await {
            Ok(state) => state,
            Err(error) => {
                tracing::warn!(game = %self.opened.id, error = %crate::logging::Quiet(&error), "a watched game could not be read");
                return;
            }
        };
        if self.shown.is_some_and(|shown| state.version <= shown) {
            return;
        }
        for line in self.web.news_lines(&state, said).await {
            self.queue.push_back(Event::default().event("news").data(line));
        }
        let json = self.web.page_json(&self.opened, &state).await;
        let mut event = Event::default().event("state").data(json.to_string());
        if self.shown.is_none() {
            event = event.retry(RECONNECT);
        }
        self.shown = Some(state.version);
        self.queue.push_back(event);
    }
}
