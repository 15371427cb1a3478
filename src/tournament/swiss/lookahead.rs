//! Looking ahead: in a small field, a pairing that is fine today can leave no way to pair a later
//! round, so a round is paired only in a way that keeps the later ones possible.

use std::cell::Cell;

use super::{Colour, Player, allocate, may_take};

/// The rounds still to come after this one, looked at so that this round is not paired into a
/// dead end: in a small field, a pairing that is fine today can leave no way to pair the last
/// round without a rematch or a colour the rules forbid.
///
/// The later rounds are searched under the absolute rules (no rematch, the colour rules, the bye
/// going round), whatever their results, since results move players between score groups but
/// never make a game illegal. A withdrawal can still close every way forward, so pairing first
/// asks for rounds that survive any one player withdrawing after this round ([`Later::robust`]),
/// and settles for less when that cannot be had.
pub(super) struct Later {
    /// Pairs who have not met yet, in ranking order like the players.
    unmet: Vec<Vec<bool>>,
    colours: Vec<Vec<Colour>>,
    byes: Vec<u32>,
    /// The colour [`allocate`] gives the higher-ranked player of each pair this round, so that the
    /// search sees the colours the round will really have; None for two players yet to play a
    /// game, whose colours go by board, which is not known yet (either is assumed possible).
    colour_now: Vec<Vec<Option<Colour>>>,
    rounds: usize,
    /// Whether the later rounds must stay possible if any one player withdraws after this one.
    pub(super) robust: bool,
    /// Search steps left for this round's look-ahead.
    pub(super) steps_left: Cell<u32>,
}

/// Search steps a round's look-ahead may take, all its searches together (each step a game
/// tried): some tens of milliseconds at most. Beyond it the round is paired without looking ahead
/// (or, for [`Later::robust`], without that). Fields small enough to dead-end settle in far fewer.
pub(super) const LOOKAHEAD_STEPS: u32 = 100_000;

/// A pairing of the free players: each one's mate, and (from a look-ahead) the colour each has.
pub(super) struct Proof {
    pub(super) mate: Vec<Option<usize>>,
    pub(super) colour: Vec<Option<Colour>>,
}

pub(super) enum Plan {
    /// A pairing of this round's free players that leaves the later rounds pairable.
    Found(Proof),
    Impossible,
    /// The search ran out of steps.
    Unknown,
}

impl Later {
    /// None when there is nothing to look at: no rounds after this one, or a field so open that the
    /// later rounds are sure to pair. That is Dirac's theorem: a graph whose every player may still
    /// meet at least half the field has a perfect matching, and each round (with its bye) costs a
    /// player at most two of those meetings. (Colours cannot block such a field either: the
    /// players who must have White are never more than half of it.)
    pub(super) fn new(players: &[Player], rounds: usize, robust: bool) -> Option<Later> {
        let n = players.len();
        let unmet: Vec<Vec<bool>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        let (x, y) = (players[a].entrant, players[b].entrant);
                        a != b && !x.opponents.contains(&y.id) && !y.opponents.contains(&x.id)
                    })
                    .collect()
            })
            .collect();
        let fewest_unmet = unmet.iter().map(|row| row.iter().filter(|&&u| u).count()).min()?;
        // One more for a withdrawal, which takes a meeting from those who had it left.
        if rounds == 0 || fewest_unmet >= n.div_ceil(2) + rounds + 2 {
            return None;
        }
        let colour_now = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        let first_games = players[a].preference.is_none() && players[b].preference.is_none();
                        (a < b && !first_games).then(|| allocate(players, a, b, 0))
                    })
                    .collect()
            })
            .collect();
        Some(Later {
            unmet,
            colours: players.iter().map(|p| p.entrant.colours.clone()).collect(),
            byes: players.iter().map(|p| p.entrant.byes).collect(),
            colour_now,
            rounds,
            robust,
            steps_left: Cell::new(LOOKAHEAD_STEPS),
        })
    }

    /// The colours the higher-ranked `a` may have against `b` this round, the usual one first.
    pub(super) fn colours_now(&self, a: usize, b: usize) -> Vec<Colour> {
        colour_options(&self.colours[a], &self.colours[b], self.colour_now[a][b])
    }

    /// Searches for a pairing of this round's free players (under this round's rules,
    /// `compatible`), the pairs already `taken` included, after which the later rounds can be
    /// paired.
    pub(super) fn plan(
        &self,
        compatible: &[Vec<bool>],
        free: &[bool],
        taken: &[(usize, usize, Option<Colour>)],
        bye: Option<usize>,
    ) -> Plan {
        let mut search = Search {
            compatible,
            colour_now: &self.colour_now,
            unmet: self.unmet.clone(),
            colours: self.colours.clone(),
            byes: self.byes.clone(),
            present: vec![true; self.byes.len()],
            robust: self.robust,
            steps_left: self.steps_left.get(),
        };
        for &(a, b, colour) in taken {
            // A pair taken when no search could settle its colour: assume the usual one.
            let colour = colour.or_else(|| self.colours_now(a, b).first().copied());
            search.play(a, b, colour.unwrap_or(Colour::White));
        }
        if let Some(bye) = bye {
            search.byes[bye] += 1;
        }
        let mut free = free.to_vec();
        let mut proof = Proof {
            mate: vec![None; free.len()],
            colour: vec![None; free.len()],
        };
        let outcome = search.pair_rest(&mut free, &mut proof, true, self.rounds);
        self.steps_left.set(search.steps_left);
        match outcome {
            Outcome::Found => Plan::Found(proof),
            Outcome::Impossible => Plan::Impossible,
            Outcome::OutOfSteps => Plan::Unknown,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Found,
    Impossible,
    OutOfSteps,
}

/// A depth-first search over whole rounds: the current one under its own rules, then each later
/// one with any bye that goes round and any colours the rules allow, until every round is paired.
struct Search<'c> {
    compatible: &'c [Vec<bool>],
    colour_now: &'c [Vec<Option<Colour>>],
    unmet: Vec<Vec<bool>>,
    colours: Vec<Vec<Colour>>,
    byes: Vec<u32>,
    /// Who is still playing: everyone, but for a withdrawal the search imagines.
    present: Vec<bool>,
    robust: bool,
    steps_left: u32,
}

