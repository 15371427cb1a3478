//! Persistence: a `Store` of five roles (games and their logs, deadlines, players, tournaments,
//! and the vitals operators watch), implemented once in SQL for PostgreSQL in production and an
//! embedded SQLite default; a store wrapped around another is a `Layer` (`layer.rs`). Games
//! are a state snapshot guarded by a version plus an append-only log; every change is one
//! transaction that succeeds only if nobody changed the game since it was read.

mod broken;
pub mod formats;
pub mod layer;
mod sql;

pub use broken::with_deliberate_defects;

use crate::model::{
    GameRow, GameStatus, LoggedEntry, NewEntry, NewGame, NewTournament, SavedList, ServerSettings, TournamentRow,
    UserSettings,
};
use crate::ratings::Rating;
use arbiter_engine::VariantId;
use async_trait::async_trait;
use std::sync::Arc;
use thiserror::Error;

use crate::ids::{GameId, Place, Places, ServerId, TournamentId, UserId};

#[derive(Debug, Error)]
pub enum StoreError {
    /// Someone else changed the game since it was read; reload and try again.
    #[error("game {0} was changed by someone else")]
    Conflict(GameId),
    /// Someone else changed the tournament since it was read; reload and try again.
    #[error("tournament {0} was changed by someone else")]
    TournamentConflict(TournamentId),
    #[error("a player's rating was changed by another result")]
    RatingConflict,
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("stored data could not be read: {0}")]
    Corrupt(String),
    /// A newer Arbiter has moved the database past what this one knows: opening it could
    /// misread what it holds.
    #[error("{}", .0.newer_message())]
    NewerSchema(SchemaState),
    /// What cannot be done with this database, and what to do instead.
    #[error("{0}")]
    Refused(String),
}

/// Where a database's schema stands against this binary's migrations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaState {
    /// The newest migration applied (0: a new, empty database).
    pub applied: i64,
    /// The newest migration this binary has.
    pub known: i64,
    /// The release that first brought the database to its newest version, where recorded.
    pub written_by: Option<String>,
}

impl SchemaState {
    pub fn is_newer(&self) -> bool {
        self.applied > self.known
    }

    /// Applied migrations, but not all of them: the bot brings it up to date as it starts.
    pub fn is_behind(&self) -> bool {
        self.applied > 0 && self.applied < self.known
    }

    /// The release a newer database needs: "Arbiter 0.2.0 or newer", where recorded.
    pub fn needs(&self) -> String {
        match &self.written_by {
            Some(release) => format!("Arbiter {release} or newer"),
            None => "a newer Arbiter".to_string(),
        }
    }

    fn newer_message(&self) -> String {
        let needs = self.needs();
        format!(
            "the database is at schema version {}, written by {needs}; this is Arbiter {}, which knows \
             versions up to {}. Run {needs}, or restore the backup taken before the upgrade",
            self.applied,
            env!("CARGO_PKG_VERSION"),
            self.known
        )
    }
}

