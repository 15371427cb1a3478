//! The most squares a piece reaches in any position (the royal piece's limit), decided exactly:
//! see [`Lab::most_from`].

use super::lab::{Lab, PIECE, Reach, lines, primitive};
use crate::betza::{Offset, Travel};
use crate::geometry::Square;
use crate::piece::Color;
use std::collections::BTreeSet;

/// The most coupled squares (see [`Lab::most_from`]) a royal's search tries every filling of.
const MOST_COUPLED: usize = 12;

/// The best a piece does along one line: the squares it reaches there, and the enemies placed
/// on the line for it.
#[derive(Clone, Debug, Default)]
struct LineBest {
    reached: Vec<Square>,
    placed: Vec<Square>,
}

impl Lab {
    /// The most squares the piece reaches in any position, and from where, with the position
    /// (the enemies it needs; every other square empty). Decided exactly: see [`Lab::most_from`].
    /// Refused when its lame moves cross its hoppers' lines on too many squares to search.
    pub fn in_any_position(&self) -> Result<Reach, String> {
        let mut best: Option<Reach> = None;
        for from in self.size.squares() {
            let reach = self.most_from(from)?;
            if best.as_ref().is_none_or(|b| reach.squares > b.squares) {
                best = Some(reach);
            }
        }
        Ok(best.expect("a board has squares"))
    }

    /// The most squares the piece reaches from `from` in any position. A square matters to the
    /// line (direction from `from`) it stands on: as a blocker, a screen or a target. It also
    /// matters elsewhere only when a lame or multi-leg move needs it empty; those of them that
    /// could serve their own line occupied (on a hopper's or a capture-only rider's line, or a
    /// capture-only leap's target) are the coupled squares. Every way of filling the coupled
    /// squares is tried; given one, each line is best filled on its own (a hopper's or a
    /// capture-only rider's line by trying every arrangement of its other squares, any other
    /// line left open with an enemy on each square it only captures), and the lines' bests
    /// together are one position. Enemies serve at least as well as friends, so only enemies
    /// are placed.
    fn most_from(&self, from: Square) -> Result<Reach, String> {
        let rules = self.variant.piece(PIECE).rules(Color::White);
        let lines = lines(self.size, from);
        let coupled = self.coupled_squares(from, &lines);
        if coupled.len() > MOST_COUPLED {
            return Err(format!(
                "as the royal piece its lame moves cross its hoppers' lines on {} squares from {from}, \
                 too many to find the most it reaches; a royal needs simpler moves",
                coupled.len()
            ));
        }
        // For each line, the coupled squares it depends on: its own, and the empty squares the
        // moves ending on it need.
        let depends: Vec<Vec<usize>> = lines
            .iter()
            .map(|(direction, line)| {
                let mut needed: BTreeSet<Square> = line.iter().copied().collect();
                for rule in rules.iter().filter(|r| primitive(r.step.df, r.step.dr) == *direction) {
                    needed.extend(self.path_squares(from, rule));
                }
                (0..coupled.len()).filter(|&i| needed.contains(&coupled[i])).collect()
            })
            .collect();
        // Each line's best for each filling of the coupled squares it depends on.
        let mut bests: Vec<Vec<Option<LineBest>>> = depends.iter().map(|d| vec![None; 1 << d.len()]).collect();
        let mut line_best = |index: usize, filling: u32| -> LineBest {
            let key = depends[index]
                .iter()
                .enumerate()
                .fold(0usize, |key, (bit, &i)| key | ((filling >> i & 1) as usize) << bit);
            bests[index][key]
                .get_or_insert_with(|| {
                    let fixed: Vec<Square> = depends[index]
                        .iter()
                        .filter(|&&i| filling >> i & 1 == 1)
                        .map(|&i| coupled[i])
                        .collect();
                    let (direction, line) = &lines[index];
                    self.best_on_line(from, *direction, line, &coupled, &fixed)
                })
                .clone()
        };
        let (constant, varying): (Vec<usize>, Vec<usize>) = (0..lines.len()).partition(|&i| depends[i].is_empty());
        let constant_count: usize = constant.iter().map(|&i| line_best(i, 0).reached.len()).sum();
        let (mut best_filling, mut best_count) = (0u32, 0usize);
        for filling in 0u32..1 << coupled.len() {
            let count = constant_count
                + varying
                    .iter()
                    .map(|&i| line_best(i, filling).reached.len())
                    .sum::<usize>();
            if filling == 0 || count > best_count {
                (best_filling, best_count) = (filling, count);
            }
        }
        // The best filling's position: its coupled enemies and each line's own.
        let mut to = Vec::new();
        let mut enemies: Vec<Square> = (0..coupled.len())
            .filter(|i| best_filling >> i & 1 == 1)
            .map(|i| coupled[i])
            .collect();
        for index in 0..lines.len() {
            let best = line_best(index, best_filling);
            to.extend(best.reached);
            enemies.extend(best.placed);
        }
        to.sort_by_key(|s| s.index());
        enemies.sort_by_key(|s| s.index());
        Ok(Reach {
            squares: to.len(),
            from,
            to,
            enemies,
        })
    }

