//! Players' own piece lists (Pick-the-team version two, Patch, Easy Patch; rules pages
//! docs/rules/pick-the-team-2.md, patch.md, easy-patch.md, "Reading the list rules"): reading a list a player wrote, and
//! each list rule as a function that says why a piece or a list breaks it (the square, the
//! arrangement, the counts), not only whether.
//!
//! The counts come from the move generator itself, on the game's board: a piece is placed on a
//! square with other pieces arranged around it and its destinations are read off, so what the
//! rules measure is what the game plays.

use crate::betza::{Offset, Travel};
use crate::catalogue;
use crate::geometry::{BoardSize, Square};
use crate::movegen;
use crate::piece::{Cell, Color, MultiStep, Piece, PieceDef, Promotion, Royalty, StepDirection, Symbol};
use crate::position::{Board, Position};
use crate::rules::Standard;
use crate::variant_file::{PieceSpec, Variant, VariantDef};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// Which game a list is for: its board, its length and its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListKind {
    /// Pick-the-team version two: 20 pieces, 10x10.
    PickTheTeam2,
    /// 16 pieces, 8x8.
    Patch,
    /// 7 non-royal pieces, 8x8, beside FIDE kings and pawns.
    EasyPatch,
}

impl ListKind {
    /// The game's id in the registry.
    pub fn id(self) -> &'static str {
        match self {
            ListKind::PickTheTeam2 => "pick-the-team-2",
            ListKind::Patch => "patch",
            ListKind::EasyPatch => "easy-patch",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ListKind::PickTheTeam2 => "Pick-the-team Chess 2 (own lists)",
            ListKind::Patch => "Patch Chess",
            ListKind::EasyPatch => "Easy Patch Chess",
        }
    }

    /// What a list of this game holds, in words: "20 pieces, one of them royal".
    pub fn describe_length(self) -> String {
        if self.has_royal() {
            format!("{} pieces, exactly one of them royal", self.length())
        } else {
            format!("{} non-royal pieces", self.length())
        }
    }

    pub fn size(self) -> BoardSize {
        match self {
            ListKind::PickTheTeam2 => BoardSize { files: 10, ranks: 10 },
            ListKind::Patch | ListKind::EasyPatch => BoardSize { files: 8, ranks: 8 },
        }
    }

    /// How many pieces a list holds.
    pub fn length(self) -> usize {
        match self {
            ListKind::PickTheTeam2 => 20,
            ListKind::Patch => 16,
            ListKind::EasyPatch => 7,
        }
    }

    /// Whether a list holds exactly one royal piece (Easy Patch's kings are FIDE's).
    pub fn has_royal(self) -> bool {
        self != ListKind::EasyPatch
    }

    /// Whether a list's pieces must all differ (Easy Patch lists may hold the same piece twice,
    /// under two symbols: only the per-piece rules apply there).
    pub fn has_distinct_pieces(self) -> bool {
        self != ListKind::EasyPatch
    }

    /// How many pieces must reach at most [`SMALL_PIECE`] squares on an empty board.
    pub fn small_pieces(self) -> usize {
        match self {
            ListKind::PickTheTeam2 | ListKind::Patch => 10,
            ListKind::EasyPatch => 0,
        }
    }

    /// Ranks (from the owner's side) where `i` moves apply: Easy Patch's FIDE pawns double-step
    /// from their second rank; the other games' pawns step by rows instead.
    fn initial_move_ranks(self) -> Vec<u8> {
        match self {
            ListKind::EasyPatch => vec![2],
            _ => Vec::new(),
        }
    }
}

/// The most squares a piece may reach on an empty board.
pub const MOST_SQUARES: usize = 40;
/// A "small" piece reaches at most this many squares on an empty board.
pub const SMALL_PIECE: usize = 4;
/// The most squares a royal piece may reach in any position.
pub const ROYAL_SQUARES: usize = 8;
/// The longest Betza string read, name and list.
pub const LONGEST_BETZA: usize = 40;
pub const LONGEST_NAME: usize = 30;
pub const MOST_LINES: usize = 60;

/// One piece of a list, as its player wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ListPiece {
    pub name: String,
    pub symbol: String,
    pub betza: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_royal: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_pawn: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl fmt::Display for ListPiece {
    /// The line that reads back as this piece: `Giraffe, GI, C, royal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}, {}", self.name, self.symbol, self.betza)?;
        if self.is_royal {
            f.write_str(", royal")?;
        }
        if self.is_pawn {
            f.write_str(", pawn")?;
        }
        Ok(())
    }
}

impl ListPiece {
    /// Reads one line: `name, symbol, betza[, royal][, pawn]`, or a catalogue piece's name
    /// (`Chinese nightrider`), optionally followed by the marks.
    pub fn read(line: &str) -> Result<ListPiece, String> {
        let line = line.trim();
        if line.chars().count() > 120 {
            return Err("this line is too long for a piece (at most 120 characters)".into());
        }
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        let marks_from = parts
            .iter()
            .skip(1)
            .position(|p| is_mark(p))
            .map_or(parts.len(), |i| i + 1);
        let (fields, marks) = parts.split_at(marks_from);
        if let Some(bad) = marks.iter().find(|m| !is_mark(m)) {
            return Err(format!(
                "\"{bad}\" comes after a mark; write `name, symbol, betza`, then `royal` or `pawn`"
            ));
        }
        let has = |mark: &str| marks.iter().any(|m| m.eq_ignore_ascii_case(mark));
        let mut piece = match fields {
            [name] => from_catalogue(name)?,
            [name, symbol, betza] => ListPiece {
                name: name.to_string(),
                symbol: symbol.to_ascii_uppercase(),
                betza: betza.to_string(),
                is_royal: false,
                is_pawn: false,
            },
            _ => {
                return Err(
                    "write a piece as `name, symbol, betza` (then `royal` or `pawn` if it is one), \
                     or the name of a catalogue piece"
                        .into(),
                );
            }
        };
        piece.is_royal |= has("royal");
        piece.is_pawn |= has("pawn");
        piece.check_form()?;
        Ok(piece)
    }

