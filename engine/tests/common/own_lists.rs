//! Generators of players' own piece lists, shared by the property tests of the list rules
//! (list_properties.rs) and of whole games (properties.rs): readable Betza, lines as a player
//! writes them (with `royal` and `pawn` marks, or a catalogue piece by its name), and whole lists
//! that keep every rule of a game, made mostly of generated pieces.
//!
//! Included with `#[path]` by the files that use it (the scenario tests' `common` needs none of
//! it).

#![allow(dead_code)]

use arbiter_engine::catalogue;
use arbiter_engine::lists::{self, Lab, ListKind, ListPiece, SMALL_PIECE};
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use proptest::prelude::*;
use proptest::sample::Index;

/// Readable Betza pieces of every kind the list rules must judge: leapers, riders, hoppers and
/// rider-hoppers (`p`, `g`), lame and multi-leg pieces, with direction and move/capture marks.
pub fn readable_betza() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        // Leapers, and riders of their steps.
        "[WFDNAHCZG]",
        "(WW|FF|DD|NN|CC|ZZ|AA|R|B|Q)",
        // Cannons and grasshoppers on riders.
        "[pg](R|B|Q|WW|FF|DD|NN|CC|ZZ)",
        // Lame leapers and riders, and the multi-leg mao and moa.
        "n(N|A|D|NN|CC)",
        "a(fs|fl|fr)?[WF]",
    ];
    let marks = "(f|b|v|s|fl|fr|fs|l|r)?(m|c)?";
    prop::collection::vec((marks, atom), 1..=3).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(mark, atom)| format!("{mark}{atom}"))
            .collect::<String>()
    })
}

/// Small pieces (at most a few squares on an empty board): one or two short leaps, most of them
/// in some directions only. A list needs ten of these in the games with a royal.
pub fn small_betza() -> impl Strategy<Value = String> {
    let part = "(f|b|v|s|l|r|fl|fr|bl|br|fs|bs|ff|ll)?(m|c)?[WFDAHGNCZ]";
    prop::collection::vec(part, 1..=2).prop_map(|parts| parts.concat())
}

/// Moves a piece marked `pawn` may have: a quiet step (or longer move) straight or diagonally
/// forward, with captures and other moves beside it.
pub fn pawn_betza() -> impl Strategy<Value = String> {
    (
        "(f|fl|fr|fs)(m)?[WF]",
        "((c)?(f|fs|fl|fr)[WF])?",
        "(b[WF]|s[W]|fmR|mfB|fnD|bmR)?",
    )
        .prop_map(|(quiet, capture, more)| format!("{quiet}{capture}{more}"))
}

/// A piece name as a player writes it: letters, digits, spaces, hyphens and apostrophes.
fn piece_name() -> impl Strategy<Value = String> {
    "[A-Z][a-z]{1,7}(['-][a-z]{1,4})?( [a-z0-9]{1,6}){0,2}"
}

/// A symbol: one to three letters, sometimes written in lower case (it is read in upper case).
/// `P` is for pawns only, so it is generated only by [`pawn_symbol`].
fn symbol() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => "[A-OQ-Z]",
        3 => "[A-Z]{2}",
        1 => "[A-Z]{3}",
        1 => "[a-z]{2}",
    ]
}

fn pawn_symbol() -> impl Strategy<Value = String> {
    prop_oneof![1 => Just("P".to_string()), 2 => symbol()]
}

/// A mark as a player may write it.
fn mark(word: &'static str) -> impl Strategy<Value = String> {
    prop::sample::select(vec![word.to_string(), word.to_uppercase(), {
        let mut title = word.to_string();
        title[..1].make_ascii_uppercase();
        title
    }])
}

/// `name, symbol, betza[, mark]`, with the spacing a player might use.
fn written(name: String, symbol: String, betza: String, mark: Option<String>, tight: bool) -> String {
    let sep = if tight { "," } else { ", " };
    let mut line = format!("{name}{sep}{symbol}{sep}{betza}");
    if let Some(mark) = mark {
        line.push_str(sep);
        line.push_str(&mark);
    }
    line
}

