//! What those who run the bot watch of the database, in SQL.

use super::{Dialect, SqlStore, variant_of};
use crate::store::{StoreError, Vitals};
use arbiter_engine::VariantId;
use async_trait::async_trait;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Row, Type};

const ACTIVE_GAMES: &str = "SELECT variant, COUNT(*) AS n FROM games WHERE status = 'active' GROUP BY variant";

#[async_trait]
impl<DB> Vitals for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'a> &'a str: ColumnIndex<DB::Row> + Encode<'a, DB> + Type<DB>,
    String: for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    fn connections(&self) -> (usize, usize) {
        let (size, idle) = (self.pool.size() as usize, self.pool.num_idle());
        (size.saturating_sub(idle), idle)
    }

    async fn active_games(&self) -> Result<Vec<(VariantId, i64)>, StoreError> {
        let rows = sqlx::query(ACTIVE_GAMES).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| Ok((variant_of(&row.try_get::<String, _>("variant")?)?, row.try_get("n")?)))
            .collect()
    }
}
