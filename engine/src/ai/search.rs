//! The computer opponent's search: iterative deepening alpha-beta over the game model, with
//! captures searched to quiet positions, captures and killer moves tried first, the best move of
//! the last depth first at the next, and, in games whose positions have a key, a table of the
//! positions searched ([`super::table`]) whose best action is tried first of all, and quiet actions
//! in the order of how often they cut the search off before (history). What it prunes:
//! each depth at the root is searched first within a window around the last one's score
//! (aspiration); a side well ahead is let pass, where the game allows a pass, and cut if passing
//! already keeps it ahead (null-move pruning); after the first action, each is asked only whether
//! it beats the best so far (a null window) and searched fully only if it does; late quiet actions
//! are searched a ply or two shallower unless they turn out better (late-move reductions); near
//! the horizon a side far beyond the window is taken to stay there, and a side far short of it
//! searches no quiet action, nor more than a few (futility and late-move pruning), though a check,
//! which may begin a mate, is never left out nor searched shallower; a capture that cannot bring
//! its side back to the window is not followed (delta pruning), nor, among captures only, one that
//! gives a piece for a lesser one on a guarded square (tried after the killers in the full search);
//! a side in check is searched a ply further, and past the depth answers the check by any move
//! rather than stand on what it has (a check that mates is seen as one).
//! It keeps the best line found, and tells a caller of each depth completed (`arbiter uci`'s
//! `info` lines). It plays any game through [`Game`], on a copy that writes nothing for people
//! to read ([`Game::stop_writing`]): whoever is to act at a node chooses (the seat itself during a
//! simultaneous choice, which the other side makes without seeing it), so a turn of several
//! actions or a protocol step (a proposal and its answer) is simply more plies. Scores are for the
//! computer's own seat throughout: it maximises, the other side minimises.

use super::evaluate::Evaluator;
use super::frontier::{FRONTIER, Frontier};
use super::history::History;
use super::sights::Sights;
use super::table::Table;
use super::weighed::Weighed;
use crate::game::{Action, Game, Seat};
use crate::variants::AnyGame;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tries::Tries;

/// A won game, less the plies it takes (kept with the table, which stores wins by distance).
pub use super::table::WIN;
/// Captures are followed at most this far past the search's depth...
const QUIESCENCE_PLIES: usize = 6;
/// ...unless what one takes, and this much besides, would not bring its side back into the window.
const DELTA: i32 = 200;
/// Within this many plies past the depth, a side in check answers it rather than standing.
const EVADED_PLIES: usize = 2;
/// The deepest a search goes.
const DEEPEST: u32 = 64;
/// Checks are searched a ply further, up to this many plies from the root.
const EXTENDED_PLIES: usize = 16;
/// Late quiet actions are searched a ply shallower from this depth, after this many actions, and
/// two plies shallower from the second depth, after the second count.
const REDUCED_FROM: i32 = 3;
const REDUCED_AFTER: usize = 3;
const DEEPLY_REDUCED_FROM: i32 = 6;
const DEEPLY_REDUCED_AFTER: usize = 8;
/// Passing is tried from this depth, searched this many plies shallower than an action.
const PASS_FROM: i32 = 3;
const PASS_REDUCTION: i32 = 2;
/// From this depth the root searches first within this much of the last depth's best score.
const ASPIRATION_FROM: u32 = 4;
const ASPIRATION: i32 = 50;

/// What a search may spend: nodes (positions visited, the same on every machine) and, should a
/// machine be slow, time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub nodes: u64,
    pub time: Duration,
}

/// One search's findings: each root action's score at the deepest depth completed.
pub struct Found {
    pub scores: Vec<(Action, i32)>,
    pub nodes: u64,
    pub depth: u32,
}

/// What a search has found when it completes a depth: the best line so far (its first action is
/// the one it would play), its score for the seat, and what it cost.
pub struct Progress<'p> {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub line: &'p [Action],
}

/// How the search is told what it found, depth by depth (a UCI engine's `info` lines).
pub type Reporter<'a> = &'a mut dyn FnMut(&Progress);

