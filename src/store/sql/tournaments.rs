//! Tournaments in SQL.

use super::games::SELECT_TOURNAMENT_GAMES;
use super::{Dialect, SqlStore, corrupt, from_json, like_prefix, to_json};
use crate::ids::{GameId, Place, Places, ServerId, TournamentId};
use crate::model::{GameRow, NewGame, NewTournament, TournamentRow};
use crate::store::{Games, StoreError, Tournaments};
use crate::tournament::{Board, TournamentStatus};
use async_trait::async_trait;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Row, Type};

const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments (name, location, server, status, state, version, \
     created_at, updated_at, starts_at) VALUES ($1, $2, $3, $4, $5, 1, $6, $6, $7) RETURNING id";
macro_rules! tournament_columns {
    () => {
        "id, name, location, server, status, state, version, created_at, updated_at, starts_at"
    };
}
const SELECT_TOURNAMENT: &str = concat!("SELECT ", tournament_columns!(), " FROM tournaments WHERE id = $1");
const SELECT_TOURNAMENTS_AT: &str = concat!(
    "SELECT ",
    tournament_columns!(),
    " FROM tournaments WHERE location = $1 ORDER BY CASE WHEN status = 'finished' THEN 1 ELSE 0 END, id DESC"
);
const UPDATE_TOURNAMENT: &str = "UPDATE tournaments SET status = $1, state = $2, version = $3, updated_at = $4, \
     starts_at = $5 WHERE id = $6 AND version = $7 \
     RETURNING id";
const SET_TOURNAMENT_STATE: &str = "UPDATE tournaments SET state = $1 WHERE id = $2";
const SELECT_TOURNAMENTS_DUE: &str = "SELECT id FROM tournaments WHERE status = 'registering' AND starts_at <= $1 \
     AND location LIKE $2 ESCAPE '\\' ORDER BY starts_at";

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
    fn read_tournament(row: &DB::Row) -> Result<TournamentRow, StoreError> {
        let status: String = row.try_get("status")?;
        let state: String = row.try_get("state")?;
        Ok(TournamentRow {
            id: row.try_get("id")?,
            location: row.try_get("location")?,
            server: row.try_get("server")?,
            status: TournamentStatus::parse(&status).ok_or_else(|| corrupt("tournament status", &status))?,
            tournament: from_json("tournament", &state)?,
            version: row.try_get("version")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            starts_at: row.try_get("starts_at")?,
        })
    }

    /// `update_tournament`, in the task that runs it to its end.
    async fn save_tournament(&self, row: &TournamentRow, games: &[NewGame]) -> Result<Vec<GameId>, StoreError> {
        let mut tx = self.begin_write().await?;
        let updated = sqlx::query(UPDATE_TOURNAMENT)
            .bind(row.status.as_str())
            .bind(to_json(&row.tournament))
            .bind(row.version)
            .bind(row.updated_at)
            .bind(row.starts_at)
            .bind(row.id)
            .bind(row.version - 1)
            .fetch_optional(&mut *tx)
            .await?;
        if updated.is_none() {
            return Err(StoreError::TournamentConflict(row.id));
        }
        let mut ids = Vec::with_capacity(games.len());
        for game in games {
            ids.push(Self::insert_in(&mut tx, game).await?);
        }
        if !ids.is_empty() {
            // The games are the boards of the round just paired, in order, made in the
            // transaction that records them there.
            let mut tournament = row.tournament.clone();
            match tournament.rounds.last_mut() {
                Some(round) if round.boards.is_empty() => {
                    round.boards = games
                        .iter()
                        .zip(&ids)
                        .map(|(game, &id)| Board {
                            game: id,
                            white: game.challenger.clone(),
                            black: game.opponent.clone(),
                        })
                        .collect();
                }
                _ => {
                    return Err(corrupt(
                        "tournament",
                        "a round's games came without a round to hold them",
                    ));
                }
            }
            sqlx::query(SET_TOURNAMENT_STATE)
                .bind(to_json(&tournament))
                .bind(row.id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(ids)
    }
}

#[async_trait]
impl<DB> Tournaments for SqlStore<DB>
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
    async fn insert_tournament(&self, new: &NewTournament) -> Result<TournamentRow, StoreError> {
        let row = sqlx::query(INSERT_TOURNAMENT)
            .bind(&new.tournament.name)
            .bind(&new.location)
            .bind(new.server.as_ref().map(|s| s.as_str().to_string()))
            .bind(TournamentStatus::Registering.as_str())
            .bind(to_json(&new.tournament))
            .bind(new.now)
            .bind(new.starts_at)
            .fetch_one(&self.pool)
            .await?;
        let id: TournamentId = row.try_get("id")?;
        self.tournament(id)
            .await?
            .ok_or_else(|| corrupt("new tournament", "vanished after insert"))
    }

    async fn tournament(&self, id: TournamentId) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query(SELECT_TOURNAMENT)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(Self::read_tournament).transpose()
    }

    async fn tournaments_at(&self, location: &Place) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(SELECT_TOURNAMENTS_AT)
            .bind(location)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(Self::read_tournament).collect()
    }

    async fn update_tournament(
        &self,
        tournament: &TournamentRow,
        games: &[NewGame],
    ) -> Result<Vec<GameRow>, StoreError> {
        // Like a game's save, it runs to its end whatever happens to the caller.
        let store = self.clone();
        let (row, new_games) = (tournament.clone(), games.to_vec());
        let ids = tokio::spawn(async move { store.save_tournament(&row, &new_games).await })
            .await
            .map_err(|e| corrupt("a tournament save", e))??;
        let mut rows = Vec::with_capacity(ids.len());
        for id in ids {
            rows.push(
                self.game(id)
                    .await?
                    .ok_or_else(|| corrupt("new game", "vanished after insert"))?,
            );
        }
        Ok(rows)
    }

    async fn tournament_games(&self, id: TournamentId) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(SELECT_TOURNAMENT_GAMES)
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let mut games = Vec::with_capacity(rows.len());
        for row in &rows {
            games.push(self.read_game(row).await?);
        }
        Ok(games)
    }

    async fn tournaments_due(&self, places: &Places, now: i64) -> Result<Vec<TournamentId>, StoreError> {
        let rows = sqlx::query(SELECT_TOURNAMENTS_DUE)
            .bind(now)
            .bind(like_prefix(places))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
    }

    async fn open_tournaments_on(&self, server: &ServerId) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM tournaments WHERE server = $1 AND status <> 'finished'")
            .bind(server.as_str())
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }
}
