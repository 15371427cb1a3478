//! Proves the fake Discord works with a real serenity client: READY over the gateway, an
//! interaction answered with a file, and a refused DM surfacing as error 50007. Also checks that
//! every interaction builder parses into serenity's `Interaction` and that the fake's REST answers
//! parse into the types serenity returns.

use std::time::Duration;

use fake_discord::strict::{check_callback, check_commands, check_message};
use fake_discord::{
    Failure, FakeDiscord, Invoker, autocomplete_interaction, command_interaction, component_interaction,
    dm_component_interaction,
};
use serde_json::{Value, json};
use serenity::all::{
    ApplicationId, Builder, ChannelId, ChannelType, ClientBuilder, Command, CommandOptionType, Context,
    CreateActionRow, CreateAttachment, CreateButton, CreateCommand, CreateCommandOption, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, CreateThread, EditInteractionResponse, EditMessage,
    EventHandler, GatewayIntents, GuildId, Interaction, Ready, UserId,
};
use serenity::http::{HttpBuilder, HttpError};
use tokio::sync::mpsc;
use tokio::time::timeout;

const WAIT: Duration = Duration::from_secs(10);
const PNG: &[u8] = b"\x89PNG fake";

/// What the bot's handler saw, reported back to the test.
#[derive(Debug)]
enum Seen {
    Ready,
    /// The outcome of the DM: the Discord error code if it failed, None if it went through.
    DmOutcome(Option<isize>),
}

struct Handler {
    seen: mpsc::UnboundedSender<Seen>,
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, _ctx: Context, _ready: Ready) {
        let _ = self.seen.send(Seen::Ready);
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let Interaction::Command(command) = interaction else {
            return;
        };
        let reply = CreateInteractionResponseMessage::new()
            .content("pong")
            .add_file(CreateAttachment::bytes(PNG.to_vec(), "board.png"));
        command
            .create_response(&ctx.http, CreateInteractionResponse::Message(reply))
            .await
            .expect("the interaction response");
        let channel = command.user.create_dm_channel(&ctx.http).await.expect("the DM channel");
        let outcome = match channel.say(&ctx.http, "your move").await {
            Ok(_) => None,
            Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(response))) => Some(response.error.code),
            Err(other) => panic!("unexpected DM error: {other:?}"),
        };
        let _ = self.seen.send(Seen::DmOutcome(outcome));
    }
}

