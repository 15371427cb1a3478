//! A fake Discord for end-to-end tests: a gateway (websocket) and the REST endpoints the bot uses,
//! served by axum on a random loopback port.
//!
//! Point serenity at it with `HttpBuilder::new(token).proxy(fake.api_base()).ratelimiter_disabled(true)`
//! (with the ratelimiter on, serenity ignores the proxy) and `ClientBuilder::new_with_http`. The
//! client asks `GET /api/v10/gateway` for the websocket URL, which points back here.
//!
//! Every REST call is recorded (`calls`, `wait_for_call`); answers are the smallest JSON bodies
//! serenity 0.12.5 deserializes. Interaction payload builders (payloads.rs) produce JSON that parses
//! into serenity's `Interaction`.
//!
//! The fake is strict (see `strict`): it refuses what Discord refuses (a response after 3 s, a
//! second first response, oversized or empty messages, malformed commands, a token it never sent,
//! a channel or message that does not exist, a second thread on a message, a route Discord does
//! not have), holds the bot to its permissions in each channel (the same ones its interactions
//! carry as `app_permissions`) and to Discord's rate limits, and can be told to fail requests the
//! way Discord does (`fail`). Every refusal is recorded (`refused_calls`), for the test that
//! caused it to fail on.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

mod audience;
mod gateway;
mod payloads;
pub mod rate_limits;
mod rest;
mod shared;
pub mod strict;

pub use audience::public_calls;
use gateway::*;
pub use payloads::*;
use rest::*;
use shared::*;
use strict::Refusal;