impl Search<'_> {
    /// Records a game, `a` having `colour`.
    fn play(&mut self, a: usize, b: usize, colour: Colour) {
        self.unmet[a][b] = false;
        self.unmet[b][a] = false;
        self.colours[a].push(colour);
        self.colours[b].push(colour.opposite());
    }

    fn unplay(&mut self, a: usize, b: usize) {
        self.unmet[a][b] = true;
        self.unmet[b][a] = true;
        self.colours[a].pop();
        self.colours[b].pop();
    }

    /// The colours the higher-ranked `a` may have against `b`: this round's usual one first.
    fn colours_for(&self, a: usize, b: usize, now: bool) -> Vec<Colour> {
        match now {
            true if !self.compatible[a][b] => Vec::new(),
            true => colour_options(&self.colours[a], &self.colours[b], self.colour_now[a][b]),
            false => colour_options(&self.colours[a], &self.colours[b], None),
        }
    }

    /// Pairs the free players of one round (the current one when `now`), then the `later` rounds
    /// after it, recording this round's pairs in `proof`.
    fn pair_rest(&mut self, free: &mut [bool], proof: &mut Proof, now: bool, later: usize) -> Outcome {
        let Some(a) = free.iter().position(|&f| f) else {
            return match later {
                0 => Outcome::Found,
                _ if now && self.robust => self.survives_a_withdrawal(later),
                _ => self.next_round(later),
            };
        };
        free[a] = false;
        let mut outcome = Outcome::Impossible;
        'partners: for b in a + 1..free.len() {
            if !free[b] || !self.unmet[a][b] {
                continue;
            }
            for colour in self.colours_for(a, b, now) {
                if self.steps_left == 0 {
                    outcome = Outcome::OutOfSteps;
                    break 'partners;
                }
                self.steps_left -= 1;
                free[b] = false;
                self.play(a, b, colour);
                outcome = self.pair_rest(free, proof, now, later);
                self.unplay(a, b);
                free[b] = true;
                if outcome == Outcome::Found {
                    proof.mate[a] = Some(b);
                    proof.mate[b] = Some(a);
                    proof.colour[a] = Some(colour);
                    proof.colour[b] = Some(colour.opposite());
                }
                if outcome != Outcome::Impossible {
                    break 'partners;
                }
            }
        }
        free[a] = true;
        outcome
    }

    /// Whether the later rounds can be paired as things stand, and also after any one player's
    /// withdrawal.
    fn survives_a_withdrawal(&mut self, rounds: usize) -> Outcome {
        let outcome = self.next_round(rounds);
        if outcome != Outcome::Found {
            return outcome;
        }
        for quitter in 0..self.present.len() {
            self.present[quitter] = false;
            let outcome = self.next_round(rounds);
            self.present[quitter] = true;
            if outcome != Outcome::Found {
                return outcome;
            }
        }
        Outcome::Found
    }

    /// One more round among those present, then the `rounds - 1` after it.
    fn next_round(&mut self, rounds: usize) -> Outcome {
        let n = self.unmet.len();
        let present = self.present.clone();
        let count = present.iter().filter(|&&p| p).count();
        if count < 2 {
            return Outcome::Found;
        }
        // Each round takes a player one of the meetings left to them, except the round of their
        // bye: anyone with fewer left than that cannot last.
        let needed = if count % 2 == 0 { rounds } else { rounds - 1 };
        let meetings_left = |p: usize| (0..n).filter(|&q| present[q] && self.unmet[p][q]).count();
        if (0..n).any(|p| present[p] && meetings_left(p) < needed) {
            return Outcome::Impossible;
        }
        let mut scratch = Proof {
            mate: vec![None; n],
            colour: vec![None; n],
        };
        if count % 2 == 0 {
            return self.pair_rest(&mut present.clone(), &mut scratch, false, rounds - 1);
        }
        let fewest = (0..n).filter(|&p| present[p]).map(|p| self.byes[p]).min().unwrap_or(0);
        let candidates: Vec<usize> = (0..n).rev().filter(|&p| present[p] && self.byes[p] == fewest).collect();
        for bye in candidates {
            let mut free = present.clone();
            free[bye] = false;
            self.byes[bye] += 1;
            let outcome = self.pair_rest(&mut free, &mut scratch, false, rounds - 1);
            self.byes[bye] -= 1;
            if outcome != Outcome::Impossible {
                return outcome;
            }
        }
        Outcome::Impossible
    }
}

/// The colours the rules allow `a` against `b`, given their histories; `first` is tried first.
fn colour_options(a: &[Colour], b: &[Colour], first: Option<Colour>) -> Vec<Colour> {
    let first = first.unwrap_or(Colour::White);
    [first, first.opposite()]
        .into_iter()
        .filter(|&c| may_take(a, c) && may_take(b, c.opposite()))
        .collect()
}
