//! A fake Discord for end-to-end tests: a gateway (websocket) and the REST endpoints the bot uses,
//! served by axum on a random loopback port.
//!
//! Point serenity at it with `HttpBuilder::new(token).proxy(fake.api_base()).ratelimiter_disabled(true)`
//! (with the ratelimiter on, serenity ignores the proxy) and `ClientBuilder::new_with_http`. The
//! client asks `GET /api/v10/gateway` for the websocket URL, which points back here.
//!
//! Every REST call is recorded (`calls`, `wait_for_call`); answers are the smallest JSON bodies
//! serenity 0.12.5 deserializes. Interaction payload builders at the bottom produce JSON that parses
//! into serenity's `Interaction`.
//!
//! The fake is strict (see `strict`): it refuses what Discord refuses (a response after 3 s, a
//! second first response, oversized or empty messages, malformed commands), and can be told to
//! fail requests the way Discord does (`fail`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};

pub mod rate_limits;
pub mod strict;
use strict::Refusal;

/// How long any wait in the fake lasts before it panics: tests must fail, never hang.
const WAIT: Duration = Duration::from_secs(10);
/// Ids handed out by the fake (messages, threads, attachments, commands) start here, far from
/// the small ids tests pick for users and channels.
const FIRST_ID: u64 = 900_000_000_000_000_000;
/// A DM channel's id is its recipient's id plus this, so tests can predict it.
const DM_CHANNEL_OFFSET: u64 = 1_000_000;
/// Channel of follow-ups to interactions the fake did not dispatch itself.
const DEFAULT_CHANNEL_ID: u64 = 3_000;
/// The one timestamp the fake uses everywhere (deterministic output).
const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";
/// Permissions granted to the bot and to invokers: view, send, embed, attach, history, use
/// commands, create public threads, send in threads.
const PERMISSIONS: u64 = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38);

/// A running fake Discord. Cheap to clone (shared state behind `Arc`); dropping the last clone
/// stops the server and closes the bot's websocket.
#[derive(Clone)]
pub struct FakeDiscord {
    shared: Arc<Shared>,
    _server: Arc<ServerGuard>,
}

/// One REST call the bot made, as received.
#[derive(Clone, Debug)]
pub struct Call {
    /// HTTP method, upper case ("POST").
    pub method: String,
    /// Path without query, e.g. "/api/v10/interactions/1/token1/callback".
    pub path: String,
    /// The JSON body, or for multipart the `payload_json` part; `Null` if none.
    pub json: Value,
    /// Uploaded files of a multipart request: (filename, bytes), in part order.
    pub files: Vec<(String, Vec<u8>)>,
    /// When the request arrived.
    pub at: Instant,
    /// The status the fake answered with.
    pub status: u16,
    /// Whether the fake refused it by Discord's rules (not by a failure the test asked for).
    pub refused: bool,
    /// The Authorization header ("Bot TOKEN"): which bot process made the call.
    pub auth: String,
}

/// A failure the fake can be told to answer with instead of the real thing (`FakeDiscord::fail`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Failure {
    /// 429, asking to retry after this many seconds.
    RateLimited { retry_after: f64 },
    /// 403 50013: the bot lacks a permission there.
    MissingPermissions,
    /// 403 50001: the bot cannot see the channel.
    MissingAccess,
    /// 404 10003: the channel (or thread) is gone.
    UnknownChannel,
    /// 400 50083: the thread is archived.
    ArchivedThread,
    /// 400 160004: the message has a thread already.
    ThreadAlreadyExists,
    /// 403 50007: the user does not take DMs.
    CannotDm,
    /// 403 40003: the bot opens DM channels too fast.
    OpeningDmsTooFast,
    /// 500: Discord's own trouble.
    ServerError,
    /// 401: the token is not one Discord knows.
    Unauthorized,
}

impl Failure {
    fn refusal(self) -> Refusal {
        match self {
            Failure::RateLimited { retry_after } => Refusal {
                status: 429,
                body: json!({ "message": "You are being rate limited.", "retry_after": retry_after, "global": false, "code": 0 }),
            },
            Failure::MissingPermissions => Refusal::new(403, 50013, "Missing Permissions"),
            Failure::MissingAccess => Refusal::new(403, 50001, "Missing Access"),
            Failure::UnknownChannel => Refusal::new(404, 10003, "Unknown Channel"),
            Failure::ArchivedThread => Refusal::new(400, 50083, "Thread is archived"),
            Failure::ThreadAlreadyExists => {
                Refusal::new(400, 160004, "A thread has already been created for this message")
            }
            Failure::CannotDm => Refusal::new(403, 50007, "Cannot send messages to this user"),
            Failure::OpeningDmsTooFast => Refusal::new(403, 40003, "You are opening direct messages too fast."),
            Failure::ServerError => Refusal::new(500, 0, "500: Internal Server Error"),
            Failure::Unauthorized => Refusal::new(401, 0, "401: Unauthorized"),
        }
    }
}

/// Requests to answer with a failure: method, a piece of the path, the failure, and how many
/// more times (`usize::MAX`: always).
struct FailureRule {
    method: String,
    path_contains: String,
    failure: Failure,
    remaining: usize,
    /// Whether the request still takes effect (a thread made although the answer failed).
    takes_effect: bool,
}

/// Requests to answer late (`FakeDiscord::slow_down`).
struct Delay {
    method: String,
    path_contains: String,
    by: Duration,
    remaining: usize,
}

/// The member who triggers an interaction, in guild `FakeDiscord::GUILD_ID`.
#[derive(Clone, Debug)]
pub struct Invoker {
    pub user_id: u64,
    pub name: String,
}

impl FakeDiscord {
    /// The bot's application id (READY, command registration, webhooks).
    pub const APPLICATION_ID: u64 = 100_000_000_000_000_001;
    /// The bot's user id (READY, author of the messages it sends).
    pub const BOT_USER_ID: u64 = 100_000_000_000_000_002;
    /// The guild the bot is in, where interactions come from.
    pub const GUILD_ID: u64 = 100_000_000_000_000_003;
    /// A second guild, on the other shard of two (`shard_of`), for tests of sharding.
    pub const OTHER_GUILD_ID: u64 = 100_000_000_004_194_307;
    /// The command id the interaction builders put in `data.id` (poise dispatches by name).
    pub const COMMAND_ID: u64 = 100_000_000_000_000_004;

