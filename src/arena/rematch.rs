//! Rematches: a finished game's final post offers the same game again, with the same time
//! control and the sides swapped. A Death Match's rematch is its host's to start (its players
//! may only ask the host for one), and its Advantage holder chooses colours again; a rematch
//! never gives anyone powers they did not have.

use super::caller::Caller;
use super::deathmatch::{MatchRequest, may_host};
use super::lifecycle::ChallengeRequest;
use super::messages::{board_post, name};
use super::{ArenaError, Button, Challenges, Change, Effects};
use crate::ids::{GameId, Place};
use crate::model::{GameRow, GameStatus, Offer, OfferKind, WhitePlayer};
use arbiter_engine::Seat;

/// Who asks for a rematch, and so what asking does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asker {
    /// A player of an ordinary game: the rematch is a challenge to the other player.
    Player(Seat),
    /// A player of a Death Match: the host is asked.
    MatchPlayer,
    /// The match's host (or a host of its server): the rematch is a new match they host.
    Host,
}

impl Challenges<'_> {
    /// `caller` asks for a rematch of a finished game, offered at `place`. However often it is
    /// asked, and by whichever player, one rematch starts.
    pub async fn rematch(self, id: GameId, caller: &Caller, place: &Place) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        let asker = who_asks(&game, caller)?;
        let controls = game.clock.controls;
        if controls.is_some_and(|[first, second]| first != second) {
            return Err(ArenaError::Rejected(
                "the players of this game had different time controls; start its rematch with a new challenge".into(),
            ));
        }
        if asker == Asker::MatchPlayer {
            return self.ask_the_host(id, caller).await;
        }
        if game.deathmatch.is_some() {
            // A match's rematch opens a match: within the server's cap, checked before the
            // rematch is marked as asked, so a refused one can be asked again once there is room.
            super::caps::require_room_for_match(&*self.store, game.server.as_ref()).await?;
        }
        // Marked first, in a change checked against the game as it then stands: of two asks at
        // once, the second finds the rematch asked for.
        self.mutate(id, false, |game, _, _| {
            let by = match who_asks(game, caller)? {
                Asker::Player(seat) => seat,
                _ => Seat::First,
            };
            game.offer = Some(Offer {
                kind: OfferKind::Rematch,
                by,
                game: None,
            });
            Ok(Change::nothing())
        })
        .await?;
        let players = game.players.clone().ok_or(ArenaError::NotAPlayer(id))?;
        let control = controls.map(|[first, _]| first);
        let effects = match (&game.deathmatch, asker) {
            (Some(deathmatch), _) => {
                let request = MatchRequest {
                    variant: game.setup.variant,
                    players: [game.challenger.clone(), game.opponent.clone()],
                    advantage: deathmatch.advantage.clone(),
                    control: control.unwrap_or(crate::clock::TimeControl::STANDARD),
                    location: place.clone(),
                    computer: game.setup.computer.clone(),
                };
                // The host of the rematch is whoever hosts it now: the match's own host, or a
                // host of its server, who runs its matches already.
                self.matches()
                    .open_match(&caller.user, game.server.clone(), request)
                    .await?
            }
            (None, asker) => {
                let seat = match asker {
                    Asker::Player(seat) => seat,
                    _ => Seat::First,
                };
                let opponent = players[seat.other().index()].clone();
                // The sides swap: whoever moved first now moves second.
                let white_player = if seat == Seat::First {
                    WhitePlayer::Opponent
                } else {
                    WhitePlayer::Challenger
                };
                let request = ChallengeRequest {
                    opponent,
                    setup: game.setup.clone(),
                    white_player,
                    control,
                    location: place.clone(),
                    server: game.server.clone(),
                };
                self.challenge(&caller.user, request).await?
            }
        };
        if let Some(new) = effects.game {
            // Remembered, so a later press can say which game the rematch is.
            let noted = self
                .mutate(id, false, |game, _, _| {
                    if let Some(offer) = game.offer.as_mut() {
                        offer.game = Some(new);
                    }
                    Ok(Change::nothing())
                })
                .await;
            if let Err(error) = noted {
                tracing::warn!(game = %id, %error, "could not note a rematch's game");
            }
        }
        Ok(effects)
    }

    /// A Death Match's player asks its host for a rematch: a post that pings the host, with the
    /// Rematch button that starts it.
    async fn ask_the_host(self, id: GameId, caller: &Caller) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, _| {
            if who_asks(game, caller)? != Asker::MatchPlayer {
                return Err(already_asked(game));
            }
            let Some(deathmatch) = game.deathmatch.clone() else {
                return Err(already_asked(game));
            };
            let by = game.seat_of(&caller.user).unwrap_or(Seat::First);
            game.offer = Some(Offer {
                kind: OfferKind::RematchAsked,
                by,
                game: None,
            });
            let text = format!(
                "{} asks for a rematch. {}, the rematch is yours to start: press {} to host it.",
                name(&caller.user),
                name(&deathmatch.host),
                super::text::strong("Rematch")
            );
            let mut post = board_post(game, text);
            post.board = None;
            post.mentions = vec![deathmatch.host.clone()];
            post.buttons = vec![Button::Rematch];
            Ok(Change {
                entries: Vec::new(),
                effects: Effects {
                    posts: vec![post],
                    ..Default::default()
                },
            })
        })
        .await
    }
}

/// Who `caller` is to a finished game's rematch: a player of an ordinary game, a player of a
/// match (who asks its host), or its host.
fn who_asks(game: &GameRow, caller: &Caller) -> Result<Asker, ArenaError> {
    match game.status {
        GameStatus::Finished => {}
        GameStatus::Challenge => {
            return Err(ArenaError::Rejected(format!(
                "game #{} is a challenge still waiting for an answer; a rematch follows a finished game",
                game.id
            )));
        }
        _ => {
            return Err(ArenaError::Rejected(format!(
                "game #{} is not over yet; a rematch comes after it",
                game.id
            )));
        }
    }
    if game.offer.is_some_and(|offer| offer.kind == OfferKind::Rematch) {
        return Err(already_asked(game));
    }
    let Some(deathmatch) = &game.deathmatch else {
        if game.is_study() {
            return Err(ArenaError::Rejected(format!(
                "game #{} is a study you played both sides of, so it has no rematch; challenge someone to play it",
                game.id
            )));
        }
        return game
            .seat_of(&caller.user)
            .map(Asker::Player)
            .ok_or(ArenaError::NotAPlayer(game.id));
    };
    if may_host(game, caller)? {
        return Ok(Asker::Host);
    }
    let plays = [&game.challenger, &game.opponent].contains(&&caller.user);
    match game.offer {
        _ if !plays => Err(ArenaError::Rejected(format!(
            "a Death Match's rematch is for its host ({}) to start",
            name(&deathmatch.host)
        ))),
        Some(offer) if offer.kind == OfferKind::RematchAsked => Err(ArenaError::Rejected(format!(
            "the host ({}) has been asked for a rematch of game #{} already",
            name(&deathmatch.host),
            game.id
        ))),
        _ => Ok(Asker::MatchPlayer),
    }
}

fn already_asked(game: &GameRow) -> ArenaError {
    let which = match game.offer.and_then(|offer| offer.game) {
        Some(new) => format!(": it is game #{new}"),
        None => String::new(),
    };
    ArenaError::Rejected(format!(
        "a rematch of game #{} has already been asked for{which}",
        game.id
    ))
}
