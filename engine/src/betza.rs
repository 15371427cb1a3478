//! Betza notation: the one parser that turns a piece's movement string into move rules.
//!
//! The dialect is documented in docs/betza.md. In short: atoms `W F D N A H C Z G` (and the
//! shorthands `K R B Q`), a doubled atom or a range digit makes a rider, modifiers `m c` (move or
//! capture only), `f b l r v s h` (directions, from the owner's side), `n` (lame), `p` (cannon-style
//! hopper), `g` (grasshopper), `i` (initial moves only) and `a` (one more leg, relative to the first).

use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// The most legs a multi-leg (`a`) move may have.
pub const MOST_LEGS: usize = 4;

/// A displacement in files and ranks, seen from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Offset {
    pub df: i8,
    pub dr: i8,
}

impl Offset {
    pub const fn new(df: i8, dr: i8) -> Offset {
        Offset { df, dr }
    }
    /// The same displacement seen from Black's side (the board turned half a circle).
    pub const fn flipped(self) -> Offset {
        Offset::new(-self.df, -self.dr)
    }
    fn plus(self, other: Offset) -> Offset {
        Offset::new(self.df + other.df, self.dr + other.dr)
    }
    fn times(self, n: i8) -> Offset {
        Offset::new(self.df * n, self.dr * n)
    }
}

/// How a move travels along its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Travel {
    /// One step, jumping over everything except the squares of `path`.
    Leap,
    /// Repeated steps along one line; `range` 0 means unlimited.
    Ride { range: u8 },
    /// Cannon: rides to a screen, jumps it, and goes on to the squares beyond.
    Hop,
    /// Grasshopper: lands on the square right beyond the first piece on the line.
    Grasshop,
}

/// One family of moves of a piece: a step, how it travels, and what it may do at the end.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveRule {
    pub step: Offset,
    /// Squares, relative to each step's start, that must be empty for the step (lame leapers and
    /// the inner legs of multi-leg moves).
    pub path: Vec<Offset>,
    pub travel: Travel,
    pub can_move: bool,
    pub can_capture: bool,
    /// Only from the variant's initial-move ranks (a pawn's double step).
    pub is_initial_only: bool,
}

impl MoveRule {
    /// The rule as seen by the owner of `is_black` pieces.
    pub fn oriented(&self, is_black: bool) -> MoveRule {
        if !is_black {
            return self.clone();
        }
        MoveRule {
            step: self.step.flipped(),
            path: self.path.iter().map(|o| o.flipped()).collect(),
            ..self.clone()
        }
    }
}

/// A Betza string that could not be read; `position` counts characters from 0.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("in Betza string \"{text}\" at position {position}: {problem}")]
pub struct BetzaError {
    pub text: String,
    pub position: usize,
    pub problem: String,
}

/// The geometric families of atoms; direction letters mean different things on each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn atom_offset(letter: char) -> Option<Offset> {
    Some(match letter {
        'W' => Offset::new(1, 0),
        'F' => Offset::new(1, 1),
        'D' => Offset::new(2, 0),
        'N' => Offset::new(1, 2),
        'A' => Offset::new(2, 2),
        'H' => Offset::new(3, 0),
        'C' => Offset::new(1, 3),
        'Z' => Offset::new(2, 3),
        'G' => Offset::new(3, 3),
        _ => return None,
    })
}

/// All the symmetric images of a basic leap.
fn symmetric_offsets(base: Offset) -> Vec<Offset> {
    let (a, b) = (base.df, base.dr);
    let mut all = Vec::with_capacity(8);
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let o = Offset::new(x * sx, y * sy);
            if !all.contains(&o) {
                all.push(o);
            }
        }
    }
    all
}

