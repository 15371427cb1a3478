//! Games stored by earlier versions of Arbiter still load, replay to the same state and accept
//! their next move, on both databases. The fixtures (tests/fixtures/stored/FORMAT/) are rows
//! exactly as each version wrote them, made by `write_stored_fixtures.rs` of that version and
//! never rewritten: a change that breaks one breaks games in progress.
//!
//! The fixtures expected are named below: the earlier formats' as they were written, and the
//! format of the day's by variant and phase, every variant of the registry in every phase it has
//! (a variant or a phase without one fails, naming it; so does a fixture in another phase than
//! its name says).

use crate::support::{Pool, TestDb, databases};
use arbiter::arena::Arena;
use arbiter::clock::{Clock, ManualClock};
use arbiter::ids::{GameId, UserId};
use arbiter::model::rebuild;
use arbiter::store::formats;
use arbiter_engine::{AnyGame, Game, Phase, Seat, VariantId, Viewer};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// Columns holding numbers (the rest hold text, or [`BOOLEAN_COLUMNS`] true or false); a null is
/// bound with its column's type. (`tournament` and `unshown` came with migrations 0006 and 0007:
/// only fixtures written since hold them.)
const NUMBER_COLUMNS: [&str; 15] = [
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
    "tournament",
    "unshown",
];

/// Columns holding true or false (stored by SQLite as 1 or 0, as the fixtures keep them):
/// `rated` came with migration 0008.
const BOOLEAN_COLUMNS: [&str; 1] = ["rated"];

/// Games whose notation a ruling changed after they were stored: their snapshot keeps the
/// record as it was written, a replay writes it as the rules page now does; nothing else
/// differs. Knights are God: a pawn's knight move is `Pd4`, no longer `ed4` (`d4` is the push).
/// (Each names a fixture in every format folder it appears in.)
const RENOTATED: &[(&str, &str, &str)] = &[("/knights-are-god-play-relays", "\"ed4\"", "\"Pd4\"")];

/// The fixtures of the earlier formats, as they were written (they are never rewritten): each
/// format wrote every fixture of the format before it, and those named with it here.
const EARLIER: &[(&str, &[&str])] = &[
    (
        "v0",
        &[
            "beirut-choosing",
            "beirut-detonated",
            "beirut-play",
            "blockade-play",
            "blockade-setup",
            "blockade-walled-in",
            "chess-challenge",
            "chess-checkmate",
            "chess-from-fen-promotion-takeback",
            "chess-play-castled-ep-offer",
            "chess-resigned",
            "garden-match-colours",
            "garden-match-play",
            "garden-resigned",
        ],
    ),
    (
        "v1",
        &[
            "assault-sealed",
            "circe-checkmate",
            "circe-play-rebirths",
            "domination-checkmate",
            "domination-play-scored",
            "knights-are-god-checkmate",
            "knights-are-god-play-relays",
            "pick-the-team-picking",
            "portal-checkmate",
            "portal-play-teleports",
            "ultimate-battle-play",
        ],
    ),
    (
        "v1-clocks",
        &[
            "assault-resigned",
            "beirut-timed-choosing",
            "chess-timed",
            "ctf-carrying",
            "ctf-choosing",
            "ctf-resigned",
            "easy-patch-listing-own",
            "easy-patch-picking",
            "easy-patch-picking-own",
            "easy-patch-play",
            "easy-patch-resigned",
            "easy-patch-resigned-listing",
            "garden-play",
            "patch-listing",
            "patch-listing-own",
            "patch-picking-own",
            "patch-play",
            "patch-resigned",
            "pick-the-team-2-listing-own",
            "pick-the-team-2-picking-own",
            "pick-the-team-2-play",
            "pick-the-team-2-resigned",
            "pick-the-team-play",
            "pick-the-team-resigned",
            "rejection-proposed",
            "rejection-rejected",
            "rejection-resigned",
            "ultimate-battle-resigned",
        ],
    ),
];

/// Each earlier format with every fixture it wrote (its own, and those of the formats before it).
fn earlier() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut names = Vec::new();
    let mut formats = Vec::new();
    for (format, added) in EARLIER {
        names.extend_from_slice(added);
        formats.push((*format, names.clone()));
    }
    formats
}

