//! The PostgreSQL and SQLite stores. Both speak the same SQL (SQLite accepts `$1` placeholders),
//! so one macro writes both implementations; only connecting and migrating differ.

use super::formats::{self, FORMAT};
use super::{
    GameId, GameRow, GameStatus, LoggedEntry, NewEntry, NewGame, NewTournament, Place, Places, SavedList, ServerId,
    ServerSettings, Store, StoreError, TournamentRow, UserId, UserSettings, WhitePlayer,
};
use crate::clock::GameClock;
use crate::ids::TournamentId;
use crate::ratings::{self, RatedResult, Rating};
use crate::tournament::{Board, TournamentStatus};
use arbiter_engine::{Game, VariantId};
use async_trait::async_trait;
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;

const INSERT_GAME: &str = "INSERT INTO games (variant, setup, location, status, challenger, opponent, white_player, \
     white, black, state, offer, version, created_at, updated_at, turn_since, deathmatch, next_deadline, \
     state_format, clock, server, tournament, rated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $12, \
     $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id";

/// The columns a game row is read from.
macro_rules! game_columns {
    () => {
        "id, variant, setup, location, status, challenger, opponent, white_player, white, black, state, \
         state_format, offer, version, created_at, updated_at, turn_since, deathmatch, clock, server, tournament, home, unshown, \
         rated"
    };
}

const SELECT_GAME: &str = concat!("SELECT ", game_columns!(), " FROM games WHERE id = $1");

/// Saving a game recomputes its next deadline and releases any scheduler's claim on it.
const UPDATE_GAME: &str = "UPDATE games SET status = $1, white = $2, black = $3, state = $4, offer = $5, \
     version = $6, updated_at = $7, turn_since = $8, location = $11, deathmatch = $12, next_deadline = $13, \
     deadline_lease = NULL, state_format = $14, clock = $15, home = $16, unshown = $17 WHERE id = $9 AND version = $10";

/// The next sequence number is taken inside the transaction, after the version check has locked
/// the game, so concurrent writers cannot collide.
const APPEND_LOG: &str = "INSERT INTO game_log (game_id, seq, entry, notation, at, format, clock_ms) \
     SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6 FROM game_log WHERE game_id = $1";

/// Games played at one place (a thread, a channel), newest first.
const SELECT_GAMES_AT: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE location = $1 AND status IN ($2, $3, $4, $5, $6) ORDER BY id DESC"
);

/// Claims due games; PostgreSQL skips rows another scheduler is claiming at the same moment.
const CLAIM_DUE_POSTGRES: &str = "UPDATE games SET deadline_lease = $2 WHERE id IN (SELECT id FROM games \
     WHERE next_deadline <= $1 AND (deadline_lease IS NULL OR deadline_lease <= $1) AND location LIKE $4 ESCAPE '\\' \
     ORDER BY next_deadline LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING id";

/// SQLite runs one writer at a time, so the same claim needs no row locks.
const CLAIM_DUE_SQLITE: &str = "UPDATE games SET deadline_lease = $2 WHERE id IN (SELECT id FROM games \
     WHERE next_deadline <= $1 AND (deadline_lease IS NULL OR deadline_lease <= $1) AND location LIKE $4 ESCAPE '\\' \
     ORDER BY next_deadline LIMIT $3) RETURNING id";

/// When a scheduler should next look: a claimed game's deadline counts from its lease's end.
const EARLIEST_DEADLINE: &str = "SELECT MIN(CASE WHEN deadline_lease > next_deadline THEN deadline_lease \
     ELSE next_deadline END) AS due FROM games WHERE next_deadline IS NOT NULL AND location LIKE $1 ESCAPE '\\'";

/// Matches whose time runs: playing, or waiting for the colour choice.
const RUNNING_MATCHES: &str = "SELECT id FROM games WHERE status IN ('active', 'challenge') \
     AND deathmatch IS NOT NULL AND location LIKE $1 ESCAPE '\\'";

/// A newer change's news stays unshown.
const MARK_SHOWN: &str = "UPDATE games SET unshown = NULL WHERE id = $1 AND unshown <= $2";

const UNSHOWN_GAMES: &str =
    "SELECT id FROM games WHERE unshown IS NOT NULL AND location LIKE $1 ESCAPE '\\' ORDER BY id";

