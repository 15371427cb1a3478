//! How good a position looks to the computer opponent, in centipawns for its seat: the material on
//! the boards and in hand, how freely the pieces move, a royal in check, and each game's own terms
//! (Domination's squares and points, CTF's flags and bases, Blockade's room to move). It reads
//! only the seat's sight of the position ([`crate::Game::sight`]), so it weighs any game the same
//! way images are drawn: from boards, pieces and marks.

use super::worth::worth;
use crate::betza::{self, MoveRule, Travel};
use crate::game::{Game, Seat, Viewer};
use crate::geometry::Square;
use crate::piece::Color;
use crate::variants::{AnyGame, VariantId};
use crate::view::{BoardView, MarkKind, Tone, View, ViewCell};
use std::sync::Arc;

/// What a piece type is, to the evaluation: its worth and its moves from each side.
struct Known {
    worth: i32,
    is_pawn: bool,
    is_royal: bool,
    /// Every move keeps it on squares of one colour (a bishop, a ferz): it can carry a flag home
    /// only when its square and its base are of the same colour.
    is_colour_bound: bool,
    rules: [Vec<MoveRule>; 2],
}

/// The evaluation of one seat in one game, with what it has learnt of the pieces so far.
pub struct Evaluator {
    me: Seat,
    terms: Terms,
    /// Each piece type met so far: its id, its moves (Betza), and what it is.
    pieces: Vec<(Arc<str>, Arc<str>, Known)>,
    /// Where each piece type of the views weighed was found in `pieces`, by its place in the
    /// view's list: that list is the same from one position of a game to the next, so a piece
    /// is known again by comparing its names, without a copy or a hash at every position.
    by_place: Vec<usize>,
}

/// The weights of the terms, by game.
#[derive(Clone, Copy)]
struct Terms {
    /// Per square a piece can move to...
    mobility: i32,
    /// ...counting at most this many squares a piece (a queen's long lines out of the opening
    /// are no reason to bring her out).
    reach_counted: i32,
    /// Per minor piece (worth less than a rook) still on its side's first rank.
    undeveloped: i32,
    /// Per point of a game's score (Domination).
    point: i32,
    /// Per domination square owned.
    square_owned: i32,
    /// Whether flags and bases are weighed (CTF).
    flags: bool,
}

impl Terms {
    fn of(variant: VariantId) -> Terms {
        let plain = Terms {
            mobility: 3,
            reach_counted: 8,
            undeveloped: 15,
            point: 0,
            square_owned: 0,
            flags: false,
        };
        match variant {
            // Blockade is won by having room to move when the other side has none.
            VariantId::Blockade | VariantId::Garden => Terms {
                mobility: 12,
                reach_counted: i32::MAX,
                undeveloped: 0,
                ..plain
            },
            VariantId::Domination => Terms {
                point: 40,
                square_owned: 30,
                ..plain
            },
            VariantId::Ctf => Terms { flags: true, ..plain },
            _ => plain,
        }
    }
}

/// A piece worth less than this is a minor piece, to be developed off the first rank.
const MINOR_BELOW: i32 = 450;
/// A check costs its side this much: the king must spend a move, and mates come from checks.
const IN_CHECK: i32 = 40;
/// Per rank a pawn has advanced: promotion is worth a lot, and getting there takes time.
const PAWN_STEP: i32 = 6;
/// A passed pawn (no pawn of the other side ahead of it on its file or the next) is worth this
/// times the square of the ranks it has advanced: it is what wins endgames, the more so the
/// nearer it is to promoting.
const PASSED_STEP: i32 = 4;
/// King safety, while the other side keeps enough to attack with (more than this much material
/// besides pawns): per own pawn, and per other own piece, beside a royal piece...
const SHELTER_PAWN: i32 = 12;
const SHELTER_PIECE: i32 = 5;
/// ...per rank it has left its home rank...
const ROYAL_ABROAD: i32 = 20;
/// ...and per piece of the other side (pawns aside) within two squares of it.
const ROYAL_BESET: i32 = 15;
const ATTACKING_MATERIAL: i32 = 1_000;
/// CTF: per square a piece of the other side is nearer a flag lying, and a carried flag nearer
/// its carrier's home.
const FLAG_APPROACH: i32 = 35;
const FLAG_HOMEWARD: i32 = 80;
/// CTF: what holding a flag costs a carrier that can never bring it home, against dropping it.
const STRANDED_CARRIER: i32 = 20;

