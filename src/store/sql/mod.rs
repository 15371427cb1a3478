//! The SQL store: one implementation, generic over the database, serving PostgreSQL and the
//! embedded SQLite. Both speak the same SQL (SQLite accepts `$1` placeholders); what differs is
//! the [`Dialect`]: how a scheduler claims rows others may be claiming, how a transaction that
//! reads then writes takes its locks, and how each connects and migrates.
//!
//! Each role of the store has its file: games.rs (games and their log), deadlines.rs,
//! players.rs (settings, names, lists, ratings), ladders.rs (each server's ladder rebuilt once
//! from the rated games), tournaments.rs. Every impl there repeats the
//! same `where` clause, which says what sqlx must offer for the database: Rust does not carry
//! such bounds along with a trait, so each impl names them.

mod deadlines;
mod games;
mod ladders;
mod players;
mod schema;
mod tournaments;
mod vitals;

use super::{SchemaState, StoreError};
use crate::ids::Places;
use arbiter_engine::VariantId;
use sqlx::{Database, Pool, Postgres, Sqlite};
use std::str::FromStr;
use std::time::Duration;

/// What differs between the databases, as SQL.
pub trait Dialect: Database {
    /// Claims due games (see `Deadlines::claim_due`): `$1` now, `$2` the lease's end, `$3` the
    /// most to claim, `$4` the places (a LIKE pattern).
    const CLAIM_DUE: &'static str;
    /// Reads a scheduler's heartbeat, locking it until the transaction ends.
    const READ_HEARTBEAT: &'static str;
    /// Serializes the beats of the same places before the read, where locking the row cannot
    /// (the very first beat has no row to lock yet).
    const LOCK_HEARTBEAT: Option<&'static str>;
    /// Begins a transaction that will write, taking the write lock first.
    const BEGIN_WRITE: &'static str;
    /// Counts the tables named `$1` where this store keeps its own (1 or 0).
    const HAS_TABLE: &'static str;
}

impl Dialect for Postgres {
    /// PostgreSQL skips rows another scheduler is claiming at the same moment.
    const CLAIM_DUE: &'static str = "UPDATE games SET deadline_lease = $2 WHERE id IN (SELECT id FROM games \
         WHERE next_deadline <= $1 AND (deadline_lease IS NULL OR deadline_lease <= $1) AND location LIKE $4 \
         ESCAPE '\\' ORDER BY next_deadline LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING id, next_deadline";
    const READ_HEARTBEAT: &'static str = "SELECT at FROM heartbeat WHERE places = $1 FOR UPDATE";
    /// A lock on the places' name, held until the transaction ends.
    const LOCK_HEARTBEAT: Option<&'static str> = Some("SELECT pg_advisory_xact_lock(hashtext($1))");
    const BEGIN_WRITE: &'static str = "BEGIN";
    /// The schema the connection works in (a benchmark keeps its tables in one of its own).
    const HAS_TABLE: &'static str = "SELECT COUNT(*) AS n FROM information_schema.tables \
         WHERE table_schema = current_schema() AND table_name = $1";
}

impl Dialect for Sqlite {
    /// SQLite runs one writer at a time, so the same claim needs no row locks.
    const CLAIM_DUE: &'static str = "UPDATE games SET deadline_lease = $2 WHERE id IN (SELECT id FROM games \
         WHERE next_deadline <= $1 AND (deadline_lease IS NULL OR deadline_lease <= $1) AND location LIKE $4 \
         ESCAPE '\\' ORDER BY next_deadline LIMIT $3) RETURNING id, next_deadline";
    const READ_HEARTBEAT: &'static str = "SELECT at FROM heartbeat WHERE places = $1";
    /// BEGIN IMMEDIATE already holds the one write lock.
    const LOCK_HEARTBEAT: Option<&'static str> = None;
    /// A deferred SQLite transaction that reads and then writes fails at once ("database is
    /// locked") when another connection wrote in between, busy timeout or not: IMMEDIATE takes
    /// the write lock first, waiting its turn.
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    const HAS_TABLE: &'static str = "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = $1";
}

static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");
static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// The store over one database's connection pool.
pub struct SqlStore<DB: Database> {
    pool: Pool<DB>,
}

impl<DB: Database> Clone for SqlStore<DB> {
    fn clone(&self) -> Self {
        SqlStore {
            pool: self.pool.clone(),
        }
    }
}

impl<DB: Database> SqlStore<DB> {
    pub fn pool(&self) -> &Pool<DB> {
        &self.pool
    }
}

