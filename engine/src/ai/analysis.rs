//! A finished game gone through by the computer: each position searched at a budget, each
//! action judged by how much of its player's winning chance it gave away, and the action the
//! search preferred. Its only input is where the game began and one viewer's view of the game's
//! end, so it knows exactly what that viewer knows: what the record still hides from them (a
//! rejected proposal in Rejection Chess; in a view of a game still going, a bomb carrier or a
//! base) is drawn at random, several times, as the computer opponent does when it plays
//! ([`super::hidden`]), and never read.
//!
//! Evaluations become a winning chance (`chance`), so games whose material is unusual (a Patch
//! army, a Domination score) read alike on one scale; the judgements use Lichess's thresholds on
//! that scale.

use super::evaluate::Evaluator;
use super::hidden::{self, Start};
use super::search::{Budget, Search, WIN};
use super::table::Table;
use crate::game::{Action, Game, Seat, Viewer};
use crate::outcome::Phase;
use crate::variants::AnyGame;
use crate::view::View;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};

/// How many possibilities of what the view hides are weighed (one when it hides nothing).
const SAMPLES: usize = 3;

/// Centipawns to a winning chance: the logistic curve Lichess fits to its games.
const CHANCE_SLOPE: f64 = 0.003_682_08;

/// A score this close to [`WIN`] is a win the search sees (mate, a flag home, a king blown up).
const SEES_A_WIN: i32 = WIN / 2;

/// An action that gives away this much of its player's score (two pawns, most of a minor piece:
/// a knight is worth 290 here) is at least a mistake, however little the winning chance moves: a
/// piece left hanging in a won game. Pieces are worth less here than on Fairy-Stockfish's scale
/// (a knight about 400), whose own blunder is a loss of 300: that is about 230 here.
const MATERIAL_MISTAKE: i32 = 200;

/// How bad an action was, by the winning chance its player gave away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    pub const ALL: [Judgement; 3] = [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder];

    /// The judgement of an action that gave away `loss` of its player's winning chance (0 to 1):
    /// 5, 10 and 15 points of it (Lichess's 0.1, 0.2 and 0.3 on its scale of -1 to 1).
    pub fn of(loss: f64) -> Option<Judgement> {
        if loss >= 0.15 {
            Some(Judgement::Blunder)
        } else if loss >= 0.10 {
            Some(Judgement::Mistake)
        } else if loss >= 0.05 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The mark a record gives it (a PGN's annotation, which Lichess and python-chess read).
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracies",
            Judgement::Mistake => "mistakes",
            Judgement::Blunder => "blunders",
        }
    }
}

/// What the game was about at a position, for the graph's bands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Pieces are picked from a shared pool (Pick-the-team).
    Picking,
    /// Pieces are placed from hand, or lists written.
    Placement,
    /// Secret choices made at once (a bomb carrier, a base).
    Choosing,
    Play,
}

impl Stage {
    fn of(game: &AnyGame) -> Stage {
        match game.phase() {
            Phase::Setup if !game.view(Viewer::Spectator).pool.is_empty() => Stage::Picking,
            Phase::Setup => Stage::Placement,
            Phase::SealedChoice => Stage::Choosing,
            Phase::Play | Phase::Finished => Stage::Play,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Picking => "picking",
            Stage::Placement => "placement",
            Stage::Choosing => "secret choices",
            Stage::Play => "play",
        }
    }
}

/// One position of the game, before an entry of the record (or after the last).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Position {
    /// The first seat's winning chance, 0 to 1 (a draw is one half).
    pub chance: f64,
    /// The first seat's score in centipawns, or within [`WIN`] of ±[`WIN`] for a win seen
    /// (`WIN - n`: won in `n` plies).
    pub score: i32,
    pub stage: Stage,
}

/// One action judged: an entry of the record the viewer can read, where its player had a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// Its place in the record (0 for the first entry).
    pub entry: usize,
    pub seat: Seat,
    /// As the record writes it.
    pub played: String,
    /// The action the search preferred, when it is another.
    pub best: Option<String>,
    /// The share of its player's winning chance it gave away (0 to 1).
    pub loss: f64,
    pub judgement: Option<Judgement>,
}

