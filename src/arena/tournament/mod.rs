//! Tournaments: a host creates a Swiss event in a channel, players join until round 1 is paired,
//! and each round's games are ordinary games (their own threads, clocks on the durable
//! scheduler, ratings) that name their tournament. The store is the truth: results are read from
//! the games, and every change to the event is saved under its version, so two hosts (or two
//! processes) pairing at once make one pairing.

mod posts;

use super::caller::{Caller, require_game_here, require_tournament_here};
use super::effects::PairedRound;
use super::messages::{board_post, name, private_prompts};
use super::text::{command, plural, strong, user_written};
use super::turns::conclude;
use super::{ArenaError, Effects, Post, Reply};
use crate::arena::Tournaments;
use crate::clock::GameClock;
use crate::ids::{GameId, Place, Places, ServerId, TournamentId, UserId};
use crate::model::{GameRow, GameSetup, GameStatus, NewGame, NewTournament, TournamentRow, WhitePlayer};
use crate::render::Table;
use crate::store::StoreError;
use crate::tournament::handicap::UNRATED;
use crate::tournament::standings::{Cell, Standing, entrants, standings};
use crate::tournament::swiss::{PairingError, pair_round};
use crate::tournament::{
    Board, BoardResult, Colour, Entry, MOST_PLAYERS, MOST_ROUNDS, Round, TimeSetting, Tournament, TournamentStatus,
    points_text,
};
use arbiter_engine::{AnyGame, EndReason, Game, Outcome, Seat, VariantId};
use posts::{games_list, leaders, pending_boards, plain_post, round_intro, standings_table, title};
use std::collections::HashMap;

/// How often a change is retried when another change to the tournament got there first.
const MAX_ATTEMPTS: usize = 8;
/// The longest name a tournament may have.
const LONGEST_NAME: usize = 80;
/// How far ahead a start may be set.
const LATEST_START_MS: i64 = 60 * crate::clock::DAY_MS;

/// What a host asks for when creating a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRequest {
    pub name: String,
    /// The game of each round.
    pub variants: Vec<VariantId>,
    pub time: TimeSetting,
    /// When round 1 is paired by itself; none: when a host starts it.
    pub starts_at: Option<i64>,
    /// The channel it belongs to (on the server the host created it on).
    pub location: Place,
}

/// A host's ruling on a tournament game still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruling {
    WhiteWins,
    BlackWins,
    Draw,
    /// No result: nobody scores, ratings do not move, and the two count as having met.
    Abort,
}

/// What a change to a tournament produced: the games of a round to create with it, and what to
/// say once it is saved.
struct TournamentChange {
    games: Vec<NewGame>,
    /// Said once saved (the games' posts are added from the saved games).
    effects: Effects,
}

impl TournamentChange {
    fn say(effects: Effects) -> TournamentChange {
        TournamentChange {
            games: Vec::new(),
            effects,
        }
    }
}

/// The result a tournament gives a game.
fn board_result(game: &GameRow) -> BoardResult {
    let Some(outcome) = game.state.outcome().filter(|_| game.status == GameStatus::Finished) else {
        return BoardResult::Pending;
    };
    let by = |seat: Seat| {
        if seat == Seat::First {
            Colour::White
        } else {
            Colour::Black
        }
    };
    match (outcome.winner, outcome.reason) {
        (_, EndReason::Aborted) => BoardResult::Void,
        (Some(seat), reason) => BoardResult::Won {
            by: by(seat),
            forfeit: reason == EndReason::Forfeit,
        },
        (None, _) => BoardResult::Drawn,
    }
}