    /// The checks on the piece as written: its name, symbol, Betza and marks.
    fn check_form(&self) -> Result<(), String> {
        let name_ok = |c: char| c.is_ascii_alphanumeric() || " -'".contains(c);
        if self.name.is_empty() || self.name.len() > LONGEST_NAME || !self.name.chars().all(name_ok) {
            return Err(format!(
                "the name \"{}\" must be 1 to {LONGEST_NAME} letters, digits, spaces, hyphens or apostrophes (plain ASCII)",
                self.name
            ));
        }
        let Some(symbol) = Symbol::new(&self.symbol) else {
            return Err(format!(
                "the symbol \"{}\" must be 1 to 3 letters A-Z, like G or GI",
                self.symbol
            ));
        };
        if symbol.as_str() == "P" && !self.is_pawn {
            return Err("the symbol P is for a pawn (mark it `pawn`, or choose another symbol)".into());
        }
        if self.betza.is_empty() || self.betza.len() > LONGEST_BETZA {
            return Err(format!("the Betza string must be 1 to {LONGEST_BETZA} characters"));
        }
        let rules = crate::betza::parse(&self.betza).map_err(|e| {
            format!(
                "the Betza \"{}\" does not read at position {}: {}",
                self.betza,
                e.position + 1,
                e.problem
            )
        })?;
        if rules.is_empty() {
            return Err(format!("the Betza \"{}\" gives the piece no move", self.betza));
        }
        if rules.iter().any(|rule| rule.is_initial_only) {
            return Err(format!(
                "the Betza \"{}\" has an initial move (`i`), which lists do not take: the only initial \
                 moves in a list are the double and triple steps a piece marked `pawn` makes from its \
                 first rows; write the piece without `i`",
                self.betza
            ));
        }
        if self.is_royal && self.is_pawn {
            return Err("a piece cannot be both royal and a pawn".into());
        }
        if self.is_pawn && !has_quiet_forward_move(&self.betza) {
            return Err(
                "only a piece with a non-capturing move straight or diagonally forward may be marked a pawn".into(),
            );
        }
        Ok(())
    }

    /// The piece as a game plays it, with the id it has in the game.
    pub fn def(&self, id: &str) -> PieceDef {
        let mut def = PieceDef::new(id, &self.name, &self.symbol, &self.betza);
        if self.is_royal {
            def.royal = Royalty::Both;
        }
        if self.is_pawn {
            def.is_pawn = true;
            def.promotion = Promotion::LastRank;
            def.multi_step = multi_step_directions(&self.betza).map(MultiStep::pick_the_team);
        }
        def
    }
}

fn is_mark(text: &str) -> bool {
    text.eq_ignore_ascii_case("royal") || text.eq_ignore_ascii_case("pawn")
}

/// A catalogue piece by its name, as a list line.
fn from_catalogue(name: &str) -> Result<ListPiece, String> {
    let found = catalogue::lookup(name);
    let exact: Vec<&PieceDef> = found
        .iter()
        .filter(|p| p.name.eq_ignore_ascii_case(name.trim()))
        .collect();
    let piece = match (exact.as_slice(), found.as_slice()) {
        ([one, ..], _) => *one,
        (_, [one]) => one,
        (_, []) => {
            return Err(format!(
                "no catalogue piece is called \"{name}\"; write `name, symbol, betza` for a piece of your own"
            ));
        }
        (_, several) => {
            let names: Vec<&str> = several.iter().take(5).map(|p| p.name.as_str()).collect();
            return Err(format!(
                "\"{name}\" could be {}: write the whole name",
                names.join(", ")
            ));
        }
    };
    Ok(ListPiece {
        name: piece.name.clone(),
        symbol: piece.symbol.to_string(),
        betza: piece.betza.clone(),
        is_royal: piece.royal != Royalty::None,
        is_pawn: piece.is_pawn,
    })
}

/// The directions of a piece's one-square non-capturing forward moves (straight, forward-left,
/// forward-right): exactly the directions a marked pawn's row-based double and triple steps take.
/// None for a piece whose quiet forward moves are all longer or lame.
fn multi_step_directions(betza: &str) -> Option<StepDirection> {
    let rules = crate::betza::parse(betza).ok()?;
    let files: Vec<i8> = rules
        .iter()
        .filter(|rule| {
            let Offset { df, dr } = rule.step;
            rule.can_move
                && !rule.is_initial_only
                && rule.path.is_empty()
                && matches!(rule.travel, Travel::Leap | Travel::Ride { .. })
                && dr == 1
                && df.abs() <= 1
        })
        .map(|rule| rule.step.df)
        .collect();
    StepDirection::of_files(&files)
}

/// Whether a piece has a non-capturing move straight or diagonally forward, of any length, lame
/// or not: only such a piece may be marked a pawn.
fn has_quiet_forward_move(betza: &str) -> bool {
    crate::betza::parse(betza).is_ok_and(|rules| {
        rules.iter().any(|rule| {
            let Offset { df, dr } = rule.step;
            rule.can_move && dr > 0 && (df == 0 || df.abs() == dr)
        })
    })
}

/// A line of a list as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListLine {
    /// From 1.
    pub number: usize,
    pub text: String,
    pub piece: Result<ListPiece, String>,
}

/// Reads a list: one piece a line (blank lines and lines starting with `#` skipped).
pub fn read_list(text: &str) -> Result<Vec<ListLine>, String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.len() > MOST_LINES {
        return Err(format!(
            "this list has {} lines; the longest list is 20 pieces, one a line",
            lines.len()
        ));
    }
    Ok(lines
        .into_iter()
        .map(|(number, text)| ListLine {
            number,
            text: text.to_string(),
            piece: ListPiece::read(text),
        })
        .collect())
}

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

/// The most coupled squares (see [`Lab::most_from`]) a royal's search tries every filling of.
const MOST_COUPLED: usize = 12;

/// The best a piece does along one line: the squares it reaches there, and the enemies placed
/// on the line for it.
#[derive(Clone, Debug, Default)]
struct LineBest {
    reached: Vec<Square>,
    placed: Vec<Square>,
}

