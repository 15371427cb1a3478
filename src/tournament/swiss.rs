//! Swiss pairing for club tournaments: the core of the Dutch system (score groups paired top half
//! against bottom half, floaters, colour preferences) without its finer tie rules.
//!
//! The absolute rules (no rematch, never a third colour in a row, a colour difference within two,
//! the bye to someone with the fewest) are never broken. Everything else is a preference, met
//! greedily; every greedy step is first put to an oracle, which accepts a pair only if the players
//! still unpaired, all brackets below included, can then still be perfectly matched under the
//! absolute rules (a general maximum matching). So the walk never reaches a dead end, never has to
//! backtrack, and answers [`PairingError::NoPairing`] exactly when no legal pairing exists.
//!
//! Small fields also look ahead (`lookahead.rs`): a round is only paired in a way that leaves the
//! rounds still to come pairable, so that seven players can play their five rounds even when one
//! of them withdraws half way.

use std::cmp::Reverse;

use serde::{Deserialize, Serialize};

mod lookahead;
mod oracle;

use lookahead::{LOOKAHEAD_STEPS, Later, Plan};
use oracle::Oracle;

/// How far whites and blacks may drift apart: a player should not end the event with, say, six
/// whites in nine games.
const MAX_COLOUR_IMBALANCE: i32 = 2;

/// Kept per game rather than as totals, because the colour rules look at the order of the games
/// (no third in a row; preferences alternate from the last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One player still in the tournament, as pairing sees them.
///
/// Pairing needs nothing but this: the caller keeps the results, and the history it passes here is
/// all that the rules look at. Ids are expected to be unique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The caller's identifier, handed back in the pairings.
    pub id: usize,
    /// In half points (a win 2, a draw 1, a bye 2), so that scores stay exact integers.
    pub score: u32,
    /// Orders players within a score group, which decides who meets whom there.
    pub rating: i32,
    /// Ids met so far: every game actually paired, whatever its result, forfeits included, since a
    /// pairing once made is never repeated.
    pub opponents: Vec<usize>,
    /// Colours of the games played, oldest first. Byes and unplayed games are absent: only a game
    /// at the board counts towards the colour rules.
    pub colours: Vec<Colour>,
    /// Byes received so far, so that the bye goes round before anyone has a second.
    pub byes: u32,
}

/// A round's pairings, ready to announce: colours and board order are settled here, so that every
/// caller shows the same thing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairings {
    /// (white id, black id), board 1 first: the leaders play on the top boards.
    pub boards: Vec<(usize, usize)>,
    /// The player sitting out with a full point, when the count is odd.
    pub bye: Option<usize>,
}

/// Why a round could not be paired; the text is meant to be shown to players as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("a round needs at least two players")]
    TooFewPlayers,
    /// Everyone left has met too many of the others (or the colour rules forbid the games left):
    /// the tournament ends early rather than break a rule.
    #[error("no pairing is possible without a rematch or breaking the colour rules, so the tournament ends here")]
    NoPairing,
}

/// The order pairing uses: score first, then rating, then the order of `entrants`. Callers pass
/// entrants in joining order, so that the remaining ties go to whoever joined first and the order
/// never depends on anything hidden.
///
/// Returns ids, best first.
pub fn ranking(entrants: &[Entrant]) -> Vec<usize> {
    rank_order(entrants).into_iter().map(|i| entrants[i].id).collect()
}

