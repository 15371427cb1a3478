//! Fresh, migrated databases for tests: an SQLite file in a temporary directory, and a
//! PostgreSQL schema of its own in the server at `TEST_DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`). Outside CI a test skips PostgreSQL with a message
//! when no server answers; in CI (`CI` set) that is a failure.

#![allow(dead_code)]

use arbiter::arena::{Arena, ArenaError, Button, Caller, ChallengeRequest, Effects, MatchRequest};
use arbiter::clock::{Clock, ManualClock, TimeControl};
use arbiter::ids::{GameId, Place, Places, UserId};
use arbiter::model::{GameSetup, LogEntry, WhitePlayer};
use arbiter::scheduler::Scheduler;
use arbiter::store::{PostgresStore, SqliteStore, Store};
use arbiter_engine::{Game, VariantId};
use sqlx::postgres::PgConnectOptions;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

static COUNTER: AtomicU32 = AtomicU32::new(0);

fn unique_name(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    )
}

/// A database under test; dropping it removes what it created.
pub struct TestDb {
    pub name: &'static str,
    pub store: Arc<dyn Store>,
    /// The database itself, for tests that write rows as another version of the code did.
    pub pool: Pool,
    cleanup: Cleanup,
}

/// The connection pool under a test store.
#[derive(Clone)]
pub enum Pool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

enum Cleanup {
    /// A scratch folder, removed when dropped.
    Directory(tempfile::TempDir),
    Schema {
        url: String,
        schema: String,
    },
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::Directory(_) => {}
            Cleanup::Schema { url, schema } => {
                let (url, schema) = (url.clone(), schema.clone());
                // Dropping happens outside any runtime: use a small one of our own.
                let _ = std::thread::spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap();
                    runtime.block_on(async {
                        if let Ok(pool) = sqlx::PgPool::connect(&url).await {
                            let sql = format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE");
                            let _ = sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&pool).await;
                        }
                    })
                })
                .join();
            }
        }
    }
}

pub async fn sqlite() -> TestDb {
    let dir = scratch_dir("arbiter-sqlite-");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
    let store = SqliteStore::connect(&url).await.expect("SQLite opens");
    TestDb {
        name: "sqlite",
        pool: Pool::Sqlite(store.pool().clone()),
        store: Arc::new(store),
        cleanup: Cleanup::Directory(dir),
    }
}

pub fn postgres_url() -> String {
    std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

/// A PostgreSQL store in a schema of its own, or `None` (with a message) when no server answers
/// outside CI.
pub async fn postgres() -> Option<TestDb> {
    let (url, schema, options) = postgres_schema().await?;
    let store = PostgresStore::connect_with(options)
        .await
        .expect("PostgreSQL store connects");
    tally_postgres_test();
    Some(TestDb {
        name: "postgres",
        pool: Pool::Postgres(store.pool().clone()),
        store: Arc::new(store),
        cleanup: Cleanup::Schema { url, schema },
    })
}

/// A new, empty schema of its own in the server at [`postgres_url`]: the server's address, the
/// schema's name, and the options that connect into it. `None` (with a message) when no server
/// answers outside CI; in CI that is a failure.
async fn postgres_schema() -> Option<(String, String, PgConnectOptions)> {
    let url = postgres_url();
    let admin = match sqlx::PgPool::connect(&url).await {
        Ok(pool) => pool,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("skipping the PostgreSQL half of this test: no server at {url} ({e})");
            return None;
        }
        Err(e) => panic!("CI runs the PostgreSQL tests, but no server answers at {url}: {e}"),
    };
    let schema = unique_name("arbiter_test");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA \"{schema}\"")))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let options = PgConnectOptions::from_str(&url)
        .unwrap()
        .options([("search_path", schema.as_str())]);
    Some((url, schema, options))
}

