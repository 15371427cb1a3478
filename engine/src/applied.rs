//! What an action changed, for telling those who were not there: the game compares what it shows
//! before and after the action, part by part, without building whole views (a view draws every
//! board and writes every prompt's choices, which is what costs).
//!
//! Each part is what comparing views would find (`engine/tests/applied.rs` checks that over random
//! games of every hosted game): the spectators' record, the seats' prompts and notices, and the
//! actor's notes.

use crate::game::{Action, ActionError, Game, Seat, Viewer};
use crate::view::RecordEntry;

/// What an action changed, as a spectator, the actor's opponent and the actor need to hear it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The entries a spectator's record has gained, in record order: the action's own first (it
    /// may stand in for a hidden action, "(chose a bomb carrier)"), then any the game added after
    /// it (Rejection: an answer, then the move).
    pub public: Vec<RecordEntry>,
    /// Earlier entries that a spectator now reads otherwise, in their new form and record order:
    /// secrets revealed ("(chose a bomb carrier)" becoming "bomb:d2"), and any other change the
    /// action made to an entry (Rejection marks a rejected proposal as no move).
    pub revealed: Vec<RecordEntry>,
    /// Who besides the actor may read the action, when a spectator may not (the first new entry
    /// is hidden from spectators); `None` when spectators read it, or it added no entry.
    pub hidden: Option<Readers>,
    /// The seats that have a private prompt now and had none before: the prompts this action
    /// opened (the seats to act now, in their order).
    pub prompted: Vec<Seat>,
    /// The news the game has for each seat other than the actor alone, where it is new: the
    /// seat's notice, when it has one that differs from its notice before the action.
    pub notices: Vec<(Seat, String)>,
    /// The actor's own notes that a spectator does not read ("Your move on board 2 is in").
    pub own_notes: Vec<String>,
}

/// Who besides the actor may read an action hidden from spectators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Readers {
    /// The opponent reads it (a proposal, which only the two players see).
    Opponent,
    /// Nobody yet (a sealed choice).
    Nobody,
}

/// Applies `action` by `seat` to `game` ([`Game::apply`]: refused, it changes nothing) and says
/// what it changed.
pub fn play<G: Game + ?Sized>(game: &mut G, seat: Seat, action: &Action) -> Result<Applied, ActionError> {
    let before = game.record(Viewer::Spectator);
    let prompted_before = prompted(game);
    let notices_before = Seat::BOTH.map(|s| game.notice(s));
    game.apply(seat, action)?;
    let after = game.record(Viewer::Spectator);
    let own_index = before.len();
    let hidden = after.get(own_index).filter(|entry| entry.is_hidden).map(|_| {
        // Every viewer reads as many entries: the opponent's reading of the same one.
        let opponent_reads = game
            .record(Viewer::Seat(seat.other()))
            .get(own_index)
            .is_some_and(|entry| !entry.is_hidden);
        if opponent_reads {
            Readers::Opponent
        } else {
            Readers::Nobody
        }
    });
    let revealed = before
        .iter()
        .zip(&after)
        .filter(|(old, new)| old != new)
        .map(|(_, new)| new.clone())
        .collect();
    let public = after.into_iter().skip(own_index).collect();
    let prompted = prompted(game)
        .into_iter()
        .filter(|s| !prompted_before.contains(s))
        .collect();
    let notices = Seat::BOTH
        .into_iter()
        .filter(|&other| other != seat)
        .filter_map(|other| {
            let notice = game.notice(other)?;
            (notices_before[other.index()].as_ref() != Some(&notice)).then_some((other, notice))
        })
        .collect();
    let public_notes = game.notes(Viewer::Spectator);
    let own_notes = game
        .notes(Viewer::Seat(seat))
        .into_iter()
        .filter(|note| !public_notes.contains(note))
        .collect();
    Ok(Applied {
        public,
        revealed,
        hidden,
        prompted,
        notices,
        own_notes,
    })
}

/// The seats to act that have a private prompt now.
fn prompted<G: Game + ?Sized>(game: &G) -> Vec<Seat> {
    game.to_act()
        .into_iter()
        .filter(|&seat| game.has_prompt(seat))
        .collect()
}
