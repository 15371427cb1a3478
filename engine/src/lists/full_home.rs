//! The last-row rule: whether a piece standing on its first row, with its rows 1 and 2 full,
//! reaches the last row in one move.

use super::lab::{Lab, PIECE, Reach};
use crate::betza::{Offset, Travel};
use crate::geometry::Square;
use crate::piece::Color;

impl Lab {
    /// A move or capture ending on the last row from a square of row 1 with rows 1 and 2 full,
    /// in whatever arrangement of pieces the rest of the board takes, if the piece has one: the
    /// square it stands on, where it lands, and the pieces that arrangement needs outside rows
    /// 1 and 2 (`enemies`: a hopper's screens, a grasshopper's hurdle, and the target where it
    /// captures). Decided exactly, rule by rule: a rider's path needs its squares empty (a full
    /// row closes it), a leap needs only its lame squares empty, a hopper needs one screen
    /// anywhere before its landing (a full row gives it one), a grasshopper a hurdle right before
    /// it. Every arrangement found is confirmed by the move generator.
    pub fn reach_from_full_home(&self) -> Option<Reach> {
        let rules = self.variant.piece(PIECE).rules(Color::White);
        for file in 0..self.size.files {
            let from = Square::new(file, 0);
            for rule in rules.iter().filter(|rule| !rule.is_initial_only) {
                let Some((to, mut enemies)) = self.full_home_landing(from, rule) else {
                    continue;
                };
                // A target it may move to stays empty; one it only captures holds an enemy.
                if !rule.can_move {
                    enemies.push(to);
                }
                let mut board: Vec<Square> = self.home_rows().filter(|&s| s != from).collect();
                board.extend(enemies.iter().copied());
                if self.reach(from, &board, &[]).contains(&to) {
                    return Some(Reach {
                        squares: 1,
                        from,
                        to: vec![to],
                        enemies,
                    });
                }
            }
        }
        None
    }

    /// Rows 1 and 2.
    fn home_rows(&self) -> impl Iterator<Item = Square> {
        self.size.squares().filter(|s| s.rank() <= 1)
    }

    /// Where `rule` can land on the last row from `from` with rows 1 and 2 full, and the pieces
    /// it needs outside them (screens, hurdles), if anywhere.
    fn full_home_landing(&self, from: Square, rule: &crate::betza::MoveRule) -> Option<(Square, Vec<Square>)> {
        if !rule.can_move && !rule.can_capture {
            return None;
        }
        let size = self.size;
        let last = size.ranks - 1;
        let is_home = |square: Square| square.rank() <= 1 && square != from;
        let step = |square: Square, by: Offset| size.offset(square, by.df, by.dr);
        let path_is_open = |origin: Square| {
            rule.path
                .iter()
                .all(|&p| step(origin, p).is_some_and(|square| !is_home(square)))
        };
        // The squares along the rule's line from `from`.
        let line: Vec<Square> = std::iter::successors(step(from, rule.step), |&s| step(s, rule.step)).collect();
        match rule.travel {
            Travel::Leap => {
                let to = line.first().copied()?;
                (to.rank() == last && path_is_open(from)).then(|| (to, Vec::new()))
            }
            Travel::Ride { range } => {
                let mut origin = from;
                for (count, &square) in line.iter().enumerate() {
                    if range != 0 && count >= usize::from(range) || !path_is_open(origin) {
                        return None;
                    }
                    if square.rank() == last {
                        return Some((square, Vec::new()));
                    }
                    if is_home(square) {
                        return None;
                    }
                    origin = square;
                }
                None
            }
            Travel::Hop => {
                // One screen before the landing: a full row's piece if the line crosses one,
                // else any square before it (the first).
                let landing = line.iter().position(|s| s.rank() == last)?;
                let before = &line[..landing];
                let screens: Vec<Square> = before.iter().copied().filter(|&s| is_home(s)).collect();
                match (screens.as_slice(), before.first()) {
                    ([_], _) => Some((line[landing], Vec::new())),
                    ([], Some(&first)) => Some((line[landing], vec![first])),
                    _ => None,
                }
            }
            Travel::Grasshop => {
                let landing = line.iter().position(|s| s.rank() == last)?;
                let hurdle = *line.get(landing.checked_sub(1)?)?;
                if line[..landing - 1].iter().any(|&s| is_home(s)) {
                    return None;
                }
                let needed = if is_home(hurdle) { Vec::new() } else { vec![hurdle] };
                Some((line[landing], needed))
            }
        }
    }
}