/// Notes that the running test reached PostgreSQL, as a file named after the test in the
/// directory `ARBITER_POSTGRES_TALLY` names (CI counts them: a run in which the PostgreSQL tests
/// silently did nothing fails there). libtest names each test's thread after the test, and a
/// `#[tokio::test]` body runs on that thread.
fn tally_postgres_test() {
    let Some(dir) = std::env::var_os("ARBITER_POSTGRES_TALLY") else {
        return;
    };
    let test = std::thread::current().name().unwrap_or("unnamed").replace("::", ".");
    let binary = std::env::current_exe()
        .ok()
        .and_then(|path| path.file_stem().map(|stem| stem.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(std::path::Path::new(&dir).join(format!("{binary}.{test}")), "");
}

/// The `arbiter` binary with none of the developer's settings: `.env` off and the settings'
/// variables unset, so each test says what the program sees.
pub fn arbiter_binary() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.env("ARBITER_NO_DOTENV", "1");
    for setting in [
        "DATABASE_URL",
        "ARBITER_DATA_DIR",
        "ARBITER_LOG",
        "DISCORD_TOKEN",
        "DISCORD_GUILD_ID",
        "DISCORD_HOST_ROLE_ID",
        "DISCORD_API_BASE",
        "DISCORD_SHARDS",
        "DISCORD_SHARD_RANGE",
        "ARBITER_WEB_ADDR",
        "ARBITER_WEB_URL",
        "ARBITER_METRICS_ADDR",
        "ARBITER_LOG_FORMAT",
        "ARBITER_WEB_MAX_STREAMS",
        "ARBITER_WEB_MAX_STREAMS_PER_ADDR",
        "ARBITER_WEB_STREAM_LIFETIME_SECS",
        "ARBITER_WEB_RATE",
        "ARBITER_WEB_BURST",
        "ARBITER_TRUSTED_PROXIES",
    ] {
        command.env_remove(setting);
    }
    command
}

impl TestDb {
    /// The address another program would open this database at (its `DATABASE_URL`).
    pub fn address(&self) -> String {
        match &self.cleanup {
            Cleanup::Directory(dir) => format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display()),
            Cleanup::Schema { url, schema } => {
                let joint = if url.contains('?') { '&' } else { '?' };
                format!("{url}{joint}options[search_path]={schema}")
            }
        }
    }

    /// Another store on the same database, with connections of its own: what a second process
    /// would have.
    pub async fn another_process(&self) -> Arc<dyn Store> {
        opened(&self.cleanup).await
    }
}

/// A database as an earlier release left it: the migrations up to a version applied, none after.
/// `open` opens it as the bot does when it starts, bringing it up to date.
pub struct EarlierDb {
    pub name: &'static str,
    /// The database itself, to write rows as that release did.
    pub pool: Pool,
    cleanup: Cleanup,
}

impl EarlierDb {
    /// The store over it, as this release opens it (its migrations run).
    pub async fn open(self) -> TestDb {
        TestDb {
            name: self.name,
            store: opened(&self.cleanup).await,
            pool: self.pool,
            cleanup: self.cleanup,
        }
    }
}

/// A store of its own on the database `cleanup` names, opened as the bot opens it.
async fn opened(cleanup: &Cleanup) -> Arc<dyn Store> {
    match cleanup {
        Cleanup::Directory(dir) => {
            let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
            Arc::new(SqliteStore::connect(&url).await.expect("SQLite opens"))
        }
        Cleanup::Schema { url, schema } => {
            let options = PgConnectOptions::from_str(url)
                .unwrap()
                .options([("search_path", schema.as_str())]);
            Arc::new(
                PostgresStore::connect_with(options)
                    .await
                    .expect("PostgreSQL store connects"),
            )
        }
    }
}

/// A scratch folder of its own, removed however the test ends.
fn scratch_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(prefix).tempdir().unwrap()
}

/// This release's migrations for `database` (`sqlite` or `postgres`) up to `version`, as a
/// migrator of their own (copied to a folder of their own, which sqlx reads them from).
async fn migrations_up_to(database: &str, version: i64) -> sqlx::migrate::Migrator {
    let scratch = scratch_dir("arbiter-migrations-");
    let folder = scratch.path();
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(database);
    for entry in std::fs::read_dir(all).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let number: i64 = name.split('_').next().and_then(|n| n.parse().ok()).unwrap_or(i64::MAX);
        if number <= version {
            std::fs::copy(entry.path(), folder.join(&name)).unwrap();
        }
    }
    sqlx::migrate::Migrator::new(folder).await.unwrap()
}

/// Every database available (as [`databases`]), each left at schema `version`.
pub async fn earlier_databases(version: i64) -> Vec<EarlierDb> {
    let dir = scratch_dir("arbiter-sqlite-");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
    let sqlite = sqlx::SqlitePool::connect(&url).await.expect("SQLite opens");
    migrations_up_to("sqlite", version).await.run(&sqlite).await.unwrap();
    let mut all = vec![EarlierDb {
        name: "sqlite",
        pool: Pool::Sqlite(sqlite),
        cleanup: Cleanup::Directory(dir),
    }];
    let Some((url, schema, options)) = postgres_schema().await else {
        return all;
    };
    let postgres = sqlx::PgPool::connect_with(options).await.unwrap();
    migrations_up_to("postgres", version)
        .await
        .run(&postgres)
        .await
        .unwrap();
    tally_postgres_test();
    all.push(EarlierDb {
        name: "postgres",
        pool: Pool::Postgres(postgres),
        cleanup: Cleanup::Schema { url, schema },
    });
    all
}

