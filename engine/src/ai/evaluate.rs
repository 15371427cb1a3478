//! How good a position looks to the computer opponent, in centipawns for its seat: the material on
//! the boards and in hand, how freely the pieces move, where they stand (the centre, open files,
//! the pawns' structure, the royal piece's shelter in the middlegame and its activity in the
//! endgame, weighed by how much attacking material is left), a royal in check, the pieces the side
//! to act stands to lose ([`super::reach`]), and each game's own terms
//! (Domination's squares and points, CTF's flags and bases, Blockade's room to move). It reads
//! only the seat's sight of the position ([`crate::Game::sight`]), so it weighs any game the same
//! way images are drawn: from boards, pieces and marks.

use super::pawns::PawnFiles;
use super::reach::{Attacks, Lines, ROYAL_ATTACKER, reach};
use super::worth::worth;
use crate::betza::{self, Travel};
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
    /// It can never be captured, so never be lost (a blocking prince).
    is_uncapturable: bool,
    /// Every move keeps it on squares of one colour (a bishop, a ferz): it can carry a flag home
    /// only when its square and its base are of the same colour.
    is_colour_bound: bool,
    /// It rides any distance along its file (a rook, a queen): an open file is its road.
    rides_file: bool,
    /// None of its moves ride far: it works near where it stands, so it belongs in the centre.
    is_short_range: bool,
    /// Its moves on the board it was learnt on, from each side.
    lines: [Lines; 2],
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
    /// The squares each side attacks on the board being weighed (kept to spare allocations).
    attacks: Attacks,
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
    /// Whether where pieces stand is weighed: the centre, open files, the pawns' structure, the
    /// royal piece in the corner in the middlegame and in the centre in the endgame.
    placement: bool,
    /// How much one quiet move (no capture, no promotion) changes the evaluation at most, as a
    /// rule; none where a quiet move can change it by any amount (catching a flag, owning a
    /// square, taking a rival's last room to move), so the search never leaves one out.
    quiet_swing: Option<i32>,
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
            placement: true,
            quiet_swing: Some(QUIET_SWING),
        };
        match variant {
            // Blockade is won by having room to move when the other side has none.
            VariantId::Blockade | VariantId::Garden => Terms {
                mobility: 12,
                reach_counted: i32::MAX,
                undeveloped: 0,
                placement: false,
                quiet_swing: None,
                ..plain
            },
            VariantId::Domination => Terms {
                point: 40,
                square_owned: 30,
                quiet_swing: None,
                ..plain
            },
            VariantId::Ctf => Terms {
                flags: true,
                quiet_swing: None,
                ..plain
            },
            _ => plain,
        }
    }
}

