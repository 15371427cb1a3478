//! A board as text for the terminal, drawn from one viewer's view.

use arbiter_engine::geometry::Square;
use arbiter_engine::{View, ViewCell};

/// Ranks from the top, White's pieces upper case, `*` a statue, `!` after a piece the viewer's
/// own marked piece (a bomb carrier), pieces still to place below.
pub fn text_board(view: &View) -> String {
    let mut out = String::new();
    for rank in (0..view.ranks).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..view.files {
            let (symbol, mark) = match view.cell(Square::new(file, rank)) {
                ViewCell::Empty => ('.', ' '),
                ViewCell::Statue => ('*', ' '),
                ViewCell::Piece {
                    color,
                    letter,
                    is_marked,
                    ..
                } => {
                    let letter = if color.is_black() {
                        letter.to_ascii_lowercase()
                    } else {
                        *letter
                    };
                    (letter, if *is_marked { '!' } else { ' ' })
                }
            };
            out.push(symbol);
            out.push(mark);
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..view.files {
        out.push((b'a' + file) as char);
        out.push(' ');
    }
    out.push('\n');
    for (seat, hand) in view.seat_names.iter().zip(&view.hands) {
        if !hand.is_empty() {
            out.push_str(&format!("    {seat} to place: {}\n", hand.iter().collect::<String>()));
        }
    }
    out
}