/// The fixtures of the format written today (`write_stored_fixtures::FORMAT`): for each variant
/// (by its stored id), each phase it has (`setup`, `sealed-choice`, `play`, `finished`, as
/// [`phase_word`] names them; `challenge` for a game stored before it was accepted), the
/// fixtures in it.
const CURRENT: &[(&str, &str, &[&str])] = &[
    ("chess", "challenge", &["chess-challenge"]),
    (
        "chess",
        "play",
        &[
            "chess-play-castled-ep-offer",
            "chess-from-fen-promotion-takeback",
            "chess-timed",
        ],
    ),
    ("chess", "finished", &["chess-checkmate", "chess-resigned"]),
    ("blockade", "setup", &["blockade-setup"]),
    ("blockade", "play", &["blockade-play"]),
    ("blockade", "finished", &["blockade-walled-in"]),
    ("garden", "challenge", &["garden-match-colours"]),
    ("garden", "setup", &["garden-match-play"]),
    ("garden", "play", &["garden-play"]),
    ("garden", "finished", &["garden-resigned"]),
    ("beirut", "sealed-choice", &["beirut-choosing", "beirut-timed-choosing"]),
    ("beirut", "play", &["beirut-play"]),
    ("beirut", "finished", &["beirut-detonated"]),
    ("circe", "play", &["circe-play-rebirths"]),
    ("circe", "finished", &["circe-checkmate"]),
    ("portal", "play", &["portal-play-teleports"]),
    ("portal", "finished", &["portal-checkmate"]),
    ("knights-are-god", "play", &["knights-are-god-play-relays"]),
    ("knights-are-god", "finished", &["knights-are-god-checkmate"]),
    ("domination", "play", &["domination-play-scored"]),
    ("domination", "finished", &["domination-checkmate"]),
    ("ultimate-battle", "play", &["ultimate-battle-play"]),
    ("ultimate-battle", "finished", &["ultimate-battle-resigned"]),
    ("pick-the-team", "setup", &["pick-the-team-picking"]),
    ("pick-the-team", "play", &["pick-the-team-play"]),
    ("pick-the-team", "finished", &["pick-the-team-resigned"]),
    ("assault", "play", &["assault-sealed"]),
    ("assault", "finished", &["assault-resigned"]),
    ("rejection", "play", &["rejection-proposed", "rejection-rejected"]),
    ("rejection", "finished", &["rejection-resigned"]),
    ("ctf", "sealed-choice", &["ctf-choosing"]),
    ("ctf", "play", &["ctf-carrying"]),
    ("ctf", "finished", &["ctf-resigned"]),
    ("pick-the-team-2", "sealed-choice", &["pick-the-team-2-listing-own"]),
    ("pick-the-team-2", "setup", &["pick-the-team-2-picking-own"]),
    ("pick-the-team-2", "play", &["pick-the-team-2-play"]),
    ("pick-the-team-2", "finished", &["pick-the-team-2-resigned"]),
    ("patch", "sealed-choice", &["patch-listing", "patch-listing-own"]),
    ("patch", "setup", &["patch-picking-own"]),
    ("patch", "play", &["patch-play"]),
    ("patch", "finished", &["patch-resigned"]),
    ("easy-patch", "sealed-choice", &["easy-patch-listing-own"]),
    ("easy-patch", "setup", &["easy-patch-picking", "easy-patch-picking-own"]),
    ("easy-patch", "play", &["easy-patch-play"]),
    (
        "easy-patch",
        "finished",
        &["easy-patch-resigned", "easy-patch-resigned-listing"],
    ),
];

/// A phase as [`CURRENT`] names it.
fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Setup => "setup",
        Phase::SealedChoice => "sealed-choice",
        Phase::Play => "play",
        Phase::Finished => "finished",
    }
}

/// The phases a game of `id` goes through: those it passes from its start to its play (playing
/// the first legal action of the first seat to act), its play, and finished.
fn phases_of(id: VariantId) -> Vec<&'static str> {
    let mut game = AnyGame::new(id);
    let mut phases = vec![phase_word(game.phase())];
    for _ in 0..1_000 {
        if game.phase() == Phase::Play {
            break;
        }
        let seat = *game.to_act().first().expect("a game goes on until its play");
        let action = game.legal_actions(seat).swap_remove(0);
        game.apply(seat, &action).expect("a legal action applies");
        if !phases.contains(&phase_word(game.phase())) {
            phases.push(phase_word(game.phase()));
        }
    }
    assert_eq!(game.phase(), Phase::Play, "{id} reaches its play");
    phases.push(phase_word(Phase::Finished));
    phases
}

/// The names of the fixtures in a format's folder.
fn names_in(format: &str) -> Vec<String> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stored")
        .join(format);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|file| file.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// What is missing from `found`, and what it has that is not expected, as sentences.
fn compare(format: &str, expected: &[&str], found: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for name in expected {
        if !found.iter().any(|f| f == name) {
            problems.push(format!("{format}/{name}.json is missing"));
        }
    }
    for name in found {
        if !expected.contains(&name.as_str()) {
            problems.push(format!("{format}/{name}.json is not expected: name it here"));
        }
    }
    problems
}

