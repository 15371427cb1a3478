//! What belongs to players and servers, in SQL: settings, names, saved lists and each server's
//! ladder of ratings.

use super::{Dialect, SqlStore, from_json, to_json, variant_of};
use crate::ids::{ServerId, UserId};
use crate::model::{SavedList, ServerSettings, UserSettings};
use crate::ratings::Rating;
use crate::store::{Players, StoreError};
use arbiter_engine::VariantId;
use async_trait::async_trait;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Row, Type};

const SELECT_SETTINGS: &str = "SELECT settings FROM user_settings WHERE user_id = $1";
const WRITE_SETTINGS: &str = "INSERT INTO user_settings (user_id, settings) VALUES ($1, $2) \
     ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings";

const SELECT_SERVER_SETTINGS: &str = "SELECT settings FROM server_settings WHERE server = $1";
const WRITE_SERVER_SETTINGS: &str = "INSERT INTO server_settings (server, settings) VALUES ($1, $2) \
     ON CONFLICT (server) DO UPDATE SET settings = excluded.settings";

const SELECT_DISPLAY_NAME: &str = "SELECT name FROM display_names WHERE user_id = $1";
const WRITE_DISPLAY_NAME: &str = "INSERT INTO display_names (user_id, name, seen_at) VALUES ($1, $2, $3) \
     ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at";

const SELECT_SAVED_LISTS: &str = "SELECT name, body, saved_at FROM saved_lists WHERE user_id = $1 ORDER BY name";
const WRITE_SAVED_LIST: &str = "INSERT INTO saved_lists (user_id, name, body, saved_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (user_id, name) DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at";
const DELETE_SAVED_LIST: &str = "DELETE FROM saved_lists WHERE user_id = $1 AND name = $2 RETURNING name";

macro_rules! rating_columns {
    () => {
        "server, user_id, variant, rating, deviation, volatility, games, wins, draws, losses, updated_at"
    };
}
/// Makes sure a player has a rating row on the ladder (games 0 on their first rated result
/// there) for the write to find.
const ENSURE_RATING: &str = concat!(
    "INSERT INTO ladder_ratings (",
    rating_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, 0, 0, 0, 0, 0) ON CONFLICT (server, user_id, variant) DO NOTHING"
);
const SELECT_RATING: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ladder_ratings WHERE server = $1 AND user_id = $2 AND variant = $3"
);
/// A new rating is written only over the one it was computed from: one game fewer.
const WRITE_RATING: &str = "UPDATE ladder_ratings SET rating = $4, deviation = $5, volatility = $6, games = $7, \
     wins = $8, draws = $9, losses = $10, updated_at = $11 WHERE server = $1 AND user_id = $2 AND variant = $3 \
     AND games = $7 - 1 RETURNING user_id";
const SELECT_RATINGS_OF: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ladder_ratings WHERE server = $1 AND user_id = $2 AND games > 0 ORDER BY games DESC, variant"
);
/// Established ratings first, then provisional ones.
const SELECT_LEADERBOARD: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ladder_ratings WHERE server = $1 AND variant = $2 AND games > 0 \
     ORDER BY CASE WHEN games >= 10 THEN 0 ELSE 1 END, rating DESC, user_id LIMIT $3"
);

/// Writes a rating as it is, over nothing (rebuilding the ladders).
const INSERT_RATING: &str = concat!(
    "INSERT INTO ladder_ratings (",
    rating_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
);

/// How a ladder's server is stored: its id, or '' for games that belong to no server.
pub(super) fn ladder_key(server: Option<&ServerId>) -> String {
    server.map_or_else(String::new, |server| server.as_str().to_string())
}

fn read_rating<DB>(row: &DB::Row) -> Result<Rating, StoreError>
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
    let variant: String = row.try_get("variant")?;
    let server: String = row.try_get("server")?;
    Ok(Rating {
        server: (!server.is_empty()).then(|| ServerId::new(server)),
        user: UserId::new(row.try_get::<String, _>("user_id")?),
        variant: variant_of(&variant)?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: row.try_get("games")?,
        wins: row.try_get("wins")?,
        draws: row.try_get("draws")?,
        losses: row.try_get("losses")?,
        updated_at: row.try_get("updated_at")?,
    })
}

