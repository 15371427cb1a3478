//! What every request to the pages passes through: who the client is (`client.rs`), a token
//! bucket per client (so one address cannot keep the server busy for everyone), and the caps on
//! open event streams (`slots.rs`). Match and round links are public by design, so anyone may
//! try a flood: each refusal is a short plain-text answer that costs next to nothing.

use super::client::{ClientKey, client_address};
use super::slots::{Refused, StreamSlot, StreamSlots};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Open event streams in all (`ARBITER_WEB_MAX_STREAMS`): well above a big audience (1,000
/// viewers of one match), well below the open files the bot raises its limit to (65,536 under
/// the systemd unit), at some 30 KiB a stream (about 120 MiB when all are open).
pub const DEFAULT_MAX_STREAMS: usize = 4096;
/// Open event streams per client address (`ARBITER_WEB_MAX_STREAMS_PER_ADDR`): a household or
/// an office behind one address watching a few matches, each in a page and an overlay. One
/// address alone can never hold more than 1/256th of the total.
pub const DEFAULT_MAX_STREAMS_PER_ADDR: usize = 16;
/// How long a stream lasts before the server closes it and the page opens another
/// (`ARBITER_WEB_STREAM_LIFETIME_SECS`): a stream's place is won again now and then, against the
/// caps as they stand, rather than held for ever.
pub const DEFAULT_STREAM_LIFETIME: Duration = Duration::from_secs(30 * 60);
/// Requests a second per client address once its burst is spent (`ARBITER_WEB_RATE`): a page
/// asks for one board a move, so this is far above any viewer's need.
pub const DEFAULT_RATE: u32 = 20;
/// Requests a client address may make at once (`ARBITER_WEB_BURST`): opening a page costs about
/// seven (the page, its style, script and two fonts, its stream, its board), so 16 pages opened
/// together behind one address (the stream cap) still pass.
pub const DEFAULT_BURST: u32 = 120;

/// Clients remembered by the request limit at most. A client whose bucket is full again is
/// forgotten (every few seconds); past this many recent ones, the table starts afresh rather
/// than grow.
const MOST_CLIENTS_REMEMBERED: usize = 100_000;
/// How often clients idle long enough to have a full bucket again are forgotten.
const FORGET_EVERY: Duration = Duration::from_secs(10);
/// What a refused stream's page is asked to wait (its script waits at least this long anyway).
const STREAM_RETRY_AFTER: &str = "10";

/// The pages' limits, as the operator set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebLimits {
    pub max_streams: usize,
    pub max_streams_per_addr: usize,
    pub stream_lifetime: Duration,
    /// Requests a second per client address, once its burst is spent.
    pub rate: NonZeroU32,
    pub burst: NonZeroU32,
    /// Proxies whose `X-Forwarded-For` names the client (`ARBITER_TRUSTED_PROXIES`); none: every
    /// connection's own address counts.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for WebLimits {
    fn default() -> WebLimits {
        WebLimits {
            max_streams: DEFAULT_MAX_STREAMS,
            max_streams_per_addr: DEFAULT_MAX_STREAMS_PER_ADDR,
            stream_lifetime: DEFAULT_STREAM_LIFETIME,
            rate: NonZeroU32::new(DEFAULT_RATE).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(DEFAULT_BURST).unwrap_or(NonZeroU32::MIN),
            trusted_proxies: Vec::new(),
        }
    }
}

/// The limits in force for one server of the pages.
pub(super) struct Gate {
    limits: WebLimits,
    requests: Mutex<Arc<DefaultKeyedRateLimiter<ClientKey>>>,
    /// Clients the request limit remembers at most (`MOST_CLIENTS_REMEMBERED`).
    most_remembered: usize,
    streams: Arc<StreamSlots>,
    /// Whether the operator was told that a proxy seems to stand in front of the pages unnamed.
    warned_of_proxy: AtomicBool,
}

