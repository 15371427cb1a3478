//! A running bot (serenity + poise, the arena, a real SQLite database) against the fake Discord,
//! and the helpers tests use to talk to it and read what it said.

#![allow(dead_code)]

use crate::support;
use arbiter::discord::Config;
use arbiter::ids::GameId;
use arbiter::store::Store;
use fake_discord::{Call, FakeDiscord, Invoker, command_interaction, component_interaction, user_json};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub const CHANNEL: u64 = 5_000;
pub const EPHEMERAL: u64 = 64;
/// Members with this role host Death Matches.
pub const HOST_ROLE: u64 = 4_242;

static NEXT_INTERACTION: AtomicU64 = AtomicU64::new(1);

pub fn next_id() -> u64 {
    NEXT_INTERACTION.fetch_add(1, Ordering::SeqCst) + 10_000
}

/// Tests that measure time across processes (the request budget's), or keep both cores busy
/// for half a minute (every game played by menus), run one at a time: neither slows the other.
pub static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub fn alice() -> Invoker {
    Invoker {
        user_id: 1_001,
        name: "alice".into(),
    }
}
pub fn bob() -> Invoker {
    Invoker {
        user_id: 1_002,
        name: "bob".into(),
    }
}
pub fn carol() -> Invoker {
    Invoker {
        user_id: 1_003,
        name: "carol".into(),
    }
}

/// A game's place in the registry, as the challenge menu numbers it.
pub fn variant_index(variant: arbiter_engine::VariantId) -> u8 {
    arbiter_engine::VariantId::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("a hosted game") as u8
}

/// A running bot on its own database and fake Discord; a test ends with `bot.stop().await`.
pub struct Bot {
    pub fake: FakeDiscord,
    pub arena: support::TestArena,
    pub clock: std::sync::Arc<arbiter::clock::ManualClock>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    /// Where the live pages are served, for a bot that serves them.
    pub pages: Option<arbiter::web::WebListener>,
    /// Where /metrics, /healthz and /readyz are served, for a bot that serves them alone.
    pub metrics: Option<arbiter::web::WebListener>,
    /// How long the bot waits for an attached file.
    attachments: arbiter::discord::FetchTimeouts,
    _db: support::TestDb,
}

impl Bot {
    pub async fn start() -> Bot {
        Bot::start_with(|store| store).await
    }

    /// A bot that also serves the live pages (on a free port of 127.0.0.1).
    pub async fn start_serving_pages() -> Bot {
        let pages = arbiter::web::WebListener::bind("127.0.0.1:0".parse().unwrap(), None).unwrap();
        Bot::launched(|store| store, Some(pages), None).await
    }

    /// A bot that serves /metrics, /healthz and /readyz (on a free port of 127.0.0.1).
    pub async fn start_serving_metrics() -> Bot {
        let metrics = arbiter::web::WebListener::bind("127.0.0.1:0".parse().unwrap(), None).unwrap();
        Bot::launched(|store| store, None, Some(metrics)).await
    }

    /// A bot whose store is `wrap`ped (made slow, say).
    pub async fn start_with(wrap: impl FnOnce(Arc<dyn Store>) -> Arc<dyn Store>) -> Bot {
        Bot::launched(wrap, None, None).await
    }

    /// A bot that gives up on an attached file after `timeouts` (short, so a test of a stalled
    /// fetch takes seconds).
    pub async fn start_fetching_within(timeouts: arbiter::discord::FetchTimeouts) -> Bot {
        Bot::launched_fetching_within(|store| store, None, None, timeouts).await
    }

    async fn launched(
        wrap: impl FnOnce(Arc<dyn Store>) -> Arc<dyn Store>,
        pages: Option<arbiter::web::WebListener>,
        metrics: Option<arbiter::web::WebListener>,
    ) -> Bot {
        Bot::launched_fetching_within(wrap, pages, metrics, Default::default()).await
    }

    async fn launched_fetching_within(
        wrap: impl FnOnce(Arc<dyn Store>) -> Arc<dyn Store>,
        pages: Option<arbiter::web::WebListener>,
        metrics: Option<arbiter::web::WebListener>,
        attachments: arbiter::discord::FetchTimeouts,
    ) -> Bot {
        let db = support::sqlite().await;
        let clock = Arc::new(arbiter::clock::ManualClock::new(1_700_000_000_000));
        let arena = support::TestArena::new(wrap(db.store.clone()), clock.clone());
        let fake = FakeDiscord::start().await;
        let (stop, task) = launch(&fake, &arena, pages.clone(), metrics.clone(), attachments);
        fake.wait_ready().await;
        fake.wait_for_call("command registration", |c| {
            c.method == "PUT" && c.path.ends_with("/commands")
        })
        .await;
        Bot {
            fake,
            arena,
            clock,
            stop: Some(stop),
            task: Some(task),
            pages,
            metrics,
            attachments,
            _db: db,
        }
    }

