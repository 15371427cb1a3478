//! Challenges, and the ways a game ends off the board: resignation, abort.

use super::messages::{board_post, name, private_prompts};
use super::turns::{conclude, follow_turn};
use super::{Arena, ArenaError, Challenges, Change, Effects, Play, require_active};
use crate::clock::{DAY_MS, GameClock, TimeControl, duration_words};
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::model::effective_actions;

/// How long a player may leave a game untouched before their opponent may claim it.
pub const ABANDONED_AFTER_MS: i64 = 30 * DAY_MS;
use crate::model::{GameRow, GameSetup, GameStatus, NewGame, WhitePlayer};
use arbiter_engine::start::{Start, StartError};
use arbiter_engine::{EndReason, Game, Outcome, Seat, Viewer};

/// What a challenge asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRequest {
    pub opponent: UserId,
    pub setup: GameSetup,
    pub white_player: WhitePlayer,
    /// None: untimed.
    pub control: Option<TimeControl>,
    /// Where the game is played.
    pub location: Place,
    /// The server it belongs to (for leaderboards).
    pub server: Option<ServerId>,
}

impl ChallengeRequest {
    /// An untimed challenge on no particular server.
    pub fn untimed(
        opponent: &UserId,
        setup: GameSetup,
        white_player: WhitePlayer,
        location: impl Into<Place>,
    ) -> ChallengeRequest {
        ChallengeRequest {
            opponent: opponent.clone(),
            setup,
            white_player,
            control: None,
            location: location.into(),
            server: None,
        }
    }
}

/// The most unanswered challenges one player may have open at once.
pub const MOST_OPEN_CHALLENGES: usize = 20;