/// Every database available: SQLite always, PostgreSQL when reachable (always in CI).
pub async fn databases() -> Vec<TestDb> {
    let mut all = vec![sqlite().await];
    all.extend(postgres().await);
    all
}

/// The nodes a position gets in the analyses of tests.
pub const ANALYSIS_NODES: u64 = 20_000;

/// An arena under test with the store beneath it at hand, so a test can look at what was
/// saved. (The transports have no such door: they ask the arena.) It is the arena otherwise.
#[derive(Clone)]
pub struct TestArena {
    arena: Arena,
    store: Arc<dyn Store>,
}

impl TestArena {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> TestArena {
        // Analyses search a little a position: enough for the blunders tests make.
        let thinkers = arbiter::arena::Thinkers::default().analysing_with(ANALYSIS_NODES);
        TestArena {
            arena: Arena::new(store.clone(), clock).with_thinkers(thinkers),
            store,
        }
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The arena itself, for what takes one by value.
    pub fn arena(&self) -> Arena {
        self.arena.clone()
    }
}

impl std::ops::Deref for TestArena {
    type Target = Arena;

    fn deref(&self) -> &Arena {
        &self.arena
    }
}

/// An arena over `db` with a clock the test controls.
pub fn arena(db: &TestDb) -> (TestArena, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let arena = TestArena::new(db.store.clone(), clock.clone() as Arc<dyn Clock>);
    (arena, clock)
}

/// An arena (as [`arena`]) over a fresh SQLite database, which the test keeps (dropping it
/// removes the database).
pub async fn sqlite_arena() -> (TestDb, TestArena, Arc<ManualClock>) {
    let db = sqlite().await;
    let (arena, clock) = arena(&db);
    (db, arena, clock)
}

/// Asserts that the request was refused, as the user's mistake, with a message containing
/// `expected`.
pub fn refused(result: Result<arbiter::arena::Effects, arbiter::arena::ArenaError>, expected: &str) {
    let error = result.expect_err("the request should be refused");
    assert!(error.is_user_error(), "{error:?}");
    let said = arbiter::arena::text::plain(&error.to_string());
    assert!(said.contains(expected), "\"{said}\" should mention \"{expected}\"");
}

/// `user` asking as a player, on no server in particular (the arena's tests play in rooms that
/// belong to none).
pub fn asking(user: &UserId) -> arbiter::arena::Caller {
    arbiter::arena::Caller::player(user, None)
}

/// A record imported into "room" to study alone, the importer playing White.
pub fn to_study() -> arbiter::arena::ImportRequest {
    arbiter::arena::ImportRequest {
        side: arbiter_engine::Seat::First,
        opponent: None,
        location: "room".into(),
    }
}

pub fn alice() -> UserId {
    UserId::new("test:alice")
}
pub fn bob() -> UserId {
    UserId::new("test:bob")
}
pub fn carol() -> UserId {
    UserId::new("test:carol")
}

/// Starts an accepted game of `variant` with alice as White and bob as Black.
pub async fn started(arena: &Arena, variant: VariantId) -> GameId {
    let setup = GameSetup::new(variant);
    let id = arena
        .challenges()
        .challenge(
            &alice(),
            ChallengeRequest::untimed(&bob(), setup, WhitePlayer::Challenger, "room"),
        )
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, &bob()).await.unwrap();
    id
}

/// An untimed challenge to bob in "room", the one most tests have alice send.
pub fn to_bob(setup: GameSetup, white: WhitePlayer) -> ChallengeRequest {
    ChallengeRequest::untimed(&bob(), setup, white, "room")
}

/// `request` under the time control `control`, written as a player writes it ("3d", "10m+5m").
pub fn timed(request: ChallengeRequest, control: &str) -> ChallengeRequest {
    ChallengeRequest {
        control: Some(TimeControl::parse(control).unwrap()),
        ..request
    }
}

/// Sends `challenger`'s challenge: the game it opened, still waiting for its answer.
pub async fn challenged(arena: &Arena, challenger: &UserId, request: ChallengeRequest) -> GameId {
    arena
        .challenges()
        .challenge(challenger, request)
        .await
        .unwrap()
        .game
        .unwrap()
}

/// alice's challenge, accepted by its opponent: the game, begun.
pub async fn accepted(arena: &Arena, request: ChallengeRequest) -> GameId {
    let opponent = request.opponent.clone();
    let id = challenged(arena, &alice(), request).await;
    arena.challenges().accept(id, &opponent).await.unwrap();
    id
}