/// The names of the catalogue's pieces, as a player may write one alone on a line.
fn catalogue_names() -> Vec<String> {
    let mut names: Vec<String> = catalogue::all().into_iter().map(|p| p.name).collect();
    names.sort();
    names.dedup();
    names
}

/// One line of a list as a player writes it (most are pieces of their own; a few are refused by
/// the rules, which the list generator leaves out).
pub fn list_line() -> impl Strategy<Value = String> {
    let line = |betza: BoxedStrategy<String>, mark: Option<&'static str>, symbol: BoxedStrategy<String>| {
        let mark = match mark {
            Some(word) => proptest::option::weighted(0.9, self::mark(word)).boxed(),
            None => Just(None).boxed(),
        };
        (piece_name(), symbol, betza, mark, any::<bool>())
            .prop_map(|(name, symbol, betza, mark, tight)| written(name, symbol, betza, mark, tight))
    };
    prop_oneof![
        4 => line(small_betza().boxed(), None, symbol().boxed()),
        3 => line(readable_betza().boxed(), None, symbol().boxed()),
        2 => line(pawn_betza().boxed(), Some("pawn"), pawn_symbol().boxed()),
        1 => line(prop_oneof![small_betza(), Just("K".to_string())].boxed(), Some("royal"), symbol().boxed()),
        1 => prop::sample::select(catalogue_names()),
    ]
}

/// Pieces that complete a list when the generated ones fall short: royals, small pieces, pawns
/// and big pieces, all keeping every rule of every game (a test checks it).
pub const ROYAL_FILLERS: [&str; 3] = [
    "King, K, K, royal",
    "Royal wazir, RW, W, royal",
    "Royal ferz, RF, F, royal",
];
pub const SMALL_FILLERS: [&str; 18] = [
    "Ferz, F, F",
    "Wazir, W, W",
    "Alfil, AL, A",
    "Dabbabah, DA, D",
    "Threeleaper, H, H",
    "Tripper, TR, G",
    "Pawn, P, fmWfcF, pawn",
    "Chinese pawn, CP, fW, pawn",
    "Fish pawn, FI, fmWfcFbW, pawn",
    "Chinese fish pawn, FC, fWbW, pawn",
    "Forward ferz, FF, fF",
    "Back ferz, BF, bF",
    "Forward dabbabah, FD, fD",
    "Side wazir, SW, sW",
    "Back wazir, BW, bW",
    "Vertical wazir, VW, vW",
    "Berolina pawn, BE, mfFcfW, pawn",
    "Forward knight, FN, ffN",
];
pub const BIG_FILLERS: [&str; 14] = [
    "Queen, Q, Q",
    "Rook, R, R",
    "Bishop, B, B",
    "Knight, N, N",
    "Camel, CA, C",
    "Cardinal, CD, BN",
    "Chancellor, CH, RN",
    "Grasshopper, G, gQ",
    "Knight-alfil, NA, NA",
    "Zebra, ZE, Z",
    "Nightrider, NR, NN",
    "Rook-alfil, RA, RA",
    "Bishop-dabbabah, BD, BD",
    "Mann, MN, K",
];

/// A piece of a list being made, with what the rules found of it.
struct Kept {
    line: String,
    piece: ListPiece,
    is_small: bool,
    lab: Lab,
    quick: Vec<Vec<arbiter_engine::geometry::Square>>,
}

/// A list being made for `kind`: pieces are added only if they keep every rule with those
/// already in, and only while room is left for the royal and the small pieces still needed.
struct Making {
    kind: ListKind,
    kept: Vec<Kept>,
}

impl Making {
    fn has_royal(&self) -> bool {
        self.kept.iter().any(|k| k.piece.is_royal)
    }

    fn small(&self) -> usize {
        self.kept.iter().filter(|k| k.is_small).count()
    }

    fn is_full(&self) -> bool {
        self.kept.len() == self.kind.length()
    }

    /// A symbol no kept piece uses.
    fn fresh_symbol(&self) -> String {
        let letters = 'A'..='Z';
        letters
            .clone()
            .flat_map(|a| letters.clone().map(move |b| format!("X{a}{b}")))
            .find(|s| !self.kept.iter().any(|k| k.piece.symbol == *s))
            .expect("a free symbol")
    }