async fn next_seen(seen: &mut mpsc::UnboundedReceiver<Seen>) -> Seen {
    timeout(WAIT, seen.recv())
        .await
        .expect("the handler reported within 10 s")
        .expect("the handler is alive")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_talks_to_the_fake_discord() {
    let fake = FakeDiscord::start().await;
    let alice = Invoker {
        user_id: 1_001,
        name: "alice".into(),
    };
    fake.close_dms_of(alice.user_id);

    let http = HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let (seen_tx, mut seen) = mpsc::unbounded_channel();
    let builder =
        ClientBuilder::new_with_http(http, GatewayIntents::non_privileged()).event_handler(Handler { seen: seen_tx });
    let mut client = timeout(WAIT, builder)
        .await
        .expect("client built in time")
        .expect("client built");
    let shard_manager = client.shard_manager.clone();
    let running = tokio::spawn(async move { client.start().await });

    fake.wait_ready().await;
    assert!(matches!(next_seen(&mut seen).await, Seen::Ready));

    // A garbage frame first: serenity logs it and keeps the connection, so the interaction after
    // it still arrives.
    fake.send_raw("{not json".to_owned()).await;
    let interaction = command_interaction(1, &alice, 3_000, "ping", json!([]));
    fake.send_interaction(interaction).await;

    let callback = fake
        .wait_for_call("the interaction callback", |call| call.path.ends_with("/callback"))
        .await;
    assert_eq!(callback.method, "POST");
    assert_eq!(callback.path, "/api/v10/interactions/1/token1/callback");
    assert_eq!(callback.json["type"], 4);
    assert_eq!(callback.json["data"]["content"], "pong");
    assert_eq!(callback.files, vec![("board.png".to_owned(), PNG.to_vec())]);

    let dm = fake
        .wait_for_call("the DM channel", |call| call.path == "/api/v10/users/@me/channels")
        .await;
    assert_eq!(dm.method, "POST");
    assert_eq!(dm.json["recipient_id"], alice.user_id.to_string());
    let dm_messages = format!(
        "/api/v10/channels/{}/messages",
        FakeDiscord::dm_channel_id(alice.user_id)
    );
    let refused = fake
        .wait_for_call("the refused DM", |call| call.path == dm_messages)
        .await;
    assert_eq!((refused.method.as_str(), refused.status), ("POST", 403));
    assert_eq!(refused.json["content"], "your move");

    // `Client::start` asks only `/gateway` (`/gateway/bot` is for autosharding).
    let paths: Vec<String> = fake.calls().into_iter().map(|call| call.path).collect();
    assert_eq!(paths[0], "/api/v10/gateway", "calls: {paths:?}");

    match next_seen(&mut seen).await {
        Seen::DmOutcome(code) => assert_eq!(code, Some(50007)),
        other => panic!("expected the DM outcome, got {other:?}"),
    }

    timeout(WAIT, shard_manager.shutdown_all())
        .await
        .expect("shards shut down in time");
    let finished = timeout(WAIT, running)
        .await
        .expect("client stopped in time")
        .expect("client task");
    finished.expect("client ended cleanly");
}

/// The bot will be fed these payloads: each must parse into serenity's `Interaction`.
#[test]
fn interaction_builders_parse_into_serenity() {
    let alice = Invoker {
        user_id: 1_001,
        name: "alice".into(),
    };
    let parse =
        |value: serde_json::Value| serde_json::from_value::<Interaction>(value).expect("a valid serenity Interaction");

    let options = json!([{ "name": "variant", "type": 3, "value": "atomic" }]);
    let Interaction::Command(command) = parse(command_interaction(1, &alice, 3_000, "play", options)) else {
        panic!("a command interaction");
    };
    assert_eq!(command.data.name, "play");
    assert_eq!(command.user.id.get(), alice.user_id);
    assert_eq!(command.guild_id.map(|id| id.get()), Some(FakeDiscord::GUILD_ID));
    assert_eq!(command.token, "token1");

    // No option marked: the last one gets focused, and its number becomes the typed text.
    let options = json!([{ "name": "variant", "type": 3, "value": "ato" }, { "name": "time", "type": 4, "value": 5 }]);
    let Interaction::Autocomplete(autocomplete) = parse(autocomplete_interaction(2, &alice, 3_000, "play", options))
    else {
        panic!("an autocomplete interaction");
    };
    let focused = autocomplete.data.autocomplete().expect("a focused option");
    assert_eq!((focused.name, focused.value), ("time", "5"));

    let button = component_interaction(3, &alice, 3_000, "resign:42", 2, Vec::new(), 77);
    let Interaction::Component(button) = parse(button) else {
        panic!("a component interaction")
    };
    assert_eq!(button.data.custom_id, "resign:42");
    assert_eq!(button.message.id.get(), 77);
    assert_eq!(button.user.id.get(), alice.user_id);

    let select = component_interaction(4, &alice, 3_000, "move:42", 3, vec!["e2e4".into()], 78);
    let Interaction::Component(select) = parse(select) else {
        panic!("a component interaction")
    };
    assert!(matches!(
        select.data.kind,
        serenity::all::ComponentInteractionDataKind::StringSelect { ref values } if values == &["e2e4"]
    ));

    let dm_channel = FakeDiscord::dm_channel_id(alice.user_id);
    let in_dm = dm_component_interaction(5, &alice, dm_channel, "accept:42", 2, Vec::new(), 79);
    let Interaction::Component(in_dm) = parse(in_dm) else {
        panic!("a component interaction")
    };
    assert_eq!(in_dm.guild_id, None);
    assert!(in_dm.member.is_none());
    assert_eq!(in_dm.user.id.get(), alice.user_id);
    assert_eq!(in_dm.channel_id.get(), dm_channel);
}

/// The fake's REST answers must deserialize into the serenity types the bot gets back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_answers_parse_into_serenity() {
    let fake = FakeDiscord::start().await;
    let http = rest_client(&fake);
    timeout(WAIT, exercise_rest(&fake, &http))
        .await
        .expect("REST calls finished within 10 s");
}