/// How long any wait in the fake lasts before it panics: tests must fail, never hang.
const WAIT: Duration = Duration::from_secs(30);
/// Ids handed out by the fake (messages, threads, attachments, commands) start here, far from
/// the small ids tests pick for users and channels.
const FIRST_ID: u64 = 900_000_000_000_000_000;
/// A DM channel's id is its recipient's id plus this, so tests can predict it.
const DM_CHANNEL_OFFSET: u64 = 1_000_000;
/// Channel of follow-ups to interactions the fake did not dispatch itself.
const DEFAULT_CHANNEL_ID: u64 = 3_000;
/// The one timestamp the fake uses everywhere (deterministic output).
const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";
/// Discord's permission bits the fake checks (the bot's, in a channel), and the set it grants by
/// default.
pub mod permissions {
    /// A member's right to manage the server (which makes them a host to Arbiter).
    pub const MANAGE_GUILD: u64 = 1 << 5;
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const EMBED_LINKS: u64 = 1 << 14;
    pub const ATTACH_FILES: u64 = 1 << 15;
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    /// What the bot and invokers hold unless a test says otherwise: view, send, embed, attach,
    /// history, use commands, create public threads, send in threads.
    pub const DEFAULT: u64 = VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS;
}
const PERMISSIONS: u64 = permissions::DEFAULT;

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
    /// The JSON the fake answered with (a message made, with its id), `Null` if none.
    pub answer: Value,
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
    /// 429 by the global limit (every route of the bot waits), retry after this many seconds.
    RateLimitedGlobally { retry_after: f64 },
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
            Failure::RateLimitedGlobally { retry_after } => Refusal {
                status: 429,
                body: json!({ "message": "You are being rate limited.", "retry_after": retry_after, "global": true, "code": 0 }),
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
    /// The bot's own role on each server (the one Discord makes when a bot is invited), which the
    /// bot's member holds; it grants `permissions::DEFAULT`, as @everyone does.
    pub const BOT_ROLE_ID: u64 = 100_000_000_000_000_005;
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
            _server: Arc::new(ServerGuard {
                shutdown: shutdown_tx,
                shared: Arc::clone(&shared),
            }),
            shared,
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

    /// Whether `channel_id` is a DM channel the fake hands out (see [`FakeDiscord::dm_channel_id`]).
    pub fn is_dm_channel(channel_id: u64) -> bool {
        (DM_CHANNEL_OFFSET..2 * DM_CHANNEL_OFFSET).contains(&channel_id)
    }

    /// Waits until every shard the bot identified with (one unless it shards) got READY.
    /// Panics after 30 s.
    pub async fn wait_ready(&self) {
        let mut ready = self.shared.ready.subscribe();
        let all_ready = |shards: &ReadyShards| shards.total > 0 && shards.ready.len() == shards.total as usize;
        tokio::time::timeout(WAIT, ready.wait_for(all_ready))
            .await
            .expect("the bot did not connect and IDENTIFY within 30 s")
            .expect("the fake Discord stopped");
    }

    /// Dispatches INTERACTION_CREATE with `interaction` as `d` and the next sequence number.
    /// Returns the moment the frame was written to the socket. Waits for READY first.
    /// The fake remembers the interaction's token and channel so follow-ups land in that channel.
    ///
    /// A component interaction on a message the bot sent carries that message as the fake
    /// stored it (its real text and attachments), as Discord does.
    ///
    /// Discord sends only what a user could do: a click on a message the bot never posted, or on a
    /// component that message never showed, panics (the test is wrong, not the bot). The
    /// interaction's channel becomes one the fake knows (a server's text channel, or the user's DM
    /// channel), its `channel` is the channel as the fake holds it (a thread is a thread), and its
    /// `app_permissions` are the bot's permissions there (`set_bot_permissions`).
    pub async fn send_interaction(&self, interaction: Value) -> Instant {
        let interaction = self.expect_answer_to(interaction);
        self.send_dispatch("INTERACTION_CREATE", interaction).await
    }

    /// Registers an interaction as sent now without dispatching it (for tests that answer it
    /// with their own REST calls), completed as `send_interaction` would send it.
    pub fn expect_answer_to(&self, mut interaction: Value) -> Value {
        if let Some(message_id) = snowflake(&interaction["message"]["id"]).filter(|&id| id != 0) {
            let stored = self
                .message(message_id)
                .unwrap_or_else(|| panic!("a click on message {message_id}, which the bot never posted"));
            if let Some(custom_id) = interaction["data"]["custom_id"].as_str()
                && interaction["type"] == json!(3)
                && !self.shared.was_shown(message_id, custom_id)
            {
                panic!("a click on {custom_id}, which message {message_id} never showed");
            }
            interaction["message"] = stored;
        }
        let channel_id = snowflake(&interaction["channel_id"]).unwrap_or(DEFAULT_CHANNEL_ID);
        let channel = self.shared.channel_of_interaction(channel_id, &interaction);
        for field in ["type", "parent_id", "thread_metadata"] {
            if let Some(value) = channel.get(field) {
                interaction["channel"][field] = value.clone();
            }
        }
        if interaction.get("guild_id").is_some() {
            interaction["app_permissions"] = json!(self.shared.bot_permissions_in(channel_id).to_string());
        }
        self.shared.remember_interaction(&interaction);
        interaction
    }

    /// A message the bot posted in `channel_id` before the test began (by an older version of
    /// it, say), with one button for each of `custom_ids`: its id.
    pub fn add_message(&self, channel_id: u64, content: &str, custom_ids: &[&str]) -> u64 {
        let buttons: Vec<Value> = custom_ids
            .iter()
            .map(|id| json!({ "type": 2, "style": 2, "label": "Press", "custom_id": id }))
            .collect();
        let body = json!({ "content": content, "components": [{ "type": 1, "components": buttons }] });
        let message_id = self.shared.next_id();
        let message = message_json(message_id, channel_id, bot_user_json(), &body, Vec::new());
        self.shared.store_message(&message, &Value::Null);
        message_id
    }

    /// A text channel `channel_id` exists on server `guild_id` (channels users write in exist
    /// once an interaction comes from them; a channel only the bot posts in is declared here).
    pub fn add_channel(&self, channel_id: u64, guild_id: u64) {
        self.shared
            .channels
            .lock()
            .unwrap()
            .entry(channel_id)
            .or_insert_with(|| text_channel_json(channel_id, guild_id));
    }

    /// From now on the bot holds exactly `permissions` (bits of `permissions::*`) in channel
    /// `channel_id` and its threads: its interactions there say so (`app_permissions`), a
    /// request they do not allow is answered 403 50013, as Discord does, and the channel's
    /// `permission_overwrites` (`GET /channels/{id}`) give the same set by Discord's computation.
    pub fn set_bot_permissions(&self, channel_id: u64, permissions: u64) {
        self.shared.permissions.lock().unwrap().insert(channel_id, permissions);
    }

    /// The message an interaction's first response made (or, for a click, the message clicked):
    /// where buttons in that response sit, and the id of a thread started from it.
    pub fn response_message_id(&self, token: &str) -> u64 {
        self.shared
            .interaction(token)
            .unwrap_or_else(|| panic!("no interaction with token {token} was sent"))
            .original_message_id
    }

    /// The latest message in `channel_id` that showed the component `custom_id` (now, or before an
    /// edit took it away): the message a user clicks it on.
    pub fn message_showing(&self, channel_id: u64, custom_id: &str) -> Option<u64> {
        let messages = self.shared.messages.lock().unwrap();
        let mut found: Vec<u64> = messages
            .iter()
            .filter(|(_, message)| snowflake(&message["channel_id"]) == Some(channel_id))
            .map(|(&id, _)| id)
            .filter(|&id| self.shared.was_shown(id, custom_id))
            .collect();
        found.sort_unstable();
        found.last().copied()
    }

    /// The newest message in `channel_id` (a post, or an interaction's answer there) that
    /// showed a component whose custom id starts with `prefix`: its id and that custom id.
    pub fn newest_showing(&self, channel_id: u64, prefix: &str) -> Option<(u64, String)> {
        let in_channel: Vec<u64> = {
            let messages = self.shared.messages.lock().unwrap();
            messages
                .iter()
                .filter(|(_, message)| snowflake(&message["channel_id"]) == Some(channel_id))
                .map(|(&id, _)| id)
                .collect()
        };
        let shown = self.shared.shown_custom_ids.lock().unwrap();
        in_channel
            .into_iter()
            .filter_map(|id| {
                let custom_id = shown.get(&id)?.iter().find(|c| c.starts_with(prefix))?;
                Some((id, custom_id.clone()))
            })
            .max_by_key(|(id, _)| *id)
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
    /// empty message...), other than the failures a test asked for. Each one fails the test when
    /// the fake is dropped, unless the test expected it (`expect_refused`).
    pub fn refused_calls(&self) -> Vec<Call> {
        let calls = self.shared.calls.lock().unwrap();
        calls.iter().filter(|call| call.refused).cloned().collect()
    }

    /// Asserts that exactly `count` requests were refused so far, and accepts them: a test of
    /// the refusals themselves says so, and the fake does not fail it for them.
    pub fn expect_refused(&self, count: usize) {
        let refused = self.refused_calls();
        assert_eq!(refused.len(), count, "refusals so far:\n{}", describe_calls(&refused));
        self.shared.expected_refusals.store(count, Ordering::SeqCst);
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

    /// Closes the bot's gateway connection for `shard` and forgets its session, as Discord does
    /// when a session cannot go on: the bot's RESUME is refused (op 9) and it must IDENTIFY
    /// afresh. Events for the shard wait for the new session; those queued on the old one are
    /// lost, as on Discord.
    pub fn end_session(&self, shard: u32) {
        if let Some(session) = self.shared.sessions.lock().unwrap().get_mut(&shard) {
            // Kept (events meanwhile wait in it) under an id the bot does not know, so its
            // RESUME fails; the bot's IDENTIFY then replaces it, and what waited is lost.
            session.id.push_str("-ended");
        }
        self.drop_connection(shard);
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

    /// The id of the message a call made (a post, a follow-up), as the fake answered it.
    pub fn message_made(call: &Call) -> Option<u64> {
        snowflake(&call.answer["id"])
    }

    /// From now on, images the bot uploads are recorded by name only, without their bytes (they
    /// are checked as they arrive all the same): a long run's record stays small.
    pub fn forget_images(&self) {
        self.shared.forgets_images.store(true, Ordering::Relaxed);
    }

    /// Every REST call so far, in the order the fake answered them.
    pub fn calls(&self) -> Vec<Call> {
        self.shared.calls.lock().unwrap().clone()
    }

    /// The calls so far that `predicate` keeps, in order. Only those are copied: a long test's
    /// record holds thousands of calls and their images.
    pub fn calls_where(&self, predicate: impl Fn(&Call) -> bool) -> Vec<Call> {
        let calls = self.shared.calls.lock().unwrap();
        calls.iter().filter(|call| predicate(call)).cloned().collect()
    }

    /// The first call so far that `predicate` keeps.
    fn first_call(&self, predicate: &impl Fn(&Call) -> bool) -> Option<Call> {
        let calls = self.shared.calls.lock().unwrap();
        calls.iter().find(|call| predicate(call)).cloned()
    }

    /// Takes the record of every call out of the fake, so a long run's final checks own it
    /// without a copy. The refused calls stay behind as well, still counted when the fake stops.
    pub fn take_calls(&self) -> Vec<Call> {
        let mut calls = self.shared.calls.lock().unwrap();
        let all = std::mem::take(&mut *calls);
        calls.extend(all.iter().filter(|call| call.refused).cloned());
        all
    }

    /// The calls from the `start`th on: a long run reads what is new without copying the rest.
    pub fn calls_from(&self, start: usize) -> Vec<Call> {
        let calls = self.shared.calls.lock().unwrap();
        calls.get(start..).map(<[Call]>::to_vec).unwrap_or_default()
    }

    /// Polls until some call (earliest first) satisfies `predicate` and returns it. Panics after
    /// 30 s, naming `what` and listing the calls seen.
    pub async fn wait_for_call(&self, what: &str, predicate: impl Fn(&Call) -> bool) -> Call {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(call) = self.first_call(&predicate) {
                return call;
            }
            if Instant::now() >= deadline {
                panic!(
                    "waited 30 s for {what}; calls so far:\n{}",
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

    /// From now on REST calls that do not carry `Authorization: Bot {token}` are answered 401
    /// `{"message": "401: Unauthorized", "code": 0}`, as Discord answers a token it does not know.
    /// (By default any token is accepted.)
    pub fn accept_only_token(&self, token: &str) {
        *self.shared.accepted_token.lock().unwrap() = Some(format!("Bot {token}"));
    }

    /// From now on `user_id` is no longer a member of the guild: `GET /guilds/{id}/members/{user}`
    /// answers 404 `{"message":"Unknown Member","code":10007}`.
    pub fn remove_member(&self, user_id: u64) {
        self.shared.departed_members.lock().unwrap().insert(user_id);
    }

    /// How many requests were answered 429 by the rate limits, which hold from the start: 5
    /// messages per 5 s in a channel and 50 requests a second in all (interaction answers aside),
    /// more answered 429 with `retry_after`, as Discord does. The bot must pace itself; no test
    /// turns them off.
    pub fn rate_limited(&self) -> usize {
        self.shared.rate_limits.lock().unwrap().refused
    }

    /// How many requests were answered 429 by the global limit (all the bot's processes
    /// together over 50 a second).
    pub fn rate_limited_globally(&self) -> usize {
        self.shared.rate_limits.lock().unwrap().refused_globally
    }

    /// The most requests the bot with `token` made in any one second (a sliding window), as
    /// Discord counts its global limit of 50 a second across all the bot's processes: every
    /// attempt, those answered 429 included, and neither interaction answers and follow-ups nor
    /// files fetched from the CDN. A test of the bot's own pacing reads this rather than the
    /// 429s, which the fake's own limit would hand out only past 50 of the successes.
    pub fn busiest_second(&self, token: &str) -> usize {
        let auth = format!("Bot {token}");
        let mut moments: Vec<Instant> = self
            .shared
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|call| call.auth == auth && rate_limits::counts_globally(&call.path))
            .map(|call| call.at)
            .collect();
        rate_limits::busiest_second(&mut moments)
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
    /// its permission to send messages away.
    pub fn close_channel(&self, channel_id: u64) {
        let now = self.shared.bot_permissions_in(channel_id);
        self.set_bot_permissions(
            channel_id,
            now & !(permissions::SEND_MESSAGES | permissions::SEND_MESSAGES_IN_THREADS),
        );
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
        await_sent(self.queue_dispatch(t, d).await).await
    }

    /// Queues a dispatch for its shard; the receiver learns when the frame was written.
    async fn queue_dispatch(&self, t: &str, d: Value) -> tokio::sync::oneshot::Receiver<Instant> {
        let shard = self.shard_of(&d);
        // A shard whose connection dropped keeps its session: the event waits for the bot to
        // resume it, as on Discord.
        if !self.shared.sessions.lock().unwrap().contains_key(&shard) {
            self.wait_ready().await;
        }
        self.shared.queue_frame(shard, |seq| {
            *seq += 1;
            json!({ "op": 0, "t": t, "s": *seq, "d": d }).to_string()
        })
    }

    /// As [`FakeDiscord::send_interaction`], for runs where a bot process may die: `None` when
    /// the frame was never written (the connection closed first, or not within 30 s), as a
    /// user's interaction is lost when the bot's connection is.
    pub async fn try_send_interaction(&self, interaction: Value) -> Option<Instant> {
        let interaction = self.expect_answer_to(interaction);
        let sent = self.queue_dispatch("INTERACTION_CREATE", interaction).await;
        tokio::time::timeout(WAIT, sent).await.ok()?.ok()
    }
}
