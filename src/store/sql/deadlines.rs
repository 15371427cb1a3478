//! Deadlines in SQL: claims on due games, schedulers' heartbeats, and downtime.

use super::{Dialect, SqlStore, corrupt, like_prefix};
use crate::ids::{GameId, Place, Places};
use crate::store::{Deadlines, StoreError};
use async_trait::async_trait;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Row, Type};

/// When a scheduler should next look: a claimed game's deadline counts from its lease's end.
const EARLIEST_DEADLINE: &str = "SELECT MIN(CASE WHEN deadline_lease > next_deadline THEN deadline_lease \
     ELSE next_deadline END) AS due FROM games WHERE next_deadline IS NOT NULL AND location LIKE $1 ESCAPE '\\'";

/// Matches whose time runs: playing, or waiting for the colour choice.
const RUNNING_MATCHES: &str = "SELECT id FROM games WHERE status IN ('active', 'challenge') \
     AND deathmatch IS NOT NULL AND location LIKE $1 ESCAPE '\\'";

const WRITE_HEARTBEAT: &str =
    "INSERT INTO heartbeat (places, at) VALUES ($1, $2) ON CONFLICT (places) DO UPDATE SET at = excluded.at";

const INSERT_DOWNTIME: &str = "INSERT INTO downtime (places, started_at, ended_at) VALUES ($1, $2, $3)";
/// The downtime of the places a location belongs to (its transport's prefix).
const SELECT_DOWNTIMES: &str = "SELECT started_at, ended_at FROM downtime WHERE ended_at > $2 \
     AND substr($1, 1, length(places)) = places ORDER BY started_at";

impl<DB> SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'a> &'a str: ColumnIndex<DB::Row> + Encode<'a, DB> + Type<DB>,
    String: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    i64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    f64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    bool: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    Option<String>: for<'q> Encode<'q, DB>,
    Option<i64>: for<'q> Encode<'q, DB>,
{
    /// `heartbeat`, in the task that runs it to its end.
    async fn beat(&self, places: &Places, now: i64) -> Result<Option<i64>, StoreError> {
        // Reads, then writes: the write lock is taken at the start (IMMEDIATE on SQLite).
        let mut tx = self.begin_write().await?;
        if let Some(lock) = DB::LOCK_HEARTBEAT {
            sqlx::query(lock).bind(places.prefix()).execute(&mut *tx).await?;
        }
        let previous = sqlx::query(DB::READ_HEARTBEAT)
            .bind(places.prefix())
            .fetch_optional(&mut *tx)
            .await?;
        let previous: Option<i64> = previous.map(|row| row.try_get("at")).transpose()?;
        sqlx::query(WRITE_HEARTBEAT)
            .bind(places.prefix())
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(previous)
    }
}

#[async_trait]
impl<DB> Deadlines for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'a> &'a str: ColumnIndex<DB::Row> + Encode<'a, DB> + Type<DB>,
    String: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    i64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    f64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    bool: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    Option<String>: for<'q> Encode<'q, DB>,
    Option<i64>: for<'q> Encode<'q, DB>,
{
    async fn claim_due(&self, places: &Places, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(DB::CLAIM_DUE)
            .bind(now)
            .bind(now + lease_ms)
            .bind(limit)
            .bind(like_prefix(places))
            .fetch_all(&self.pool)
            .await?;
        // RETURNING keeps no order of its own: earliest deadline first, as promised.
        let mut claimed = rows
            .iter()
            .map(|row| Ok((row.try_get::<i64, _>("next_deadline")?, row.try_get::<GameId, _>("id")?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        claimed.sort_unstable();
        for (due, _) in &claimed {
            crate::telemetry::deadline_claimed(now - due);
        }
        Ok(claimed.into_iter().map(|(_, id)| id).collect())
    }

    async fn earliest_deadline(&self, places: &Places) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(EARLIEST_DEADLINE)
            .bind(like_prefix(places))
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("due")?)
    }

    async fn running_matches(&self, places: &Places) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(RUNNING_MATCHES)
            .bind(like_prefix(places))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
    }

    async fn heartbeat(&self, places: &Places, now: i64) -> Result<Option<i64>, StoreError> {
        // Like a save, it runs to its end whatever happens to the caller.
        let store = self.clone();
        let places = places.clone();
        tokio::spawn(async move { store.beat(&places, now).await })
            .await
            .map_err(|e| corrupt("a heartbeat", e))?
    }

    async fn record_downtime(&self, places: &Places, from: i64, to: i64) -> Result<(), StoreError> {
        sqlx::query(INSERT_DOWNTIME)
            .bind(places.prefix())
            .bind(from)
            .bind(to)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn downtimes(&self, location: &Place, after: i64) -> Result<Vec<(i64, i64)>, StoreError> {
        let rows = sqlx::query(SELECT_DOWNTIMES)
            .bind(location)
            .bind(after)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("started_at")?, row.try_get("ended_at")?)))
            .collect()
    }
}
