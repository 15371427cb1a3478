//! The fake's state, shared by its gateway and REST handlers: what the bot sent, what it was told to refuse, and the gateway sessions.

use super::*;

/// Stops the server when the last `FakeDiscord` clone goes. Kept apart from `Shared`, which the
/// server's handlers hold (a guard inside it would never drop).
pub(crate) struct ServerGuard {
    pub(crate) shutdown: watch::Sender<bool>,
    pub(crate) shared: Arc<Shared>,
}

/// Stops the server, and fails the test that used this fake if the bot made a request Discord
/// refuses by its rules and the test did not say it expected it (`expect_refused`).
impl Drop for ServerGuard {
    fn drop(&mut self) {
        self.shutdown.send_replace(true);
        if std::thread::panicking() {
            return;
        }
        let refused: Vec<Call> = self
            .shared
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|c| c.refused)
            .cloned()
            .collect();
        let expected = self.shared.expected_refusals.load(Ordering::SeqCst);
        assert!(
            refused.len() <= expected,
            "Discord would have refused {} request(s) no test expected:\n{}",
            refused.len() - expected,
            describe_calls(&refused[expected..])
        );
    }
}

pub(crate) struct Shared {
    pub(crate) port: u16,
    pub(crate) calls: Mutex<Vec<Call>>,
    /// Whether images uploaded are recorded without their bytes (`FakeDiscord::forget_images`).
    pub(crate) forgets_images: AtomicBool,
    /// How many of the refusals so far a test said it expected.
    pub(crate) expected_refusals: std::sync::atomic::AtomicUsize,
    pub(crate) closed_dm_channels: Mutex<HashSet<u64>>,
    pub(crate) departed_members: Mutex<HashSet<u64>>,
    /// The Authorization header REST calls must carry (`accept_only_token`); any, when `None`.
    pub(crate) accepted_token: Mutex<Option<String>>,
    pub(crate) registered_commands: Mutex<Value>,
    /// The commands registered on each server, as Discord holds them.
    pub(crate) server_commands: Mutex<HashMap<u64, Value>>,
    /// Every channel that exists: servers' text channels (from interactions, or declared by a
    /// test), DM channels and threads the fake created. Others are answered 404 10003.
    pub(crate) channels: Mutex<HashMap<u64, Value>>,
    /// The bot's permissions in a server's channel, where a test set them (else
    /// `permissions::DEFAULT`); a thread has its parent's.
    pub(crate) permissions: Mutex<HashMap<u64, u64>>,
    /// Every custom id each message ever showed: a user can click only those (a stale one
    /// included, from a screen not yet updated).
    pub(crate) shown_custom_ids: Mutex<HashMap<u64, HashSet<String>>>,
    /// Interaction token -> where its responses live.
    pub(crate) interactions: Mutex<HashMap<String, InteractionInfo>>,
    /// Every message the bot sent or edited, by id, as it stands.
    pub(crate) messages: Mutex<HashMap<u64, Value>>,
    pub(crate) failures: Mutex<Vec<FailureRule>>,
    pub(crate) delays: Mutex<Vec<Delay>>,
    /// Channels and threads deleted (answered 404 10003).
    pub(crate) deleted_channels: Mutex<HashSet<u64>>,
    /// Discord's rate limits, always on.
    pub(crate) rate_limits: Mutex<rate_limits::RateLimits>,
    /// Files users attached, by path on the fake's CDN.
    pub(crate) cdn: Mutex<HashMap<String, Vec<u8>>>,
    pub(crate) next_id: AtomicU64,
    pub(crate) next_connection_id: AtomicU64,
    /// The bot's gateway connections, each for one shard once identified; a new connection for
    /// a shard replaces the old one.
    pub(crate) gateway: Mutex<Vec<Connection>>,
    /// Each shard's session (sequence numbers and what was dispatched), which outlives its
    /// connection.
    pub(crate) sessions: Mutex<HashMap<u32, Session>>,
    /// Sessions started so far (IDENTIFY), for tests of resuming.
    pub(crate) identified: AtomicU64,
    /// Sessions resumed so far.
    pub(crate) resumed: AtomicU64,
    pub(crate) ready: watch::Sender<ReadyShards>,
    pub(crate) shutdown: watch::Receiver<bool>,
}

