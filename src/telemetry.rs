//! The metrics those who run the bot watch, in Prometheus' text format (served by
//! `crate::health`). Every metric is named here, with its unit and what it counts, so the
//! families stay consistent; the code that does the work calls the small functions below.
//!
//! Labels hold only bounded, public words (a command's name, a route's shape with its ids and
//! tokens taken out, a variant, an outcome): never a user, a server, a game or a secret.
//!
//! The recorder is installed only where the metrics are served (`health::router`, on
//! `ARBITER_METRICS_ADDR`); without it (the terminal, a bot without that address, whether it
//! serves the pages or not) every call below costs a load and a branch.

use arbiter_engine::VariantId;
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

pub const INTERACTIONS: &str = "arbiter_interactions_total";
pub const INTERACTION_ANSWER: &str = "arbiter_interaction_answer_seconds";
pub const DISCORD_REQUESTS: &str = "arbiter_discord_requests_total";
pub const DISCORD_RATE_LIMITED: &str = "arbiter_discord_rate_limited_total";
pub const DISCORD_RETRIES: &str = "arbiter_discord_retries_total";
pub const ANNOUNCEMENTS_WAITING: &str = "arbiter_announcements_waiting";
pub const ANNOUNCEMENT_LATENESS: &str = "arbiter_announcement_lateness_seconds";
pub const ANNOUNCEMENTS: &str = "arbiter_announcements_total";
pub const DEADLINES_FIRED: &str = "arbiter_deadlines_fired_total";
pub const DEADLINE_LATENESS: &str = "arbiter_deadline_lateness_seconds";
pub const DB_CONNECTIONS: &str = "arbiter_db_pool_connections";
pub const DB_WAIT: &str = "arbiter_db_transaction_wait_seconds";
pub const GAMES_ACTIVE: &str = "arbiter_games_active";
pub const ACTIONS: &str = "arbiter_game_actions_total";
pub const AI_THINKING: &str = "arbiter_ai_thinking_seconds";

/// Latency buckets, in seconds: from a fast database round trip to Discord's 3-second limit
/// and well past it (a computer's long think, a late deadline after downtime).
const BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process's recorder (once; later calls return the same handle) and describes
/// every family.
pub fn install() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .expect("the buckets are not empty")
                .build_recorder();
            let handle = recorder.handle();
            // Another recorder (a test harness's) may be in place: then this one only renders.
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics shows only its own");
            }
            describe();
            handle
        })
        .clone()
}

/// The metrics as Prometheus scrapes them.
pub fn render() -> String {
    install().render()
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(INTERACTIONS, "Interactions handled, by command and outcome");
    describe_histogram!(
        INTERACTION_ANSWER,
        Unit::Seconds,
        "From an interaction's arrival to its first answer (a message, a form or a deferral)"
    );
    describe_counter!(DISCORD_REQUESTS, "Requests to Discord's API, by route and status");
    describe_counter!(DISCORD_RATE_LIMITED, "Answers of 429 from Discord, by scope");
    describe_counter!(
        DISCORD_RETRIES,
        "Requests to Discord tried again after a passing failure"
    );
    describe_gauge!(ANNOUNCEMENTS_WAITING, "Announcements queued and not yet delivered");
    describe_histogram!(
        ANNOUNCEMENT_LATENESS,
        Unit::Seconds,
        "From an announcement's queueing to its delivery"
    );
    describe_counter!(ANNOUNCEMENTS, "Announcements delivered, by fate");
    describe_counter!(DEADLINES_FIRED, "Deadlines fired (reminders, warnings, forfeits)");
    describe_histogram!(
        DEADLINE_LATENESS,
        Unit::Seconds,
        "How long after its due time a deadline was claimed"
    );
    describe_gauge!(DB_CONNECTIONS, "The database pool's connections, by state");
    describe_histogram!(
        DB_WAIT,
        Unit::Seconds,
        "Waiting for a pooled connection and the write lock before a write"
    );
    describe_gauge!(GAMES_ACTIVE, "Games in progress, by variant");
    describe_counter!(ACTIONS, "Moves and choices played, by variant");
    describe_histogram!(
        AI_THINKING,
        Unit::Seconds,
        "The computer opponent's thinking time, by variant"
    );
}

