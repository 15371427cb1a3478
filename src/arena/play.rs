//! Acting in a game, and the offers players answer: draws and takebacks.

use super::acting::apply_action;
use super::lifecycle::seated;
use super::messages::{board_post, name};
use super::time_out::flag_fall;
use super::turns::{check_clock, conclude, follow_turn};
use super::{ArenaError, Change, Effects, Play};
use crate::ids::{GameId, UserId};
use crate::model::effective_actions;
use crate::model::{GameRow, LogEntry, LoggedEntry, NewEntry, Offer, OfferKind};
use arbiter_engine::{AnyGame, EndReason, Game, Outcome, Seat, Viewer};

/// Where a menu's choice comes from: the game's version when it was made, and for a secret
/// prompt, its key (`effects::prompt_key`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    pub version: i64,
    pub prompt_key: Option<String>,
}

/// How a player answers or makes an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferResponse {
    Offer,
    Accept,
    Decline,
}

impl OfferResponse {
    /// The answer a player wrote: `offer` (or `ask`, `request`), `accept` (`yes`), `decline` (`no`).
    pub fn from_word(word: &str) -> Option<OfferResponse> {
        match word.trim().to_ascii_lowercase().as_str() {
            "offer" | "ask" | "request" => Some(OfferResponse::Offer),
            "accept" | "yes" => Some(OfferResponse::Accept),
            "decline" | "no" => Some(OfferResponse::Decline),
            _ => None,
        }
    }
}

impl Play<'_> {
    /// Plays an action written in the game's notation (a move, a placement, a secret choice).
    pub async fn act(self, id: GameId, user: &UserId, text: &str) -> Result<Effects, ArenaError> {
        self.act_from(id, user, text, None).await
    }

    /// Plays a choice from a menu or button made at `menu`: only while the game is still where
    /// it was then, or, for a secret prompt, while the player still faces that very prompt (the
    /// other player's secret choice moves the game on without changing it). A menu whose choices
    /// have changed since, however alike they look, changes nothing.
    pub async fn act_from_menu(self, id: GameId, user: &UserId, text: &str, menu: Menu) -> Result<Effects, ArenaError> {
        self.act_from(id, user, text, Some(menu)).await
    }

    async fn act_from(self, id: GameId, user: &UserId, text: &str, menu: Option<Menu>) -> Result<Effects, ArenaError> {
        self.mutate(id, false, |game, _, now| {
            let seat = seated(game, user)?;
            if let Some(menu) = &menu
                && menu.version != game.version
            {
                let prompt_now = super::messages::private_prompt(game, seat).and_then(|p| p.prompt_key);
                if menu.prompt_key.is_none() || menu.prompt_key != prompt_now {
                    return Err(ArenaError::Stale(game.id));
                }
            }
            if !game.state.to_act().contains(&seat) && !game.state.may_revise(seat) {
                return match game.state.parse_action(seat, text) {
                    Err(e @ arbiter_engine::ActionError::AlreadyChosen) => Err(e.into()),
                    _ => Err(ArenaError::NotYourTurn(game.id)),
                };
            }
            let action = game.state.parse_action(seat, text)?;
            if let Some(flagged) = check_clock(game, now)? {
                // A time ran out before the move: the game ends on time instead.
                return Ok(flag_fall(game, flagged, now));
            }
            apply_action(game, Some(user), seat, action, now)
        })
        .await
    }

    pub async fn draw(self, id: GameId, user: &UserId, response: OfferResponse) -> Result<Effects, ArenaError> {
        self.draw_at(id, user, response, None).await
    }

    pub(super) async fn draw_at(
        self,
        id: GameId,
        user: &UserId,
        response: OfferResponse,
        version: Option<i64>,
    ) -> Result<Effects, ArenaError> {
        self.mutate_at(id, version, false, |game, _, now| {
            let seat = seated(game, user)?;
            if let Some(flagged) = check_clock(game, now)? {
                // The flag fell first: the game is lost on time, not drawn.
                return Ok(flag_fall(game, flagged, now));
            }
            match response {
                OfferResponse::Offer if facing_computer(game, seat) => Ok(computer_answers_draw(game, seat, now)),
                OfferResponse::Offer => make_offer(game, seat, OfferKind::Draw, "offers a draw"),
                OfferResponse::Decline => decline_offer(game, seat, OfferKind::Draw),
                OfferResponse::Accept => {
                    take_offer(game, seat, OfferKind::Draw)?;
                    Ok(conclude(
                        game,
                        Outcome::draw(EndReason::Agreement),
                        "Draw agreed.".into(),
                        now,
                    ))
                }
            }
        })
        .await
    }

    pub async fn takeback(self, id: GameId, user: &UserId, response: OfferResponse) -> Result<Effects, ArenaError> {
        self.takeback_at(id, user, response, None).await
    }

    pub(super) async fn takeback_at(
        self,
        id: GameId,
        user: &UserId,
        response: OfferResponse,
        version: Option<i64>,
    ) -> Result<Effects, ArenaError> {
        self.mutate_at(id, version, true, |game, log, now| {
            let seat = seated(game, user)?;
            match response {
                OfferResponse::Offer => {
                    if game.deathmatch.is_some() {
                        return Err(ArenaError::Rejected("there are no takebacks in a Death Match".into()));
                    }
                    undo_plan(game, log, seat)?;
                    if facing_computer(game, seat) {
                        // The computer lets a player practising take a move back.
                        let computer = game.player(seat.other()).cloned().unwrap_or_else(|| user.clone());
                        return take_back(game, log, seat, &computer, now);
                    }
                    make_offer(game, seat, OfferKind::Takeback, "asks to take back their last move")
                }
                OfferResponse::Decline => decline_offer(game, seat, OfferKind::Takeback),
                OfferResponse::Accept => {
                    let asker = take_offer(game, seat, OfferKind::Takeback)?;
                    take_back(game, log, asker, user, now)
                }
            }
        })
        .await
    }
}