const READ_HEARTBEAT_POSTGRES: &str = "SELECT at FROM heartbeat WHERE places = $1 FOR UPDATE";
const READ_HEARTBEAT_SQLITE: &str = "SELECT at FROM heartbeat WHERE places = $1";
const WRITE_HEARTBEAT: &str =
    "INSERT INTO heartbeat (places, at) VALUES ($1, $2) ON CONFLICT (places) DO UPDATE SET at = excluded.at";

/// The log with its game's variant, which says how entries of old formats read.
const SELECT_LOG: &str = "SELECT l.seq, l.entry, l.notation, l.at, l.format, l.clock_ms, g.variant FROM game_log l \
     JOIN games g ON g.id = l.game_id WHERE l.game_id = $1 ORDER BY l.seq";

/// Statuses are bound as five parameters (repeating the last) so the SQL stays static.
const SELECT_GAMES_OF: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE (challenger = $1 OR opponent = $1) AND status IN ($2, $3, $4, $5, $6) ORDER BY id DESC"
);

const INSERT_DOWNTIME: &str = "INSERT INTO downtime (places, started_at, ended_at) VALUES ($1, $2, $3)";
/// The downtime of the places a location belongs to (its transport's prefix).
const SELECT_DOWNTIMES: &str = "SELECT started_at, ended_at FROM downtime WHERE ended_at > $2 \
     AND substr($1, 1, length(places)) = places ORDER BY started_at";

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
const DELETE_SAVED_LIST: &str = "DELETE FROM saved_lists WHERE user_id = $1 AND name = $2";

macro_rules! rating_columns {
    () => {
        "user_id, variant, rating, deviation, volatility, games, wins, draws, losses, updated_at"
    };
}
/// Makes sure a player has a rating row, so that two results saved at once both lock it.
const ENSURE_RATING: &str = concat!(
    "INSERT INTO ratings (",
    rating_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0, 0) ON CONFLICT (user_id, variant) DO NOTHING"
);
const SELECT_RATING_POSTGRES: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ratings WHERE user_id = $1 AND variant = $2 FOR UPDATE"
);
const SELECT_RATING_SQLITE: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ratings WHERE user_id = $1 AND variant = $2"
);
const WRITE_RATING: &str = "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6, \
     wins = $7, draws = $8, losses = $9, updated_at = $10 WHERE user_id = $1 AND variant = $2";
const SELECT_RATINGS_OF: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ratings WHERE user_id = $1 AND games > 0 ORDER BY games DESC, variant"
);
/// Established ratings first, then provisional ones.
const SELECT_LEADERBOARD: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ratings WHERE variant = $1 AND games > 0 \
     ORDER BY CASE WHEN games >= 10 THEN 0 ELSE 1 END, rating DESC, user_id LIMIT $2"
);
const SELECT_SERVER_LEADERBOARD: &str = concat!(
    "SELECT ",
    rating_columns!(),
    " FROM ratings WHERE variant = $1 AND games > 0 AND user_id IN \
     (SELECT white FROM games WHERE server = $3 AND white IS NOT NULL \
      UNION SELECT black FROM games WHERE server = $3 AND black IS NOT NULL) \
     ORDER BY CASE WHEN games >= 10 THEN 0 ELSE 1 END, rating DESC, user_id LIMIT $2"
);

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
     starts_at = $5 WHERE id = $6 AND version = $7";
const SET_TOURNAMENT_STATE: &str = "UPDATE tournaments SET state = $1 WHERE id = $2";
const SELECT_TOURNAMENT_GAMES: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE tournament = $1 ORDER BY id"
);
const SELECT_TOURNAMENTS_DUE: &str = "SELECT id FROM tournaments WHERE status = 'registering' AND starts_at <= $1 \
     AND location LIKE $2 ESCAPE '\\' ORDER BY starts_at";

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

/// The columns of a game row as the databases return them.
struct GameColumns {
    id: GameId,
    variant: String,
    setup: String,
    location: String,
    status: String,
    challenger: String,
    opponent: String,
    white_player: String,
    white: Option<String>,
    black: Option<String>,
    state: String,
    state_format: i64,
    offer: Option<String>,
    version: i64,
    created_at: i64,
    updated_at: i64,
    turn_since: i64,
    deathmatch: Option<String>,
    clock: Option<String>,
    server: Option<String>,
    tournament: Option<TournamentId>,
    home: Option<String>,
    unshown: Option<i64>,
    rated: bool,
}

