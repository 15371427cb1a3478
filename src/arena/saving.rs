//! A change to a game and its save: the game is loaded, changed, and saved with its new log
//! entries in one transaction guarded by the version that was read. When another request got
//! there first, the change runs again on the fresh state, so no update is ever lost. What
//! follows a saved change (its news, a round's end) is `after_save`'s, outside the change.

use super::{Arena, ArenaError, Change, Effects, clock_posts, computer, watch};
use crate::ids::GameId;
use crate::model::{GameRow, GameStatus, LogEntry, LoggedEntry, NewEntry};
use crate::ratings::{RatedResult, Rating};
use crate::store::StoreError;
use arbiter_engine::Game;

/// How often a request is retried when another request changed the game first.
const MAX_ATTEMPTS: usize = 8;
/// How often a save is tried again because another result moved its players' ratings first.
/// Each such conflict means another save landed, so these retries always make progress; they
/// back off a little, at random, so that racing results fall out of step.
const MAX_RATING_RETRIES: u32 = 64;
/// How many times a save whose answer was lost is looked for, half a second apart.
const SAVE_CHECKS: usize = 6;

/// A change made, ready to save: the game as it will be stored, its log entries, what it says,
/// and whether it ends the game now.
struct Changed {
    game: GameRow,
    entries: Vec<NewEntry>,
    effects: Effects,
    ends_now: bool,
}

impl Arena {
    /// Loads a game, lets `change` edit it, and saves it (see the module's note). `change` sees
    /// the log only when `with_log` asks for it.
    pub(super) async fn mutate(
        &self,
        id: GameId,
        with_log: bool,
        change: impl Fn(&mut GameRow, &[LoggedEntry], i64) -> Result<Change, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        self.mutate_at(id, None, with_log, change).await
    }

    /// `mutate`, and when `expected` is given only while the game is still at that version (a
    /// button posted then), checked in the same transaction as the change.
    pub(super) async fn mutate_at(
        &self,
        id: GameId,
        expected: Option<i64>,
        with_log: bool,
        change: impl Fn(&mut GameRow, &[LoggedEntry], i64) -> Result<Change, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        let (mut attempts, mut rating_retries) = (0, 0);
        while attempts < MAX_ATTEMPTS {
            let changed = self.change(id, expected, with_log, &change).await?;
            let ratings = match self.rated_result(&changed) {
                Some(result) => self.new_ratings(&result, changed.game.updated_at).await?,
                None => Vec::new(),
            };
            match self.save(&changed, &ratings).await {
                Ok(()) => return Ok(self.after_save(changed).await),
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

    /// The game as it stands, changed by `change`, with what every change says besides: the
    /// clocks of a timed game as of now, and downtime credited to a Death Match's clocks.
    async fn change(
        &self,
        id: GameId,
        expected: Option<i64>,
        with_log: bool,
        change: &impl Fn(&mut GameRow, &[LoggedEntry], i64) -> Result<Change, ArenaError>,
    ) -> Result<Changed, ArenaError> {
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
        let ends_now = !was_finished && game.status == GameStatus::Finished;
        Ok(Changed {
            game,
            entries,
            effects,
            ends_now,
        })
    }

    /// Saves a change, with the players' new ratings when it ends a rated game. A save whose
    /// answer was lost but that was committed all the same counts as saved.
    async fn save(&self, changed: &Changed, ratings: &[Rating]) -> Result<(), StoreError> {
        let game = &changed.game;
        let saved = self.store.update_game(game, &changed.entries, ratings).await;
        if let Err(StoreError::Database(error)) = &saved
            && self.was_saved(game).await
        {
            // The database went away as it answered (a restart, a connection cut): the change
            // stands and the player is told so, rather than asked to try again a move that is
            // already played.
            tracing::warn!(game = %game.id, error = %crate::logging::Quiet(error), "a save's answer was lost, but it was committed");
            return Ok(());
        }
        saved
    }

    /// The result to rate, when the change ends a rated game.
    fn rated_result(&self, changed: &Changed) -> Option<RatedResult> {
        let game = &changed.game;
        match (&game.players, game.state.outcome()) {
            (Some(players), Some(outcome)) if game.is_rated && changed.ends_now => {
                RatedResult::of(game.server.as_ref(), game.setup.variant, players, outcome)
            }
            _ => None,
        }
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

    /// What follows a saved change: it is counted, its news goes to the pages watching, and a
    /// tournament game's end may end its round. The change stands whatever happens here.
    async fn after_save(&self, changed: Changed) -> Effects {
        let Changed {
            game,
            entries,
            mut effects,
            ends_now,
        } = changed;
        let id = game.id;
        tracing::debug!(game = %id, server = ?game.server, version = game.version, "saved a change to a game");
        effects.game = Some(id);
        effects.version = Some(game.version);
        for entry in &entries {
            if matches!(entry.entry, LogEntry::Act { .. }) {
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
        // A deliberate defect (src/broken.rs): `has` is a constant false outside that build.
        if crate::broken::has(crate::broken::Defect::DuplicatedPost) && ends_now {
            effects.posts.extend(effects.posts.clone());
        }
        if let Some(tournament) = game.tournament
            && ends_now
        {
            // Should the round's end fail to be recorded now, `/tournament pair` still sees
            // every result in.
            match self.tournaments().round_finished(tournament).await {
                Ok(round) => effects.posts.extend(round.posts),
                Err(error) => {
                    tracing::error!(tournament = %tournament, error = %crate::logging::Quiet(&error), "could not close a round")
                }
            }
        }
        effects
    }
}