fn shape_of(base: Offset) -> Shape {
    if base.df == 0 || base.dr == 0 {
        Shape::Orthogonal
    } else if base.df.abs() == base.dr.abs() {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

/// A direction token: one letter, a doubled letter, or a pair such as `fl`.
#[derive(Clone, Copy, Debug)]
struct DirToken {
    first: char,
    second: Option<char>,
    position: usize,
}

/// The modifiers written before one leg.
#[derive(Default, Debug)]
struct LegModifiers {
    directions: Vec<(char, usize)>,
    is_move_only: bool,
    is_capture_only: bool,
    is_lame: bool,
    is_hopper: bool,
    is_grasshopper: bool,
    is_initial: bool,
    first_position: usize,
}

fn is_vertical_letter(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'v')
}
fn is_sideways_letter(c: char) -> bool {
    matches!(c, 'l' | 'r' | 's')
}

/// Groups direction letters into tokens. Pairs (`fl`, `bs`, `vs`, ...) and doubled letters
/// (`ff`, `ll`) are one token on atoms where they select something narrower than the letters apart.
fn tokenize_directions(letters: &[(char, usize)], shape: Shape) -> Vec<DirToken> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let (c, position) = letters[i];
        let next = letters.get(i + 1).map(|&(n, _)| n);
        let pairs = match (shape, next) {
            (_, Some('h')) => true,
            (Shape::Orthogonal, _) | (_, None) => false,
            (_, Some(n)) => {
                (is_vertical_letter(c) && is_sideways_letter(n))
                    || (shape == Shape::Oblique && n == c && c != 'v' && c != 's')
            }
        };
        if pairs {
            tokens.push(DirToken {
                first: c,
                second: next,
                position,
            });
            i += 2;
        } else {
            tokens.push(DirToken {
                first: c,
                second: None,
                position,
            });
            i += 1;
        }
    }
    tokens
}

/// Whether `o` (owner's frame, forward = +dr) lies in the direction a single letter names.
fn letter_selects(letter: char, o: Offset, shape: Shape) -> bool {
    let (x, y) = (o.df, o.dr);
    let narrow = y.abs() > x.abs();
    let wide = x.abs() > y.abs();
    match letter {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => match shape {
            Shape::Orthogonal => x == 0,
            Shape::Diagonal => true,
            Shape::Oblique => narrow,
        },
        's' => match shape {
            Shape::Orthogonal => y == 0,
            Shape::Diagonal => true,
            Shape::Oblique => wide,
        },
        _ => false,
    }
}

fn token_selects(token: DirToken, o: Offset, shape: Shape) -> bool {
    let (x, y) = (o.df, o.dr);
    match token.second {
        None => letter_selects(token.first, o, shape),
        // `fh`: the forward half-plane, sideways moves included.
        Some('h') => match token.first {
            'f' => y >= 0,
            'b' => y <= 0,
            'l' => x <= 0,
            'r' => x >= 0,
            _ => false,
        },
        // Doubled letters on oblique atoms: `ff` the narrow forward pair, `ll` the wide left pair.
        Some(second) if second == token.first => {
            letter_selects(token.first, o, shape)
                && if is_vertical_letter(token.first) {
                    y.abs() > x.abs()
                } else {
                    x.abs() > y.abs()
                }
        }
        Some(second) => {
            let vertical_ok = match token.first {
                'f' => y > 0,
                'b' => y < 0,
                _ => y != 0,
            };
            let sideways_ok = match second {
                'l' => x < 0,
                'r' => x > 0,
                // On oblique atoms `fs` is the wide forward pair, as in classic Betza.
                _ if shape == Shape::Oblique => x.abs() > y.abs(),
                _ => x != 0,
            };
            vertical_ok && sideways_ok
        }
    }
}

