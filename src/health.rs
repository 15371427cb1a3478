//! Whether the bot is alive (`/healthz`: the process answers) and ready (`/readyz`: its database
//! answers, its gateway shards are connected and its scheduler's heartbeat is fresh), and its
//! metrics (`/metrics`), served for those who run it on `ARBITER_METRICS_ADDR` alone (never on
//! the public pages' address); without it, not at all.

use crate::store::Vitals;
use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long the database may take to answer a readiness check.
const DATABASE_PATIENCE: Duration = Duration::from_secs(2);
/// A scheduler loops at least every few tenths of a second; silent this long, it is stuck.
const SCHEDULER_SILENCE_MS: i64 = 15_000;
/// How often the gauges read from the database (games in progress, the pool) are refreshed.
const SAMPLE_EVERY: Duration = Duration::from_secs(5);

/// What readiness is judged from; shared by the scheduler, the gateway's events and the routes.
pub struct Health {
    store: Arc<dyn Vitals>,
    /// When the scheduler last went round its loop (Unix ms; 0: not yet).
    scheduler_beat: AtomicI64,
    /// This process's shards: connected or not.
    shards: Mutex<BTreeMap<u32, bool>>,
    /// How many shards this process runs, once known.
    shards_expected: AtomicI64,
}

impl Health {
    pub fn new(store: Arc<dyn Vitals>) -> Arc<Health> {
        Arc::new(Health {
            store,
            scheduler_beat: AtomicI64::new(0),
            shards: Mutex::default(),
            shards_expected: AtomicI64::new(0),
        })
    }

    /// The scheduler went round its loop (now, by the machine's clock: a test's clock of the
    /// games may stand still).
    pub fn scheduler_beat(&self) {
        self.scheduler_beat.store(unix_ms(), Ordering::Relaxed);
    }

    /// This process runs `count` shards.
    pub fn expect_shards(&self, count: u32) {
        self.shards_expected.store(i64::from(count), Ordering::Relaxed);
    }

    /// A shard connected (or lost its connection).
    pub fn shard(&self, id: u32, connected: bool) {
        self.lock_shards().insert(id, connected);
    }

    fn lock_shards(&self) -> std::sync::MutexGuard<'_, BTreeMap<u32, bool>> {
        self.shards.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What keeps the bot from being ready, if anything.
    pub async fn problems(&self) -> Vec<String> {
        let now = unix_ms();
        let mut problems = Vec::new();
        match tokio::time::timeout(DATABASE_PATIENCE, self.store.ping()).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => problems.push(format!(
                "database: {}",
                crate::logging::without_urls(&error.to_string())
            )),
            Err(_) => problems.push(format!("database: no answer within {} s", DATABASE_PATIENCE.as_secs())),
        }
        let expected = self.shards_expected.load(Ordering::Relaxed);
        {
            let shards = self.lock_shards();
            let connected = shards.values().filter(|up| **up).count() as i64;
            let down: Vec<String> = shards
                .iter()
                .filter(|(_, up)| !**up)
                .map(|(id, _)| id.to_string())
                .collect();
            if !down.is_empty() {
                problems.push(format!("gateway: shard {} not connected", down.join(", ")));
            } else if shards.is_empty() {
                problems.push("gateway: not connected yet".into());
            } else if connected < expected {
                problems.push(format!("gateway: {connected} of {} shards connected", expected.max(1)));
            }
        }
        match self.scheduler_beat.load(Ordering::Relaxed) {
            0 => problems.push("scheduler: not started".into()),
            beat if now - beat > SCHEDULER_SILENCE_MS => {
                problems.push(format!("scheduler: no heartbeat for {} s", (now - beat) / 1000))
            }
            _ => {}
        }
        problems
    }

    /// Refreshes the gauges read from the database until the returned guard is dropped.
    pub fn start_sampling(self: &Arc<Self>) -> Sampling {
        Sampling(tokio::spawn(self.clone().sample()))
    }

    async fn sample(self: Arc<Self>) {
        loop {
            let (in_use, idle) = self.store.connections();
            crate::telemetry::db_connections(in_use, idle);
            match self.store.active_games().await {
                Ok(counts) => crate::telemetry::games_active(&counts),
                Err(error) => tracing::debug!(%error, "could not count the games in progress"),
            }
            tokio::time::sleep(SAMPLE_EVERY).await;
        }
    }
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64)
}

/// The task refreshing the gauges; it stops when this is dropped, however its owner returns.
pub struct Sampling(tokio::task::JoinHandle<()>);

impl Drop for Sampling {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// `/healthz`, `/readyz` and `/metrics`, served alone on the operators' address. Making it
/// installs the metrics recorder: nothing is recorded where these are not served.
pub fn router(health: Arc<Health>) -> Router {
    crate::telemetry::install();
    Router::new()
        .route("/healthz", get(|| async { "alive\n" }))
        .route("/readyz", get(ready))
        .route("/metrics", get(metrics))
        .with_state(health)
}

async fn ready(axum::extract::State(health): axum::extract::State<Arc<Health>>) -> impl IntoResponse {
    let problems = health.problems().await;
    if problems.is_empty() {
        (StatusCode::OK, "ready\n".to_string())
    } else {
        let lines: String = problems.iter().map(|problem| format!("{problem}\n")).collect();
        (StatusCode::SERVICE_UNAVAILABLE, format!("not ready:\n{lines}"))
    }
}

async fn metrics() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        crate::telemetry::render(),
    )
}

/// Serves `router` on `listener` until `stop` completes.
pub async fn serve(
    router: Router,
    listener: tokio::net::TcpListener,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router).with_graceful_shutdown(stop).await
}
