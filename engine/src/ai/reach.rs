//! Where the pieces on a board reach: how many squares each can move to (its mobility), and
//! which squares each side attacks, with the least worth it attacks each with. From the second
//! follow the threats: a piece attacked by a lesser one, or attacked and not defended, is likely
//! lost unless its side moves it. A side to move can save one such piece, seldom two, so the
//! evaluation counts half the second worst against it (a fork the search stopped short of).

use crate::betza::{MoveRule, Travel};
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

/// A piece type's moves on one board, worked out once from its rules: per square, each move's
/// line of cells in order (a leap's one cell, a ride's cells to the edge or its range) with the
/// cells its path must leave empty, so that [`reach`] walks lists instead of stepping and checking
/// the board's edges at every position weighed. Hops and initial moves are left out.
pub(super) struct Lines {
    files: u8,
    ranks: u8,
    /// Per square (by its index in a view's cells), its lines' place in `lines`.
    by_square: Vec<(u32, u32)>,
    lines: Vec<Line>,
    /// The cells of every line's path and reach, by index in a view's cells.
    cells: Vec<u16>,
}

struct Line {
    path: (u32, u32),
    reach: (u32, u32),
    can_move: bool,
    can_capture: bool,
}

impl Lines {
    /// The lines of a piece moving by `rules` (already turned to its side) on a board of
    /// `files` by `ranks`.
    pub(super) fn new(rules: &[MoveRule], files: u8, ranks: u8) -> Lines {
        let mut lines = Lines {
            files,
            ranks,
            by_square: Vec::with_capacity(usize::from(files) * usize::from(ranks)),
            lines: Vec::new(),
            cells: Vec::new(),
        };
        let cell = |file: i16, rank: i16| {
            let on_board = (0..i16::from(files)).contains(&file) && (0..i16::from(ranks)).contains(&rank);
            on_board.then(|| (rank * i16::from(files) + file) as u16)
        };
        for rank in 0..i16::from(ranks) {
            for file in 0..i16::from(files) {
                let first = lines.lines.len() as u32;
                for rule in rules {
                    let limit = match rule.travel {
                        _ if rule.is_initial_only => continue,
                        Travel::Leap => 1,
                        Travel::Ride { range: 0 } => 32,
                        Travel::Ride { range } => range,
                        Travel::Hop | Travel::Grasshop => continue,
                    };
                    let path: Option<Vec<u16>> = rule
                        .path
                        .iter()
                        .map(|step| cell(file + i16::from(step.df), rank + i16::from(step.dr)))
                        .collect();
                    // A path off the board: the move is never open from here.
                    let Some(path) = path else { continue };
                    let path_start = lines.cells.len() as u32;
                    lines.cells.extend(path);
                    let reach_start = lines.cells.len() as u32;
                    let (mut at_file, mut at_rank) = (file, rank);
                    for _ in 0..limit {
                        at_file += i16::from(rule.step.df);
                        at_rank += i16::from(rule.step.dr);
                        match cell(at_file, at_rank) {
                            Some(index) => lines.cells.push(index),
                            None => break,
                        }
                    }
                    let end = lines.cells.len() as u32;
                    if end == reach_start {
                        lines.cells.truncate(path_start as usize);
                        continue;
                    }
                    lines.lines.push(Line {
                        path: (path_start, reach_start),
                        reach: (reach_start, end),
                        can_move: rule.can_move,
                        can_capture: rule.can_capture,
                    });
                }
                lines.by_square.push((first, lines.lines.len() as u32));
            }
        }
        lines
    }

    /// Whether these are the lines of a board of this size.
    pub(super) fn fit(&self, board: &BoardView) -> bool {
        (self.files, self.ranks) == (board.files, board.ranks)
    }

    fn of(&self, (start, end): (u32, u32)) -> &[u16] {
        &self.cells[start as usize..end as usize]
    }
}

/// How many squares a piece of `color` worth `worth` on the cell at `from` can move or capture
/// to, roughly: its leaps and rides as the board stands, along its `lines` (made for this
/// board's size). Each square it could capture on, empty or not (one of its own side there, it
/// defends), is marked attacked in `attacks`.
pub(super) fn reach(
    board: &BoardView,
    from: usize,
    color: Color,
    worth: i32,
    lines: &Lines,
    attacks: &mut Attacks,
) -> i32 {
    let mut count = 0;
    let least = &mut attacks.least[color.index()];
    let (first, last) = lines.by_square[from];
    for line in &lines.lines[first as usize..last as usize] {
        let blocked = lines
            .of(line.path)
            .iter()
            .any(|&cell| board.cells[usize::from(cell)] != ViewCell::Empty);
        if blocked {
            continue;
        }
        for &cell in lines.of(line.reach) {
            let index = usize::from(cell);
            if line.can_capture {
                least[index] = least[index].min(worth);
            }
            match board.cells[index] {
                ViewCell::Empty => count += i32::from(line.can_move),
                ViewCell::Piece { color: other, .. } if other != color => {
                    count += i32::from(line.can_capture);
                    break;
                }
                _ => break,
            }
        }
    }
    count
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
            let lines = Lines::new(&rules, 8, 8);
            let worth = if seen.is_royal {
                ROYAL_ATTACKER
            } else {
                worth(seen, 8, 8)
            };
            if !seen.is_royal {
                attacks.stands(index, color, worth);
            }
            reach(board, index, color, worth, &lines, &mut attacks);
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