/// A quiet move seldom changes the evaluation by more than this (pieces' places and mobility).
const QUIET_SWING: i32 = 120;
/// A piece worth less than this is a minor piece, to be developed off the first rank.
const MINOR_BELOW: i32 = 450;
/// A check costs its side this much: the king must spend a move, and mates come from checks.
const IN_CHECK: i32 = 40;
/// The worth of the pieces besides pawns and royals, both sides together, from which a board is
/// weighed as in the middlegame (chess starts with about 7,000); with less, the endgame's terms
/// count in proportion.
const PHASE_FULL: i32 = 6_000;
/// In the middlegame, per rank a pawn has advanced (two at most) times how near the centre its
/// file is (0 to 3): pawns in the centre claim it, pawns on the wings leave the royal bare.
const PAWN_CENTRE_STEP: i32 = 4;
/// In the endgame, per rank any pawn has advanced: promotion is worth a lot, and getting there
/// takes time.
const PAWN_STEP: i32 = 6;
/// A passed pawn (no pawn of the other side ahead of it on its file or the next) is worth this
/// times the square of the ranks it has advanced, and twice that in the endgame: it is what wins
/// endgames, the more so the nearer it is to promoting.
const PASSED_STEP: i32 = 4;
/// Per step from the edge towards the centre (0 to 3): a short-range piece (a knight) does its
/// work there; a long-range one reaches far from anywhere, but less from the rim.
const CENTRE_SHORT: i32 = 8;
const CENTRE_LONG: i32 = 3;
/// In the endgame, per step from the edge towards the centre: the royal piece joins the fight.
const ROYAL_CENTRE: i32 = 12;
/// In the middlegame, per file from the edge (0 to 3): a royal in the middle files is where the
/// lines open first.
const ROYAL_MIDDLE_FILE: i32 = 15;
/// Of the second most a side to act stands to lose by a capture, the share (percent) counted
/// against it: it can save one piece, and often not two.
const THREAT_SHARE: i32 = 50;
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
            attacks: Attacks::default(),
        }
    }

    /// How much one quiet move (no capture, no promotion) changes the evaluation at most, as a
    /// rule, in this game; `None` where one can change it by any amount.
    pub fn quiet_swing(&self) -> Option<i32> {
        self.terms.quiet_swing
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

    /// One board: material, mobility, where the pieces stand, check, and the game's marks.
    fn board(&mut self, view: &View, board: &BoardView) -> i32 {
        self.resolve(view, board);
        let mut score = 0;
        let mut royals = Vec::new();
        let survey = self.survey(board);
        let mut attacks = std::mem::take(&mut self.attacks);
        attacks.clear(board.cells.len());
        // How much of the game's attacking material is still on the board: the middlegame's
        // terms count in full at PHASE_FULL, the endgame's as it runs out.
        let middlegame = (survey.officers[0] + survey.officers[1]).clamp(0, PHASE_FULL);
        let endgame = PHASE_FULL - middlegame;
        let taper = |mg: i32, eg: i32| (mg * middlegame + eg * endgame) / PHASE_FULL;
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
                placement,
                ..
            } = self.terms;
            let known = self.kind(piece);
            let mut value = known.worth;
            let advanced = i32::from(match color {
                Color::White => square.rank(),
                Color::Black => board.ranks - 1 - square.rank(),
            });
            if known.is_pawn {
                let centre_files = file_closeness(board, square);
                let early = PAWN_CENTRE_STEP * (advanced - 1).clamp(0, 2) * centre_files;
                let late = PAWN_STEP * (advanced - 1).max(0);
                let mut passed = PASSED_STEP * advanced * advanced;
                if !survey.pawns.is_passed(square, color) {
                    passed = 0;
                }
                value += taper(early, late) + taper(passed, 2 * passed);
                if placement {
                    value -= survey.pawns.weakness(square, color);
                }
            }
            let lines = &known.lines[color.index()];
            // A royal piece's room to move is no asset while it can be hunted: its safety is.
            if known.is_royal {
                royals.push((square, color));
                reach(board, index, color, ROYAL_ATTACKER, lines, &mut attacks);
                if placement {
                    value += taper(0, ROYAL_CENTRE * closeness(board, square));
                }
            } else {
                if !known.is_uncapturable {
                    attacks.stands(index, color, known.worth);
                }
                let reach = reach(board, index, color, known.worth, lines, &mut attacks);
                value += mobility * reach.min(reach_counted);
                if !known.is_pawn {
                    let home = match color {
                        Color::White => 0,
                        Color::Black => board.ranks - 1,
                    };
                    if square.rank() == home && known.worth < MINOR_BELOW {
                        value -= undeveloped;
                    }
                    if placement {
                        let centre = if known.is_short_range {
                            CENTRE_SHORT
                        } else {
                            CENTRE_LONG
                        };
                        value += centre * closeness(board, square);
                        if known.rides_file {
                            value += survey.pawns.file_bonus(square, color);
                        }
                    }
                }
            }
            score += sign * value;
        }
        for (square, color) in royals {
            let attackers = survey.officers[color.other().index()];
            if attackers > ATTACKING_MATERIAL {
                let mut safety = self.royal_safety(board, square, color);
                if self.terms.placement {
                    safety -= ROYAL_MIDDLE_FILE * file_closeness(board, square);
                }
                score += self.sign(board.seats[color.index()]) * safety;
            }
        }
        if let Some(square) = board.check
            && let ViewCell::Piece { color, .. } = board.cell(square)
        {
            score -= self.sign(board.seats[color.index()]) * IN_CHECK;
        }
        // The side to act saves one threatened piece; the second worst it likely loses.
        if let [seat] = view.to_act[..] {
            let [_, second] = attacks.threatened(board.color_of(seat));
            score -= self.sign(seat) * second * THREAT_SHARE / 100;
        }
        self.attacks = attacks;
        score + self.marks(view, board)
    }

    /// One pass over a board before it is weighed: where each side's pawns stand, file by file,
    /// and each side's material besides pawns and royals (what could attack a royal piece).
    fn survey(&self, board: &BoardView) -> Survey {
        let mut survey = Survey {
            pawns: PawnFiles::new(board.files),
            officers: [0; 2],
        };
        for index in 0..board.cells.len() {
            let ViewCell::Piece { color, piece } = board.cells[index] else {
                continue;
            };
            let known = self.kind(piece);
            if known.is_pawn {
                let files = usize::from(board.files);
                let square = Square::new((index % files) as u8, (index / files) as u8);
                survey.pawns.add(square, color);
            } else if !known.is_royal {
                survey.officers[color.index()] += known.worth;
            }
        }
        survey
    }

    /// How safe the royal piece of `color` on `square` is: sheltered by its own side, at home,
    /// and far from the other side's pieces.
    fn royal_safety(&self, board: &BoardView, square: Square, color: Color) -> i32 {
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
            let known = self.kind(piece);
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

    /// Learns, or finds again, every piece type `view` names, as on `board`: from then on
    /// [`Evaluator::kind`] reads each by its place in the view's list, without a check.
    fn resolve(&mut self, view: &View, board: &BoardView) {
        for piece in 0..view.pieces.len() {
            self.known(view, piece, board);
        }
    }

    /// A piece type of the view last [resolved](Evaluator::resolve), by its place in its list.
    fn kind(&self, piece: usize) -> &Known {
        &self.pieces[self.by_place[piece]].2
    }

    fn known(&mut self, view: &View, piece: usize, board: &BoardView) -> &Known {
        let seen = &view.pieces[piece];
        // The same names are mostly the very same strings (a variant's piece views are made once).
        // (A piece is learnt for the size of the board it stands on.)
        let same = |entry: &(Arc<str>, Arc<str>, Known)| {
            (Arc::ptr_eq(&entry.0, &seen.id) || entry.0 == seen.id)
                && (Arc::ptr_eq(&entry.1, &seen.betza) || entry.1 == seen.betza)
                && entry.2.lines[0].fit(board)
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

/// What [`Evaluator::survey`] finds on a board.
struct Survey {
    pawns: PawnFiles,
    /// Per colour, the worth of its pieces besides pawns and royals.
    officers: [i32; 2],
}

/// How far `square`'s file is from the board's edge, up to 3 (on 8x8: 0 on the a- and h-files,
/// 3 on the d- and e-files).
fn file_closeness(board: &BoardView, square: Square) -> i32 {
    i32::from(square.file().min(board.files.saturating_sub(1) - square.file()).min(3))
}

/// How far `square` is from the board's nearest edge, up to 3 (on 8x8, 3 in the four centre
/// squares and 0 on the rim).
fn closeness(board: &BoardView, square: Square) -> i32 {
    let rank = square.rank().min(board.ranks.saturating_sub(1) - square.rank());
    file_closeness(board, square).min(i32::from(rank.min(3)))
}

/// What a piece type is to the evaluation, from how it moves.
fn learn(piece: &crate::view::PieceView, board: &BoardView) -> Known {
    let rules = betza::parse(&piece.betza).unwrap_or_default();
    Known {
        worth: worth(piece, board.files, board.ranks),
        is_pawn: piece.is_pawn,
        is_royal: piece.is_royal,
        is_uncapturable: piece.is_uncapturable,
        is_colour_bound: !rules.is_empty()
            && rules
                .iter()
                .all(|r| (i16::from(r.step.df) + i16::from(r.step.dr)) % 2 == 0),
        rides_file: rules
            .iter()
            .any(|r| r.step.df == 0 && r.travel == Travel::Ride { range: 0 } && r.can_move),
        is_short_range: rules.iter().all(|r| match r.travel {
            Travel::Leap => true,
            Travel::Ride { range } => range != 0 && range <= 2,
            Travel::Hop | Travel::Grasshop => false,
        }),
        lines: [false, true].map(|is_black| {
            let rules: Vec<_> = rules.iter().map(|r| r.oriented(is_black)).collect();
            Lines::new(&rules, board.files, board.ranks)
        }),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A chess position, as White sees it.
    fn seen(fen: &str) -> View {
        AnyGame::from_fen(VariantId::Chess, fen)
            .unwrap()
            .sight(Viewer::Seat(Seat::First))
    }

    fn at(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn closeness_to_the_centre_counts_steps_from_the_nearest_edge() {
        let view = seen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let board = &view.boards[0];
        let near = |name: &str| closeness(board, at(name));
        assert_eq!(
            [near("a1"), near("b2"), near("c6"), near("d4"), near("e5"), near("h4")],
            [0, 1, 2, 3, 3, 0]
        );
        assert_eq!(
            [file_closeness(board, at("a8")), file_closeness(board, at("e1"))],
            [0, 3]
        );
    }
}