impl Tournaments<'_> {
    /// A host creates a tournament in a channel; players join until round 1 is paired.
    pub async fn create(self, caller: &Caller, request: TournamentRequest) -> Result<Effects, ArenaError> {
        let host = &caller.user;
        if !caller.hosts_server {
            return Err(ArenaError::Rejected(
                "only hosts (the host role or the Manage Server permission) create tournaments".into(),
            ));
        }
        super::caps::require_room_for_tournament(&*self.store, caller.server.as_ref()).await?;
        // Kept as it is shown: what a reader could not see (direction controls...) taken out.
        let name_given = crate::visible_text::one_line(&request.name);
        if name_given.is_empty() || name_given.chars().count() > LONGEST_NAME {
            return Err(ArenaError::Rejected(format!(
                "give the tournament a name of at most {LONGEST_NAME} characters"
            )));
        }
        if request.variants.is_empty() || request.variants.len() > MOST_ROUNDS {
            return Err(ArenaError::Rejected(format!(
                "a tournament has between 1 and {MOST_ROUNDS} rounds"
            )));
        }
        let now = self.now();
        if let Some(at) = request.starts_at
            && !(now..=now + LATEST_START_MS).contains(&at)
        {
            return Err(ArenaError::Rejected(
                "the start must be in the future, at most 60 days away".into(),
            ));
        }
        let tournament = Tournament {
            name: name_given.to_string(),
            host: host.clone(),
            variants: request.variants,
            time: request.time,
            players: Vec::new(),
            rounds: Vec::new(),
        };
        let row = self
            .store
            .insert_tournament(&NewTournament {
                location: request.location,
                server: caller.server.clone(),
                tournament,
                starts_at: request.starts_at,
                now,
            })
            .await?;
        let t = &row.tournament;
        let rounds: Vec<String> = t
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{} {}", i + 1, v.name()))
            .collect();
        let start = match row.starts_at {
            Some(_) => "Round 1 is paired by itself at the start".to_string(),
            None => format!(
                "Round 1 is paired when the host starts it ({})",
                command("tournament start", &[])
            ),
        };
        let text = format!(
            "{}, hosted by {}: a Swiss of {} round{} ({}).\nTime: {}.\nJoin with {} until round 1 is \
             paired. {start}.",
            strong(&format!("Tournament #{} · {}", row.id, title(t))),
            name(host),
            t.variants.len(),
            plural(t.variants.len()),
            rounds.join(", "),
            t.time.describe(),
            command("tournament join", &[]),
        );
        let mut post = plain_post(&row.location, text);
        post.countdown = row.starts_at.map(|at| super::Countdown {
            what: "It starts".into(),
            at,
        });
        Ok(Effects {
            posts: vec![post],
            ..Default::default()
        })
    }

    /// The tournament `place` means: the newest one still open in that channel (else the last
    /// one that finished there, for its standings), or the one of the game played there.
    pub async fn at(self, place: &Place) -> Result<TournamentId, ArenaError> {
        if let Some(row) = self.store.tournaments_at(place).await?.first() {
            return Ok(row.id);
        }
        if let Some(game) = self.game_at(place).await?
            && let Some(id) = self.store.game(game).await?.and_then(|g| g.tournament)
        {
            return Ok(id);
        }
        Err(ArenaError::Rejected(
            "there is no tournament running here: use this in its channel, or name it with the `tournament` option"
                .into(),
        ))
    }

    pub async fn join(self, id: TournamentId, caller: &Caller) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        let row = self.load_tournament(id).await?;
        require_here(&row, caller)?;
        let variants = row.tournament.variants;
        let rating = self.event_rating(row.server.as_ref(), &variants, user).await?;
        self.change_tournament(id, |row, _| {
            let t = &mut row.tournament;
            if row.status != TournamentStatus::Registering {
                return Err(ArenaError::Rejected(format!(
                    "{} has begun: players may join only until round 1 is paired",
                    title(t)
                )));
            }
            if t.entry_of(user).is_some() {
                return Err(ArenaError::Rejected(format!("you are already in {}", title(t))));
            }
            if t.players.len() >= MOST_PLAYERS {
                return Err(ArenaError::Rejected(format!(
                    "{} is full ({MOST_PLAYERS} players)",
                    title(t)
                )));
            }
            t.players.push(Entry {
                user: user.clone(),
                rating: None,
                withdrawn: false,
            });
            let control = t.time.control_for(rating);
            let text = format!(
                "{} joined {} ({} player{}). Rating for pairing: {rating}; clock: {}.",
                name(user),
                strong(&title(t)),
                t.players.len(),
                plural(t.players.len()),
                control.describe()
            );
            Ok(Some(TournamentChange::say(Effects {
                posts: vec![plain_post(&row.location, text)],
                ..Default::default()
            })))
        })
        .await
    }

    /// A player leaves: before round 1 they are simply off the list; after, they are not paired
    /// again and their results stand (a game of theirs still being played goes on; if they do not
    /// play it, it is lost by forfeit when the round closes).
    pub async fn withdraw(self, id: TournamentId, caller: &Caller) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        self.change_tournament(id, |row, results| {
            require_here(row, caller)?;
            let status = row.status;
            let t = &mut row.tournament;
            let index = t
                .entry_of(user)
                .filter(|&i| !t.players[i].withdrawn)
                .ok_or_else(|| ArenaError::Rejected(format!("you are not playing in {}", title(t))))?;
            if status == TournamentStatus::Finished {
                return Err(ArenaError::Rejected(format!("{} is over", title(t))));
            }
            let mut text = format!("{} withdrew from {}.", name(user), strong(&title(t)));
            if status == TournamentStatus::Registering {
                t.players.remove(index);
            } else {
                t.players[index].withdrawn = true;
                let unfinished = t.rounds.last().and_then(|round| {
                    round
                        .boards
                        .iter()
                        .find(|b| {
                            (&b.white == user || &b.black == user)
                                && results.get(&b.game).is_none_or(|r| r.is_pending())
                        })
                });
                if let Some(board) = unfinished {
                    text.push_str(&format!(
                        " Their game #{} stands: if they do not play it out, it is lost by forfeit when the round closes.",
                        board.game
                    ));
                }
            }
            Ok(Some(TournamentChange::say(Effects {
                posts: vec![plain_post(&row.location, text)],
                ..Default::default()
            })))
        })
        .await
    }

    /// A host closes registration and pairs round 1.
    pub async fn start(self, id: TournamentId, caller: &Caller) -> Result<Effects, ArenaError> {
        let ratings = self.event_ratings(id).await?;
        self.change_tournament(id, |row, results| {
            require_host(row, caller)?;
            if row.status != TournamentStatus::Registering {
                return Err(ArenaError::Rejected(format!(
                    "{} has already begun; {} pairs its next round",
                    title(&row.tournament),
                    command("tournament pair", &[])
                )));
            }
            start(row, &ratings, results, self.now()).map(Some)
        })
        .await
    }

    /// Starts the tournaments at `places` whose start has come (the scheduler calls this); one
    /// with too few players stays open for a host to start.
    pub async fn start_due(self, places: &Places) -> Result<Vec<Effects>, ArenaError> {
        let mut started = Vec::new();
        for id in self.store.tournaments_due(places, self.now()).await? {
            let ratings = self.event_ratings(id).await?;
            let result = self
                .change_tournament(id, |row, results| {
                    let now = self.now();
                    if row.status != TournamentStatus::Registering || row.starts_at.is_none_or(|at| at > now) {
                        return Ok(None);
                    }
                    let registering = row.clone();
                    match start(row, &ratings, results, now) {
                        Ok(change) => Ok(Some(change)),
                        // It cannot start as it stands (too few players for its rounds, say): the
                        // channel is told why, once, and it stays open for a host to start.
                        Err(error) if error.is_user_error() => {
                            *row = registering;
                            row.starts_at = None;
                            let text = format!(
                                "{} was due to start, but could not: {error}. It stays open: a host starts it \
                                 with {} once that is settled.",
                                strong(&title(&row.tournament)),
                                command("tournament start", &[])
                            );
                            Ok(Some(TournamentChange::say(Effects {
                                posts: vec![plain_post(&row.location, text)],
                                ..Default::default()
                            })))
                        }
                        Err(error) => Err(error),
                    }
                })
                .await;
            match result {
                Ok(effects) => started.push(effects),
                Err(error) if error.is_user_error() => tracing::warn!(tournament = %id, %error, "could not start"),
                Err(error) => return Err(error),
            }
        }
        Ok(started)
    }

    /// A host pairs the next round, once every game of the last one has its result.
    pub async fn pair(self, id: TournamentId, caller: &Caller) -> Result<Effects, ArenaError> {
        self.change_tournament(id, |row, results| {
            require_host(row, caller)?;
            let t = &row.tournament;
            match row.status {
                TournamentStatus::Registering => {
                    return Err(ArenaError::Rejected(format!(
                        "{} has not begun: {} pairs round 1",
                        title(t),
                        command("tournament start", &[])
                    )));
                }
                TournamentStatus::Finished => return Err(ArenaError::Rejected(format!("{} is over", title(t)))),
                TournamentStatus::Running => {}
            }
            let (number, round) = t
                .current_round()
                .ok_or_else(|| ArenaError::Rejected("no round yet".into()))?;
            let pending = pending_boards(round, results);
            if !pending.is_empty() {
                return Err(ArenaError::Rejected(format!(
                    "round {number} is still being played ({}). Wait for its results, or close it with \
                     {} after adjudicating the games left",
                    games_list(&pending),
                    command("tournament close-round", &[])
                )));
            }
            if number >= t.variants.len() {
                return Err(ArenaError::Rejected(format!(
                    "all {} rounds of {} have been played",
                    t.variants.len(),
                    title(t)
                )));
            }
            if let Some(round) = row.tournament.rounds.last_mut() {
                round.complete = true;
            }
            pair_next(row, results, self.now()).map(Some)
        })
        .await
    }

    /// A host ends the current round: the unfinished games of players who withdrew are lost by
    /// forfeit; any other unfinished game must be adjudicated first.
    pub async fn close_round(self, id: TournamentId, caller: &Caller) -> Result<Effects, ArenaError> {
        let row = self.load_tournament(id).await?;
        let t = &row.tournament;
        require_host(&row, caller)?;
        let (number, round) = match (row.status, t.current_round()) {
            (TournamentStatus::Running, Some(current)) => current,
            _ => return Err(ArenaError::Rejected(format!("{} has no round being played", title(t)))),
        };
        let results = self.results(id).await?;
        let pending = pending_boards(round, &results);
        let withdrawn = |player: &UserId| t.entry_of(player).is_some_and(|i| t.players[i].withdrawn);
        let (forfeits, to_rule): (Vec<&Board>, Vec<&Board>) = pending
            .iter()
            .partition(|board| withdrawn(&board.white) || withdrawn(&board.black));
        if !to_rule.is_empty() {
            return Err(ArenaError::Rejected(format!(
                "round {number} still has games being played ({}): adjudicate each with {} \
                 (or let them finish), then close the round",
                games_list(&to_rule),
                command("tournament adjudicate", &[])
            )));
        }
        let mut effects = Effects::default();
        for board in forfeits {
            let (white_out, black_out) = (withdrawn(&board.white), withdrawn(&board.black));
            let (outcome, text) = match (white_out, black_out) {
                (true, true) => (
                    Outcome::draw(EndReason::Aborted),
                    "Both players withdrew from the tournament: the game is void.".to_string(),
                ),
                (true, false) => (
                    Outcome::win(Seat::Second, EndReason::Forfeit),
                    format!(
                        "{} withdrew from the tournament: the game is lost by forfeit.",
                        name(&board.white)
                    ),
                ),
                _ => (
                    Outcome::win(Seat::First, EndReason::Forfeit),
                    format!(
                        "{} withdrew from the tournament: the game is lost by forfeit.",
                        name(&board.black)
                    ),
                ),
            };
            let done = self
                .mutate(board.game, false, |game, _, now| {
                    super::require_active(game)?;
                    Ok(conclude(game, outcome.clone(), text.clone(), now))
                })
                .await;
            match done {
                Ok(more) => merge(&mut effects, more),
                // Finished meanwhile (played out at the last moment): its result stands.
                Err(ArenaError::NotActive { .. }) => {}
                Err(error) => return Err(error),
            }
        }
        // The round's end is announced once, by whichever change completed it.
        merge(&mut effects, self.round_finished(id).await?);
        if effects.posts.is_empty() {
            effects.reply = Some(Reply {
                text: format!("Round {number} of {} is already over.", title(t)),
                board: None,
            });
        }
        Ok(effects)
    }

    /// A host rules on a tournament game still being played.
    pub async fn adjudicate(self, game: GameId, caller: &Caller, ruling: Ruling) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        let row = self.store.game(game).await?.ok_or(ArenaError::UnknownGame(game))?;
        require_game_here(&row, caller)?;
        let id = row
            .tournament
            .ok_or_else(|| ArenaError::Rejected(format!("game #{game} is not a tournament game")))?;
        let tournament = self.load_tournament(id).await?;
        require_host(&tournament, caller)?;
        if row.seat_of(user).is_some() {
            // A host rules on others' games, never on their own.
            return Err(ArenaError::Rejected(format!(
                "you play in game #{game}, so another host rules on it"
            )));
        }
        let (outcome, what) = match ruling {
            Ruling::WhiteWins => (
                Outcome::win(Seat::First, EndReason::Adjudication),
                "a win for White (1-0)",
            ),
            Ruling::BlackWins => (
                Outcome::win(Seat::Second, EndReason::Adjudication),
                "a win for Black (0-1)",
            ),
            Ruling::Draw => (Outcome::draw(EndReason::Adjudication), "a draw (½-½)"),
            Ruling::Abort => (Outcome::draw(EndReason::Aborted), "void (aborted: nobody scores)"),
        };
        let text = format!("{} adjudicated the game: {what}.", name(user));
        self.mutate(game, false, |game, _, now| {
            super::require_active(game)?;
            Ok(conclude(game, outcome.clone(), text.clone(), now))
        })
        .await
    }

    async fn load_tournament(self, id: TournamentId) -> Result<TournamentRow, ArenaError> {
        self.store
            .tournament(id)
            .await?
            .ok_or(ArenaError::UnknownTournament(id))
    }

    /// Each game's result, by game.
    async fn results(self, id: TournamentId) -> Result<HashMap<GameId, BoardResult>, ArenaError> {
        let games = self.store.tournament_games(id).await?;
        Ok(games.iter().map(|g| (g.id, board_result(g))).collect())
    }

    /// The rating a player has for a tournament of `variants` on `server`: the mean of their
    /// ratings on that server's ladder in those games, among the ones they have played rated
    /// games of there; 1500 without any.
    async fn event_rating(
        self,
        server: Option<&ServerId>,
        variants: &[VariantId],
        user: &UserId,
    ) -> Result<i32, ArenaError> {
        let ratings: Vec<f64> = self
            .store
            .ratings_of(server, user)
            .await?
            .into_iter()
            .filter(|r| variants.contains(&r.variant))
            .map(|r| r.rating)
            .collect();
        if ratings.is_empty() {
            return Ok(UNRATED);
        }
        Ok((ratings.iter().sum::<f64>() / ratings.len() as f64).round() as i32)
    }

    /// Every entered player's rating for the tournament, as round 1 fixes them.
    async fn event_ratings(self, id: TournamentId) -> Result<HashMap<UserId, i32>, ArenaError> {
        let row = self.load_tournament(id).await?;
        let mut ratings = HashMap::new();
        for entry in &row.tournament.players {
            ratings.insert(
                entry.user.clone(),
                self.event_rating(row.server.as_ref(), &row.tournament.variants, &entry.user)
                    .await?,
            );
        }
        Ok(ratings)
    }

    /// Loads a tournament with its games' results, lets `change` edit it (none: nothing to
    /// save), and saves it with the games it creates in one transaction guarded by the version
    /// that was read; when another change got there first, runs again on the fresh state.
    async fn change_tournament(
        self,
        id: TournamentId,
        change: impl Fn(&mut TournamentRow, &HashMap<GameId, BoardResult>) -> Result<Option<TournamentChange>, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        for _ in 0..MAX_ATTEMPTS {
            let mut row = self.load_tournament(id).await?;
            let results = self.results(id).await?;
            let Some(TournamentChange { games, mut effects }) = change(&mut row, &results)? else {
                return Ok(Effects::default());
            };
            row.version += 1;
            row.updated_at = self.now();
            match self.store.update_tournament(&row, &games).await {
                Ok(created) => {
                    for game in &created {
                        let mut post = board_post(game, round_intro(&row.tournament, game));
                        post.mentions = game.players.clone().map(Vec::from).unwrap_or_default();
                        effects.posts.push(post);
                        effects.direct_messages.extend(private_prompts(game));
                    }
                    if !created.is_empty() {
                        effects.paired_round = Some(PairedRound {
                            tournament: id,
                            round: row.tournament.rounds.len(),
                            games: created.iter().map(|g| g.id).collect(),
                        });
                        // Buttons under the games' first posts are valid at their first version.
                        effects.version = created.first().map(|g| g.version);
                    }
                    return Ok(effects);
                }
                Err(StoreError::TournamentConflict(_)) => {
                    tokio::task::yield_now().await;
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(ArenaError::Rejected(
            "the tournament is busy with other changes right now; please try again".into(),
        ))
    }
}

/// Closes registration: fixes the players' ratings and pairs round 1.
fn start(
    row: &mut TournamentRow,
    ratings: &HashMap<UserId, i32>,
    results: &HashMap<GameId, BoardResult>,
    now: i64,
) -> Result<TournamentChange, ArenaError> {
    let t = &mut row.tournament;
    let rounds = t.variants.len();
    if t.players.len() < 2 {
        return Err(ArenaError::Rejected(format!(
            "{} needs at least two players to start (it has {})",
            title(t),
            t.players.len()
        )));
    }
    // Everyone can meet everyone once: an even field in one round fewer than its size, an odd
    // one (a bye each round) in as many rounds as its size.
    let most_rounds = if t.players.len().is_multiple_of(2) {
        t.players.len() - 1
    } else {
        t.players.len()
    };
    if rounds > most_rounds {
        return Err(ArenaError::Rejected(format!(
            "{} players cannot play {rounds} rounds without meeting twice: find more players, or create the \
             tournament with fewer rounds",
            t.players.len()
        )));
    }
    for entry in &mut t.players {
        entry.rating = Some(ratings.get(&entry.user).copied().unwrap_or(UNRATED));
    }
    row.status = TournamentStatus::Running;
    row.starts_at = None;
    pair_next(row, results, now)
}

/// Pairs the next round: its games, to be created with the tournament's save. When no pairing
/// is left (everyone has met), the tournament ends here.
fn pair_next(
    row: &mut TournamentRow,
    results: &HashMap<GameId, BoardResult>,
    now: i64,
) -> Result<TournamentChange, ArenaError> {
    let number = row.tournament.rounds.len() + 1;
    let Some(variant) = row.tournament.variant_of_round(number) else {
        return Err(ArenaError::Rejected("every round has been played".into()));
    };
    let field = entrants(&row.tournament, results);
    let pairings = match pair_round(&field, row.tournament.variants.len().saturating_sub(number)) {
        Ok(pairings) => pairings,
        Err(reason @ (PairingError::NoPairing | PairingError::TooFewPlayers)) => {
            let t = &row.tournament;
            let table = standings(t, results);
            let text = format!(
                "{} cannot pair round {number}: {reason}. Final standings:\n{}",
                strong(&title(t)),
                leaders(t, &table)
            );
            let mut post = plain_post(&row.location, text);
            post.table = Some(standings_table(t, &table, &format!("{} · final standings", t.name)));
            row.status = TournamentStatus::Finished;
            return Ok(TournamentChange::say(Effects {
                posts: vec![post],
                ..Default::default()
            }));
        }
    };
    let t = &mut row.tournament;
    let user = |index: usize| t.players[index].user.clone();
    let bye = pairings.bye.map(user);
    // The round's boards are its games: the store makes them in the save that pairs the round.
    let games = pairings
        .boards
        .iter()
        .map(|&(white, black)| {
            let (white, black) = (user(white), user(black));
            let state = AnyGame::new(variant);
            let controls = [t.control_of(&white), t.control_of(&black)];
            let mut clock = GameClock::timed(controls, false, now);
            clock.follow(None, &state.to_act(), false, now);
            NewGame {
                setup: GameSetup::new(variant),
                location: row.location.clone(),
                status: GameStatus::Active,
                challenger: white.clone(),
                opponent: black.clone(),
                white_player: WhitePlayer::Challenger,
                players: Some([white, black]),
                state,
                now,
                deathmatch: None,
                clock,
                server: row.server.clone(),
                tournament: Some(row.id),
                is_rated: true,
            }
        })
        .collect();
    t.rounds.push(Round {
        boards: Vec::new(),
        bye,
        complete: false,
    });
    Ok(TournamentChange {
        games,
        effects: Effects::default(),
    })
}

/// Refuses a tournament of another server, as if it did not exist.
fn require_here(row: &TournamentRow, caller: &Caller) -> Result<(), ArenaError> {
    require_tournament_here(row, caller)
}

/// A tournament is run by its own host, or by a host of its server asking there.
fn require_host(row: &TournamentRow, caller: &Caller) -> Result<(), ArenaError> {
    require_here(row, caller)?;
    let t = &row.tournament;
    if t.host == caller.user || caller.hosts_on(row.server.as_ref()) {
        Ok(())
    } else {
        Err(ArenaError::Rejected(format!(
            "only the host ({}) or a host of this server runs {}",
            name(&t.host),
            title(t)
        )))
    }
}

/// Adds `more`'s posts and messages to `effects`.
fn merge(effects: &mut Effects, more: Effects) {
    effects.posts.extend(more.posts);
    effects.direct_messages.extend(more.direct_messages);
    if effects.reply.is_none() {
        effects.reply = more.reply;
    }
}