    /// Starts the fake on 127.0.0.1 with a random port.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake Discord");
        let port = listener.local_addr().expect("local address").port();
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let shared = Arc::new(Shared::new(port, shutdown_rx.clone()));
        let app = Router::new()
            .route("/ws", get(gateway_upgrade))
            .fallback(rest)
            .with_state(Arc::clone(&shared));
        tokio::spawn(async move {
            let stop = wait_for_shutdown(shutdown_rx);
            let _ = axum::serve(listener, app).with_graceful_shutdown(stop).await;
        });
        FakeDiscord {
            shared,
            _server: Arc::new(ServerGuard { shutdown: shutdown_tx }),
        }
    }

    /// Base URL for `HttpBuilder::proxy`: "http://127.0.0.1:PORT".
    pub fn api_base(&self) -> String {
        format!("http://127.0.0.1:{}", self.shared.port)
    }

    /// Keeps a file on the fake's CDN, as Discord keeps what users attach: the attachment object an
    /// interaction's `resolved.attachments` carries, whose `url` serves the bytes.
    pub fn attach(&self, filename: &str, bytes: &[u8]) -> Value {
        let id = self.shared.next_id();
        let url = format!("{}/cdn/attachments/{id}/{filename}", self.api_base());
        self.shared
            .cdn
            .lock()
            .unwrap()
            .insert(format!("/cdn/attachments/{id}/{filename}"), bytes.to_vec());
        json!({
            "id": id.to_string(),
            "filename": filename,
            "size": bytes.len(),
            "url": url,
            "proxy_url": url,
            "content_type": content_type(filename),
        })
    }

    /// The id of the DM channel the fake creates for `user_id` (`POST /users/@me/channels`).
    pub fn dm_channel_id(user_id: u64) -> u64 {
        user_id + DM_CHANNEL_OFFSET
    }

    /// Waits until every shard the bot identified with (one unless it shards) got READY.
    /// Panics after 10 s.
    pub async fn wait_ready(&self) {
        let mut ready = self.shared.ready.subscribe();
        let all_ready = |shards: &ReadyShards| shards.total > 0 && shards.ready.len() == shards.total as usize;
        tokio::time::timeout(WAIT, ready.wait_for(all_ready))
            .await
            .expect("the bot did not connect and IDENTIFY within 10 s")
            .expect("the fake Discord stopped");
    }

    /// Dispatches INTERACTION_CREATE with `interaction` as `d` and the next sequence number.
    /// Returns the moment the frame was written to the socket. Waits for READY first.
    /// The fake remembers the interaction's token and channel so follow-ups land in that channel.
    ///
    /// A component interaction on a message the bot sent carries that message as the fake
    /// stored it (its real text and attachments), as Discord does.
    pub async fn send_interaction(&self, interaction: Value) -> Instant {
        let interaction = self.expect_answer_to(interaction);
        self.send_dispatch("INTERACTION_CREATE", interaction).await
    }

    /// Registers an interaction as sent now without dispatching it (for tests that answer it
    /// with their own REST calls), completed as `send_interaction` would send it.
    pub fn expect_answer_to(&self, mut interaction: Value) -> Value {
        if let Some(stored) = snowflake(&interaction["message"]["id"]).and_then(|id| self.message(id)) {
            interaction["message"] = stored;
        }
        self.shared.remember_interaction(&interaction);
        interaction
    }

    /// The message an interaction's first response made (or, for a click, the message clicked):
    /// where buttons in that response sit, and the id of a thread started from it.
    pub fn response_message_id(&self, token: &str) -> u64 {
        self.shared.interaction(token).original_message_id
    }

    /// A message the fake holds (sent, answered or edited by the bot), as it stands now.
    pub fn message(&self, message_id: u64) -> Option<Value> {
        self.shared.messages.lock().unwrap().get(&message_id).cloned()
    }

    /// Answers the next `times` requests whose method is `method` and whose path contains
    /// `path_contains` with `failure` (`usize::MAX`: from now on).
    pub fn fail(&self, method: &str, path_contains: &str, failure: Failure, times: usize) {
        self.add_failure(method, path_contains, failure, times, false);
    }

    /// Like `fail`, but the request still takes effect, as when Discord does the work and the
    /// answer is lost (a thread made for a request that timed out).
    pub fn fail_after_doing(&self, method: &str, path_contains: &str, failure: Failure, times: usize) {
        self.add_failure(method, path_contains, failure, times, true);
    }

    /// Answers the next `times` matching requests only after `by`, as a slow Discord would.
    pub fn slow_down(&self, method: &str, path_contains: &str, by: Duration, times: usize) {
        self.shared.delays.lock().unwrap().push(Delay {
            method: method.to_owned(),
            path_contains: path_contains.to_owned(),
            by,
            remaining: times,
        });
    }

    fn add_failure(&self, method: &str, path_contains: &str, failure: Failure, times: usize, takes_effect: bool) {
        self.shared.failures.lock().unwrap().push(FailureRule {
            method: method.to_owned(),
            path_contains: path_contains.to_owned(),
            failure,
            remaining: times,
            takes_effect,
        });
    }

    /// Makes an interaction look `by` older, as if it had been sent that much earlier (to try
    /// Discord's 15-minute window for follow-ups without waiting).
    pub fn age_interaction(&self, token: &str, by: Duration) {
        if let Some(info) = self.shared.interactions.lock().unwrap().get_mut(token) {
            info.sent = info
                .sent
                .checked_sub(by)
                .expect("the machine has been up longer than that");
        }
    }

    /// Calls the fake refused as Discord would (a late response, a second one, an oversized or
    /// empty message...), other than the failures a test asked for.
    pub fn refused_calls(&self) -> Vec<Call> {
        self.calls().into_iter().filter(|call| call.refused).collect()
    }

    /// Closes the bot's gateway connection for `shard` without ending its session (code 4000,
    /// "reconnect", as Discord's gateway does when it restarts): the bot is expected to RESUME,
    /// and to receive the events dispatched meanwhile.
    pub fn drop_connection(&self, shard: u32) {
        let mut gateway = self.shared.gateway.lock().unwrap();
        gateway.retain(|connection| connection.shard != Some(shard));
        drop(gateway);
        self.shared.ready.send_modify(|shards| {
            shards.ready.remove(&shard);
        });
    }

    /// How many sessions the bot started (IDENTIFY) and resumed (RESUME) so far.
    pub fn sessions(&self) -> (u64, u64) {
        (
            self.shared.identified.load(Ordering::Relaxed),
            self.shared.resumed.load(Ordering::Relaxed),
        )
    }

    /// Dispatches any other event (op 0, type `t`, data `d`) with the next sequence number.
    pub async fn send_event(&self, t: &str, d: Value) {
        self.send_dispatch(t, d).await;
    }

    /// Sends `text` as one gateway frame, untouched (for malformed-payload tests). Uses no
    /// sequence number. Waits for READY first.
    pub async fn send_raw(&self, text: String) {
        self.wait_ready().await;
        let sent = self.shared.queue_frame(0, |_| text);
        await_sent(sent).await;
    }

    /// Every REST call so far, in the order the fake answered them.
    pub fn calls(&self) -> Vec<Call> {
        self.shared.calls.lock().unwrap().clone()
    }

    /// Polls until some call (earliest first) satisfies `predicate` and returns it. Panics after
    /// 10 s, naming `what` and listing the calls seen.
    pub async fn wait_for_call(&self, what: &str, predicate: impl Fn(&Call) -> bool) -> Call {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(call) = self.calls().into_iter().find(|call| predicate(call)) {
                return call;
            }
            if Instant::now() >= deadline {
                panic!(
                    "waited 10 s for {what}; calls so far:\n{}",
                    describe_calls(&self.calls())
                );
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// From now on, messages to `user_id`'s DM channel are refused with
    /// 403 `{"message":"Cannot send messages to this user","code":50007}`.
    pub fn close_dms_of(&self, user_id: u64) {
        self.shared
            .closed_dm_channels
            .lock()
            .unwrap()
            .insert(Self::dm_channel_id(user_id));
    }

    /// From now on `user_id` is no longer a member of the guild: `GET /guilds/{id}/members/{user}`
    /// answers 404 `{"message":"Unknown Member","code":10007}`.
    pub fn remove_member(&self, user_id: u64) {
        self.shared.departed_members.lock().unwrap().insert(user_id);
    }

    /// From now on, Discord's rate limits hold: 5 messages per 5 s in a channel and 50
    /// requests a second in all (interaction answers aside); more is answered 429 with
    /// `retry_after`, as Discord does.
    pub fn enforce_rate_limits(&self) {
        *self.shared.rate_limits.lock().unwrap() = Some(rate_limits::RateLimits::default());
    }

    /// How many requests were answered 429 by the rate limits.
    pub fn rate_limited(&self) -> usize {
        self.shared
            .rate_limits
            .lock()
            .unwrap()
            .as_ref()
            .map_or(0, |limits| limits.refused)
    }

    /// How many requests were answered 429 by the global limit (all the bot's processes
    /// together over 50 a second).
    pub fn rate_limited_globally(&self) -> usize {
        self.shared
            .rate_limits
            .lock()
            .unwrap()
            .as_ref()
            .map_or(0, |limits| limits.refused_globally)
    }

    /// Archives a thread, as Discord does after a week without posts, and tells the bot
    /// (THREAD_UPDATE). Posting in it reopens it, as on Discord, unless it is locked.
    pub async fn archive_thread(&self, thread_id: u64, locked: bool) {
        let thread = self.shared.set_thread(thread_id, |metadata| {
            metadata["archived"] = json!(true);
            metadata["locked"] = json!(locked);
        });
        self.send_event("THREAD_UPDATE", thread).await;
    }

    /// Whether a thread is archived now.
    pub fn is_archived(&self, thread_id: u64) -> bool {
        self.shared.channels.lock().unwrap()[&thread_id]["thread_metadata"]["archived"] == json!(true)
    }

    /// Deletes a channel or thread: from now on it is 404 10003. A thread's deletion is told to
    /// the bot (THREAD_DELETE, with its parent) when `tell` is set; a bot that was down hears
    /// nothing.
    pub async fn delete_channel(&self, channel_id: u64, tell: bool) {
        self.shared.deleted_channels.lock().unwrap().insert(channel_id);
        let thread = self.shared.channels.lock().unwrap().get(&channel_id).cloned();
        if let (Some(thread), true) = (thread, tell) {
            let deleted = json!({
                "id": thread["id"],
                "guild_id": thread["guild_id"],
                "parent_id": thread["parent_id"],
                "type": thread["type"],
            });
            self.send_event("THREAD_DELETE", deleted).await;
        }
    }

    /// From now on the bot may not post in `channel_id` (403 50013), as when a moderator takes
    /// its permission away.
    pub fn close_channel(&self, channel_id: u64) {
        self.shared.closed_channels.lock().unwrap().insert(channel_id);
    }

    /// The commands registered on a server, as Discord holds them (an empty array if none).
    pub fn server_commands(&self, guild_id: u64) -> Value {
        self.shared
            .server_commands
            .lock()
            .unwrap()
            .get(&guild_id)
            .cloned()
            .unwrap_or(json!([]))
    }

    /// The body of the last `PUT .../commands` (global or guild), as the bot sent it; `Null` if
    /// the bot registered nothing yet.
    pub fn registered_commands(&self) -> Value {
        self.shared.registered_commands.lock().unwrap().clone()
    }

    /// The shard Discord sends an event to: its server's (server id >> 22, modulo the number of
    /// shards), shard 0 without a server (DMs).
    pub fn shard_of(&self, event: &Value) -> u32 {
        let total = u64::from(self.shared.ready.borrow().total.max(1));
        snowflake(&event["guild_id"]).map_or(0, |guild| u32::try_from((guild >> 22) % total).expect("a shard number"))
    }

    async fn send_dispatch(&self, t: &str, d: Value) -> Instant {
        let shard = self.shard_of(&d);
        // A shard whose connection dropped keeps its session: the event waits for the bot to
        // resume it, as on Discord.
        if !self.shared.sessions.lock().unwrap().contains_key(&shard) {
            self.wait_ready().await;
        }
        let sent = self.shared.queue_frame(shard, |seq| {
            *seq += 1;
            json!({ "op": 0, "t": t, "s": *seq, "d": d }).to_string()
        });
        await_sent(sent).await
    }
}

// ---------------------------------------------------------------------------------------------
// Shared state

/// Stops the server when the last `FakeDiscord` clone goes. Kept apart from `Shared`, which the
/// server's handlers hold (a guard inside it would never drop).
struct ServerGuard {
    shutdown: watch::Sender<bool>,
}

impl Drop for ServerGuard {
    fn drop(&mut self) {
        self.shutdown.send_replace(true);
    }
}

struct Shared {
    port: u16,
    calls: Mutex<Vec<Call>>,
    closed_dm_channels: Mutex<HashSet<u64>>,
    departed_members: Mutex<HashSet<u64>>,
    registered_commands: Mutex<Value>,
    /// The commands registered on each server, as Discord holds them.
    server_commands: Mutex<HashMap<u64, Value>>,
    /// Channels the fake created (DMs, threads), answered by `GET /channels/{id}`.
    channels: Mutex<HashMap<u64, Value>>,
    /// Interaction token -> where its responses live.
    interactions: Mutex<HashMap<String, InteractionInfo>>,
    /// Every message the bot sent or edited, by id, as it stands.
    messages: Mutex<HashMap<u64, Value>>,
    failures: Mutex<Vec<FailureRule>>,
    delays: Mutex<Vec<Delay>>,
    /// Channels and threads deleted (answered 404 10003).
    deleted_channels: Mutex<HashSet<u64>>,
    /// Channels where the bot may no longer post (403 50013).
    closed_channels: Mutex<HashSet<u64>>,
    /// Discord's rate limits, once a test turns them on.
    rate_limits: Mutex<Option<rate_limits::RateLimits>>,
    /// Files users attached, by path on the fake's CDN.
    cdn: Mutex<HashMap<String, Vec<u8>>>,
    next_id: AtomicU64,
    next_connection_id: AtomicU64,
    /// The bot's gateway connections, each for one shard once identified; a new connection for
    /// a shard replaces the old one.
    gateway: Mutex<Vec<Connection>>,
    /// Each shard's session (sequence numbers and what was dispatched), which outlives its
    /// connection.
    sessions: Mutex<HashMap<u32, Session>>,
    /// Sessions started so far (IDENTIFY), for tests of resuming.
    identified: AtomicU64,
    /// Sessions resumed so far.
    resumed: AtomicU64,
    ready: watch::Sender<ReadyShards>,
    shutdown: watch::Receiver<bool>,
}

#[derive(Clone, Copy)]
struct InteractionInfo {
    channel_id: u64,
    original_message_id: u64,
    /// 2 command, 3 component, 4 autocomplete, 5 form sent back.
    kind: u64,
    /// Whether it came from a component on a message.
    on_message: bool,
    /// When it was sent to the bot.
    sent: Instant,
    /// Whether its first response was made.
    responded: bool,
}

/// The fake's end of one bot websocket: frames queued here are written in order by its task.
struct Connection {
    id: u64,
    outbound: mpsc::UnboundedSender<Outbound>,
    /// The shard it identified (or resumed) as.
    shard: Option<u32>,
}

/// A shard's gateway session, as Discord keeps it: its id, its sequence numbers, and the events
/// it dispatched, so that a bot that lost its connection can RESUME and get those it missed.
struct Session {
    id: String,
    seq: u64,
    /// Dispatches by sequence number, the latest kept for replay on RESUME.
    sent: VecDeque<(u64, String)>,
    /// Dispatches made while no connection served the shard, with whoever waits for them to be
    /// written.
    missed: Vec<(String, oneshot::Sender<Instant>)>,
}

/// How many dispatches a session keeps for replay.
const REPLAYABLE: usize = 1000;

/// The shards whose connection got READY, and how many shards the bot has in all.
#[derive(Default)]
struct ReadyShards {
    ready: HashSet<u32>,
    total: u32,
}

struct Outbound {
    text: String,
    /// Told the moment the frame was written.
    sent: oneshot::Sender<Instant>,
}

/// The close code Discord uses for "unknown error; reconnect": the bot should RESUME.
const CLOSE_RECONNECT: u16 = 4000;

impl Shared {
    fn new(port: u16, shutdown: watch::Receiver<bool>) -> Shared {
        Shared {
            port,
            calls: Mutex::new(Vec::new()),
            closed_dm_channels: Mutex::new(HashSet::new()),
            departed_members: Mutex::new(HashSet::new()),
            registered_commands: Mutex::new(Value::Null),
            server_commands: Mutex::new(HashMap::new()),
            channels: Mutex::new(HashMap::new()),
            interactions: Mutex::new(HashMap::new()),
            messages: Mutex::new(HashMap::new()),
            failures: Mutex::new(Vec::new()),
            delays: Mutex::new(Vec::new()),
            deleted_channels: Mutex::new(HashSet::new()),
            closed_channels: Mutex::new(HashSet::new()),
            rate_limits: Mutex::new(None),
            cdn: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(FIRST_ID),
            next_connection_id: AtomicU64::new(1),
            gateway: Mutex::new(Vec::new()),
            sessions: Mutex::new(HashMap::new()),
            identified: AtomicU64::new(0),
            resumed: AtomicU64::new(0),
            ready: watch::Sender::new(ReadyShards::default()),
            shutdown,
        }
    }

    /// The failure a test asked for this request, if any (and whether the request still takes
    /// effect); counts it.
    fn failure_for(&self, method: &str, path: &str) -> Option<(Failure, bool)> {
        let mut failures = self.failures.lock().unwrap();
        let rule = failures
            .iter_mut()
            .find(|rule| rule.remaining > 0 && rule.method == method && path.contains(&rule.path_contains))?;
        rule.remaining = rule.remaining.saturating_sub(1);
        Some((rule.failure, rule.takes_effect))
    }

    /// How long to hold this request back, if a test asked; counts it.
    fn delay_for(&self, method: &str, path: &str) -> Option<Duration> {
        let mut delays = self.delays.lock().unwrap();
        let delay = delays
            .iter_mut()
            .find(|delay| delay.remaining > 0 && delay.method == method && path.contains(&delay.path_contains))?;
        delay.remaining = delay.remaining.saturating_sub(1);
        Some(delay.by)
    }

    /// Stores a message the bot sent or edited (an edit keeps the fields it does not name).
    fn store_message(&self, message: &Value, edit: &Value) {
        let Some(id) = snowflake(&message["id"]) else { return };
        let mut messages = self.messages.lock().unwrap();
        match messages.get_mut(&id) {
            Some(stored) if !edit.is_null() => {
                for field in ["content", "components", "embeds"] {
                    if edit.get(field).is_some() {
                        stored[field] = message[field].clone();
                    }
                }
                if message["attachments"].as_array().is_some_and(|a| !a.is_empty()) {
                    stored["attachments"] = message["attachments"].clone();
                }
            }
            _ => {
                messages.insert(id, message.clone());
            }
        }
    }

    fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Changes a thread's metadata; returns the thread as it now stands.
    fn set_thread(&self, thread_id: u64, change: impl FnOnce(&mut Value)) -> Value {
        let mut channels = self.channels.lock().unwrap();
        let thread = channels
            .get_mut(&thread_id)
            .unwrap_or_else(|| panic!("no thread {thread_id} was opened"));
        change(&mut thread["thread_metadata"]);
        thread.clone()
    }

    /// How Discord answers a request about a channel the bot lost, if it did.
    fn lost_channel(&self, channel_id: u64) -> Option<Reply> {
        if self.deleted_channels.lock().unwrap().contains(&channel_id) {
            return Some(Reply::failed(Failure::UnknownChannel));
        }
        None
    }

    /// Counts a request against the rate limits, if they are on; the 429 when it does not fit.
    fn rate_limit(&self, method: &str, path: &str) -> Option<Reply> {
        let mut limits = self.rate_limits.lock().unwrap();
        let limits = limits.as_mut()?;
        // Interactions have limits of their own, which these are not.
        if path.contains("/interactions/") || path.contains("/webhooks/") {
            return None;
        }
        let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
        let channel = match (method, segments.as_slice()) {
            ("POST", ["channels", channel, "messages"]) => channel.parse().ok(),
            _ => None,
        };
        let (retry_after, global) = limits.admit(channel, Instant::now()).err()?;
        let mut reply = Reply::failed(Failure::RateLimited { retry_after });
        reply.body.as_mut().expect("a body")["global"] = json!(global);
        Some(reply)
    }

    fn record(&self, call: Call) {
        self.calls.lock().unwrap().push(call);
    }

    /// Builds a frame with the shard's sequence counter (under the lock, so sequence numbers and
    /// socket order agree) and queues it on the shard's connection; with none (the bot lost it),
    /// the frame waits for the bot to RESUME, as on Discord.
    fn queue_frame(&self, shard: u32, frame: impl FnOnce(&mut u64) -> String) -> oneshot::Receiver<Instant> {
        let (sent, on_sent) = oneshot::channel();
        let mut sessions = self.sessions.lock().unwrap();
        let session = sessions
            .get_mut(&shard)
            .unwrap_or_else(|| panic!("no bot identified with the fake gateway as shard {shard}"));
        let before = session.seq;
        let text = frame(&mut session.seq);
        if session.seq != before {
            session.sent.push_back((session.seq, text.clone()));
            if session.sent.len() > REPLAYABLE {
                session.sent.pop_front();
            }
        }
        let gateway = self.gateway.lock().unwrap();
        match gateway.iter().find(|connection| connection.shard == Some(shard)) {
            Some(connection) => {
                if let Err(mpsc::error::SendError(Outbound { text, sent })) =
                    connection.outbound.send(Outbound { text, sent })
                {
                    session.missed.push((text, sent));
                }
            }
            None => session.missed.push((text, sent)),
        }
        on_sent
    }

    fn remember_interaction(&self, interaction: &Value) {
        let Some(token) = interaction["token"].as_str() else {
            return;
        };
        let channel_id = snowflake(&interaction["channel_id"]).unwrap_or(DEFAULT_CHANNEL_ID);
        let on_message = snowflake(&interaction["message"]["id"]);
        let info = InteractionInfo {
            channel_id,
            // After a click, the "original" message is the one clicked.
            original_message_id: on_message.filter(|&id| id != 0).unwrap_or_else(|| self.next_id()),
            kind: interaction["type"].as_u64().unwrap_or(0),
            on_message: on_message.is_some(),
            sent: Instant::now(),
            responded: false,
        };
        self.interactions.lock().unwrap().insert(token.to_owned(), info);
    }

    /// Follow-ups and edits need a first response, and stop working 15 minutes after the
    /// interaction.
    fn may_follow_up(&self, token: &str) -> Result<(), Refusal> {
        let info = self.interaction(token);
        if !info.responded {
            return Err(Refusal::new(404, 10015, "Unknown Webhook"));
        }
        if info.sent.elapsed() > strict::FOLLOWUP_WINDOW {
            return Err(Refusal::new(401, 50027, "Invalid Webhook Token"));
        }
        Ok(())
    }

    fn interaction(&self, token: &str) -> InteractionInfo {
        let mut interactions = self.interactions.lock().unwrap();
        *interactions.entry(token.to_owned()).or_insert_with(|| InteractionInfo {
            channel_id: DEFAULT_CHANNEL_ID,
            original_message_id: self.next_id(),
            kind: 2,
            on_message: false,
            sent: Instant::now(),
            responded: true,
        })
    }

    /// Takes a new websocket; it serves a shard once it identifies.
    fn connect(&self) -> (u64, mpsc::UnboundedReceiver<Outbound>) {
        let id = self.next_connection_id.fetch_add(1, Ordering::Relaxed);
        let (outbound, frames) = mpsc::unbounded_channel();
        self.gateway.lock().unwrap().push(Connection {
            id,
            outbound,
            shard: None,
        });
        (id, frames)
    }

    fn disconnect(&self, connection_id: u64) {
        let mut gateway = self.gateway.lock().unwrap();
        let Some(place) = gateway.iter().position(|connection| connection.id == connection_id) else {
            return;
        };
        if let Some(shard) = gateway.remove(place).shard {
            self.ready.send_modify(|shards| {
                shards.ready.remove(&shard);
            });
        }
    }

    /// Starts a session on IDENTIFY as `shard` of `total`: READY is dispatch number 1. An older
    /// connection of the same shard is dropped (its queue closes, which ends its task). False
    /// if this connection is gone meanwhile.
    fn begin_session(&self, connection_id: u64, shard: u32, total: u32) -> bool {
        let mut gateway = self.gateway.lock().unwrap();
        gateway.retain(|connection| connection.id == connection_id || connection.shard != Some(shard));
        let Some(connection) = gateway.iter_mut().find(|connection| connection.id == connection_id) else {
            return false;
        };
        connection.shard = Some(shard);
        let number = self.identified.fetch_add(1, Ordering::Relaxed) + 1;
        self.sessions.lock().unwrap().insert(
            shard,
            Session {
                id: format!("fake-session-{shard}-{number}"),
                seq: 1,
                sent: VecDeque::new(),
                missed: Vec::new(),
            },
        );
        self.ready.send_modify(|shards| {
            shards.ready.remove(&shard);
            shards.total = total;
        });
        true
    }

    /// The session of `shard`, if it is `session_id`: its id.
    fn session_id(&self, shard: u32) -> Option<String> {
        self.sessions
            .lock()
            .unwrap()
            .get(&shard)
            .map(|session| session.id.clone())
    }

    /// Resumes `session_id` on a new connection: the dispatches after `seq` again (those the bot
    /// may not have read), then those it missed while disconnected, then RESUMED. `None` when no
    /// such session is kept (the bot must IDENTIFY afresh).
    fn resume_session(
        &self,
        connection_id: u64,
        session_id: &str,
        seq: u64,
    ) -> Option<Vec<(String, Option<oneshot::Sender<Instant>>)>> {
        let mut sessions = self.sessions.lock().unwrap();
        let (&shard, session) = sessions.iter_mut().find(|(_, session)| session.id == session_id)?;
        let mut gateway = self.gateway.lock().unwrap();
        gateway.retain(|connection| connection.id == connection_id || connection.shard != Some(shard));
        let connection = gateway.iter_mut().find(|connection| connection.id == connection_id)?;
        connection.shard = Some(shard);
        let missed: Vec<(String, oneshot::Sender<Instant>)> = std::mem::take(&mut session.missed);
        let missed_texts: HashSet<&str> = missed.iter().map(|(text, _)| text.as_str()).collect();
        // Sent before the connection dropped but perhaps never read.
        let mut frames: Vec<(String, Option<oneshot::Sender<Instant>>)> = session
            .sent
            .iter()
            .filter(|(number, text)| *number > seq && !missed_texts.contains(text.as_str()))
            .map(|(_, text)| (text.clone(), None))
            .collect();
        frames.extend(missed.into_iter().map(|(text, sent)| (text, Some(sent))));
        session.seq += 1;
        frames.push((
            json!({ "op": 0, "t": "RESUMED", "s": session.seq, "d": {} }).to_string(),
            None,
        ));
        self.resumed.fetch_add(1, Ordering::Relaxed);
        Some(frames)
    }

    fn shard_ready(&self, shard: u32) {
        self.ready.send_modify(|shards| {
            shards.ready.insert(shard);
        });
    }
}

async fn wait_for_shutdown(mut shutdown: watch::Receiver<bool>) {
    // An error means the sender is gone: stop as well.
    let _ = shutdown.wait_for(|stop| *stop).await;
}

async fn await_sent(sent: oneshot::Receiver<Instant>) -> Instant {
    tokio::time::timeout(WAIT, sent)
        .await
        .expect("the gateway frame was not written within 10 s")
        .expect("the bot's gateway connection closed before the frame was written")
}

fn describe_calls(calls: &[Call]) -> String {
    let lines: Vec<String> = calls
        .iter()
        .map(|call| {
            let files: Vec<String> = call
                .files
                .iter()
                .map(|(name, bytes)| format!("{name} ({} B)", bytes.len()))
                .collect();
            format!(
                "  {} {} -> {} {} files: {:?}",
                call.method, call.path, call.status, call.json, files
            )
        })
        .collect();
    if lines.is_empty() {
        "  (none)".to_owned()
    } else {
        lines.join("\n")
    }
}

// ---------------------------------------------------------------------------------------------
// Gateway

async fn gateway_upgrade(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| run_gateway(shared, socket))
}