/// The Death Match `host` opened with `request`: the game, its colours still to choose.
pub async fn opened_match(arena: &Arena, host: &Caller, request: MatchRequest) -> GameId {
    arena.matches().start(host, request).await.unwrap().game.unwrap()
}

/// `importer` imports `record` to study alone (as [`to_study`]).
pub async fn import_to_study(arena: &Arena, importer: &UserId, record: &str) -> Result<Effects, ArenaError> {
    arena.records().import(&asking(importer), to_study(), record).await
}

/// Plays `moves` in order, each by the player written with it; a refused one fails the test,
/// naming it.
pub async fn play_moves(arena: &Arena, id: GameId, moves: &[(&UserId, &str)]) {
    for (user, text) in moves {
        arena
            .play()
            .act(id, user, text)
            .await
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// Plays `moves` (one after another, between spaces) as alice and bob alternately, alice first.
pub async fn play_alternately(arena: &Arena, id: GameId, moves: &str) {
    let (a, b) = (alice(), bob());
    let players = [&a, &b].into_iter().cycle();
    let moves: Vec<(&UserId, &str)> = players.zip(moves.split_whitespace()).collect();
    play_moves(arena, id, &moves).await;
}

/// Plays `moves` in order, each by whichever player the game waits for (the first to act).
pub async fn play_in_turn(arena: &TestArena, id: GameId, moves: &[&str]) {
    for text in moves {
        let game = arena.store().game(id).await.unwrap().unwrap();
        let player = game.player(game.state.to_act()[0]).unwrap().clone();
        play_moves(arena, id, &[(&player, text)]).await;
    }
}

/// `user` presses `button` on game `id`'s post of `version`, seen in `place`.
pub async fn press(
    arena: &Arena,
    id: GameId,
    user: &UserId,
    button: Button,
    version: i64,
    place: &str,
) -> Result<Effects, ArenaError> {
    arena
        .press(id, &asking(user), button, version, &Place::new(place))
        .await
}

/// Stops `scheduler` as a bot going down does: after a last run, with its heartbeat for the
/// places starting with `places` stored.
pub async fn shut_down(arena: &TestArena, scheduler: Scheduler, places: &str) {
    scheduler.run_once().await.unwrap();
    arena
        .store()
        .heartbeat(&Places::starting_with(places), arena.now())
        .await
        .unwrap();
    drop(scheduler);
}

/// An arena started anew on `store` (a process after a restart), with a clock of its own that
/// starts at `now`.
pub fn restarted(store: Arc<dyn Store>, now: i64) -> (TestArena, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(now));
    (TestArena::new(store, clock.clone()), clock)
}

/// How many times game `id`'s log says it ended (once, whoever raced to end it).
pub async fn times_concluded(arena: &TestArena, id: GameId) -> usize {
    let log = arena.store().log(id).await.unwrap();
    log.iter()
        .filter(|e| matches!(e.entry, LogEntry::Conclude { .. }))
        .count()
}

/// Runs `case` on every database (as [`databases`]), first saying on which, with two processes
/// on it: the database's name, each process's arena (a store of its own), and the one clock the
/// test controls for both.
pub async fn racing_on_every_database(
    what: &str,
    case: impl AsyncFn(&'static str, TestArena, TestArena, Arc<ManualClock>),
) {
    for db in databases().await {
        eprintln!("{what} on {}", db.name);
        let (arena, clock) = arena(&db);
        let other = TestArena::new(db.another_process().await, clock.clone());
        case(db.name, arena, other, clock).await;
    }
}

/// The text of every post in `effects`, in order.
pub fn post_texts(effects: &[Effects]) -> Vec<String> {
    effects
        .iter()
        .flat_map(|e| e.posts.iter().map(|p| p.text.clone()))
        .collect()
}

/// Runs a terminal script (`alice: move e4` lines) on a fresh embedded database; what it printed,
/// which holds none of the arena's text marks (`arbiter::arena::text`): the terminal words them all.
pub async fn run_script(script: &str) -> String {
    let db = sqlite().await;
    let (arena, _) = arena(&db);
    let mut out = Vec::new();
    arbiter::local::run(&arena, script.as_bytes(), &mut out, None)
        .await
        .unwrap();
    let output = String::from_utf8(out).unwrap();
    let marked: Vec<&str> = output
        .lines()
        .filter(|line| line.chars().any(|c| ('\u{E000}'..='\u{E00E}').contains(&c)))
        .collect();
    assert!(marked.is_empty(), "unworded arena marks in the terminal: {marked:#?}");
    output
}