pub struct Search<'a> {
    me: Seat,
    evaluator: &'a mut Evaluator,
    budget: Budget,
    started: Instant,
    nodes: u64,
    stopped: bool,
    /// Per ply, two quiet actions that last caused a cut-off there.
    killers: Vec<[Option<Action>; 2]>,
    /// How often each quiet move (by seat, from and to square) caused a cut-off anywhere,
    /// weighted by depth: quiet moves are tried in that order after the killers.
    history: History,
    /// Per ply, the best line found from there (a triangular table: a ply's line is its action
    /// followed by the next ply's line).
    lines: Vec<Vec<Action>>,
    /// The deepest depth to search.
    deepest: u32,
    /// Set from outside to stop the search (a UCI `stop`).
    stop: Option<Arc<AtomicBool>>,
    report: Option<Reporter<'a>>,
    /// What it found of positions before (in this search or, kept by its caller, earlier ones).
    table: Option<&'a mut Table>,
    /// The one root action to score, where only its score is wanted (an analysis's move played).
    only: Option<Action>,
    sights: Sights,
    weighed: Weighed,
}

impl<'a> Search<'a> {
    pub fn new(me: Seat, evaluator: &'a mut Evaluator, budget: Budget) -> Search<'a> {
        Search {
            me,
            evaluator,
            budget,
            started: Instant::now(),
            nodes: 0,
            stopped: false,
            killers: Vec::new(),
            history: History::default(),
            lines: Vec::new(),
            deepest: DEEPEST,
            stop: None,
            report: None,
            table: None,
            only: None,
            sights: Sights::default(),
            weighed: Weighed::for_nodes(budget.nodes),
        }
    }

    /// The same search, keeping what it finds of positions in `table` (and using what is there,
    /// if a search for the same seat put it there).
    pub fn with_table(self, table: &'a mut Table) -> Search<'a> {
        table.serve(self.me);
        Search {
            table: Some(table),
            ..self
        }
    }

    /// The same search, scoring `action` alone at the root (exactly, as deep as the budget
    /// allows): what one move is worth, judged as the search judges the best.
    pub fn only(self, action: Action) -> Search<'a> {
        Search {
            only: Some(action),
            ..self
        }
    }

    /// The same search, no deeper than `depth` plies.
    pub fn no_deeper_than(self, depth: u32) -> Search<'a> {
        Search {
            deepest: depth.clamp(1, DEEPEST),
            ..self
        }
    }