/// A request let through: who sent it, and the gate, for the routes that hold a place (streams).
#[derive(Clone)]
pub(super) struct Admitted {
    client: ClientKey,
    gate: Arc<Gate>,
}

impl Gate {
    pub(super) fn new(limits: WebLimits) -> Arc<Gate> {
        Arc::new(Gate {
            requests: Mutex::new(Arc::new(request_limiter(&limits))),
            most_remembered: MOST_CLIENTS_REMEMBERED,
            streams: StreamSlots::new(limits.max_streams, limits.max_streams_per_addr),
            limits,
            warned_of_proxy: AtomicBool::new(false),
        })
    }

    pub(super) fn stream_lifetime(&self) -> Duration {
        self.limits.stream_lifetime
    }

    /// Forgets idle clients every few seconds until the returned guard is dropped.
    pub(super) fn forget_idle_clients(self: &Arc<Self>) -> Forgetting {
        let gate = Arc::downgrade(self);
        Forgetting(tokio::spawn(async move {
            loop {
                tokio::time::sleep(FORGET_EVERY).await;
                let Some(gate) = gate.upgrade() else { return };
                let requests = gate.request_limiter();
                requests.retain_recent();
                requests.shrink_to_fit();
            }
        }))
    }

    fn request_limiter(&self) -> Arc<DefaultKeyedRateLimiter<ClientKey>> {
        self.requests
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Takes one request from `client`'s bucket; how long to wait when it is empty.
    fn take_request(&self, client: ClientKey) -> Result<(), Duration> {
        let mut requests = self.request_limiter();
        if requests.len() >= self.most_remembered {
            requests.retain_recent();
            if requests.len() >= self.most_remembered {
                // So many clients in the last seconds that the table would only grow: everyone
                // starts afresh, and memory stays bounded.
                tracing::warn!(
                    clients = requests.len(),
                    "the live pages' request limit forgets every client: too many at once"
                );
                requests = Arc::new(request_limiter(&self.limits));
                *self.requests.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = requests.clone();
            }
        }
        requests
            .check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(requests.clock().now()))
    }

    /// The client of a request that came from `peer` with `headers`.
    fn client(&self, peer: IpAddr, headers: &axum::http::HeaderMap) -> ClientKey {
        let address = client_address(peer, headers, &self.limits.trusted_proxies);
        if address == peer.to_canonical() && headers.contains_key("x-forwarded-for") {
            self.warn_of_unnamed_proxy(peer);
        }
        ClientKey::of(address)
    }

    /// A forwarded header from a peer on this machine or its network, not named as a proxy:
    /// every viewer behind it would count as one client (and share 16 streams). Said once.
    fn warn_of_unnamed_proxy(&self, peer: IpAddr) {
        let near = match peer.to_canonical() {
            IpAddr::V4(v4) => v4.is_loopback() || v4.is_private(),
            IpAddr::V6(v6) => v6.is_loopback() || v6.is_unique_local(),
        };
        let trusted = self
            .limits
            .trusted_proxies
            .iter()
            .any(|proxy| proxy.to_canonical() == peer.to_canonical());
        if near && !trusted && !self.warned_of_proxy.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "the live pages get X-Forwarded-For from {peer}, which is not a trusted proxy: every viewer behind \
                 it counts as one address; if it is your proxy, set ARBITER_TRUSTED_PROXIES={peer}"
            );
        }
    }
}

fn request_limiter(limits: &WebLimits) -> DefaultKeyedRateLimiter<ClientKey> {
    DefaultKeyedRateLimiter::keyed(Quota::per_second(limits.rate).allow_burst(limits.burst))
}

/// The task forgetting idle clients; it stops when this is dropped.
pub(super) struct Forgetting(tokio::task::JoinHandle<()>);

