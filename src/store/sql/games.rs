//! Games and their logs in SQL.

use super::{Dialect, SqlStore, corrupt, from_json, like_prefix, players, to_json, variant_of};
use crate::clock::GameClock;
use crate::ids::{GameId, Place, Places, ServerId, TournamentId, UserId};
use crate::model::{DeathMatch, GameRow, GameSetup, GameStatus, LoggedEntry, NewEntry, NewGame, WhitePlayer};
use crate::ratings::{RatedResult, Rating};
use crate::store::formats::{self, FORMAT};
use crate::store::{Games, StoreError};
use arbiter_engine::Game;
use async_trait::async_trait;
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Row, Type};

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
     deadline_lease = NULL, state_format = $14, clock = $15, home = $16, unshown = $17, rated = $18 \
     WHERE id = $9 AND version = $10 RETURNING id";

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

/// A newer change's news stays unshown.
const MARK_SHOWN: &str = "UPDATE games SET unshown = NULL WHERE id = $1 AND unshown <= $2";

const UNSHOWN_GAMES: &str =
    "SELECT id FROM games WHERE unshown IS NOT NULL AND location LIKE $1 ESCAPE '\\' ORDER BY id";

/// The log with its game's variant, which says how entries of old formats read.
const SELECT_LOG: &str = "SELECT l.seq, l.entry, l.notation, l.at, l.format, l.clock_ms, g.variant FROM game_log l \
     JOIN games g ON g.id = l.game_id WHERE l.game_id = $1 ORDER BY l.seq";

/// Statuses are bound as five parameters (repeating the last) so the SQL stays static.
const SELECT_GAMES_OF: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE (challenger = $1 OR opponent = $1) AND status IN ($2, $3, $4, $5, $6) ORDER BY id DESC"
);

pub(super) const SELECT_TOURNAMENT_GAMES: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE tournament = $1 ORDER BY id"
);

/// Finished rated games in the order they ended (their last logged action or ruling; a game with
/// no log ended when it was last saved), each with that time.
const SELECT_RATED_FINISHED: &str = concat!(
    "SELECT ",
    game_columns!(),
    ", COALESCE((SELECT MAX(l.at) FROM game_log l WHERE l.game_id = games.id), updated_at) AS ended_at \
     FROM games WHERE status = 'finished' AND rated ORDER BY ended_at, id"
);

