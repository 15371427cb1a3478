//! A piece placed on a board of a game's size, to see what it reaches: on an empty board, with
//! pieces about, and in a fixed set of positions (its signature, to tell two pieces apart). The
//! move generator itself answers, so what the rules measure is what the game plays.

use super::kind::ListKind;
use super::piece::ListPiece;
use crate::betza::{Offset, Travel};
use crate::geometry::{BoardSize, Square};
use crate::movegen;
use crate::piece::{Cell, Color, Piece, PieceDef, Royalty};
use crate::position::{Board, Position};
use crate::rules::Standard;
use crate::variant_file::{PieceSpec, Variant, VariantDef};
use std::collections::BTreeSet;

/// How many squares, and where from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub squares: usize,
    pub from: Square,
    /// The squares reached.
    pub to: Vec<Square>,
    /// Where enemy pieces stood for it (screens, or targets it only captures).
    pub enemies: Vec<Square>,
}
/// A piece placed on a board of a game's size, to see what it reaches.
pub struct Lab {
    pub(super) variant: Variant,
    pub(super) size: BoardSize,
    pub(super) has_capture_only: bool,
    /// The lines where what the piece reaches depends on where pieces stand along them, beyond
    /// opening or closing the line: a hopper's (it needs screens) and a capture-only rider's (it
    /// takes only the first piece). On these the arrangements are searched.
    pub(super) searched_directions: Vec<Offset>,
}

/// The pieces a lab knows: the piece (kind 0) and a plain blocker (kind 1) standing for any
/// other piece.
pub(super) const PIECE: u8 = 0;
const BLOCKER: u8 = 1;

impl Lab {
    pub fn new(piece: &ListPiece, kind: ListKind) -> Result<Lab, String> {
        let size = kind.size();
        let mut def = piece.def("lab-piece");
        // Royalty plays no part in what a piece reaches.
        def.royal = Royalty::None;
        let blocker_symbol = ["Y", "Z", "X"]
            .into_iter()
            .find(|s| *s != def.symbol.as_str())
            .expect("a free symbol");
        let blocker = PieceDef::new("lab-blocker", "Blocker", blocker_symbol, "W");
        let empty = vec![size.files.to_string(); size.ranks as usize].join("/");
        let variant = Variant::compile(VariantDef {
            id: "lab".into(),
            name: "lab".into(),
            files: size.files,
            ranks: size.ranks,
            start: format!("{empty} w - - 0 1"),
            pieces: vec![PieceSpec::Inline(def), PieceSpec::Inline(blocker)],
            castling: false,
            en_passant: false,
            initial_move_ranks: kind.initial_move_ranks(),
            promotion_choices: Vec::new(),
            draws: Default::default(),
            stalemate: Default::default(),
        })
        .map_err(|e| e.to_string())?;
        let rules = variant.piece(PIECE).rules(Color::White).to_vec();
        let searched_directions = rules
            .iter()
            .filter(|r| {
                matches!(r.travel, Travel::Hop | Travel::Grasshop)
                    || (matches!(r.travel, Travel::Ride { .. }) && r.can_capture && !r.can_move)
            })
            .map(|r| primitive(r.step.df, r.step.dr))
            .collect();
        Ok(Lab {
            has_capture_only: rules.iter().any(|r| r.can_capture && !r.can_move),
            searched_directions,
            variant,
            size,
        })
    }

    /// The squares the piece (White's) on `from` reaches with `enemies` and `friends` about.
    pub fn reach(&self, from: Square, enemies: &[Square], friends: &[Square]) -> BTreeSet<Square> {
        let mut board = Board::empty(self.size);
        for &square in enemies {
            board.set(square, Cell::piece(Piece::new(BLOCKER, Color::Black)));
        }
        for &square in friends {
            board.set(square, Cell::piece(Piece::new(BLOCKER, Color::White)));
        }
        board.set(from, Cell::piece(Piece::new(PIECE, Color::White)));
        let position = Position::new(board, Color::White);
        let mut moves = Vec::new();
        movegen::piece_moves(&Standard, &self.variant, &position, from, &mut moves);
        moves.into_iter().map(|mv| mv.to).collect()
    }

