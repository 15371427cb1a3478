//! A Death Match is rated only with both players' consent (RULES.md, "Ratings"): a host may
//! start a match between any two members, so the host's word never moves their ratings. Each
//! player accepts with the Rated button on the match's posts (in the terminal, `rated`) before
//! the first placement; the match is played either way and says whether it is rated. A rated
//! match moves the ladder of its own server only.

use super::text::{command, strong, user as name};
use super::{ArenaError, Button, Caller, Change, Effects, Matches, Post};
use crate::ids::{GameId, UserId};
use crate::model::{GameRow, GameStatus, LogEntry, LoggedEntry};

impl Matches<'_> {
    /// `caller`, a player of Death Match `id`, accepts that it is rated: it is once both have.
    pub async fn accept_rating(self, id: GameId, caller: &Caller) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        self.mutate(id, true, |game, log, _| accept(game, log, user)).await
    }
}

fn accept(game: &mut GameRow, log: &[LoggedEntry], user: &UserId) -> Result<Change, ArenaError> {
    let title = format!("Death Match #{}", game.id);
    let players = [game.challenger.clone(), game.opponent.clone()];
    let Some(deathmatch) = game.deathmatch.as_mut() else {
        return Err(ArenaError::Rejected(format!(
            "game #{} is not a Death Match: a challenge is rated when it is accepted",
            game.id
        )));
    };
    if !players.contains(user) {
        return Err(ArenaError::Rejected(format!(
            "only the two players of {title} accept that it is rated"
        )));
    }
    if game.setup.computer.is_some() {
        return Err(ArenaError::Rejected(
            "a match against the computer is never rated".into(),
        ));
    }
    if game.is_rated {
        return Err(ArenaError::Rejected(format!("{title} is already rated")));
    }
    let placed = log.iter().any(|entry| matches!(entry.entry, LogEntry::Act { .. }));
    if placed || !matches!(game.status, GameStatus::Challenge | GameStatus::Active) {
        return Err(ArenaError::Rejected(format!(
            "{title} is played unrated: both players had to accept before the first placement"
        )));
    }
    let other = if players[0] == *user { &players[1] } else { &players[0] };
    if deathmatch.consented.contains(user) {
        return Err(ArenaError::Rejected(format!(
            "you have accepted already: {title} is rated once {} accepts too, before the first placement",
            name(other)
        )));
    }
    deathmatch.consented.push(user.clone());
    let both = players.iter().all(|player| deathmatch.consented.contains(player));
    let (text, mentions, buttons) = if both {
        game.is_rated = true;
        (
            format!(
                "Both players accepted: {} is rated on this server's ladder.",
                strong(&title)
            ),
            Vec::new(),
            Vec::new(),
        )
    } else {
        (
            format!(
                "{} accepts that {} is rated. It is once {} accepts too, before the first placement; \
                 otherwise it is played unrated.",
                name(user),
                strong(&title),
                name(other)
            ),
            vec![other.clone()],
            vec![Button::RateMatch],
        )
    };
    let post = Post {
        game: Some(game.id),
        location: game.location.clone(),
        text,
        board: None,
        mentions,
        buttons,
        countdown: None,
        table: None,
        stale_at: None,
    };
    Ok(Change {
        entries: Vec::new(),
        effects: Effects {
            posts: vec![post],
            ..Default::default()
        },
    })
}

/// What a match's posts say of its rating while it may still be rated: how it becomes so.
pub(super) fn consent_line(game: &GameRow) -> Option<String> {
    let deathmatch = game.deathmatch.as_ref()?;
    if game.is_rated || game.setup.computer.is_some() {
        return None;
    }
    let waiting: Vec<String> = [&game.challenger, &game.opponent]
        .into_iter()
        .filter(|player| !deathmatch.consented.contains(player))
        .map(name)
        .collect();
    Some(format!(
        "Rated only if both players accept ({}) before the first placement; otherwise played \
         unrated. Waiting for {}.",
        command("deathmatch rated", &[]),
        waiting.join(" and ")
    ))
}

/// What a finished match's result says of its rating.
pub(super) fn rating_note(game: &GameRow) -> Option<&'static str> {
    game.deathmatch.as_ref()?;
    Some(if game.is_rated {
        "Rated on this server's ladder."
    } else {
        "Not rated."
    })
}