impl Evaluator {
    pub fn new(me: Seat, variant: VariantId) -> Evaluator {
        Evaluator {
            me,
            terms: Terms::of(variant),
            pieces: Vec::new(),
            by_place: Vec::new(),
        }
    }

    /// The position's worth to the seat, from its own sight of it.
    pub fn evaluate(&mut self, game: &AnyGame) -> i32 {
        let view = game.sight(Viewer::Seat(self.me));
        self.weigh(&view)
    }

    /// The worth of a position the seat's sight already shows.
    pub fn weigh(&mut self, view: &View) -> i32 {
        let mut score = 0;
        for board in &view.boards {
            score += self.board(view, board);
        }
        for seat in Seat::BOTH {
            let sign = self.sign(seat);
            let size = &view.boards[0];
            for &piece in &view.hands[seat.index()] {
                score += sign * self.known(view, piece, size).worth;
            }
        }
        if let Some(points) = view.scores {
            score += self.terms.point * (points[self.me.index()] - points[self.me.other().index()]);
        }
        score
    }

    /// What a capture on `square` of `board` takes in `view`: the worth of the piece there.
    pub fn worth_at(&mut self, view: &View, board: usize, square: Square) -> Option<(Seat, i32)> {
        let board_view = view.boards.get(board)?;
        if square.file() >= board_view.files || square.rank() >= board_view.ranks {
            return None;
        }
        match board_view.cell(square) {
            ViewCell::Piece { color, piece } => {
                let known = self.known(view, piece, board_view);
                Some((board_view.seats[color.index()], known.worth))
            }
            _ => None,
        }
    }

