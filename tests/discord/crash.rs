//! The real bot process, on PostgreSQL, killed outright (SIGKILL) in the middle of a burst of
//! moves and clock deadlines, then started again: every move is stored once, no game is
//! half-changed, every deadline fires once, and the players of a move whose answer never went
//! out are shown it after the restart.

use crate::support;
use arbiter::arena::{Caller, ChallengeRequest, MatchRequest};
use arbiter::clock::{Clock, SystemClock, TimeControl};
use arbiter::ids::{GameId, Place, UserId};
use arbiter::model::{GameSetup, LogEntry, WhitePlayer};
use arbiter_engine::{Game, Seat, VariantId};
use fake_discord::{Call, FakeDiscord, Invoker, command_interaction};
use serde_json::json;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const ALICE: u64 = 1_001;
const BOB: u64 = 1_002;
/// Chess games are played in channels from here on, Death Matches from `MATCH_CHANNEL`.
const GAME_CHANNEL: u64 = 81_000;
const MATCH_CHANNEL: u64 = 82_000;

fn invoker(user_id: u64) -> Invoker {
    Invoker {
        user_id,
        name: format!("user{user_id}"),
    }
}

/// `/move action` by `user_id` in `channel`, as interaction `id`; does not wait for the answer.
async fn send_move(fake: &FakeDiscord, id: u64, user_id: u64, channel: u64, action: &str) {
    let options = json!([{ "name": "action", "type": 3, "value": action }]);
    let interaction = command_interaction(id, &invoker(user_id), channel, "move", options);
    fake.send_interaction(interaction).await;
}

fn user(user_id: u64) -> UserId {
    UserId::new(format!("discord:{user_id}"))
}

/// `arbiter bot` on the database at `database`, against the fake; its log goes to `log`.
fn start_bot(fake: &FakeDiscord, database: &str, log: &std::path::Path) -> Child {
    support::arbiter_binary()
        .arg("bot")
        .env("DISCORD_TOKEN", "crash-test-token")
        .env("DISCORD_API_BASE", fake.api_base())
        .env("DISCORD_GUILD_ID", FakeDiscord::GUILD_ID.to_string())
        .env("DATABASE_URL", database)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("a log file"))
        .spawn()
        .expect("the binary starts")
}

fn kill_outright(child: &mut Child) {
    let status = Command::new("sh")
        .args(["-c", &format!("kill -KILL {}", child.id())])
        .status()
        .expect("sh runs");
    assert!(status.success());
    let _ = child.wait();
}

fn content(call: &Call) -> String {
    let json = if call.json["data"].is_object() {
        &call.json["data"]
    } else {
        &call.json
    };
    json["content"].as_str().unwrap_or_default().to_string()
}

fn posts_in(fake: &FakeDiscord, channel: u64) -> Vec<Call> {
    let path = format!("/api/v10/channels/{channel}/messages");
    fake.calls()
        .into_iter()
        .filter(|c| c.method == "POST" && c.path == path && c.status == 200)
        .collect()
}