    /// The most squares the piece reaches alone on an empty board, and from where (capture-only
    /// moves count nothing).
    pub fn on_empty_board(&self) -> Reach {
        self.size
            .squares()
            .map(|from| {
                let to: Vec<Square> = self.reach(from, &[], &[]).into_iter().collect();
                Reach {
                    squares: to.len(),
                    from,
                    to,
                    enemies: Vec::new(),
                }
            })
            .max_by_key(|reach| (reach.squares, std::cmp::Reverse(reach.from.index())))
            .expect("a board has squares")
    }

    /// What the piece reaches from every square of an empty board and of a board full of enemies:
    /// pieces that differ here are different pieces (and most do).
    pub fn quick_signature(&self) -> Vec<Vec<Square>> {
        let squares: Vec<Square> = self.size.squares().collect();
        squares
            .iter()
            .flat_map(|&from| {
                let others: Vec<Square> = squares.iter().copied().filter(|&s| s != from).collect();
                [
                    self.reach(from, &[], &[]).into_iter().collect(),
                    self.reach(from, &others, &[]).into_iter().collect(),
                ]
            })
            .collect()
    }

    /// What the piece reaches from every square in a fixed set of positions: two pieces with
    /// the same signature move and capture alike (the same piece under two names).
    pub fn signature(&self) -> Vec<Vec<Square>> {
        let squares: Vec<Square> = self.size.squares().collect();
        let arrangements = arrangements(&squares);
        let mut out = Vec::new();
        for &from in &squares {
            for (enemies, friends) in &arrangements {
                let enemies: Vec<Square> = enemies.iter().copied().filter(|&s| s != from).collect();
                let friends: Vec<Square> = friends.iter().copied().filter(|&s| s != from).collect();
                out.push(self.reach(from, &enemies, &friends).into_iter().collect());
            }
            // A lone enemy on each other square, for what only captures.
            for &square in squares.iter().filter(|&&s| s != from) {
                out.push(self.reach(from, &[square], &[]).into_iter().collect());
            }
        }
        out
    }
}

/// The board's squares from `from` grouped by line: each direction (a step in lowest terms) and
/// the squares along it, nearest first.
pub(super) fn lines(size: BoardSize, from: Square) -> Vec<(Offset, Vec<Square>)> {
    let mut out: Vec<(Offset, Vec<Square>)> = Vec::new();
    for to in size.squares().filter(|&s| s != from) {
        let (df, dr) = (
            i16::from(to.file()) - i16::from(from.file()),
            i16::from(to.rank()) - i16::from(from.rank()),
        );
        let direction = primitive(df as i8, dr as i8);
        match out.iter_mut().find(|(d, _)| *d == direction) {
            Some((_, squares)) => squares.push(to),
            None => out.push((direction, vec![to])),
        }
    }
    for (_, squares) in &mut out {
        squares.sort_by_key(|s| s.file().abs_diff(from.file()).max(s.rank().abs_diff(from.rank())));
    }
    out
}

/// A step in lowest terms: (2, 4) is the direction (1, 2).
pub(super) fn primitive(df: i8, dr: i8) -> Offset {
    let (mut a, mut b) = (df.unsigned_abs(), dr.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1) as i8;
    Offset::new(df / g, dr / g)
}

/// Fixed arrangements (enemies, friends) to compare pieces by: empty, full of enemies, and
/// pseudo-random mixes of three densities.
fn arrangements(squares: &[Square]) -> Vec<(Vec<Square>, Vec<Square>)> {
    let mut out = vec![(Vec::new(), Vec::new()), (squares.to_vec(), Vec::new())];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for density in [10u64, 25, 45, 25, 10, 60] {
        let (mut enemies, mut friends) = (Vec::new(), Vec::new());
        for &square in squares {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let roll = (seed >> 33) % 100;
            if roll < density / 2 {
                enemies.push(square);
            } else if roll < density {
                friends.push(square);
            }
        }
        out.push((enemies, friends));
    }
    out
}