#[derive(Clone, Copy)]
pub(crate) struct InteractionInfo {
    pub(crate) channel_id: u64,
    pub(crate) original_message_id: u64,
    /// 2 command, 3 component, 4 autocomplete, 5 form sent back.
    pub(crate) kind: u64,
    /// Whether it came from a component on a message.
    pub(crate) on_message: bool,
    /// When it was sent to the bot.
    pub(crate) sent: Instant,
    /// Whether its first response was made.
    pub(crate) responded: bool,
    /// The type of that response (0 before it).
    pub(crate) response: u64,
}

/// The fake's end of one bot websocket: frames queued here are written in order by its task.
pub(crate) struct Connection {
    pub(crate) id: u64,
    pub(crate) outbound: mpsc::UnboundedSender<Outbound>,
    /// The shard it identified (or resumed) as.
    pub(crate) shard: Option<u32>,
}

/// A shard's gateway session, as Discord keeps it: its id, its sequence numbers, and the events
/// it dispatched, so that a bot that lost its connection can RESUME and get those it missed.
pub(crate) struct Session {
    pub(crate) id: String,
    pub(crate) seq: u64,
    /// Dispatches by sequence number, the latest kept for replay on RESUME.
    pub(crate) sent: VecDeque<(u64, String)>,
    /// Dispatches made while no connection served the shard, with whoever waits for them to be
    /// written.
    pub(crate) missed: Vec<(String, oneshot::Sender<Instant>)>,
}

/// How many dispatches a session keeps for replay.
pub(crate) const REPLAYABLE: usize = 1000;

/// The shards whose connection got READY, and how many shards the bot has in all.
#[derive(Default)]
pub(crate) struct ReadyShards {
    pub(crate) ready: HashSet<u32>,
    pub(crate) total: u32,
}

pub(crate) struct Outbound {
    pub(crate) text: String,
    /// Told the moment the frame was written.
    pub(crate) sent: oneshot::Sender<Instant>,
}

/// The close code Discord uses for "unknown error; reconnect": the bot should RESUME.
pub(crate) const CLOSE_RECONNECT: u16 = 4000;

