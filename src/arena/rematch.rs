//! Rematches: a finished game's final post offers the same game again, with the same time
//! control and the sides swapped; a Death Match's rematch is the host's, and its Advantage
//! holder chooses colours again.

use super::deathmatch::{Authority, MatchRequest};
use super::lifecycle::ChallengeRequest;
use super::messages::name;
use super::{Arena, ArenaError, Change, Effects};
use crate::store::{GameId, GameRow, GameStatus, Offer, OfferKind, UserId, WhitePlayer};
use arbiter_engine::Seat;

impl Arena {
    /// `user` asks for a rematch of a finished game, offered at `place`.
    pub async fn rematch(
        &self,
        id: GameId,
        user: &UserId,
        authority: Authority,
        place: &str,
    ) -> Result<Effects, ArenaError> {
        self.rematch_at(id, user, authority, place, None).await
    }

    /// `rematch`, from a button posted at `version`: however often it is pressed, and by
    /// whichever player, one rematch starts.
    pub(super) async fn rematch_at(
        &self,
        id: GameId,
        user: &UserId,
        authority: Authority,
        place: &str,
        version: Option<i64>,
    ) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        let asker = may_ask(&game, user, authority)?;
        let controls = game.clock.controls;
        if controls.is_some_and(|[first, second]| first != second) {
            return Err(ArenaError::Rejected(
                "the players of this game had different time controls; start its rematch with a new challenge".into(),
            ));
        }
        let marked = self
            .mutate_at(id, version, false, |game, _, _| {
                may_ask(game, user, authority)?;
                game.offer = Some(Offer {
                    kind: OfferKind::Rematch,
                    by: asker,
                    game: None,
                });
                Ok(Change::nothing())
            })
            .await;
        match marked {
            Ok(_) => {}
            // Pressed twice, or by both players at once: the first press made the rematch.
            Err(ArenaError::Stale(_)) => return Err(already_asked(&self.load(id).await?)),
            Err(error) => return Err(error),
        }
        let players = game.players.clone().ok_or(ArenaError::NotAPlayer(id))?;
        let control = controls.map(|[first, _]| first);
        let effects = match &game.deathmatch {
            Some(deathmatch) => {
                let request = MatchRequest {
                    variant: game.setup.variant,
                    players: [game.challenger.clone(), game.opponent.clone()],
                    advantage: deathmatch.advantage.clone(),
                    control: control.unwrap_or(crate::clock::TimeControl::STANDARD),
                    location: place.to_string(),
                    server: game.server.clone(),
                };
                self.start_match(user, Authority::Host, request).await?
            }
            None => {
                let opponent = players[asker.other().index()].clone();
                // The sides swap: whoever moved first now moves second.
                let white_player = if asker == Seat::First {
                    WhitePlayer::Opponent
                } else {
                    WhitePlayer::Challenger
                };
                let request = ChallengeRequest {
                    opponent,
                    setup: game.setup.clone(),
                    white_player,
                    control,
                    location: place.to_string(),
                    server: game.server.clone(),
                };
                self.challenge(user, request).await?
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
                tracing::warn!(game = id, %error, "could not note a rematch's game");
            }
        }
        Ok(effects)
    }
}

/// Whether `user` may ask for a rematch of `game`: a player of a finished ordinary game, the
/// host of a finished match; the seat the rematch is asked for.
fn may_ask(game: &GameRow, user: &UserId, authority: Authority) -> Result<Seat, ArenaError> {
    if game.status != GameStatus::Finished {
        return Err(ArenaError::Rejected(format!(
            "game #{} is not over yet; a rematch comes after it",
            game.id
        )));
    }
    if game.offer.is_some_and(|offer| offer.kind == OfferKind::Rematch) {
        return Err(already_asked(game));
    }
    match &game.deathmatch {
        Some(deathmatch) if authority == Authority::Host || &deathmatch.host == user => Ok(Seat::First),
        Some(deathmatch) => Err(ArenaError::Rejected(format!(
            "a Death Match's rematch is for its host ({}) to start",
            name(&deathmatch.host)
        ))),
        None => game.seat_of(user).ok_or(ArenaError::NotAPlayer(game.id)),
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