/// How an interaction ended, as the metrics count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Answered (a message, a form, or a deferral followed by an answer).
    Answered,
    /// Refused before any work: the player is going too fast.
    RateLimited,
    /// The player's input could not be read.
    Unreadable,
    /// An answer could not be sent, or the work failed.
    Failed,
    /// Nothing answered it.
    Unanswered,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Answered => "answered",
            Outcome::RateLimited => "rate_limited",
            Outcome::Unreadable => "unreadable",
            Outcome::Failed => "failed",
            Outcome::Unanswered => "unanswered",
        }
    }
}

pub fn interaction(command: &str, outcome: Outcome) {
    counter!(INTERACTIONS, "command" => label(command), "outcome" => outcome.as_str()).increment(1);
}

pub fn interaction_answered(kind: &'static str, after: Duration) {
    histogram!(INTERACTION_ANSWER, "kind" => kind).record(after.as_secs_f64());
}

/// A request to Discord and its answer: `route` as `POST /channels/{id}/messages`, `status` the
/// HTTP status (0 when no answer came).
pub fn discord_request(route: &'static str, status: u16) {
    let shown = if status == 0 {
        "none".to_string()
    } else {
        status.to_string()
    };
    counter!(DISCORD_REQUESTS, "route" => route, "status" => shown).increment(1);
    if status == 429 {
        rate_limited(false);
    }
}

pub fn rate_limited(global: bool) {
    counter!(DISCORD_RATE_LIMITED, "scope" => if global { "global" } else { "route" }).increment(1);
}

pub fn retried() {
    counter!(DISCORD_RETRIES).increment(1);
}

pub fn announcements_waiting(count: usize) {
    gauge!(ANNOUNCEMENTS_WAITING).set(count as f64);
}

pub fn announcement_delivered(fate: &'static str, waited: Duration) {
    counter!(ANNOUNCEMENTS, "fate" => fate).increment(1);
    histogram!(ANNOUNCEMENT_LATENESS).record(waited.as_secs_f64());
}

pub fn deadline_claimed(late_ms: i64) {
    histogram!(DEADLINE_LATENESS).record(late_ms.max(0) as f64 / 1000.0);
}

pub fn deadline_fired() {
    counter!(DEADLINES_FIRED).increment(1);
}

pub fn db_waited(wait: Duration) {
    histogram!(DB_WAIT).record(wait.as_secs_f64());
}

pub fn db_connections(in_use: usize, idle: usize) {
    gauge!(DB_CONNECTIONS, "state" => "in_use").set(in_use as f64);
    gauge!(DB_CONNECTIONS, "state" => "idle").set(idle as f64);
}

/// The games in progress of every variant (those without any shown as 0).
pub fn games_active(counts: &[(VariantId, i64)]) {
    for &variant in VariantId::ALL {
        let count = counts.iter().find(|(v, _)| *v == variant).map_or(0, |(_, n)| *n);
        gauge!(GAMES_ACTIVE, "variant" => variant.as_str()).set(count as f64);
    }
}

pub fn action_played(variant: VariantId) {
    counter!(ACTIONS, "variant" => variant.as_str()).increment(1);
}

pub fn ai_thought(variant: VariantId, took: Duration) {
    histogram!(AI_THINKING, "variant" => variant.as_str()).record(took.as_secs_f64());
}

/// A command's name as a label: the registered names are lower-case words; anything else (it
/// cannot come from Discord, but a label must stay bounded) is "other".
fn label(command: &str) -> String {
    let is_name = !command.is_empty()
        && command.len() <= 32
        && command
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-' || c == ' ');
    if is_name {
        command.to_string()
    } else {
        "other".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_is_a_command_name_or_other() {
        assert_eq!(label("challenge"), "challenge");
        assert_eq!(label("host round"), "host round");
        assert_eq!(label("move:123:e4"), "other");
        assert_eq!(label(""), "other");
    }
}