/// A game gone through: `positions[i]` stands before the record's entry `i`, and the last one
/// after its last entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    pub positions: Vec<Position>,
    pub reviews: Vec<Review>,
    /// The budget each position had, in nodes.
    pub nodes_per_position: u64,
    /// Nodes searched in all.
    pub nodes: u64,
}

impl Analysis {
    /// Each seat's summary: the average share of winning chance given away per judged action,
    /// and how many of each judgement.
    pub fn summary(&self, seat: Seat) -> Summary {
        let mine: Vec<&Review> = self.reviews.iter().filter(|r| r.seat == seat).collect();
        let count = |judgement| mine.iter().filter(|r| r.judgement == Some(judgement)).count();
        Summary {
            actions: mine.len(),
            average_loss: if mine.is_empty() {
                0.0
            } else {
                mine.iter().map(|r| r.loss).sum::<f64>() / mine.len() as f64
            },
            inaccuracies: count(Judgement::Inaccuracy),
            mistakes: count(Judgement::Mistake),
            blunders: count(Judgement::Blunder),
        }
    }

    /// The judged actions that lost the most, worst first (blunders, then mistakes, then
    /// inaccuracies, each by the chance lost), at most `most`.
    pub fn turning_points(&self, most: usize) -> Vec<&Review> {
        let mut judged: Vec<&Review> = self.reviews.iter().filter(|r| r.judgement.is_some()).collect();
        judged.sort_by(|a, b| {
            (b.judgement.cmp(&a.judgement))
                .then(b.loss.total_cmp(&a.loss))
                .then(a.entry.cmp(&b.entry))
        });
        judged.truncate(most);
        judged
    }
}

/// One seat's part of an analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub actions: usize,
    pub average_loss: f64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// The first seat's winning chance for a score of the first seat's.
pub fn chance(score: i32) -> f64 {
    if score >= SEES_A_WIN {
        1.0
    } else if score <= -SEES_A_WIN {
        0.0
    } else {
        1.0 / (1.0 + (-CHANCE_SLOPE * f64::from(score)).exp())
    }
}

/// The score whose winning chance this is (for a chance averaged over possibilities).
fn score_of(chance: f64) -> i32 {
    let chance = chance.clamp(1e-6, 1.0 - 1e-6);
    (-((1.0 / chance) - 1.0).ln() / CHANCE_SLOPE).round() as i32
}

/// Moves to a win the search sees from a score (`Some(3)`: the first seat wins in 3 moves;
/// `Some(-2)`: the second seat in 2), as a record's `[%eval #3]` writes it.
pub fn moves_to_win(score: i32) -> Option<i32> {
    if score.abs() < SEES_A_WIN {
        return None;
    }
    let plies = WIN - score.abs();
    let moves = (plies + 1) / 2;
    Some(if score > 0 { moves.max(1) } else { -moves.max(1) })
}

/// Goes through the game whose end `view` shows (as its viewer sees it), begun at `start`,
/// searching each position within `per_position`. `seed` makes the draws of what the view
/// hides repeat. `None` when the view's record does not replay from `start`.
pub fn analyse(start: &Start, view: &View, per_position: Budget, seed: u64) -> Option<Analysis> {
    let mut analyser = Analyser::new(start, view, per_position, seed)?;
    while analyser.step() {}
    Some(analyser.finish())
}

/// An analysis under way, a position at a time, so that whoever runs it can let other work
/// (the computer's moves) in between positions, and tell how far it is.
pub struct Analyser {
    view: View,
    per_position: Budget,
    /// Each possibility of what the view hides: the actions from the start, and the game as it
    /// stands at the next position to search.
    lines: Vec<(Vec<(Seat, Action)>, AnyGame)>,
    /// Per possibility, per position searched so far: the search's findings.
    found: Vec<Vec<Searched>>,
    evaluators: [Evaluator; 2],
    /// Per possibility, each seat's transposition table, kept from one position to the next.
    tables: Vec<[Table; 2]>,
    nodes: u64,
}