/// A REST client talking to the fake, as the bot's is built.
fn rest_client(fake: &FakeDiscord) -> serenity::http::Http {
    HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .application_id(ApplicationId::new(FakeDiscord::APPLICATION_ID))
        .build()
}

async fn exercise_rest(fake: &FakeDiscord, http: &serenity::http::Http) {
    http.get_bot_gateway().await.expect("bot gateway");
    http.get_current_application_info().await.expect("application info");

    let play = CreateCommand::new("play").description("Start a game").add_option(
        CreateCommandOption::new(CommandOptionType::String, "variant", "Which variant")
            .required(true)
            .set_autocomplete(true),
    );
    let commands = Command::set_global_commands(http, vec![play.clone()])
        .await
        .expect("global commands");
    assert_eq!(commands[0].name, "play");
    assert_eq!(fake.registered_commands()[0]["name"], "play");
    let guild = GuildId::new(FakeDiscord::GUILD_ID);
    let commands = guild.set_commands(http, vec![play]).await.expect("guild commands");
    assert_eq!(commands[0].guild_id, Some(guild));

    fake.add_channel(3_000, FakeDiscord::GUILD_ID);
    let channel = ChannelId::new(3_000);
    let buttons = CreateActionRow::Buttons(vec![CreateButton::new("resign:1").label("Resign")]);
    let options = vec![CreateSelectMenuOption::new("e4", "e2e4")];
    let select = CreateActionRow::SelectMenu(CreateSelectMenu::new(
        "move:1",
        CreateSelectMenuKind::String { options },
    ));
    let board = CreateMessage::new()
        .content("board")
        .embed(CreateEmbed::new().title("Game 1").image("attachment://board.png"))
        .add_file(CreateAttachment::bytes(PNG.to_vec(), "board.png"))
        .components(vec![buttons, select]);
    let message = channel.send_message(http, board).await.expect("a message");
    assert_eq!((message.content.as_str(), message.components.len()), ("board", 2));
    assert_eq!(message.attachments[0].filename, "board.png");
    let edited = channel
        .edit_message(http, message.id, EditMessage::new().content("edited"))
        .await;
    assert_eq!(edited.expect("an edited message").id, message.id);

    let thread = channel
        .create_thread_from_message(http, message.id, CreateThread::new("game 1"))
        .await;
    let thread = thread.expect("a thread from a message");
    assert_eq!((thread.id.get(), thread.parent_id), (message.id.get(), Some(channel)));
    let loose = channel
        .create_thread(http, CreateThread::new("lobby").kind(ChannelType::PublicThread))
        .await;
    assert_eq!(loose.expect("a thread").name, "lobby");
    thread
        .id
        .add_thread_member(http, UserId::new(1_001))
        .await
        .expect("a thread member");
    let fetched = http.get_channel(thread.id).await.expect("the thread");
    assert_eq!(
        fetched.guild().map(|thread| thread.kind),
        Some(ChannelType::PublicThread)
    );
    assert!(http.get_channel(channel).await.expect("a channel").guild().is_some());
    assert_eq!(
        http.get_user(UserId::new(1_001)).await.expect("a user").name,
        "user1001"
    );

    let invoker = Invoker {
        user_id: 1_001,
        name: "alice".into(),
    };
    fake.expect_answer_to(command_interaction(9, &invoker, 3_000, "games", json!([])));
    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
        .execute(http, (serenity::all::InteractionId::new(9), "token9"))
        .await
        .expect("the first response");
    let followup = CreateInteractionResponseFollowup::new()
        .content("later")
        .execute(http, (None, "token9"))
        .await;
    assert_eq!(followup.expect("a follow-up").content, "later");
    let original = EditInteractionResponse::new()
        .content("edited")
        .execute(http, "token9")
        .await;
    let original = original.expect("the edited original");
    let fetched = http
        .get_original_interaction_response("token9")
        .await
        .expect("the original");
    assert_eq!(original.id, fetched.id);

    let unknown = http.get_guild_roles(guild).await.expect_err("an unknown route");
    assert!(matches!(
        unknown,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(ref response)) if response.status_code.as_u16() == 404
    ));
    assert_eq!(fake.calls().last().map(|call| call.status), Some(404));
    // A route Discord lacks is the bot's mistake.
    fake.expect_refused(1);
}