/// Pairs the next round from the standings alone, so that a round can be paired again (after a
/// withdrawal, say) and come out the same. `later_rounds` is how many rounds the event has after
/// this one: the pairing keeps them possible where it can.
///
/// The bye is settled first (the lowest-ranked player among those with the fewest byes for whom
/// the rest can be paired), then score groups from the top, each with the players floated down to
/// it, top half against bottom half.
pub fn pair_round(entrants: &[Entrant], later_rounds: usize) -> Result<Pairings, PairingError> {
    if entrants.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    // From here on a player is their place in the ranking, so that "higher-ranked" is "lower
    // index" everywhere below.
    let players: Vec<Player> = rank_order(entrants)
        .into_iter()
        .map(|i| Player::new(&entrants[i]))
        .collect();
    let n = players.len();
    let compatible: Vec<Vec<bool>> = (0..n)
        .map(|a| (0..n).map(|b| a != b && players[a].may_meet(&players[b])).collect())
        .collect();

    // When the later rounds cannot all be paired whatever happens now (a withdrawal can do that),
    // keep as many of them possible as can be.
    // Best of all, they stay possible even if someone withdraws after this round.
    // (None from Later::new: nothing to look at.)
    let fewer = (1..=later_rounds).rev().map(|rounds| (rounds, false));
    let looks: Vec<Later> = std::iter::once((later_rounds, true))
        .chain(fewer)
        .map_while(|(rounds, robust)| Later::new(&players, rounds, robust))
        .collect();
    let (bye, mut oracle) = looks
        .iter()
        .find_map(|later| start(&players, &compatible, Some(later)))
        .or_else(|| start(&players, &compatible, None))
        .ok_or(PairingError::NoPairing)?;

    let mut pairs = pair_brackets(&players, &mut oracle)?;
    // Each pair is (higher-ranked, lower-ranked), so the first is the pair's better player.
    pairs.sort_by_key(|&(a, b)| (Reverse(players[a].entrant.score.max(players[b].entrant.score)), a));
    let mut colours: Vec<Colour> = pairs
        .iter()
        .enumerate()
        .map(|(board, &(a, b))| allocate(&players, a, b, board))
        .collect();
    if let Some(later) = oracle.later {
        // The look-ahead assumed colours for first games (they go by board, unknown then) and
        // let colours yield where the later rounds needed it: the round keeps the colours it
        // proved possible whenever the usual ones would leave the later rounds impossible.
        let usual: Vec<(usize, usize, Option<Colour>)> = pairs
            .iter()
            .zip(&colours)
            .map(|(&(a, b), &c)| (a, b, Some(c)))
            .collect();
        later.steps_left.set(LOOKAHEAD_STEPS);
        if !matches!(later.plan(&compatible, &vec![false; n], &usual, bye), Plan::Found(_)) {
            for (colour, &(a, b)) in colours.iter_mut().zip(&pairs) {
                *colour = oracle.colour_of(a, b).unwrap_or(*colour);
            }
        }
    }
    let boards = pairs
        .iter()
        .zip(colours)
        .map(|(&(a, b), colour)| {
            let (a, b) = (players[a].entrant.id, players[b].entrant.id);
            if colour == Colour::White { (a, b) } else { (b, a) }
        })
        .collect();
    Ok(Pairings {
        boards,
        bye: bye.map(|p| players[p].entrant.id),
    })
}

/// Indices into `entrants`, best first. The sort is stable, which is what lets entrant order break
/// the last ties.
fn rank_order(entrants: &[Entrant]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by_key(|&i| (Reverse(entrants[i].score), Reverse(entrants[i].rating)));
    order
}

/// How much a player cares about their next colour. The order matters: when two players want the
/// same colour, the stronger wish wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    /// Colours are level: alternate from the last game.
    Mild,
    /// One colour is ahead: even it out.
    Strong,
    /// The other colour would break the colour rules.
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Preference {
    colour: Colour,
    strength: Strength,
}

struct Player<'a> {
    entrant: &'a Entrant,
    may_white: bool,
    may_black: bool,
    /// None before a first game: such a player takes whatever the opponent wants.
    preference: Option<Preference>,
}