/// A piece placed on a board of a game's size, to see what it reaches.
pub struct Lab {
    variant: Variant,
    size: BoardSize,
    has_capture_only: bool,
    /// The lines where what the piece reaches depends on where pieces stand along them, beyond
    /// opening or closing the line: a hopper's (it needs screens) and a capture-only rider's (it
    /// takes only the first piece). On these the arrangements are searched.
    searched_directions: Vec<Offset>,
}

/// The pieces a lab knows: the piece (kind 0) and a plain blocker (kind 1) standing for any
/// other piece.
const PIECE: u8 = 0;
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

    /// The most squares the piece reaches in any position, and from where, with the position
    /// (the enemies it needs; every other square empty). Decided exactly: see [`Lab::most_from`].
    /// Refused when its lame moves cross its hoppers' lines on too many squares to search.
    pub fn in_any_position(&self) -> Result<Reach, String> {
        let mut best: Option<Reach> = None;
        for from in self.size.squares() {
            let reach = self.most_from(from)?;
            if best.as_ref().is_none_or(|b| reach.squares > b.squares) {
                best = Some(reach);
            }
        }
        Ok(best.expect("a board has squares"))
    }

    /// The most squares the piece reaches from `from` in any position. A square matters to the
    /// line (direction from `from`) it stands on: as a blocker, a screen or a target. It also
    /// matters elsewhere only when a lame or multi-leg move needs it empty; those of them that
    /// could serve their own line occupied (on a hopper's or a capture-only rider's line, or a
    /// capture-only leap's target) are the coupled squares. Every way of filling the coupled
    /// squares is tried; given one, each line is best filled on its own (a hopper's or a
    /// capture-only rider's line by trying every arrangement of its other squares, any other
    /// line left open with an enemy on each square it only captures), and the lines' bests
    /// together are one position. Enemies serve at least as well as friends, so only enemies
    /// are placed.
    fn most_from(&self, from: Square) -> Result<Reach, String> {
        let rules = self.variant.piece(PIECE).rules(Color::White);
        let lines = lines(self.size, from);
        let coupled = self.coupled_squares(from, &lines);
        if coupled.len() > MOST_COUPLED {
            return Err(format!(
                "as the royal piece its lame moves cross its hoppers' lines on {} squares from {from}, \
                 too many to find the most it reaches; a royal needs simpler moves",
                coupled.len()
            ));
        }
        // For each line, the coupled squares it depends on: its own, and the empty squares the
        // moves ending on it need.
        let depends: Vec<Vec<usize>> = lines
            .iter()
            .map(|(direction, line)| {
                let mut needed: BTreeSet<Square> = line.iter().copied().collect();
                for rule in rules.iter().filter(|r| primitive(r.step.df, r.step.dr) == *direction) {
                    needed.extend(self.path_squares(from, rule));
                }
                (0..coupled.len()).filter(|&i| needed.contains(&coupled[i])).collect()
            })
            .collect();
        // Each line's best for each filling of the coupled squares it depends on.
        let mut bests: Vec<Vec<Option<LineBest>>> = depends.iter().map(|d| vec![None; 1 << d.len()]).collect();
        let mut line_best = |index: usize, filling: u32| -> LineBest {
            let key = depends[index]
                .iter()
                .enumerate()
                .fold(0usize, |key, (bit, &i)| key | ((filling >> i & 1) as usize) << bit);
            bests[index][key]
                .get_or_insert_with(|| {
                    let fixed: Vec<Square> = depends[index]
                        .iter()
                        .filter(|&&i| filling >> i & 1 == 1)
                        .map(|&i| coupled[i])
                        .collect();
                    let (direction, line) = &lines[index];
                    self.best_on_line(from, *direction, line, &coupled, &fixed)
                })
                .clone()
        };
        let (constant, varying): (Vec<usize>, Vec<usize>) = (0..lines.len()).partition(|&i| depends[i].is_empty());
        let constant_count: usize = constant.iter().map(|&i| line_best(i, 0).reached.len()).sum();
        let (mut best_filling, mut best_count) = (0u32, 0usize);
        for filling in 0u32..1 << coupled.len() {
            let count = constant_count
                + varying
                    .iter()
                    .map(|&i| line_best(i, filling).reached.len())
                    .sum::<usize>();
            if filling == 0 || count > best_count {
                (best_filling, best_count) = (filling, count);
            }
        }
        // The best filling's position: its coupled enemies and each line's own.
        let mut to = Vec::new();
        let mut enemies: Vec<Square> = (0..coupled.len())
            .filter(|i| best_filling >> i & 1 == 1)
            .map(|i| coupled[i])
            .collect();
        for index in 0..lines.len() {
            let best = line_best(index, best_filling);
            to.extend(best.reached);
            enemies.extend(best.placed);
        }
        to.sort_by_key(|s| s.index());
        enemies.sort_by_key(|s| s.index());
        Ok(Reach {
            squares: to.len(),
            from,
            to,
            enemies,
        })
    }

    /// The squares `rule` needs empty on its way from `from` (a lame leap's, or every step's of
    /// a lame rider, to the board's edge).
    fn path_squares(&self, from: Square, rule: &crate::betza::MoveRule) -> Vec<Square> {
        let step = |square: Square, by: Offset| self.size.offset(square, by.df, by.dr);
        let origins: Vec<Square> = match rule.travel {
            Travel::Leap => vec![from],
            Travel::Ride { range } => std::iter::successors(Some(from), |&s| step(s, rule.step))
                .take(if range == 0 { usize::MAX } else { usize::from(range) })
                .collect(),
            Travel::Hop | Travel::Grasshop => Vec::new(),
        };
        origins
            .into_iter()
            .flat_map(|origin| rule.path.iter().filter_map(move |&p| step(origin, p)))
            .collect()
    }

    /// The squares a lame or multi-leg move needs empty that could serve their own line
    /// occupied, from `from` (see [`Lab::most_from`]).
    fn coupled_squares(&self, from: Square, lines: &[(Offset, Vec<Square>)]) -> Vec<Square> {
        let rules = self.variant.piece(PIECE).rules(Color::White);
        let mut useful_occupied: BTreeSet<Square> = lines
            .iter()
            .filter(|(direction, _)| self.searched_directions.contains(direction))
            .flat_map(|(_, line)| line.iter().copied())
            .collect();
        useful_occupied.extend(
            rules
                .iter()
                .filter(|r| r.travel == Travel::Leap && r.can_capture && !r.can_move)
                .filter_map(|r| self.size.offset(from, r.step.df, r.step.dr)),
        );
        let paths: BTreeSet<Square> = rules.iter().flat_map(|rule| self.path_squares(from, rule)).collect();
        paths.intersection(&useful_occupied).copied().collect()
    }

    /// The most squares of `line` the piece reaches from `from`, with the coupled squares as
    /// given (`fixed` hold enemies, the others stay empty), and the enemies it places on the
    /// line's other squares for it.
    fn best_on_line(
        &self,
        from: Square,
        direction: Offset,
        line: &[Square],
        coupled: &[Square],
        fixed: &[Square],
    ) -> LineBest {
        let free: Vec<Square> = line.iter().copied().filter(|s| !coupled.contains(s)).collect();
        let on_line = |placed: &[Square]| -> Vec<Square> {
            let enemies: Vec<Square> = fixed.iter().chain(placed).copied().collect();
            self.reach(from, &enemies, &[])
                .into_iter()
                .filter(|s| line.contains(s))
                .collect()
        };
        if self.searched_directions.contains(&direction) {
            // Every arrangement of the line's free squares (at most 9 on a 10x10 board).
            return (0u32..1 << free.len())
                .map(|mask| {
                    let placed: Vec<Square> = (0..free.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| free[i])
                        .collect();
                    LineBest {
                        reached: on_line(&placed),
                        placed,
                    }
                })
                .max_by_key(|best| (best.reached.len(), std::cmp::Reverse(best.placed.len())))
                .expect("one arrangement at least");
        }
        // Open, with an enemy on each square it reaches only by capturing.
        let mut best = LineBest {
            reached: on_line(&[]),
            placed: Vec::new(),
        };
        if self.has_capture_only {
            for &square in &free {
                if !best.reached.contains(&square) && on_line(&[square]).contains(&square) {
                    best.reached.push(square);
                    best.placed.push(square);
                }
            }
        }
        best
    }

    /// A move or capture ending on the last row from a square of row 1 with rows 1 and 2 full,
    /// in whatever arrangement of pieces the rest of the board takes, if the piece has one: the
    /// square it stands on, where it lands, and the pieces that arrangement needs outside rows
    /// 1 and 2 (`enemies`: a hopper's screens, a grasshopper's hurdle, and the target where it
    /// captures). Decided exactly, rule by rule: a rider's path needs its squares empty (a full
    /// row closes it), a leap needs only its lame squares empty, a hopper needs one screen
    /// anywhere before its landing (a full row gives it one), a grasshopper a hurdle right before
    /// it. Every arrangement found is confirmed by the move generator.
    pub fn reach_from_full_home(&self) -> Option<Reach> {
        let rules = self.variant.piece(PIECE).rules(Color::White);
        for file in 0..self.size.files {
            let from = Square::new(file, 0);
            for rule in rules.iter().filter(|rule| !rule.is_initial_only) {
                let Some((to, mut enemies)) = self.full_home_landing(from, rule) else {
                    continue;
                };
                // A target it may move to stays empty; one it only captures holds an enemy.
                if !rule.can_move {
                    enemies.push(to);
                }
                let mut board: Vec<Square> = self.home_rows().filter(|&s| s != from).collect();
                board.extend(enemies.iter().copied());
                if self.reach(from, &board, &[]).contains(&to) {
                    return Some(Reach {
                        squares: 1,
                        from,
                        to: vec![to],
                        enemies,
                    });
                }
            }
        }
        None
    }

    /// Rows 1 and 2.
    fn home_rows(&self) -> impl Iterator<Item = Square> {
        self.size.squares().filter(|s| s.rank() <= 1)
    }

    /// Where `rule` can land on the last row from `from` with rows 1 and 2 full, and the pieces
    /// it needs outside them (screens, hurdles), if anywhere.
    fn full_home_landing(&self, from: Square, rule: &crate::betza::MoveRule) -> Option<(Square, Vec<Square>)> {
        if !rule.can_move && !rule.can_capture {
            return None;
        }
        let size = self.size;
        let last = size.ranks - 1;
        let is_home = |square: Square| square.rank() <= 1 && square != from;
        let step = |square: Square, by: Offset| size.offset(square, by.df, by.dr);
        let path_is_open = |origin: Square| {
            rule.path
                .iter()
                .all(|&p| step(origin, p).is_some_and(|square| !is_home(square)))
        };
        // The squares along the rule's line from `from`.
        let line: Vec<Square> = std::iter::successors(step(from, rule.step), |&s| step(s, rule.step)).collect();
        match rule.travel {
            Travel::Leap => {
                let to = line.first().copied()?;
                (to.rank() == last && path_is_open(from)).then(|| (to, Vec::new()))
            }
            Travel::Ride { range } => {
                let mut origin = from;
                for (count, &square) in line.iter().enumerate() {
                    if range != 0 && count >= usize::from(range) || !path_is_open(origin) {
                        return None;
                    }
                    if square.rank() == last {
                        return Some((square, Vec::new()));
                    }
                    if is_home(square) {
                        return None;
                    }
                    origin = square;
                }
                None
            }
            Travel::Hop => {
                // One screen before the landing: a full row's piece if the line crosses one,
                // else any square before it (the first).
                let landing = line.iter().position(|s| s.rank() == last)?;
                let before = &line[..landing];
                let screens: Vec<Square> = before.iter().copied().filter(|&s| is_home(s)).collect();
                match (screens.as_slice(), before.first()) {
                    ([_], _) => Some((line[landing], Vec::new())),
                    ([], Some(&first)) => Some((line[landing], vec![first])),
                    _ => None,
                }
            }
            Travel::Grasshop => {
                let landing = line.iter().position(|s| s.rank() == last)?;
                let hurdle = *line.get(landing.checked_sub(1)?)?;
                if line[..landing - 1].iter().any(|&s| is_home(s)) {
                    return None;
                }
                let needed = if is_home(hurdle) { Vec::new() } else { vec![hurdle] };
                Some((line[landing], needed))
            }
        }
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
fn lines(size: BoardSize, from: Square) -> Vec<(Offset, Vec<Square>)> {
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
fn primitive(df: i8, dr: i8) -> Offset {
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

/// What a list's check found about one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceReport {
    pub piece: ListPiece,
    /// The most squares it reaches on an empty board.
    pub empty_board: Reach,
    /// Why the piece breaks a rule, each in a sentence.
    pub problems: Vec<String>,
}

/// What a list's check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListReport {
    pub pieces: Vec<PieceReport>,
    /// Rules of the whole list it breaks (its length, its royal, its small pieces, twins).
    pub problems: Vec<String>,
}

impl ListReport {
    pub fn is_accepted(&self) -> bool {
        self.problems.is_empty() && self.pieces.iter().all(|p| p.problems.is_empty())
    }
}

/// The rules a single piece must keep: no more than [`MOST_SQUARES`] on an empty board, no
/// reach of the last row from a full home, and for a royal no more than [`ROYAL_SQUARES`] in
/// any position.
pub fn check_piece(piece: &ListPiece, kind: ListKind) -> Result<PieceReport, String> {
    let lab = Lab::new(piece, kind)?;
    let empty_board = lab.on_empty_board();
    let mut problems = Vec::new();
    if empty_board.squares > MOST_SQUARES {
        problems.push(format!(
            "reaches {} squares from {} on an empty board; a piece may reach at most {MOST_SQUARES}",
            empty_board.squares, empty_board.from
        ));
    }
    if let Some(reach) = lab.reach_from_full_home() {
        let to = reach.to[0];
        let how = if reach.enemies.contains(&to) {
            "captures on"
        } else {
            "moves to"
        };
        let others: Vec<Square> = reach.enemies.iter().copied().filter(|&s| s != to).collect();
        let with = match others.as_slice() {
            [] => String::new(),
            [one] => format!(" and a piece on {one}"),
            several => format!(" and pieces on {}", squares_text(several)),
        };
        problems.push(format!(
            "standing on {} with rows 1 and 2 full{with}, it {how} {to} on the last row in one move",
            reach.from
        ));
    }
    if piece.is_royal && kind.has_royal() {
        match lab.in_any_position() {
            Err(why) => problems.push(why),
            Ok(most) if most.squares > ROYAL_SQUARES => {
                let with = if most.enemies.is_empty() {
                    "on an empty board".to_string()
                } else {
                    format!("with enemies on {}", squares_text(&most.enemies))
                };
                problems.push(format!(
                "as the royal piece it reaches {} squares from {} {with}; a royal may reach at most {ROYAL_SQUARES} in any position",
                most.squares, most.from
            ));
            }
            Ok(_) => {}
        }
    }
    if piece.is_royal && !kind.has_royal() {
        problems.push("Easy Patch lists have no royal piece: the kings are FIDE's".into());
    }
    Ok(PieceReport {
        piece: piece.clone(),
        empty_board,
        problems,
    })
}

fn squares_text(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(Square::to_string).collect();
    names.join(", ")
}

/// Whether two pieces move and capture alike (on the game's board): the same piece, whatever
/// their names or spellings.
pub fn same_piece(a: &ListPiece, b: &ListPiece, kind: ListKind) -> Result<bool, String> {
    Ok(Lab::new(a, kind)?.signature() == Lab::new(b, kind)?.signature())
}

/// Checks a whole list: each piece's rules, then the list's own (its length, exactly one royal
/// where the game has one, enough small pieces, no piece twice, no symbol twice).
pub fn check_list(pieces: &[ListPiece], kind: ListKind) -> ListReport {
    check_pieces(pieces, kind, pieces.len())
}

/// `check_list`, for a list written in `written` lines (some may not have read as pieces).
fn check_pieces(pieces: &[ListPiece], kind: ListKind, written: usize) -> ListReport {
    let mut reports = Vec::with_capacity(pieces.len());
    let mut problems = Vec::new();
    let mut signatures = Vec::with_capacity(pieces.len());
    for piece in pieces {
        match (check_piece(piece, kind), Lab::new(piece, kind)) {
            (Ok(report), Ok(lab)) => {
                signatures.push(Some((lab.quick_signature(), lab)));
                reports.push(report);
            }
            (Err(error), _) | (_, Err(error)) => {
                signatures.push(None);
                reports.push(PieceReport {
                    piece: piece.clone(),
                    empty_board: Reach {
                        squares: 0,
                        from: Square::new(0, 0),
                        to: Vec::new(),
                        enemies: Vec::new(),
                    },
                    problems: vec![error],
                });
            }
        }
    }
    if written != kind.length() {
        problems.push(format!("a list has {} pieces; this one has {written}", kind.length()));
    }
    let royals: Vec<&str> = pieces.iter().filter(|p| p.is_royal).map(|p| p.name.as_str()).collect();
    if kind.has_royal() && royals.len() != 1 {
        problems.push(match royals.as_slice() {
            [] => "a list has exactly one royal piece (mark it `royal`); this one has none".into(),
            several => format!(
                "a list has exactly one royal piece; this one has {}: {}",
                several.len(),
                several.join(", ")
            ),
        });
    }
    let small = reports
        .iter()
        .filter(|r| r.problems.is_empty() && r.empty_board.squares <= SMALL_PIECE)
        .count();
    if small < kind.small_pieces() {
        problems.push(format!(
            "at least {} pieces must reach at most {SMALL_PIECE} squares on an empty board; this list has {small}",
            kind.small_pieces()
        ));
    }
    // A piece that repeats an earlier one (its symbol, or its moves) is the one refused.
    for (j, b) in pieces.iter().enumerate() {
        for (i, a) in pieces.iter().enumerate().take(j) {
            if a.symbol.eq_ignore_ascii_case(&b.symbol) {
                reports[j].problems.push(format!(
                    "{} already uses the symbol {}; each piece needs its own",
                    a.name, a.symbol
                ));
            }
            // Most pieces differ already on the empty board; only those alike there are
            // compared in every arrangement. Easy Patch lists may hold a piece twice.
            if let (Some((quick_x, x)), Some((quick_y, y))) = (&signatures[i], &signatures[j])
                && kind.has_distinct_pieces()
                && quick_x == quick_y
                && x.signature() == y.signature()
            {
                reports[j].problems.push(format!(
                    "it is the same piece as {} ({}): they move and capture alike from every square in every position",
                    a.name, a.betza
                ));
            }
        }
    }
    ListReport {
        pieces: reports,
        problems,
    }
}

impl ListReport {
    /// The report as a player reads it: each piece accepted with its count or refused with the
    /// reasons, then what is wrong with the list as a whole. `numbers` are the pieces' line
    /// numbers in what the player wrote (1, 2, 3... without).
    pub fn explain(&self, numbers: Option<&[usize]>) -> String {
        explained(self.numbered(numbers), &self.problems)
    }

    /// Each piece's verdict with its line number (from `numbers`, or 1, 2, 3...).
    fn numbered(&self, numbers: Option<&[usize]>) -> Vec<(usize, String)> {
        self.pieces
            .iter()
            .enumerate()
            .map(|(i, report)| {
                (
                    numbers.and_then(|n| n.get(i).copied()).unwrap_or(i + 1),
                    report.verdict(),
                )
            })
            .collect()
    }
}

/// Numbered verdicts in line order, then the list's problems, one a line.
fn explained(mut lines: Vec<(usize, String)>, problems: &[String]) -> String {
    lines.sort_by_key(|(number, _)| *number);
    let mut text: Vec<String> = lines
        .into_iter()
        .map(|(number, line)| format!("{number}. {line}"))
        .collect();
    text.extend(problems.iter().map(|problem| format!("The list: {problem}.")));
    text.join("\n")
}

impl PieceReport {
    /// "✓ Giraffe (GI) `C`: 8 squares" or "✗ Giraffe (GI) `C`: why".
    pub fn verdict(&self) -> String {
        let piece = &self.piece;
        let marks = match (piece.is_royal, piece.is_pawn) {
            (true, _) => ", royal",
            (_, true) => ", pawn",
            _ => "",
        };
        let name = format!("{} ({}) `{}`{marks}", piece.name, piece.symbol, piece.betza);
        if self.problems.is_empty() {
            let squares = self.empty_board.squares;
            format!(
                "✓ {name}: {squares} square{} on an empty board",
                if squares == 1 { "" } else { "s" }
            )
        } else {
            format!("✗ {name}: {}", self.problems.join("; "))
        }
    }
}

/// A list as its player wrote it, judged: each line read and checked, and the list's own rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The lines that do not read as a piece, with why.
    pub unread: Vec<(usize, String, String)>,
    /// The line numbers of the pieces read, in order.
    pub numbers: Vec<usize>,
    pub report: ListReport,
}

