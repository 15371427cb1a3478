//! Each of the fake's refusals fires as Discord's would, with Discord's status and code, and is
//! recorded as a refusal (which fails any bot test that caused one); Discord's own troubles (a
//! channel deleted, a permission taken away, a rate limit) are answered the same way but not
//! counted against the bot. Requests are raw HTTP, so nothing between the test and the fake
//! smooths them over.

use fake_discord::{FakeDiscord, Invoker, command_interaction, component_interaction, permissions};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CHANNEL: u64 = 5_000;

fn alice() -> Invoker {
    Invoker {
        user_id: 1_001,
        name: "alice".into(),
    }
}

/// One HTTP/1.1 request to the fake; its status and JSON body (`Null` if none).
async fn request(fake: &FakeDiscord, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let (content_type, body) = match body {
        Some(json) => ("application/json", json.to_string().into_bytes()),
        None => ("application/json", Vec::new()),
    };
    send(fake, method, path, content_type, body).await
}

/// A message with one file, as serenity sends it: multipart with `payload_json` and `files[0]`.
async fn post_with_file(fake: &FakeDiscord, path: &str, json: Value) -> (u16, Value) {
    let boundary = "fakeboundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json\r\n\r\n{json}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(b"\x89PNG");
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    send(
        fake,
        "POST",
        path,
        &format!("multipart/form-data; boundary={boundary}"),
        body,
    )
    .await
}

async fn send(fake: &FakeDiscord, method: &str, path: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
    let address = fake.api_base().trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&address)
        .await
        .expect("the fake listens");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bot test\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    let status: u16 = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let json = text
        .split_once("\r\n\r\n")
        .and_then(|(_, body)| serde_json::from_str(body).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

/// A message the bot posts in `CHANNEL` (which an interaction made known): its id.
async fn posted(fake: &FakeDiscord) -> u64 {
    let (status, message) = request(
        fake,
        "POST",
        &format!("/api/v10/channels/{CHANNEL}/messages"),
        Some(json!({ "content": "a board" })),
    )
    .await;
    assert_eq!(status, 200, "{message}");
    message["id"].as_str().unwrap().parse().unwrap()
}

/// An interaction from `CHANNEL`, so the channel exists; its token.
fn from_the_channel(fake: &FakeDiscord, id: u64) -> String {
    let interaction = fake.expect_answer_to(command_interaction(id, &alice(), CHANNEL, "games", json!([])));
    interaction["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_token_the_fake_never_sent_is_an_unknown_webhook() {
    let fake = FakeDiscord::start().await;
    let app = FakeDiscord::APPLICATION_ID;
    let (status, body) = request(
        &fake,
        "POST",
        &format!("/api/v10/webhooks/{app}/never-sent"),
        Some(json!({ "content": "hi" })),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10015)));
    let (status, body) = request(
        &fake,
        "PATCH",
        &format!("/api/v10/webhooks/{app}/never-sent/messages/@original"),
        Some(json!({ "content": "hi" })),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10015)));
    fake.expect_refused(2);
}

#[tokio::test]
async fn a_route_discord_does_not_have_is_refused() {
    let fake = FakeDiscord::start().await;
    let (status, _) = request(&fake, "GET", "/api/v10/channels/5000/nonsense", None).await;
    assert_eq!(status, 404);
    let (status, body) = request(&fake, "GET", "/api/v10/channels/not-a-number", None).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)));
    fake.expect_refused(2);
}

#[tokio::test]
async fn only_channels_that_exist_are_answered() {
    let fake = FakeDiscord::start().await;
    let (status, body) = request(&fake, "GET", "/api/v10/channels/777", None).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10003)), "never existed");
    fake.expect_refused(0);
    // Asking is fair; writing to it is the bot's mistake.
    let (status, body) = request(
        &fake,
        "POST",
        "/api/v10/channels/778/messages",
        Some(json!({ "content": "hi" })),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10003)), "nowhere to post");
    fake.expect_refused(1);

    fake.add_channel(777, FakeDiscord::GUILD_ID);
    let (status, channel) = request(&fake, "GET", "/api/v10/channels/777", None).await;
    assert_eq!((status, channel["type"].as_u64()), (200, Some(0)));
    // Deleted: Discord's world, which the bot cannot know; answered, not held against it.
    fake.delete_channel(777, false).await;
    let (status, body) = request(&fake, "GET", "/api/v10/channels/777", None).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10003)));
    fake.expect_refused(1);
}

