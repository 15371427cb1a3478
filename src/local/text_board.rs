//! A game's boards as text for the terminal, drawn from one viewer's view.

use arbiter_engine::geometry::Square;
use arbiter_engine::view::{BoardView, MarkKind, Tone};
use arbiter_engine::{View, ViewCell};

/// Each board with ranks from the top, White's pieces upper case (longer symbols in
/// parentheses), `*` a statue, a badge's letter right after its piece (a bomb carrier's `B`,
/// which only its owner sees; a flag's `F`), with a wider gap between squares so it stays with
/// its own; then what each badge means and where, what other marks mean (`x` the squares a
/// detonation cleared), the pieces still to place (or to pick, from the pool) below. On a
/// piece's diagram an empty square it moves to is `o`, one it captures on `x`, one it does both
/// on `+`.
pub fn text_board(view: &View) -> String {
    let mut out = String::new();
    for board in &view.boards {
        if let Some(label) = &board.label {
            out.push_str(&format!("    {label}\n"));
        }
        out.push_str(&text_of_board(view, board));
    }
    for line in legend(view) {
        out.push_str(&format!("    {line}\n"));
    }
    let has_reach = is_diagram(view)
        && view.boards.iter().any(|b| {
            b.cells
                .iter()
                .enumerate()
                .any(|(i, _)| reach_of(b, square_at(b, i)).is_some())
        });
    if has_reach {
        // A hopper's screens are pieces on tinted squares.
        let screen = view.boards.iter().find_map(|b| {
            b.marks
                .iter()
                .filter(|m| m.kind == MarkKind::Tint(Tone::Neutral))
                .find_map(|m| match b.cell(m.square) {
                    ViewCell::Piece { piece, .. } => Some(view.piece(piece).symbol.to_string()),
                    _ => None,
                })
        });
        let screen = screen.map_or(String::new(), |symbol| format!(" · {symbol} a piece to hop over"));
        out.push_str(&format!("    o moves there · x captures there · + both{screen}\n"));
    }
    if !view.pool.is_empty() {
        let pool: Vec<String> = view.pool.iter().map(|&p| view.piece(p).symbol.to_string()).collect();
        out.push_str(&format!("    pool: {}\n", pool.join(" ")));
    }
    for (seat, hand) in view.seat_names.iter().zip(&view.hands) {
        if !hand.is_empty() {
            let pieces: String = hand.iter().map(|&p| view.piece(p).symbol.to_string()).collect();
            out.push_str(&format!("    {seat} to place: {pieces}\n"));
        }
    }
    out
}

/// What the badges mean, each with its square (two flags may share one), and what the cleared
/// squares of a detonation are.
fn legend(view: &View) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for mark in view.boards.iter().flat_map(|b| &b.marks) {
        let line = match &mark.kind {
            MarkKind::Badge { text, .. } if !mark.meaning.is_empty() => {
                format!(
                    "{} on {}: {}",
                    badge_letter(text),
                    mark.square,
                    what_it_is(&mark.meaning)
                )
            }
            MarkKind::Ring(Tone::Danger) if !is_diagram(view) && !mark.meaning.is_empty() => {
                format!("x {}", what_it_is(&mark.meaning))
            }
            _ => continue,
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

/// A mark's meaning without the words that describe its look in an image ("Ringed in red: ",
/// "B: "), which the text draws otherwise.
fn what_it_is(meaning: &str) -> &str {
    meaning.split_once(": ").map_or(meaning, |(_, what)| what)
}

/// Whether the view is a piece's diagram (its moves marked), not a game.
fn is_diagram(view: &View) -> bool {
    view.variant.starts_with("piece:")
}

/// The one character a badge shows in text.
fn badge_letter(text: &str) -> char {
    text.chars().next().unwrap_or('!')
}

/// How a piece's diagram marks an empty square: `o` a move (a dot), `x` a capture (a danger
/// ring), `+` both.
fn reach_of(board: &BoardView, square: Square) -> Option<char> {
    if board.cell(square) != ViewCell::Empty {
        return None;
    }
    let marked = |wanted: fn(&MarkKind) -> bool| board.marks.iter().any(|m| m.square == square && wanted(&m.kind));
    let moves = marked(|kind| matches!(kind, MarkKind::Dot(_)));
    let captures = marked(|kind| matches!(kind, MarkKind::Ring(Tone::Danger)));
    match (moves, captures) {
        (true, true) => Some('+'),
        (true, false) => Some('o'),
        (false, true) => Some('x'),
        (false, false) => None,
    }
}

fn square_at(board: &BoardView, index: usize) -> Square {
    Square::new(
        (index % board.files as usize) as u8,
        (index / board.files as usize) as u8,
    )
}

fn text_of_board(view: &View, board: &BoardView) -> String {
    let mut out = String::new();
    let badge_at = |square: Square| {
        board.marks.iter().find_map(|m| match &m.kind {
            MarkKind::Badge { text, .. } if m.square == square => Some(badge_letter(text)),
            _ => None,
        })
    };
    let cleared = |square: Square| {
        !is_diagram(view)
            && board
                .marks
                .iter()
                .any(|m| m.square == square && m.kind == MarkKind::Ring(Tone::Danger))
    };
    // With badges, each square gets a column for its piece's badge and a gap after it.
    let has_badges = board.marks.iter().any(|m| matches!(m.kind, MarkKind::Badge { .. }));
    let width = view
        .pieces
        .iter()
        .map(|p| p.symbol.fen(arbiter_engine::piece::Color::White).len())
        .max()
        .unwrap_or(1);
    for rank in (0..board.ranks).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..board.files {
            let square = Square::new(file, rank);
            let symbol = match board.cell(square) {
                ViewCell::Empty if cleared(square) => "x".to_string(),
                ViewCell::Empty if is_diagram(view) => reach_of(board, square).unwrap_or('.').to_string(),
                ViewCell::Empty => ".".to_string(),
                ViewCell::Statue => "*".to_string(),
                ViewCell::Piece { color, piece } => view.piece(piece).symbol.fen(color),
            };
            out.push_str(&format!("{symbol:<width$}"));
            if has_badges {
                out.push(badge_at(square).unwrap_or(' '));
            }
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("    ");
    let column = width + if has_badges { 2 } else { 1 };
    for file in 0..board.files {
        out.push_str(&format!("{:<column$}", (b'a' + file) as char));
    }
    out.push('\n');
    out
}
