//! A store wrapped around another. Every request passes through to the inner store, after a hook
//! that sees its name (to count it, or hold it back), and saving a game can be taken over (to lose
//! its answer, or drop it). The benchmarks count requests this way, tests slow the database down,
//! and the deliberately broken build drops saves; none of them repeats the roles' methods.

use super::{Deadlines, Games, Players, Store, StoreError, Tournaments, Vitals};
use crate::ids::{GameId, Place, Places, ServerId, TournamentId, UserId};
use crate::model::{
    GameRow, GameStatus, LoggedEntry, NewEntry, NewGame, NewTournament, SavedList, ServerSettings, TournamentRow,
    UserSettings,
};
use crate::ratings::Rating;
use arbiter_engine::VariantId;
use async_trait::async_trait;

/// What a wrapper adds to the store it wraps; [`Layered`] makes it a [`Store`].
#[async_trait]
pub trait Layer: Send + Sync + 'static {
    /// The store every request passes through to.
    fn inner(&self) -> &dyn Store;

    /// Runs before each request, given the name of its method (`"update_game"`, ...).
    async fn before(&self, _request: &'static str) {}

    /// Saves a game (see [`Games::update_game`]): by default, the inner store's save.
    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        self.inner().update_game(game, entries, ratings).await
    }
}

/// A [`Layer`] as a whole store.
pub struct Layered<L>(pub L);

impl<L> std::ops::Deref for Layered<L> {
    type Target = L;

    fn deref(&self) -> &L {
        &self.0
    }
}

/// Implements a role for [`Layered`]: each method named passes through after the hook; the
/// items after the list are written out (what a layer may take over).
macro_rules! passes_through {
    ($role:ident { $($name:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty;)* } $($own:tt)*) => {
        #[async_trait]
        impl<L: Layer> $role for Layered<L> {
            $(
                async fn $name(&self, $($arg: $ty),*) -> $ret {
                    self.0.before(stringify!($name)).await;
                    self.0.inner().$name($($arg),*).await
                }
            )*
            $($own)*
        }
    };
}

passes_through!(Games {
    insert_game(game: &NewGame) -> Result<GameRow, StoreError>;
    game(id: GameId) -> Result<Option<GameRow>, StoreError>;
    log(id: GameId) -> Result<Vec<LoggedEntry>, StoreError>;
    games_of(user: &UserId, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError>;
    games_at(location: &Place, statuses: &[GameStatus]) -> Result<Vec<GameRow>, StoreError>;
    mark_shown(id: GameId, version: i64) -> Result<(), StoreError>;
    unshown_games(places: &Places) -> Result<Vec<GameId>, StoreError>;
    watch_token(id: GameId, fresh: &str) -> Result<String, StoreError>;
    game_of_watch_token(token: &str) -> Result<Option<GameId>, StoreError>;
    page_token(id: GameId, role: &str, fresh: &str, replace: bool) -> Result<String, StoreError>;
    page_of_token(token: &str) -> Result<Option<(GameId, String)>, StoreError>;
    analysis(id: GameId, viewpoint: &str) -> Result<Option<String>, StoreError>;
    save_analysis(id: GameId, viewpoint: &str, body: &str, now: i64) -> Result<(), StoreError>;
    open_matches_on(server: &ServerId) -> Result<i64, StoreError>;
}
    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        self.0.before("update_game").await;
        self.0.update_game(game, entries, ratings).await
    }
);

passes_through!(Deadlines {
    claim_due(places: &Places, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<GameId>, StoreError>;
    earliest_deadline(places: &Places) -> Result<Option<i64>, StoreError>;
    running_matches(places: &Places) -> Result<Vec<GameId>, StoreError>;
    heartbeat(places: &Places, now: i64) -> Result<Option<i64>, StoreError>;
    record_downtime(places: &Places, from: i64, to: i64) -> Result<(), StoreError>;
    downtimes(location: &Place, after: i64) -> Result<Vec<(i64, i64)>, StoreError>;
});

passes_through!(Players {
    settings(user: &UserId) -> Result<UserSettings, StoreError>;
    save_settings(user: &UserId, settings: &UserSettings) -> Result<(), StoreError>;
    server_settings(server: &ServerId) -> Result<ServerSettings, StoreError>;
    save_server_settings(server: &ServerId, settings: &ServerSettings) -> Result<(), StoreError>;
    display_name(user: &UserId) -> Result<Option<String>, StoreError>;
    save_display_name(user: &UserId, name: &str, now: i64) -> Result<(), StoreError>;
    saved_lists(user: &UserId) -> Result<Vec<SavedList>, StoreError>;
    save_list(user: &UserId, list: &SavedList) -> Result<(), StoreError>;
    delete_list(user: &UserId, name: &str) -> Result<bool, StoreError>;
    rating(server: Option<&ServerId>, user: &UserId, variant: VariantId) -> Result<Option<Rating>, StoreError>;
    ratings_of(server: Option<&ServerId>, user: &UserId) -> Result<Vec<Rating>, StoreError>;
    leaderboard(server: Option<&ServerId>, variant: VariantId, limit: i64) -> Result<Vec<Rating>, StoreError>;
});

passes_through!(Tournaments {
    insert_tournament(tournament: &NewTournament) -> Result<TournamentRow, StoreError>;
    tournament(id: TournamentId) -> Result<Option<TournamentRow>, StoreError>;
    tournaments_at(location: &Place) -> Result<Vec<TournamentRow>, StoreError>;
    update_tournament(tournament: &TournamentRow, games: &[NewGame]) -> Result<Vec<GameRow>, StoreError>;
    tournament_games(id: TournamentId) -> Result<Vec<GameRow>, StoreError>;
    tournaments_due(places: &Places, now: i64) -> Result<Vec<TournamentId>, StoreError>;
    open_tournaments_on(server: &ServerId) -> Result<i64, StoreError>;
});

passes_through!(Vitals {
    ping() -> Result<(), StoreError>;
    active_games() -> Result<Vec<(VariantId, i64)>, StoreError>;
}
    fn connections(&self) -> (usize, usize) {
        self.0.inner().connections()
    }
);
