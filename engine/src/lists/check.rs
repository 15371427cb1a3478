//! The rules of a list, each saying why a piece or the list breaks it: a piece's own (its reach
//! on an empty board, from a full home, as a royal in any position), then the list's (its length,
//! its royal, its small pieces, no piece or symbol twice).

use super::kind::{ListKind, MOST_SQUARES, ROYAL_SQUARES, SMALL_PIECE};
use super::lab::{Lab, Reach};
use super::piece::ListPiece;
use crate::geometry::Square;

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
pub(super) fn check_pieces(pieces: &[ListPiece], kind: ListKind, written: usize) -> ListReport {
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
    pub(super) fn numbered(&self, numbers: Option<&[usize]>) -> Vec<(usize, String)> {
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
pub(super) fn explained(mut lines: Vec<(usize, String)>, problems: &[String]) -> String {
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