impl Analyser {
    /// `None` when the view's record does not replay from `start`.
    pub fn new(start: &Start, view: &View, per_position: Budget, seed: u64) -> Option<Analyser> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let samples = if hidden::hides_something(view) { SAMPLES } else { 1 };
        let fresh = start.game()?;
        let lines: Vec<(Vec<(Seat, Action)>, AnyGame)> = (0..samples)
            .filter_map(|_| hidden::sample_line(start, view, &mut rng).map(|(_, line)| (line, fresh.clone())))
            .collect();
        if lines.is_empty() {
            return None;
        }
        Some(Analyser {
            view: view.clone(),
            per_position,
            found: lines
                .iter()
                .map(|_| Vec::with_capacity(view.record.len() + 1))
                .collect(),
            tables: lines
                .iter()
                .map(|_| Seat::BOTH.map(|_| Table::for_nodes(per_position.nodes)))
                .collect(),
            lines,
            evaluators: Seat::BOTH.map(|seat| Evaluator::new(seat, start.variant)),
            nodes: 0,
        })
    }

    /// How many positions the game has (one before each entry of the record, one after).
    pub fn positions(&self) -> usize {
        self.view.record.len() + 1
    }

    /// How many positions are searched.
    pub fn searched(&self) -> usize {
        self.found[0].len()
    }

    /// Searches the next position in every possibility; false once every position is searched.
    pub fn step(&mut self) -> bool {
        let index = self.searched();
        if index >= self.positions() {
            return false;
        }
        for (sample, (line, game)) in self.lines.iter_mut().enumerate() {
            let actor = line.get(index).map(|(seat, _)| *seat);
            let played = line.get(index).map(|(_, action)| action);
            let searched = search(
                game,
                actor,
                played,
                &mut self.evaluators,
                &mut self.tables[sample],
                self.per_position,
                0,
            );
            self.nodes += searched.nodes;
            self.found[sample].push(searched);
            if let Some((seat, action)) = line.get(index) {
                // The line replayed once already: every action of it applies.
                let _ = game.apply(*seat, action);
            }
        }
        true
    }

    /// The analysis of the positions searched (all of them, once `step` says so).
    pub fn finish(self) -> Analysis {
        let found = &self.found;
        let count = found[0].len();
        // Each position's value by its own search; one without (a pick, a forced move) is
        // worth the next one's.
        let mut values = vec![(0.5, 0); count];
        let mut next = None;
        for index in (0..count).rev() {
            next = weigh(found, index, |searched| searched.score).or(next);
            values[index] = next.unwrap_or((0.5, 0));
        }
        let played: Vec<Option<(f64, i32)>> = (0..count)
            .map(|index| weigh(found, index, |searched| searched.played))
            .collect();
        let reviews: Vec<Review> = (0..count.saturating_sub(1))
            .filter_map(|index| review(&self.view, found, (values[index], played[index]), index))
            .collect();
        // After each move judged, what its mover's search made of it, unless the game ended
        // there (then its result); elsewhere, the position's own value.
        let positions: Vec<Position> = (0..count)
            .map(|index| {
                let judged = index
                    .checked_sub(1)
                    .filter(|before| reviews.iter().any(|review| review.entry == *before));
                let (chance, score) = match judged.and_then(|before| played[before]) {
                    Some(value) if !found[0][index].ended => value,
                    _ => values[index],
                };
                Position {
                    chance,
                    score,
                    stage: found[0][index].stage,
                }
            })
            .collect();
        Analysis {
            positions,
            reviews,
            nodes_per_position: self.per_position.nodes,
            nodes: self.nodes,
        }
    }
}

/// What one search said of one position.
struct Searched {
    /// The first seat's score; `None` where the search cannot weigh the actor's choice (a list
    /// to write, a pick), so the position is worth what follows it.
    score: Option<i32>,
    /// The action preferred, as the record would write it; none where there was no choice.
    best: Option<String>,
    /// The first seat's score of the action played here, from the same root as `score` (the
    /// actor's, as deep): judged against the best from one side's search, a move's loss never
    /// mixes in how the two sides' searches see the next position differently.
    played: Option<i32>,
    /// The game is over here: the position is worth its result.
    ended: bool,
    /// What the actor could do here (a digest of its actions' notation): where the
    /// possibilities disagree, the viewer cannot know what the choice was among.
    options: u64,
    stage: Stage,
    nodes: u64,
}

/// How many forced actions in a row a position's value is looked for through.
const FORCED_CHAIN: usize = 8;

