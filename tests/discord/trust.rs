//! The doors of trust, tried through the fake Discord as a stranger, a player or a member with a
//! server of their own would: nobody plays, hosts or reads for someone else, on any server, and
//! nothing private reaches a public call or the log (docs/security.md lists each door with the
//! test that keeps it closed).

use crate::bot;
use crate::bot::{
    Bot, CHANNEL, alice, bob, button, carol, content, custom_ids, deathmatch_start, host, host_command, is_ephemeral,
    next_id, public_text, variant_index, wait_for_nth,
};
use arbiter_engine::VariantId;
use fake_discord::{
    FakeDiscord, Invoker, command_interaction, component_interaction, dm_component_interaction, in_guild, user_json,
};
use serde_json::{Value, json};

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
            .ratings_of(&arbiter::ids::UserId::new(user))
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
    let elsewhere = |who: &Invoker, command: &str, options: Value| {
        in_guild(
            command_interaction(next_id(), who, 7_000, command, options),
            FakeDiscord::OTHER_GUILD_ID,
        )
    };
    // A stranger on another server, and a member who manages that other server.
    let mut manager = elsewhere(&mallory(), "tournament", json!([]));
    manager["member"]["permissions"] = json!(((1_u64 << 5) | (1 << 11) | (1 << 10)).to_string());
    for (subcommand, who) in [
        ("join", carol()),
        ("standings", carol()),
        ("show", carol()),
        ("pair", mallory()),
        ("start", mallory()),
    ] {
        let mut asked = elsewhere(
            &who,
            "tournament",
            json!([{ "name": subcommand, "type": 1, "options": [{ "name": "tournament", "type": 4, "value": 1 }] }]),
        );
        asked["member"]["permissions"] = manager["member"]["permissions"].clone();
        let answer = bot.interact(asked).await;
        assert!(
            content(&answer).contains("there is no tournament 1 on this server"),
            "{subcommand}: {}",
            answer.json
        );
    }
    // A game of this server: its players may look at it from anywhere, nobody else from elsewhere.
    let (game, _) = bot.started(variant_index(VariantId::Chess)).await;
    let board = |who: &Invoker| elsewhere(who, "board", json!([{ "name": "game", "type": 4, "value": game }]));
    let refused = bot.interact(board(&carol())).await;
    assert!(
        content(&refused).contains(&format!("there is no game #{game} on this server")),
        "{}",
        refused.json
    );
    let export = bot
        .interact(elsewhere(
            &carol(),
            "export",
            json!([{ "name": "game", "type": 4, "value": game }]),
        ))
        .await;
    assert!(content(&export).contains("on this server"), "{}", export.json);
    let own = bot.interact(board(&alice())).await;
    assert!(is_ephemeral(&own) && !content(&own).contains("⚠️"), "{}", own.json);
    // A Death Match of this server, run from a server where the caller manages: not there.
    let started = bot.interact(deathmatch_start(0, None)).await;
    let match_id = game_of(&started);
    let mut pause = elsewhere(
        &mallory(),
        "deathmatch",
        json!([{ "name": "pause", "type": 1, "options": [{ "name": "game", "type": 4, "value": match_id }] }]),
    );
    pause["member"]["permissions"] = manager["member"]["permissions"].clone();
    let answer = bot.interact(pause).await;
    assert!(
        content(&answer).contains(&format!("there is no Death Match #{match_id} on this server")),
        "{}",
        answer.json
    );
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
    let managing = (1_u64 << 5) | (1 << 10) | (1 << 11);
    // On their own server, a manager's host commands are not limited...
    let own_host_command = || {
        let mut pause = in_guild(
            command_interaction(
                next_id(),
                &mallory(),
                7_000,
                "deathmatch",
                json!([{ "name": "pause", "type": 1, "options": [{ "name": "game", "type": 4, "value": 999 }] }]),
            ),
            FakeDiscord::OTHER_GUILD_ID,
        );
        pause["member"]["permissions"] = json!(managing.to_string());
        pause
    };
    assert_eq!(
        slowed_down(&bot, 40, own_host_command).await,
        0,
        "a host's own commands"
    );
    // ...but their other commands are, there too...
    let own_games = || {
        let mut games = in_guild(
            command_interaction(next_id(), &mallory(), 7_000, "games", json!([])),
            FakeDiscord::OTHER_GUILD_ID,
        );
        games["member"]["permissions"] = json!(managing.to_string());
        games
    };
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
            json!([{ "name": "pause", "type": 1, "options": [{ "name": "game", "type": 4, "value": 999 }] }]),
        )
    };
    assert!(slowed_down(&bot, 40, carol_hosts_nothing).await > 0, "no host here");
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
