//! For each piece type, colour and square of a variant's board, the squares each of its move
//! rules could take it to on an empty board, in the order it would meet them: the move generator
//! ([`crate::movegen::rule_targets`]) walks these lists and stops where a piece stands, with the
//! board's edges, a rule's range and its first-move ranks already worked out.

use crate::betza::Travel;
use crate::geometry::{MAX_SIDE, Square};
use crate::piece::{Color, Kind};
use crate::piece_table::PieceTable;
use crate::rays::Rays;

const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// One rule's squares from one square: its index among the piece's rules and a range of
/// [`MoveMap::squares`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub rule: u16,
    start: u32,
    end: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveMap {
    /// Per (kind, colour, square): the range of `reaches` for it.
    at: Vec<(u32, u32)>,
    reaches: Vec<Reach>,
    squares: Vec<Square>,
}

impl MoveMap {
    /// The map of every piece of `table` on the board of `rays`, where `is_initial` tells the
    /// squares a colour's first-move rules apply on.
    pub fn new(table: &PieceTable, rays: &Rays, is_initial: impl Fn(Color, Square) -> bool) -> MoveMap {
        let mut map = MoveMap::default();
        let side = usize::from(MAX_SIDE);
        for (_, piece) in table.iter() {
            for color in Color::BOTH {
                for cell in 0..CELLS {
                    let from = Square::new((cell % side) as u8, (cell / side) as u8);
                    let first = map.reaches.len() as u32;
                    let on_board = rays.size().contains(from);
                    for (number, rule) in piece.rules(color).iter().enumerate().filter(|_| on_board) {
                        if rule.is_initial_only && !is_initial(color, from) {
                            continue;
                        }
                        let line = rays.along(from, rule.step);
                        let reach = match rule.travel {
                            Travel::Leap => line.len().min(1),
                            Travel::Ride { range } if range > 0 => line.len().min(usize::from(range)),
                            Travel::Ride { .. } | Travel::Hop | Travel::Grasshop => line.len(),
                        };
                        if reach == 0 {
                            continue;
                        }
                        let start = map.squares.len() as u32;
                        map.squares.extend_from_slice(&line[..reach]);
                        map.reaches.push(Reach {
                            rule: number as u16,
                            start,
                            end: map.squares.len() as u32,
                        });
                    }
                    map.at.push((first, map.reaches.len() as u32));
                }
            }
        }
        map
    }

    /// Each rule's squares for a piece of `kind` and `color` on `from`, the rules in order.
    #[inline]
    pub fn reaches(&self, kind: Kind, color: Color, from: Square) -> &[Reach] {
        let (start, end) = self.at[(usize::from(kind) * 2 + color.index()) * CELLS + from.index()];
        &self.reaches[start as usize..end as usize]
    }

    /// The squares of one reach, nearest first.
    #[inline]
    pub fn squares(&self, reach: &Reach) -> &[Square] {
        &self.squares[reach.start as usize..reach.end as usize]
    }
}
