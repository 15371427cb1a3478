//! Death Matches: a host starts a timed Blockade Chess or Garden of Statues match between two
//! players; the player holding the Advantage chooses colours; every turn is timed (normal time,
//! then a reserve that is never refilled, a forfeit when it runs out); the host can pause,
//! resume, add time, abort and adjudicate, each announced publicly.

use super::caller::{Caller, require_game_here};
use super::messages::{board_post, name};
use super::text::strong;
use super::time_out::flag_fall;
use super::turns::{conclude, follow_turn};
use super::{ArenaError, Button, Change, Effects, Matches, Post};
use crate::clock::{GameClock, TimeControl, duration};
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::model::{ComputerPlayer, DeathMatch, GameRow, GameSetup, GameStatus, NewGame, WhitePlayer};
use arbiter_engine::{AnyGame, EndReason, Game, Outcome, Seat, VariantId, Viewer};

/// How long the Advantage holder has to choose colours before the bot draws them.
pub const COLOUR_CHOICE_MS: i64 = 120_000;

/// What a host asks for when starting a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRequest {
    pub variant: VariantId,
    pub players: [UserId; 2],
    pub advantage: UserId,
    pub control: TimeControl,
    pub location: Place,
    /// The computer, when it is one of the players (a match against it is not rated).
    pub computer: Option<ComputerPlayer>,
}