/// Parses a whole Betza string into move rules (in White's frame).
pub fn parse(text: &str) -> Result<Vec<MoveRule>, BetzaError> {
    Parser {
        text,
        chars: text.chars().collect(),
        pos: 0,
    }
    .parse_all()
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, position: usize, problem: impl fmt::Display) -> BetzaError {
        BetzaError {
            text: self.text.to_string(),
            position,
            problem: problem.to_string(),
        }
    }

    fn parse_all(mut self) -> Result<Vec<MoveRule>, BetzaError> {
        if self.chars.is_empty() {
            return Err(self.error(0, "the movement is empty"));
        }
        let mut rules: Vec<MoveRule> = Vec::new();
        while self.pos < self.chars.len() {
            for rule in self.parse_component()? {
                merge_rule(&mut rules, rule);
            }
        }
        Ok(rules)
    }

    /// One component: modifiers (possibly several legs separated by `a`), an atom, and an optional
    /// doubling or range.
    fn parse_component(&mut self) -> Result<Vec<MoveRule>, BetzaError> {
        let mut legs = vec![LegModifiers {
            first_position: self.pos,
            ..Default::default()
        }];
        loop {
            let Some(&c) = self.chars.get(self.pos) else {
                return Err(self.error(self.pos, "the modifiers are not followed by a piece letter"));
            };
            let position = self.pos;
            if c.is_ascii_uppercase() {
                break;
            }
            let leg_count = legs.len();
            let leg = legs.last_mut().expect("there is always a leg");
            match c {
                // Every leg multiplies the moves by up to eight: a bound keeps a long string of
                // `a`s from taking the generator down.
                'a' if leg_count >= MOST_LEGS => {
                    return Err(self.error(position, format!("a move has at most {MOST_LEGS} legs")));
                }
                'a' => legs.push(LegModifiers {
                    first_position: position + 1,
                    ..Default::default()
                }),
                'm' => leg.is_move_only = true,
                'c' => leg.is_capture_only = true,
                'n' => leg.is_lame = true,
                'p' => leg.is_hopper = true,
                'g' => leg.is_grasshopper = true,
                'i' => leg.is_initial = true,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => leg.directions.push((c, position)),
                _ if c.is_ascii_digit() => {
                    return Err(self.error(position, "a range digit must follow a piece letter"));
                }
                _ => {
                    return Err(self.error(position, format!("'{c}' is not a modifier this engine knows")));
                }
            }
            self.pos += 1;
        }
        let atom_position = self.pos;
        let atom = self.chars[atom_position];
        self.pos += 1;
        let bases: Vec<(Offset, bool)> = match atom {
            'K' => vec![(Offset::new(1, 0), false), (Offset::new(1, 1), false)],
            'R' => vec![(Offset::new(1, 0), true)],
            'B' => vec![(Offset::new(1, 1), true)],
            'Q' => vec![(Offset::new(1, 0), true), (Offset::new(1, 1), true)],
            _ => match atom_offset(atom) {
                Some(o) => vec![(o, false)],
                None => {
                    return Err(self.error(
                        atom_position,
                        format!("'{atom}' is not a piece letter of Betza notation"),
                    ));
                }
            },
        };
        // A doubled atom or a range digit makes a rider.
        let mut range: Option<u8> = None;
        if self.chars.get(self.pos) == Some(&atom) && atom_offset(atom).is_some() {
            self.pos += 1;
            range = Some(0);
        } else if let Some(d) = self.chars.get(self.pos).and_then(|c| c.to_digit(10)) {
            self.pos += 1;
            range = Some(d as u8);
        }
        let mut rules = Vec::new();
        for (base, is_rider_atom) in bases {
            let range = range.or(is_rider_atom.then_some(0));
            rules.extend(self.build(&legs, atom, atom_position, base, range)?);
        }
        Ok(rules)
    }

    fn build(
        &self,
        legs: &[LegModifiers],
        atom: char,
        atom_position: usize,
        base: Offset,
        range: Option<u8>,
    ) -> Result<Vec<MoveRule>, BetzaError> {
        let first = &legs[0];
        let last = legs.last().expect("at least one leg");
        let shape = shape_of(base);
        let is_initial = legs.iter().any(|l| l.is_initial);
        if last.is_move_only && last.is_capture_only {
            return Err(self.error(last.first_position, "'m' and 'c' together leave no move"));
        }
        let can_move = !last.is_capture_only;
        let can_capture = !last.is_move_only;

        let first_dirs = self.select(first, base, shape, atom)?;
        if legs.len() > 1 {
            return self.build_multi_leg(
                legs,
                atom,
                atom_position,
                range,
                first_dirs,
                can_move,
                can_capture,
                is_initial,
            );
        }

        let travel = match (first.is_hopper, first.is_grasshopper, range) {
            (true, true, _) => {
                return Err(self.error(first.first_position, "'p' and 'g' cannot be combined"));
            }
            (true, false, Some(_)) => Travel::Hop,
            (false, true, Some(_)) => Travel::Grasshop,
            (true, _, None) | (_, true, None) => {
                return Err(self.error(atom_position, "hoppers ('p', 'g') need a rider such as R, B, Q or WW"));
            }
            (false, false, Some(range)) => Travel::Ride { range },
            (false, false, None) => Travel::Leap,
        };
        let path_for = |o: Offset| -> Result<Vec<Offset>, BetzaError> {
            if !first.is_lame {
                return Ok(Vec::new());
            }
            if matches!(travel, Travel::Hop | Travel::Grasshop) {
                return Err(self.error(first.first_position, "'n' cannot be combined with a hopper"));
            }
            let path = lame_path(o);
            if path.is_empty() {
                return Err(self.error(
                    atom_position,
                    format!("'n' has no meaning on {atom}: nothing lies between its start and end"),
                ));
            }
            Ok(path)
        };
        first_dirs
            .into_iter()
            .map(|step| {
                Ok(MoveRule {
                    step,
                    path: path_for(step)?,
                    travel,
                    can_move,
                    can_capture,
                    is_initial_only: is_initial,
                })
            })
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn build_multi_leg(
        &self,
        legs: &[LegModifiers],
        atom: char,
        atom_position: usize,
        range: Option<u8>,
        first_dirs: Vec<Offset>,
        can_move: bool,
        can_capture: bool,
        is_initial: bool,
    ) -> Result<Vec<MoveRule>, BetzaError> {
        if range.is_some() || !matches!(atom, 'W' | 'F') {
            return Err(self.error(atom_position, "multi-leg moves ('a') are supported on a W or F step"));
        }
        for leg in &legs[..legs.len() - 1] {
            if leg.is_capture_only {
                return Err(self.error(leg.first_position, "capturing on an inner leg is not supported"));
            }
        }
        if let Some(leg) = legs.iter().find(|l| l.is_hopper || l.is_grasshopper || l.is_lame) {
            return Err(self.error(leg.first_position, "'p', 'g' and 'n' cannot be combined with 'a'"));
        }
        // Each later leg is a unit step turned relative to the previous leg's direction: the frame's
        // forward is that direction, so `fs` means a 45-degree turn and `vs` any diagonal turn.
        let king_steps: Vec<Offset> = symmetric_offsets(Offset::new(1, 0))
            .into_iter()
            .chain(symmetric_offsets(Offset::new(1, 1)))
            .collect();
        let mut paths: Vec<(Vec<Offset>, Offset, Offset)> =
            first_dirs.into_iter().map(|d| (Vec::new(), d, d)).collect();
        for leg in &legs[1..] {
            let tokens = tokenize_directions(&leg.directions, Shape::Diagonal);
            let relative: Vec<Offset> = king_steps
                .iter()
                .copied()
                .filter(|&o| tokens.is_empty() || tokens.iter().any(|&t| token_selects(t, o, shape_of(o))))
                .collect();
            if relative.is_empty() {
                return Err(self.error(leg.first_position, "these directions select no step"));
            }
            let mut next = Vec::new();
            for (path, end, direction) in &paths {
                for &rel in &relative {
                    let turned = turn(*direction, rel);
                    let mut inner = path.clone();
                    inner.push(*end);
                    let new_end = end.plus(turned);
                    if new_end != Offset::new(0, 0) {
                        next.push((inner, new_end, turned));
                    }
                }
            }
            paths = next;
        }
        let mut rules = Vec::new();
        for (path, step, _) in paths {
            let rule = MoveRule {
                step,
                path,
                travel: Travel::Leap,
                can_move,
                can_capture,
                is_initial_only: is_initial,
            };
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
        Ok(rules)
    }

    /// The offsets of `base`'s symmetric set that the leg's direction letters select.
    fn select(&self, leg: &LegModifiers, base: Offset, shape: Shape, atom: char) -> Result<Vec<Offset>, BetzaError> {
        let all = symmetric_offsets(base);
        if leg.directions.is_empty() {
            return Ok(all);
        }
        let tokens = tokenize_directions(&leg.directions, shape);
        let selected: Vec<Offset> = all
            .into_iter()
            .filter(|&o| tokens.iter().any(|&t| token_selects(t, o, shape)))
            .collect();
        if selected.is_empty() {
            let position = tokens.first().map_or(leg.first_position, |t| t.position);
            return Err(self.error(position, format!("these directions select no move of {atom}")));
        }
        Ok(selected)
    }
}

/// Turns `rel` (a king step in a frame whose forward is `direction`) into a board step.
fn turn(direction: Offset, rel: Offset) -> Offset {
    let forward = Offset::new(direction.df.signum(), direction.dr.signum());
    let right = Offset::new(forward.dr, -forward.df);
    let raw = right.times(rel.df).plus(forward.times(rel.dr));
    Offset::new(raw.df.signum(), raw.dr.signum())
}

/// The squares a lame leap passes: straight along its longer axis first, then diagonally.
fn lame_path(o: Offset) -> Vec<Offset> {
    let (ax, ay) = (o.df.abs(), o.dr.abs());
    let (sx, sy) = (o.df.signum(), o.dr.signum());
    let mut path = Vec::new();
    let mut cur = Offset::new(0, 0);
    let straight = (ax - ay).abs();
    let straight_step = if ax > ay {
        Offset::new(sx, 0)
    } else {
        Offset::new(0, sy)
    };
    for _ in 0..straight {
        cur = cur.plus(straight_step);
        path.push(cur);
    }
    for _ in 0..ax.min(ay) {
        cur = cur.plus(Offset::new(sx, sy));
        path.push(cur);
    }
    path.pop(); // the last square is the destination itself
    path
}

/// Adds `rule`, merging it with an equal move family that differs only in what it may do at the end.
fn merge_rule(rules: &mut Vec<MoveRule>, rule: MoveRule) {
    if let Some(existing) = rules.iter_mut().find(|r| {
        r.step == rule.step
            && r.path == rule.path
            && r.travel == rule.travel
            && r.is_initial_only == rule.is_initial_only
    }) {
        existing.can_move |= rule.can_move;
        existing.can_capture |= rule.can_capture;
    } else {
        rules.push(rule);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<(i8, i8)> {
        let mut s: Vec<(i8, i8)> = parse(text).unwrap().iter().map(|r| (r.step.df, r.step.dr)).collect();
        s.sort();
        s
    }

    #[test]
    fn mao_is_an_orthogonal_step_then_a_diagonal_one() {
        let rules = parse("afsW").unwrap();
        assert_eq!(rules.len(), 8);
        let to_1_2 = rules.iter().find(|r| r.step == Offset::new(1, 2)).unwrap();
        assert_eq!(to_1_2.path, vec![Offset::new(0, 1)]);
        // nN means the same as the mao.
        let lame = parse("nN").unwrap();
        let lame_1_2 = lame.iter().find(|r| r.step == Offset::new(1, 2)).unwrap();
        assert_eq!(lame_1_2.path, vec![Offset::new(0, 1)]);
    }

    #[test]
    fn moa_is_blocked_on_the_diagonal() {
        let rules = parse("afsF").unwrap();
        assert_eq!(rules.len(), 8);
        let to_1_2 = rules.iter().find(|r| r.step == Offset::new(1, 2)).unwrap();
        assert_eq!(to_1_2.path, vec![Offset::new(1, 1)]);
    }

    #[test]
    fn ultimate_battle_king_reaches_knight_squares_and_orthogonal_neighbours() {
        let mut s = steps("avsF");
        s.dedup();
        assert_eq!(s.len(), 12);
        assert!(s.contains(&(0, 1)) && s.contains(&(2, 1)) && s.contains(&(-1, -2)));
        assert!(!s.contains(&(1, 1)));
        // (0,1) is reached through either diagonal neighbour: two rules, one path each.
        let rules = parse("avsF").unwrap();
        assert_eq!(rules.iter().filter(|r| r.step == Offset::new(0, 1)).count(), 2);
    }

    #[test]
    fn directions_on_each_atom_shape() {
        assert_eq!(steps("fW"), vec![(0, 1)]);
        assert_eq!(steps("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(steps("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(steps("flF"), vec![(-1, 1)]);
        assert_eq!(steps("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(steps("fN").len(), 4);
        assert_eq!(steps("vN").len(), 4);
        assert_eq!(steps("fhW"), vec![(-1, 0), (0, 1), (1, 0)]);
    }

    #[test]
    fn riders_hoppers_and_modalities() {
        let pao = parse("mRcpR").unwrap();
        assert!(
            pao.iter()
                .any(|r| r.travel == Travel::Ride { range: 0 } && r.can_move && !r.can_capture)
        );
        assert!(
            pao.iter()
                .any(|r| r.travel == Travel::Hop && !r.can_move && r.can_capture)
        );
        assert!(parse("gQ").unwrap().iter().all(|r| r.travel == Travel::Grasshop));
        assert!(
            parse("NN")
                .unwrap()
                .iter()
                .all(|r| r.travel == Travel::Ride { range: 0 })
        );
        assert!(
            parse("W3")
                .unwrap()
                .iter()
                .all(|r| r.travel == Travel::Ride { range: 3 })
        );
        let pawn = parse("fmWfcFifmnD").unwrap();
        let double = pawn.iter().find(|r| r.is_initial_only).unwrap();
        assert_eq!(
            (double.step, double.path.clone()),
            (Offset::new(0, 2), vec![Offset::new(0, 1)])
        );
        let nightrider = parse("nNN").unwrap();
        assert!(
            nightrider
                .iter()
                .all(|r| r.travel == Travel::Ride { range: 0 } && r.path.len() == 1)
        );
    }

    #[test]
    fn errors_name_the_position() {
        let cases = [
            ("X", 0),
            ("fWx", 2),
            ("mcW", 0),
            ("", 0),
            ("f", 1),
            ("nW", 1),
            ("pN", 1),
            ("3W", 0),
            ("afsN", 3),
            // The fifth leg of a move: refused at once, not after 8^30 paths.
            ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaW", 3),
        ];
        for (text, position) in cases {
            let e = parse(text).expect_err(text);
            assert_eq!(e.position, position, "{text}: {e}");
        }
        let err = parse("fWx").unwrap_err().to_string();
        assert!(err.contains("position 2"), "{err}");
    }
}
