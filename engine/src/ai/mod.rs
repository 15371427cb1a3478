//! The computer opponent: a player for every phase of every game, that sees only what its seat
//! sees. Its input is where the game began ([`Start`]) and its seat's [`View`], never the game:
//! what the other side keeps secret it draws at random among the possibilities its view allows,
//! several times, and plays the action that does best across them ([`hidden`]). Each possibility
//! is searched with iterative deepening alpha-beta ([`search`]) and weighed by the pieces' worth,
//! derived from how they move ([`worth`]), and each game's own terms ([`evaluate`]). Lists of
//! pieces are drawn from a set of its own ([`lists`]).
//!
//! A level is a budget of nodes, so a game plays out the same on any machine, capped by time
//! for a slow one. The engine keeps no clock but this cap, and no randomness but the seed a caller
//! gives: the same view, level and seed, the same action.

pub mod analysis;
pub mod evaluate;
mod frontier;
pub mod hidden;
mod history;
pub mod lists;
mod pawns;
mod reach;
pub mod search;
mod sights;
pub mod table;
mod weighed;
pub mod worth;

pub use hidden::Start;
pub use search::Budget;

use crate::game::{Action, Game, Seat, Viewer};
use crate::view::View;
use evaluate::Evaluator;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use search::Search;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use table::Table;

/// How hard the computer tries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|level| level.as_str() == text.trim().to_ascii_lowercase())
    }

    /// What one move may spend, in all (shared among the possibilities drawn).
    pub fn budget(self) -> Budget {
        match self {
            Level::Easy => Budget {
                nodes: 1_500,
                time: Duration::from_millis(250),
            },
            Level::Normal => Budget {
                nodes: 25_000,
                time: Duration::from_millis(900),
            },
            Level::Hard => Budget {
                nodes: 200_000,
                time: Duration::from_secs(3),
            },
        }
    }

    /// How many possibilities it draws when the other side holds a secret.
    fn samples(self) -> usize {
        match self {
            Level::Easy => 2,
            Level::Normal => 4,
            Level::Hard => 6,
        }
    }

    /// How much chance it lets into its choice, in centipawns: easy misjudges a little.
    fn noise(self) -> i32 {
        match self {
            Level::Easy => 80,
            Level::Normal | Level::Hard => 0,
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The action chosen, with what the choice cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    pub action: Action,
    /// Its score for the seat, in centipawns (about ±1,000,000 for a win or loss it sees).
    pub score: i32,
    /// Positions visited, in all possibilities.
    pub nodes: u64,
    /// The deepest depth completed (the shallowest of the possibilities).
    pub depth: u32,
    /// How many possibilities of the hidden facts it weighed (1 when nothing is hidden).
    pub samples: usize,
    pub elapsed: Duration,
}

/// The action the computer takes now for the seat whose `view` this is, in the game begun at
/// `start`; `None` when that seat has nothing to do (not its turn, the game over, or a view that
/// is not of this game). `seed` tells games apart (a game's id): its lists and its easy-level
/// whims differ from game to game, and repeat for the same game.
pub fn think(start: &Start, view: &View, level: Level, seed: u64) -> Option<Thought> {
    think_within(start, view, level, level.budget(), seed)
}

/// [`think`] with another budget than the level's: a bench's, or a test's without a time cap
/// (whose choices then repeat whatever the machine's speed).
pub fn think_within(start: &Start, view: &View, level: Level, total: Budget, seed: u64) -> Option<Thought> {
    let Viewer::Seat(seat) = view.viewer else {
        return None;
    };
    if view.outcome.is_some() || !view.to_act.contains(&seat) {
        return None;
    }
    let started = Instant::now();
    // A different draw for each decision of the game, the same for the same decision.
    let mut rng = SmallRng::seed_from_u64(seed ^ (view.record.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let samples = if hidden::hides_something(view) {
        level.samples()
    } else {
        1
    };
    let budget = Budget {
        nodes: total.nodes / samples as u64,
        time: total.time / samples as u32,
    };
    let variant = start.variant;
    let mut evaluator = Evaluator::new(seat, variant);
    let mut table = Table::for_nodes(total.nodes);
    let mut totals: Vec<(Action, i64, usize)> = Vec::new();
    let (mut nodes, mut depth, mut weighed) = (0, u32::MAX, 0);
    for _ in 0..samples {
        let Some(game) = hidden::sample(start, view, seat, &mut rng) else {
            continue;
        };
        if let Some(list) = own_list(&game, seat, seed) {
            return Some(Thought {
                action: list,
                score: 0,
                nodes: 0,
                depth: 0,
                samples: 1,
                elapsed: started.elapsed(),
            });
        }
        let found = Search::new(seat, &mut evaluator, budget)
            .with_table(&mut table)
            .run(&game);
        nodes += found.nodes;
        depth = depth.min(found.depth);
        weighed += 1;
        for (action, score) in found.scores {
            match totals.iter_mut().find(|(known, _, _)| *known == action) {
                Some(total) => {
                    total.1 += i64::from(score);
                    total.2 += 1;
                }
                None => totals.push((action, i64::from(score), 1)),
            }
        }
    }
    // An action open in every possibility (they all agree on the seat's own actions, whose
    // view is the same), scored by its average.
    let noise = level.noise();
    let scored: Vec<(Action, i32)> = totals
        .into_iter()
        .filter(|(_, _, count)| *count == weighed)
        .map(|(action, sum, count)| {
            let whim = if noise > 0 { rng.random_range(-noise..=noise) } else { 0 };
            (action, (sum / count as i64) as i32 + whim)
        })
        .collect();
    // Among equals it draws: a secret choice (Beirut's carrier, a CTF base) that changes nothing
    // it can weigh is not the same in every game, for a player to learn.
    let best = scored.iter().map(|(_, score)| *score).max()?;
    let equals: Vec<&(Action, i32)> = scored.iter().filter(|(_, score)| *score == best).collect();
    let (action, score) = equals[rng.random_range(0..equals.len())].clone();
    Some(Thought {
        action,
        score,
        nodes,
        depth: if depth == u32::MAX { 0 } else { depth },
        samples: weighed,
        elapsed: started.elapsed(),
    })
}

/// The list the computer brings, when a list is what it must give now.
fn own_list(game: &crate::AnyGame, seat: Seat, seed: u64) -> Option<Action> {
    let kind = game.list_kind()?;
    match game.legal_actions(seat).first() {
        Some(Action::SubmitList { .. }) => Some(Action::SubmitList {
            // The seat in the seed: the two lists of a game between two computers differ.
            pieces: lists::compose(
                kind,
                seed ^ (seat.index() as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407),
            ),
        }),
        _ => None,
    }
}