impl Drop for Forgetting {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Every request: who sent it, and whether their bucket has a request left (a 429 with
/// Retry-After when not). The routes find who it was in the request's extensions.
pub(super) async fn admit(State(gate): State<Arc<Gate>>, mut request: Request, next: Next) -> Response {
    // Served with the peer's address always (see `Web::serve`); without it, one shared bucket.
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ConnectInfo(peer)| peer.ip());
    let client = gate.client(peer, request.headers());
    if let Err(wait) = gate.take_request(client) {
        tracing::debug!(%client, "a client of the live pages asks too fast");
        return too_many_requests(wait);
    }
    request.extensions_mut().insert(Admitted { client, gate });
    next.run(request).await
}

impl Admitted {
    /// A place for one more event stream of this client, or why not (an answer of its own).
    pub(super) fn open_stream(&self) -> Result<StreamSlot, StreamRefused> {
        self.gate.streams.take(self.client).map_err(|refused| {
            tracing::debug!(client = %self.client, ?refused, "an event stream refused");
            StreamRefused(refused)
        })
    }

    pub(super) fn stream_lifetime(&self) -> Duration {
        self.gate.stream_lifetime()
    }
}

fn too_many_requests(wait: Duration) -> Response {
    let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        format!("Too many requests from your address: try again in {seconds} s.\n"),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// An event stream refused: 429 when its client has its share, 503 when the pages are full.
pub(super) struct StreamRefused(Refused);

impl IntoResponse for StreamRefused {
    fn into_response(self) -> Response {
        stream_refused(self.0)
    }
}

fn stream_refused(refused: Refused) -> Response {
    let (status, text) = match refused {
        Refused::Client { most } => (
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "Too many live pages are open from your address ({most} at most): close one, and this page \
                 connects again by itself.\n"
            ),
        ),
        Refused::Full { most } => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("The live pages are full just now ({most} open): this page connects again by itself.\n"),
        ),
    };
    let mut response = (status, text).into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static(STREAM_RETRY_AFTER));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_past_its_burst_waits_while_another_is_let_through() {
        let limits = WebLimits {
            rate: NonZeroU32::MIN,
            burst: NonZeroU32::new(3).unwrap(),
            ..WebLimits::default()
        };
        let gate = Gate::new(limits);
        let one = ClientKey::of(IpAddr::from([127, 0, 0, 2]));
        let other = ClientKey::of(IpAddr::from([127, 0, 0, 3]));
        for _ in 0..3 {
            assert_eq!(gate.take_request(one), Ok(()));
        }
        let wait = gate.take_request(one).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1), "{wait:?}");
        assert_eq!(gate.take_request(other), Ok(()));
        let answer = too_many_requests(wait);
        assert_eq!(answer.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(answer.headers()[header::RETRY_AFTER], "1");
    }

    #[test]
    fn the_table_of_clients_stays_bounded_and_forgets_the_idle() {
        let limits = WebLimits {
            rate: NonZeroU32::new(1000).unwrap(),
            burst: NonZeroU32::MIN,
            ..WebLimits::default()
        };
        let mut gate = Gate::new(limits);
        Arc::get_mut(&mut gate).unwrap().most_remembered = 10;
        // Many clients at once: the table never holds more than its bound.
        for last in 0..=250u8 {
            assert_eq!(gate.take_request(ClientKey::of(IpAddr::from([10, 0, 0, last]))), Ok(()));
            assert!(gate.request_limiter().len() <= 10, "{}", gate.request_limiter().len());
        }
        // Idle long enough for a full bucket, a client is forgotten.
        std::thread::sleep(Duration::from_millis(20));
        let requests = gate.request_limiter();
        assert!(!requests.is_empty());
        requests.retain_recent();
        assert!(requests.is_empty(), "{} remembered", requests.len());
    }

    #[test]
    fn the_defaults_let_a_big_audience_in() {
        let limits = WebLimits::default();
        assert!(limits.max_streams >= 4 * 1000, "well above 1,000 viewers");
        assert!(limits.max_streams_per_addr * 256 <= limits.max_streams);
        assert!(limits.burst.get() as usize >= 7 * limits.max_streams_per_addr);
    }
}