    /// Whether `seat` has a piece besides pawns and royals on some board: a side with none may be
    /// in zugzwang, where passing would be a move worth having.
    pub fn has_officers(&mut self, view: &View, seat: Seat) -> bool {
        for board in &view.boards {
            let color = board.color_of(seat);
            for index in 0..board.cells.len() {
                if let ViewCell::Piece { color: owner, piece } = board.cells[index]
                    && owner == color
                {
                    let known = self.known(view, piece, board);
                    if !known.is_pawn && !known.is_royal {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn sign(&self, seat: Seat) -> i32 {
        if seat == self.me { 1 } else { -1 }
    }

    /// One board: material, mobility, check, and the game's marks.
    fn board(&mut self, view: &View, board: &BoardView) -> i32 {
        let mut score = 0;
        let mut royals = Vec::new();
        // Material besides pawns and royals, by colour: what could attack a royal piece.
        let mut officers = [0; 2];
        let pawns = self.pawn_files(view, board);
        for index in 0..board.cells.len() {
            let ViewCell::Piece { color, piece } = board.cells[index] else {
                continue;
            };
            let square = Square::new(
                (index % board.files as usize) as u8,
                (index / board.files as usize) as u8,
            );
            let seat = board.seats[color.index()];
            let sign = self.sign(seat);
            let Terms {
                mobility,
                reach_counted,
                undeveloped,
                ..
            } = self.terms;
            let known = self.known(view, piece, board);
            let mut value = known.worth;
            if known.is_pawn {
                let advanced = match color {
                    Color::White => square.rank(),
                    Color::Black => board.ranks - 1 - square.rank(),
                };
                value += PAWN_STEP * i32::from(advanced.saturating_sub(1));
                if pawns.is_passed(square, color) {
                    value += PASSED_STEP * i32::from(advanced) * i32::from(advanced);
                }
            }
            // A royal piece's room to move is no asset while it can be hunted: its safety is.
            if known.is_royal {
                royals.push((square, color));
            } else {
                let reach = reach(board, square, color, &known.rules[color.index()]);
                value += mobility * reach.min(reach_counted);
                if !known.is_pawn {
                    officers[color.index()] += known.worth;
                    let home = match color {
                        Color::White => 0,
                        Color::Black => board.ranks - 1,
                    };
                    if square.rank() == home && known.worth < MINOR_BELOW {
                        value -= undeveloped;
                    }
                }
            }
            score += sign * value;
        }
        for (square, color) in royals {
            let attackers = officers[color.other().index()];
            if attackers > ATTACKING_MATERIAL {
                score += self.sign(board.seats[color.index()]) * self.royal_safety(view, board, square, color);
            }
        }
        if let Some(square) = board.check
            && let ViewCell::Piece { color, .. } = board.cell(square)
        {
            score -= self.sign(board.seats[color.index()]) * IN_CHECK;
        }
        score + self.marks(view, board)
    }

    /// Where each side's pawns stand, file by file, to tell passed pawns.
    fn pawn_files(&mut self, view: &View, board: &BoardView) -> PawnFiles {
        let mut pawns = PawnFiles {
            white_lowest: [i16::MAX; FILES],
            black_highest: [-1; FILES],
        };
        for index in 0..board.cells.len() {
            if let ViewCell::Piece { color, piece } = board.cells[index]
                && self.known(view, piece, board).is_pawn
            {
                let (file, rank) = (index % board.files as usize, (index / board.files as usize) as i16);
                match color {
                    Color::White => pawns.white_lowest[file] = pawns.white_lowest[file].min(rank),
                    Color::Black => pawns.black_highest[file] = pawns.black_highest[file].max(rank),
                }
            }
        }
        pawns
    }

    /// How safe the royal piece of `color` on `square` is: sheltered by its own side, at home,
    /// and far from the other side's pieces.
    fn royal_safety(&mut self, view: &View, board: &BoardView, square: Square, color: Color) -> i32 {
        let mut safety = 0;
        let home = match color {
            Color::White => square.rank(),
            Color::Black => board.ranks - 1 - square.rank(),
        };
        safety -= ROYAL_ABROAD * i32::from(home.min(4));
        for other in pieces_near(board, square, 2) {
            let ViewCell::Piece { color: owner, piece } = board.cell(other) else {
                continue;
            };
            let known = self.known(view, piece, board);
            let (is_pawn, is_royal) = (known.is_pawn, known.is_royal);
            if owner == color && distance(other, square) == 1 {
                safety += if is_pawn { SHELTER_PAWN } else { SHELTER_PIECE };
            } else if owner != color && !is_pawn && !is_royal {
                safety -= ROYAL_BESET;
            }
        }
        safety
    }

    /// The game's own terms, read from the marks on a board.
    fn marks(&mut self, view: &View, board: &BoardView) -> i32 {
        let mut score = 0;
        if self.terms.square_owned != 0 {
            for mark in &board.marks {
                if let MarkKind::Tint(Tone::SideLight(color)) = mark.kind {
                    score += self.sign(board.seats[color.index()]) * self.terms.square_owned;
                }
            }
        }
        if self.terms.flags {
            score += self.flags(view, board);
        }
        score
    }

    /// CTF: a flag carried is worth a lot, and more the nearer its carrier is to home; a flag lying
    /// is worth going for, the nearer a piece of the other side that could carry it home is to it.
    /// A carrier that can never reach home (a bishop whose base is of the other colour) is worth
    /// a little less than the flag lying on its square: it should bring the flag near a piece that
    /// can and drop it there, and never catch it back (catching and dropping reset the 50-move
    /// count, so a side that did both for ever would never end the game).
    fn flags(&mut self, view: &View, board: &BoardView) -> i32 {
        let mut score = 0;
        for owner in Color::BOTH {
            let Some(flag) = flag_of(board, owner) else {
                continue;
            };
            let taker = owner.other();
            let sign = self.sign(board.seats[taker.index()]);
            let home = base_of(board, taker);
            let carrier = match board.cell(flag) {
                ViewCell::Piece { color, piece } if color == taker && base_of(board, owner) != Some(flag) => {
                    Some(piece)
                }
                _ => None,
            };
            let carries_home = carrier.map(|piece| self.could_carry(view, board, piece, flag, flag, home));
            if carries_home == Some(true) {
                let way = home.map_or(7, |home| distance(flag, home));
                // Steep enough that a side ahead goes for the flag rather than shuffle its extra
                // material until the 50-move rule draws a won game.
                score += sign * (300 + FLAG_HOMEWARD * (8 - way.min(8)));
                continue;
            }
            let mut nearest = 8;
            for square in pieces_of(board, taker) {
                if let ViewCell::Piece { piece, .. } = board.cell(square)
                    && self.could_carry(view, board, piece, square, flag, home)
                {
                    nearest = nearest.min(distance(square, flag));
                }
            }
            score += sign * FLAG_APPROACH * (8 - nearest.min(8));
            if carries_home == Some(false) {
                score -= sign * STRANDED_CARRIER;
            }
        }
        score
    }

    /// Whether `piece`, standing on `from`, could reach a flag on `flag` and carry it to `home`:
    /// anything can but a colour-bound piece on the wrong colour.
    fn could_carry(
        &mut self,
        view: &View,
        board: &BoardView,
        piece: usize,
        from: Square,
        flag: Square,
        home: Option<Square>,
    ) -> bool {
        if !self.known(view, piece, board).is_colour_bound {
            return true;
        }
        let colour = square_colour(flag);
        square_colour(from) == colour && home.is_none_or(|home| square_colour(home) == colour)
    }

    fn known(&mut self, view: &View, piece: usize, board: &BoardView) -> &Known {
        let seen = &view.pieces[piece];
        // The same names are mostly the very same strings (a variant's piece views are made once).
        let same = |entry: &(Arc<str>, Arc<str>, Known)| {
            (Arc::ptr_eq(&entry.0, &seen.id) || entry.0 == seen.id)
                && (Arc::ptr_eq(&entry.1, &seen.betza) || entry.1 == seen.betza)
        };
        if let Some(&at) = self.by_place.get(piece)
            && self.pieces.get(at).is_some_and(same)
        {
            return &self.pieces[at].2;
        }
        let at = match self.pieces.iter().position(same) {
            Some(at) => at,
            None => {
                self.pieces
                    .push((seen.id.clone(), seen.betza.clone(), learn(seen, board)));
                self.pieces.len() - 1
            }
        };
        if self.by_place.len() <= piece {
            self.by_place.resize(piece + 1, usize::MAX);
        }
        self.by_place[piece] = at;
        &self.pieces[at].2
    }
}

/// Files a board may have.
const FILES: usize = crate::geometry::MAX_SIDE as usize;

/// Per file, the rank of White's rearmost pawn and of Black's (each side's pawns move away from
/// its own first rank).
struct PawnFiles {
    white_lowest: [i16; FILES],
    black_highest: [i16; FILES],
}

impl PawnFiles {
    /// Whether no pawn of the other side stands ahead of a pawn of `color` on `square`, on its
    /// file or the files beside it.
    fn is_passed(&self, square: Square, color: Color) -> bool {
        let file = usize::from(square.file());
        let rank = i16::from(square.rank());
        let mut files = file.saturating_sub(1)..=(file + 1).min(FILES - 1);
        match color {
            Color::White => files.all(|f| self.black_highest[f] <= rank),
            Color::Black => files.all(|f| self.white_lowest[f] >= rank),
        }
    }
}

/// What a piece type is to the evaluation, from how it moves.
fn learn(piece: &crate::view::PieceView, board: &BoardView) -> Known {
    let rules = betza::parse(&piece.betza).unwrap_or_default();
    Known {
        worth: worth(piece, board.files, board.ranks),
        is_pawn: piece.is_pawn,
        is_royal: piece.is_royal,
        is_colour_bound: !rules.is_empty()
            && rules
                .iter()
                .all(|r| (i16::from(r.step.df) + i16::from(r.step.dr)) % 2 == 0),
        rules: [
            rules.iter().map(|r| r.oriented(false)).collect(),
            rules.iter().map(|r| r.oriented(true)).collect(),
        ],
    }
}

/// How many squares a piece of `color` on `from` can move or capture to, roughly: its leaps and
/// rides as the board stands (hops and initial moves left out).
fn reach(board: &BoardView, from: Square, color: Color, rules: &[MoveRule]) -> i32 {
    let mut count = 0;
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
            match board.cell(Square::new(file as u8, rank as u8)) {
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

/// Squares apart, as a king walks.
fn distance(a: Square, b: Square) -> i32 {
    i32::from(a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())))
}

/// The occupied squares within `radius` of `center` (as a king walks), the center left out.
fn pieces_near(board: &BoardView, center: Square, radius: i16) -> impl Iterator<Item = Square> + '_ {
    let (file, rank) = (i16::from(center.file()), i16::from(center.rank()));
    (-radius..=radius)
        .flat_map(move |df| (-radius..=radius).map(move |dr| (file + df, rank + dr)))
        .filter(move |&(f, r)| {
            (f, r) != (file, rank) && f >= 0 && r >= 0 && f < i16::from(board.files) && r < i16::from(board.ranks)
        })
        .map(|(f, r)| Square::new(f as u8, r as u8))
        .filter(move |&square| board.cell(square) != ViewCell::Empty)
}

/// Which colour a square is (0 or 1), as a colour-bound piece keeps to.
fn square_colour(square: Square) -> u8 {
    (square.file() + square.rank()) % 2
}

fn flag_of(board: &BoardView, owner: Color) -> Option<Square> {
    board.marks.iter().find_map(|mark| match &mark.kind {
        MarkKind::Badge {
            text,
            tone: Tone::Side(color),
        } if text == "F" && *color == owner => Some(mark.square),
        _ => None,
    })
}

fn base_of(board: &BoardView, owner: Color) -> Option<Square> {
    board.marks.iter().find_map(|mark| match mark.kind {
        MarkKind::Ring(Tone::Side(color)) if color == owner => Some(mark.square),
        _ => None,
    })
}

fn pieces_of(board: &BoardView, color: Color) -> impl Iterator<Item = Square> + '_ {
    (0..board.cells.len()).filter_map(move |index| match board.cells[index] {
        ViewCell::Piece { color: c, .. } if c == color => Some(Square::new(
            (index % board.files as usize) as u8,
            (index / board.files as usize) as u8,
        )),
        _ => None,
    })
}

/// The material `seat` has over the other side in `view`, on the boards and in hand, by the
/// pieces' worth alone (what a greedy player looks at).
pub fn material(view: &View, seat: Seat) -> i32 {
    let Some(first) = view.boards.first() else {
        return 0;
    };
    let sign = |owner: Seat| if owner == seat { 1 } else { -1 };
    let mut total = 0;
    for board in &view.boards {
        for cell in &board.cells {
            if let ViewCell::Piece { color, piece } = cell {
                total += sign(board.seats[color.index()]) * worth(&view.pieces[*piece], board.files, board.ranks);
            }
        }
    }
    for owner in Seat::BOTH {
        for &piece in &view.hands[owner.index()] {
            total += sign(owner) * worth(&view.pieces[piece], first.files, first.ranks);
        }
    }
    total
}