impl Shared {
    pub(crate) fn new(port: u16, shutdown: watch::Receiver<bool>) -> Shared {
        Shared {
            port,
            calls: Mutex::new(Vec::new()),
            forgets_images: AtomicBool::new(false),
            expected_refusals: std::sync::atomic::AtomicUsize::new(0),
            closed_dm_channels: Mutex::new(HashSet::new()),
            departed_members: Mutex::new(HashSet::new()),
            accepted_token: Mutex::new(None),
            registered_commands: Mutex::new(Value::Null),
            server_commands: Mutex::new(HashMap::new()),
            channels: Mutex::new(HashMap::new()),
            permissions: Mutex::new(HashMap::new()),
            shown_custom_ids: Mutex::new(HashMap::new()),
            interactions: Mutex::new(HashMap::new()),
            messages: Mutex::new(HashMap::new()),
            failures: Mutex::new(Vec::new()),
            delays: Mutex::new(Vec::new()),
            deleted_channels: Mutex::new(HashSet::new()),
            rate_limits: Mutex::new(rate_limits::RateLimits::default()),
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
    pub(crate) fn failure_for(&self, method: &str, path: &str) -> Option<(Failure, bool)> {
        let mut failures = self.failures.lock().unwrap();
        let rule = failures
            .iter_mut()
            .find(|rule| rule.remaining > 0 && rule.method == method && path.contains(&rule.path_contains))?;
        rule.remaining = rule.remaining.saturating_sub(1);
        Some((rule.failure, rule.takes_effect))
    }

    /// How long to hold this request back, if a test asked; counts it.
    pub(crate) fn delay_for(&self, method: &str, path: &str) -> Option<Duration> {
        let mut delays = self.delays.lock().unwrap();
        let delay = delays
            .iter_mut()
            .find(|delay| delay.remaining > 0 && delay.method == method && path.contains(&delay.path_contains))?;
        delay.remaining = delay.remaining.saturating_sub(1);
        Some(delay.by)
    }

    /// Stores a message the bot sent or edited (an edit keeps the fields it does not name).
    pub(crate) fn store_message(&self, message: &Value, edit: &Value) {
        let Some(id) = snowflake(&message["id"]) else { return };
        let shown = custom_ids(&message["components"]);
        self.shown_custom_ids
            .lock()
            .unwrap()
            .entry(id)
            .or_default()
            .extend(shown);
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

    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Changes a thread's metadata; returns the thread as it now stands.
    pub(crate) fn set_thread(&self, thread_id: u64, change: impl FnOnce(&mut Value)) -> Value {
        let mut channels = self.channels.lock().unwrap();
        let thread = channels
            .get_mut(&thread_id)
            .unwrap_or_else(|| panic!("no thread {thread_id} was opened"));
        change(&mut thread["thread_metadata"]);
        thread.clone()
    }

    /// Whether message `message_id` ever showed the component `custom_id`.
    pub(crate) fn was_shown(&self, message_id: u64, custom_id: &str) -> bool {
        self.shown_custom_ids
            .lock()
            .unwrap()
            .get(&message_id)
            .is_some_and(|ids| ids.contains(custom_id))
    }

    /// A channel as the fake holds it, or Discord's answer about it: 404 10003 for one deleted
    /// (Discord's world: the bot cannot know) and, refused, for one that never existed.
    pub(crate) fn existing_channel(&self, channel_id: u64) -> Result<Value, Reply> {
        if self.deleted_channels.lock().unwrap().contains(&channel_id) {
            return Err(Reply::failed(Failure::UnknownChannel));
        }
        self.channels
            .lock()
            .unwrap()
            .get(&channel_id)
            .cloned()
            .ok_or_else(|| Refusal::new(404, 10003, "Unknown Channel").into())
    }

    /// The channel an interaction comes from, known from now on: a thread or channel the fake
    /// holds, else a server's text channel (or, without a server, the user's DM channel).
    pub(crate) fn channel_of_interaction(&self, channel_id: u64, interaction: &Value) -> Value {
        let mut channels = self.channels.lock().unwrap();
        channels
            .entry(channel_id)
            .or_insert_with(|| match snowflake(&interaction["guild_id"]) {
                Some(guild_id) => text_channel_json(channel_id, guild_id),
                None => {
                    let user = &interaction["user"];
                    json!({ "id": channel_id.to_string(), "type": 1, "last_message_id": null, "recipients": [user] })
                }
            })
            .clone()
    }

    /// The bot's permissions in a channel: a thread has its parent's; in a DM it may send,
    /// embed and attach.
    pub(crate) fn bot_permissions_in(&self, channel_id: u64) -> u64 {
        let channel = self.channels.lock().unwrap().get(&channel_id).cloned();
        let channel = channel.unwrap_or(Value::Null);
        if channel["type"] == json!(1) {
            return PERMISSIONS;
        }
        let governing = snowflake(&channel["parent_id"])
            .filter(|_| channel.get("thread_metadata").is_some())
            .unwrap_or(channel_id);
        self.permissions
            .lock()
            .unwrap()
            .get(&governing)
            .copied()
            .unwrap_or(PERMISSIONS)
    }

    /// A server's channel as `GET /channels/{id}` answers it: its `permission_overwrites` give
    /// the bot exactly `bot_permissions_in` by Discord's computation (@everyone and the bot's
    /// role grant `permissions::DEFAULT` on the server; an overwrite for the bot's member adds
    /// or takes away the difference). A thread has none: its parent's hold.
    pub(crate) fn with_overwrites(&self, mut channel: Value) -> Value {
        let Some(channel_id) = snowflake(&channel["id"]) else {
            return channel;
        };
        if channel.get("permission_overwrites").is_some() {
            channel["permission_overwrites"] = bot_overwrites(self.bot_permissions_in(channel_id));
        }
        channel
    }

    /// Whether a REST call carries a token the fake accepts (`accept_only_token`); files on the
    /// CDN need none.
    pub(crate) fn accepts(&self, auth: &str, path: &str) -> bool {
        match &*self.accepted_token.lock().unwrap() {
            Some(token) => !path.starts_with("/api/") || auth == token,
            None => true,
        }
    }

    /// What the bot may not do in `channel` with a message carrying `files` and `embeds`, as
    /// Discord's 403 50013: sending there (in a thread, sending in threads), attaching, embedding.
    pub(crate) fn may_post(&self, channel: &Value, files: usize, embeds: bool) -> Result<(), Reply> {
        let Some(channel_id) = snowflake(&channel["id"]) else {
            return Ok(());
        };
        let held = self.bot_permissions_in(channel_id);
        let send = if channel.get("thread_metadata").is_some() {
            permissions::SEND_MESSAGES_IN_THREADS
        } else {
            permissions::SEND_MESSAGES
        };
        let mut needed = permissions::VIEW_CHANNEL | send;
        if files > 0 {
            needed |= permissions::ATTACH_FILES;
        }
        if embeds {
            needed |= permissions::EMBED_LINKS;
        }
        if held & needed == needed {
            Ok(())
        } else {
            Err(Reply::failed(Failure::MissingPermissions))
        }
    }

    /// A message the bot posted in `channel_id`, or the refusal for one that is not there
    /// (404 10008): an edit, a deletion or a thread needs a message that exists.
    pub(crate) fn existing_message(&self, channel_id: u64, message_id: u64) -> Result<Value, Reply> {
        self.messages
            .lock()
            .unwrap()
            .get(&message_id)
            .filter(|message| snowflake(&message["channel_id"]) == Some(channel_id))
            .cloned()
            .ok_or_else(|| Refusal::new(404, 10008, "Unknown Message").into())
    }

    /// Deletes a message the bot posted.
    pub(crate) fn delete_message(&self, message_id: u64) {
        self.messages.lock().unwrap().remove(&message_id);
    }

    /// Counts a request against the rate limits, if they are on; the 429 when it does not fit.
    pub(crate) fn rate_limit(&self, method: &str, path: &str) -> Option<Reply> {
        let mut limits = self.rate_limits.lock().unwrap();
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

    pub(crate) fn record(&self, mut call: Call) {
        if self.forgets_images.load(Ordering::Relaxed) {
            for (name, bytes) in &mut call.files {
                if name.ends_with(".png") {
                    *bytes = Vec::new();
                }
            }
        }
        self.calls.lock().unwrap().push(call);
    }

    /// Builds a frame with the shard's sequence counter (under the lock, so sequence numbers and
    /// socket order agree) and queues it on the shard's connection; with none (the bot lost it),
    /// the frame waits for the bot to RESUME, as on Discord.
    pub(crate) fn queue_frame(&self, shard: u32, frame: impl FnOnce(&mut u64) -> String) -> oneshot::Receiver<Instant> {
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

    pub(crate) fn remember_interaction(&self, interaction: &Value) {
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
            response: 0,
        };
        self.interactions.lock().unwrap().insert(token.to_owned(), info);
    }

    /// Follow-ups and edits need an interaction the fake sent and its first response, and stop
    /// working 15 minutes after the interaction.
    pub(crate) fn may_follow_up(&self, token: &str) -> Result<InteractionInfo, Refusal> {
        let Some(info) = self.interaction(token) else {
            return Err(Refusal::new(404, 10015, "Unknown Webhook"));
        };
        if !info.responded {
            return Err(Refusal::new(404, 10015, "Unknown Webhook"));
        }
        if info.sent.elapsed() > strict::FOLLOWUP_WINDOW {
            return Err(Refusal::new(401, 50027, "Invalid Webhook Token"));
        }
        Ok(info)
    }

    /// The interaction the fake sent with this token, if it sent one.
    pub(crate) fn interaction(&self, token: &str) -> Option<InteractionInfo> {
        self.interactions.lock().unwrap().get(token).copied()
    }

    /// Takes a new websocket; it serves a shard once it identifies.
    pub(crate) fn connect(&self) -> (u64, mpsc::UnboundedReceiver<Outbound>) {
        let id = self.next_connection_id.fetch_add(1, Ordering::Relaxed);
        let (outbound, frames) = mpsc::unbounded_channel();
        self.gateway.lock().unwrap().push(Connection {
            id,
            outbound,
            shard: None,
        });
        (id, frames)
    }

    pub(crate) fn disconnect(&self, connection_id: u64) {
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
    pub(crate) fn begin_session(&self, connection_id: u64, shard: u32, total: u32) -> bool {
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
    pub(crate) fn session_id(&self, shard: u32) -> Option<String> {
        self.sessions
            .lock()
            .unwrap()
            .get(&shard)
            .map(|session| session.id.clone())
    }

    /// Resumes `session_id` on a new connection: the dispatches after `seq` again (those the bot
    /// may not have read), then those it missed while disconnected, then RESUMED. `None` when no
    /// such session is kept (the bot must IDENTIFY afresh).
    pub(crate) fn resume_session(
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

    pub(crate) fn shard_ready(&self, shard: u32) {
        self.ready.send_modify(|shards| {
            shards.ready.insert(shard);
        });
    }
}

pub(crate) async fn wait_for_shutdown(mut shutdown: watch::Receiver<bool>) {
    // An error means the sender is gone: stop as well.
    let _ = shutdown.wait_for(|stop| *stop).await;
}

pub(crate) async fn await_sent(sent: oneshot::Receiver<Instant>) -> Instant {
    tokio::time::timeout(WAIT, sent)
        .await
        .expect("the gateway frame was not written within 30 s")
        .expect("the bot's gateway connection closed before the frame was written")
}

pub(crate) fn describe_calls(calls: &[Call]) -> String {
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
