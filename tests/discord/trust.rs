//! The doors of trust, tried through the fake Discord as a stranger, a player or a member with a
//! server of their own would: nobody plays, hosts or reads for someone else, on any server, and
//! nothing private reaches a public call or the log (docs/security.md lists each door with the
//! test that keeps it closed).

use crate::bot;
use crate::bot::Bot;
use crate::bot::CHANNEL;
use crate::bot::alice;
use crate::bot::bob;
use crate::bot::button;
use crate::bot::carol;
use crate::bot::content;
use crate::bot::custom_ids;
use crate::bot::deathmatch_start;
use crate::bot::host;
use crate::bot::host_command;
use crate::bot::is_ephemeral;
use crate::bot::next_id;
use crate::bot::public_text;
use crate::bot::variant_index;
use crate::bot::wait_for_nth;
use arbiter::arena::ChallengeRequest;
use arbiter::arena::caps::MOST_OPEN_MATCHES;
use arbiter::arena::caps::MOST_OPEN_TOURNAMENTS;
use arbiter::ids::GameId;
use arbiter::ids::Place;
use arbiter::ids::ServerId;
use arbiter::ids::UserId;
use arbiter::model::GameSetup;
use arbiter::model::GameStatus;
use arbiter::model::WhitePlayer;
use arbiter_engine::VariantId;
use fake_discord::FakeDiscord;
use fake_discord::Invoker;
use fake_discord::command_interaction;
use fake_discord::component_interaction;
use fake_discord::dm_component_interaction;
use fake_discord::in_guild;
use fake_discord::user_json;
use serde_json::Value;
use serde_json::json;
use std::time::Duration;

fn mallory() -> Invoker {
    Invoker {
        user_id: 1_666,
        name: "mallory".into(),
    }
}

/// `/import` of `record` by `who`, playing `side` (0 White, 1 Black), against `opponent` if any.
fn import(bot: &Bot, who: &Invoker, record: &str, side: u8, opponent: Option<&Invoker>) -> Value {
    let attachment = bot.fake.attach("forged.pgn", record.as_bytes());
    let id = attachment["id"].as_str().unwrap().to_string();
    let mut options = vec![
        json!({ "name": "file", "type": 11, "value": id }),
        json!({ "name": "side", "type": 4, "value": side }),
    ];
    let mut users = serde_json::Map::new();
    if let Some(opponent) = opponent {
        options.push(json!({ "name": "opponent", "type": 6, "value": opponent.user_id.to_string() }));
        users.insert(
            opponent.user_id.to_string(),
            user_json(opponent.user_id, &opponent.name, false),
        );
    }
    let mut interaction = command_interaction(next_id(), who, CHANNEL, "import", Value::Array(options));
    interaction["data"]["resolved"] = json!({ "attachments": { id: attachment }, "users": users });
    interaction
}

/// Discord's `resolved` data for a command naming alice.
fn resolved_alice() -> Value {
    json!({ "users": { "1001": user_json(1_001, "alice", false) } })
}

/// The game a post is about, from its first button ("arb:kind:GAME:VERSION").
fn game_of(call: &fake_discord::Call) -> i64 {
    let id = custom_ids(&call.json).into_iter().next().expect("a button");
    id.split(':').nth(2).unwrap().parse().unwrap()
}