impl Challenges<'_> {
    /// Challenges `request.opponent` to a game played at `request.location`.
    pub async fn challenge(self, challenger: &UserId, request: ChallengeRequest) -> Result<Effects, ArenaError> {
        let ChallengeRequest {
            opponent,
            setup,
            white_player,
            control,
            location,
            server,
        } = request;
        let opponent = &opponent;
        if challenger == opponent {
            return Err(ArenaError::SelfChallenge);
        }
        // The computer plays whoever asks, at once; its games move no ratings.
        let against_computer = match &setup.computer {
            Some(computer) if computer.user == *opponent => true,
            Some(_) => {
                return Err(ArenaError::Rejected(
                    "the computer plays only the games it is challenged to".into(),
                ));
            }
            None => false,
        };
        self.check_open_challenges(challenger).await?;
        let Start {
            game: state,
            notes,
            fen,
        } = setup.start_new().map_err(refused_start)?;
        // Kept as the game keeps it (rights dropped taken out), which is what it replays from.
        let setup = GameSetup { fen, ..setup };
        let now = self.now();
        let clock = match control {
            Some(control) => GameClock::timed([control; 2], false, now),
            None => GameClock::untimed(now),
        };
        let new = NewGame {
            setup,
            location,
            status: GameStatus::Challenge,
            challenger: challenger.clone(),
            opponent: opponent.clone(),
            white_player,
            players: None,
            state,
            now,
            deathmatch: None,
            clock,
            server,
            tournament: None,
            is_rated: !against_computer,
        };
        let game = self.store.insert_game(&new).await?;
        if against_computer {
            let mut effects = self.accept(game.id, opponent).await?;
            effects.own_place = Some(game.id);
            if let Some(first) = effects.posts.first_mut() {
                for note in &notes {
                    first.text.push('\n');
                    first.text.push_str(note);
                }
            }
            return Ok(effects);
        }
        // The first seat by the game's own name: White, Red, or Assault's A.
        let first = game.state.view(Viewer::Spectator).seat_names[0].clone();
        let colours = match white_player {
            WhitePlayer::Random => "sides drawn at random".to_string(),
            WhitePlayer::Challenger => format!("{} plays {first}", name(challenger)),
            WhitePlayer::Opponent => format!("{} plays {first}", name(opponent)),
        };
        let timing = match control {
            Some(control) => format!(" · {}", control.describe()),
            None => String::new(),
        };
        let mut text = format!(
            "Game #{} · {}{timing}: {} challenges {} ({colours}). {}, accept or decline.",
            game.id,
            game.setup.variant.name(),
            name(challenger),
            name(opponent),
            name(opponent)
        );
        for note in &notes {
            text.push('\n');
            text.push_str(note);
        }
        let post = super::Post {
            game: Some(game.id),
            location: game.location.clone(),
            text,
            board: None,
            mentions: vec![opponent.clone()],
            buttons: vec![super::Button::AcceptChallenge, super::Button::DeclineChallenge],
            countdown: None,
            table: None,
            stale_at: None,
        };
        Ok(Effects {
            posts: vec![post],
            game: Some(game.id),
            version: Some(game.version),
            ..Default::default()
        })
    }

    /// A member cannot flood a server with challenges (or offers of imported games) nobody
    /// answers: refuses one more past [`MOST_OPEN_CHALLENGES`].
    pub(super) async fn check_open_challenges(self, challenger: &UserId) -> Result<(), ArenaError> {
        let open = self
            .store
            .games_of(challenger, &[GameStatus::Challenge])
            .await?
            .into_iter()
            .filter(|game| &game.challenger == challenger && game.deathmatch.is_none())
            .count();
        if open >= MOST_OPEN_CHALLENGES {
            return Err(ArenaError::Rejected(format!(
                "you have {open} challenges nobody has answered yet, the most one may have; cancel some \
                 ({} lists them) or wait for answers",
                super::text::command("games", &[])
            )));
        }
        Ok(())
    }

    /// The opponent accepts: colours are settled and the game begins.
    pub async fn accept(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        let challenger_is_white = rand::random::<bool>();
        self.mutate(id, false, |game, _, now| {
            answerable_challenge(game, user)?;
            let challenger_is_white = match game.white_player {
                WhitePlayer::Random => challenger_is_white,
                WhitePlayer::Challenger => true,
                WhitePlayer::Opponent => false,
            };
            let (white, black) = if challenger_is_white {
                (game.challenger.clone(), game.opponent.clone())
            } else {
                (game.opponent.clone(), game.challenger.clone())
            };
            game.players = Some([white, black]);
            game.status = GameStatus::Active;
            game.turn_since = now;
            follow_turn(game, None, now);
            // An imported game's offer goes on from where its record ends.
            let begins = if game.state.view(Viewer::Spectator).record.is_empty() {
                "The game begins."
            } else {
                "The game goes on from where its record ends."
            };
            let accepted = match &game.setup.computer {
                Some(computer) => format!(
                    "{} plays the computer, {} (level {}, not rated). {begins}",
                    name(&game.challenger),
                    name(user),
                    computer.level
                ),
                None => format!("{} accepted. {begins}", name(user)),
            };
            let post = board_post(game, accepted);
            Ok(Change {
                entries: Vec::new(),
                effects: Effects {
                    posts: vec![post],
                    direct_messages: private_prompts(game),
                    ..Default::default()
                },
            })
        })
        .await
    }

    pub async fn decline(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        self.decline_at(id, user, None).await
    }

    pub(super) async fn decline_at(
        self,
        id: GameId,
        user: &UserId,
        version: Option<i64>,
    ) -> Result<Effects, ArenaError> {
        self.mutate_at(id, version, false, |game, _, _| {
            answerable_challenge(game, user)?;
            game.status = GameStatus::Declined;
            Ok(Change {
                entries: Vec::new(),
                effects: plain_post(game, format!("{} declined the challenge.", name(user))),
            })
        })
        .await
    }

    /// The challenger withdraws a challenge not yet answered.
    pub async fn cancel(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, _| {
            refuse_deathmatch(game, "only the host calls it off")?;
            if game.status != GameStatus::Challenge {
                return Err(super::require_active(game)
                    .err()
                    .unwrap_or(ArenaError::Rejected(format!(
                        "game #{} has already started; resign or abort it instead",
                        game.id
                    ))));
            }
            if &game.challenger != user {
                return Err(ArenaError::NotTheChallenger(name(&game.challenger)));
            }
            game.status = GameStatus::Cancelled;
            Ok(Change {
                entries: Vec::new(),
                effects: plain_post(game, format!("{} withdrew the challenge.", name(user))),
            })
        })
        .await
    }
}

