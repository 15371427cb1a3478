//! The arena: takes requests from any transport, decides who may do what, runs the engine, saves
//! atomically, and answers with effects. It never speaks Discord.

mod acting;
mod caller;
pub mod caps;
mod clock_posts;
mod computer;
mod deadlines;
mod deathmatch;
mod effects;
mod error;
mod lifecycle;
pub(crate) mod lists;
mod match_rating;
mod messages;
mod names;
mod news;
mod pgn;
mod piece_card;
mod play;
mod queries;
mod record;
mod rematch;
mod replay;
mod standings;
pub mod text;
mod time_out;
mod tournament;
mod turns;
mod watch;

pub use caller::Caller;
pub use computer::Thinkers;
pub use deathmatch::{COLOUR_CHOICE_MS, MatchRequest};
pub use effects::{
    Button, Countdown, DirectMessage, Effects, PairedRound, PieceChoice, Post, PrivateText, Replay, Reply,
};
pub use error::ArenaError;
pub use lifecycle::{ABANDONED_AFTER_MS, ChallengeRequest, MOST_OPEN_CHALLENGES};
pub use lists::{ListSource, MOST_LIST_BYTES};
pub use pgn::MAX_BYTES as MAX_RECORD_BYTES;
pub use piece_card::piece_card;
pub use play::{Menu, OfferResponse};
pub use queries::{GameFacts, GameSummary, move_list, viewer_of};
pub use record::{ImportRequest, ReplayedRecord, replay_record};
pub use replay::{animation, game_animation};
pub use standings::LEADERBOARD_SIZE;
pub use tournament::{Ruling, TournamentRequest};
pub use watch::{GameNews, WatchClock, WatchPlayer, WatchState, watch_state};

use crate::clock::Clock;
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::ratings::{RatedResult, Rating};
use crate::store::{GameRow, GameStatus, LoggedEntry, NewEntry, Store, StoreError};
use arbiter_engine::{Game, Seat};
use std::sync::Arc;

/// How often a request is retried when another request changed the game first.
const MAX_ATTEMPTS: usize = 8;
/// How often a save is tried again because another result moved its players' ratings first.
/// Each such conflict means another save landed, so these retries always make progress; they
/// back off a little, at random, so that racing results fall out of step.
const MAX_RATING_RETRIES: u32 = 64;
/// How many times a save whose answer was lost is looked for, half a second apart.
const SAVE_CHECKS: usize = 6;

#[derive(Clone)]
pub struct Arena {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    /// Where the computer thinks, shared by every copy of the arena.
    thinkers: Arc<Thinkers>,
    /// Each saved change, for whoever watches games live (their public pages).
    news: tokio::sync::broadcast::Sender<watch::GameNews>,
    /// The games from a player's position whose start was looked at since the process began
    /// (`note_old_start`): each is named in the log once at most.
    starts_seen: Arc<std::sync::Mutex<std::collections::HashSet<GameId>>>,
}

/// What a change to a game produced: log entries to append and effects to perform.
struct Change {
    entries: Vec<NewEntry>,
    effects: Effects,
}

impl Change {
    /// A change with nothing to log or say (the row itself may still have changed).
    fn nothing() -> Change {
        Change {
            entries: Vec::new(),
            effects: Effects::default(),
        }
    }
}

impl Arena {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Arena {
        Arena {
            store,
            clock,
            thinkers: Arc::default(),
            news: tokio::sync::broadcast::channel(watch::NEWS_BACKLOG).0,
            starts_seen: Arc::default(),
        }
    }

    /// The arena with the computer thinking on `thinkers` (rather than one thread, two games of
    /// a server at once).
    /// The store underneath, for the health checks of those who run the bot.
    pub(crate) fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    pub fn with_thinkers(self, thinkers: Thinkers) -> Arena {
        Arena {
            thinkers: Arc::new(thinkers),
            ..self
        }
    }

    /// The arena's time: Unix milliseconds from its clock.
    pub fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// A game as it stands now: its clock credited with any time the bot was down.
    async fn load(&self, id: GameId) -> Result<GameRow, ArenaError> {
        Ok(self.load_credited(id).await?.0)
    }

    /// A game as it stands now, and how much downtime was just credited to its clock.
    async fn load_credited(&self, id: GameId) -> Result<(GameRow, i64), ArenaError> {
        let mut game = self.store.game(id).await?.ok_or(ArenaError::UnknownGame(id))?;
        self.note_old_start(&game);
        let credited = self.credit_downtime(&mut game).await?;
        Ok((game, credited))
    }