    /// The same search, stopped as soon as `stop` is set (after its first depth).
    pub fn stopped_by(self, stop: Arc<AtomicBool>) -> Search<'a> {
        Search {
            stop: Some(stop),
            ..self
        }
    }

    /// The same search, telling `report` what it found at each depth completed.
    pub fn reporting(self, report: Reporter<'a>) -> Search<'a> {
        Search {
            report: Some(report),
            ..self
        }
    }

    /// Searches `game` (where the seat is to act) deeper and deeper until the budget is spent.
    /// Every legal action of the seat is scored at depth 1 at least, whatever the budget.
    pub fn run(mut self, game: &AnyGame) -> Found {
        let mut searched = game.clone();
        searched.stop_writing();
        let game = &searched;
        let mut scores: Vec<(Action, i32)> = game.legal_actions(self.me).into_iter().map(|a| (a, 0)).collect();
        if let Some(only) = &self.only {
            scores.retain(|(action, _)| action == only);
        }
        let mut depth = 0;
        if scores.is_empty() || (scores.len() == 1 && self.only.is_none()) {
            return Found {
                scores,
                nodes: 0,
                depth: 0,
            };
        }
        let mut last_best = None;
        for target in 1..=self.deepest {
            let (this_depth, best_line) = self.around(game, &scores, target, last_best);
            if self.stopped && target > 1 {
                // Keep the last full depth, but let a better move found first in this one win.
                if let Some((best, score)) = this_depth.first()
                    && let Some(old_best) = scores.first().map(|(_, s)| *s)
                    && *score > old_best
                    && let Some(entry) = scores.iter_mut().find(|(a, _)| a == best)
                {
                    entry.1 = *score;
                    scores.sort_by_key(|(_, s)| -s);
                }
                break;
            }
            // Unplayable actions (none should be) drop out.
            scores = this_depth;
            scores.sort_by_key(|(_, s)| -s);
            depth = target;
            last_best = scores.first().map(|(_, s)| *s);
            self.tell(depth, last_best.unwrap_or(0), &best_line);
            if self.stopped || self.spent() || last_best.is_some_and(|s| s.abs() > WIN / 2) {
                break;
            }
        }
        Found {
            scores,
            nodes: self.nodes,
            depth,
        }
    }

    /// One depth at the root, first within a window around the last depth's best score
    /// (aspiration): most depths' best lands in it, and a narrow window cuts more. A best outside
    /// it is searched again with that side of the window open.
    fn around(
        &mut self,
        game: &AnyGame,
        scores: &[(Action, i32)],
        target: u32,
        last_best: Option<i32>,
    ) -> (Vec<(Action, i32)>, Vec<Action>) {
        let (mut low, mut high) = match last_best {
            Some(best) if target >= ASPIRATION_FROM && best.abs() < WIN / 2 => (best - ASPIRATION, best + ASPIRATION),
            _ => (-WIN * 2, WIN * 2),
        };
        loop {
            let (found, line) = self.root(game, scores, target, low, high);
            let best = found.iter().map(|(_, s)| *s).max();
            if self.stopped {
                return (found, line);
            }
            match best {
                Some(best) if best <= low && low > -WIN * 2 => low = -WIN * 2,
                Some(best) if best >= high && high < WIN * 2 => high = WIN * 2,
                _ => return (found, line),
            }
        }
    }

    /// Scores each root action at `target` plies, the best exactly within (low, high) and each
    /// other within a window just under the best so far; the best line with them.
    fn root(
        &mut self,
        game: &AnyGame,
        scores: &[(Action, i32)],
        target: u32,
        low: i32,
        high: i32,
    ) -> (Vec<(Action, i32)>, Vec<Action>) {
        let mut this_depth = Vec::with_capacity(scores.len());
        let mut alpha = low;
        let mut best_line = Vec::new();
        for (action, _) in scores {
            let mut next = game.clone();
            if next.apply(self.me, action).is_err() {
                continue;
            }
            self.nodes += 1;
            let score = self.node(&next, target as i32 - 1, 1, alpha - 1, high, true);
            if self.stopped && target > 1 {
                break;
            }
            if score > alpha || best_line.is_empty() {
                best_line = self.line_after(action, 1);
            }
            alpha = alpha.max(score);
            this_depth.push((action.clone(), score));
        }
        (this_depth, best_line)
    }

    fn spent(&mut self) -> bool {
        if self.nodes >= self.budget.nodes
            || (self.nodes.is_multiple_of(256)
                && (self.started.elapsed() >= self.budget.time
                    || self.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed))))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Tells the reporter, if any, what a completed depth found.
    fn tell(&mut self, depth: u32, score: i32, line: &[Action]) {
        let (nodes, elapsed) = (self.nodes, self.started.elapsed());
        if let Some(report) = self.report.as_mut() {
            report(&Progress {
                depth,
                score,
                nodes,
                elapsed,
                line,
            });
        }
    }

    /// Forgets the best line from `ply` on: a node starts with none.
    fn clear_line(&mut self, ply: usize) {
        if self.lines.len() <= ply + 1 {
            self.lines.resize(ply + 2, Vec::new());
        }
        self.lines[ply].clear();
    }

    /// `action` followed by the best line found after it (from `ply` on).
    fn line_after(&self, action: &Action, ply: usize) -> Vec<Action> {
        let rest = self.lines.get(ply).map_or(&[][..], |line| line.as_slice());
        std::iter::once(action.clone()).chain(rest.iter().cloned()).collect()
    }

    /// `action` is the best found at `ply`: its line is the action, then the next ply's line.
    fn keep_line(&mut self, ply: usize, action: &Action) {
        let line = self.line_after(action, ply + 1);
        self.lines[ply] = line;
    }

    /// Who chooses at a node: the seat itself when it is among those to act.
    fn actor(&self, game: &AnyGame) -> Option<Seat> {
        let to_act = game.to_act();
        if to_act.contains(&self.me) {
            Some(self.me)
        } else {
            to_act.first().copied()
        }
    }

    fn ended(&self, game: &AnyGame, ply: usize) -> Option<i32> {
        let outcome = game.outcome()?;
        Some(match outcome.winner {
            Some(winner) if winner == self.me => WIN - ply as i32,
            Some(_) => -WIN + ply as i32,
            None => 0,
        })
    }

    /// The score of `game` searched `depth` more plies, within (alpha, beta). `may_pass`: the side
    /// to act may be tried passing first (not right after a pass).
    fn node(&mut self, game: &AnyGame, depth: i32, ply: usize, alpha: i32, beta: i32, may_pass: bool) -> i32 {
        self.clear_line(ply);
        if let Some(score) = self.ended(game, ply) {
            return score;
        }
        if depth <= 0 {
            return self.quiet(game, ply, alpha, beta, 0);
        }
        let Some(actor) = self.actor(game) else {
            return self.evaluator.evaluate(game);
        };
        if self.spent() {
            return self.evaluator.evaluate(game);
        }
        let key = game.search_key();
        let mut first = None;
        if let (Some(key), Some(table)) = (key, self.table.as_deref())
            && let Some(entry) = table.probe(key)
        {
            if let Some(score) = entry.settles(depth, ply, alpha, beta) {
                return score;
            }
            first = entry.best.clone();
        }
        let sight = self.sights.take(game, self.me, ply);
        let score = self.expand(game, &sight, actor, first, key, depth, ply, alpha, beta, may_pass);
        self.sights.give_back(ply, sight);
        score
    }

    /// The rest of [`Search::node`], once the seat's `sight` is taken: the bounds that may spare
    /// a search, then `actor`'s actions in order (listed only when no bound spared them).
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        game: &AnyGame,
        sight: &crate::View,
        actor: Seat,
        first: Option<Action>,
        key: Option<u64>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        may_pass: bool,
    ) -> i32 {
        let maximising = actor == self.me;
        let in_check = in_check(sight);
        // The position as it stands, where a bound on it may spare a search: near the horizon
        // and where passing is tried, never in check.
        let standing =
            (!in_check && (depth <= FRONTIER || (may_pass && depth >= PASS_FROM))).then(|| self.weigh(key, sight));
        let frontier = standing
            .filter(|_| depth <= FRONTIER && alpha.abs() < WIN / 2 && beta.abs() < WIN / 2)
            .zip(self.evaluator.quiet_swing())
            .map(|(standing, swing)| Frontier {
                standing,
                margin: swing * depth,
                depth: depth as usize,
                maximising,
            });
        if let Some(score) = frontier.and_then(|f| f.beyond(alpha, beta)) {
            return score;
        }
        if may_pass
            && let Some(standing) = standing
            && let Some(score) = self.pass_first(game, sight, standing, actor, depth, ply, alpha, beta)
        {
            return score;
        }
        // A side in check has few replies, and what follows is often decisive: look one further.
        let depth = if in_check && ply < EXTENDED_PLIES {
            depth + 1
        } else {
            depth
        };
        let window = (alpha, beta);
        let mut best = worst(maximising);
        let mut best_action = None;
        let mut searched = 0;
        let mut tries = Tries::new(first);
        while let Some((index, action)) = self.next_try(&mut tries, game, sight, actor, ply) {
            let loud = tries.loud;
            let quiet = index >= loud;
            // Near the horizon, a quiet move cannot lift a side far enough behind back into
            // the window, and the late ones of a well-ordered list seldom matter: they are
            // left out, once one action has been searched.
            let prunable =
                searched > 0 && quiet && frontier.is_some_and(|f| f.prunes(&action, index - loud, alpha, beta));
            let reducible = quiet && !in_check && depth >= REDUCED_FROM && searched >= REDUCED_AFTER;
            // A check may begin a mate: it is searched, and in full.
            let checks = (prunable || reducible) && game.gives_check(actor, &action) == Some(true);
            if prunable && !checks {
                continue;
            }
            let mut next = game.clone();
            if next.apply(actor, &action).is_err() {
                continue;
            }
            self.nodes += 1;
            let reduced = reducible && !checks;
            let score = self.child(&next, depth, ply, alpha, beta, maximising, searched, reduced);
            searched += 1;
            if self.stopped {
                return score;
            }
            if better(maximising, score, best) {
                self.keep_line(ply, &action);
                best_action = Some(action.clone());
            }
            if take(maximising, score, &mut best, &mut alpha, &mut beta) {
                self.remember_cut(ply, depth, sight, actor, action);
                break;
            }
        }
        if searched == 0 && tries.none_listed {
            return self.weigh(key, sight);
        }
        if searched == 0 {
            // Every action was left out: the side stands no better than its bound.
            return frontier.map_or(best, |f| f.bound());
        }
        if let (Some(key), Some(table), Some(action)) = (key, self.table.as_deref_mut(), best_action) {
            table.store(key, depth, ply, best, window, Some(action));
        }
        best
    }

    /// The next action of a node to try, with its place among them: the table's best first,
    /// then the others, listed and put in order when first needed.
    fn next_try(
        &mut self,
        tries: &mut Tries,
        game: &AnyGame,
        sight: &crate::View,
        actor: Seat,
        ply: usize,
    ) -> Option<(usize, Action)> {
        let action = match tries.first.take() {
            Some(first) => {
                tries.tried_first = Some(first.clone());
                first
            }
            None => {
                if tries.rest.is_none() {
                    let mut actions = game.legal_actions(actor);
                    tries.none_listed = actions.is_empty();
                    if let Some(tried) = &tries.tried_first {
                        actions.retain(|action| action != tried);
                    }
                    tries.loud += self.order(game, sight, actor, ply, &mut actions);
                    tries.rest = Some(actions.into_iter());
                }
                tries.rest.as_mut()?.next()?
            }
        };
        tries.place += 1;
        Some((tries.place - 1, action))
    }

    /// The score of one child of a node searched `depth` plies, within (alpha, beta). The first
    /// action searched gets the full window. Each later one is first asked only whether it beats
    /// the best so far (a null window), late `quiet` ones (from the `REDUCED_AFTER`th) a ply or
    /// two shallower; only one that does is searched again, deeper and then with the full window.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        next: &AnyGame,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        maximising: bool,
        searched: usize,
        quiet: bool,
    ) -> i32 {
        if searched == 0 {
            return self.node(next, depth - 1, ply + 1, alpha, beta, true);
        }
        let reduction = match quiet && depth >= REDUCED_FROM && searched >= REDUCED_AFTER {
            false => 0,
            true if depth >= DEEPLY_REDUCED_FROM && searched >= DEEPLY_REDUCED_AFTER => 2,
            true => 1,
        };
        let (low, high) = if maximising {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let beats = |score: i32| if maximising { score > alpha } else { score < beta };
        let mut score = self.node(next, depth - 1 - reduction, ply + 1, low, high, true);
        if beats(score) && reduction > 0 && !self.stopped {
            score = self.node(next, depth - 1, ply + 1, low, high, true);
        }
        if beats(score) && beta - alpha > 1 && !self.stopped {
            score = self.node(next, depth - 1, ply + 1, alpha, beta, true);
        }
        score
    }

    /// Null-move pruning: where the side to act stands beyond the window already, it passes and
    /// the other side gets a shallower search. If it is still beyond the window, its real actions,
    /// at least as good as passing (zugzwang aside: a side with only pawns and royals is not
    /// tried), would be too, and the node is cut. The cut's bound, never a win found this way.
    #[allow(clippy::too_many_arguments)]
    fn pass_first(
        &mut self,
        game: &AnyGame,
        sight: &crate::View,
        standing: i32,
        actor: Seat,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if depth < PASS_FROM || !self.evaluator.has_officers(sight, actor) {
            return None;
        }
        let maximising = actor == self.me;
        let beyond = if maximising {
            standing >= beta
        } else {
            standing <= alpha
        };
        if !beyond {
            return None;
        }
        let mut passed = game.clone();
        if !passed.pass_in_search() {
            return None;
        }
        self.nodes += 1;
        let (low, high) = if maximising {
            (beta - 1, beta)
        } else {
            (alpha, alpha + 1)
        };
        let score = self.node(&passed, depth - 1 - PASS_REDUCTION, ply + 1, low, high, false);
        if self.stopped {
            return None;
        }
        match maximising {
            true if score >= beta => Some(beta),
            false if score <= alpha => Some(alpha),
            _ => None,
        }
    }

    /// Captures only, until the position is quiet: the side to act may also stand on what it has.
    fn quiet(&mut self, game: &AnyGame, ply: usize, alpha: i32, beta: i32, extra: usize) -> i32 {
        self.clear_line(ply);
        if let Some(score) = self.ended(game, ply) {
            return score;
        }
        let sight = self.sights.take(game, self.me, ply);
        let score = self.quiet_seen(game, &sight, ply, alpha, beta, extra);
        self.sights.give_back(ply, sight);
        score
    }

    /// The rest of [`Search::quiet`], with the seat's `sight` of `game` taken.
    fn quiet_seen(
        &mut self,
        game: &AnyGame,
        sight: &crate::View,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        extra: usize,
    ) -> i32 {
        let standing = self.weigh(game.search_key(), sight);
        let Some(actor) = self.actor(game) else {
            return standing;
        };
        if extra >= QUIESCENCE_PLIES || self.spent() {
            return standing;
        }
        let maximising = actor == self.me;
        // A side in check cannot stand on what it has: it must answer the check, by any move,
        // and a check that mates is seen as a mate (within a few plies of the horizon).
        let in_check = extra < EVADED_PLIES && in_check(sight);
        let mut best = if in_check { worst(maximising) } else { standing };
        if !in_check {
            if maximising {
                if standing >= beta {
                    return standing;
                }
                alpha = alpha.max(standing);
            } else {
                if standing <= alpha {
                    return standing;
                }
                beta = beta.min(standing);
            }
        }
        // A capture that gives a piece for a lesser one on a guarded square is not followed: the
        // side stands on what it has (the full search, which tries every capture, may find it).
        // Out of check only captures are tried: listed alone where the game can.
        let listed = (!in_check).then(|| game.search_captures(actor)).flatten();
        let mut tried: Vec<(i32, Action)> = listed
            .unwrap_or_else(|| game.legal_actions(actor))
            .into_iter()
            .filter_map(|action| match self.capture(sight, actor, &action) {
                Some(capture) if in_check || !loses_capturer(game, actor, &action, &capture) => {
                    Some((capture.gain(), action))
                }
                Some(_) => None,
                None => in_check.then_some((i32::MIN, action)),
            })
            .collect();
        tried.sort_by_key(|(gain, _)| std::cmp::Reverse(*gain));
        let mut answered = false;
        for (gain, action) in tried {
            // A capture that would leave its side short of the window even with a margin to
            // spare is not searched (delta pruning). The gain is the victim's worth, 16 times,
            // less a few hundredths of the capturer's.
            let hope = gain / 16 + DELTA;
            let hopeless = if maximising {
                standing + hope <= alpha
            } else {
                standing - hope >= beta
            };
            if !in_check && hopeless && alpha.abs() < WIN / 2 && beta.abs() < WIN / 2 {
                continue;
            }
            let mut next = game.clone();
            if next.apply(actor, &action).is_err() {
                continue;
            }
            self.nodes += 1;
            let score = self.quiet(&next, ply + 1, alpha, beta, extra + 1);
            answered = true;
            if self.stopped {
                return score;
            }
            if better(maximising, score, best) {
                self.keep_line(ply, &action);
            }
            if take(maximising, score, &mut best, &mut alpha, &mut beta) {
                break;
            }
        }
        // A check no move could answer was a mate the game would have ended on: never here.
        if in_check && !answered { standing } else { best }
    }

    /// The worth of the position whose `key` (if it has one) and `sight` are these.
    fn weigh(&mut self, key: Option<u64>, sight: &crate::View) -> i32 {
        if let Some(worth) = key.and_then(|key| self.weighed.get(key)) {
            return worth;
        }
        let worth = self.evaluator.weigh(sight);
        if let Some(key) = key {
            self.weighed.put(key, worth);
        }
        worth
    }

    /// What a capture takes and with what, as the board shows it. `None` for an action that
    /// captures nothing.
    fn capture(&mut self, sight: &crate::View, actor: Seat, action: &Action) -> Option<Capture> {
        let Action::Move { from, to, board, .. } = action else {
            return None;
        };
        let (victim_seat, victim) = self.evaluator.worth_at(sight, *board as usize, *to)?;
        if victim_seat == actor {
            return None;
        }
        let capturer = self
            .evaluator
            .worth_at(sight, *board as usize, *from)
            .map_or(0, |(_, w)| w);
        Some(Capture { victim, capturer })
    }

    /// Captures that win or trade (the most valuable victim first), then killers, then captures
    /// that lose the capturer for less, then the quiet rest by their history. Returns how many
    /// come before the quiet rest.
    fn order(&mut self, game: &AnyGame, sight: &crate::View, actor: Seat, ply: usize, actions: &mut [Action]) -> usize {
        let killers = self.killers.get(ply).cloned().unwrap_or_default();
        let mut loud = 0;
        let mut keyed: Vec<(i32, usize)> = actions
            .iter()
            .enumerate()
            .map(|(index, action)| {
                let key = match self.capture(sight, actor, action) {
                    Some(taken) if loses_capturer(game, actor, action, &taken) => LOSING_CAPTURES + taken.gain() / 64,
                    Some(taken) => 1_000_000 + taken.gain(),
                    None if killers[0].as_ref() == Some(action) => 700_000,
                    None if killers[1].as_ref() == Some(action) => 600_000,
                    None => return (self.history.of(actor, action), index),
                };
                loud += 1;
                (key, index)
            })
            .collect();
        keyed.sort_by_key(|(key, index)| (-key, *index));
        let ordered: Vec<Action> = keyed.iter().map(|(_, index)| actions[*index].clone()).collect();
        actions.clone_from_slice(&ordered);
        loud
    }

    /// A quiet action cut the search off at `ply`: it becomes a killer there, and its history
    /// grows by the depth searched below it.
    fn remember_cut(&mut self, ply: usize, depth: i32, sight: &crate::View, actor: Seat, action: Action) {
        if self.capture(sight, actor, &action).is_some() {
            return;
        }
        self.history.cut(actor, &action, depth);
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let slot = &mut self.killers[ply];
        if slot[0].as_ref() != Some(&action) {
            slot[1] = slot[0].take();
            slot[0] = Some(action);
        }
    }
}