impl Matches<'_> {
    /// The matches open at `place` that `user` has a part in (hosting, holding the Advantage or
    /// playing), for a command that names none: it means the only one there is.
    pub async fn open_at(self, place: &Place, user: &UserId) -> Result<Vec<GameId>, ArenaError> {
        let open = self
            .store
            .games_at(place, &[GameStatus::Active, GameStatus::Challenge])
            .await?;
        Ok(open
            .iter()
            .filter(|game| {
                game.deathmatch.as_ref().is_some_and(|dm| {
                    dm.host == *user || dm.advantage == *user || game.challenger == *user || game.opponent == *user
                })
            })
            .map(|game| game.id)
            .collect())
    }

    /// A host starts a Death Match on the server they host (the match belongs to it); the
    /// Advantage holder is asked to choose colours.
    pub async fn start(self, caller: &Caller, request: MatchRequest) -> Result<Effects, ArenaError> {
        if !caller.hosts_server {
            return Err(ArenaError::Rejected(
                "only hosts (the host role or the Manage Server permission) start Death Matches".into(),
            ));
        }
        super::caps::require_room_for_match(&*self.store, caller.server.as_ref()).await?;
        self.open_match(&caller.user, caller.server.clone(), request).await
    }

    /// Creates a match hosted by `host` on `server`: a new one, or a rematch.
    pub(super) async fn open_match(
        self,
        host: &UserId,
        server: Option<ServerId>,
        request: MatchRequest,
    ) -> Result<Effects, ArenaError> {
        check_request(host, &request)?;
        let MatchRequest {
            variant,
            players,
            advantage,
            control,
            location,
            computer,
        } = request;
        let now = self.now();
        // The computer holding the Advantage leaves colours to chance at once.
        let computer_chooses = computer.as_ref().is_some_and(|computer| computer.user == advantage);
        let colours_due = if computer_chooses { now } else { now + COLOUR_CHOICE_MS };
        let setup = GameSetup {
            computer,
            ..GameSetup::new(variant)
        };
        let deathmatch = DeathMatch::new(host.clone(), advantage, colours_due);
        let new = NewGame {
            state: AnyGame::new(variant),
            setup,
            location,
            status: GameStatus::Challenge,
            challenger: players[0].clone(),
            opponent: players[1].clone(),
            white_player: WhitePlayer::Random,
            players: None,
            now,
            deathmatch: Some(deathmatch),
            clock: GameClock::timed([control; 2], true, now),
            server,
            tournament: None,
            // Rated only once both players accept (`match_rating`): a host's word never is consent.
            is_rated: false,
        };
        let game = self.store.insert_game(&new).await?;
        Ok(Effects {
            posts: vec![announcement(&game, match_of(&game)?, control, now)],
            game: Some(game.id),
            version: Some(game.version),
            watch_links: Some(game.id),
            ..Default::default()
        })
    }

    /// Settles the colours: the Advantage holder takes `side` (White/Red moves first); the
    /// host may choose for them. The clock starts for the first turn.
    pub async fn choose_side(self, id: GameId, caller: &Caller, side: Seat) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        self.mutate(id, false, |game, _, now| {
            let deathmatch = match_of(game)?;
            if game.status != GameStatus::Challenge {
                return Err(ArenaError::Rejected(format!(
                    "the colours of game #{} are settled",
                    game.id
                )));
            }
            if &deathmatch.advantage != user && !may_host(game, caller)? {
                return Err(ArenaError::Rejected(format!(
                    "only {} (who holds the Advantage) or the host chooses the colours",
                    name(&deathmatch.advantage)
                )));
            }
            let [first, second] = game.state.view(Viewer::Spectator).seat_names;
            let taken = if side == Seat::First {
                format!("{first} (moves first)")
            } else {
                second.to_string()
            };
            let text = if &deathmatch.advantage == user {
                format!("{} chose to play {taken}.", name(user))
            } else {
                format!("{} chose {taken} for {}.", name(user), name(&deathmatch.advantage))
            };
            Ok(begin(game, side, text, now))
        })
        .await
    }

    /// Freezes or unfreezes the clocks.
    pub async fn pause(self, id: GameId, caller: &Caller, pause: bool) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        self.host_action(id, caller, |game, clock, now| {
            if pause == clock.paused_at.is_some() {
                let state = if pause { "already paused" } else { "not paused" };
                return Err(ArenaError::Rejected(format!(
                    "the clocks of game #{} are {state}",
                    game.id
                )));
            }
            if pause {
                clock.pause(now);
                Ok(format!("{} paused the clocks.", name(user)))
            } else {
                clock.resume(now);
                Ok(format!("{} resumed the clocks.", name(user)))
            }
        })
        .await
    }

    /// Gives a player more reserve.
    pub async fn add_time(self, id: GameId, caller: &Caller, player: &UserId, ms: i64) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        if !(1..=crate::clock::LONGEST_MS).contains(&ms) {
            return Err(ArenaError::Rejected(
                "add a positive amount of time, at most a year".into(),
            ));
        }
        self.host_action(id, caller, |game, clock, now| {
            let seat = game
                .seat_of(player)
                .ok_or_else(|| ArenaError::Rejected(format!("{} is not playing in game #{}", name(player), game.id)))?;
            clock.add_reserve(seat, ms, now);
            Ok(format!(
                "{} gave {} {} more reserve.",
                name(user),
                name(player),
                duration(ms)
            ))
        })
        .await
    }

    /// The host ends a match with a result of their choosing (`winner` none: a draw) or, with
    /// `abort`, with none at all.
    pub async fn adjudicate(
        self,
        id: GameId,
        caller: &Caller,
        winner: Option<&UserId>,
        abort: bool,
    ) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        self.mutate(id, false, |game, _, now| {
            require_host(game, caller)?;
            super::require_active(game)?;
            let (outcome, text) = if abort {
                (
                    Outcome::draw(EndReason::Aborted),
                    format!("{} aborted the match.", name(user)),
                )
            } else {
                match winner {
                    Some(player) => {
                        let seat = game.seat_of(player).ok_or_else(|| {
                            ArenaError::Rejected(format!("{} is not playing in game #{}", name(player), game.id))
                        })?;
                        (
                            Outcome::win(seat, EndReason::Adjudication),
                            format!("{} adjudicated the match to {}.", name(user), name(player)),
                        )
                    }
                    None => (
                        Outcome::draw(EndReason::Adjudication),
                        format!("{} adjudicated the match a draw.", name(user)),
                    ),
                }
            };
            Ok(conclude(game, outcome, text, now))
        })
        .await
    }

    /// Brings a match up to date without changing anything else: after the bot was down, its
    /// clocks are credited and the audience is told at once.
    pub async fn touch(self, id: GameId) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |_, _, _| Ok(Change::nothing())).await
    }

    async fn host_action(
        self,
        id: GameId,
        caller: &Caller,
        action: impl Fn(&GameRow, &mut GameClock, i64) -> Result<String, ArenaError>,
    ) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, now| {
            require_host(game, caller)?;
            super::require_active(game)?;
            if let Some(seat) = game.clock.flagged(now) {
                // The flag fell before the host acted: the game is already lost on time.
                return Ok(flag_fall(game, seat, now));
            }
            if !game.clock.is_timed() {
                return Err(ArenaError::Rejected(format!("game #{} has no clock running", game.id)));
            }
            let mut clock = game.clock.clone();
            let text = action(game, &mut clock, now)?;
            game.clock = clock;
            Ok(Change {
                entries: Vec::new(),
                effects: Effects {
                    posts: vec![board_post(game, text)],
                    ..Default::default()
                },
            })
        })
        .await
    }
}