/// The servers' roles, the bot's member and a channel's overwrites, read by serenity and put
/// through Discord's computation, give the bot what `set_bot_permissions` says; a server the bot
/// is not on is Missing Access.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_and_overwrites_give_the_bots_permissions_by_discords_computation() {
    use fake_discord::permissions::*;
    let fake = FakeDiscord::start().await;
    let http = rest_client(&fake);
    let guild = GuildId::new(FakeDiscord::GUILD_ID);
    let server = http.get_guild(guild).await.expect("a server the bot is on");
    let me = http
        .get_member(guild, UserId::new(FakeDiscord::BOT_USER_ID))
        .await
        .expect("the bot's member");
    assert!(me.user.bot && me.roles.iter().any(|role| server.roles.contains_key(role)));
    fake.add_channel(3_000, FakeDiscord::GUILD_ID);
    let permissions_in = |channel: serenity::all::Channel| {
        server
            .user_permissions_in(&channel.guild().expect("a server's channel"), &me)
            .bits()
    };
    let channel = http.get_channel(ChannelId::new(3_000)).await.expect("a channel");
    assert_eq!(permissions_in(channel), DEFAULT);
    for held in [DEFAULT & !ATTACH_FILES, VIEW_CHANNEL | SEND_MESSAGES | MANAGE_GUILD] {
        fake.set_bot_permissions(3_000, held);
        let channel = http.get_channel(ChannelId::new(3_000)).await.expect("a channel");
        assert_eq!(permissions_in(channel), held);
    }
    let elsewhere = http.get_guild(GuildId::new(42)).await.expect_err("not on that server");
    assert_eq!(refusal_code(elsewhere), 50001);
    assert!(
        fake.refused_calls().is_empty(),
        "Discord's world, not the bot's mistake"
    );
}

/// Once the fake accepts one token only, any other is refused 401 as Discord refuses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_the_fake_does_not_accept_is_unauthorized() {
    let fake = FakeDiscord::start().await;
    let http = rest_client(&fake);
    http.get_current_user().await.expect("any token, by default");
    fake.accept_only_token("another-token");
    let refused = http
        .get_current_user()
        .await
        .expect_err("a token Discord does not know");
    assert!(matches!(
        refused,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(ref response)) if response.status_code.as_u16() == 401
    ));
    fake.accept_only_token("fake-token");
    http.get_current_user().await.expect("the token accepted");
}

// ---------------------------------------------------------------------------------------------
// The fake refuses what Discord refuses