/// Searches a position for `actor` (the seat whose entry comes next; at the end, whoever is to
/// act, if anyone); a finished game is worth its result, a forced action what follows it
/// (`forced`: how many forced actions led here).
fn search(
    game: &AnyGame,
    actor: Option<Seat>,
    played: Option<&Action>,
    evaluators: &mut [Evaluator; 2],
    tables: &mut [Table; 2],
    budget: Budget,
    forced: usize,
) -> Searched {
    let stage = Stage::of(game);
    let quiet = |score, options| Searched {
        score,
        best: None,
        played: None,
        ended: game.outcome().is_some(),
        options,
        stage,
        nodes: 0,
    };
    if let Some(outcome) = game.outcome() {
        return quiet(
            Some(match outcome.winner {
                Some(Seat::First) => WIN,
                Some(Seat::Second) => -WIN,
                None => 0,
            }),
            0,
        );
    }
    let Some(actor) = actor.or_else(|| game.to_act().first().copied()) else {
        return quiet(None, 0);
    };
    let actions = game.legal_actions(actor);
    let options = digest(game, actor, &actions);
    // Lists, picks and placements are beyond what the search weighs well (a whole army's
    // worth, or its set-up, decided a few plies deep): they are worth what they lead to.
    let setting_up = matches!(stage, Stage::Picking | Stage::Placement);
    if setting_up || matches!(actions.first(), Some(Action::SubmitList { .. })) {
        return quiet(None, options);
    }
    if actions.len() == 1 {
        // Forced: worth the position it leads to (through a few more forced ones at most), with
        // no choice to judge.
        let mut next = game.clone();
        if forced >= FORCED_CHAIN || next.apply(actor, &actions[0]).is_err() {
            return quiet(None, options);
        }
        let after = search(&next, None, None, evaluators, tables, budget, forced + 1);
        return Searched {
            best: None,
            played: None,
            ended: false,
            options,
            stage,
            ..after
        };
    }
    let [first, second] = evaluators;
    let [first_table, second_table] = tables;
    let (evaluator, table) = match actor {
        Seat::First => (first, first_table),
        Seat::Second => (second, second_table),
    };
    let found = scored(game, actor, evaluator, table, budget, None);
    let Some((best, score)) = found.best else {
        return quiet(None, options);
    };
    let for_first = |score: i32| if actor == Seat::First { score } else { -score };
    let best_text = game.notation(actor, &best);
    let played_score = match played {
        Some(action) if *action != best => scored(game, actor, evaluator, table, budget, Some(action))
            .best
            .map(|(_, score)| score),
        Some(_) => Some(score),
        None => None,
    };
    Searched {
        score: Some(for_first(score)),
        best: Some(best_text),
        played: played_score.map(for_first),
        ended: false,
        options,
        stage,
        nodes: found.nodes,
    }
}

/// A search's best root action and its score for the searching seat, and the nodes it took.
struct Scored {
    best: Option<(Action, i32)>,
    nodes: u64,
}

/// Searches `game` for `actor` (scoring `only` that action, if one is given). The score is the
/// average of the last two depths completed: a depth's evaluation leans toward whoever moves
/// last in it (in games weighed by mobility, such as Blockade, by a pawn), and the average
/// cancels that lean.
fn scored(
    game: &AnyGame,
    actor: Seat,
    evaluator: &mut Evaluator,
    table: &mut Table,
    budget: Budget,
    only: Option<&Action>,
) -> Scored {
    let mut depths: Vec<i32> = Vec::new();
    let mut heard = |progress: &super::search::Progress| depths.push(progress.score);
    let mut search = Search::new(actor, evaluator, budget)
        .with_table(table)
        .reporting(&mut heard);
    if let Some(action) = only {
        search = search.only(action.clone());
    }
    let found = search.run(game);
    let Some((best, last)) = found.scores.first().cloned() else {
        return Scored {
            best: None,
            nodes: found.nodes,
        };
    };
    let score = match depths[..] {
        [.., before, last] if before.abs() < SEES_A_WIN && last.abs() < SEES_A_WIN => (before + last) / 2,
        [.., last] => last,
        [] => last,
    };
    Scored {
        best: Some((best, score)),
        nodes: found.nodes,
    }
}