/// A server's open Death Matches (the index on server and status finds them).
const COUNT_OPEN_MATCHES: &str = "SELECT COUNT(*) AS n FROM games WHERE server = $1 \
     AND status IN ('challenge', 'active') AND deathmatch IS NOT NULL";

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
        let setup: GameSetup = from_json("game setup", &self.setup)?;
        if setup.variant != variant_of(&self.variant)? {
            return Err(corrupt("game setup", "its variant differs from the game's"));
        }
        let needs_rebuild = snapshot.is_none();
        let state = match snapshot {
            Some(state) => state,
            None => setup.start().map_err(|e| corrupt("start position", e))?,
        };
        let status = GameStatus::parse(&self.status).ok_or_else(|| corrupt("game status", &self.status))?;
        let deathmatch: Option<DeathMatch> = self.deathmatch.map(|d| from_json("death match", &d)).transpose()?;
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
    /// Reads a game row; a state that must be rebuilt is rebuilt from the log.
    pub(super) async fn read_game(&self, row: &DB::Row) -> Result<GameRow, StoreError> {
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
                crate::model::rebuild(&game.setup, &log).map_err(|e| corrupt(&format!("game {}", game.id), e))?;
        }
        Ok(game)
    }

    /// Inserts a game in a transaction; returns its id.
    pub(super) async fn insert_in(tx: &mut sqlx::Transaction<'_, DB>, game: &NewGame) -> Result<GameId, StoreError> {
        let [white, black] = game.players.clone().map_or([None, None], |[w, b]| {
            [Some(w.as_str().to_string()), Some(b.as_str().to_string())]
        });
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
            .bind(game.server.as_ref().map(|s| s.as_str().to_string()))
            .bind(game.tournament.map(|t| t.get()))
            .bind(game.is_rated)
            .fetch_one(&mut **tx)
            .await?;
        Ok(row.try_get("id")?)
    }

    /// `update_game`, in the task that runs it to its end.
    async fn save(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        let [white, black] = game.players.clone().map_or([None, None], |[w, b]| {
            [Some(w.as_str().to_string()), Some(b.as_str().to_string())]
        });
        // Every write transaction takes the write lock first (see `Dialect::BEGIN_WRITE`), even
        // one that writes first, so that none can meet a busy snapshot.
        let mut tx = self.begin_write().await?;
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
            .bind(game.home.as_ref().map(|h| h.as_str().to_string()))
            .bind(game.unshown)
            .bind(game.is_rated)
            .fetch_optional(&mut *tx)
            .await?;
        if updated.is_none() {
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
        players::write_ratings(&mut tx, ratings).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every result that moved ratings, in the order the games ended, with when each ended: what
    /// each server's ladder is made of.
    pub(super) async fn rated_results(&self) -> Result<Vec<(RatedResult, i64)>, StoreError> {
        let rows = sqlx::query(SELECT_RATED_FINISHED).fetch_all(&self.pool).await?;
        let mut results = Vec::new();
        for row in &rows {
            let game = self.read_game(row).await?;
            let ended_at: i64 = row.try_get("ended_at")?;
            if let (Some(players), Some(outcome)) = (&game.players, game.state.outcome())
                && let Some(result) = RatedResult::of(game.server.as_ref(), game.setup.variant, players, outcome)
            {
                results.push((result, ended_at));
            }
        }
        Ok(results)
    }

    /// Runs a game query whose first parameter is `key` and whose next five are statuses
    /// (the last repeated, so the SQL stays static).
    pub(super) async fn games_where(
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

#[async_trait]
impl<DB> Games for SqlStore<DB>
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
    async fn insert_game(&self, game: &NewGame) -> Result<GameRow, StoreError> {
        let mut tx = self.begin_write().await?;
        let id = Self::insert_in(&mut tx, game).await?;
        tx.commit().await?;
        self.game(id)
            .await?
            .ok_or_else(|| corrupt("new game", "vanished after insert"))
    }

    async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(SELECT_GAME).bind(id).fetch_optional(&self.pool).await?;
        match row {
            Some(row) => Ok(Some(self.read_game(&row).await?)),
            None => Ok(None),
        }
    }

    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        // A save runs to its end (commit or rollback) even if the request that asked
        // for it is dropped: a transaction cut off half-way (during BEGIN, say) can leave
        // its connection in the pool still holding its locks.
        let store = self.clone();
        let (game, entries, ratings) = (game.clone(), entries.to_vec(), ratings.to_vec());
        tokio::spawn(async move { store.save(&game, &entries, &ratings).await })
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
        self.games_where(SELECT_GAMES_AT, location.as_str(), statuses).await
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

    async fn watch_token(&self, id: GameId, fresh: &str) -> Result<String, StoreError> {
        // Two first asks at once both insert; the one that lands first is every ask's token.
        sqlx::query("INSERT INTO watch_tokens (game_id, token) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING")
            .bind(id)
            .bind(fresh)
            .execute(&self.pool)
            .await?;
        let row = sqlx::query("SELECT token FROM watch_tokens WHERE game_id = $1")
            .bind(id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("token")?)
    }

    async fn game_of_watch_token(&self, token: &str) -> Result<Option<GameId>, StoreError> {
        let row = sqlx::query("SELECT game_id FROM watch_tokens WHERE token = $1")
            .bind(token)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get("game_id")?),
            None => None,
        })
    }

    async fn page_token(&self, id: GameId, role: &str, fresh: &str, replace: bool) -> Result<String, StoreError> {
        if replace {
            sqlx::query("UPDATE page_tokens SET token = $3 WHERE game_id = $1 AND role = $2")
                .bind(id)
                .bind(role)
                .bind(fresh)
                .execute(&self.pool)
                .await?;
        }
        // Two first asks at once both insert; the one that lands first is every ask's token.
        sqlx::query(
            "INSERT INTO page_tokens (token, game_id, role) VALUES ($3, $1, $2) ON CONFLICT (game_id, role) DO NOTHING",
        )
        .bind(id)
        .bind(role)
        .bind(fresh)
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT token FROM page_tokens WHERE game_id = $1 AND role = $2")
            .bind(id)
            .bind(role)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("token")?)
    }

    async fn page_of_token(&self, token: &str) -> Result<Option<(GameId, String)>, StoreError> {
        let row = sqlx::query("SELECT game_id, role FROM page_tokens WHERE token = $1")
            .bind(token)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some((row.try_get("game_id")?, row.try_get("role")?)),
            None => None,
        })
    }

    async fn analysis(&self, id: GameId, viewpoint: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT body FROM analyses WHERE game_id = $1 AND viewpoint = $2")
            .bind(id)
            .bind(viewpoint)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get("body")?),
            None => None,
        })
    }

    async fn save_analysis(&self, id: GameId, viewpoint: &str, body: &str, now: i64) -> Result<(), StoreError> {
        // The first analysis kept is every later request's: one made meanwhile changes nothing.
        sqlx::query(
            "INSERT INTO analyses (game_id, viewpoint, body, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, viewpoint) DO NOTHING",
        )
        .bind(id)
        .bind(viewpoint)
        .bind(body)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn open_matches_on(&self, server: &ServerId) -> Result<i64, StoreError> {
        let row = sqlx::query(COUNT_OPEN_MATCHES)
            .bind(server.as_str())
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }
}