#[test]
fn empty_and_oversized_messages_are_refused_as_discord_does() {
    assert_eq!(
        check_message(&json!({ "content": "" }), 0, true).unwrap_err().body["code"],
        50006
    );
    assert!(check_message(&json!({ "content": "" }), 1, true).is_ok());
    assert!(check_message(&json!({ "content": "" }), 0, false).is_ok());
    let long = "x".repeat(2001);
    assert_eq!(
        check_message(&json!({ "content": long }), 0, true).unwrap_err().body["code"],
        50035
    );
    let button = json!({ "type": 2, "custom_id": "a", "label": "l".repeat(81), "style": 1 });
    let rows = json!([{ "type": 1, "components": [button] }]);
    assert!(check_message(&json!({ "content": "x", "components": rows }), 0, true).is_err());
    let row = json!({ "type": 1, "components": [{ "type": 2, "custom_id": "a", "label": "ok", "style": 1 }] });
    let six = json!(vec![row.clone(); 6]);
    assert!(check_message(&json!({ "content": "x", "components": six }), 0, true).is_err());
    let options: Vec<Value> = (0..26)
        .map(|i| json!({ "label": i.to_string(), "value": i.to_string() }))
        .collect();
    let menu = json!([{ "type": 1, "components": [{ "type": 3, "custom_id": "m", "options": options }] }]);
    assert!(check_message(&json!({ "content": "x", "components": menu }), 0, true).is_err());
}

#[test]
fn messages_may_notify_only_the_users_they_list() {
    let listing = |content: &str, allowed: Value| json!({ "content": content, "allowed_mentions": allowed });
    let only_alice = json!({ "parse": [], "users": ["1001"] });
    assert!(check_message(&listing("<@1001> to move", only_alice.clone()), 0, true).is_ok());
    assert!(
        check_message(&listing("<@1002> to move", only_alice.clone()), 0, true).is_ok(),
        "named, not notified"
    );
    assert!(
        check_message(&listing("\\<@1002> written by a user", json!(null)), 0, true).is_ok(),
        "escaped"
    );
    for (content, allowed) in [
        ("<@1002> to move", json!(null)),
        ("@everyone look", json!(null)),
        ("<@&77> hosts", json!({ "parse": ["roles"] })),
        ("<@!1002> to move", json!({ "parse": ["users"], "users": ["1001"] })),
        ("@here", json!({ "parse": ["everyone"] })),
    ] {
        let refused = check_message(&listing(content, allowed.clone()), 0, true).unwrap_err();
        assert_eq!(refused.body["code"], 50035, "{content} {allowed}");
    }
}

#[test]
fn embeds_forms_menus_and_suggestions_are_held_to_discords_limits() {
    let embeds: Vec<Value> = (0..2)
        .map(|_| json!({ "title": "t", "description": "d".repeat(3500) }))
        .collect();
    assert!(
        check_message(&json!({ "embeds": embeds }), 0, true).is_err(),
        "7,000 characters of embeds"
    );
    let twice = json!([{ "type": 1, "components": [
        { "type": 2, "custom_id": "arb:accept:1:1", "label": "Accept", "style": 1 },
        { "type": 2, "custom_id": "arb:accept:1:1", "label": "Again", "style": 2 },
    ] }]);
    assert!(check_message(&json!({ "content": "x", "components": twice }), 0, true).is_err());
    let same_value = json!([{ "type": 1, "components": [{ "type": 3, "custom_id": "m", "options": [
        { "label": "e4", "value": "e4" }, { "label": "e4 again", "value": "e4" },
    ] }] }]);
    assert!(check_message(&json!({ "content": "x", "components": same_value }), 0, true).is_err());
    let form = |label: &str, placeholder: &str, rows: usize| {
        let row = json!({ "type": 1, "components": [{ "type": 4, "custom_id": "f", "label": label, "style": 2, "placeholder": placeholder }] });
        let rows: Vec<Value> = (0..rows)
            .map(|i| {
                let mut row = row.clone();
                row["components"][0]["custom_id"] = json!(format!("f{i}"));
                row
            })
            .collect();
        json!({ "type": 9, "data": { "custom_id": "form", "title": "Your list", "components": rows } })
    };
    assert!(check_callback(3, true, &form("One piece a line", "Giraffe, GI, C", 1), 0).is_ok());
    assert!(check_callback(3, true, &form(&"l".repeat(46), "", 1), 0).is_err());
    assert!(check_callback(3, true, &form("ok", &"p".repeat(101), 1), 0).is_err());
    assert!(check_callback(3, true, &form("ok", "", 6), 0).is_err());
    let suggestion = |value: String| json!({ "type": 8, "data": { "choices": [{ "name": "n", "value": value }] } });
    assert!(check_callback(4, false, &suggestion("v".repeat(100)), 0).is_ok());
    assert!(check_callback(4, false, &suggestion("v".repeat(101)), 0).is_err());
}

