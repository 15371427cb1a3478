//! What a game's public page shows (the web transport's live page and overlay): the spectators'
//! view and nothing else, and the news of each change as it is saved, for pages that watch live.
//! A page is found by an unguessable token, never by the game's number.

use super::caller::{Caller, may_look_at};
use super::messages::{board_image_of, name, player_label, status_line};
use super::queries::move_list;
use super::{ArenaError, Watching};
use crate::ids::{GameId, UserId};
use crate::model::{GameRow, GameStatus};
use crate::render::BoardImage;
use arbiter_engine::{EndReason, Game, Seat, Viewer};

/// How many changes a slow page may fall behind before it misses some (it then reloads the
/// game's state, so nothing is lost but the news lines).
pub const NEWS_BACKLOG: usize = 1024;

/// A change to a game, as it was saved: its version, and what was said in its place (in the
/// arena's markup; public words only, as posted).
#[derive(Clone, Debug, PartialEq)]
pub struct GameNews {
    pub game: GameId,
    pub version: i64,
    pub said: Vec<String>,
}

/// A game as its page shows it, at `now`. Words are in the arena's markup (names as users).
#[derive(Clone, Debug, PartialEq)]
pub struct WatchState {
    pub game: GameId,
    pub version: i64,
    pub variant: String,
    pub players: [WatchPlayer; 2],
    /// Whose turn it is, or how the game ended.
    pub status: String,
    pub moves: String,
    pub notes: Vec<String>,
    pub finished: bool,
    pub is_match: bool,
    /// A match's clocks stand still (its host paused them).
    pub paused: bool,
    pub now: i64,
    pub board: BoardImage,
    /// The last actions as news lines ("alice played e4"), oldest first, for a page opened
    /// after them.
    pub recent: Vec<String>,
}

/// How many of the last actions a page opened late shows as its news.
const RECENT_NEWS: usize = 10;

#[derive(Clone, Debug, PartialEq)]
pub struct WatchPlayer {
    pub user: Option<UserId>,
    /// "alice (White)", in markup.
    pub label: String,
    pub seat_name: String,
    pub to_act: bool,
    pub clock: Option<WatchClock>,
}

/// A clock as of the state's `now`: the page counts it down by itself while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchClock {
    pub normal_ms: i64,
    pub reserve_ms: i64,
    /// Whether the game's time control has a reserve (a Death Match's 5 minutes).
    pub has_reserve: bool,
    pub running: bool,
}

impl Watching<'_> {
    /// Every saved change's news, from now on.
    pub fn news(self) -> tokio::sync::broadcast::Receiver<GameNews> {
        self.news.subscribe()
    }

    /// The token of the game's public page, made the first time it is asked for.
    pub async fn token(self, id: GameId) -> Result<String, ArenaError> {
        Ok(self.store.watch_token(id, &fresh_token()).await?)
    }

    /// The token of `user`'s own page in game `id` (`/play/<token>`), where they see what their
    /// seat sees and play by clicking: made the first time, and a new one when `replace` (the
    /// old one then opens nothing). For the game's players alone.
    pub async fn seat_token(self, id: GameId, user: &UserId, replace: bool) -> Result<String, ArenaError> {
        let game = self.load(id).await?;
        let seat = game.seat_of(user).ok_or(ArenaError::NotAPlayer(id))?;
        let role = PageRole::Seat(seat).key();
        Ok(self.store.page_token(id, role, &fresh_token(), replace).await?)
    }

    /// The token of a Death Match's host panel (`/host/<token>`), for its host alone.
    pub async fn host_token(self, id: GameId, user: &UserId, replace: bool) -> Result<String, ArenaError> {
        let game = self.load(id).await?;
        match &game.deathmatch {
            Some(deathmatch) if deathmatch.host == *user => {}
            Some(_) => {
                return Err(ArenaError::Rejected(format!(
                    "only the host of game #{id} has its panel"
                )));
            }
            None => {
                return Err(ArenaError::Rejected(format!(
                    "game #{id} is not a Death Match: it has no host's panel"
                )));
            }
        }
        Ok(self
            .store
            .page_token(id, PageRole::Host.key(), &fresh_token(), replace)
            .await?)
    }

    /// The game and role of a private page's token; none for a token nobody holds now.
    pub async fn page(self, token: &str) -> Result<Option<(GameId, PageRole)>, ArenaError> {
        if !looks_like_a_token(token) {
            return Ok(None);
        }
        Ok(self
            .store
            .page_of_token(token)
            .await?
            .and_then(|(id, role)| Some((id, PageRole::from_key(&role)?))))
    }

    /// The game as `viewer` sees it on a page now: a seat's page shows that seat's secrets.
    pub async fn state_as(self, id: GameId, viewer: Viewer) -> Result<WatchState, ArenaError> {
        let game = self.load(id).await?;
        Ok(watch_state_as(&game, self.now(), viewer))
    }

    /// The token of the game's page, for someone who may look at the game.
    pub async fn token_for(self, id: GameId, caller: &Caller) -> Result<String, ArenaError> {
        let game = self.load(id).await?;
        may_look_at(&game, caller)?;
        self.token(id).await
    }

    /// The game whose page has `token`; none for a token nobody was given (or not a token).
    pub async fn game(self, token: &str) -> Result<Option<GameId>, ArenaError> {
        if !looks_like_a_token(token) {
            return Ok(None);
        }
        Ok(self.store.game_of_watch_token(token).await?)
    }

    /// The game as its page shows it now.
    pub async fn state(self, id: GameId) -> Result<WatchState, ArenaError> {
        let game = self.load(id).await?;
        Ok(watch_state(&game, self.now()))
    }
}