/// Captures that lose the capturer come after the killers and before every quiet action, whose
/// history scores stay below them ([`super::history::MOST_HISTORY`]).
const LOSING_CAPTURES: i32 = 500_000;

/// A capture as the board shows it: the worth of what it takes and of what takes it.
struct Capture {
    victim: i32,
    capturer: i32,
}
impl Capture {
    /// Its place among captures: the most valuable victim first, then the least valuable capturer.
    fn gain(&self) -> i32 {
        self.victim * 16 - self.capturer / 16
    }
}

/// Whether `capture` (by `actor`'s `action`) takes a lesser piece than its own on a square the
/// other side guards: an exchange that, as the board stands, loses the capturer for less.
fn loses_capturer(game: &AnyGame, actor: Seat, action: &Action, capture: &Capture) -> bool {
    let Action::Move { to, board, .. } = action else {
        return false;
    };
    capture.victim < capture.capturer && game.guarded(*board, *to, actor.other()) == Some(true)
}

/// Whether the side to act is in check on some board, as the seat sees it.
fn in_check(sight: &crate::View) -> bool {
    sight.boards.iter().any(|board| board.check.is_some())
}

/// A score worse than any the side choosing can get: where its best starts before any action.
fn worst(maximising: bool) -> i32 {
    if maximising { -WIN * 2 } else { WIN * 2 }
}

/// Whether a child's `score` is better than the node's `best` so far, for the side choosing.
fn better(maximising: bool, score: i32, best: i32) -> bool {
    if maximising { score > best } else { score < best }
}

/// Takes a child's `score` into its node's best and window: the seat raises alpha, the other side
/// lowers beta. True when the window has closed (a cut-off: the rest need not be searched).
fn take(maximising: bool, score: i32, best: &mut i32, alpha: &mut i32, beta: &mut i32) -> bool {
    if maximising {
        *best = (*best).max(score);
        *alpha = (*alpha).max(score);
    } else {
        *best = (*best).min(score);
        *beta = (*beta).min(score);
    }
    alpha >= beta
}

#[cfg(test)]
mod tests;
mod tries;