/// Games and their logs: each game a state snapshot guarded by a version, beside an append-only
/// log of what happened in it.
#[async_trait]
pub trait Games: Send + Sync {
    /// Creates a game and returns it with its id.
    async fn insert_game(&self, game: &NewGame) -> Result<GameRow, StoreError>;
    async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError>;
    /// Saves `game` and appends `entries` to its log in one transaction, provided the stored
    /// version is still `game.version - 1`; otherwise nothing changes and `Conflict` is returned.
    /// `ratings` (the game has just ended, rated) are its players' new ratings, each one game
    /// further than the stored one: saved in the same transaction, provided each stored rating
    /// is still one game behind (otherwise `Conflict`, and the caller computes them again).
    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError>;
    /// The game's log, oldest first.
    async fn log(&self, id: GameId) -> Result<Vec<LoggedEntry>, StoreError>;
    /// Games in which `user` is challenger or opponent, with one of `statuses`, newest first.
    async fn games_of(&self, user: &UserId, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError>;
    /// Games played at `location`, with one of `statuses`, newest first.
    async fn games_at(&self, location: &Place, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError>;
    /// Records that the news of the game's changes up to `version` reached its players.
    async fn mark_shown(&self, id: GameId, version: i64) -> Result<(), StoreError>;
    /// Games at `places` with news saved but not seen to reach their players.
    async fn unshown_games(&self, places: &Places) -> Result<Vec<GameId>, StoreError>;
    /// The token of the game's public page: `fresh` becomes it unless the game has one already.
    async fn watch_token(&self, id: GameId, fresh: &str) -> Result<String, StoreError>;
    /// The game whose public page has `token`.
    async fn game_of_watch_token(&self, token: &str) -> Result<Option<GameId>, StoreError>;
    /// The token of one of the game's private pages (`role`: `first`, `second` or `host`):
    /// `fresh` becomes it unless it has one already, or takes its place when `replace`.
    async fn page_token(&self, id: GameId, role: &str, fresh: &str, replace: bool) -> Result<String, StoreError>;
    /// The game and role of the private page whose token is `token`.
    async fn page_of_token(&self, token: &str) -> Result<Option<(GameId, String)>, StoreError>;
    /// The analysis kept of a finished game from `viewpoint` (`spectator`, `first`, `second`), as
    /// JSON.
    async fn analysis(&self, id: GameId, viewpoint: &str) -> Result<Option<String>, StoreError>;
    /// Keeps an analysis, unless one from the same viewpoint is kept already.
    async fn save_analysis(&self, id: GameId, viewpoint: &str, body: &str, now: i64) -> Result<(), StoreError>;
    /// How many Death Matches of `server` are open (waiting for colours, or being played).
    async fn open_matches_on(&self, server: &ServerId) -> Result<i64, StoreError>;
}

/// What schedulers share: games' deadlines, their claims on them, their heartbeats, and the
/// stretches of time nobody served a transport's places.
#[async_trait]
pub trait Deadlines: Send + Sync {
    /// Claims up to `limit` games played at `places` whose next deadline is due at `now` and
    /// that nobody else holds, for `lease_ms` (after which another scheduler may take them),
    /// earliest first. Saving a game releases its claim.
    async fn claim_due(&self, places: &Places, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<GameId>, StoreError>;
    /// When the next deadline at `places` can be claimed (a claimed one when its lease ends).
    async fn earliest_deadline(&self, places: &Places) -> Result<Option<i64>, StoreError>;
    /// Death Matches at `places` whose time runs: playing, or waiting for colours.
    async fn running_matches(&self, places: &Places) -> Result<Vec<GameId>, StoreError>;
    /// Records that a scheduler serving `places` is alive at `now` and returns the previous
    /// record, in one step (two schedulers starting at once never both see the same previous beat).
    async fn heartbeat(&self, places: &Places, now: i64) -> Result<Option<i64>, StoreError>;
    /// Records that no scheduler served `places` from `from` to `to`.
    async fn record_downtime(&self, places: &Places, from: i64, to: i64) -> Result<(), StoreError>;
    /// The stretches of downtime that concern a game played at `location` and ended after
    /// `after`, oldest first.
    async fn downtimes(&self, location: &Place, after: i64) -> Result<Vec<(i64, i64)>, StoreError>;
}

/// What belongs to players and servers: settings, names, saved lists and ratings.
#[async_trait]
pub trait Players: Send + Sync {
    /// A user's settings (the defaults if they never changed any).
    async fn settings(&self, user: &UserId) -> Result<UserSettings, StoreError>;
    async fn save_settings(&self, user: &UserId, settings: &UserSettings) -> Result<(), StoreError>;
    /// A server's settings (the defaults if nobody changed any).
    async fn server_settings(&self, server: &ServerId) -> Result<ServerSettings, StoreError>;
    async fn save_server_settings(&self, server: &ServerId, settings: &ServerSettings) -> Result<(), StoreError>;
    /// The name a user goes by, as last seen.
    async fn display_name(&self, user: &UserId) -> Result<Option<String>, StoreError>;
    async fn save_display_name(&self, user: &UserId, name: &str, now: i64) -> Result<(), StoreError>;
    /// A user's saved piece lists, by name.
    async fn saved_lists(&self, user: &UserId) -> Result<Vec<SavedList>, StoreError>;
    /// Saves a list under its name, replacing one saved under the same name.
    async fn save_list(&self, user: &UserId, list: &SavedList) -> Result<(), StoreError>;
    /// Deletes a saved list; false when there was none of that name.
    async fn delete_list(&self, user: &UserId, name: &str) -> Result<bool, StoreError>;
    /// A user's rating in a variant on a server's ladder, if they have one there.
    async fn rating(
        &self,
        server: Option<&ServerId>,
        user: &UserId,
        variant: VariantId,
    ) -> Result<Option<Rating>, StoreError>;
    /// A user's ratings on a server's ladder, in every variant they have played rated games of
    /// there.
    async fn ratings_of(&self, server: Option<&ServerId>, user: &UserId) -> Result<Vec<Rating>, StoreError>;
    /// The best rated players of a variant on a server's ladder (established ratings first).
    async fn leaderboard(
        &self,
        server: Option<&ServerId>,
        variant: VariantId,
        limit: i64,
    ) -> Result<Vec<Rating>, StoreError>;
}

/// Tournaments: each a state guarded by a version, whose rounds' games are ordinary games.
#[async_trait]
pub trait Tournaments: Send + Sync {
    /// Creates a tournament and returns it with its id.
    async fn insert_tournament(&self, tournament: &NewTournament) -> Result<TournamentRow, StoreError>;
    async fn tournament(&self, id: TournamentId) -> Result<Option<TournamentRow>, StoreError>;
    /// Tournaments belonging to `location`: those not finished first, then the finished; newest
    /// first in each.
    async fn tournaments_at(&self, location: &Place) -> Result<Vec<TournamentRow>, StoreError>;
    /// Saves `tournament` and creates `games`, the boards of its round just paired (whose boards
    /// the store fills in with them, in order), in one transaction, provided the stored version
    /// is still `tournament.version - 1`; otherwise nothing changes and `TournamentConflict` is
    /// returned. The games are returned with their ids, in order.
    async fn update_tournament(
        &self,
        tournament: &TournamentRow,
        games: &[NewGame],
    ) -> Result<Vec<GameRow>, StoreError>;
    /// A tournament's games.
    async fn tournament_games(&self, id: TournamentId) -> Result<Vec<GameRow>, StoreError>;
    /// Tournaments at `places` still registering whose start is due at `now`.
    async fn tournaments_due(&self, places: &Places, now: i64) -> Result<Vec<TournamentId>, StoreError>;
    /// How many tournaments of `server` are not finished (registering, or being played).
    async fn open_tournaments_on(&self, server: &ServerId) -> Result<i64, StoreError>;
}

/// What those who run the bot watch of the database: that it answers, its pool, its games.
#[async_trait]
pub trait Vitals: Send + Sync {
    /// Answers when the database does (one round trip).
    async fn ping(&self) -> Result<(), StoreError>;
    /// The pool's connections: in use, and idle.
    fn connections(&self) -> (usize, usize);
    /// Games in progress, by variant (variants without any left out).
    async fn active_games(&self) -> Result<Vec<(VariantId, i64)>, StoreError>;
}

/// The whole store, every role: what the arena holds.
pub trait Store: Games + Deadlines + Players + Tournaments + Vitals {}

impl<T: Games + Deadlines + Players + Tournaments + Vitals> Store for T {}

pub use sql::{PostgresStore, SqliteStore};

/// Opens the store a database URL names: `postgres://...` or `sqlite://...`; without one, the
/// embedded SQLite file `arbiter.db` in `data_dir`. Runs the migrations.
pub async fn open(database_url: Option<&str>, data_dir: &std::path::Path) -> Result<Arc<dyn Store>, StoreError> {
    match database_url {
        Some(url) if is_postgres(url) => Ok(Arc::new(PostgresStore::connect(url).await?)),
        Some(url) => Ok(Arc::new(SqliteStore::connect(url).await?)),
        None => {
            std::fs::create_dir_all(data_dir).map_err(|e| {
                StoreError::Corrupt(format!("cannot create the data directory {}: {e}", data_dir.display()))
            })?;
            Ok(Arc::new(SqliteStore::connect(&embedded_url(data_dir)).await?))
        }
    }
}

/// Where the schema of the database `open` would open stands, changing nothing (a missing
/// embedded file is a new database: nothing applied).
pub async fn schema_state(database_url: Option<&str>, data_dir: &std::path::Path) -> Result<SchemaState, StoreError> {
    match database_url {
        Some(url) if is_postgres(url) => PostgresStore::schema_state(url).await,
        Some(url) => SqliteStore::schema_state(url).await,
        None if !embedded_file(data_dir).exists() => Ok(SchemaState {
            applied: 0,
            known: SqliteStore::known_schema(),
            written_by: None,
        }),
        None => SqliteStore::schema_state(&embedded_url(data_dir)).await,
    }
}

/// Copies the embedded (or any SQLite) database to `to`, consistently, while the bot runs; the
/// copy appears whole or not at all. PostgreSQL is backed up with its own tools (pg_dump).
/// Returns how many games the copy holds.
pub async fn back_up(
    database_url: Option<&str>,
    data_dir: &std::path::Path,
    to: &std::path::Path,
) -> Result<i64, StoreError> {
    let url = match database_url {
        Some(url) if is_postgres(url) => {
            return Err(StoreError::Refused(
                "a PostgreSQL database is backed up with pg_dump: pg_dump --format=custom --file FILE \"$DATABASE_URL\" \
                 (the README's \"Backups and upgrades\")"
                    .into(),
            ));
        }
        Some(url) => url.to_string(),
        None if embedded_file(data_dir).exists() => embedded_url(data_dir),
        None => {
            return Err(StoreError::Refused(format!(
                "there is no database at {} to back up (ARBITER_DATA_DIR)",
                embedded_file(data_dir).display()
            )));
        }
    };
    if to.exists() {
        return Err(StoreError::Refused(format!(
            "{} already exists: name a new file for the backup",
            to.display()
        )));
    }
    if let Some(folder) = to.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| StoreError::Refused(format!("cannot make the folder {}: {e}", folder.display())))?;
    }
    // Written beside its place, then renamed: a backup cut short never passes for a whole one.
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let _ = std::fs::remove_file(&partial);
    let games = SqliteStore::back_up(&url, &partial).await.inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })?;
    std::fs::rename(&partial, to)
        .map_err(|e| StoreError::Refused(format!("cannot move the backup into {}: {e}", to.display())))?;
    Ok(games)
}

/// Whether a database URL names PostgreSQL (else it is SQLite).
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres:") || url.starts_with("postgresql:")
}

/// The embedded database's file.
pub fn embedded_file(data_dir: &std::path::Path) -> std::path::PathBuf {
    data_dir.join("arbiter.db")
}

fn embedded_url(data_dir: &std::path::Path) -> String {
    format!("sqlite://{}?mode=rwc", embedded_file(data_dir).display())
}