impl<'a> Player<'a> {
    fn new(entrant: &'a Entrant) -> Player<'a> {
        let may_white = may_take(&entrant.colours, Colour::White);
        let may_black = may_take(&entrant.colours, Colour::Black);
        let preference = match (may_white, may_black) {
            (true, false) => Some(Preference {
                colour: Colour::White,
                strength: Strength::Absolute,
            }),
            (false, true) => Some(Preference {
                colour: Colour::Black,
                strength: Strength::Absolute,
            }),
            // No game is possible at all; the compatibility graph keeps them unpaired.
            (false, false) => None,
            (true, true) => match colour_balance(&entrant.colours) {
                0 => entrant.colours.last().map(|&last| Preference {
                    colour: last.opposite(),
                    strength: Strength::Mild,
                }),
                balance if balance > 0 => Some(Preference {
                    colour: Colour::Black,
                    strength: Strength::Strong,
                }),
                _ => Some(Preference {
                    colour: Colour::White,
                    strength: Strength::Strong,
                }),
            },
        };
        Player {
            entrant,
            may_white,
            may_black,
            preference,
        }
    }

    fn may_take(&self, colour: Colour) -> bool {
        match colour {
            Colour::White => self.may_white,
            Colour::Black => self.may_black,
        }
    }

    /// Whether the absolute rules allow a game between the two, with either colours.
    fn may_meet(&self, other: &Player) -> bool {
        let (a, b) = (self.entrant, other.entrant);
        let met = a.opponents.contains(&b.id) || b.opponents.contains(&a.id);
        !met && ((self.may_white && other.may_black) || (self.may_black && other.may_white))
    }
}

/// Whites minus blacks.
fn colour_balance(colours: &[Colour]) -> i32 {
    colours.iter().map(|&c| if c == Colour::White { 1 } else { -1 }).sum()
}

/// The colour rules for one more game. A colour that brings an already excessive difference back
/// towards level is allowed, so that a history from before these rules (or an admin's manual
/// pairing) cannot bar a player for good.
fn may_take(colours: &[Colour], colour: Colour) -> bool {
    let third_in_a_row = colours.len() >= 2 && colours[colours.len() - 2..].iter().all(|&c| c == colour);
    let before = colour_balance(colours);
    let after = before + if colour == Colour::White { 1 } else { -1 };
    !third_in_a_row && (after.abs() <= MAX_COLOUR_IMBALANCE || after.abs() < before.abs())
}

/// The bye (for an odd field) and an oracle over everyone else; None when no pairing is possible.
fn start<'c>(
    players: &[Player],
    compatible: &'c [Vec<bool>],
    later: Option<&'c Later>,
) -> Option<(Option<usize>, Oracle<'c>)> {
    if players.len() % 2 == 1 {
        choose_bye(players, compatible, later).map(|(bye, oracle)| (Some(bye), oracle))
    } else {
        Oracle::new(compatible, later, None).map(|oracle| (None, oracle))
    }
}

/// Settles the bye before anything else, because the bye decides who is left to pair. Returns the
/// player and an oracle over the others.
fn choose_bye<'c>(
    players: &[Player],
    compatible: &'c [Vec<bool>],
    later: Option<&'c Later>,
) -> Option<(usize, Oracle<'c>)> {
    let fewest = players.iter().map(|p| p.entrant.byes).min()?;
    (0..players.len())
        .rev()
        .filter(|&p| players[p].entrant.byes == fewest)
        .find_map(|p| Oracle::new(compatible, later, Some(p)).map(|oracle| (p, oracle)))
}

/// Pairs the players the oracle still has free, score group by score group from the top. Returns
/// pairs as (higher-ranked, lower-ranked).
fn pair_brackets(players: &[Player], oracle: &mut Oracle) -> Result<Vec<(usize, usize)>, PairingError> {
    let waiting: Vec<usize> = (0..players.len()).filter(|&p| oracle.free[p]).collect();
    let mut pairs = Vec::with_capacity(waiting.len() / 2);
    let mut floaters = Vec::new();
    for group in waiting.chunk_by(|&a, &b| players[a].entrant.score == players[b].entrant.score) {
        // Floaters have higher scores, so putting them first keeps the bracket in ranking order.
        let mut bracket = std::mem::take(&mut floaters);
        bracket.extend_from_slice(group);
        floaters = pair_bracket(players, &bracket, oracle, &mut pairs);
    }
    // The oracle held a perfect matching of everyone left, and the last bracket is everyone left:
    // each player there finds their mate in it when their turn comes. Should that ever fail, no
    // one is silently left out: the round is not paired.
    if floaters.is_empty() {
        Ok(pairs)
    } else {
        Err(PairingError::NoPairing)
    }
}