/// Who a private page is for: a seat's player, or a match's host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageRole {
    Seat(Seat),
    Host,
}

impl PageRole {
    /// How the store names it.
    fn key(self) -> &'static str {
        match self {
            PageRole::Seat(Seat::First) => "first",
            PageRole::Seat(Seat::Second) => "second",
            PageRole::Host => "host",
        }
    }

    fn from_key(key: &str) -> Option<PageRole> {
        match key {
            "first" => Some(PageRole::Seat(Seat::First)),
            "second" => Some(PageRole::Seat(Seat::Second)),
            "host" => Some(PageRole::Host),
            _ => None,
        }
    }

    /// What the page shows: a seat's own view; the host sees what spectators see.
    pub fn viewer(self) -> Viewer {
        match self {
            PageRole::Seat(seat) => Viewer::Seat(seat),
            PageRole::Host => Viewer::Spectator,
        }
    }
}

/// 128 random bits from the operating system's generator: nobody guesses a page.
fn fresh_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Whether `token` has a token's shape (32 hexadecimal digits): anything else is not looked up.
fn looks_like_a_token(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The game as its page shows it at `now`: built from the spectators' view alone.
pub fn watch_state(game: &GameRow, now: i64) -> WatchState {
    watch_state_as(game, now, Viewer::Spectator)
}

/// The game as `viewer`'s page shows it at `now`: their board, moves and notes from their own
/// view; the news of the last actions, as everyone heard it, from the spectators'.
pub fn watch_state_as(game: &GameRow, now: i64, viewer: Viewer) -> WatchState {
    let view = game.state.view(viewer);
    let recent = match viewer {
        Viewer::Spectator => recent_news(game, &view),
        _ => recent_news(game, &game.state.view(Viewer::Spectator)),
    };
    let lost_on_time = |seat: Seat| {
        view.outcome
            .as_ref()
            .is_some_and(|o| o.reason == EndReason::Timeout && o.winner == Some(seat.other()))
    };
    let players = Seat::BOTH.map(|seat| WatchPlayer {
        user: game.player(seat).cloned(),
        label: match game.player(seat) {
            Some(_) => player_label(game, &view, seat),
            None => name(if seat == Seat::First {
                &game.challenger
            } else {
                &game.opponent
            }),
        },
        seat_name: view.seat_names[seat.index()].clone(),
        to_act: view.outcome.is_none() && view.to_act.contains(&seat),
        clock: game.clock.left(seat, now).map(|(normal_ms, reserve_ms)| WatchClock {
            // A player who lost on time has no time left, whatever a turn's allowance was.
            normal_ms: if lost_on_time(seat) { 0 } else { normal_ms },
            reserve_ms: if lost_on_time(seat) { 0 } else { reserve_ms },
            has_reserve: game.clock.control(seat).is_some_and(|c| c.reserve_ms > 0),
            running: game.status == GameStatus::Active
                && game.clock.paused_at.is_none()
                && game.clock.running().contains(&seat),
        }),
    });
    let status = match game.status {
        GameStatus::Challenge => "Waiting for the challenge to be accepted.".to_string(),
        GameStatus::Declined => "The challenge was declined.".to_string(),
        GameStatus::Cancelled => "The challenge was cancelled.".to_string(),
        _ => status_line(game, &view),
    };
    WatchState {
        game: game.id,
        version: game.version,
        variant: game.setup.variant.name().to_string(),
        players,
        status,
        // A game of several boards lists each board's moves in its notes.
        moves: if view.boards.len() == 1 {
            move_list(&view)
        } else {
            "Each board's moves are in the notes above.".to_string()
        },
        notes: view.notes.clone(),
        finished: game.status == GameStatus::Finished,
        is_match: game.deathmatch.is_some(),
        paused: game.clock.paused_at.is_some(),
        now,
        recent,
        board: board_image_of(game, view),
    }
}

/// The last actions of the record, as news says them, oldest first.
fn recent_news(game: &GameRow, view: &arbiter_engine::View) -> Vec<String> {
    let first = view.record.len().saturating_sub(RECENT_NEWS);
    view.record[first..]
        .iter()
        .filter_map(|entry| {
            let who = name(game.player(entry.seat)?);
            let did = match (&entry.said, entry.is_hidden) {
                (Some(said), _) => said.clone(),
                (None, true) => entry.text.trim_matches(['(', ')']).to_string(),
                (None, false) => format!("played {}", entry.text),
            };
            Some(format!("{who} {did}"))
        })
        .collect()
}