#[test]
fn responses_must_fit_their_interaction() {
    let message = json!({ "type": 4, "data": { "content": "hi" } });
    assert!(check_callback(2, false, &message, 0).is_ok());
    assert_eq!(
        check_callback(2, false, &json!({ "type": 6 }), 0).unwrap_err().body["code"],
        40004
    );
    assert!(check_callback(3, true, &json!({ "type": 6 }), 0).is_ok());
    assert!(check_callback(4, false, &message, 0).is_err());
    assert!(check_callback(4, false, &json!({ "type": 8, "data": { "choices": [] } }), 0).is_ok());
}

#[test]
fn commands_are_checked_as_discord_registers_them() {
    let good = json!([{ "name": "move", "description": "Make a move", "options": [
        { "type": 3, "name": "action", "description": "The move", "required": true },
        { "type": 4, "name": "game", "description": "Game number" },
    ] }]);
    assert!(check_commands(&good).is_ok());
    let order = json!([{ "name": "move", "description": "d", "options": [
        { "type": 4, "name": "game", "description": "Game number" },
        { "type": 3, "name": "action", "description": "The move", "required": true },
    ] }]);
    assert!(check_commands(&order).is_err());
    assert!(check_commands(&json!([{ "name": "Move", "description": "d" }])).is_err());
    assert!(check_commands(&json!([{ "name": "move", "description": "d".repeat(101) }])).is_err());
}