impl Review {
    /// The review of a list already read (numbered 1, 2, 3...).
    pub fn of(pieces: &[ListPiece], kind: ListKind) -> Review {
        Review {
            unread: Vec::new(),
            numbers: (1..=pieces.len()).collect(),
            report: check_list(pieces, kind),
        }
    }

    pub fn is_accepted(&self) -> bool {
        self.unread.is_empty() && self.report.is_accepted()
    }

    /// The list, if every rule is kept.
    pub fn pieces(&self) -> Option<Vec<ListPiece>> {
        self.is_accepted()
            .then(|| self.report.pieces.iter().map(|p| p.piece.clone()).collect())
    }

    /// Every line's verdict, in the order written, then the list's problems.
    pub fn explain(&self) -> String {
        let mut lines = self.report.numbered(Some(&self.numbers));
        lines.extend(
            self.unread
                .iter()
                .map(|(number, text, why)| (*number, format!("✗ `{text}`: {why}"))),
        );
        explained(lines, &self.report.problems)
    }
}

/// Reads and checks a list written one piece a line: what a player sees after sending one.
pub fn review(text: &str, kind: ListKind) -> Review {
    let lines = match read_list(text) {
        Ok(lines) => lines,
        Err(problem) => {
            return Review {
                unread: Vec::new(),
                numbers: Vec::new(),
                report: ListReport {
                    pieces: Vec::new(),
                    problems: vec![problem],
                },
            };
        }
    };
    let mut unread = Vec::new();
    let mut numbers = Vec::new();
    let mut pieces = Vec::new();
    for line in &lines {
        match &line.piece {
            Ok(piece) => {
                numbers.push(line.number);
                pieces.push(piece.clone());
            }
            Err(why) => unread.push((line.number, shortened(&line.text), why.clone())),
        }
    }
    Review {
        unread,
        numbers,
        // The count is of the lines written, read or not.
        report: check_pieces(&pieces, kind, lines.len()),
    }
}