impl Play<'_> {
    pub async fn resign(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, now| {
            let seat = seated(game, user)?;
            let outcome = Outcome::win(seat.other(), EndReason::Resignation);
            Ok(conclude(game, outcome, format!("{} resigned.", name(user)), now))
        })
        .await
    }

    /// Calls a game off before both players have acted; it counts for nobody.
    pub async fn abort(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, now| {
            seated(game, user)?;
            refuse_deathmatch(game, "only the host calls it off")?;
            let record = game.state.view(Viewer::Spectator).record;
            let both_acted = Seat::BOTH.iter().all(|s| record.iter().any(|e| e.seat == *s));
            if both_acted {
                return Err(ArenaError::Rejected(
                    "both players have already moved, so the game can no longer be aborted; resign or offer a draw"
                        .into(),
                ));
            }
            let outcome = Outcome::draw(EndReason::Aborted);
            Ok(conclude(
                game,
                outcome,
                format!("{} aborted the game.", name(user)),
                now,
            ))
        })
        .await
    }

    /// The waiting player claims a game their opponent has left untouched for
    /// [`ABANDONED_AFTER_MS`]: a win, or an abort if the opponent never acted at all.
    pub async fn claim_abandoned(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        self.mutate(id, true, |game, log, now| {
            let seat = seated(game, user)?;
            refuse_deathmatch(game, "the host rules on a player who does not come back")?;
            let absent = seat.other();
            if !game.state.to_act().contains(&absent) || game.state.to_act().contains(&seat) {
                return Err(ArenaError::Rejected(format!(
                    "game #{} is waiting for you, not for your opponent",
                    game.id
                )));
            }
            let since = game.clock.turns[absent.index()].map_or(game.turn_since, |turn| turn.started_at);
            let claimable_at = since + ABANDONED_AFTER_MS;
            if now < claimable_at {
                return Err(ArenaError::Rejected(format!(
                    "game #{} has waited {} for your opponent; you may claim it once it has waited {} (in {})",
                    game.id,
                    duration_words(now - since),
                    duration_words(ABANDONED_AFTER_MS),
                    duration_words(claimable_at - now)
                )));
            }
            let absentee = game.player(absent).map(name).unwrap_or_default();
            let has_acted = effective_actions(log).iter().any(|(s, _)| *s == absent);
            let (outcome, text) = if has_acted {
                (
                    Outcome::win(seat, EndReason::Abandoned),
                    format!(
                        "{absentee} left the game untouched for {}; {} claimed it.",
                        duration_words(now - since),
                        name(user)
                    ),
                )
            } else {
                (
                    Outcome::draw(EndReason::Aborted),
                    format!(
                        "{absentee} never made a move in {}; {} called the game off.",
                        duration_words(now - since),
                        name(user)
                    ),
                )
            };
            Ok(conclude(game, outcome, text, now))
        })
        .await
    }
}

/// The seat of `user` in an active game.
pub(super) fn seated(game: &GameRow, user: &UserId) -> Result<Seat, ArenaError> {
    require_active(game)?;
    game.seat_of(user).ok_or(ArenaError::NotAPlayer(game.id))
}