    /// Sends an interaction and waits for the bot's answer to it: the first response, or for a
    /// click the bot acknowledged at once (type 6), the answer that followed, shaped as a first
    /// response would be: the clicked message's update as type 7, a message as type 4.
    pub async fn interact(&self, interaction: Value) -> Call {
        let id = interaction["id"].as_str().unwrap().to_string();
        let token = interaction["token"].as_str().unwrap().to_string();
        self.fake.send_interaction(interaction).await;
        let path = format!("/api/v10/interactions/{id}/{token}/callback");
        let first = self
            .fake
            .wait_for_call(&format!("the answer to interaction {id}"), |c| c.path == path)
            .await;
        if first.json["type"] != 6 {
            return first;
        }
        let webhook = format!("/{token}");
        let answer = self
            .fake
            .wait_for_call(&format!("the answer after acknowledging {id}"), |c| {
                c.path.contains("/webhooks/") && (c.path.ends_with(&webhook) || c.path.contains(&format!("{webhook}/")))
            })
            .await;
        let kind = if answer.method == "PATCH" && answer.path.ends_with("/@original") {
            7
        } else {
            4
        };
        Call {
            json: json!({ "type": kind, "data": answer.json }),
            ..answer
        }
    }

    pub async fn command(&self, who: &Invoker, channel: u64, command: &str, options: Value) -> Call {
        self.interact(command_interaction(next_id(), who, channel, command, options))
            .await
    }

    /// `/move action` in `channel`.
    pub async fn play(&self, who: &Invoker, channel: u64, action: &str) -> Call {
        self.command(
            who,
            channel,
            "move",
            json!([{ "name": "action", "type": 3, "value": action }]),
        )
        .await
    }

    pub async fn challenge(&self, who: &Invoker, opponent: &Invoker, variant: u8, colour: u8) -> Call {
        self.challenge_with(who, opponent, variant, colour, Vec::new()).await
    }

    /// `/challenge` with more options (`{ "name": "fen", "type": 3, "value": ... }`).
    pub async fn challenge_with(
        &self,
        who: &Invoker,
        opponent: &Invoker,
        variant: u8,
        colour: u8,
        extra: Vec<Value>,
    ) -> Call {
        let mut options = vec![
            json!({ "name": "variant", "type": 4, "value": variant }),
            json!({ "name": "opponent", "type": 6, "value": opponent.user_id.to_string() }),
            json!({ "name": "colour", "type": 4, "value": colour }),
        ];
        options.extend(extra);
        self.interact(challenge_interaction(who, opponent, options)).await
    }

    /// Clicks a button found in an earlier message.
    pub async fn click(&self, who: &Invoker, channel: u64, custom_id: &str, message: u64) -> Call {
        self.interact(component_interaction(
            next_id(),
            who,
            channel,
            custom_id,
            2,
            Vec::new(),
            message,
        ))
        .await
    }

    /// Clicks the button whose custom id starts with `prefix` on a message the bot made in
    /// `channel` (a post, or an interaction's answer), as a player sees it there.
    pub async fn click_on_post(&self, who: &Invoker, channel: u64, post: &Call, prefix: &str) -> Call {
        let custom_id = button(post, prefix, "");
        self.click(who, channel, &custom_id, self.message_of(post)).await
    }

    /// The message in `channel` (a thread, a DM, or where a private answer appeared) that showed
    /// `custom_id`: the one a player clicks it on. Panics if the bot never showed it there.
    pub fn shown(&self, channel: u64, custom_id: &str) -> u64 {
        self.fake
            .message_showing(channel, custom_id)
            .unwrap_or_else(|| panic!("no message in channel {channel} showed {custom_id}"))
    }

    /// Challenge by alice (White) to bob, accepted: the game's id and its thread.
    pub async fn started(&self, variant: u8) -> (GameId, u64) {
        let (game, thread, _) = self.started_with_button(variant).await;
        (game, thread)
    }

    /// As `started`, with the Accept button that began the game.
    pub async fn started_with_button(&self, variant: u8) -> (GameId, u64, String) {
        self.started_with(variant, Vec::new()).await
    }

    /// As `started`, from a position.
    pub async fn started_from(&self, variant: u8, fen: &str) -> (GameId, u64) {
        let (game, thread, _) = self
            .started_with(variant, vec![json!({ "name": "fen", "type": 3, "value": fen })])
            .await;
        (game, thread)
    }

    async fn started_with(&self, variant: u8, extra: Vec<Value>) -> (GameId, u64, String) {
        self.started_between(&alice(), &bob(), variant, extra).await
    }