    /// The squares `rule` needs empty on its way from `from` (a lame leap's, or every step's of
    /// a lame rider, to the board's edge).
    fn path_squares(&self, from: Square, rule: &crate::betza::MoveRule) -> Vec<Square> {
        let step = |square: Square, by: Offset| self.size.offset(square, by.df, by.dr);
        let origins: Vec<Square> = match rule.travel {
            Travel::Leap => vec![from],
            Travel::Ride { range } => std::iter::successors(Some(from), |&s| step(s, rule.step))
                .take(if range == 0 { usize::MAX } else { usize::from(range) })
                .collect(),
            Travel::Hop | Travel::Grasshop => Vec::new(),
        };
        origins
            .into_iter()
            .flat_map(|origin| rule.path.iter().filter_map(move |&p| step(origin, p)))
            .collect()
    }

    /// The squares a lame or multi-leg move needs empty that could serve their own line
    /// occupied, from `from` (see [`Lab::most_from`]).
    fn coupled_squares(&self, from: Square, lines: &[(Offset, Vec<Square>)]) -> Vec<Square> {
        let rules = self.variant.piece(PIECE).rules(Color::White);
        let mut useful_occupied: BTreeSet<Square> = lines
            .iter()
            .filter(|(direction, _)| self.searched_directions.contains(direction))
            .flat_map(|(_, line)| line.iter().copied())
            .collect();
        useful_occupied.extend(
            rules
                .iter()
                .filter(|r| r.travel == Travel::Leap && r.can_capture && !r.can_move)
                .filter_map(|r| self.size.offset(from, r.step.df, r.step.dr)),
        );
        let paths: BTreeSet<Square> = rules.iter().flat_map(|rule| self.path_squares(from, rule)).collect();
        paths.intersection(&useful_occupied).copied().collect()
    }

    /// The most squares of `line` the piece reaches from `from`, with the coupled squares as
    /// given (`fixed` hold enemies, the others stay empty), and the enemies it places on the
    /// line's other squares for it.
    fn best_on_line(
        &self,
        from: Square,
        direction: Offset,
        line: &[Square],
        coupled: &[Square],
        fixed: &[Square],
    ) -> LineBest {
        let free: Vec<Square> = line.iter().copied().filter(|s| !coupled.contains(s)).collect();
        let on_line = |placed: &[Square]| -> Vec<Square> {
            let enemies: Vec<Square> = fixed.iter().chain(placed).copied().collect();
            self.reach(from, &enemies, &[])
                .into_iter()
                .filter(|s| line.contains(s))
                .collect()
        };
        if self.searched_directions.contains(&direction) {
            // Every arrangement of the line's free squares (at most 9 on a 10x10 board).
            return (0u32..1 << free.len())
                .map(|mask| {
                    let placed: Vec<Square> = (0..free.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| free[i])
                        .collect();
                    LineBest {
                        reached: on_line(&placed),
                        placed,
                    }
                })
                .max_by_key(|best| (best.reached.len(), std::cmp::Reverse(best.placed.len())))
                .expect("one arrangement at least");
        }
        // Open, with an enemy on each square it reaches only by capturing.
        let mut best = LineBest {
            reached: on_line(&[]),
            placed: Vec::new(),
        };
        if self.has_capture_only {
            for &square in &free {
                if !best.reached.contains(&square) && on_line(&[square]).contains(&square) {
                    best.reached.push(square);
                    best.placed.push(square);
                }
            }
        }
        best
    }
}
