//! The arena: takes requests from any transport, decides who may do what, runs the engine, saves
//! atomically, and answers with effects. It never speaks Discord. Its requests stand in domains
//! (`domains.rs`: play, challenges, matches, tournaments, lists, records, watching, clocks,
//! players); `Arena` itself wires them together and looks things up for all of them.

mod acting;
mod analysis;
mod caller;
pub mod caps;
mod clock_posts;
mod computer;
mod deadlines;
mod deathmatch;
mod domains;
mod effects;
mod error;
pub mod guide;
mod lifecycle;
pub(crate) mod lists;
mod match_rating;
mod messages;
mod names;
mod pgn;
mod piece_card;
mod play;
mod queries;
mod record;
mod rematch;
mod replay;
mod saving;
mod shown;
mod standings;
pub mod text;
mod time_out;
mod tournament;
mod turns;
mod watch;

pub use analysis::{
    DEFAULT_NODES_PER_POSITION as DEFAULT_ANALYSIS_NODES, RecordAnalysis, analyse_record, written_record,
};
pub use caller::Caller;
pub use computer::Thinkers;
pub use deathmatch::{COLOUR_CHOICE_MS, MatchRequest};
pub use domains::{Challenges, Clocks, Lists, Matches, Play, Players, Records, Tournaments, Watching};
pub use effects::{
    AnalysisReport, Button, Countdown, DirectMessage, Effects, PairedRound, Post, PrivateText, Replay, Reply,
};
pub use error::ArenaError;
pub use lifecycle::{ABANDONED_AFTER_MS, ChallengeRequest, MOST_OPEN_CHALLENGES};
pub use lists::{ListSource, MOST_LIST_BYTES};
pub use pgn::MAX_BYTES as MAX_RECORD_BYTES;
pub use piece_card::piece_card;
pub use play::{Menu, OfferResponse};
pub use queries::{GameFacts, GameSummary, move_list, viewer_of};
pub use record::{ImportRequest, ReplayedRecord, replay_record, replay_record_for_audience};
pub use replay::{animation, game_animation};
pub use standings::LEADERBOARD_SIZE;
pub use tournament::{Ruling, TournamentRequest};
pub use watch::{GameNews, PageRole, WatchClock, WatchPlayer, WatchState, watch_state, watch_state_as};

use crate::clock::Clock;
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::model::{GameRow, GameStatus, NewEntry};
use crate::ratings::{RatedResult, Rating};
use crate::store::Store;
use arbiter_engine::Seat;
use std::sync::Arc;

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
    /// The analyses of finished games running now, one a game.
    analysing: Arc<analysis::Analysing>,
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
            analysing: Arc::default(),
        }
    }

    /// What those who run the bot watch of the store underneath (its health checks).
    pub fn vitals(&self) -> Arc<dyn crate::store::Vitals> {
        self.store.clone()
    }

    /// The arena with the computer thinking on `thinkers` (rather than one thread, two games of
    /// a server at once).
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
        let credited = self.clocks().credit_downtime(&mut game).await?;
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
            Button::DeclineChallenge => self.challenges().decline_at(id, user, at).await,
            Button::AcceptDraw => self.play().draw_at(id, user, OfferResponse::Accept, at).await,
            Button::DeclineDraw => self.play().draw_at(id, user, OfferResponse::Decline, at).await,
            Button::AcceptTakeback => self.play().takeback_at(id, user, OfferResponse::Accept, at).await,
            Button::DeclineTakeback => self.play().takeback_at(id, user, OfferResponse::Decline, at).await,
            // Colours are chosen once, while they are still to choose (the arena checks): a player
            // accepting a rated match meanwhile leaves the buttons standing.
            Button::PlayFirst => self.matches().choose_side(id, caller, Seat::First).await,
            Button::PlaySecond => self.matches().choose_side(id, caller, Seat::Second).await,
            Button::AcceptChallenge => self.challenges().accept(id, user).await,
            Button::ChoosePrivately => self.play().private_prompt(id, user).await,
            // However often it is pressed, one rematch starts (the arena checks the game itself).
            Button::Rematch => self.challenges().rematch(id, caller, place).await,
            // Consent stands until the first placement, whatever else happened since the post.
            Button::RateMatch => self.matches().accept_rating(id, caller).await,
            // Its menus are the transport's to show, from `play().guide`.
            Button::Move => Err(ArenaError::Rejected(
                "the Move button opens its menus where it is pressed; or type the move with /move".into(),
            )),
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