/// Takes back `asker`'s last action (and the reply after it), as `answerer` agreed.
fn take_back(
    game: &mut GameRow,
    log: &[LoggedEntry],
    asker: Seat,
    answerer: &UserId,
    now: i64,
) -> Result<Change, ArenaError> {
    let (plies, state) = undo_plan(game, log, asker)?;
    let taken = taken_back(game, plies as usize);
    game.state = state;
    game.turn_since = now;
    // The turns taken back begin again, from now.
    game.clock.stop(now);
    follow_turn(game, None, now);
    let post = board_post(game, format!("{} agreed to take back {taken}.", name(answerer)));
    let entry = NewEntry::new(LogEntry::Takeback { plies }, format!("takeback {plies}"));
    Ok(Change {
        entries: vec![entry],
        effects: Effects {
            posts: vec![post],
            ..Default::default()
        },
    })
}

/// Whether `seat`'s opponent is the computer, which answers offers at once.
fn facing_computer(game: &GameRow, seat: Seat) -> bool {
    game.player(seat.other()).is_some_and(|user| game.is_computer(user))
}

/// The computer's answer to a draw offer: yes when it judges itself clearly worse, else it plays
/// on and the offer is gone.
fn computer_answers_draw(game: &mut GameRow, seat: Seat, now: i64) -> Change {
    let computer = game.player(seat.other()).map(name).unwrap_or_default();
    if super::computer::takes_draw(game, seat.other()) {
        let asker = game.player(seat).map(name).unwrap_or_default();
        let text = format!("{asker} offered a draw and {computer} accepted. Draw agreed.");
        return conclude(game, Outcome::draw(EndReason::Agreement), text, now);
    }
    Change {
        entries: Vec::new(),
        effects: Effects::reply(format!(
            "{computer} declines the draw in game #{}: it likes its position and plays on.",
            game.id
        )),
    }
}