impl<DB: Dialect> SqlStore<DB>
where
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
{
    /// Begins a transaction that will write (see `Dialect::BEGIN_WRITE`); the wait for a
    /// connection and the write lock is measured.
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, DB>, StoreError> {
        let asked = std::time::Instant::now();
        let transaction = self.pool.begin_with(DB::BEGIN_WRITE).await?;
        crate::telemetry::db_waited(asked.elapsed());
        Ok(transaction)
    }
}

pub type PostgresStore = SqlStore<Postgres>;
pub type SqliteStore = SqlStore<Sqlite>;

impl SqlStore<Postgres> {
    /// Connects and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::connect_with(sqlx::postgres::PgConnectOptions::from_str(url)?).await
    }

    /// The settings every connection gets: a transaction left open by a client that went away
    /// is ended by the server instead of holding its locks forever.
    fn session_settings(options: sqlx::postgres::PgConnectOptions) -> sqlx::postgres::PgConnectOptions {
        options.options([("idle_in_transaction_session_timeout", "60s")])
    }

    /// Connects with explicit options (a search path to keep the tables in their own schema, say).
    pub async fn connect_with(options: sqlx::postgres::PgConnectOptions) -> Result<PostgresStore, StoreError> {
        let pool = PostgresStore::pool_for(options).await?;
        schema::migrate(&pool, &POSTGRES_MIGRATIONS).await?;
        let store = SqlStore { pool };
        store.rebuild_ladders().await?;
        Ok(store)
    }

    /// Where the database's schema stands against this binary's, changing nothing.
    pub async fn schema_state(url: &str) -> Result<SchemaState, StoreError> {
        let pool = PostgresStore::pool_for(sqlx::postgres::PgConnectOptions::from_str(url)?).await?;
        let state = schema::state(&pool, &POSTGRES_MIGRATIONS).await;
        pool.close().await;
        state
    }

    async fn pool_for(options: sqlx::postgres::PgConnectOptions) -> Result<Pool<Postgres>, StoreError> {
        Ok(sqlx::postgres::PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(PostgresStore::session_settings(options))
            .await?)
    }
}

impl SqlStore<Sqlite> {
    /// Opens (creating if need be) and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<SqliteStore, StoreError> {
        let pool = SqliteStore::pool_for(url, true).await?;
        schema::migrate(&pool, &SQLITE_MIGRATIONS).await?;
        let store = SqlStore { pool };
        store.rebuild_ladders().await?;
        Ok(store)
    }

    /// Where the database's schema stands against this binary's, changing nothing (a file that
    /// is not there is not made).
    pub async fn schema_state(url: &str) -> Result<SchemaState, StoreError> {
        let pool = SqliteStore::pool_for(url, false).await?;
        let state = schema::state(&pool, &SQLITE_MIGRATIONS).await;
        pool.close().await;
        state
    }

    /// The newest schema version this binary's SQLite migrations make.
    pub fn known_schema() -> i64 {
        schema::known(&SQLITE_MIGRATIONS)
    }

    /// Writes a consistent copy of the database at `url` to `to` while others go on reading
    /// and writing (SQLite's `VACUUM INTO` reads one snapshot), changing nothing in it, not even
    /// its schema: a backup before an upgrade is taken by the old release. `to` must not exist.
    /// Returns how many games the copy holds.
    pub async fn back_up(url: &str, to: &std::path::Path) -> Result<i64, StoreError> {
        let target = to
            .to_str()
            .ok_or_else(|| StoreError::Corrupt(format!("{} is not a path SQLite can take", to.display())))?;
        let pool = SqliteStore::pool_for(url, false).await?;
        let copied = sqlx::query("VACUUM INTO $1").bind(target).execute(&pool).await;
        pool.close().await;
        copied?;
        let copy = SqliteStore::pool_for(&format!("sqlite://{target}"), false).await?;
        let games = sqlx::query_scalar("SELECT COUNT(*) FROM games").fetch_one(&copy).await;
        copy.close().await;
        Ok(games?)
    }

    /// WAL lets readers work while one writer commits; the busy timeout makes concurrent
    /// writers wait instead of failing.
    async fn pool_for(url: &str, create: bool) -> Result<Pool<Sqlite>, StoreError> {
        let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)?
            .create_if_missing(create)
            .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
            .synchronous(sqlx::sqlite::SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(30));
        Ok(sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?)
    }
}

/// A LIKE pattern for places starting with `prefix` (LIKE's wildcards in it taken literally).
fn like_prefix(places: &Places) -> String {
    let escaped: String = places
        .prefix()
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!("{escaped}%")
}

fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{what}: {e}"))
}

fn variant_of(text: &str) -> Result<VariantId, StoreError> {
    VariantId::parse(text).ok_or_else(|| corrupt("variant", text))
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored types serialise")
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| corrupt(what, e))
}