impl GameColumns {
    /// The row, with its state as the snapshot has it; `None` when it must be rebuilt from the
    /// log (another format, or a snapshot that no longer reads).
    fn decode(self) -> Result<(GameRow, bool), StoreError> {
        let snapshot = formats::decode_state(self.state_format, &self.state);
        let setup: super::GameSetup = from_json("game setup", &self.setup)?;
        if setup.variant != variant_of(&self.variant)? {
            return Err(corrupt("game setup", "its variant differs from the game's"));
        }
        let needs_rebuild = snapshot.is_none();
        let state = match snapshot {
            Some(state) => state,
            None => setup.start().map_err(|e| corrupt("start position", e))?,
        };
        let status = GameStatus::parse(&self.status).ok_or_else(|| corrupt("game status", &self.status))?;
        let deathmatch: Option<super::DeathMatch> =
            self.deathmatch.map(|d| from_json("death match", &d)).transpose()?;
        let clock = match self.clock {
            Some(clock) => from_json("clock", &clock)?,
            // Stored before every game had a clock: a match's clock was kept in the match, and
            // other games were untimed, waiting since their turn began.
            None => match deathmatch.as_ref().and_then(|d| d.stored_game_clock()) {
                Some(clock) => clock,
                None => {
                    let mut clock = GameClock::untimed(self.turn_since);
                    if status == GameStatus::Active {
                        clock.follow(None, &state.to_act(), false, self.turn_since);
                    }
                    clock
                }
            },
        };
        let row = GameRow {
            id: self.id,
            setup,
            location: Place::new(self.location),
            status,
            challenger: UserId::new(self.challenger),
            opponent: UserId::new(self.opponent),
            white_player: WhitePlayer::parse(&self.white_player)
                .ok_or_else(|| corrupt("white player", &self.white_player))?,
            players: match (self.white, self.black) {
                (Some(white), Some(black)) => Some([UserId::new(white), UserId::new(black)]),
                _ => None,
            },
            state,
            offer: self.offer.map(|o| from_json("offer", &o)).transpose()?,
            version: self.version,
            created_at: self.created_at,
            updated_at: self.updated_at,
            turn_since: self.turn_since,
            deathmatch,
            clock,
            server: self.server.map(ServerId::new),
            tournament: self.tournament,
            home: self.home.map(Place::new),
            unshown: self.unshown,
            is_rated: self.rated,
        };
        Ok((row, needs_rebuild))
    }
}

