//! A game's boards as text for the terminal, drawn from one viewer's view.

use arbiter_engine::geometry::Square;
use arbiter_engine::view::{BoardView, MarkKind, Tone};
use arbiter_engine::{View, ViewCell};

/// Each board with ranks from the top, White's pieces upper case (longer symbols in
/// parentheses), `*` a statue, `!` after a piece with a badge (a bomb carrier only its owner
/// sees), what the badges mean, the pieces still to place (or to pick, from the pool) below. On
/// a piece's diagram an
/// empty square it moves to is `o`, one it captures on `x`, one it does both on `+`.
pub fn text_board(view: &View) -> String {
    let mut out = String::new();
    for board in &view.boards {
        if let Some(label) = &board.label {
            out.push_str(&format!("    {label}\n"));
        }
        out.push_str(&text_of_board(view, board));
    }
    let mut meanings: Vec<&str> = Vec::new();
    for mark in view.boards.iter().flat_map(|b| &b.marks) {
        if matches!(mark.kind, MarkKind::Badge { .. })
            && !mark.meaning.is_empty()
            && !meanings.contains(&mark.meaning.as_str())
        {
            meanings.push(&mark.meaning);
        }
    }
    for meaning in meanings {
        out.push_str(&format!("    ! {meaning}\n"));
    }
    let has_reach = view.boards.iter().any(|b| {
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
    let has_badge = |square: Square| {
        board
            .marks
            .iter()
            .any(|m| m.square == square && matches!(m.kind, MarkKind::Badge { .. }))
    };
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
                ViewCell::Empty => reach_of(board, square).unwrap_or('.').to_string(),
                ViewCell::Statue => "*".to_string(),
                ViewCell::Piece { color, piece } => view.piece(piece).symbol.fen(color),
            };
            out.push_str(&format!("{symbol:<width$}"));
            out.push(if has_badge(square) { '!' } else { ' ' });
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..board.files {
        out.push_str(&format!("{:<width$} ", (b'a' + file) as char));
    }
    out.push('\n');
    out
}