/// One bracket (floaters first, then the score group, in ranking order): S1, the top half, against
/// S2, the bottom half. Returns the players it could not pair, who float down.
///
/// S1[i] is offered the S2 players still free from the top (so that S2's transpositions come in
/// the Handbook's order, C.04.1 D.1: 5-6-8-7, then 5-7-6-8, ...), then the lower S1 players from
/// the bottom up (the S1 player an exchange would move into S2 first). Within each of the two, partners who grant both colour
/// preferences come first. S2 players left over are then offered one another in order, so that a
/// player floats only when no one left in the bracket will do.
fn pair_bracket(
    players: &[Player],
    bracket: &[usize],
    oracle: &mut Oracle,
    pairs: &mut Vec<(usize, usize)>,
) -> Vec<usize> {
    let half = bracket.len() / 2;
    let mut paired = vec![false; bracket.len()];
    for i in 0..bracket.len() {
        if paired[i] {
            continue;
        }
        // A player before i who is still unpaired was refused everyone left when their turn came,
        // and pairing only ever removes options, so only players after i are worth offering.
        let mut candidates: Vec<usize> = (i + 1..bracket.len()).filter(|&j| !paired[j]).collect();
        let grants = |j: usize| grants_both(&players[bracket[i]], &players[bracket[j]]);
        if i < half {
            candidates.sort_by_key(|&j| {
                // S2 from the top, then S1 from the bottom up.
                let (part, order) = if j >= half { (0, j) } else { (1, half - j) };
                (part, !grants(j), order)
            });
        } else {
            candidates.sort_by_key(|&j| !grants(j));
        }
        if let Some(j) = candidates
            .into_iter()
            .find(|&j| oracle.try_pair(bracket[i], bracket[j]))
        {
            paired[i] = true;
            paired[j] = true;
            pairs.push((bracket[i], bracket[j]));
        }
    }
    bracket
        .iter()
        .zip(&paired)
        .filter(|&(_, &done)| !done)
        .map(|(&p, _)| p)
        .collect()
}

/// Whether a game between the two can give each the colour they want.
fn grants_both(a: &Player, b: &Player) -> bool {
    match (a.preference, b.preference) {
        (Some(x), Some(y)) => x.colour != y.colour,
        _ => true,
    }
}

/// Colours for one board, `a` being the higher-ranked player. Returns `a`'s colour.
///
/// In order: the colour rules; both preferences when they differ; the stronger preference; each
/// alternating from the latest game in which they had different colours; the higher-ranked
/// player's preference. Two players with no games yet take colours by board, alternating from
/// White for the higher-ranked player on board 1, as in a first round.
fn allocate(players: &[Player], a: usize, b: usize, board: usize) -> Colour {
    let (pa, pb) = (&players[a], &players[b]);
    if !(pa.may_take(Colour::Black) && pb.may_take(Colour::White)) {
        Colour::White
    } else if !(pa.may_take(Colour::White) && pb.may_take(Colour::Black)) {
        Colour::Black
    } else {
        match (pa.preference, pb.preference) {
            (None, None) if board.is_multiple_of(2) => Colour::White,
            (None, None) => Colour::Black,
            (Some(x), None) => x.colour,
            (None, Some(y)) => y.colour.opposite(),
            (Some(x), Some(y)) if x.colour != y.colour || x.strength > y.strength => x.colour,
            (Some(x), Some(y)) if y.strength > x.strength => y.colour.opposite(),
            (Some(x), Some(_)) => latest_difference(pa.entrant, pb.entrant).map_or(x.colour, Colour::opposite),
        }
    }
}

/// `a`'s colour in the latest game in which the two had different colours, counting back from
/// each one's last game (byes leave no colour, so rounds would not line up).
fn latest_difference(a: &Entrant, b: &Entrant) -> Option<Colour> {
    a.colours
        .iter()
        .rev()
        .zip(b.colours.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(&x, _)| x)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod properties;