/// Refuses a match its rules cannot have: the computer where it does not play, a game without
/// Death Matches, one player twice, a host playing, the Advantage to a third, a clock out of
/// bounds.
fn check_request(host: &UserId, request: &MatchRequest) -> Result<(), ArenaError> {
    let MatchRequest {
        variant,
        players,
        advantage,
        control,
        computer,
        ..
    } = request;
    if computer
        .as_ref()
        .is_some_and(|computer| !players.contains(&computer.user))
    {
        return Err(ArenaError::Rejected(
            "the computer plays only the matches it is a player of".into(),
        ));
    }
    if !variant.info().has_death_matches {
        let games: Vec<&str> = VariantId::ALL
            .iter()
            .filter(|v| v.info().has_death_matches)
            .map(|v| v.name())
            .collect();
        return Err(ArenaError::Rejected(format!(
            "Death Matches are played in {}",
            games.join(" or ")
        )));
    }
    if players[0] == players[1] {
        return Err(ArenaError::Rejected("a Death Match needs two different players".into()));
    }
    if players.contains(host) {
        // A host rules on the match's clocks and result: never on their own.
        return Err(ArenaError::Rejected(
            "a host does not play in a match they run: choose two other players, or ask another host".into(),
        ));
    }
    if !players.contains(advantage) {
        return Err(ArenaError::Rejected(
            "the Advantage must go to one of the two players".into(),
        ));
    }
    if control.normal_ms < 1_000 || !control.is_within_bounds() {
        return Err(ArenaError::Rejected(
            "the normal time must be between a second and a year, and the reserve at most a year".into(),
        ));
    }
    Ok(())
}

/// A new match's first post: who plays, who hosts, the clock, the Advantage holder's choice of
/// colours (with its countdown) and, where it may be rated, how it becomes so.
fn announcement(game: &GameRow, deathmatch: &DeathMatch, control: TimeControl, now: i64) -> Post {
    let players = [game.challenger.clone(), game.opponent.clone()];
    let DeathMatch { host, advantage, .. } = deathmatch;
    let [first, second] = game.state.view(Viewer::Spectator).seat_names;
    let text = format!(
        "{} · {}: {} vs {}, hosted by {}. Each turn has {} of normal time, then a \
         reserve of {} that is never refilled; a player whose reserve runs out loses.\n{} holds the \
         Advantage: choose {first} (moves first) or {second}.",
        strong(&format!("Death Match #{}", game.id)),
        game.setup.variant.name(),
        name(&players[0]),
        name(&players[1]),
        name(host),
        duration(control.normal_ms),
        duration(control.reserve_ms),
        name(advantage)
    );
    let (text, buttons) = match super::match_rating::consent_line(game) {
        Some(line) => (
            format!("{text}\n{line}"),
            vec![Button::PlayFirst, Button::PlaySecond, Button::RateMatch],
        ),
        None => (text, vec![Button::PlayFirst, Button::PlaySecond]),
    };
    // Both players hear of it: each is asked whether it is rated (not the computer).
    let mentions = if game.setup.computer.is_some() {
        vec![advantage.clone()]
    } else {
        players.to_vec()
    };
    Post {
        game: Some(game.id),
        location: game.location.clone(),
        text,
        board: None,
        mentions,
        buttons,
        countdown: Some(super::Countdown {
            what: "Colours are drawn at random".into(),
            at: now + COLOUR_CHOICE_MS,
        }),
        table: None,
        stale_at: None,
    }
}