async fn wait_until(what: &str, within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !done() {
        assert!(Instant::now() < deadline, "{what} did not happen within {within:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A chess game between alice (White) and bob in its own channel, begun.
async fn chess_game(arena: &support::TestArena, channel: u64) -> GameId {
    let request = ChallengeRequest::untimed(
        &user(BOB),
        GameSetup::new(VariantId::Chess),
        WhitePlayer::Challenger,
        format!("discord:{channel}"),
    );
    let id = arena
        .challenges()
        .challenge(&user(ALICE), request)
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, &user(BOB)).await.unwrap();
    id
}

/// A Blockade Death Match in its own channel whose first player runs out of time in `flag_in`.
async fn death_match(arena: &support::TestArena, channel: u64, flag_in: Duration) -> GameId {
    let players = [user(ALICE), user(BOB)];
    let request = MatchRequest {
        variant: VariantId::Blockade,
        players: players.clone(),
        advantage: players[0].clone(),
        control: TimeControl {
            normal_ms: flag_in.as_millis() as i64,
            reserve_ms: 0,
        },
        location: Place::new(format!("discord:{channel}")),
        computer: None,
    };
    let id = arena
        .matches()
        .start(&Caller::host(&UserId::new("discord:1"), None), request)
        .await
        .unwrap()
        .game
        .unwrap();
    arena
        .matches()
        .choose_side(id, &Caller::player(&players[0], None), Seat::First)
        .await
        .unwrap();
    id
}

/// On SQLite (the default deployment) and PostgreSQL alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_killed_mid_burst_loses_no_move_and_fires_each_deadline_once() {
    for db in support::databases().await {
        eprintln!("a bot killed mid-burst, on {}", db.name);
        killed_mid_burst(&db).await;
    }
}

async fn killed_mid_burst(db: &support::TestDb) {
    let database = db.address();
    let arena = support::TestArena::new(db.store.clone(), Arc::new(SystemClock));
    let games: Vec<GameId> = chess_games(&arena, 4).await;
    let fake = FakeDiscord::start().await;
    for i in 0..4 {
        fake.add_channel(GAME_CHANNEL + i, FakeDiscord::GUILD_ID);
        fake.add_channel(MATCH_CHANNEL + i, FakeDiscord::GUILD_ID);
    }
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join(format!("crash-{}.log", db.name));
    let mut bot = start_bot(&fake, &database, &log);
    fake.wait_ready().await;

    // Two matches run out of time while the bot is up...
    let mut matches = Vec::new();
    for (i, flag_in) in [1_000, 1_500].into_iter().enumerate() {
        let channel = MATCH_CHANNEL + i as u64;
        matches.push((
            death_match(&arena, channel, Duration::from_millis(flag_in)).await,
            channel,
        ));
    }
    // Answers to interactions take 30 s to reach Discord: the moves below are saved, and the
    // bot is still waiting to answer them when it is killed.
    fake.slow_down("POST", "/interactions/", Duration::from_secs(30), games.len());
    for i in 0..games.len() {
        send_move(&fake, 50_000 + i as u64, ALICE, GAME_CHANNEL + i as u64, "e4").await;
    }
    let first_forfeits = || {
        matches[..2].iter().all(|&(_, channel)| {
            posts_in(&fake, channel)
                .iter()
                .any(|c| content(c).contains("ran out of time"))
        })
    };
    wait_until("the first two forfeits", Duration::from_secs(30), first_forfeits).await;
    let saved = || async {
        let mut all = true;
        for &game in &games {
            all &= arena.store().log(game).await.unwrap().len() == 1;
        }
        all
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !saved().await {
        assert!(Instant::now() < deadline, "the moves are saved within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    kill_outright(&mut bot);
    let answered_before: Vec<Call> = fake
        .calls()
        .into_iter()
        .filter(|c| c.path.contains("/interactions/") && c.status < 300)
        .collect();
    assert!(answered_before.is_empty(), "no answer got out before the kill");

    // ...and two while it is down: begun now, their flags fall before it starts again.
    for (i, flag_in) in [1_000, 1_200].into_iter().enumerate() {
        let channel = MATCH_CHANNEL + 2 + i as u64;
        matches.push((
            death_match(&arena, channel, Duration::from_millis(flag_in)).await,
            channel,
        ));
    }
    for &(id, _) in &matches[2..] {
        let flag = arena
            .store()
            .game(id)
            .await
            .unwrap()
            .unwrap()
            .next_deadline()
            .expect("a flag");
        while SystemClock.now_ms() <= flag {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let mut bot = start_bot(&fake, &database, &log);
    fake.wait_ready().await;

    // Each game whose move was never answered is shown as it stands, in its channel.
    for i in 0..games.len() {
        let channel = GAME_CHANNEL + i as u64;
        wait_until("the game shown after the restart", Duration::from_secs(30), || {
            posts_in(&fake, channel).iter().any(|c| {
                let text = content(c);
                text.contains("as it stands") && text.contains("(Black) to move")
            })
        })
        .await;
    }
    // Every match forfeits, once in the record.
    for &(id, channel) in &matches {
        wait_until("every forfeit", Duration::from_secs(30), || {
            posts_in(&fake, channel)
                .iter()
                .any(|c| content(c).contains("ran out of time"))
        })
        .await;
        let log = arena.store().log(id).await.unwrap();
        let ends = log
            .iter()
            .filter(|e| matches!(e.entry, LogEntry::Conclude { .. }))
            .count();
        assert_eq!(ends, 1, "match #{id} ends once");
    }
    // The games go on: bob answers, and each game holds both moves once, its position agreeing
    // with its record.
    for (i, &game) in games.iter().enumerate() {
        send_move(&fake, 60_000 + i as u64, BOB, GAME_CHANNEL + i as u64, "e5").await;
        let log = || async { arena.store().log(game).await.unwrap() };
        let deadline = Instant::now() + Duration::from_secs(30);
        while log().await.len() < 2 {
            assert!(Instant::now() < deadline, "bob's move is saved within 30 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let moves: Vec<String> = log().await.into_iter().map(|e| e.notation).collect();
        assert_eq!(moves, ["e4", "e5"], "game #{game}");
        let stored = arena.store().game(game).await.unwrap().unwrap();
        assert_eq!(
            stored.state.to_act(),
            vec![Seat::First],
            "White to move after two plies"
        );
    }
    // Bob's answers are the last thing the bot was asked: once they are out, whatever it had to
    // post before them is out too. Then it is stopped, so no late duplicate can follow the count.
    for i in 0..games.len() {
        let id = 60_000 + i as u64;
        fake.wait_for_call(&format!("the answer to bob's move {id}"), |c| {
            c.path.contains(&format!("/interactions/{id}/"))
        })
        .await;
    }
    kill_outright(&mut bot);
    for &(id, channel) in &matches {
        let forfeits = posts_in(&fake, channel)
            .iter()
            .filter(|c| content(c).contains("ran out of time"))
            .count();
        assert_eq!(forfeits, 1, "match #{id}'s forfeit is posted once");
    }
}

/// `count` chess games, each in its own channel.
async fn chess_games(arena: &support::TestArena, count: usize) -> Vec<GameId> {
    let mut games = Vec::new();
    for i in 0..count {
        games.push(chess_game(arena, GAME_CHANNEL + i as u64).await);
    }
    games
}
