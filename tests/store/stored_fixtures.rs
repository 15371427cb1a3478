//! Games stored by earlier versions of Arbiter still load, replay to the same state and accept
//! their next move, on both databases. The fixtures (tests/fixtures/stored/FORMAT/) are rows
//! exactly as each version wrote them, made by `write_stored_fixtures.rs` of that version and
//! never rewritten: a change that breaks one breaks games in progress.

use crate::support::{Pool, TestDb, databases};
use arbiter::arena::Arena;
use arbiter::clock::{Clock, ManualClock};
use arbiter::ids::{GameId, UserId};
use arbiter::store::formats::{self, rebuild};
use arbiter_engine::{Game, Seat, Viewer};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// Columns holding numbers (the rest hold text); a null is bound with its column's type.
const NUMBER_COLUMNS: [&str; 13] = [
    "game_id",
    "id",
    "version",
    "created_at",
    "updated_at",
    "turn_since",
    "next_deadline",
    "deadline_lease",
    "state_format",
    "seq",
    "at",
    "format",
    "clock_ms",
];

/// Games whose notation a ruling changed after they were stored: their snapshot keeps the
/// record as it was written, a replay writes it as the rules page now does; nothing else
/// differs. Knights are God: a pawn's knight move is `Pd4`, no longer `ed4` (`d4` is the push).
/// (Each names a fixture in every format folder it appears in.)
const RENOTATED: &[(&str, &str, &str)] = &[("/knights-are-god-play-relays", "\"ed4\"", "\"Pd4\"")];

struct Fixture {
    name: String,
    data: Value,
}

fn fixtures() -> Vec<Fixture> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored");
    let mut out = Vec::new();
    for format in std::fs::read_dir(&root).expect("the fixtures folder") {
        let format = format.unwrap().path();
        for file in std::fs::read_dir(&format).unwrap() {
            let path = file.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            out.push(Fixture {
                name: format!(
                    "{}/{}",
                    format.file_name().unwrap().to_string_lossy(),
                    path.file_stem().unwrap().to_string_lossy()
                ),
                data: serde_json::from_str(&text).unwrap(),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Writes a row as it was stored: every column the fixture has, with its value.
async fn insert(pool: &Pool, table: &str, row: &serde_json::Map<String, Value>) {
    let columns: Vec<&String> = row.keys().collect();
    let placeholders: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        columns.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", "),
        placeholders.join(", ")
    );
    macro_rules! bind_all {
        ($query:expr) => {{
            let mut query = $query;
            for column in &columns {
                let value = &row[column.as_str()];
                query = if NUMBER_COLUMNS.contains(&column.as_str()) {
                    query.bind(value.as_i64())
                } else {
                    query.bind(value.as_str().map(str::to_string))
                };
            }
            query
        }};
    }
    match pool {
        Pool::Sqlite(pool) => {
            bind_all!(sqlx::query(sqlx::AssertSqlSafe(sql)))
                .execute(pool)
                .await
                .unwrap();
        }
        Pool::Postgres(pool) => {
            bind_all!(sqlx::query(sqlx::AssertSqlSafe(sql)))
                .execute(pool)
                .await
                .unwrap();
        }
    }
}

/// Writes the fixture's rows under the id `id` (fixtures of several formats share ids).
async fn load_fixture(db: &TestDb, fixture: &Fixture, id: GameId) -> GameId {
    let mut game = fixture.data["game"].as_object().expect("a game row").clone();
    game.insert("id".into(), Value::from(id.get()));
    insert(&db.pool, "games", &game).await;
    for entry in fixture.data["log"].as_array().unwrap() {
        let mut row = entry.as_object().unwrap().clone();
        row.insert("game_id".into(), Value::from(id.get()));
        insert(&db.pool, "game_log", &row).await;
    }
    id
}

fn seat_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "first",
        Seat::Second => "second",
    }
}