/// The Discord error code of a failed request, or the status when Discord sent none.
fn refusal_code(error: serenity::Error) -> isize {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            if response.error.code == 0 {
                isize::try_from(response.status_code.as_u16()).unwrap_or(0)
            } else {
                response.error.code
            }
        }
        other => panic!("not a refusal: {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_late_repeated_and_unfit_responses_as_discord_does() {
    let fake = FakeDiscord::start().await;
    let http = rest_client(&fake);
    let invoker = Invoker {
        user_id: 1_001,
        name: "alice".into(),
    };
    let command = fake.expect_answer_to(command_interaction(7, &invoker, 3_000, "games", json!([])));
    let command: Interaction = serde_json::from_value(command).unwrap();
    let command = command.command().unwrap();
    let say = |text: &str| CreateInteractionResponseFollowup::new().content(text);

    let early = say("too soon").execute(&http, (None, &command.token)).await;
    assert_eq!(
        refusal_code(early.unwrap_err()),
        10015,
        "a follow-up needs a first response"
    );
    let unfit = CreateInteractionResponse::Acknowledge
        .execute(&http, (command.id, &command.token))
        .await;
    assert_eq!(
        refusal_code(unfit.unwrap_err()),
        40004,
        "a command cannot be answered as a click"
    );
    let empty = CreateInteractionResponse::Message(CreateInteractionResponseMessage::new())
        .execute(&http, (command.id, &command.token))
        .await;
    assert_eq!(refusal_code(empty.unwrap_err()), 50006);
    let answer = CreateInteractionResponse::Message(CreateInteractionResponseMessage::new().content("ok"));
    answer
        .clone()
        .execute(&http, (command.id, &command.token))
        .await
        .expect("the first response");
    let again = answer.execute(&http, (command.id, &command.token)).await;
    assert_eq!(refusal_code(again.unwrap_err()), 40060);
    // (serenity itself refuses content over 2,000 characters before sending; the fake's limit is
    // checked above, for requests that get past it.)
    say("fits")
        .execute(&http, (None, &command.token))
        .await
        .expect("a follow-up");
    fake.age_interaction(&command.token, Duration::from_secs(15 * 60 + 1));
    let stale = say("too late").execute(&http, (None, &command.token)).await;
    assert_eq!(
        refusal_code(stale.unwrap_err()),
        50027,
        "follow-ups end after 15 minutes"
    );

    let late = fake.expect_answer_to(command_interaction(8, &invoker, 3_000, "games", json!([])));
    let late: Interaction = serde_json::from_value(late).unwrap();
    let late = late.command().unwrap();
    fake.age_interaction(&late.token, Duration::from_millis(3_100));
    let response = CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
        .execute(&http, (late.id, &late.token))
        .await;
    assert_eq!(refusal_code(response.unwrap_err()), 10062, "3 seconds to answer");
    fake.expect_refused(6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_fails_on_request_and_clicks_carry_the_message_clicked() {
    let fake = FakeDiscord::start().await;
    let http = rest_client(&fake);
    fake.add_channel(3_000, FakeDiscord::GUILD_ID);
    let channel = ChannelId::new(3_000);
    let failures = [
        (Failure::RateLimited { retry_after: 0.25 }, 429),
        (Failure::MissingPermissions, 50013),
        (Failure::MissingAccess, 50001),
        (Failure::UnknownChannel, 10003),
        (Failure::ArchivedThread, 50083),
        (Failure::CannotDm, 50007),
        (Failure::ServerError, 500),
    ];
    // Each in a channel of its own: a failed message still counts against the channel's rate limit.
    for (i, (failure, code)) in failures.into_iter().enumerate() {
        let elsewhere = 3_100 + i as u64;
        fake.add_channel(elsewhere, FakeDiscord::GUILD_ID);
        fake.fail("POST", &format!("/channels/{elsewhere}/messages"), failure, 1);
        let refused = ChannelId::new(elsewhere).say(&http, "hello").await;
        assert_eq!(refusal_code(refused.unwrap_err()), code, "{failure:?}");
    }
    let message = channel
        .send_message(
            &http,
            CreateMessage::new()
                .content("the board")
                .add_file(CreateAttachment::bytes(PNG.to_vec(), "board.png"))
                .components(vec![CreateActionRow::Buttons(vec![
                    CreateButton::new("arb:x").label("Resign"),
                ])]),
        )
        .await
        .expect("the next message goes through");
    fake.fail_after_doing("POST", "/threads", Failure::ThreadAlreadyExists, 1);
    let thread = channel
        .create_thread_from_message(&http, message.id, CreateThread::new("game"))
        .await;
    assert_eq!(refusal_code(thread.unwrap_err()), 160004);
    assert!(
        http.get_channel(ChannelId::new(message.id.get())).await.is_ok(),
        "made all the same"
    );
    assert!(
        fake.refused_calls().is_empty(),
        "asked-for failures are not Discord's rules"
    );
    // Asking again for the thread that exists is refused as Discord refuses it, by its rules.
    let again = channel
        .create_thread_from_message(&http, message.id, CreateThread::new("game"))
        .await;
    assert_eq!(refusal_code(again.unwrap_err()), 160004);
    // A second thread on one message is the bot's mistake.
    fake.expect_refused(1);
    // Opening DM channels too fast.
    fake.fail("POST", "/users/@me/channels", Failure::OpeningDmsTooFast, 1);
    let refused = UserId::new(1_001).create_dm_channel(&http).await;
    assert_eq!(refusal_code(refused.unwrap_err()), 40003);
    assert!(
        UserId::new(1_001).create_dm_channel(&http).await.is_ok(),
        "then it goes"
    );

    let invoker = Invoker {
        user_id: 1_001,
        name: "alice".into(),
    };
    let click = component_interaction(9, &invoker, 3_000, "arb:x", 2, Vec::new(), message.id.get());
    let click: Value = fake.expect_answer_to(click);
    assert_eq!(click["message"]["content"], "the board");
    assert_eq!(click["message"]["attachments"][0]["filename"], "board.png");
}
