//! Each server's ladder, rebuilt once from the stored rated games: ratings kept before ladders
//! belonged to servers (one ladder for all, `ratings`) move to per-server ladders by replaying
//! every server's own rated results in the order they ended. Nothing is lost (the old table
//! stays as it was, and every rated game counts on its server's ladder) and nothing is invented
//! (a ladder holds only its own server's games).

use super::{Dialect, SqlStore, players};
use crate::store::StoreError;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

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
    /// Rebuilds the ladders if the migration that made them asked for it (`ladder_rebuild`),
    /// in one transaction that also clears the request: it happens once, whole or not at all.
    /// Returns how many rated results it replayed (none when there was nothing to do).
    pub(super) async fn rebuild_ladders(&self) -> Result<Option<usize>, StoreError> {
        let pending = sqlx::query("SELECT pending FROM ladder_rebuild")
            .fetch_optional(&self.pool)
            .await?;
        if pending.is_none() {
            return Ok(None);
        }
        let results = self.rated_results().await?;
        let replayed = results.len();
        let ladders = crate::ratings::ladders(results);
        let mut tx = self.begin_write().await?;
        // Another process starting at the same time may have done it first.
        let claimed = sqlx::query("DELETE FROM ladder_rebuild RETURNING pending")
            .fetch_optional(&mut *tx)
            .await?;
        if claimed.is_none() {
            return Ok(None);
        }
        for rating in &ladders {
            players::insert_rating(&mut tx, rating).await?;
        }
        tx.commit().await?;
        tracing::info!(
            results = replayed,
            ratings = ladders.len(),
            "rebuilt each server's ladder from its rated games"
        );
        Ok(Some(replayed))
    }
}