/// A Death Match is begun, ended and called off by its host and its clocks, never by the
/// challenge and abort commands of ordinary games.
fn refuse_deathmatch(game: &GameRow, what: &str) -> Result<(), ArenaError> {
    match &game.deathmatch {
        Some(deathmatch) => Err(ArenaError::Rejected(format!(
            "game #{} is a Death Match: {what} (ask the host, {})",
            game.id,
            name(&deathmatch.host)
        ))),
        None => Ok(()),
    }
}

fn answerable_challenge(game: &GameRow, user: &UserId) -> Result<(), ArenaError> {
    refuse_deathmatch(game, "the Advantage holder chooses colours with the buttons")?;
    if game.status != GameStatus::Challenge {
        return Err(ArenaError::Rejected(format!(
            "game #{} is no longer an open challenge",
            game.id
        )));
    }
    if &game.opponent != user {
        return Err(ArenaError::NotTheOpponent(name(&game.opponent)));
    }
    Ok(())
}

fn plain_post(game: &GameRow, text: String) -> Effects {
    let post = super::Post::plain(Some(game.id), &game.location, format!("Game #{}: {text}", game.id));
    Effects {
        posts: vec![post],
        ..Default::default()
    }
}

/// Why a position a player gave starts no game, in their words: a FEN that does not read is shown
/// its shape (whoever types one by hand may not know it); one the game's rules cannot play says
/// why.
pub(super) fn refused_start(error: StartError) -> ArenaError {
    match error {
        StartError::Unreadable(e) => ArenaError::Rejected(format!(
            "the start position: {e}. A FEN gives the ranks from the top down, separated by / (a digit \
             counts empty squares), then the side to move and the rest, like \
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 (docs/fen.md has each game's)"
        )),
        StartError::Refused(why) => ArenaError::Rejected(format!("that position cannot start a game: {why}")),
    }
}

/// Where a game is played: a place of its own, and back home when it is lost.
impl Arena {
    /// Moves a game to another place (a thread opened for it); nothing else changes. The first
    /// place it leaves stays its home, where it goes back should its new place be lost.
    pub async fn relocate(&self, id: GameId, location: &Place) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, _| {
            if game.home.is_none() && game.location != *location {
                game.home = Some(game.location.clone());
            }
            game.location = location.clone();
            Ok(Change {
                entries: Vec::new(),
                effects: Effects::default(),
            })
        })
        .await
    }

    /// Moves a game whose place is lost (its thread deleted, or one the transport may no longer
    /// post in) back to its home, with a post there that says so, shows the board and pings
    /// both players (a finished game moves without one). `None` when it has nowhere else to go (no home, or the home is what was
    /// lost); a game that left `lost` already stays where it is, with nothing to post. A game
    /// stored before games had homes goes to `fallback`, where the transport found one.
    pub async fn move_home(
        &self,
        id: GameId,
        lost: &Place,
        fallback: Option<&Place>,
    ) -> Result<Option<Effects>, ArenaError> {
        let Some(game) = self.store.game(id).await? else {
            return Ok(None);
        };
        let home = game.home.clone().or_else(|| fallback.cloned());
        let Some(home) = home.filter(|home| home != lost) else {
            return Ok(None);
        };
        if game.location != *lost {
            return Ok(Some(Effects {
                game: Some(id),
                version: Some(game.version),
                ..Default::default()
            }));
        }
        let moved = self
            .mutate(id, false, |game, _, _| {
                if game.location != *lost {
                    return Ok(Change::nothing());
                }
                game.location = home.clone();
                if game.status == GameStatus::Finished {
                    // Nothing carries on: the post that found the place lost (its result)
                    // follows here, and a second board with the result would say it twice.
                    return Ok(Change::nothing());
                }
                let text = "This game's thread is gone or closed to me, so the game carries on here.".to_string();
                let mut post = board_post(game, text);
                post.mentions = game.players.clone().map(Vec::from).unwrap_or_default();
                Ok(Change {
                    entries: Vec::new(),
                    effects: Effects {
                        posts: vec![post],
                        ..Default::default()
                    },
                })
            })
            .await?;
        Ok(Some(moved))
    }
}