    /// Adds the piece of `line` if it reads, keeps the rules and fits; `rename` gives it a fresh
    /// symbol if its own is taken (for the fillers).
    fn offer(&mut self, line: &str, rename: bool) -> bool {
        if self.is_full() {
            return false;
        }
        let Ok(mut piece) = ListPiece::read(line) else {
            return false;
        };
        let mut line = line.to_string();
        if self.kept.iter().any(|k| k.piece.symbol == piece.symbol) {
            if !rename {
                return false;
            }
            piece.symbol = self.fresh_symbol();
            line = piece.to_string();
        }
        if piece.is_royal && (!self.kind.has_royal() || self.has_royal()) {
            return false;
        }
        let Ok(report) = lists::check_piece(&piece, self.kind) else {
            return false;
        };
        if !report.problems.is_empty() {
            return false;
        }
        let is_small = report.empty_board.squares <= SMALL_PIECE;
        let needs_royal = self.kind.has_royal() && !self.has_royal() && !piece.is_royal;
        let needs_small = self
            .kind
            .small_pieces()
            .saturating_sub(self.small() + usize::from(is_small));
        if self.kept.len() + 1 + usize::from(needs_royal) + needs_small > self.kind.length() {
            return false;
        }
        let Ok(lab) = Lab::new(&piece, self.kind) else {
            return false;
        };
        let quick = lab.quick_signature();
        if self.kind.has_distinct_pieces()
            && self
                .kept
                .iter()
                .any(|k| k.quick == quick && k.lab.signature() == lab.signature())
        {
            return false;
        }
        self.kept.push(Kept {
            line,
            piece,
            is_small,
            lab,
            quick,
        });
        true
    }
}

/// A list for `kind` that keeps every rule, as the lines a player writes: the generated `lines`
/// that keep the rules together (the first royal that does, then the rest in order while room is
/// left), completed by fillers, then turned by `rotation` so the fillers are not always last.
pub fn complete_list(kind: ListKind, lines: &[String], rotation: Index) -> Vec<String> {
    let mut making = Making { kind, kept: Vec::new() };
    // The royal first (a generated one, else a filler), so no piece taken before it is the
    // same piece as every royal filler.
    if kind.has_royal() {
        let royals = lines
            .iter()
            .filter(|line| ListPiece::read(line).is_ok_and(|p| p.is_royal));
        for line in royals {
            if making.offer(line, false) {
                break;
            }
        }
        for line in ROYAL_FILLERS {
            if making.has_royal() || making.offer(line, true) {
                break;
            }
        }
    }
    for line in lines {
        making.offer(line, false);
    }
    for line in SMALL_FILLERS {
        if making.small() >= kind.small_pieces() {
            break;
        }
        making.offer(line, true);
    }
    for line in BIG_FILLERS.iter().chain(&SMALL_FILLERS) {
        making.offer(line, true);
    }
    assert!(
        making.is_full(),
        "the fillers complete any list: {:?}",
        making.kept.iter().map(|k| &k.line).collect::<Vec<_>>()
    );
    let mut out: Vec<String> = making.kept.into_iter().map(|k| k.line).collect();
    let turn = rotation.index(out.len());
    out.rotate_left(turn);
    out
}

/// A list a player of `kind` might send: mostly generated pieces (readable Betza, royal and pawn
/// marks, catalogue names), completed to keep every rule. Lines, as written.
pub fn own_list(kind: ListKind) -> impl Strategy<Value = Vec<String>> {
    (
        prop::collection::vec(list_line(), kind.length() / 2..=kind.length() + 8),
        any::<Index>(),
    )
        .prop_map(move |(lines, rotation)| complete_list(kind, &lines, rotation))
}

/// The text a player sends: the lines, with a comment and a blank line a player may leave in.
pub fn list_text(lines: &[String]) -> String {
    format!("# my list\n\n{}\n", lines.join("\n"))
}

/// The ready-made list of `kind`, as lines.
pub fn ready_made_lines(kind: ListKind) -> Vec<String> {
    OwnPiecesGame::ready_made(kind)
        .iter()
        .map(ListPiece::to_string)
        .collect()
}