/// A digest of the notation of `actions`, for comparing what possibilities offer.
fn digest(game: &AnyGame, actor: Seat, actions: &[Action]) -> u64 {
    let mut texts: Vec<String> = actions.iter().map(|action| game.notation(actor, action)).collect();
    texts.sort_unstable();
    fnv(texts.iter().flat_map(|text| text.bytes().chain([0])))
}

/// A seed from what the view shows of the record: games a viewer cannot tell apart are
/// analysed alike, whatever they hide.
pub fn seed_of(view: &View) -> u64 {
    fnv(view
        .record
        .iter()
        .flat_map(|entry| entry.text.bytes().chain([entry.seat.index() as u8, 0])))
}

/// FNV-1a, 64 bits: stable from one process and release to the next.
fn fnv(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// What all possibilities together say of position `index`, by `pick` (a search's score, or its
/// score of the move played): the average winning chance, and a score from it (unless every
/// possibility sees the same side win: then the slowest win). `None` where a possibility has
/// nothing to say, or where they disagree on what the actor could do: the viewer cannot know
/// what the actor had.
fn weigh(found: &[Vec<Searched>], index: usize, pick: impl Fn(&Searched) -> Option<i32>) -> Option<(f64, i32)> {
    let agreed = found.iter().all(|line| line[index].options == found[0][index].options);
    let scores: Vec<i32> = found.iter().map(|line| pick(&line[index])).collect::<Option<_>>()?;
    if !agreed || scores.is_empty() {
        return None;
    }
    let chance = scores.iter().map(|s| chance(*s)).sum::<f64>() / scores.len() as f64;
    let all_wins = scores.iter().all(|s| *s >= SEES_A_WIN) || scores.iter().all(|s| *s <= -SEES_A_WIN);
    let score = if all_wins || scores.len() == 1 {
        *scores.iter().min_by_key(|s| s.abs()).unwrap_or(&0)
    } else {
        score_of(chance)
    };
    Some((chance, score))
}

/// The judgement of a move from its mover's score before and after it: by the winning chance
/// lost, except where a win the search sees is made or lost, judged as Lichess judges mates: a
/// win let slip is a blunder unless the position stays clearly won (a mistake above 7 pawns, an
/// inaccuracy above 10), and walking into a lost game a blunder unless it was already clearly
/// lost (a mistake below -7 pawns, an inaccuracy below -10). Either way, giving away
/// [`MATERIAL_MISTAKE`] or more of the score is at least a mistake: in a game already decided the
/// chance hardly moves, yet the player would want to know (Lichess does not say so).
fn judge(before: i32, after: i32, loss: f64) -> Option<Judgement> {
    let by_chance = judge_by_chance(before, after, loss);
    if before - after >= MATERIAL_MISTAKE {
        by_chance.max(Some(Judgement::Mistake))
    } else {
        by_chance
    }
}

/// The judgement by the winning chance alone, with Lichess's rules for wins made and lost.
fn judge_by_chance(before: i32, after: i32, loss: f64) -> Option<Judgement> {
    let wins = |score: i32| score >= SEES_A_WIN;
    let loses = |score: i32| score <= -SEES_A_WIN;
    let by_margin = |margin: i32| {
        Some(if margin > 999 {
            Judgement::Inaccuracy
        } else if margin > 700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        })
    };
    if wins(before) && !wins(after) && !loses(after) {
        by_margin(after)
    } else if loses(after) && !loses(before) {
        by_margin(if wins(before) { 0 } else { -before })
    } else {
        Judgement::of(loss)
    }
}

/// Whether the entry comes after a step of its own turn the view hides (a rejected proposal):
/// what its player chose among depends on it, so it is not judged.
fn follows_own_secret(view: &View, index: usize) -> bool {
    let seat = view.record[index].seat;
    for entry in view.record[..index].iter().rev() {
        if entry.seat != seat && entry.is_move {
            return false;
        }
        if entry.seat == seat && entry.is_hidden {
            return true;
        }
    }
    false
}