    /// A challenge by `challenger` (White) to `opponent`, accepted: the game's id, its thread
    /// and the Accept button that began it.
    pub async fn started_between(
        &self,
        challenger: &Invoker,
        opponent: &Invoker,
        variant: u8,
        extra: Vec<Value>,
    ) -> (GameId, u64, String) {
        let challenge = self.challenge_with(challenger, opponent, variant, 1, extra).await;
        let accept = custom_ids(&challenge.json)
            .into_iter()
            .find(|id| id.starts_with("arb:accept:"))
            .expect("an Accept button");
        let game: GameId = accept.split(':').nth(2).unwrap().parse().unwrap();
        let message = self.message_of(&challenge);
        let answer = self.click(opponent, CHANNEL, &accept, message).await;
        assert_eq!(
            answer.json["type"], 7,
            "the challenge message is updated: {}",
            answer.json
        );
        assert!(custom_ids(&answer.json).is_empty(), "its buttons are gone");
        // A thread started from a message has the message's id.
        (game, message, accept)
    }

    /// The message an interaction's answer made (a challenge with its buttons, say), or a post.
    pub fn message_of(&self, answer: &Call) -> u64 {
        if let Some(made) = FakeDiscord::message_made(answer) {
            return made;
        }
        let token = answer.path.split('/').nth(5).expect("an interaction's answer");
        self.fake.response_message_id(token)
    }

    /// Starts the bot again after `halt`, on the same database and fake Discord, as a restart
    /// of its process would (whatever it had not yet done waits in the database).
    pub fn resume(&mut self) {
        let (stop, task) = launch(
            &self.fake,
            &self.arena,
            self.pages.clone(),
            self.metrics.clone(),
            self.attachments,
        );
        self.stop = Some(stop);
        self.task = Some(task);
    }

    /// Stops the bot as `stop` does, keeping its database and fake Discord for `resume`.
    pub async fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            // A stop delivers what is queued first (at most 10 s), after closing the gateway.
            let result = tokio::time::timeout(Duration::from_secs(30), task).await;
            assert!(result.is_ok(), "the bot stops when asked");
        }
    }

    pub async fn stop(mut self) {
        self.halt().await;
    }
}