#[test]
fn every_variant_in_every_phase_has_a_fixture() {
    let mut problems = Vec::new();
    for &id in VariantId::ALL {
        let variant = id.info().id;
        for phase in phases_of(id) {
            let named = CURRENT
                .iter()
                .any(|(v, p, names)| *v == variant && *p == phase && !names.is_empty());
            if !named {
                problems.push(format!("{variant} has no fixture in its phase {phase}"));
            }
        }
    }
    for (variant, phase, _) in CURRENT {
        let Some(id) = VariantId::ALL.iter().find(|id| id.info().id == *variant) else {
            problems.push(format!("{variant} is no variant of the registry"));
            continue;
        };
        if *phase != "challenge" && !phases_of(*id).contains(phase) {
            problems.push(format!("{variant} has no phase {phase}"));
        }
    }
    let current: Vec<&str> = CURRENT.iter().flat_map(|(_, _, names)| names.iter().copied()).collect();
    let format = super::write_stored_fixtures::FORMAT;
    problems.extend(compare(format, &current, &names_in(format)));
    for (format, names) in earlier() {
        problems.extend(compare(format, &names, &names_in(format)));
    }
    let folders: Vec<String> =
        std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
    for folder in folders {
        if folder != format && !EARLIER.iter().any(|(f, _)| *f == folder) {
            problems.push(format!(
                "the fixtures' folder {folder} is not expected: name its fixtures here"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

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
pub(super) async fn insert(pool: &Pool, table: &str, row: &serde_json::Map<String, Value>) {
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
                } else if BOOLEAN_COLUMNS.contains(&column.as_str()) {
                    query.bind(value.as_bool().or_else(|| value.as_i64().map(|n| n != 0)))
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
    // A fixture of today's format is of the variant and in the phase it is named for.
    let stored = &fixture.data["game"];
    let stem = fixture.name.rsplit('/').next().unwrap();
    if fixture
        .name
        .starts_with(&format!("{}/", super::write_stored_fixtures::FORMAT))
    {
        let (variant, phase, _) = CURRENT
            .iter()
            .find(|(_, _, names)| names.contains(&stem))
            .unwrap_or_else(|| panic!("{name}: not named in CURRENT"));
        assert_eq!(stored["variant"].as_str(), Some(*variant), "{name}: variant");
        if *phase == "challenge" {
            assert_eq!(stored["status"].as_str(), Some("challenge"), "{name}: status");
        } else {
            assert_eq!(phase_word(game.state.phase()), *phase, "{name}: phase");
        }
    }
    let expected = &fixture.data["expected"];
    let view = game.state.view(Viewer::Spectator);
    assert_eq!(view.fen(), expected["fen"].as_str().unwrap(), "{name}: position");
    let record: Vec<&str> = view.record.iter().map(|e| e.text.as_str()).collect();
    // A snapshot of an earlier format is rebuilt from the log, which writes the record in
    // today's notation (see RENOTATED).
    let is_rebuilt = stored["state_format"].as_i64() != Some(formats::FORMAT);
    let renotated = |text: &str| -> String {
        RENOTATED
            .iter()
            .filter(|(fixture_name, _, _)| is_rebuilt && fixture.name.ends_with(fixture_name))
            .fold(text.to_string(), |text, (_, was, now)| {
                if format!("\"{text}\"") == *was {
                    now.trim_matches('"').to_string()
                } else {
                    text
                }
            })
    };
    let expected_record: Vec<String> = expected["record"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| renotated(t.as_str().unwrap()))
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
    // The fixture names the reason in the words of its day; the reason is what must hold.
    assert_eq!(
        view.outcome.as_ref().map(|o| o.reason),
        expected["reason"]
            .as_str()
            .map(|text| arbiter_engine::EndReason::from_description(text).expect("a reason Arbiter named")),
        "{name}: how it ended"
    );

    // The log replays to the same state (but for the notation a later ruling changed).
    let log = db.store.log(id).await.unwrap();
    let replayed = rebuild(&game.setup, &log).unwrap();
    assert_replays(&name, fixture, &replayed, &game.state, "as stored");
    // A snapshot of the format this build writes is what this build would write: a change to
    // the stored state's shape must come with a new format (store/formats.rs), never silently.
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
            .play()
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
    // (Which fixtures there are is `every_variant_in_every_phase_has_a_fixture`'s.)
    let fixtures = fixtures();
    for db in databases().await {
        for (index, fixture) in fixtures.iter().enumerate() {
            check(&db, fixture, GameId::new(1_000 + index as i64)).await;
        }
    }
}
