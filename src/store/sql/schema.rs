//! The database's schema version. Migrations only move forward: a binary brings an older
//! database up to date, and refuses a database that a newer Arbiter has already moved past it
//! (its tables may mean what this binary cannot know), naming the release it needs.

use super::Dialect;
use crate::store::{SchemaState, StoreError};
use sqlx::migrate::Migrator;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Pool, Row, Type};

/// The newest schema version this binary's migrations make.
pub(super) fn known(migrator: &Migrator) -> i64 {
    migrator.iter().map(|migration| migration.version).max().unwrap_or(0)
}

/// Where the database's schema stands against this binary's, without changing anything.
pub(super) async fn state<DB>(pool: &Pool<DB>, migrator: &Migrator) -> Result<SchemaState, StoreError>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'a> &'a str: ColumnIndex<DB::Row> + Encode<'a, DB> + Type<DB>,
    String: for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'r> Decode<'r, DB> + Type<DB>,
{
    let mut connection = pool.acquire().await?;
    let has_table = |name: &'static str| sqlx::query(DB::HAS_TABLE).bind(name);
    let migrated: i64 = has_table("_sqlx_migrations")
        .fetch_one(&mut *connection)
        .await?
        .try_get("n")?;
    let applied: Option<i64> = if migrated > 0 {
        sqlx::query("SELECT MAX(version) AS newest FROM _sqlx_migrations WHERE success")
            .fetch_one(&mut *connection)
            .await?
            .try_get("newest")?
    } else {
        None
    };
    let recorded: i64 = has_table("schema_versions")
        .fetch_one(&mut *connection)
        .await?
        .try_get("n")?;
    let written_by = if recorded > 0 {
        sqlx::query("SELECT arbiter_version FROM schema_versions ORDER BY version DESC LIMIT 1")
            .fetch_optional(&mut *connection)
            .await?
            .map(|row| row.try_get::<String, _>("arbiter_version"))
            .transpose()?
    } else {
        None
    };
    Ok(SchemaState {
        applied: applied.unwrap_or(0),
        known: known(migrator),
        written_by,
    })
}

/// Brings the schema up to date, unless the database is newer than this binary; then records
/// this release as the one that brought it to the newest version (the first to do so stays).
pub(super) async fn migrate<DB>(pool: &Pool<DB>, migrator: &Migrator) -> Result<(), StoreError>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'a> &'a str: ColumnIndex<DB::Row> + Encode<'a, DB> + Type<DB>,
    String: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    i64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    <DB as sqlx::Database>::Connection: sqlx::migrate::Migrate,
{
    let state = state(pool, migrator).await?;
    if state.is_newer() {
        return Err(StoreError::NewerSchema(state));
    }
    migrator.run(pool).await?;
    sqlx::query(
        "INSERT INTO schema_versions (version, arbiter_version) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING",
    )
    .bind(state.known)
    .bind(env!("CARGO_PKG_VERSION").to_string())
    .execute(pool)
    .await?;
    Ok(())
}
