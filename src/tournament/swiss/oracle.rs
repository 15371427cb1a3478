//! The oracle behind every greedy step of pairing: it accepts a pair only if the players still
//! unpaired can then all be paired (and, with a look-ahead, the later rounds too).

use petgraph::algo::maximum_matching;
use petgraph::graph::{NodeIndex, UnGraph};

use super::Colour;
use super::lookahead::{Later, Plan, Proof};

/// Answers whether taking a pair still leaves everyone else pairable (and, with [`Later`], the
/// later rounds too). It keeps a perfect matching of the players still free as proof: a pair in
/// that proof needs no new search, and most pairs the walk wants are (the proof is rebuilt around
/// each pair that is not).
pub(super) struct Oracle<'c> {
    compatible: &'c [Vec<bool>],
    pub(super) later: Option<&'c Later>,
    bye: Option<usize>,
    pub(super) free: Vec<bool>,
    /// This round's pairs taken so far, with the higher-ranked player's colour as a look-ahead
    /// proved it possible (None where no look-ahead settled it).
    taken: Vec<(usize, usize, Option<Colour>)>,
    proof: Proof,
}

impl<'c> Oracle<'c> {
    /// None when the players (all but the bye) cannot all be paired.
    pub(super) fn new(compatible: &'c [Vec<bool>], later: Option<&'c Later>, bye: Option<usize>) -> Option<Oracle<'c>> {
        let mut free = vec![true; compatible.len()];
        if let Some(bye) = bye {
            free[bye] = false;
        }
        let mut oracle = Oracle {
            compatible,
            later,
            bye,
            free,
            taken: Vec::new(),
            proof: Proof {
                mate: Vec::new(),
                colour: Vec::new(),
            },
        };
        oracle.proof = oracle.prove()?;
        Some(oracle)
    }

    /// Takes the pair if the rest can still be paired, and says whether it did.
    pub(super) fn try_pair(&mut self, a: usize, b: usize) -> bool {
        if !self.compatible[a][b] || !self.free[a] || !self.free[b] {
            return false;
        }
        self.free[a] = false;
        self.free[b] = false;
        if self.proof.mate[a] == Some(b) {
            self.proof.mate[a] = None;
            self.proof.mate[b] = None;
            self.taken.push((a, b, self.proof.colour[a]));
            return true;
        }
        let options = self.later.map_or(vec![None], |later| {
            later.colours_now(a, b).into_iter().map(Some).collect()
        });
        for colour in options {
            self.taken.push((a, b, colour));
            if let Some(proof) = self.prove() {
                self.proof = proof;
                return true;
            }
            self.taken.pop();
        }
        self.free[a] = true;
        self.free[b] = true;
        false
    }

    /// The colour the higher-ranked player of a pair taken this round was proved possible with.
    pub(super) fn colour_of(&self, a: usize, b: usize) -> Option<Colour> {
        self.taken
            .iter()
            .find(|&&(x, y, _)| (x, y) == (a, b))
            .and_then(|&(_, _, colour)| colour)
    }

    /// A pairing of the free players that, where later rounds are looked at, leaves them
    /// pairable; None when there is none.
    fn prove(&self) -> Option<Proof> {
        let mate = perfect_matching(self.compatible, &self.free)?;
        let plain = Proof {
            colour: vec![None; mate.len()],
            mate,
        };
        let Some(later) = self.later else {
            return Some(plain);
        };
        match later.plan(self.compatible, &self.free, &self.taken, self.bye) {
            Plan::Found(proof) => Some(proof),
            // Unsettled, withdrawals are not worth giving up the look-ahead for.
            Plan::Impossible | Plan::Unknown if later.robust => None,
            Plan::Impossible => None,
            // Too costly to settle: pair this round as if nothing came after it.
            Plan::Unknown => Some(plain),
        }
    }
}

/// A perfect matching of the free players in the compatibility graph, as each player's mate.
fn perfect_matching(compatible: &[Vec<bool>], free: &[bool]) -> Option<Vec<Option<usize>>> {
    let players: Vec<usize> = (0..free.len()).filter(|&p| free[p]).collect();
    if players.len() % 2 == 1 {
        return None;
    }
    let mut graph = UnGraph::<usize, ()>::with_capacity(players.len(), 0);
    let nodes: Vec<NodeIndex> = players.iter().map(|&p| graph.add_node(p)).collect();
    for (x, &p) in players.iter().enumerate() {
        for (y, &q) in players.iter().enumerate().skip(x + 1) {
            if compatible[p][q] {
                graph.add_edge(nodes[x], nodes[y], ());
            }
        }
    }
    let matching = maximum_matching(&graph);
    if 2 * matching.len() != players.len() {
        return None;
    }
    let mut mate = vec![None; free.len()];
    for (u, v) in matching.edges() {
        let (p, q) = (graph[u], graph[v]);
        mate[p] = Some(q);
        mate[q] = Some(p);
    }
    Some(mate)
}