macro_rules! sql_store {
    (
        $name:ident,
        $pool:ty,
        $db:ty,
        $row:ty,
        $claim_due:expr,
        $read_heartbeat:expr,
        $select_rating:expr,
        $begin_write:literal
    ) => {
        #[derive(Clone)]
        pub struct $name {
            pool: $pool,
        }

        impl $name {
            /// Reads a game row; a state that must be rebuilt is rebuilt from the log.
            async fn read_game(&self, row: &$row) -> Result<GameRow, StoreError> {
                let columns = GameColumns {
                    id: row.try_get("id")?,
                    variant: row.try_get("variant")?,
                    setup: row.try_get("setup")?,
                    location: row.try_get("location")?,
                    status: row.try_get("status")?,
                    challenger: row.try_get("challenger")?,
                    opponent: row.try_get("opponent")?,
                    white_player: row.try_get("white_player")?,
                    white: row.try_get("white")?,
                    black: row.try_get("black")?,
                    state: row.try_get("state")?,
                    state_format: row.try_get("state_format")?,
                    offer: row.try_get("offer")?,
                    version: row.try_get("version")?,
                    created_at: row.try_get("created_at")?,
                    updated_at: row.try_get("updated_at")?,
                    turn_since: row.try_get("turn_since")?,
                    deathmatch: row.try_get("deathmatch")?,
                    clock: row.try_get("clock")?,
                    server: row.try_get("server")?,
                    tournament: row.try_get("tournament")?,
                    home: row.try_get("home")?,
                    unshown: row.try_get("unshown")?,
                    rated: row.try_get("rated")?,
                };
                let (mut game, needs_rebuild) = columns.decode()?;
                if needs_rebuild {
                    let log = self.log(game.id).await?;
                    game.state =
                        formats::rebuild(&game.setup, &log).map_err(|e| corrupt(&format!("game {}", game.id), e))?;
                }
                Ok(game)
            }

            pub fn pool(&self) -> &$pool {
                &self.pool
            }

            /// Inserts a game in a transaction; returns its id.
            async fn insert_in(tx: &mut sqlx::Transaction<'_, $db>, game: &NewGame) -> Result<GameId, StoreError> {
                let [white, black] = game
                    .players
                    .clone()
                    .map_or([None, None], |[w, b]| [Some(w), Some(b)]);
                let row = sqlx::query(INSERT_GAME)
                    .bind(game.setup.variant.as_str())
                    .bind(to_json(&game.setup))
                    .bind(&game.location)
                    .bind(game.status.as_str())
                    .bind(&game.challenger)
                    .bind(&game.opponent)
                    .bind(game.white_player.as_str())
                    .bind(white)
                    .bind(black)
                    .bind(formats::encode_state(&game.state))
                    .bind(None::<String>)
                    .bind(game.now)
                    .bind(game.deathmatch.as_ref().map(to_json))
                    .bind(game.next_deadline())
                    .bind(FORMAT)
                    .bind(to_json(&game.clock))
                    .bind(&game.server)
                    .bind(game.tournament)
                    .bind(game.is_rated)
                    .fetch_one(&mut **tx)
                    .await?;
                Ok(row.try_get("id")?)
            }

            fn read_tournament(row: &$row) -> Result<TournamentRow, StoreError> {
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
                let mut tx = self.pool.begin_with($begin_write).await?;
                let updated = sqlx::query(UPDATE_TOURNAMENT)
                    .bind(row.status.as_str())
                    .bind(to_json(&row.tournament))
                    .bind(row.version)
                    .bind(row.updated_at)
                    .bind(row.starts_at)
                    .bind(row.id)
                    .bind(row.version - 1)
                    .execute(&mut *tx)
                    .await?;
                if updated.rows_affected() != 1 {
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

            /// `update_game`, in the task that runs it to its end.
            async fn save(
                &self,
                game: &GameRow,
                entries: &[NewEntry],
                rated: Option<&RatedResult>,
            ) -> Result<(), StoreError> {
                let [white, black] = game
                    .players
                    .clone()
                    .map_or([None, None], |[w, b]| [Some(w), Some(b)]);
                // Every write transaction takes the write lock first (see $begin_write), even
                // one that writes first, so that none can meet a busy snapshot.
                let mut tx = self.pool.begin_with($begin_write).await?;
                let updated = sqlx::query(UPDATE_GAME)
                    .bind(game.status.as_str())
                    .bind(white)
                    .bind(black)
                    .bind(formats::encode_state(&game.state))
                    .bind(game.offer.as_ref().map(to_json))
                    .bind(game.version)
                    .bind(game.updated_at)
                    .bind(game.turn_since)
                    .bind(game.id)
                    .bind(game.version - 1)
                    .bind(&game.location)
                    .bind(game.deathmatch.as_ref().map(to_json))
                    .bind(game.next_deadline())
                    .bind(FORMAT)
                    .bind(to_json(&game.clock))
                    .bind(&game.home)
                    .bind(game.unshown)
                    .execute(&mut *tx)
                    .await?;
                if updated.rows_affected() != 1 {
                    return Err(StoreError::Conflict(game.id));
                }
                for entry in entries {
                    sqlx::query(APPEND_LOG)
                        .bind(game.id)
                        .bind(formats::encode_entry(&entry.entry))
                        .bind(&entry.notation)
                        .bind(game.updated_at)
                        .bind(FORMAT)
                        .bind(entry.clock_ms)
                        .execute(&mut *tx)
                        .await?;
                }
                if let Some(result) = rated {
                    let variant = result.variant.as_str();
                    // Rows exist and are locked in one order, so results saved at once for the
                    // same players wait for each other instead of deadlocking.
                    let mut order = [0, 1];
                    order.sort_by(|&a, &b| result.players[a].cmp(&result.players[b]));
                    let mut current: [Option<Rating>; 2] = [None, None];
                    for index in order {
                        let user = &result.players[index];
                        let start = Rating::initial(user.clone(), result.variant);
                        sqlx::query(ENSURE_RATING)
                            .bind(user)
                            .bind(variant)
                            .bind(start.rating)
                            .bind(start.deviation)
                            .bind(start.volatility)
                            .execute(&mut *tx)
                            .await?;
                        let row = sqlx::query($select_rating)
                            .bind(user)
                            .bind(variant)
                            .fetch_one(&mut *tx)
                            .await?;
                        current[index] = Some(Self::read_rating(&row)?);
                    }
                    let [Some(first), Some(second)] = current else {
                        return Err(corrupt("ratings", "a player's rating row is missing"));
                    };
                    for rating in ratings::rate([first, second], result.winner, game.updated_at) {
                        sqlx::query(WRITE_RATING)
                            .bind(&rating.user)
                            .bind(variant)
                            .bind(rating.rating)
                            .bind(rating.deviation)
                            .bind(rating.volatility)
                            .bind(rating.games)
                            .bind(rating.wins)
                            .bind(rating.draws)
                            .bind(rating.losses)
                            .bind(rating.updated_at)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
                tx.commit().await?;
                Ok(())
            }

            /// `heartbeat`, in the task that runs it to its end.
            async fn beat(&self, places: &Places, now: i64) -> Result<Option<i64>, StoreError> {
                // Reads, then writes: the write lock is taken at the start (IMMEDIATE on SQLite).
                let mut tx = self.pool.begin_with($begin_write).await?;
                let previous = sqlx::query($read_heartbeat)
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

            fn read_rating(row: &$row) -> Result<Rating, StoreError> {
                let variant: String = row.try_get("variant")?;
                Ok(Rating {
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
        }

        #[async_trait]
        impl Store for $name {
            async fn insert_game(&self, game: &NewGame) -> Result<GameRow, StoreError> {
                let mut tx = self.pool.begin_with($begin_write).await?;
                let id = Self::insert_in(&mut tx, game).await?;
                tx.commit().await?;
                self.game(id)
                    .await?
                    .ok_or_else(|| corrupt("new game", "vanished after insert"))
            }

            async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
                let row = sqlx::query(SELECT_GAME)
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?;
                match row {
                    Some(row) => Ok(Some(self.read_game(&row).await?)),
                    None => Ok(None),
                }
            }

            async fn update_game(
                &self,
                game: &GameRow,
                entries: &[NewEntry],
                rated: Option<&RatedResult>,
            ) -> Result<(), StoreError> {
                // A save runs to its end (commit or rollback) even if the request that asked
                // for it is dropped: a transaction cut off half-way (during BEGIN, say) can leave
                // its connection in the pool still holding its locks.
                let store = self.clone();
                let (game, entries, rated) = (game.clone(), entries.to_vec(), rated.cloned());
                tokio::spawn(async move { store.save(&game, &entries, rated.as_ref()).await })
                    .await
                    .map_err(|e| corrupt("a save", e))?
            }

            async fn log(&self, id: GameId) -> Result<Vec<LoggedEntry>, StoreError> {
                let rows = sqlx::query(SELECT_LOG).bind(id).fetch_all(&self.pool).await?;
                rows.iter()
                    .map(|row| {
                        let entry: String = row.try_get("entry")?;
                        let variant: String = row.try_get("variant")?;
                        let format: i64 = row.try_get("format")?;
                        Ok(LoggedEntry {
                            seq: row.try_get("seq")?,
                            entry: formats::decode_entry(variant_of(&variant)?, format, &entry)?,
                            notation: row.try_get("notation")?,
                            at: row.try_get("at")?,
                            clock_ms: row.try_get("clock_ms")?,
                        })
                    })
                    .collect()
            }

            async fn games_of(&self, user: &UserId, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError> {
                self.games_where(SELECT_GAMES_OF, user.as_str(), statuses).await
            }

            async fn games_at(&self, location: &Place, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError> {
                self.games_where(SELECT_GAMES_AT, location.as_str(), statuses)
                    .await
            }

            async fn claim_due(
                &self,
                places: &Places,
                now: i64,
                lease_ms: i64,
                limit: i64,
            ) -> Result<Vec<GameId>, StoreError> {
                let rows = sqlx::query($claim_due)
                    .bind(now)
                    .bind(now + lease_ms)
                    .bind(limit)
                    .bind(like_prefix(places))
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
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

            async fn mark_shown(&self, id: GameId, version: i64) -> Result<(), StoreError> {
                sqlx::query(MARK_SHOWN)
                    .bind(id)
                    .bind(version)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn unshown_games(&self, places: &Places) -> Result<Vec<GameId>, StoreError> {
                let rows = sqlx::query(UNSHOWN_GAMES)
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

            async fn save_server_settings(
                &self,
                server: &ServerId,
                settings: &ServerSettings,
            ) -> Result<(), StoreError> {
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
                let rows = sqlx::query(SELECT_SAVED_LISTS)
                    .bind(user)
                    .fetch_all(&self.pool)
                    .await?;
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
                let done = sqlx::query(DELETE_SAVED_LIST)
                    .bind(user)
                    .bind(name)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn ratings_of(&self, user: &UserId) -> Result<Vec<Rating>, StoreError> {
                let rows = sqlx::query(SELECT_RATINGS_OF)
                    .bind(user)
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter().map(Self::read_rating).collect()
            }

            async fn insert_tournament(&self, new: &NewTournament) -> Result<TournamentRow, StoreError> {
                let row = sqlx::query(INSERT_TOURNAMENT)
                    .bind(&new.tournament.name)
                    .bind(&new.location)
                    .bind(&new.server)
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

            async fn leaderboard(
                &self,
                variant: VariantId,
                server: Option<&ServerId>,
                limit: i64,
            ) -> Result<Vec<Rating>, StoreError> {
                let query = match server {
                    Some(server) => sqlx::query(SELECT_SERVER_LEADERBOARD)
                        .bind(variant.as_str())
                        .bind(limit)
                        .bind(server.as_str().to_string()),
                    None => sqlx::query(SELECT_LEADERBOARD).bind(variant.as_str()).bind(limit),
                };
                let rows = query.fetch_all(&self.pool).await?;
                rows.iter().map(Self::read_rating).collect()
            }
        }

        impl $name {
            /// Runs a game query whose first parameter is `key` and whose next five are statuses
            /// (the last repeated, so the SQL stays static).
            async fn games_where(
                &self,
                sql: &'static str,
                key: &str,
                statuses: &[GameStatus],
            ) -> Result<Vec<GameRow>, StoreError> {
                let Some(&last) = statuses.last() else {
                    return Ok(Vec::new());
                };
                let mut query = sqlx::query(sql).bind(key);
                for i in 0..5 {
                    query = query.bind(statuses.get(i).copied().unwrap_or(last).as_str());
                }
                let rows = query.fetch_all(&self.pool).await?;
                let mut games = Vec::with_capacity(rows.len());
                for row in &rows {
                    games.push(self.read_game(row).await?);
                }
                Ok(games)
            }
        }
    };
}

sql_store!(
    PostgresStore,
    sqlx::PgPool,
    sqlx::Postgres,
    sqlx::postgres::PgRow,
    CLAIM_DUE_POSTGRES,
    READ_HEARTBEAT_POSTGRES,
    SELECT_RATING_POSTGRES,
    "BEGIN"
);
sql_store!(
    SqliteStore,
    sqlx::SqlitePool,
    sqlx::Sqlite,
    sqlx::sqlite::SqliteRow,
    CLAIM_DUE_SQLITE,
    READ_HEARTBEAT_SQLITE,
    SELECT_RATING_SQLITE,
    // A deferred SQLite transaction that reads and then writes fails at once ("database is
    // locked") when another connection wrote in between, busy timeout or not: IMMEDIATE takes the
    // write lock first, waiting its turn.
    "BEGIN IMMEDIATE"
);

impl PostgresStore {
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
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(PostgresStore::session_settings(options))
            .await?;
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        Ok(PostgresStore { pool })
    }
}

impl SqliteStore {
    /// Opens (creating if need be) and brings the schema up to date. WAL lets readers work while
    /// one writer commits; the busy timeout makes concurrent writers wait instead of failing.
    pub async fn connect(url: &str) -> Result<SqliteStore, StoreError> {
        let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
            .synchronous(sqlx::sqlite::SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(30));
        let pool = sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(SqliteStore { pool })
    }
}