/// Runs the bot over `arena` against `fake` (serving `pages` when given): the way to stop it,
/// and its task.
fn launch(
    fake: &FakeDiscord,
    arena: &support::TestArena,
    pages: Option<arbiter::web::WebListener>,
    metrics: Option<arbiter::web::WebListener>,
    attachments: arbiter::discord::FetchTimeouts,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<anyhow::Result<()>>,
) {
    let config = Config {
        token: "test-token".into(),
        web: pages,
        guild_id: Some(FakeDiscord::GUILD_ID),
        api_base: Some(fake.api_base()),
        host_role: Some(HOST_ROLE),
        shards: arbiter::discord::Shards::Automatic,
        metrics,
        attachments,
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(arbiter::discord::run(config, arena.arena(), async {
        let _ = stopped.await;
    }));
    (stop, task)
}

/// Whatever a test did, the bot sent no text it had not worded. (That it asked nothing Discord
/// would have refused, the fake itself checks when it goes.)
impl Drop for Bot {
    fn drop(&mut self) {
        // A bot still running is left running: told to stop now, it would close its gateway
        // connection just as the fake Discord goes away, and serenity's shard runner spins for
        // ever awaiting a close frame from a closed socket (the test then never ends).
        let running = self.stop.take().map(std::mem::forget).is_some();
        if std::thread::panicking() {
            return;
        }
        assert!(
            !running,
            "a test ends with `bot.stop().await`, which stops the bot while Discord is there"
        );
        // None of the arena's text marks (its spans, `arbiter::arena::text`) reached Discord
        // unworded.
        let marked: Vec<String> = self
            .fake
            .calls()
            .iter()
            .map(|call| call.json.to_string())
            .filter(|json| json.chars().any(|c| ('\u{E000}'..='\u{E00E}').contains(&c)))
            .collect();
        assert!(marked.is_empty(), "arena marks sent to Discord: {marked:#?}");
    }
}

/// `/challenge` in `CHANNEL` with these options, the opponent resolved as Discord sends it.
pub fn challenge_interaction(who: &Invoker, opponent: &Invoker, options: Vec<Value>) -> Value {
    let mut interaction = command_interaction(next_id(), who, CHANNEL, "challenge", Value::Array(options));
    let id = opponent.user_id.to_string();
    interaction["data"]["resolved"] = json!({ "users": { id: user_json(opponent.user_id, &opponent.name, false) } });
    interaction
}

/// The member who hosts Death Matches and tournaments (with the host role).
pub fn host() -> Invoker {
    Invoker {
        user_id: 1_009,
        name: "host".into(),
    }
}

/// A command by the host, who holds the host role.
pub fn host_command(command: &str, options: Value) -> Value {
    let mut interaction = command_interaction(next_id(), &host(), CHANNEL, command, options);
    interaction["member"]["roles"] = json!([HOST_ROLE.to_string()]);
    interaction
}

/// `/deathmatch start` by the host: game `game` (0 Blockade Chess, 1 Garden of Statues) between
/// alice, holding the Advantage, and bob, with `times` (`normal_time`, `reserve`) if given.
pub fn deathmatch_start(game: u8, times: Option<(&str, &str)>) -> Value {
    let mut options = vec![
        json!({ "name": "game", "type": 4, "value": game }),
        json!({ "name": "player1", "type": 6, "value": "1001" }),
        json!({ "name": "player2", "type": 6, "value": "1002" }),
        json!({ "name": "advantage", "type": 6, "value": "1001" }),
    ];
    if let Some((normal, reserve)) = times {
        options.push(json!({ "name": "normal_time", "type": 3, "value": normal }));
        options.push(json!({ "name": "reserve", "type": 3, "value": reserve }));
    }
    let mut start = host_command(
        "deathmatch",
        json!([{ "name": "start", "type": 1, "options": options }]),
    );
    start["data"]["resolved"] = json!({ "users": {
        "1001": user_json(1_001, "alice", false),
        "1002": user_json(1_002, "bob", false),
    } });
    start
}

pub use fake_discord::custom_ids;

/// The values of an autocomplete answer's suggestions, in order.
pub fn suggested(answer: &Call) -> Vec<String> {
    answer.json["data"]["choices"]
        .as_array()
        .unwrap_or_else(|| panic!("no suggestions in {}", answer.json))
        .iter()
        .map(|choice| choice["value"].as_str().unwrap().to_string())
        .collect()
}

/// The message content of a callback or a message call.
pub fn content(call: &Call) -> String {
    let body = if call.json.get("data").is_some() {
        &call.json["data"]
    } else {
        &call.json
    };
    body["content"].as_str().unwrap_or_default().to_string()
}

pub fn is_ephemeral(call: &Call) -> bool {
    call.json["data"]["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0
}

/// A board image: a PNG of at most 64 KB.
pub fn assert_png(call: &Call) {
    assert_png_within(call, 64 * 1024);
}

/// The message's first file is a PNG of at most `most_bytes`.
pub fn assert_png_within(call: &Call, most_bytes: usize) {
    let (name, bytes) = call
        .files
        .first()
        .unwrap_or_else(|| panic!("no image in {}", call.json));
    assert!(name.ends_with(".png"), "{name}");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(bytes.len() < most_bytes, "{} bytes", bytes.len());
}

/// The messages posted in a channel, in order.
pub fn posts_in(fake: &FakeDiscord, channel: u64) -> Vec<Call> {
    let path = format!("/api/v10/channels/{channel}/messages");
    fake.calls_where(|c| c.method == "POST" && c.path == path)
}

/// Everything the bot said where others could see it (`fake_discord::public_calls`); the
/// answers to `private` interactions (clicks on DM or ephemeral messages) excluded.
pub fn public_text(fake: &FakeDiscord, private: &[u64]) -> String {
    let calls = fake.calls();
    let private = private.iter().copied().collect();
    fake_discord::public_calls(&calls, &private)
        .iter()
        .map(|c| c.json.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The button of a message whose custom id starts with `prefix` and ends with `suffix`.
pub fn button(call: &Call, prefix: &str, suffix: &str) -> String {
    custom_ids(&call.json)
        .into_iter()
        .find(|id| id.starts_with(prefix) && id.ends_with(suffix))
        .unwrap_or_else(|| panic!("no {prefix}…{suffix} in {}", call.json))
}

/// Waits until `channel` holds `count` messages from the bot; the `count`th.
pub async fn wait_for_posts(bot: &Bot, channel: u64, count: usize) -> Call {
    wait_for_nth(bot, channel, count, |_| true).await
}

/// Waits (at most 30 s) for the `count`th message the bot posts in `channel` that `fits`.
pub async fn wait_for_nth(bot: &Bot, channel: u64, count: usize, fits: impl Fn(&Call) -> bool) -> Call {
    for _ in 0..600 {
        let posts: Vec<Call> = posts_in(&bot.fake, channel).into_iter().filter(|c| fits(c)).collect();
        if posts.len() >= count {
            return posts[count - 1].clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let seen: Vec<String> = posts_in(&bot.fake, channel).iter().map(content).collect();
    panic!("message {count} in channel {channel} never came within 30 s; the channel holds {seen:#?}")
}