async fn check(db: &TestDb, fixture: &Fixture, id: GameId) {
    let name = format!("{} on {}", fixture.name, db.name);
    let id = load_fixture(db, fixture, id).await;
    let game = db
        .store
        .game(id)
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .expect("the game is there");
    let expected = &fixture.data["expected"];
    let view = game.state.view(Viewer::Spectator);
    assert_eq!(view.fen(), expected["fen"].as_str().unwrap(), "{name}: position");
    let record: Vec<&str> = view.record.iter().map(|e| e.text.as_str()).collect();
    let expected_record: Vec<&str> = expected["record"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(record, expected_record, "{name}: record");
    let to_act: Vec<&str> = view.to_act.iter().map(|&s| seat_word(s)).collect();
    let expected_to_act: Vec<&str> = expected["to_act"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(to_act, expected_to_act, "{name}: seats to act");
    let counts: Vec<u64> = view
        .to_act
        .iter()
        .map(|&seat| game.state.legal_actions(seat).len() as u64)
        .collect();
    let expected_counts: Vec<u64> = expected["legal_counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(counts, expected_counts, "{name}: legal actions");
    assert_eq!(
        view.outcome.as_ref().map(|o| o.result_text()),
        expected["result"].as_str(),
        "{name}: result"
    );
    assert_eq!(
        view.outcome.as_ref().map(|o| o.reason.describe()),
        expected["reason"].as_str(),
        "{name}: how it ended"
    );

    // The log replays to the same state (but for the notation a later ruling changed).
    let log = db.store.log(id).await.unwrap();
    let replayed = rebuild(&game.setup, &log).unwrap();
    assert_replays(&name, fixture, &replayed, &game.state, "as stored");
    // A snapshot of the format this build writes is what this build would write: a change to
    // the stored state's shape must come with a new format (store/formats.rs), never silently.
    let stored = &fixture.data["game"];
    if stored["state_format"].as_i64() == Some(formats::FORMAT) {
        let mut written = stored["state"].as_str().unwrap().to_string();
        for (_, was, now) in RENOTATED
            .iter()
            .filter(|(fixture_name, _, _)| fixture.name.ends_with(fixture_name))
        {
            written = written.replace(was, now);
        }
        assert_eq!(
            formats::encode_state(&replayed),
            written,
            "{name}: the state's stored form changed without a new format"
        );
    }

    // And the game goes on.
    if let Some(next) = fixture.data["next"].as_object() {
        let user = UserId::new(format!("test:{}", next["user"].as_str().unwrap()));
        let action = next["action"].as_str().unwrap();
        let clock = Arc::new(ManualClock::new(game.updated_at + 1_000));
        let arena = Arena::new(db.store.clone(), clock as Arc<dyn Clock>);
        arena
            .act(id, &user, action)
            .await
            .unwrap_or_else(|e| panic!("{name}: {action} refused: {e}"));
        let after = db.store.game(id).await.unwrap().unwrap();
        let last = after.state.view(Viewer::Spectator).record.last().cloned().unwrap();
        assert!(
            last.is_hidden || last.text.starts_with(action.trim_end_matches(['+', '#'])),
            "{name}: {action} was recorded as {}",
            last.text
        );
        let log = db.store.log(id).await.unwrap();
        assert_replays(
            &name,
            fixture,
            &rebuild(&after.setup, &log).unwrap(),
            &after.state,
            "after the move",
        );
    }
}

/// The replay of a game's log is the game (but for the notation a later ruling changed, see
/// [`RENOTATED`]).
fn assert_replays(
    name: &str,
    fixture: &Fixture,
    replayed: &arbiter_engine::AnyGame,
    stored: &arbiter_engine::AnyGame,
    when: &str,
) {
    match RENOTATED
        .iter()
        .find(|(fixture_name, _, _)| fixture.name.ends_with(fixture_name))
    {
        None => assert_eq!(replayed, stored, "{name}: replay {when}"),
        Some((_, was, now)) => assert_eq!(
            format!("{replayed:?}"),
            format!("{stored:?}").replace(was, now),
            "{name}: replay {when}, with {was} written {now}"
        ),
    }
}

#[tokio::test]
async fn games_stored_by_every_earlier_format_load_replay_and_go_on() {
    let fixtures = fixtures();
    for format in ["v0", "v1", "v1-clocks"] {
        let count = fixtures
            .iter()
            .filter(|f| f.name.starts_with(&format!("{format}/")))
            .count();
        assert!(
            count >= 14,
            "{format} has a fixture of every variant in every phase ({count})"
        );
    }
    for db in databases().await {
        for (index, fixture) in fixtures.iter().enumerate() {
            check(&db, fixture, GameId::new(1_000 + index as i64)).await;
        }
    }
}