#[tokio::test]
async fn edits_and_deletions_need_a_message_that_is_there() {
    let fake = FakeDiscord::start().await;
    from_the_channel(&fake, 1);
    let path = |message: u64| format!("/api/v10/channels/{CHANNEL}/messages/{message}");
    let (status, body) = request(&fake, "PATCH", &path(42), Some(json!({ "content": "x" }))).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10008)));
    let (status, body) = request(&fake, "DELETE", &path(42), None).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10008)));
    fake.expect_refused(2);

    let message = posted(&fake).await;
    let (status, edited) = request(&fake, "PATCH", &path(message), Some(json!({ "content": "edited" }))).await;
    assert_eq!((status, edited["content"].as_str()), (200, Some("edited")));
    // The message is in CHANNEL, not in another channel.
    fake.add_channel(6_000, FakeDiscord::GUILD_ID);
    let elsewhere = format!("/api/v10/channels/6000/messages/{message}");
    let (status, _) = request(&fake, "PATCH", &elsewhere, Some(json!({ "content": "x" }))).await;
    assert_eq!(status, 404);
    let (status, _) = request(&fake, "DELETE", &path(message), None).await;
    assert_eq!(status, 204);
    let (status, body) = request(&fake, "DELETE", &path(message), None).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10008)), "gone once deleted");
    fake.expect_refused(4);
}

#[tokio::test]
async fn a_thread_needs_a_message_a_valid_name_and_duration_and_only_one_per_message() {
    let fake = FakeDiscord::start().await;
    from_the_channel(&fake, 1);
    let threads = |message: u64| format!("/api/v10/channels/{CHANNEL}/messages/{message}/threads");
    let thread = |name: &str, minutes: u64| json!({ "name": name, "auto_archive_duration": minutes });
    let (status, body) = request(&fake, "POST", &threads(42), Some(thread("game", 10080))).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10008)), "no such message");
    let message = posted(&fake).await;
    let (status, body) = request(&fake, "POST", &threads(message), Some(thread("", 10080))).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)), "an empty name");
    let long = "n".repeat(101);
    let (status, body) = request(&fake, "POST", &threads(message), Some(thread(&long, 10080))).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)), "a name over 100");
    let (status, body) = request(&fake, "POST", &threads(message), Some(thread("game", 1000))).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)), "no such duration");
    fake.expect_refused(4);

    let (status, made) = request(&fake, "POST", &threads(message), Some(thread("game", 10080))).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["id"], message.to_string(), "a thread has its message's id");
    assert_eq!(made["parent_id"], CHANNEL.to_string());
    let (status, body) = request(&fake, "POST", &threads(message), Some(thread("again", 10080))).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(160004)));
    fake.expect_refused(5);
}

#[tokio::test]
async fn the_bots_permissions_in_a_channel_hold_for_its_requests_and_its_interactions() {
    let fake = FakeDiscord::start().await;
    let no_files = permissions::DEFAULT & !permissions::ATTACH_FILES & !permissions::CREATE_PUBLIC_THREADS;
    fake.set_bot_permissions(CHANNEL, no_files);
    let interaction = fake.expect_answer_to(command_interaction(1, &alice(), CHANNEL, "games", json!([])));
    assert_eq!(
        interaction["app_permissions"],
        no_files.to_string(),
        "the interaction says so"
    );
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    let (status, body) = post_with_file(&fake, &messages, json!({ "content": "a board" })).await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50013)), "no attaching");
    let message = posted(&fake).await;
    let threads = format!("/api/v10/channels/{CHANNEL}/messages/{message}/threads");
    let (status, body) = request(&fake, "POST", &threads, Some(json!({ "name": "game" }))).await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50013)), "no threads");
    fake.close_channel(CHANNEL);
    let (status, body) = request(&fake, "POST", &messages, Some(json!({ "content": "hi" }))).await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50013)), "no sending");
    // A moderator's choice, which the bot learns by trying: answered, not counted as its mistake.
    fake.expect_refused(0);
}

