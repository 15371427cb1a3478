//! A variant's capturing moves grouped for the attack test (see [`crate::attacks`]).

use crate::betza::{MoveRule, Offset, Travel};
use crate::piece::Kind;

/// A variant's capturing moves for one colour, grouped for the attack test: every plain leap
/// (one step, the same path and first-move rule) once with the kinds that make it, every
/// unlimited ride without a path once per direction with the kinds that ride it, and the rest
/// (limited or lame rides, hoppers, grasshoppers) rule by rule. A square is then tested by looking
/// at each distinct leap square and walking each distinct line once, whatever the number of kinds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackIndex {
    leaps: Vec<(MoveRule, KindSet)>,
    rays: Vec<(Offset, KindSet)>,
    others: Vec<(Kind, MoveRule)>,
}

/// A set of piece kinds, bit `k` for kind `k`.
pub type KindSet = u64;

impl AttackIndex {
    /// The index of `color`'s capturing moves for pieces given as (kind, their rules).
    pub fn new<'a>(pieces: impl Iterator<Item = (Kind, &'a [MoveRule])>) -> AttackIndex {
        let mut index = AttackIndex::default();
        for (kind, rules) in pieces {
            for rule in rules.iter().filter(|r| r.can_capture) {
                match rule.travel {
                    Travel::Leap => match index.leaps.iter_mut().find(|(r, _)| {
                        r.step == rule.step && r.path == rule.path && r.is_initial_only == rule.is_initial_only
                    }) {
                        Some((_, kinds)) => *kinds |= 1 << kind,
                        None => index.leaps.push((rule.clone(), 1 << kind)),
                    },
                    Travel::Ride { range: 0 } if rule.path.is_empty() && !rule.is_initial_only => {
                        match index.rays.iter_mut().find(|(step, _)| *step == rule.step) {
                            Some((_, kinds)) => *kinds |= 1 << kind,
                            None => index.rays.push((rule.step, 1 << kind)),
                        }
                    }
                    _ => index.others.push((kind, rule.clone())),
                }
            }
        }
        index
    }

    /// Each distinct plain leap, with the kinds that capture with it.
    pub fn leaps(&self) -> &[(MoveRule, KindSet)] {
        &self.leaps
    }

    /// Each direction unlimited plain riders capture along, with the kinds that do.
    pub fn rays(&self) -> &[(Offset, KindSet)] {
        &self.rays
    }

    /// Every other capturing rule, with its kind.
    pub fn others(&self) -> &[(Kind, MoveRule)] {
        &self.others
    }
}