/// The judgement of the record's entry `index`, if the view reads it and its player had a
/// choice: the winning chance it gave away, and the action preferred in most possibilities.
fn review(
    view: &View,
    found: &[Vec<Searched>],
    (before, after): ((f64, i32), Option<(f64, i32)>),
    index: usize,
) -> Option<Review> {
    let entry = &view.record[index];
    let chosen = found.iter().all(|line| line[index].best.is_some());
    if entry.is_hidden || !entry.is_move || !chosen || follows_own_secret(view, index) {
        return None;
    }
    // None where the possibilities disagree on what the actor could do.
    let after = after?;
    let mut votes: Vec<(&str, usize)> = Vec::new();
    for best in found.iter().filter_map(|line| line[index].best.as_deref()) {
        match votes.iter_mut().find(|(action, _)| *action == best) {
            Some(vote) => vote.1 += 1,
            None => votes.push((best, 1)),
        }
    }
    let best = votes
        .iter()
        .max_by_key(|(_, count)| *count)
        .map(|(action, _)| (*action).to_string());
    let for_seat = |chance: f64| {
        if entry.seat == Seat::First {
            chance
        } else {
            1.0 - chance
        }
    };
    let played_best = best.as_deref() == Some(entry.text.as_str());
    let loss = if played_best {
        0.0
    } else {
        (for_seat(before.0) - for_seat(after.0)).max(0.0)
    };
    let for_mover = |score: i32| if entry.seat == Seat::First { score } else { -score };
    let judgement = if played_best {
        None
    } else {
        judge(for_mover(before.1), for_mover(after.1), loss)
    };
    Some(Review {
        entry: index,
        seat: entry.seat,
        played: entry.text.clone(),
        best: best.filter(|_| !played_best),
        loss,
        judgement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_made_and_lost_are_judged_as_lichess_judges_mates() {
        let mate_in_2 = WIN - 3;
        // A mate let slip: a blunder if the game is about even after, less if still won.
        assert_eq!(judge(mate_in_2, 300, 0.25), Some(Judgement::Blunder));
        assert_eq!(judge_by_chance(mate_in_2, 800, 0.05), Some(Judgement::Mistake));
        assert_eq!(judge_by_chance(mate_in_2, 1500, 0.004), Some(Judgement::Inaccuracy));
        // Walking into a mate: a blunder from an even game, less from a lost one.
        assert_eq!(judge(-50, -mate_in_2, 0.45), Some(Judgement::Blunder));
        assert_eq!(judge_by_chance(-800, -mate_in_2, 0.05), Some(Judgement::Mistake));
        assert_eq!(judge_by_chance(-2000, -mate_in_2, 0.0), Some(Judgement::Inaccuracy));
        // A mate still there, or one still coming: the chance decides (nothing lost here).
        assert_eq!(judge(mate_in_2, WIN - 5, 0.0), None);
        assert_eq!(judge(-WIN + 4, -WIN + 2, 0.0), None);
        // No mate on either side: the chance lost.
        assert_eq!(judge(0, -300, chance(0) - chance(-300)), Some(Judgement::Blunder));
        assert_eq!(judge_by_chance(1500, 1200, chance(1500) - chance(1200)), None);
    }

    #[test]
    fn giving_away_two_pawns_is_a_mistake_however_decided_the_game() {
        let mate_in_2 = WIN - 3;
        // A piece left hanging in a won game, or in a lost one: the chance barely moves.
        assert_eq!(judge(1500, 1300, chance(1500) - chance(1300)), Some(Judgement::Mistake));
        assert_eq!(
            judge(-1200, -1500, chance(-1200) - chance(-1500)),
            Some(Judgement::Mistake)
        );
        // Less than two pawns, in a game already decided: the chance decides.
        assert_eq!(judge(1500, 1301, chance(1500) - chance(1301)), None);
        assert_eq!(judge(-1300, -1450, chance(-1300) - chance(-1450)), None);
        // A mate let slip, or walked into, from a game already decided.
        assert_eq!(judge(mate_in_2, 1500, 0.004), Some(Judgement::Mistake));
        assert_eq!(judge(-2000, -mate_in_2, 0.0), Some(Judgement::Mistake));
        // Never less than the chance says.
        assert_eq!(judge(0, -300, chance(0) - chance(-300)), Some(Judgement::Blunder));
        // A slower mate, or a mate put off, is not material given away.
        assert_eq!(judge(-WIN + 10, -WIN + 4, 0.0), None);
    }
}