/// Serves one bot connection until it closes, a newer connection replaces it, or the fake stops.
async fn run_gateway(shared: Arc<Shared>, mut socket: WebSocket) {
    let (connection_id, mut frames) = shared.connect();
    let shutdown = shared.shutdown.clone();
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41250 } });
    if send_text(&mut socket, hello.to_string()).await.is_ok() {
        loop {
            tokio::select! {
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(text))) => {
                        if answer_op(&shared, connection_id, &mut socket, text.as_str()).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => {} // pings are answered by the library; binary is never sent
                },
                frame = frames.recv() => {
                    // None: a newer connection replaced this one.
                    // None: the connection was replaced or dropped.
                    let Some(Outbound { text, sent }) = frame else {
                        let frame = axum::extract::ws::CloseFrame { code: CLOSE_RECONNECT, reason: "reconnect".into() };
                        let _ = socket.send(Message::Close(Some(frame))).await;
                        break;
                    };
                    if send_text(&mut socket, text).await.is_err() {
                        break;
                    }
                    let _ = sent.send(Instant::now());
                }
                _ = wait_for_shutdown(shutdown.clone()) => break,
            }
        }
    }
    let _ = socket.send(Message::Close(None)).await;
    shared.disconnect(connection_id);
}

/// Answers one frame from the bot. Unparseable frames and unknown ops are ignored.
async fn answer_op(shared: &Shared, connection_id: u64, socket: &mut WebSocket, text: &str) -> Result<(), axum::Error> {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    match frame["op"].as_u64() {
        Some(1) => send_text(socket, json!({ "op": 11 }).to_string()).await,
        Some(2) => {
            let number = |i: usize| frame["d"]["shard"][i].as_u64().and_then(|n| u32::try_from(n).ok());
            let (shard, total) = (number(0).unwrap_or(0), number(1).unwrap_or(1).max(1));
            if shared.begin_session(connection_id, shard, total) {
                let session = shared.session_id(shard).unwrap_or_default();
                send_text(socket, ready_frame(shared.port, shard, total, &session)).await?;
                shared.shard_ready(shard);
            }
            Ok(())
        }
        // RESUME: the session goes on where the bot left it, if the fake still keeps it;
        // otherwise the bot must IDENTIFY afresh (op 9, not resumable).
        Some(6) => {
            let session_id = frame["d"]["session_id"].as_str().unwrap_or_default();
            let seq = frame["d"]["seq"].as_u64().unwrap_or(0);
            let Some(frames) = shared.resume_session(connection_id, session_id, seq) else {
                return send_text(socket, json!({ "op": 9, "d": false }).to_string()).await;
            };
            let shard = shared
                .gateway
                .lock()
                .unwrap()
                .iter()
                .find(|connection| connection.id == connection_id)
                .and_then(|connection| connection.shard);
            for (text, sent) in frames {
                send_text(socket, text).await?;
                if let Some(sent) = sent {
                    let _ = sent.send(Instant::now());
                }
            }
            if let Some(shard) = shard {
                shared.shard_ready(shard);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn send_text(socket: &mut WebSocket, text: String) -> Result<(), axum::Error> {
    socket.send(Message::text(text)).await
}

/// READY for `shard` of `total`: the servers that shard serves.
fn ready_frame(port: u16, shard: u32, total: u32, session_id: &str) -> String {
    let guilds: Vec<Value> = [FakeDiscord::GUILD_ID, FakeDiscord::OTHER_GUILD_ID]
        .into_iter()
        .filter(|guild| (guild >> 22) % u64::from(total) == u64::from(shard))
        .map(|guild| json!({ "id": guild.to_string(), "unavailable": true }))
        .collect();
    let ready = json!({
        "v": 10,
        "user": {
            "id": FakeDiscord::BOT_USER_ID.to_string(),
            "username": "Arbiter",
            "discriminator": "0000",
            "avatar": null,
            "bot": true,
        },
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": format!("ws://127.0.0.1:{port}/ws"),
        "shard": [shard, total],
        "application": { "id": FakeDiscord::APPLICATION_ID.to_string(), "flags": 0 },
    });
    json!({ "op": 0, "t": "READY", "s": 1, "d": ready }).to_string()
}

// ---------------------------------------------------------------------------------------------
// REST

/// What the fake answers: a status and an optional JSON body (or a file's bytes).
struct Reply {
    status: u16,
    body: Option<Value>,
    /// Refused by Discord's rules.
    refused: bool,
    /// A file served from the CDN instead of a JSON body.
    bytes: Option<Vec<u8>>,
}

impl From<Refusal> for Reply {
    fn from(refusal: Refusal) -> Reply {
        Reply {
            status: refusal.status,
            body: Some(refusal.body),
            refused: true,
            bytes: None,
        }
    }
}

impl Reply {
    fn ok(body: Value) -> Reply {
        Reply {
            status: 200,
            body: Some(body),
            refused: false,
            bytes: None,
        }
    }

    fn no_content() -> Reply {
        Reply {
            status: 204,
            body: None,
            refused: false,
            bytes: None,
        }
    }

    fn not_found() -> Reply {
        Reply {
            status: 404,
            body: Some(json!({ "message": "404: Not Found", "code": 0 })),
            refused: false,
            bytes: None,
        }
    }

    fn unknown_member() -> Reply {
        Reply {
            status: 404,
            body: Some(json!({ "message": "Unknown Member", "code": 10007 })),
            refused: false,
            bytes: None,
        }
    }

    /// Discord's answer when a request fails for a reason of Discord's world (a channel gone, a
    /// permission missing), not because the bot broke a rule.
    fn failed(failure: Failure) -> Reply {
        Reply {
            refused: false,
            ..Reply::from(failure.refusal())
        }
    }

    fn cannot_dm() -> Reply {
        Reply {
            status: 403,
            body: Some(json!({ "message": "Cannot send messages to this user", "code": 50007 })),
            refused: false,
            bytes: None,
        }
    }
}

impl Reply {
    fn file(bytes: Vec<u8>) -> Reply {
        Reply {
            status: 200,
            body: None,
            refused: false,
            bytes: Some(bytes),
        }
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        if let Some(bytes) = self.bytes {
            return (StatusCode::OK, bytes).into_response();
        }
        let status = StatusCode::from_u16(self.status).expect("valid status");
        let retry_after = self.body.as_ref().and_then(|body| body["retry_after"].as_f64());
        let mut response = match self.body {
            Some(body) => (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response(),
            None => status.into_response(),
        };
        if self.status == 429 {
            // Discord's rate-limit headers: the bucket is empty until `retry_after`.
            let retry_after = retry_after.unwrap_or(1.0);
            let headers = response.headers_mut();
            headers.insert(
                "retry-after",
                retry_after.ceil().to_string().parse().expect("a header value"),
            );
            headers.insert("x-ratelimit-remaining", "0".parse().expect("a header value"));
            headers.insert(
                "x-ratelimit-reset-after",
                retry_after.to_string().parse().expect("a header value"),
            );
        }
        response
    }
}

/// Every request other than the websocket lands here: answer, then record.
async fn rest(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let at = Instant::now();
    let method = request.method().as_str().to_owned();
    let auth = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let path = request.uri().path().to_owned();
    let (json, files) = read_payload(request).await;
    if let Some(delay) = shared.delay_for(&method, &path) {
        tokio::time::sleep(delay).await;
    }
    let reply = match shared.failure_for(&method, &path) {
        _ if let Some(limited) = shared.rate_limit(&method, &path) => limited,
        Some((failure, takes_effect)) => {
            if takes_effect {
                answer_rest(&shared, &method, &path, &json, &files);
            }
            let mut reply = Reply::from(failure.refusal());
            reply.refused = false;
            reply
        }
        None => answer_rest(&shared, &method, &path, &json, &files),
    };
    shared.record(Call {
        method,
        path,
        json,
        files,
        at,
        status: reply.status,
        refused: reply.refused,
        auth,
    });
    reply.into_response()
}

/// The JSON body, or for multipart the `payload_json` part plus the files. A body that is not
/// JSON is kept as a string so the test can see it.
async fn read_payload(request: Request) -> (Value, Vec<(String, Vec<u8>)>) {
    let is_multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("multipart/form-data"));
    if is_multipart {
        return read_multipart(request).await;
    }
    let bytes = axum::body::to_bytes(request.into_body(), usize::MAX)
        .await
        .unwrap_or_default();
    (parse_json(&bytes), Vec::new())
}

async fn read_multipart(request: Request) -> (Value, Vec<(String, Vec<u8>)>) {
    let mut json = Value::Null;
    let mut files = Vec::new();
    let Ok(mut multipart) = Multipart::from_request(request, &()).await else {
        return (json, files);
    };
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field.file_name().map(str::to_owned);
        let Ok(bytes) = field.bytes().await else { break };
        match file_name {
            Some(file_name) => files.push((file_name, bytes.to_vec())),
            None if name == "payload_json" => json = parse_json(&bytes),
            None => {}
        }
    }
    (json, files)
}

fn parse_json(bytes: &[u8]) -> Value {
    if bytes.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

/// Routes one REST call. Paths are matched by segment after "/api/v10/".
fn answer_rest(shared: &Shared, method: &str, path: &str, json: &Value, files: &[(String, Vec<u8>)]) -> Reply {
    if method == "GET" && path.starts_with("/cdn/") {
        return match shared.cdn.lock().unwrap().get(path) {
            Some(bytes) => Reply::file(bytes.clone()),
            None => Reply::not_found(),
        };
    }
    let Some(route) = path.strip_prefix("/api/v10/") else {
        return Reply::not_found();
    };
    let segments: Vec<&str> = route.split('/').collect();
    match (method, segments.as_slice()) {
        ("GET", ["gateway"] | ["gateway", "bot"]) => Reply::ok(gateway_json(shared.port)),
        ("GET", ["applications", "@me"] | ["oauth2", "applications", "@me"]) => Reply::ok(application_json()),
        ("PUT", ["applications", _, "commands"]) => match strict::check_commands(json) {
            Ok(()) => Reply::ok(register_commands(shared, json, None)),
            Err(refusal) => refusal.into(),
        },
        ("PUT", ["applications", _, "guilds", guild, "commands"]) => {
            match (guild.parse(), strict::check_commands(json)) {
                (Ok(guild_id), Ok(())) => Reply::ok(register_commands(shared, json, Some(guild_id))),
                (_, Err(refusal)) => refusal.into(),
                (Err(_), _) => Reply::not_found(),
            }
        }
        ("POST", ["interactions", _, token, "callback"]) => respond(shared, token, json, files),
        ("POST", ["webhooks", _, token]) => match shared.may_follow_up(token) {
            Ok(()) => match strict::check_message(json, files.len(), true) {
                Ok(()) => Reply::ok(followup_message(shared, token, shared.next_id(), json, files)),
                Err(refusal) => refusal.into(),
            },
            Err(refusal) => refusal.into(),
        },
        ("GET" | "PATCH", ["webhooks", _, token, "messages", message]) => {
            let message_id = match *message {
                "@original" => Some(shared.interaction(token).original_message_id),
                id => id.parse().ok(),
            };
            let checked = shared
                .may_follow_up(token)
                .and_then(|()| strict::check_message(json, files.len(), false));
            match (message_id, checked) {
                (_, Err(refusal)) => refusal.into(),
                (Some(message_id), Ok(())) => Reply::ok(followup_message(shared, token, message_id, json, files)),
                (None, Ok(())) => Reply::not_found(),
            }
        }
        ("DELETE", ["webhooks", _, _, "messages", _]) => Reply::no_content(),
        ("POST", ["users", "@me", "channels"]) => match snowflake(&json["recipient_id"]) {
            Some(recipient) => Reply::ok(create_dm_channel(shared, recipient)),
            None => Reply::not_found(),
        },
        ("GET", ["guilds", _, "members", user]) => match user.parse::<u64>() {
            Ok(user_id) if shared.departed_members.lock().unwrap().contains(&user_id) => Reply::unknown_member(),
            Ok(user_id) => Reply::ok(member_json(user_id)),
            Err(_) => Reply::not_found(),
        },
        ("GET", ["users", "@me"]) => Reply::ok(bot_user_json()),
        ("GET", ["applications", _, "guilds", guild, "commands"]) => match guild.parse::<u64>() {
            Ok(guild_id) => Reply::ok(
                shared
                    .server_commands
                    .lock()
                    .unwrap()
                    .get(&guild_id)
                    .cloned()
                    .unwrap_or(json!([])),
            ),
            Err(_) => Reply::not_found(),
        },
        ("GET", ["users", user]) => match user.parse() {
            Ok(user_id) => Reply::ok(user_json(user_id, &format!("user{user_id}"), false)),
            Err(_) => Reply::not_found(),
        },
        ("GET", ["channels", channel]) => match channel.parse() {
            Ok(channel_id) => shared
                .lost_channel(channel_id)
                .unwrap_or_else(|| Reply::ok(channel_json(shared, channel_id))),
            Err(_) => Reply::not_found(),
        },
        ("PATCH", ["channels", channel]) => match channel.parse() {
            Ok(channel_id) => shared
                .lost_channel(channel_id)
                .unwrap_or_else(|| edit_thread(shared, channel_id, json)),
            Err(_) => Reply::not_found(),
        },
        ("POST", ["channels", channel, "messages"]) => match channel.parse() {
            Ok(channel_id) => create_message(shared, channel_id, json, files),
            Err(_) => Reply::not_found(),
        },
        ("PATCH", ["channels", channel, "messages", message]) => match (channel.parse(), message.parse()) {
            (Ok(channel_id), Ok(message_id)) => match strict::check_message(json, files.len(), false) {
                Ok(()) => {
                    let attachments = attachments_json(shared, files);
                    let edited = message_json(message_id, channel_id, bot_user_json(), json, attachments);
                    shared.store_message(&edited, json);
                    Reply::ok(edited)
                }
                Err(refusal) => refusal.into(),
            },
            _ => Reply::not_found(),
        },
        ("DELETE", ["channels", _, "messages", _]) => Reply::no_content(),
        // Discord gives a thread started from a message the message's id.
        ("POST", ["channels", channel, "messages", message, "threads"]) => match (channel.parse(), message.parse()) {
            (Ok(_), Ok(thread_id)) if shared.channels.lock().unwrap().contains_key(&thread_id) => {
                Refusal::new(400, 160004, "A thread has already been created for this message").into()
            }
            (Ok(channel_id), Ok(thread_id)) => Reply::ok(create_thread(shared, thread_id, channel_id, json)),
            _ => Reply::not_found(),
        },
        ("POST", ["channels", channel, "threads"]) => match channel.parse() {
            Ok(channel_id) => Reply::ok(create_thread(shared, shared.next_id(), channel_id, json)),
            Err(_) => Reply::not_found(),
        },
        ("PUT" | "DELETE", ["channels", _, "thread-members", _]) => Reply::no_content(),
        _ => Reply::not_found(),
    }
}

fn gateway_json(port: u16) -> Value {
    json!({
        "url": format!("ws://127.0.0.1:{port}/ws"),
        "shards": 1,
        "session_start_limit": { "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1 },
    })
}

/// Enough of `CurrentApplicationInfo` for serenity (poise asks for it to find the owners).
fn application_json() -> Value {
    json!({
        "id": FakeDiscord::APPLICATION_ID.to_string(),
        "name": "Arbiter",
        "icon": null,
        "description": "",
        "bot_public": true,
        "bot_require_code_grant": false,
        "owner": user_json(1, "owner", false),
        "verify_key": "0",
        "team": null,
        "flags": 0,
    })
}

/// Keeps the body as registered and echoes it back the way Discord does, with the fields
/// serenity's `Command` requires (id, application_id, version, type, description).
fn register_commands(shared: &Shared, body: &Value, guild_id: Option<u64>) -> Value {
    *shared.registered_commands.lock().unwrap() = body.clone();
    let commands = body.as_array().cloned().unwrap_or_default();
    let registered: Value = commands
        .into_iter()
        .map(|command| complete_command(shared.next_id(), command, guild_id))
        .collect();
    if let Some(guild_id) = guild_id {
        shared
            .server_commands
            .lock()
            .unwrap()
            .insert(guild_id, registered.clone());
    }
    registered
}

fn complete_command(id: u64, mut command: Value, guild_id: Option<u64>) -> Value {
    if let Some(fields) = command.as_object_mut() {
        fields.insert("id".into(), json!(id.to_string()));
        fields.insert("application_id".into(), json!(FakeDiscord::APPLICATION_ID.to_string()));
        fields.insert("version".into(), json!(id.to_string()));
        fields.entry("type").or_insert(json!(1));
        // Context-menu commands have no description, but serenity's `Command` requires one.
        fields.entry("description").or_insert(json!(""));
        fields.entry("default_member_permissions").or_insert(Value::Null);
        if let Some(guild_id) = guild_id {
            fields.insert("guild_id".into(), json!(guild_id.to_string()));
        }
    }
    command
}

fn create_dm_channel(shared: &Shared, recipient: u64) -> Value {
    let channel_id = FakeDiscord::dm_channel_id(recipient);
    let channel = json!({
        "id": channel_id.to_string(),
        "type": 1,
        "last_message_id": null,
        "recipients": [user_json(recipient, &format!("user{recipient}"), false)],
    });
    shared.channels.lock().unwrap().insert(channel_id, channel.clone());
    channel
}

/// A channel the fake created, else a guild text channel.
fn channel_json(shared: &Shared, channel_id: u64) -> Value {
    if let Some(channel) = shared.channels.lock().unwrap().get(&channel_id) {
        return channel.clone();
    }
    json!({
        "id": channel_id.to_string(),
        "type": 0,
        "guild_id": FakeDiscord::GUILD_ID.to_string(),
        "name": format!("channel{channel_id}"),
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false,
        "parent_id": null,
        "topic": null,
        "last_message_id": null,
        "rate_limit_per_user": 0,
    })
}

/// A thread reopened or archived by the bot. Reopening a locked thread needs Manage Threads,
/// which the bot does not have.
fn edit_thread(shared: &Shared, thread_id: u64, body: &Value) -> Reply {
    let Some(thread) = shared.channels.lock().unwrap().get(&thread_id).cloned() else {
        return Reply::not_found();
    };
    if thread["thread_metadata"]["locked"] == json!(true) {
        return Reply::failed(Failure::MissingPermissions);
    }
    Reply::ok(shared.set_thread(thread_id, |metadata| {
        if let Some(archived) = body.get("archived") {
            metadata["archived"] = archived.clone();
        }
    }))
}

fn create_message(shared: &Shared, channel_id: u64, body: &Value, files: &[(String, Vec<u8>)]) -> Reply {
    if shared.closed_dm_channels.lock().unwrap().contains(&channel_id) {
        return Reply::cannot_dm();
    }
    if let Some(lost) = shared.lost_channel(channel_id) {
        return lost;
    }
    if shared.closed_channels.lock().unwrap().contains(&channel_id) {
        return Reply::failed(Failure::MissingPermissions);
    }
    let metadata = shared
        .channels
        .lock()
        .unwrap()
        .get(&channel_id)
        .map(|thread| thread["thread_metadata"].clone());
    if let Some(metadata) = metadata.filter(|m| m["archived"] == json!(true)) {
        // Posting reopens an archived thread, but not a locked one.
        if metadata["locked"] == json!(true) {
            return Reply::failed(Failure::ArchivedThread);
        }
        shared.set_thread(channel_id, |metadata| metadata["archived"] = json!(false));
    }
    if let Err(refusal) = strict::check_message(body, files.len(), true) {
        return refusal.into();
    }
    let attachments = attachments_json(shared, files);
    let message = message_json(shared.next_id(), channel_id, bot_user_json(), body, attachments);
    shared.store_message(&message, &Value::Null);
    Reply::ok(message)
}

/// The first response to an interaction: in time, only once, of a type that fits it.
fn respond(shared: &Shared, token: &str, body: &Value, files: &[(String, Vec<u8>)]) -> Reply {
    let mut interactions = shared.interactions.lock().unwrap();
    let Some(info) = interactions.get_mut(token) else {
        return Refusal::new(404, 10062, "Unknown interaction").into();
    };
    if info.sent.elapsed() > strict::RESPONSE_WINDOW {
        return Refusal::new(404, 10062, "Unknown interaction").into();
    }
    if info.responded {
        return Refusal::new(400, 40060, "Interaction has already been acknowledged.").into();
    }
    if let Err(refusal) = strict::check_callback(info.kind, info.on_message, body, files.len()) {
        return refusal.into();
    }
    info.responded = true;
    let info = *info;
    drop(interactions);
    // A message in answer (4), or the clicked message updated (7), is there to be seen.
    if matches!(body["type"].as_u64(), Some(4 | 7)) {
        let attachments = attachments_json(shared, files);
        let message = message_json(
            info.original_message_id,
            info.channel_id,
            bot_user_json(),
            &body["data"],
            attachments,
        );
        let edit = if body["type"] == json!(7) {
            &body["data"]
        } else {
            &Value::Null
        };
        shared.store_message(&message, edit);
    }
    Reply::no_content()
}

/// An interaction response or follow-up: in the interaction's channel, sent by the application.
fn followup_message(shared: &Shared, token: &str, message_id: u64, body: &Value, files: &[(String, Vec<u8>)]) -> Value {
    let channel_id = shared.interaction(token).channel_id;
    let attachments = attachments_json(shared, files);
    let mut message = message_json(message_id, channel_id, bot_user_json(), body, attachments);
    message["webhook_id"] = json!(FakeDiscord::APPLICATION_ID.to_string());
    message["application_id"] = json!(FakeDiscord::APPLICATION_ID.to_string());
    if !body.is_null() {
        shared.store_message(&message, body);
    }
    message
}

fn create_thread(shared: &Shared, thread_id: u64, parent_id: u64, body: &Value) -> Value {
    let thread = json!({
        "id": thread_id.to_string(),
        "type": body.get("type").cloned().unwrap_or(json!(11)),
        "guild_id": FakeDiscord::GUILD_ID.to_string(),
        "parent_id": parent_id.to_string(),
        "owner_id": FakeDiscord::BOT_USER_ID.to_string(),
        "name": body["name"].as_str().unwrap_or("thread"),
        "last_message_id": null,
        "rate_limit_per_user": body.get("rate_limit_per_user").cloned().unwrap_or(json!(0)),
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": false,
            "auto_archive_duration": body.get("auto_archive_duration").cloned().unwrap_or(json!(1440)),
            "archive_timestamp": TIMESTAMP,
            "locked": false,
            "create_timestamp": TIMESTAMP,
        },
    });
    shared.channels.lock().unwrap().insert(thread_id, thread.clone());
    thread
}

fn attachments_json(shared: &Shared, files: &[(String, Vec<u8>)]) -> Vec<Value> {
    files
        .iter()
        .map(|(filename, bytes)| {
            let id = shared.next_id();
            let url = format!("https://cdn.discordapp.com/attachments/{id}/{filename}");
            json!({
                "id": id.to_string(),
                "filename": filename,
                "size": bytes.len(),
                "url": url,
                "proxy_url": url,
                "content_type": content_type(filename),
            })
        })
        .collect()
}

fn content_type(filename: &str) -> &'static str {
    match filename.rsplit('.').next() {
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("txt") => "text/plain",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

// ---------------------------------------------------------------------------------------------
// JSON objects serenity 0.12.5 deserializes

/// A user object; `bot` users cannot be DMed by serenity (it refuses before any call).
pub fn user_json(user_id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": user_id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

/// A guild member object for `GET /guilds/{id}/members/{user}`.
fn member_json(user_id: u64) -> Value {
    json!({
        "user": user_json(user_id, &format!("user{user_id}"), false),
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
    })
}

fn bot_user_json() -> Value {
    user_json(FakeDiscord::BOT_USER_ID, "Arbiter", true)
}

/// A message in `channel_id` echoing the body's content, embeds, components and flags (what a
/// create or edit sends), with the given attachments.
pub fn message_json(message_id: u64, channel_id: u64, author: Value, body: &Value, attachments: Vec<Value>) -> Value {
    json!({
        "id": message_id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": author,
        "content": body["content"].as_str().unwrap_or_default(),
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": body.get("embeds").cloned().unwrap_or(json!([])),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "pinned": false,
        "type": 0,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
    })
}

// ---------------------------------------------------------------------------------------------
// Interaction payloads

/// A slash command (type 2) used by `invoker` in guild text channel `channel_id`.
/// `options` is Discord's `data.options` array, e.g. `[{"name":"variant","type":3,"value":"x"}]`.
pub fn command_interaction(id: u64, invoker: &Invoker, channel_id: u64, command: &str, options: Value) -> Value {
    let mut interaction = guild_interaction(id, 2, invoker, channel_id);
    interaction["data"] = command_data(command, options);
    interaction
}

/// An autocomplete request (type 4). The option marked `"focused": true` is the one being typed;
/// if none is marked, the last leaf option is. Discord sends the focused value as a string, and
/// serenity insists, so a non-string focused value is turned into one.
pub fn autocomplete_interaction(id: u64, invoker: &Invoker, channel_id: u64, command: &str, options: Value) -> Value {
    let mut options = options;
    if !mark_focused(&mut options) {
        focus_last_leaf(&mut options);
    }
    let mut interaction = guild_interaction(id, 4, invoker, channel_id);
    interaction["data"] = command_data(command, options);
    interaction
}

/// A button (`component_type` 2) or select menu (3, with `values`) on message `message_id`
/// (sent by the bot) in guild channel `channel_id`.
pub fn component_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    component_type: u8,
    values: Vec<String>,
    message_id: u64,
) -> Value {
    let mut interaction = guild_interaction(id, 3, invoker, channel_id);
    interaction["data"] = component_data(custom_id, component_type, values);
    interaction["message"] = component_message(message_id, channel_id);
    interaction
}

/// The same as `component_interaction`, but pressed in the invoker's DM with the bot: no guild
/// or member, a top-level `user`, a channel of type 1.
pub fn dm_component_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    component_type: u8,
    values: Vec<String>,
    message_id: u64,
) -> Value {
    let mut interaction = json!({
        "id": id.to_string(),
        "application_id": FakeDiscord::APPLICATION_ID.to_string(),
        "type": 3,
        "token": format!("token{id}"),
        "version": 1,
        "channel_id": channel_id.to_string(),
        "channel": { "id": channel_id.to_string(), "type": 1 },
        "user": user_json(invoker.user_id, &invoker.name, false),
        "app_permissions": PERMISSIONS.to_string(),
        "locale": "en-US",
        "entitlements": [],
        // A guild-installed app used in its bot DM: Discord sends "0" as the guild.
        "authorizing_integration_owners": { "0": "0" },
        "context": 1,
        "attachment_size_limit": 10_485_760,
    });
    interaction["data"] = component_data(custom_id, component_type, values);
    interaction["message"] = component_message(message_id, channel_id);
    interaction
}

/// A form (modal, type 5) sent back by `invoker` in guild channel `channel_id`: `fields` are the
/// custom ids and values of its text inputs, one a row.
pub fn modal_submit_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    fields: &[(&str, &str)],
) -> Value {
    let mut interaction = guild_interaction(id, 5, invoker, channel_id);
    interaction["data"] = modal_data(custom_id, fields);
    interaction
}

/// The same as `modal_submit_interaction`, sent back in the invoker's DM with the bot.
pub fn dm_modal_submit_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    fields: &[(&str, &str)],
) -> Value {
    let mut interaction = dm_component_interaction(id, invoker, channel_id, custom_id, 2, Vec::new(), 0);
    interaction["type"] = json!(5);
    interaction["data"] = modal_data(custom_id, fields);
    interaction.as_object_mut().expect("an object").remove("message");
    interaction
}

/// A modal submit's `data`: the modal's custom id and each text input (type 4) in its row.
fn modal_data(custom_id: &str, fields: &[(&str, &str)]) -> Value {
    let rows: Vec<Value> = fields
        .iter()
        .map(|(field, value)| {
            json!({
                "type": 1,
                "components": [{ "type": 4, "custom_id": field, "value": value }],
            })
        })
        .collect();
    json!({ "custom_id": custom_id, "components": rows })
}

/// The same interaction sent from another guild (`FakeDiscord::OTHER_GUILD_ID`, say).
pub fn in_guild(mut interaction: Value, guild_id: u64) -> Value {
    let guild = json!(guild_id.to_string());
    interaction["guild_id"] = guild.clone();
    interaction["channel"]["guild_id"] = guild.clone();
    interaction["authorizing_integration_owners"] = json!({ "0": guild });
    interaction
}

/// The fields every guild interaction carries, including those serenity requires beyond
/// Discord's documented example (`member.flags`, `application_id`, `version`, `entitlements`,
/// `attachment_size_limit`).
fn guild_interaction(id: u64, kind: u8, invoker: &Invoker, channel_id: u64) -> Value {
    let guild_id = FakeDiscord::GUILD_ID.to_string();
    json!({
        "id": id.to_string(),
        "application_id": FakeDiscord::APPLICATION_ID.to_string(),
        "type": kind,
        "token": format!("token{id}"),
        "version": 1,
        "guild_id": guild_id,
        "channel_id": channel_id.to_string(),
        "channel": {
            "id": channel_id.to_string(),
            "type": 0,
            "guild_id": guild_id,
            "name": format!("channel{channel_id}"),
        },
        "member": {
            "user": user_json(invoker.user_id, &invoker.name, false),
            "nick": null,
            "avatar": null,
            "roles": [],
            "joined_at": TIMESTAMP,
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": PERMISSIONS.to_string(),
        },
        "app_permissions": PERMISSIONS.to_string(),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": { "0": guild_id },
        "context": 0,
        "attachment_size_limit": 10_485_760,
    })
}

fn command_data(command: &str, options: Value) -> Value {
    json!({
        "id": FakeDiscord::COMMAND_ID.to_string(),
        "name": command,
        "type": 1,
        "options": options,
    })
}

fn component_data(custom_id: &str, component_type: u8, values: Vec<String>) -> Value {
    let mut data = json!({ "custom_id": custom_id, "component_type": component_type });
    // Buttons carry no `values`; select menus always do.
    if component_type != 2 {
        data["values"] = json!(values);
    }
    data
}

/// The bot's message the component sits on.
fn component_message(message_id: u64, channel_id: u64) -> Value {
    message_json(message_id, channel_id, bot_user_json(), &Value::Null, Vec::new())
}

/// Makes any focused option's value a string; true if some option was focused.
fn mark_focused(options: &mut Value) -> bool {
    let mut found = false;
    for option in options.as_array_mut().into_iter().flatten() {
        if option["focused"] == json!(true) {
            stringify_value(option);
            found = true;
        }
        if option.get("options").is_some() {
            found |= mark_focused(&mut option["options"]);
        }
    }
    found
}

/// Focuses the last option, descending into sub-commands (which hold their own options).
fn focus_last_leaf(options: &mut Value) {
    let Some(last) = options.as_array_mut().and_then(|options| options.last_mut()) else {
        return;
    };
    if last.get("options").is_some() {
        focus_last_leaf(&mut last["options"]);
    } else {
        last["focused"] = json!(true);
        stringify_value(last);
    }
}

fn stringify_value(option: &mut Value) {
    let value = &option["value"];
    if !value.is_string() {
        let text = if value.is_null() {
            String::new()
        } else {
            value.to_string()
        };
        option["value"] = json!(text);
    }
}

/// Parses a snowflake sent as a string or a number.
fn snowflake(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_str()?.parse().ok())
}