const FORGED: &str =
    "[White \"bob\"]\n[Black \"carol\"]\n[WhiteId \"discord:1002\"]\n[BlackId \"discord:1003\"]\n\n1. f3 e5 2. g4 *\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_import_makes_nobody_a_player_and_never_moves_a_rating() {
    let bot = Bot::start().await;
    // Studied alone: the record's ids name bob and carol, who play nothing and are pinged by nothing.
    let study = bot.interact(import(&bot, &mallory(), FORGED, 0, None)).await;
    let text = content(&study);
    assert!(
        text.contains("<@1666> imported a game record (bob vs carol, 3 actions) to study"),
        "{text}"
    );
    assert_eq!(
        study.json["data"]["allowed_mentions"]["users"],
        json!(["1666"]),
        "{}",
        study.json
    );
    let game: i64 = text
        .split("Game #")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let carol_moves = bot
        .command(
            &carol(),
            CHANNEL,
            "move",
            json!([{ "name": "action", "type": 3, "value": "Qh4#" }, { "name": "game", "type": 4, "value": game }]),
        )
        .await;
    assert!(
        content(&carol_moves).contains(&format!("you are not playing in game #{game}")),
        "{}",
        carol_moves.json
    );
    let mate = bot
        .command(
            &mallory(),
            CHANNEL,
            "move",
            json!([{ "name": "action", "type": 3, "value": "Qh4#" }, { "name": "game", "type": 4, "value": game }]),
        )
        .await;
    assert!(content(&mate).contains("wins by checkmate"), "{}", mate.json);

    // Offered to carol (mallory plays Black): bob cannot answer for her; she accepts; the game is
    // played to mate and is still not rated.
    let offer = bot.interact(import(&bot, &mallory(), FORGED, 1, Some(&carol()))).await;
    assert!(
        content(&offer).contains("offers <@1003> the rest of an imported game"),
        "{}",
        offer.json
    );
    let accept = button(&offer, "arb:accept:", "");
    let message = bot.message_of(&offer);
    let by_bob = bot.click(&bob(), CHANNEL, &accept, message).await;
    assert!(content(&by_bob).contains("only <@1003> can answer"), "{}", by_bob.json);
    let accepted = bot.click(&carol(), CHANNEL, &accept, message).await;
    assert_eq!(accepted.json["type"], 7, "{}", accepted.json);
    let thread = message;
    let mate = bot.play(&mallory(), thread, "Qh4#").await;
    assert!(content(&mate).contains("wins by checkmate"), "{}", mate.json);
    for user in ["discord:1666", "discord:1002", "discord:1003"] {
        let ratings = bot
            .arena
            .store()
            .ratings_of(
                Some(&arbiter::ids::ServerId::new(format!(
                    "discord-guild:{}",
                    FakeDiscord::GUILD_ID
                ))),
                &arbiter::ids::UserId::new(user),
            )
            .await
            .unwrap();
        assert!(ratings.is_empty(), "{user}: {ratings:?}");
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_death_match_players_rematch_asks_the_host_and_grants_no_host_powers() {
    let bot = Bot::start().await;
    let started = bot.interact(deathmatch_start(0, None)).await;
    let first = button(&started, "arb:first:", "");
    let game = game_of(&started);
    bot.click(&alice(), CHANNEL, &first, bot.message_of(&started)).await;
    let mut adjudicate = host_command(
        "deathmatch",
        json!([{ "name": "adjudicate", "type": 1, "options": [
            { "name": "result", "type": 4, "value": 0 },
            { "name": "winner", "type": 6, "value": "1001" },
            { "name": "game", "type": 4, "value": game },
        ] }]),
    );
    adjudicate["data"]["resolved"] = resolved_alice();
    let ended = bot.interact(adjudicate).await;
    let rematch = button(&ended, "arb:rematch:", "");
    let asked = bot.click(&alice(), CHANNEL, &rematch, bot.message_of(&ended)).await;
    assert!(!content(&asked).contains("⚠️"), "{}", asked.json);
    let ask = wait_for_nth(&bot, CHANNEL, 1, |c| content(c).contains("asks for a rematch")).await;
    assert!(
        content(&ask).contains("<@1009>, the rematch is yours to start"),
        "{}",
        ask.json
    );
    assert_eq!(ask.json["allowed_mentions"]["users"], json!(["1009"]));
    // alice holds no host power over the match she played, before or after asking.
    for (command, options) in [
        (
            "addtime",
            json!([{ "name": "player", "type": 6, "value": "1001" }, { "name": "time", "type": 3, "value": "5m" }]),
        ),
        (
            "adjudicate",
            json!([{ "name": "result", "type": 4, "value": 0 }, { "name": "winner", "type": 6, "value": "1001" }]),
        ),
    ] {
        let mut options = options;
        options
            .as_array_mut()
            .unwrap()
            .push(json!({ "name": "game", "type": 4, "value": game }));
        let mut tried = command_interaction(
            next_id(),
            &alice(),
            CHANNEL,
            "deathmatch",
            json!([{ "name": command, "type": 1, "options": options }]),
        );
        tried["data"]["resolved"] = resolved_alice();
        let tried = bot.interact(tried).await;
        assert!(content(&tried).contains("only the host"), "{command}: {}", tried.json);
    }
    // The host starts it, and hosts it.
    let started = bot
        .click(
            &host(),
            CHANNEL,
            &button(&ask, "arb:rematch:", ""),
            bot.message_of(&ask),
        )
        .await;
    assert!(!content(&started).contains("⚠️"), "{}", started.json);
    let second = wait_for_nth(&bot, CHANNEL, 1, |c| content(c).contains("Death Match #")).await;
    assert!(content(&second).contains("hosted by <@1009>"), "{}", second.json);
    bot.stop().await;
}

/// A command sent from the other server (channel 7,000 there), by a member who manages it when
/// `manages`.
fn elsewhere(who: &Invoker, command: &str, options: Value, manages: bool) -> Value {
    let mut interaction = in_guild(
        command_interaction(next_id(), who, 7_000, command, options),
        FakeDiscord::OTHER_GUILD_ID,
    );
    if manages {
        interaction["member"]["permissions"] = json!(MANAGING.to_string());
    }
    interaction
}

/// Manage Server, View Channel and Send Messages.
const MANAGING: u64 = (1 << 5) | (1 << 10) | (1 << 11);

/// A subcommand's options as Discord sends them.
fn subcommand(name: &str, options: Value) -> Value {
    json!([{ "name": name, "type": 1, "options": options }])
}

/// Asks the same thing about a number that exists (`there`) and one that exists nowhere
/// (`nowhere`), and checks both get the one refusal, `refusal` with each number in it.
async fn same_refusal(bot: &Bot, what: &str, ask: impl Fn(i64) -> Value, there: i64, nowhere: i64, refusal: &str) {
    let answers = [bot.interact(ask(there)).await, bot.interact(ask(nowhere)).await];
    let [said_there, said_nowhere] = [(&answers[0], there), (&answers[1], nowhere)].map(|(answer, number)| {
        let said = content(answer);
        assert!(is_ephemeral(answer), "{what}: {}", answer.json);
        assert!(
            said.contains(&format!("{refusal}{number} here")),
            "{what} #{number}: {said}"
        );
        said.replace(&format!("#{number} "), "#N ")
    });
    assert_eq!(said_there, said_nowhere, "{what}: the same answer either way");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_servers_tournaments_matches_and_games_are_not_there() {
    let bot = Bot::start().await;
    let created = bot
        .interact(host_command(
            "tournament",
            json!([{ "name": "create", "type": 1, "options": [{ "name": "name", "type": 3, "value": "Club night" }] }]),
        ))
        .await;
    assert!(content(&created).contains("Tournament #1"), "{}", created.json);
    // A stranger on another server, and a member who manages that other server: the same answer
    // for this server's tournament #1 as for #99, which exists nowhere.
    for (sub, who, manages) in [
        ("join", carol(), false),
        ("standings", carol(), false),
        ("show", carol(), false),
        ("pair", mallory(), true),
        ("start", mallory(), true),
        ("close-round", mallory(), true),
    ] {
        let ask = |number: i64| {
            let options = json!([{ "name": "tournament", "type": 4, "value": number }]);
            elsewhere(&who, "tournament", subcommand(sub, options), manages)
        };
        same_refusal(&bot, sub, ask, 1, 99, "there is no tournament #").await;
    }
    // A game of this server: its players may look at it from anywhere, nobody else from
    // elsewhere, who learns nothing of it, not even its game (`/rules` names none).
    let (game, _) = bot.started(variant_index(VariantId::Chess)).await;
    let (game, nowhere) = (game.get(), game.get() + 1_000);
    for command in ["board", "moves", "export", "rules"] {
        let ask = |number: i64| {
            elsewhere(
                &carol(),
                command,
                json!([{ "name": "game", "type": 4, "value": number }]),
                false,
            )
        };
        same_refusal(&bot, command, ask, game, nowhere, "there is no game #").await;
    }
    let own = bot
        .interact(elsewhere(
            &alice(),
            "board",
            json!([{ "name": "game", "type": 4, "value": game }]),
            false,
        ))
        .await;
    assert!(is_ephemeral(&own) && !content(&own).contains("⚠️"), "{}", own.json);
    // A Death Match of this server, run from a server where the caller manages: not there, as
    // a number that exists nowhere is not.
    let started = bot.interact(deathmatch_start(0, None)).await;
    let match_id = game_of(&started);
    let alice_option = |name: &str| json!({ "name": name, "type": 6, "value": "1001" });
    for (sub, options) in [
        ("pause", json!([])),
        ("resume", json!([])),
        (
            "addtime",
            json!([alice_option("player"), { "name": "time", "type": 3, "value": "5m" }]),
        ),
        ("abort", json!([])),
        (
            "adjudicate",
            json!([{ "name": "result", "type": 4, "value": 0 }, alice_option("winner")]),
        ),
    ] {
        let ask = |number: i64| {
            let mut options = options.clone();
            options
                .as_array_mut()
                .unwrap()
                .push(json!({ "name": "game", "type": 4, "value": number }));
            let mut asked = elsewhere(&mallory(), "deathmatch", subcommand(sub, options), true);
            asked["data"]["resolved"] = resolved_alice();
            asked
        };
        same_refusal(&bot, sub, ask, match_id, match_id + 1_000, "there is no game #").await;
    }
    // Ruling on a game of this server as a tournament host of another.
    let ask = |number: i64| {
        let options = json!([
            { "name": "game", "type": 4, "value": number },
            { "name": "result", "type": 4, "value": 2 },
        ]);
        elsewhere(&mallory(), "tournament", subcommand("adjudicate", options), true)
    };
    same_refusal(&bot, "tournament adjudicate", ask, game, nowhere, "there is no game #").await;
    bot.stop().await;
}

/// A chess game of this server between two members the bot has never met (whose names it would
/// have to ask Discord for), started through the arena.
async fn strangers_game(bot: &Bot) -> i64 {
    let (dave, erin) = (UserId::new("discord:2001"), UserId::new("discord:2002"));
    let mut request = ChallengeRequest::untimed(
        &erin,
        GameSetup::new(VariantId::Chess),
        WhitePlayer::Challenger,
        Place::new(format!("discord:{CHANNEL}")),
    );
    request.server = Some(this_server());
    let game = bot
        .arena
        .challenges()
        .challenge(&dave, request)
        .await
        .unwrap()
        .game
        .unwrap();
    bot.arena.challenges().accept(game, &erin).await.unwrap();
    game.get()
}

fn this_server() -> ServerId {
    ServerId::new(format!("discord-guild:{}", FakeDiscord::GUILD_ID))
}

/// The requests made to Discord for the name of user 2001 or 2002.
fn name_requests(bot: &Bot) -> usize {
    bot.fake
        .calls()
        .iter()
        .filter(|c| {
            c.method == "GET"
                && ["2001", "2002"].iter().any(|user| {
                    c.path.ends_with(&format!("/users/{user}")) || c.path.ends_with(&format!("/members/{user}"))
                })
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_refused_asks_discord_for_no_name() {
    let bot = Bot::start().await;
    let game = strangers_game(&bot).await;
    let export = |interaction: Value| {
        let bot = &bot;
        async move { bot.interact(interaction).await }
    };
    let options = json!([{ "name": "game", "type": 4, "value": game }]);
    let refused = export(elsewhere(&carol(), "export", options.clone(), false)).await;
    assert!(
        content(&refused).contains(&format!("there is no game #{game} here")),
        "{}",
        refused.json
    );
    assert!(refused.files.is_empty());
    assert_eq!(name_requests(&bot), 0, "no name asked of Discord before refusing");
    // On the game's own server the record names its players, asking Discord who they are.
    let exported = export(command_interaction(next_id(), &carol(), CHANNEL, "export", options)).await;
    assert!(!exported.files.is_empty(), "{}", exported.json);
    assert!(name_requests(&bot) > 0, "the names were asked for once allowed");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_lists_only_the_games_of_the_server_it_is_asked_on() {
    let bot = Bot::start().await;
    // alice plays a game here, and one on the other server.
    let (here, _) = bot.started(variant_index(VariantId::Chess)).await;
    let mut request = ChallengeRequest::untimed(
        &UserId::new("discord:1002"),
        GameSetup::new(VariantId::Chess),
        WhitePlayer::Challenger,
        Place::new("discord:7000"),
    );
    request.server = Some(ServerId::new(format!("discord-guild:{}", FakeDiscord::OTHER_GUILD_ID)));
    let alice_id = UserId::new("discord:1001");
    let there = bot
        .arena
        .challenges()
        .challenge(&alice_id, request)
        .await
        .unwrap()
        .game
        .unwrap();
    bot.arena
        .challenges()
        .accept(there, &UserId::new("discord:1002"))
        .await
        .unwrap();
    let profile = |interaction: Value| {
        let mut interaction = interaction;
        interaction["data"]["resolved"] = resolved_alice();
        let bot = &bot;
        async move { content(&bot.interact(interaction).await) }
    };
    let of_alice = json!([{ "name": "user", "type": 6, "value": "1001" }]);
    let on_this_server = profile(command_interaction(
        next_id(),
        &carol(),
        CHANNEL,
        "profile",
        of_alice.clone(),
    ))
    .await;
    assert!(on_this_server.contains(&format!("#{here} Chess")), "{on_this_server}");
    assert!(!on_this_server.contains(&format!("#{there} ")), "{on_this_server}");
    let on_the_other = profile(elsewhere(&carol(), "profile", of_alice, false)).await;
    assert!(on_the_other.contains(&format!("#{there} Chess")), "{on_the_other}");
    assert!(!on_the_other.contains(&format!("#{here} ")), "{on_the_other}");
    bot.stop().await;
}

/// How many of `count` quick commands were refused as too fast.
async fn slowed_down(bot: &Bot, count: usize, interaction: impl Fn() -> Value) -> usize {
    let mut refused = 0;
    for _ in 0..count {
        let answer = bot.interact(interaction()).await;
        if content(&answer).contains("going faster than I can follow") {
            refused += 1;
        }
    }
    refused
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn managing_a_server_of_ones_own_exempts_nobody_elsewhere() {
    let bot = Bot::start().await;
    // On their own server, creating matches counts like any command: past the burst (20), each
    // is slowed...
    let start = || {
        let mut start = elsewhere(
            &mallory(),
            "deathmatch",
            subcommand(
                "start",
                json!([
                    { "name": "game", "type": 4, "value": 0 },
                    { "name": "player1", "type": 6, "value": "1001" },
                    { "name": "player2", "type": 6, "value": "1002" },
                    { "name": "advantage", "type": 6, "value": "1001" },
                ]),
            ),
            true,
        );
        start["data"]["resolved"] = json!({ "users": {
            "1001": user_json(1_001, "alice", false),
            "1002": user_json(1_002, "bob", false),
        } });
        start
    };
    assert_eq!(slowed_down(&bot, 40, start).await, 20, "creating matches");
    let create = || {
        let options = json!([{ "name": "name", "type": 3, "value": "Flood" }]);
        elsewhere(&mallory(), "tournament", subcommand("create", options), true)
    };
    assert_eq!(slowed_down(&bot, 3, create).await, 3, "creating tournaments");
    // ...while acting on what is open there is not limited, with the burst spent...
    let resolved = json!({ "users": { "1001": user_json(1_001, "alice", false) } });
    let alice_option = |name: &str| json!({ "name": name, "type": 6, "value": "1001" });
    let game = json!({ "name": "game", "type": 4, "value": 999 });
    let tournament = json!([{ "name": "tournament", "type": 4, "value": 99 }]);
    let acting = [
        ("deathmatch", "pause", json!([game])),
        ("deathmatch", "resume", json!([game])),
        (
            "deathmatch",
            "addtime",
            json!([alice_option("player"), { "name": "time", "type": 3, "value": "5m" }, game]),
        ),
        (
            "deathmatch",
            "adjudicate",
            json!([{ "name": "result", "type": 4, "value": 0 }, alice_option("winner"), game]),
        ),
        ("deathmatch", "abort", json!([game])),
        ("tournament", "start", tournament.clone()),
        ("tournament", "pair", tournament.clone()),
        ("tournament", "close-round", tournament),
        (
            "tournament",
            "adjudicate",
            json!([game, { "name": "result", "type": 4, "value": 2 }]),
        ),
    ];
    for (command, sub, options) in acting {
        let act = || {
            let mut act = elsewhere(&mallory(), command, subcommand(sub, options.clone()), true);
            act["data"]["resolved"] = resolved.clone();
            act
        };
        assert_eq!(slowed_down(&bot, 5, act).await, 0, "{command} {sub}");
    }
    // ...but their other commands are, there too...
    let own_games = || elsewhere(&mallory(), "games", json!([]), true);
    assert!(
        slowed_down(&bot, 40, own_games).await > 0,
        "a manager's player commands are limited"
    );
    // ...and on a server they do not manage, everything they send is.
    let carol_hosts_nothing = || {
        command_interaction(
            next_id(),
            &carol(),
            CHANNEL,
            "deathmatch",
            subcommand("pause", json!([{ "name": "game", "type": 4, "value": 999 }])),
        )
    };
    assert!(slowed_down(&bot, 40, carol_hosts_nothing).await > 0, "no host here");
    bot.stop().await;
}

/// A host floods their server with matches and tournaments: past the burst they are slowed
/// like anyone; past the caps, refused with the cap named; and the matches open still answer
/// their host at once, the burst spent or not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_creation_flood_is_slowed_then_capped_while_open_matches_answer_their_host() {
    let bot = Bot::start().await;
    let tournament = |name: &str| {
        host_command(
            "tournament",
            subcommand("create", json!([{ "name": "name", "type": 3, "value": name }])),
        )
    };
    for n in 1..=MOST_OPEN_TOURNAMENTS {
        let created = bot.interact(tournament(&format!("Night {n}"))).await;
        assert!(
            content(&created).contains(&format!("Tournament #{n}")),
            "{}",
            created.json
        );
    }
    let refused = bot.interact(tournament("One too many")).await;
    assert!(
        content(&refused).contains(&format!(
            "this server already has {MOST_OPEN_TOURNAMENTS} tournaments open, the most it may: finish one first"
        )),
        "{}",
        refused.json
    );
    // The burst back (no deadline falls due meanwhile), then matches at one moment.
    bot.clock.advance(30_000);
    let mut started = Vec::new();
    let mut slowed = 0;
    for _ in 0..30 {
        let answer = bot.interact(deathmatch_start(0, None)).await;
        if content(&answer).contains("going faster than I can follow") {
            slowed += 1;
        } else {
            assert!(content(&answer).contains("Death Match #"), "{}", answer.json);
            started.push(answer);
        }
    }
    assert_eq!((started.len(), slowed), (20, 10), "the burst, then slowed");
    // A second apart, the cap is what refuses.
    while (started.len() as i64) < MOST_OPEN_MATCHES {
        bot.clock.advance(1_000);
        let answer = bot.interact(deathmatch_start(0, None)).await;
        assert!(content(&answer).contains("Death Match #"), "{}", answer.json);
        started.push(answer);
    }
    bot.clock.advance(1_000);
    let refused = bot.interact(deathmatch_start(0, None)).await;
    assert!(
        content(&refused).contains(&format!(
            "this server already has {MOST_OPEN_MATCHES} Death Matches open, the most it may: finish or abort one first"
        )),
        "{}",
        refused.json
    );
    // The host's burst is spent; the open matches still answer them.
    let first = &started[0];
    let match_id = game_of(first);
    bot.click(
        &alice(),
        CHANNEL,
        &button(first, "arb:first:", ""),
        bot.message_of(first),
    )
    .await;
    let act = |sub: &str| {
        let options = json!([{ "name": "game", "type": 4, "value": match_id }]);
        host_command("deathmatch", subcommand(sub, options))
    };
    for (sub, said) in [
        ("pause", "paused the clocks"),
        ("resume", "resumed the clocks"),
        ("abort", "aborted the match"),
    ] {
        let answer = bot.interact(act(sub)).await;
        assert!(content(&answer).contains(said), "{sub}: {}", answer.json);
    }
    // One finished makes room for one more.
    bot.clock.advance(1_000);
    let more = bot.interact(deathmatch_start(0, None)).await;
    assert!(content(&more).contains("Death Match #"), "{}", more.json);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_news_for_a_player_with_closed_dms_never_reaches_a_public_call() {
    let bot = Bot::start().await;
    bot.fake.close_dms_of(1_001);
    let bob_dm = FakeDiscord::dm_channel_id(1_002);
    let (game, thread) = bot.started(variant_index(VariantId::Rejection)).await;
    bot.play(&alice(), thread, "e4").await;
    let offer = wait_for_nth(&bot, bob_dm, 1, |c| content(c).contains("proposes e4")).await;
    let accept = button(&offer, "arb:answer:", ":accept");
    let private = [next_id(), next_id()];
    bot.interact(dm_component_interaction(
        private[0],
        &bob(),
        bob_dm,
        &accept,
        2,
        Vec::new(),
        bot.shown(bob_dm, &accept),
    ))
    .await;
    // alice's news ("Black accepted your proposal") cannot go by DM: the thread says only that
    // she has private news, and its button shows it to her alone.
    let pointer = wait_for_nth(&bot, thread, 1, |c| content(c).contains("private news")).await;
    assert!(
        content(&pointer).contains(&format!("private news in game #{game}")),
        "{}",
        pointer.json
    );
    let news = bot
        .interact(component_interaction(
            private[1],
            &alice(),
            thread,
            &button(&pointer, "arb:private:", ""),
            2,
            Vec::new(),
            bot.message_of(&pointer),
        ))
        .await;
    assert!(is_ephemeral(&news), "{}", news.json);
    assert!(content(&news).contains("accepted your proposal"), "{}", news.json);
    let public = public_text(&bot.fake, &private);
    assert!(
        !public.contains("accepted your proposal"),
        "private news in public: {public}"
    );
    bot.stop().await;
}

/// Rejection: after a rejected proposal, alice's menu of the moves left. A turn later that menu
/// is stale, its choices replaced by another rejection's: a move from it that is legal again now
/// changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_secret_menu_whose_options_changed_changes_nothing() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(variant_index(VariantId::Rejection)).await;
    let (alice_dm, bob_dm) = (FakeDiscord::dm_channel_id(1_001), FakeDiscord::dm_channel_id(1_002));
    let reject = |proposal: &'static str, nth: usize| {
        let bot = &bot;
        async move {
            let offer = wait_for_nth(bot, bob_dm, nth, |c| content(c).contains("proposes")).await;
            assert!(content(&offer).contains(proposal), "{}", offer.json);
            let button = button(&offer, "arb:answer:", ":reject");
            let rejected = bot
                .interact(dm_component_interaction(
                    next_id(),
                    &bob(),
                    bob_dm,
                    &button,
                    2,
                    Vec::new(),
                    bot.shown(bob_dm, &button),
                ))
                .await;
            assert_eq!(rejected.json["type"], 7, "{}", rejected.json);
        }
    };
    let moves_left = |nth: usize| {
        let bot = &bot;
        async move {
            let prompt = wait_for_nth(bot, alice_dm, nth, |c| content(c).contains("rejected")).await;
            custom_ids(&prompt.json)
                .into_iter()
                .find(|id| id.starts_with("arb:menu:"))
                .unwrap()
        }
    };
    bot.play(&alice(), thread, "e4").await;
    reject("e4", 1).await;
    let old_menu = moves_left(1).await;
    bot.play(&alice(), thread, "d4").await;
    bot.play(&bob(), thread, "e5").await;
    bot.play(&alice(), thread, "accept").await;
    bot.play(&alice(), thread, "Nf3").await;
    reject("Nf3", 2).await;
    moves_left(2).await;
    let before = bot.arena.store().game(game).await.unwrap().unwrap();
    // c4 was on the old menu and is legal now, on the new one too.
    let legal = bot
        .arena
        .play()
        .legal_actions(game, &arbiter::ids::UserId::new("discord:1001"))
        .await
        .unwrap();
    assert!(legal.iter().any(|a| a == "c4"), "{legal:?}");
    let stale = bot
        .interact(dm_component_interaction(
            next_id(),
            &alice(),
            alice_dm,
            &old_menu,
            3,
            vec!["c4".into()],
            bot.shown(alice_dm, &old_menu),
        ))
        .await;
    assert!(content(&stale).contains("out of date"), "{}", stale.json);
    let after = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(after.version, before.version, "nothing was played");
    bot.stop().await;
}

/// The gateway drops; the bot resumes its session (no new IDENTIFY) and answers what was sent
/// while it was away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_gateway_is_resumed_and_the_events_missed_are_answered() {
    let bot = Bot::start().await;
    let (identified, _) = bot.fake.sessions();
    bot.fake.drop_connection(0);
    let games = command_interaction(next_id(), &alice(), CHANNEL, "games", json!([]));
    let token = games["token"].as_str().unwrap().to_string();
    let answered = tokio::spawn({
        let fake = bot.fake.clone();
        async move {
            fake.send_interaction(games).await;
            fake.wait_for_call("the answer after resuming", |c| c.path.contains(&token))
                .await
        }
    });
    let answer = tokio::time::timeout(Duration::from_secs(15), answered)
        .await
        .expect("answered within 15 s")
        .unwrap();
    assert!(content(&answer).contains("no open games"), "{}", answer.json);
    let (identified_after, resumed) = bot.fake.sessions();
    assert_eq!(identified_after, identified, "resumed, not identified afresh");
    assert!(resumed >= 1);
    bot.stop().await;
}

/// A command whose options do not match it (a client still showing the command as it was
/// before an update, or a broken payload) gets an answer, and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_that_does_not_match_its_options_is_answered() {
    let bot = Bot::start().await;
    // A user option without the user Discord resolves for it.
    let broken = command_interaction(
        next_id(),
        &alice(),
        CHANNEL,
        "deathmatch",
        json!([{ "name": "addtime", "type": 1, "options": [
            { "name": "player", "type": 6, "value": "1002" },
            { "name": "time", "type": 3, "value": "5m" },
        ] }]),
    );
    let answer = bot.interact(broken).await;
    assert!(is_ephemeral(&answer), "{}", answer.json);
    assert!(
        content(&answer).contains("could not read that command"),
        "{}",
        answer.json
    );
    bot.stop().await;
}

/// Each server chooses its host role: only members who manage it may, and its role then makes
/// hosts there in place of the bot's default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_chooses_its_own_host_role() {
    let bot = Bot::start().await;
    let role = json!({
        "id": "77", "name": "Show hosts", "color": 0, "hoist": false, "position": 1,
        "permissions": "0", "managed": false, "mentionable": false, "flags": 0, "icon": null,
        "unicode_emoji": null,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
    });
    let set_role = |who: &Invoker, permissions: u64| {
        let mut interaction = command_interaction(
            next_id(),
            who,
            CHANNEL,
            "settings",
            json!([{ "name": "host-role", "type": 1, "options": [{ "name": "role", "type": 8, "value": "77" }] }]),
        );
        interaction["data"]["resolved"] = json!({ "roles": { "77": role.clone() } });
        interaction["member"]["permissions"] = json!(permissions.to_string());
        interaction
    };
    let refused = bot.interact(set_role(&carol(), (1 << 10) | (1 << 11))).await;
    assert!(
        content(&refused).contains("only members with the Manage Server permission"),
        "{}",
        refused.json
    );
    let set = bot
        .interact(set_role(&mallory(), (1 << 5) | (1 << 10) | (1 << 11)))
        .await;
    assert!(is_ephemeral(&set) && content(&set).contains("<@&77>"), "{}", set.json);
    // The bot's default role (the harness's host) no longer hosts here; role 77 does.
    let by_default_role = bot.interact(deathmatch_start(0, None)).await;
    assert!(
        content(&by_default_role).contains("only hosts"),
        "{}",
        by_default_role.json
    );
    let mut by_new_role = deathmatch_start(0, None);
    by_new_role["member"]["roles"] = json!(["77"]);
    let started = bot.interact(by_new_role).await;
    assert!(content(&started).contains("Death Match #"), "{}", started.json);
    bot.stop().await;
}

/// Discord says DMs are being opened too fast: the bot waits and sends them, rather than take
/// the players' DMs for closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dms_opened_too_fast_are_waited_for_not_given_up() {
    let bot = Bot::start().await;
    bot.fake.fail(
        "POST",
        "/users/@me/channels",
        fake_discord::Failure::OpeningDmsTooFast,
        2,
    );
    let (_, thread) = bot.started(variant_index(VariantId::Beirut)).await;
    for dm in [FakeDiscord::dm_channel_id(1_001), FakeDiscord::dm_channel_id(1_002)] {
        let prompt = wait_for_nth(&bot, dm, 1, |c| content(c).contains("bomb carrier")).await;
        assert!(custom_ids(&prompt.json).iter().any(|id| id.starts_with("arb:menu:")));
    }
    let refused = bot
        .fake
        .calls()
        .iter()
        .filter(|c| c.path.ends_with("/users/@me/channels") && c.status == 403)
        .count();
    assert_eq!(refused, 2, "both refusals were met and waited out");
    let fallbacks = fake_discord_posts(&bot, thread, "could not send you a direct message");
    assert_eq!(fallbacks, 0, "nobody was told their DMs are closed");
    bot.stop().await;
}

fn fake_discord_posts(bot: &Bot, channel: u64, containing: &str) -> usize {
    bot::posts_in(&bot.fake, channel)
        .iter()
        .filter(|c| content(c).contains(containing))
        .count()
}

/// A member spamming commands or buttons is slowed down privately; nothing they sent past the
/// limit is done, and other members are not affected. The limit (a burst of 20, then one a
/// second) keeps the arena's time, which stands still here unless the test moves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_spamming_commands_and_buttons_is_asked_to_slow_down() {
    let bot = Bot::start().await;
    // A challenge to carol, by alice: its Decline button is carol's to press.
    let challenge = bot.challenge(&alice(), &carol(), 0, 1).await;
    let decline = button(&challenge, "arb:decline:", "");
    let game: GameId = decline.split(':').nth(2).unwrap().parse().unwrap();
    let message = bot.message_of(&challenge);

    // 25 commands sent at once, as a spamming client would: the burst of 20 passes.
    let ids: Vec<u64> = (0..25).map(|_| next_id()).collect();
    for &id in &ids {
        let games = command_interaction(id, &carol(), CHANNEL, "games", json!([]));
        bot.fake.send_interaction(games).await;
    }
    let mut slowed = 0;
    for id in ids {
        let path = format!("/interactions/{id}/");
        let answer = bot.fake.wait_for_call("an answer", |c| c.path.contains(&path)).await;
        if content(&answer).contains("faster than I can follow") {
            assert!(
                is_ephemeral(&answer) && content(&answer).contains("Nothing was done"),
                "{}",
                answer.json
            );
            slowed += 1;
        }
    }
    assert_eq!(slowed, 5, "a burst of 20 passes, the other 5 are slowed");
    // A button is counted the same way: slowed, and the challenge is not declined.
    let click = bot.click(&carol(), CHANNEL, &decline, message).await;
    assert!(content(&click).contains("faster than I can follow"), "{}", click.json);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Challenge, "the challenge was not declined");
    // Someone else is served as usual.
    let games = bot.command(&alice(), CHANNEL, "games", json!([])).await;
    assert!(!content(&games).contains("faster"), "{}", games.json);
    // A second later, one more action is allowed: the click goes through.
    bot.clock.advance(1_000);
    bot.click(&carol(), CHANNEL, &decline, message).await;
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Declined, "declined once time allowed");
    bot.stop().await;
}