/// Writes the players' new ratings in a game's save (see `Games::update_game`), each only over
/// the rating it was computed from. Rows are made and written in one order, so saves for the same
/// players at once wait for each other instead of deadlocking.
pub(super) async fn write_ratings<DB>(tx: &mut sqlx::Transaction<'_, DB>, ratings: &[Rating]) -> Result<(), StoreError>
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
    let mut ordered: Vec<&Rating> = ratings.iter().collect();
    ordered.sort_by(|a, b| (&a.server, &a.user).cmp(&(&b.server, &b.user)));
    for rating in ordered {
        let start = Rating::initial(rating.server.clone(), rating.user.clone(), rating.variant);
        let server = ladder_key(rating.server.as_ref());
        sqlx::query(ENSURE_RATING)
            .bind(&server)
            .bind(&rating.user)
            .bind(rating.variant.as_str())
            .bind(start.rating)
            .bind(start.deviation)
            .bind(start.volatility)
            .execute(&mut **tx)
            .await?;
        let written = sqlx::query(WRITE_RATING)
            .bind(&server)
            .bind(&rating.user)
            .bind(rating.variant.as_str())
            .bind(rating.rating)
            .bind(rating.deviation)
            .bind(rating.volatility)
            .bind(rating.games)
            .bind(rating.wins)
            .bind(rating.draws)
            .bind(rating.losses)
            .bind(rating.updated_at)
            .fetch_optional(&mut **tx)
            .await?;
        if written.is_none() {
            return Err(StoreError::RatingConflict);
        }
    }
    Ok(())
}

/// Writes `rating` where the ladder has none for its player and variant yet.
pub(super) async fn insert_rating<DB>(tx: &mut sqlx::Transaction<'_, DB>, rating: &Rating) -> Result<(), StoreError>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'a> &'a str: ColumnIndex<DB::Row> + Encode<'a, DB> + Type<DB>,
    String: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    i64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
    f64: for<'r> Decode<'r, DB> + for<'q> Encode<'q, DB> + Type<DB>,
{
    sqlx::query(INSERT_RATING)
        .bind(ladder_key(rating.server.as_ref()))
        .bind(&rating.user)
        .bind(rating.variant.as_str())
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(rating.games)
        .bind(rating.wins)
        .bind(rating.draws)
        .bind(rating.losses)
        .bind(rating.updated_at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[async_trait]
impl<DB> Players for SqlStore<DB>
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
    async fn settings(&self, user: &UserId) -> Result<UserSettings, StoreError> {
        let row = sqlx::query(SELECT_SETTINGS)
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => from_json("settings", &row.try_get::<String, _>("settings")?),
            None => Ok(UserSettings::default()),
        }
    }

    async fn save_settings(&self, user: &UserId, settings: &UserSettings) -> Result<(), StoreError> {
        sqlx::query(WRITE_SETTINGS)
            .bind(user)
            .bind(to_json(settings))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn server_settings(&self, server: &ServerId) -> Result<ServerSettings, StoreError> {
        let row = sqlx::query(SELECT_SERVER_SETTINGS)
            .bind(server)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => from_json("server settings", &row.try_get::<String, _>("settings")?),
            None => Ok(ServerSettings::default()),
        }
    }

    async fn save_server_settings(&self, server: &ServerId, settings: &ServerSettings) -> Result<(), StoreError> {
        sqlx::query(WRITE_SERVER_SETTINGS)
            .bind(server)
            .bind(to_json(settings))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn display_name(&self, user: &UserId) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(SELECT_DISPLAY_NAME)
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| Ok(row.try_get("name")?)).transpose()
    }

    async fn save_display_name(&self, user: &UserId, name: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(WRITE_DISPLAY_NAME)
            .bind(user)
            .bind(name)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn saved_lists(&self, user: &UserId) -> Result<Vec<SavedList>, StoreError> {
        let rows = sqlx::query(SELECT_SAVED_LISTS).bind(user).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                Ok(SavedList {
                    name: row.try_get("name")?,
                    body: row.try_get("body")?,
                    saved_at: row.try_get("saved_at")?,
                })
            })
            .collect()
    }

    async fn save_list(&self, user: &UserId, list: &SavedList) -> Result<(), StoreError> {
        sqlx::query(WRITE_SAVED_LIST)
            .bind(user)
            .bind(&list.name)
            .bind(&list.body)
            .bind(list.saved_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn delete_list(&self, user: &UserId, name: &str) -> Result<bool, StoreError> {
        let deleted = sqlx::query(DELETE_SAVED_LIST)
            .bind(user)
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(deleted.is_some())
    }

    async fn ratings_of(&self, server: Option<&ServerId>, user: &UserId) -> Result<Vec<Rating>, StoreError> {
        let rows = sqlx::query(SELECT_RATINGS_OF)
            .bind(ladder_key(server))
            .bind(user)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(read_rating::<DB>).collect()
    }

    async fn leaderboard(
        &self,
        server: Option<&ServerId>,
        variant: VariantId,
        limit: i64,
    ) -> Result<Vec<Rating>, StoreError> {
        let rows = sqlx::query(SELECT_LEADERBOARD)
            .bind(ladder_key(server))
            .bind(variant.as_str())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(read_rating::<DB>).collect()
    }

    async fn rating(
        &self,
        server: Option<&ServerId>,
        user: &UserId,
        variant: VariantId,
    ) -> Result<Option<Rating>, StoreError> {
        let row = sqlx::query(SELECT_RATING)
            .bind(ladder_key(server))
            .bind(user)
            .bind(variant.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(read_rating::<DB>).transpose()
    }
}