fn match_of(game: &GameRow) -> Result<&DeathMatch, ArenaError> {
    game.deathmatch
        .as_ref()
        .ok_or_else(|| ArenaError::Rejected(format!("game #{} is not a Death Match", game.id)))
}

/// Whether `caller` may run a match's host controls: its own host, or a host of the server it
/// belongs to (asking there), but never one of its players. A match of another server is not
/// there to run at all.
pub(super) fn may_host(game: &GameRow, caller: &Caller) -> Result<bool, ArenaError> {
    // Another server's game is not there, whatever it is: the same answer as a number nobody has.
    require_game_here(game, caller)?;
    let deathmatch = match_of(game)?;
    let plays = [&game.challenger, &game.opponent].contains(&&caller.user);
    Ok(!plays && (deathmatch.host == caller.user || caller.hosts_on(game.server.as_ref())))
}

fn require_host(game: &GameRow, caller: &Caller) -> Result<(), ArenaError> {
    if may_host(game, caller)? {
        return Ok(());
    }
    let host = game.deathmatch.as_ref().map(|d| name(&d.host)).unwrap_or_default();
    let why = if [&game.challenger, &game.opponent].contains(&&caller.user) {
        "you play in it"
    } else {
        "you do not host it"
    };
    Err(ArenaError::Rejected(format!(
        "only the host ({host}) or a host of this server runs game #{} ({why})",
        game.id
    )))
}

/// The Advantage holder did not choose in time: the colours are drawn.
pub(super) fn colours_due(game: &mut GameRow, now: i64) -> Change {
    let Some(deathmatch) = game.deathmatch.clone() else {
        return Change::nothing();
    };
    if deathmatch.colours_due > now {
        return Change::nothing();
    }
    let side = if rand::random::<bool>() {
        Seat::First
    } else {
        Seat::Second
    };
    let text = format!(
        "{} did not choose in time, so the colours were drawn at random.",
        name(&deathmatch.advantage)
    );
    begin(game, side, text, now)
}

/// Seats the players (the Advantage holder on `side`) and starts the first turn's clock.
fn begin(game: &mut GameRow, side: Seat, text: String, now: i64) -> Change {
    let Some(deathmatch) = game.deathmatch.as_mut() else {
        return Change::nothing();
    };
    let advantage = deathmatch.advantage.clone();
    let other = if game.challenger == advantage {
        game.opponent.clone()
    } else {
        game.challenger.clone()
    };
    game.players = Some(if side == Seat::First {
        [advantage, other]
    } else {
        [other, advantage]
    });
    game.status = GameStatus::Active;
    game.turn_since = now;
    follow_turn(game, None, now);
    let mut post = board_post(game, format!("{text} The match begins."));
    if let Some(line) = super::match_rating::consent_line(game) {
        post.text.push('\n');
        post.text.push_str(&line);
        post.buttons.push(Button::RateMatch);
    }
    Change {
        entries: Vec::new(),
        effects: Effects {
            posts: vec![post],
            ..Default::default()
        },
    }
}
