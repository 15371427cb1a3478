//! Where the pieces on a board reach: how many squares each can move to (its mobility), and
//! which squares each side attacks, with the least worth it attacks each with. From the second
//! follow the threats: a piece attacked by a lesser one, or attacked and not defended, is likely
//! lost unless its side moves it. A side to move can save one such piece, seldom two, so the
//! evaluation counts half the second worst against it (a fork the search stopped short of).

use crate::betza::{MoveRule, Travel};
use crate::geometry::Square;
use crate::piece::Color;
use crate::view::{BoardView, ViewCell};

/// No attacker: more than any piece is worth.
const NONE: i32 = i32::MAX;
/// What a royal piece counts for as an attacker: it attacks what is next to it, but captures
/// only what nobody defends.
pub(super) const ROYAL_ATTACKER: i32 = 1_000_000;

/// Per square of a board, each side's least worth among the pieces attacking it, and the pieces
/// that could be lost.
#[derive(Default)]
pub(super) struct Attacks {
    least: [Vec<i32>; 2],
    /// Each piece besides the royal ones: its square's index, its colour and its worth.
    pieces: Vec<(usize, Color, i32)>,
}

impl Attacks {
    /// Nothing attacked yet, on a board of `cells` squares.
    pub(super) fn clear(&mut self, cells: usize) {
        for least in &mut self.least {
            least.clear();
            least.resize(cells, NONE);
        }
        self.pieces.clear();
    }

    /// A piece of `color` worth `worth` stands on the square at `index` (royal pieces aside: they
    /// are not lost to a capture).
    pub(super) fn stands(&mut self, index: usize, color: Color, worth: i32) {
        self.pieces.push((index, color, worth));
    }

    /// What `color` stands to lose if the other side captures first: per piece attacked by a
    /// lesser one, the difference; per piece attacked and not defended, its worth. The largest
    /// two, largest first.
    pub(super) fn threatened(&self, color: Color) -> [i32; 2] {
        let mut worst = [0; 2];
        for &(index, owner, worth) in &self.pieces {
            if owner != color {
                continue;
            }
            let attacker = self.least[color.other().index()][index];
            if attacker == NONE {
                continue;
            }
            let defended = self.least[color.index()][index] != NONE;
            let loss = if defended { (worth - attacker).max(0) } else { worth };
            if loss > worst[0] {
                worst = [loss, worst[0]];
            } else if loss > worst[1] {
                worst[1] = loss;
            }
        }
        worst
    }
}

/// How many squares a piece of `color` worth `worth` on `from` can move or capture to, roughly:
/// its leaps and rides as the board stands (hops and initial moves left out). Each square it
/// could capture on, empty or not (one of its own side there, it defends), is marked attacked in
/// `attacks`.
pub(super) fn reach(
    board: &BoardView,
    from: Square,
    color: Color,
    worth: i32,
    rules: &[MoveRule],
    attacks: &mut Attacks,
) -> i32 {
    let mut count = 0;
    let files = usize::from(board.files);
    let least = &mut attacks.least[color.index()];
    for rule in rules {
        if rule.is_initial_only {
            continue;
        }
        let limit = match rule.travel {
            Travel::Leap => 1,
            Travel::Ride { range: 0 } => 32,
            Travel::Ride { range } => range,
            Travel::Hop | Travel::Grasshop => continue,
        };
        if !rule.path.iter().all(|step| is_empty(board, from, step.df, step.dr)) {
            continue;
        }
        let (mut file, mut rank) = (i16::from(from.file()), i16::from(from.rank()));
        for _ in 0..limit {
            file += i16::from(rule.step.df);
            rank += i16::from(rule.step.dr);
            if file < 0 || rank < 0 || file >= i16::from(board.files) || rank >= i16::from(board.ranks) {
                break;
            }
            let index = rank as usize * files + file as usize;
            if rule.can_capture {
                least[index] = least[index].min(worth);
            }
            match board.cells[index] {
                ViewCell::Empty => count += i32::from(rule.can_move),
                ViewCell::Piece { color: other, .. } if other != color => {
                    count += i32::from(rule.can_capture);
                    break;
                }
                _ => break,
            }
        }
    }
    count
}

fn is_empty(board: &BoardView, from: Square, df: i8, dr: i8) -> bool {
    let (file, rank) = (
        i16::from(from.file()) + i16::from(df),
        i16::from(from.rank()) + i16::from(dr),
    );
    if file < 0 || rank < 0 || file >= i16::from(board.files) || rank >= i16::from(board.ranks) {
        return false;
    }
    board.cell(Square::new(file as u8, rank as u8)) == ViewCell::Empty
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::worth::worth;
    use crate::betza;
    use crate::game::{Game, Seat, Viewer};
    use crate::variants::{AnyGame, VariantId};

    /// The attacks on a chess position's board, every piece walked as the evaluation walks it.
    fn attacks_in(fen: &str) -> (Attacks, impl Fn(&str) -> i32) {
        let view = AnyGame::from_fen(VariantId::Chess, fen)
            .unwrap()
            .sight(Viewer::Seat(Seat::First));
        let board = &view.boards[0];
        let mut attacks = Attacks::default();
        attacks.clear(board.cells.len());
        for (index, cell) in board.cells.iter().enumerate() {
            let ViewCell::Piece { color, piece } = *cell else {
                continue;
            };
            let seen = &view.pieces[piece];
            let rules: Vec<MoveRule> = betza::parse(&seen.betza)
                .unwrap()
                .iter()
                .map(|rule| rule.oriented(color == Color::Black))
                .collect();
            let square = Square::new(index as u8 % 8, index as u8 / 8);
            let worth = if seen.is_royal {
                ROYAL_ATTACKER
            } else {
                worth(seen, 8, 8)
            };
            if !seen.is_royal {
                attacks.stands(index, color, worth);
            }
            reach(board, square, color, worth, &rules, &mut attacks);
        }
        let pieces = view.pieces.clone();
        let worth_of = move |name: &str| {
            let piece = pieces.iter().find(|piece| &*piece.name == name).unwrap();
            worth(piece, 8, 8)
        };
        (attacks, worth_of)
    }

    #[test]
    fn a_knight_forking_two_undefended_pieces_threatens_both() {
        // Black's knight on d4 attacks White's queen on c2 and rook on f3; nothing defends them.
        let (attacks, worth) = attacks_in("4k3/8/8/8/3n4/5R2/2Q5/6K1 w - - 0 1");
        assert_eq!(attacks.threatened(Color::White), [worth("Queen"), worth("Rook")]);
        assert_eq!(attacks.threatened(Color::Black), [0, 0], "nothing attacks the knight");
    }

    #[test]
    fn a_defended_piece_stands_to_lose_only_what_its_attacker_is_worth_less() {
        // The king on g2 now defends the rook, which loses its worth less the knight's.
        let (attacks, worth) = attacks_in("4k3/8/8/8/3n4/5R2/2Q3K1/8 w - - 0 1");
        assert_eq!(
            attacks.threatened(Color::White),
            [worth("Queen"), worth("Rook") - worth("Knight")]
        );
        // A rook that a rook attacks, defended: an even trade, nothing lost.
        let (attacks, _) = attacks_in("4k3/8/8/8/8/8/r3R3/5K2 w - - 0 1");
        assert_eq!(attacks.threatened(Color::White), [0, 0]);
        assert_eq!(
            attacks.threatened(Color::Black)[0],
            worth("Rook"),
            "Black's rook is not defended"
        );
    }
}