    /// A game stored by an earlier release from a position a player gave goes on as it was,
    /// whatever today's check of a start says of that position (stored games are their players'
    /// property); one it would now refuse is named in the log, once a process.
    fn note_old_start(&self, game: &GameRow) {
        let Some(fen) = &game.setup.fen else {
            return;
        };
        let first_look = self
            .starts_seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(game.id);
        // Named, not explained: a start position may hold a secret (Beirut's carriers), and the
        // log holds none.
        if first_look && arbiter_engine::AnyGame::from_players_fen(game.setup.variant, fen).is_err() {
            tracing::warn!(game = %game.id, variant = %game.setup.variant, "a stored game started from a position a new game could not start from; it goes on as it was");
        }
    }

    /// Loads a game, lets `change` edit it, and saves it with its new log entries in one
    /// transaction guarded by the version that was read. When another request got there first,
    /// the whole thing runs again on the fresh state, so no update is ever lost. `change` sees the
    /// log only when `with_log` asks for it.
    async fn mutate(
        &self,
        id: GameId,
        with_log: bool,
        change: impl Fn(&mut GameRow, &[LoggedEntry], i64) -> Result<Change, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        self.mutate_at(id, None, with_log, change).await
    }

    /// `mutate`, and when `expected` is given only while the game is still at that version (a
    /// button posted then), checked in the same transaction as the change.
    async fn mutate_at(
        &self,
        id: GameId,
        expected: Option<i64>,
        with_log: bool,
        change: impl Fn(&mut GameRow, &[LoggedEntry], i64) -> Result<Change, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        let (mut attempts, mut rating_retries) = (0, 0);
        while attempts < MAX_ATTEMPTS {
            let (mut game, credited) = self.load_credited(id).await?;
            if expected.is_some_and(|version| version != game.version) {
                return Err(ArenaError::Stale(id));
            }
            let log = if with_log {
                self.store.log(id).await?
            } else {
                Vec::new()
            };
            let now = self.now();
            let was_finished = game.status == GameStatus::Finished;
            // Set first: what the change posts (clock lines) is as of now.
            game.updated_at = now;
            let Change { entries, mut effects } = change(&mut game, &log, now)?;
            computer::spare_the_computer(&game, &mut effects);
            if credited > 0 && game.deathmatch.is_some() {
                // The audience hears that the clocks stood still while the bot was down.
                effects.posts.insert(0, clock_posts::downtime_post(&game, credited));
            }
            // Every post about a timed game shows its clocks as of now.
            effects.posts = effects
                .posts
                .into_iter()
                .map(|post| clock_posts::with_clocks(post, &game, now))
                .collect();
            game.version += 1;
            if effects.posts.iter().any(|post| post.game == Some(id)) {
                game.unshown = Some(game.version);
            }
            let rated = match (&game.players, game.state.outcome()) {
                (Some(players), Some(outcome))
                    if game.is_rated && !was_finished && game.status == GameStatus::Finished =>
                {
                    RatedResult::of(game.server.as_ref(), game.setup.variant, players, outcome)
                }
                _ => None,
            };
            // Deliberate defects (src/broken.rs): `has` is a constant false outside that build,
            // so these cost nothing on the path every action takes.
            let ends_now = !was_finished && game.status == GameStatus::Finished;
            if crate::broken::has(crate::broken::Defect::DuplicatedPost) && ends_now {
                effects.posts.extend(effects.posts.clone());
            }
            if crate::broken::has(crate::broken::Defect::DroppedSave)
                && game.version % 5 == 0
                && entries
                    .iter()
                    .any(|e| matches!(e.entry, crate::store::LogEntry::Act { .. }))
            {
                effects.game = Some(id);
                effects.version = Some(game.version);
                return Ok(effects);
            }
            let ratings = match &rated {
                Some(result) => self.new_ratings(result, now).await?,
                None => Vec::new(),
            };
            let mut saved = self.store.update_game(&game, &entries, &ratings).await;
            if let Err(StoreError::Database(error)) = &saved
                && self.was_saved(&game).await
            {
                // The database went away as it answered (a restart, a connection cut): the save
                // was committed all the same, so the change stands and the player is told so,
                // rather than asked to try again a move that is already played.
                tracing::warn!(game = %id, error = %crate::logging::Quiet(error), "a save's answer was lost, but it was committed");
                saved = Ok(());
            }
            match saved {
                Ok(()) => {
                    tracing::debug!(game = %id, server = ?game.server, version = game.version, "saved a change to a game");
                    effects.game = Some(id);
                    effects.version = Some(game.version);
                    for entry in &entries {
                        if matches!(entry.entry, crate::store::LogEntry::Act { .. }) {
                            crate::telemetry::action_played(game.setup.variant);
                        }
                    }
                    // Nobody watching is fine: the news is for pages that are open.
                    let _ = self.news.send(watch::GameNews {
                        game: id,
                        version: game.version,
                        said: effects
                            .posts
                            .iter()
                            .filter(|post| post.game == Some(id))
                            .map(|post| post.text.clone())
                            .collect(),
                    });
                    if let Some(tournament) = game.tournament
                        && !was_finished
                        && game.status == GameStatus::Finished
                    {
                        // The game is saved whatever happens here; should the round's end fail to
                        // be recorded now, `/tournament pair` still sees every result in.
                        match self.round_finished(tournament).await {
                            Ok(round) => effects.posts.extend(round.posts),
                            Err(error) => {
                                tracing::error!(tournament = %tournament, error = %crate::logging::Quiet(&error), "could not close a round")
                            }
                        }
                    }
                    return Ok(effects);
                }
                // Another request changed the game: try again on its fresh state.
                Err(StoreError::Conflict(_)) => {
                    attempts += 1;
                    tokio::task::yield_now().await;
                }
                // Another result moved the players' ratings first: rate again from theirs.
                Err(StoreError::RatingConflict) if rating_retries < MAX_RATING_RETRIES => {
                    rating_retries += 1;
                    let pause = rand::random_range(0..=rating_retries.min(20));
                    tokio::time::sleep(std::time::Duration::from_millis(u64::from(pause))).await;
                }
                Err(StoreError::RatingConflict) => return Err(ArenaError::Busy(id)),
                Err(e) => return Err(e.into()),
            }
        }
        Err(ArenaError::Busy(id))
    }