fn make_offer(game: &mut GameRow, seat: Seat, kind: OfferKind, what: &str) -> Result<Change, ArenaError> {
    if let Some(existing) = game.offer {
        let whose = if existing.by == seat {
            "you have already made an offer"
        } else {
            "your opponent has an offer waiting for your answer"
        };
        return Err(ArenaError::Rejected(format!("{whose} in game #{}", game.id)));
    }
    game.offer = Some(Offer {
        kind,
        by: seat,
        game: None,
    });
    let asker = game.player(seat).map(name).unwrap_or_default();
    // The answer is the opponent's to give: the post names (and so pings) them.
    let answerer = game.player(seat.other()).map(name).unwrap_or_default();
    let answers = match kind {
        OfferKind::Takeback => "allow or refuse",
        _ => "accept or decline",
    };
    let mut post = board_post(game, format!("{asker} {what}. {answerer}, {answers}."));
    post.board = None;
    post.mentions = game.player(seat.other()).cloned().into_iter().collect();
    post.buttons = match kind {
        OfferKind::Draw => vec![super::Button::AcceptDraw, super::Button::DeclineDraw],
        OfferKind::Takeback => vec![super::Button::AcceptTakeback, super::Button::DeclineTakeback],
        OfferKind::Rematch | OfferKind::RematchAsked => Vec::new(),
    };
    Ok(Change {
        entries: Vec::new(),
        effects: Effects {
            posts: vec![post],
            ..Default::default()
        },
    })
}

/// Takes the pending offer of `kind` made by the other seat; returns the seat that made it.
fn take_offer(game: &mut GameRow, seat: Seat, kind: OfferKind) -> Result<Seat, ArenaError> {
    match game.offer {
        Some(offer) if offer.kind == kind && offer.by != seat => {
            game.offer = None;
            Ok(offer.by)
        }
        Some(offer) if offer.kind == kind => Err(ArenaError::Rejected("you cannot answer your own offer".into())),
        _ => Err(ArenaError::Rejected(format!(
            "there is no {} offer to answer in game #{} (a move since then answers it)",
            kind_name(kind),
            game.id
        ))),
    }
}

fn decline_offer(game: &mut GameRow, seat: Seat, kind: OfferKind) -> Result<Change, ArenaError> {
    let asker = take_offer(game, seat, kind)?;
    let text = format!(
        "{} declined the {} offer.",
        game.player(seat).map(name).unwrap_or_default(),
        kind_name(kind)
    );
    let mut post = board_post(game, text);
    post.board = None;
    post.buttons = Vec::new();
    post.mentions = game.player(asker).cloned().into_iter().collect();
    Ok(Change {
        entries: Vec::new(),
        effects: Effects {
            posts: vec![post],
            ..Default::default()
        },
    })
}

fn kind_name(kind: OfferKind) -> &'static str {
    match kind {
        OfferKind::Draw => "draw",
        OfferKind::Takeback => "takeback",
        OfferKind::Rematch | OfferKind::RematchAsked => "rematch",
    }
}

/// The last `plies` actions as everyone saw them, named with their players: "alice's e4 and
/// bob's e5".
fn taken_back(game: &GameRow, plies: usize) -> String {
    let view = game.state.view(Viewer::Spectator);
    let start = view.record.len().saturating_sub(plies);
    let moves: Vec<String> = view.record[start..]
        .iter()
        .map(|entry| {
            let player = game.player(entry.seat).map(name).unwrap_or_default();
            format!("{player}'s {}", entry.text)
        })
        .collect();
    match moves.as_slice() {
        [] => "nothing".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How many actions `asker`'s takeback undoes (as the game rules: their last action and the
/// reply after it, never a secret choice) and the state it leads to.
fn undo_plan(game: &GameRow, log: &[LoggedEntry], asker: Seat) -> Result<(u32, AnyGame), ArenaError> {
    let actions = effective_actions(log);
    let plies = game.state.takeback_plies(asker, &actions)?;
    let kept = &actions[..actions.len() - plies];
    let start = game
        .setup
        .start()
        .map_err(|e| ArenaError::Rejected(format!("the start position: {e}")))?;
    let state = AnyGame::replay(&start, kept)
        .map_err(|(i, e)| ArenaError::Rejected(format!("the game could not be replayed at action {}: {e}", i + 1)))?;
    Ok((plies as u32, state))
}
