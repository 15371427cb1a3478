//! The fake's REST endpoints: each call recorded, checked (`strict`), refused when told to, and answered with the smallest JSON serenity reads.

use super::*;

/// What the fake answers: a status and an optional JSON body (or a file's bytes).
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Option<Value>,
    /// Refused by Discord's rules.
    pub(crate) refused: bool,
    /// A file served from the CDN instead of a JSON body.
    pub(crate) bytes: Option<Vec<u8>>,
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
    pub(crate) fn ok(body: Value) -> Reply {
        Reply {
            status: 200,
            body: Some(body),
            refused: false,
            bytes: None,
        }
    }

    pub(crate) fn no_content() -> Reply {
        Reply {
            status: 204,
            body: None,
            refused: false,
            bytes: None,
        }
    }

    pub(crate) fn not_found() -> Reply {
        Reply {
            status: 404,
            body: Some(json!({ "message": "404: Not Found", "code": 0 })),
            refused: false,
            bytes: None,
        }
    }

    pub(crate) fn unknown_member() -> Reply {
        Reply {
            status: 404,
            body: Some(json!({ "message": "Unknown Member", "code": 10007 })),
            refused: false,
            bytes: None,
        }
    }

    /// Discord's answer when a request fails for a reason of Discord's world (a channel gone, a
    /// permission missing), not because the bot broke a rule.
    pub(crate) fn failed(failure: Failure) -> Reply {
        Reply {
            refused: false,
            ..Reply::from(failure.refusal())
        }
    }

    pub(crate) fn cannot_dm() -> Reply {
        Reply {
            status: 403,
            body: Some(json!({ "message": "Cannot send messages to this user", "code": 50007 })),
            refused: false,
            bytes: None,
        }
    }
}

impl Reply {
    pub(crate) fn file(bytes: Vec<u8>) -> Reply {
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
pub(crate) async fn rest(State(shared): State<Arc<Shared>>, request: Request) -> Response {
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
pub(crate) async fn read_payload(request: Request) -> (Value, Vec<(String, Vec<u8>)>) {
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

pub(crate) async fn read_multipart(request: Request) -> (Value, Vec<(String, Vec<u8>)>) {
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

pub(crate) fn parse_json(bytes: &[u8]) -> Value {
    if bytes.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

/// Routes one REST call. Paths are matched by segment after "/api/v10/".
pub(crate) fn answer_rest(
    shared: &Shared,
    method: &str,
    path: &str,
    json: &Value,
    files: &[(String, Vec<u8>)],
) -> Reply {
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

pub(crate) fn gateway_json(port: u16) -> Value {
    json!({
        "url": format!("ws://127.0.0.1:{port}/ws"),
        "shards": 1,
        "session_start_limit": { "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1 },
    })
}

/// Enough of `CurrentApplicationInfo` for serenity (poise asks for it to find the owners).
pub(crate) fn application_json() -> Value {
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
pub(crate) fn register_commands(shared: &Shared, body: &Value, guild_id: Option<u64>) -> Value {
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

pub(crate) fn complete_command(id: u64, mut command: Value, guild_id: Option<u64>) -> Value {
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

pub(crate) fn create_dm_channel(shared: &Shared, recipient: u64) -> Value {
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
pub(crate) fn channel_json(shared: &Shared, channel_id: u64) -> Value {
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
pub(crate) fn edit_thread(shared: &Shared, thread_id: u64, body: &Value) -> Reply {
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

pub(crate) fn create_message(shared: &Shared, channel_id: u64, body: &Value, files: &[(String, Vec<u8>)]) -> Reply {
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
pub(crate) fn respond(shared: &Shared, token: &str, body: &Value, files: &[(String, Vec<u8>)]) -> Reply {
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
pub(crate) fn followup_message(
    shared: &Shared,
    token: &str,
    message_id: u64,
    body: &Value,
    files: &[(String, Vec<u8>)],
) -> Value {
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

pub(crate) fn create_thread(shared: &Shared, thread_id: u64, parent_id: u64, body: &Value) -> Value {
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

pub(crate) fn attachments_json(shared: &Shared, files: &[(String, Vec<u8>)]) -> Vec<Value> {
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

pub(crate) fn content_type(filename: &str) -> &'static str {
    match filename.rsplit('.').next() {
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("txt") => "text/plain",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}