/// A line as quoted back: at most 60 characters.
fn shortened(text: &str) -> String {
    if text.chars().count() <= 60 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(59).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(line: &str) -> ListPiece {
        ListPiece::read(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn a_line_is_a_piece_of_ones_own_or_a_catalogue_name_with_marks() {
        assert_eq!(
            piece("Giraffe, gi, C, royal"),
            ListPiece {
                name: "Giraffe".into(),
                symbol: "GI".into(),
                betza: "C".into(),
                is_royal: true,
                is_pawn: false,
            }
        );
        let nightrider = piece("Chinese nightrider");
        assert_eq!((nightrider.symbol.as_str(), nightrider.betza.as_str()), ("CN", "nNN"));
        assert!(piece("Pawn, P, fmWfcF, pawn").is_pawn);
        assert_eq!(piece(&piece("Wazir, W, W").to_string()), piece("Wazir, W, W"));
    }

    #[test]
    fn a_badly_written_line_says_what_is_wrong() {
        for (line, expected) in [
            ("Giraffe, G, Cx", "at position 2"),
            ("Giraffe, G", "write a piece as"),
            ("Giraffé, G, C", "plain ASCII"),
            ("Giraffe, G7, C", "1 to 3 letters"),
            ("Giraffe, G, C, pawn", "straight or diagonally forward"),
            ("Giraffe, P, C", "the symbol P is for a pawn"),
            ("Nothing at all like this", "no catalogue piece"),
            ("Wazir, W, W, royal, pawn", "both royal and a pawn"),
        ] {
            let error = ListPiece::read(line).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
        }
        let huge = format!("Big, B, {}", "W".repeat(500));
        assert!(ListPiece::read(&huge).is_err());
        let nested = format!("Odd, O, {}", "a".repeat(30) + "W");
        assert!(ListPiece::read(&nested).is_err());
    }

    #[test]
    fn a_list_of_too_many_lines_is_refused_whole() {
        let text = "Wazir, W, W\n".repeat(200);
        assert!(read_list(&text).unwrap_err().contains("200 lines"));
    }

    #[test]
    fn lines_group_the_board_by_direction() {
        let size = BoardSize { files: 8, ranks: 8 };
        let from = Square::parse("a1").unwrap();
        let found = lines(size, from);
        let (_, diagonal) = found.iter().find(|(d, _)| *d == Offset::new(1, 1)).unwrap();
        assert_eq!(diagonal.len(), 7);
        assert_eq!(diagonal[0], Square::parse("b2").unwrap());
        let (_, knightish) = found.iter().find(|(d, _)| *d == Offset::new(1, 2)).unwrap();
        assert_eq!(knightish.len(), 3, "b3, c5, d7");
    }

    const BIG: ListKind = ListKind::PickTheTeam2;
    const SMALL: ListKind = ListKind::Patch;

    fn home_reach(line: &str, kind: ListKind) -> Option<Reach> {
        Lab::new(&piece(line), kind).unwrap().reach_from_full_home()
    }

    fn problems(line: &str, kind: ListKind) -> Vec<String> {
        check_piece(&piece(line), kind).unwrap().problems
    }

    #[test]
    fn a_pao_on_row_1_captures_on_the_last_row_over_a_row_2_screen() {
        for kind in [BIG, SMALL] {
            let reach = home_reach("Pao, PA, mRcpR", kind).expect("the pao breaks the row rule");
            assert_eq!(reach.from.rank(), 0);
            assert_eq!(reach.to[0].rank(), kind.size().ranks - 1);
            assert_eq!(
                reach.to[0].file(),
                reach.from.file(),
                "straight up over its row-2 screen"
            );
            assert_eq!(reach.enemies, reach.to, "it captures there");
            let problem = &problems("Pao, PA, mRcpR", kind)[0];
            assert!(
                problem.contains("captures on") && problem.contains("last row"),
                "{problem}"
            );
        }
    }

    #[test]
    fn a_grasshopper_lands_right_behind_its_row_2_hurdle_and_passes() {
        for kind in [BIG, SMALL] {
            assert_eq!(home_reach("Grasshopper, GH, gQ", kind), None);
            assert!(problems("Grasshopper, GH, gQ", kind).is_empty());
        }
    }

    #[test]
    fn the_row_rule_closes_paths_through_full_rows_and_leaves_leaps_open() {
        // A dabbabah rider leaps over row 2 but lands on odd rows only (3, 5, 7, 9): never the
        // 10th row, nor the 8th on 8x8.
        assert_eq!(home_reach("Dabbabah rider, DR, DD", BIG), None);
        assert_eq!(home_reach("Dabbabah rider, DR, DD", SMALL), None);
        // Riders are stopped by row 2; a long leaper is not.
        assert_eq!(home_reach("Queen, Q, Q", BIG), None);
        // A triple-stepping pawn is blocked by the full second row.
        assert_eq!(home_reach("Pawn, P, fmWfcF, pawn", SMALL), None);
        // A camel rider leaps row 2 and rides on over the empty board: a1-b4-c7-d10.
        let camel_rider = home_reach("Camel rider, CR, CC", BIG).expect("it reaches the 10th row");
        assert_eq!(
            (camel_rider.from.to_string(), camel_rider.to[0].to_string()),
            ("a1".into(), "d10".into())
        );
        assert!(camel_rider.enemies.is_empty(), "a move, not a capture");
    }

    #[test]
    fn a_royal_king_passes_and_a_royal_centaur_does_not() {
        assert!(problems("King, K, K, royal", BIG).is_empty());
        let centaur = problems("Centaur, CE, KN, royal", BIG);
        assert_eq!(centaur.len(), 1, "{centaur:?}");
        assert!(centaur[0].contains("reaches 16 squares"), "{}", centaur[0]);
        // The same centaur is a fine piece when not royal.
        assert!(problems("Centaur, CE, KN", BIG).is_empty());
    }

    #[test]
    fn a_royal_is_measured_in_the_position_that_gives_it_most() {
        // A king that only captures diagonally reaches 4 squares on an empty board but 8 with
        // enemies on its diagonals.
        let lab = Lab::new(&piece("Odd king, OK, mWcF, royal"), BIG).unwrap();
        assert_eq!(lab.on_empty_board().squares, 4);
        let most = lab.in_any_position().unwrap();
        assert_eq!(most.squares, 8);
        assert_eq!(most.enemies.len(), 4);
        // A royal pao reaches every square of its lines beyond a screen, and more with screens
        // placed than on an empty board; on 10x10 it breaks the limit.
        let pao = Lab::new(&piece("Pao, PA, mRcpR, royal"), BIG).unwrap();
        assert!(pao.in_any_position().unwrap().squares > ROYAL_SQUARES);
        // A royal grasshopper from a corner: at most one landing per line, 3 lines.
        let grasshopper = Lab::new(&piece("Grasshopper, GH, gQ, royal"), BIG).unwrap();
        assert_eq!(
            grasshopper.in_any_position().unwrap().squares,
            8,
            "one landing on each of 8 lines"
        );
        assert!(problems("Grasshopper, GH, gQ, royal", BIG).is_empty());
        // A capture-only rider takes only the first piece on a line: a royal that steps as a
        // wazir and captures as a rook reaches 2 squares a line at most (a step and a capture
        // beyond it), 8 in all, not every square of its lines.
        let capturing_rook = Lab::new(&piece("Sniper, SN, mWcR, royal"), BIG).unwrap();
        assert_eq!(capturing_rook.in_any_position().unwrap().squares, 8);
        assert!(problems("Sniper, SN, mWcR, royal", BIG).is_empty());
        assert!(
            !problems("Sniper king, SK, mKcR, royal", BIG).is_empty(),
            "8 steps and 4 captures"
        );
    }

    #[test]
    fn the_empty_board_count_is_the_best_square_and_capture_only_moves_count_nothing() {
        let count = |line: &str| Lab::new(&piece(line), BIG).unwrap().on_empty_board().squares;
        assert_eq!(count("Queen, Q, Q"), 35, "from the middle of 10x10");
        assert_eq!(count("Knight, N, N"), 8);
        assert_eq!(count("Capturing king, CK, cK"), 0);
        assert_eq!(count("Wazir-ferz, WF, mWcF"), 4);
        assert_eq!(count("Pao, PA, mRcpR"), 18);
        assert_eq!(count("Grasshopper, GH, gQ"), 0, "nothing to hop over");
        // Over 40: a queen-nightrider compound.
        let over = problems("Amazon rider, AR, QNN", BIG);
        assert!(
            over.iter()
                .any(|p| p.contains("on an empty board; a piece may reach at most 40")),
            "{over:?}"
        );
    }

    #[test]
    fn the_same_piece_is_found_whatever_its_spelling() {
        let same = |a: &str, b: &str| same_piece(&piece(a), &piece(b), SMALL).unwrap();
        assert!(same("Queen, Q, Q", "Rook-bishop, RB, RB"));
        assert!(same("Mao, MA, afsW", "Lame knight, LK, nN"));
        assert!(same("King, K, K", "Wazir-ferz, WF, WF"));
        assert!(!same("Queen, Q, Q", "Rook, R, R"));
        assert!(!same("Mao, MA, afsW", "Knight, N, N"), "the lame knight is blocked");
        assert!(!same("Mao, MA, afsW", "Moa, MO, afsF"));
        assert!(!same("Pao, PA, mRcpR", "Rook, R, R"));
        assert!(
            !same("Wazir, W, W", "Moving wazir, MW, mW"),
            "one captures, one does not"
        );
    }

    fn list(lines: &[&str]) -> Vec<ListPiece> {
        lines.iter().map(|l| piece(l)).collect()
    }

    /// A Patch list that keeps every rule: a king and 15 distinct pieces, 10 of them small.
    fn patch_list() -> Vec<ListPiece> {
        list(&[
            "King, K, K, royal",
            "Wazir, W, W",
            "Ferz, F, F",
            "Alfil, A, A",
            "Dabbabah, D, D",
            "Pawn, P, fmWfcF, pawn",
            "Chinese pawn, CP, fW, pawn",
            "Berolina pawn, BP, mfFcfW, pawn",
            "Stepper, ST, fWbF",
            "Side mover, SM, sW",
            "Back ferz, BF, bF",
            "Rook, R, R",
            "Bishop, B, B",
            "Knight, N, N",
            "Camel, C, C",
            "Grasshopper, GH, gQ",
        ])
    }

    #[test]
    fn a_good_list_is_accepted_and_each_list_rule_is_checked() {
        let report = check_list(&patch_list(), SMALL);
        assert!(report.is_accepted(), "{report:?}");
        // Too short.
        let short = check_list(&patch_list()[..15], SMALL);
        assert!(
            short
                .problems
                .iter()
                .any(|p| p.contains("a list has 16 pieces; this one has 15"))
        );
        // No royal.
        let mut no_royal = patch_list();
        no_royal[0] = piece("Mann, MN, K");
        let report = check_list(&no_royal, SMALL);
        assert!(
            report.problems.iter().any(|p| p.contains("this one has none")),
            "{:?}",
            report.problems
        );
        // Two royals.
        let mut two = patch_list();
        two[1] = piece("Wazir, W, W, royal");
        assert!(
            check_list(&two, SMALL)
                .problems
                .iter()
                .any(|p| p.contains("this one has 2"))
        );
        // Too few small pieces: replace small ones by big distinct ones.
        let mut big = patch_list();
        big[1] = piece("Queen, Q, Q");
        big[2] = piece("Chancellor, CH, RN");
        let report = check_list(&big, SMALL);
        assert!(
            report.problems.iter().any(|p| p.contains("this list has 8")),
            "{:?}",
            report.problems
        );
        // Twins under two names and spellings, and a symbol used twice.
        let mut twins = patch_list();
        twins[12] = piece("Slider, SL, fbsR");
        twins[15] = piece("Camel rider, C, CC");
        let report = check_list(&twins, SMALL);
        // The later piece of a pair is the one refused, saying which it repeats.
        let slider = &report.pieces[12].problems;
        assert!(
            slider.iter().any(|p| p.contains("the same piece as Rook (R)")),
            "{slider:?}"
        );
        assert!(report.pieces[11].problems.is_empty(), "the rook itself is fine");
        let camel_rider = &report.pieces[15].problems;
        assert!(
            camel_rider
                .iter()
                .any(|p| p.contains("Camel already uses the symbol C")),
            "{camel_rider:?}"
        );
        let explained = report.explain(None);
        assert!(
            explained.contains("13. ✗ Slider (SL) `fbsR`: it is the same piece as Rook"),
            "{explained}"
        );
        assert!(
            explained.contains("12. ✓ Rook (R) `R`: 14 squares on an empty board"),
            "{explained}"
        );
    }

    #[test]
    fn easy_patch_keeps_only_the_piece_rules() {
        let pieces = list(&[
            "Queen, Q, Q",
            "Rook, R, R",
            "Knight, N, N",
            "Bishop, B, B",
            "Chancellor, CH, RN",
            "Cardinal, CA, BN",
            "Camel, C, C",
        ]);
        assert!(check_list(&pieces, ListKind::EasyPatch).is_accepted());
        let mut royal = pieces.clone();
        royal[6] = piece("King, K, K, royal");
        let report = check_list(&royal, ListKind::EasyPatch);
        assert!(report.pieces[6].problems[0].contains("no royal piece"));
    }
}
