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

    /// A route Discord does not have: the bot asked for something that does not exist.
    pub(crate) fn unknown_route() -> Reply {
        Reply {
            refused: true,
            ..Reply::not_found()
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
        let global = self
            .body
            .as_ref()
            .is_some_and(|body| body["global"] == serde_json::json!(true));
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
            if global {
                headers.insert("x-ratelimit-global", "true".parse().expect("a header value"));
                headers.insert("x-ratelimit-scope", "global".parse().expect("a header value"));
            }
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
    let reply = if !shared.accepts(&auth, &path) {
        Reply::failed(Failure::Unauthorized)
    } else {
        match shared.failure_for(&method, &path) {
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
        }
    };
    shared.record(Call {
        method,
        path,
        json,
        files,
        at,
        status: reply.status,
        answer: reply.body.clone().unwrap_or(Value::Null),
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
        // A file that is not (or no longer) there: Discord's world, not the bot's mistake.
        return match shared.cdn.lock().unwrap().get(path) {
            Some(bytes) => Reply::file(bytes.clone()),
            None => Reply::not_found(),
        };
    }
    let Some(route) = path.strip_prefix("/api/v10/") else {
        return Reply::unknown_route();
    };
    let segments: Vec<&str> = route.split('/').collect();
    match route_rest(shared, method, &segments, json, files) {
        Ok(reply) | Err(reply) => reply,
    }
}

/// A snowflake in a path, or Discord's refusal of one that is not a number.
fn id(segment: &str) -> Result<u64, Reply> {
    segment
        .parse()
        .map_err(|_| Refusal::invalid_form("id", "Value is not snowflake.").into())
}

fn route_rest(
    shared: &Shared,
    method: &str,
    segments: &[&str],
    json: &Value,
    files: &[(String, Vec<u8>)],
) -> Result<Reply, Reply> {
    Ok(match (method, segments) {
        ("GET", ["gateway"] | ["gateway", "bot"]) => Reply::ok(gateway_json(shared.port)),
        ("GET", ["applications", "@me"] | ["oauth2", "applications", "@me"]) => Reply::ok(application_json()),
        ("PUT", ["applications", _, "commands"]) => {
            strict::check_commands(json)?;
            Reply::ok(register_commands(shared, json, None))
        }
        ("PUT", ["applications", _, "guilds", guild, "commands"]) => {
            let guild_id = id(guild)?;
            strict::check_commands(json)?;
            Reply::ok(register_commands(shared, json, Some(guild_id)))
        }
        ("GET", ["applications", _, "guilds", guild, "commands"]) => {
            let guild_id = id(guild)?;
            let commands = shared.server_commands.lock().unwrap().get(&guild_id).cloned();
            Reply::ok(commands.unwrap_or(json!([])))
        }
        ("POST", ["interactions", _, token, "callback"]) => respond(shared, token, json, files),
        ("POST", ["webhooks", _, token]) => {
            let info = shared.may_follow_up(token)?;
            strict::check_message(json, files.len(), true)?;
            Reply::ok(followup_message(shared, &info, shared.next_id(), json, files))
        }
        ("GET" | "PATCH", ["webhooks", _, token, "messages", message]) => {
            let info = shared.may_follow_up(token)?;
            let message_id = interaction_message(shared, &info, message)?;
            strict::check_message(json, files.len(), false)?;
            Reply::ok(followup_message(shared, &info, message_id, json, files))
        }
        ("DELETE", ["webhooks", _, token, "messages", message]) => {
            let info = shared.may_follow_up(token)?;
            let message_id = interaction_message(shared, &info, message)?;
            shared.existing_message(info.channel_id, message_id)?;
            shared.delete_message(message_id);
            Reply::no_content()
        }
        ("POST", ["users", "@me", "channels"]) => match snowflake(&json["recipient_id"]) {
            Some(recipient) => Reply::ok(create_dm_channel(shared, recipient)),
            None => Refusal::invalid_form("recipient_id", "This field is required").into(),
        },
        // The servers the bot is on; any other is one it cannot see, as Discord answers.
        ("GET", ["guilds", guild]) => match id(guild)? {
            guild_id @ (FakeDiscord::GUILD_ID | FakeDiscord::OTHER_GUILD_ID) => Reply::ok(guild_json(guild_id)),
            _ => Reply::failed(Failure::MissingAccess),
        },
        ("GET", ["guilds", _, "members", user]) => match id(user)? {
            user_id if shared.departed_members.lock().unwrap().contains(&user_id) => Reply::unknown_member(),
            user_id => Reply::ok(member_json(user_id)),
        },
        ("GET", ["users", "@me"]) => Reply::ok(bot_user_json()),
        ("GET", ["users", user]) => {
            let user_id = id(user)?;
            Reply::ok(user_json(user_id, &format!("user{user_id}"), false))
        }
        (_, ["channels", ..]) => return route_channels(shared, method, segments, json, files),
        _ => Reply::unknown_route(),
    })
}

/// The routes of channels, threads and their messages.
fn route_channels(
    shared: &Shared,
    method: &str,
    segments: &[&str],
    json: &Value,
    files: &[(String, Vec<u8>)],
) -> Result<Reply, Reply> {
    Ok(match (method, segments) {
        // Asking whether a channel exists is fair (a thread whose answer was lost may or may not
        // have been made): answered 404 10003 when it does not, not held against the bot.
        ("GET", ["channels", channel]) => match shared.existing_channel(id(channel)?) {
            Ok(channel) => Reply::ok(shared.with_overwrites(channel)),
            Err(_) => Reply::failed(Failure::UnknownChannel),
        },
        ("PATCH", ["channels", channel]) => {
            let channel = shared.existing_channel(id(channel)?)?;
            edit_thread(shared, &channel, json)
        }
        ("POST", ["channels", channel, "messages"]) => create_message(shared, id(channel)?, json, files)?,
        ("PATCH", ["channels", channel, "messages", message]) => {
            let channel_id = id(channel)?;
            shared.existing_channel(channel_id)?;
            let message_id = id(message)?;
            shared.existing_message(channel_id, message_id)?;
            strict::check_message(json, files.len(), false)?;
            let attachments = attachments_json(shared, json, files);
            let edited = message_json(message_id, channel_id, bot_user_json(), json, attachments);
            shared.store_message(&edited, json);
            Reply::ok(edited)
        }
        ("DELETE", ["channels", channel, "messages", message]) => {
            let channel_id = id(channel)?;
            shared.existing_channel(channel_id)?;
            let message_id = id(message)?;
            shared.existing_message(channel_id, message_id)?;
            shared.delete_message(message_id);
            Reply::no_content()
        }
        // Discord gives a thread started from a message the message's id.
        ("POST", ["channels", channel, "messages", message, "threads"]) => {
            let parent = shared.existing_channel(id(channel)?)?;
            let message_id = id(message)?;
            shared.existing_message(id(channel)?, message_id)?;
            if shared.channels.lock().unwrap().contains_key(&message_id) {
                return Err(Refusal::new(400, 160004, "A thread has already been created for this message").into());
            }
            strict::check_thread(json)?;
            may_open_threads(shared, &parent)?;
            Reply::ok(create_thread(shared, message_id, &parent, json))
        }
        ("POST", ["channels", channel, "threads"]) => {
            let parent = shared.existing_channel(id(channel)?)?;
            strict::check_thread(json)?;
            may_open_threads(shared, &parent)?;
            Reply::ok(create_thread(shared, shared.next_id(), &parent, json))
        }
        ("PUT" | "DELETE", ["channels", thread, "thread-members", user]) => {
            let thread = shared.existing_channel(id(thread)?)?;
            if thread.get("thread_metadata").is_none() {
                return Err(Refusal::new(400, 50024, "Cannot execute action on this channel type").into());
            }
            if *user != "@me" {
                id(user)?;
            }
            Reply::no_content()
        }
        _ => Reply::unknown_route(),
    })
}

/// The message an interaction's webhook route names: `@original` (once a first response made
/// one), or one of its follow-ups; else 404 10008.
fn interaction_message(shared: &Shared, info: &InteractionInfo, message: &str) -> Result<u64, Reply> {
    if message == "@original" {
        // A deferred answer (5) stands for a message to come; a form (9) or suggestions (8) made none.
        let makes_message = matches!(info.response, 4 | 5) || (info.on_message && matches!(info.response, 6 | 7));
        return if makes_message {
            Ok(info.original_message_id)
        } else {
            Err(Refusal::new(404, 10008, "Unknown Message").into())
        };
    }
    let message_id = id(message)?;
    shared.existing_message(info.channel_id, message_id)?;
    Ok(message_id)
}

/// Opening a public thread needs Create Public Threads where it opens (403 50013).
fn may_open_threads(shared: &Shared, parent: &Value) -> Result<(), Reply> {
    let parent_id = snowflake(&parent["id"]).unwrap_or_default();
    if shared.bot_permissions_in(parent_id) & permissions::CREATE_PUBLIC_THREADS == 0 {
        return Err(Reply::failed(Failure::MissingPermissions));
    }
    Ok(())
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

/// A thread reopened or archived by the bot. Reopening a locked thread needs Manage Threads,
/// which the bot does not have; a channel that is no thread is not the bot's to edit.
pub(crate) fn edit_thread(shared: &Shared, thread: &Value, body: &Value) -> Reply {
    let Some(thread_id) = snowflake(&thread["id"]).filter(|_| thread.get("thread_metadata").is_some()) else {
        return Reply::failed(Failure::MissingPermissions);
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

/// A message posted in a channel that exists, where the bot may post it.
pub(crate) fn create_message(
    shared: &Shared,
    channel_id: u64,
    body: &Value,
    files: &[(String, Vec<u8>)],
) -> Result<Reply, Reply> {
    if shared.closed_dm_channels.lock().unwrap().contains(&channel_id) {
        return Ok(Reply::cannot_dm());
    }
    let channel = shared.existing_channel(channel_id)?;
    let has_embeds = !body["embeds"].as_array().is_none_or(Vec::is_empty);
    shared.may_post(&channel, files.len(), has_embeds)?;
    let metadata = &channel["thread_metadata"];
    if metadata["archived"] == json!(true) {
        // Posting reopens an archived thread, but not a locked one.
        if metadata["locked"] == json!(true) {
            return Ok(Reply::failed(Failure::ArchivedThread));
        }
        shared.set_thread(channel_id, |metadata| metadata["archived"] = json!(false));
    }
    strict::check_message(body, files.len(), true)?;
    let attachments = attachments_json(shared, body, files);
    let message = message_json(shared.next_id(), channel_id, bot_user_json(), body, attachments);
    shared.store_message(&message, &Value::Null);
    Ok(Reply::ok(message))
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
    info.response = body["type"].as_u64().unwrap_or(0);
    let info = *info;
    drop(interactions);
    // A message in answer (4), a deferred answer's "thinking" placeholder (5), or the clicked
    // message updated (7), is there to be seen, edited and deleted.
    if matches!(body["type"].as_u64(), Some(4 | 5 | 7)) {
        let attachments = attachments_json(shared, &body["data"], files);
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
    info: &InteractionInfo,
    message_id: u64,
    body: &Value,
    files: &[(String, Vec<u8>)],
) -> Value {
    let attachments = attachments_json(shared, body, files);
    let mut message = message_json(message_id, info.channel_id, bot_user_json(), body, attachments);
    message["webhook_id"] = json!(FakeDiscord::APPLICATION_ID.to_string());
    message["application_id"] = json!(FakeDiscord::APPLICATION_ID.to_string());
    if !body.is_null() {
        shared.store_message(&message, body);
    }
    message
}

/// A public thread in `parent`'s server, as Discord describes it.
pub(crate) fn create_thread(shared: &Shared, thread_id: u64, parent: &Value, body: &Value) -> Value {
    let thread = json!({
        "id": thread_id.to_string(),
        "type": body.get("type").cloned().unwrap_or(json!(11)),
        "guild_id": parent["guild_id"].clone(),
        "parent_id": parent["id"].clone(),
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

/// The attachment objects of a message made with `files`, each with the description (alt text)
/// `body` gave it, as Discord keeps it.
pub(crate) fn attachments_json(shared: &Shared, body: &Value, files: &[(String, Vec<u8>)]) -> Vec<Value> {
    files
        .iter()
        .enumerate()
        .map(|(i, (filename, bytes))| {
            let id = shared.next_id();
            let url = format!("https://cdn.discordapp.com/attachments/{id}/{filename}");
            let mut attachment = json!({
                "id": id.to_string(),
                "filename": filename,
                "size": bytes.len(),
                "url": url,
                "proxy_url": url,
                "content_type": content_type(filename),
            });
            if let Some(description) = new_attachment(body, i).and_then(|a| a["description"].as_str()) {
                attachment["description"] = json!(description);
            }
            attachment
        })
        .collect()
}

/// The metadata `body` gives the `i`th uploaded file: the entry of `attachments` whose id is
/// its placeholder `i` (kept attachments carry their real ids).
fn new_attachment(body: &Value, i: usize) -> Option<&Value> {
    body["attachments"]
        .as_array()?
        .iter()
        .find(|attachment| match &attachment["id"] {
            Value::Number(n) => n.as_u64() == Some(i as u64),
            Value::String(s) => s.parse::<usize>().ok() == Some(i),
            _ => false,
        })
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
