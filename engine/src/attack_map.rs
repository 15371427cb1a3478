//! For each square of a variant's board, where the other side's plain leaps and open lines could
//! attack it from: the attack test ([`crate::attacks::pieces_attack`]) then looks at a short list
//! of squares and walks a few lines, with nothing left to work out (the board's edges, which
//! steps exist) while it runs.

use crate::attack_index::{AttackIndex, KindSet};
use crate::betza::MoveRule;
use crate::geometry::{MAX_SIDE, Square};
use crate::piece::Color;
use crate::rays::Rays;

const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// One colour's attacks, square by square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Side {
    /// Per target square: the range of `leaps` and of `lines` that attack it.
    leaps_at: Vec<(u32, u32)>,
    lines_at: Vec<(u32, u32)>,
    /// Squares a plain leap (no path, any rank) reaches the target from, with the kinds whose
    /// leap it is (one entry per square).
    leaps: Vec<(Square, KindSet)>,
    /// Lines outward from the target (a range of `squares`), with the kinds that ride them
    /// without limit: the first piece on the line attacks if it is of those kinds.
    lines: Vec<(u32, u32, KindSet)>,
    squares: Vec<Square>,
    /// The leaps that need more than their square looked at (a lame leap's path, a first-move
    /// leap's rank): tested rule by rule.
    other_leaps: Vec<(MoveRule, KindSet)>,
}

/// Both colours' attacks, square by square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackMap {
    sides: [Side; 2],
}

impl AttackMap {
    /// The map of `index` (each colour's capturing moves) on the board of `rays`.
    pub fn new(index: [&AttackIndex; 2], rays: &Rays) -> AttackMap {
        AttackMap {
            sides: index.map(|index| Side::new(index, rays)),
        }
    }

    /// The squares a plain leap of `by` could attack `target` from, with the kinds that leap so.
    #[inline]
    pub fn leaps(&self, by: Color, target: Square) -> &[(Square, KindSet)] {
        let side = &self.sides[by.index()];
        let (start, end) = side.leaps_at[target.index()];
        &side.leaps[start as usize..end as usize]
    }

    /// The lines from `target` outward that `by`'s unlimited riders attack along, with the kinds.
    #[inline]
    pub fn lines(&self, by: Color, target: Square) -> impl Iterator<Item = (&[Square], KindSet)> {
        let side = &self.sides[by.index()];
        let (start, end) = side.lines_at[target.index()];
        side.lines[start as usize..end as usize]
            .iter()
            .map(|&(from, to, kinds)| (&side.squares[from as usize..to as usize], kinds))
    }

    /// `by`'s leaps that need more than their square looked at.
    #[inline]
    pub fn other_leaps(&self, by: Color) -> &[(MoveRule, KindSet)] {
        &self.sides[by.index()].other_leaps
    }
}

impl Side {
    fn new(index: &AttackIndex, rays: &Rays) -> Side {
        let mut side = Side {
            other_leaps: index
                .leaps()
                .iter()
                .filter(|(rule, _)| !rule.path.is_empty() || rule.is_initial_only)
                .cloned()
                .collect(),
            ..Side::default()
        };
        let side_len = usize::from(MAX_SIDE);
        for cell in 0..CELLS {
            let target = Square::new((cell % side_len) as u8, (cell / side_len) as u8);
            let first_leap = side.leaps.len();
            for (rule, kinds) in index.leaps() {
                if !rule.path.is_empty() || rule.is_initial_only {
                    continue;
                }
                let Some(from) = rays.next(target, rule.step.flipped()) else {
                    continue;
                };
                match side.leaps[first_leap..].iter_mut().find(|(square, _)| *square == from) {
                    Some((_, known)) => *known |= kinds,
                    None => side.leaps.push((from, *kinds)),
                }
            }
            side.leaps_at.push((first_leap as u32, side.leaps.len() as u32));
            let first_line = side.lines.len();
            for &(step, kinds) in index.rays() {
                let line = rays.along(target, step.flipped());
                if !line.is_empty() {
                    let start = side.squares.len() as u32;
                    side.squares.extend_from_slice(line);
                    side.lines.push((start, side.squares.len() as u32, kinds));
                }
            }
            side.lines_at.push((first_line as u32, side.lines.len() as u32));
        }
        side
    }
}

#[cfg(test)]
mod tests {
    use crate::geometry::Square;
    use crate::piece::Color;

    #[test]
    fn a_square_knows_where_leaps_and_lines_attack_it_from() {
        let fide = crate::variants::fide();
        let e4 = Square::parse("e4").unwrap();
        let mut from: Vec<String> = fide
            .attack_map
            .leaps(Color::White, e4)
            .iter()
            .map(|(square, _)| square.to_string())
            .collect();
        from.sort();
        // The king's eight neighbours (a pawn's two among them) and the knight's eight squares.
        assert_eq!(
            from,
            [
                "c3", "c5", "d2", "d3", "d4", "d5", "d6", "e3", "e5", "f2", "f3", "f4", "f5", "f6", "g3", "g5"
            ]
        );
        let pawn = fide.table.by_id("pawn").unwrap();
        let (d5, _) = fide
            .attack_map
            .leaps(Color::White, e4)
            .iter()
            .find(|(sq, _)| sq.to_string() == "d5")
            .unwrap();
        let kinds = fide
            .attack_map
            .leaps(Color::Black, e4)
            .iter()
            .find(|(sq, _)| sq == d5)
            .unwrap()
            .1;
        assert!(kinds & (1 << pawn) != 0, "a black pawn on d5 takes on e4");
        let lines: Vec<usize> = fide
            .attack_map
            .lines(Color::White, e4)
            .map(|(line, _)| line.len())
            .collect();
        assert_eq!(
            lines.iter().sum::<usize>(),
            27,
            "a queen's lines from e4 on an empty board"
        );
        // Chess captures by plain leaps alone (the double step takes nothing): none is left over.
        assert!(fide.attack_map.other_leaps(Color::White).is_empty());
    }
}