#[tokio::test]
async fn the_rate_limits_are_on_from_the_start() {
    let fake = FakeDiscord::start().await;
    from_the_channel(&fake, 1);
    for _ in 0..5 {
        posted(&fake).await;
    }
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    let (status, body) = request(&fake, "POST", &messages, Some(json!({ "content": "sixth" }))).await;
    assert_eq!(status, 429, "{body}");
    let retry_after = body["retry_after"].as_f64().expect("retry_after");
    assert!(retry_after > 0.0 && retry_after <= 5.0, "{retry_after}");
    assert_eq!(fake.rate_limited(), 1);
    fake.expect_refused(0);
}

#[tokio::test]
async fn attachments_are_served_from_the_cdn_and_a_missing_one_is_not_found() {
    let fake = FakeDiscord::start().await;
    let attachment = fake.attach("game.pgn", b"1. e4 e5");
    let url = attachment["url"].as_str().unwrap();
    let path = url.trim_start_matches(&fake.api_base()).to_owned();
    let address = fake.api_base().trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.ends_with("1. e4 e5"), "{text}");
    let (status, _) = request(&fake, "GET", "/cdn/attachments/1/gone.pgn", None).await;
    assert_eq!(status, 404);
    fake.expect_refused(0);
}

#[tokio::test]
#[should_panic(expected = "which the bot never posted")]
async fn a_click_on_a_message_never_posted_is_a_mistake_of_the_test() {
    let fake = FakeDiscord::start().await;
    fake.expect_answer_to(component_interaction(1, &alice(), CHANNEL, "arb:x", 2, Vec::new(), 42));
}

#[tokio::test]
#[should_panic(expected = "never showed")]
async fn a_click_on_a_button_the_message_never_showed_is_a_mistake_of_the_test() {
    let fake = FakeDiscord::start().await;
    from_the_channel(&fake, 1);
    let message = posted(&fake).await;
    fake.expect_answer_to(component_interaction(
        2,
        &alice(),
        CHANNEL,
        "arb:x",
        2,
        Vec::new(),
        message,
    ));
}

/// A refusal nobody expected fails the test that caused it, when its fake goes.
#[tokio::test]
#[should_panic(expected = "no test expected")]
async fn a_refusal_no_test_expected_fails_the_test() {
    let fake = FakeDiscord::start().await;
    request(&fake, "GET", "/api/v10/nonsense", None).await;
}

/// A deferred answer's placeholder exists as soon as the deferral is made, as on Discord: it can
/// be deleted before it was ever edited; a follow-up id the interaction never made cannot.
#[tokio::test]
async fn a_deferred_placeholder_exists_before_any_edit() {
    let fake = FakeDiscord::start().await;
    let token = from_the_channel(&fake, 7);
    let (status, _) = request(
        &fake,
        "POST",
        &format!("/api/v10/interactions/7/{token}/callback"),
        Some(json!({ "type": 5, "data": { "flags": 64 } })),
    )
    .await;
    assert_eq!(status, 204);
    let app = FakeDiscord::APPLICATION_ID;
    let (status, _) = request(
        &fake,
        "DELETE",
        &format!("/api/v10/webhooks/{app}/{token}/messages/@original"),
        None,
    )
    .await;
    assert_eq!(status, 204, "the placeholder is there to delete");
    let (status, body) = request(
        &fake,
        "DELETE",
        &format!("/api/v10/webhooks/{app}/{token}/messages/42"),
        None,
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10008)));
    fake.expect_refused(1);
}