    /// Whether `game` as it was about to be saved is what the store now holds (its version and
    /// state): a save whose answer was lost. The database may be coming back from a restart,
    /// so it is asked a few times.
    async fn was_saved(&self, game: &GameRow) -> bool {
        for attempt in 0..SAVE_CHECKS {
            match self.store.game(game.id).await {
                Ok(stored) => {
                    return stored.is_some_and(|stored| stored.version == game.version && stored.state == game.state);
                }
                Err(_) if attempt + 1 < SAVE_CHECKS => {
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
                Err(_) => {}
            }
        }
        false
    }

    /// The players' ratings after a rated result, from their stored ones on the ladder of the
    /// game's server (the store saves them only if nobody else's result moved them meanwhile).
    async fn new_ratings(&self, result: &RatedResult, now: i64) -> Result<Vec<Rating>, ArenaError> {
        let [first, second] = &result.players;
        let server = result.server.as_ref();
        let current = [
            self.rating_of(server, first, result.variant).await?,
            self.rating_of(server, second, result.variant).await?,
        ];
        Ok(crate::ratings::rate(current, result.winner, now).to_vec())
    }

    /// A player's stored rating in a variant on a server's ladder, or the one every player
    /// starts from there.
    async fn rating_of(
        &self,
        server: Option<&ServerId>,
        user: &UserId,
        variant: arbiter_engine::VariantId,
    ) -> Result<Rating, ArenaError> {
        let stored = self.store.rating(server, user, variant).await?;
        Ok(stored.unwrap_or_else(|| Rating::initial(server.cloned(), user.clone(), variant)))
    }
}

impl Arena {
    /// A button pressed under a post made at `version`: it answers only while the game is still
    /// there, so an old "Accept draw" never accepts a newer offer. A game the button starts (a
    /// rematch) is offered at `place`. (Accepting a challenge and opening a private menu have
    /// their own entry points: they do more than one step.)
    pub async fn press(
        &self,
        id: GameId,
        caller: &Caller,
        button: Button,
        version: i64,
        place: &Place,
    ) -> Result<Effects, ArenaError> {
        let at = Some(version);
        let user = &caller.user;
        match button {
            Button::DeclineChallenge => self.decline_at(id, user, at).await,
            Button::AcceptDraw => self.draw_at(id, user, OfferResponse::Accept, at).await,
            Button::DeclineDraw => self.draw_at(id, user, OfferResponse::Decline, at).await,
            Button::AcceptTakeback => self.takeback_at(id, user, OfferResponse::Accept, at).await,
            Button::DeclineTakeback => self.takeback_at(id, user, OfferResponse::Decline, at).await,
            // Colours are chosen once, while they are still to choose (the arena checks): a player
            // accepting a rated match meanwhile leaves the buttons standing.
            Button::PlayFirst => self.choose_side(id, caller, Seat::First).await,
            Button::PlaySecond => self.choose_side(id, caller, Seat::Second).await,
            Button::AcceptChallenge => self.accept(id, user).await,
            Button::ChoosePrivately => self.private_prompt(id, user).await,
            // However often it is pressed, one rematch starts (the arena checks the game itself).
            Button::Rematch => self.rematch(id, caller, place).await,
            // Consent stands until the first placement, whatever else happened since the post.
            Button::RateMatch => self.accept_rating(id, caller).await,
        }
    }
}

/// Refuses anything but an active game.
fn require_active(game: &GameRow) -> Result<(), ArenaError> {
    let state = match game.status {
        GameStatus::Active => return Ok(()),
        GameStatus::Challenge => "still a challenge waiting to be accepted",
        GameStatus::Finished => "over",
        GameStatus::Declined => "a declined challenge",
        GameStatus::Cancelled => "a cancelled challenge",
    };
    Err(ArenaError::NotActive { id: game.id, state })
}
