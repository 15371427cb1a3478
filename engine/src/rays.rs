//! Each square's squares along every step a variant's pieces take, worked out once per variant:
//! the move generator and the attack test walk a list instead of computing each square and
//! checking it against the board's edges (what a bitboard engine's leaper tables do, for any
//! step on any board up to 16x16).

use crate::betza::Offset;
use crate::geometry::{BoardSize, MAX_SIDE, Square};

const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;
/// Steps span at most the board's side either way: one code per (df, dr).
const SPAN: usize = 2 * MAX_SIDE as usize - 1;
const NO_STEP: u16 = u16::MAX;

/// For each step some rule of the variant takes (either way round), the squares from each
/// square on along it, nearest first, to the board's edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rays {
    size: BoardSize,
    /// The step's number in `lines`, by `(df, dr)`'s code; `NO_STEP` for a step not listed.
    step_of: Vec<u16>,
    /// Per step and square: where its list starts in `squares`, and how long it is.
    lines: Vec<(u32, u8)>,
    squares: Vec<Square>,
}

fn code(step: Offset) -> Option<usize> {
    let reach = MAX_SIDE as i32 - 1;
    let (df, dr) = (i32::from(step.df), i32::from(step.dr));
    ((-reach..=reach).contains(&df) && (-reach..=reach).contains(&dr))
        .then(|| ((df + reach) as usize) * SPAN + (dr + reach) as usize)
}

impl Rays {
    /// The lines of `steps` and of their opposites (the attack test walks back from a target) on
    /// a board of `size`.
    pub fn new(size: BoardSize, steps: impl IntoIterator<Item = Offset>) -> Rays {
        let mut rays = Rays {
            size,
            step_of: vec![NO_STEP; SPAN * SPAN],
            lines: Vec::new(),
            squares: Vec::new(),
        };
        for step in steps {
            rays.add(step);
            rays.add(step.flipped());
        }
        rays
    }

    fn add(&mut self, step: Offset) {
        let Some(code) = code(step) else { return };
        let number = self.lines.len() / CELLS;
        if self.step_of[code] != NO_STEP || (step.df == 0 && step.dr == 0) {
            return;
        }
        self.step_of[code] = number as u16;
        let side = usize::from(MAX_SIDE);
        for index in 0..CELLS {
            let start = self.squares.len() as u32;
            let from = Square::new((index % side) as u8, (index / side) as u8);
            let mut at = from;
            if self.size.contains(from) {
                while let Some(next) = self.size.offset(at, step.df, step.dr) {
                    self.squares.push(next);
                    at = next;
                }
            }
            self.lines.push((start, (self.squares.len() as u32 - start) as u8));
        }
    }

    /// The squares from `from` on along `step`, nearest first, to the board's edge.
    #[inline]
    pub fn along(&self, from: Square, step: Offset) -> &[Square] {
        match code(step).map(|code| self.step_of[code]) {
            Some(number) if number != NO_STEP => {
                let (start, len) = self.lines[usize::from(number) * CELLS + from.index()];
                &self.squares[start as usize..start as usize + usize::from(len)]
            }
            // Every step of the variant's rules is listed when it is compiled (and its opposite):
            // asking for another is a caller's mistake, answered as the board's edge.
            _ => {
                debug_assert!(false, "no line is listed for the step {step:?}");
                &[]
            }
        }
    }

    /// The square one `step` from `from`, if it is on the board.
    #[inline]
    pub fn next(&self, from: Square, step: Offset) -> Option<Square> {
        self.along(from, step).first().copied()
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_run_to_the_edge_of_the_board_both_ways() {
        let size = BoardSize::new(10, 10).unwrap();
        let rays = Rays::new(size, [Offset::new(1, 1), Offset::new(1, 2)]);
        let c3 = Square::parse("c3").unwrap();
        let names = |squares: &[Square]| squares.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            names(rays.along(c3, Offset::new(1, 1))),
            ["d4", "e5", "f6", "g7", "h8", "i9", "j10"]
        );
        assert_eq!(names(rays.along(c3, Offset::new(-1, -1))), ["b2", "a1"]);
        assert_eq!(names(rays.along(c3, Offset::new(-1, -2))), ["b1"]);
        assert_eq!(rays.next(Square::parse("j10").unwrap(), Offset::new(1, 2)), None);
        assert!(
            rays.along(Square::parse("k1").unwrap(), Offset::new(1, 1)).is_empty(),
            "off the board"
        );
    }
}
