//! A piece's moves drawn on an otherwise empty board: the diagram of a piece card (`/piece`, the
//! rules pages). The generator finds the squares, so a diagram always shows what the engine plays.

use crate::chess_move::Move;
use crate::game::{Phase, Seat, Viewer};
use crate::geometry::Square;
use crate::movegen;
use crate::piece::{Cell, Color, Piece, PieceDef};
use crate::rules::Standard;
use crate::variant_file::{PieceSpec, Variant, VariantDef, VariantError};
use crate::variants::chess::{board_view, piece_views};
use crate::view::{Mark, MarkKind, Tone, View};

/// The board a diagram is drawn on: odd, so a piece can stand in the middle.
const SIZE: u8 = 9;

/// The kinds of a diagram's variant: the piece, a lone enemy to capture, a screen to hop over.
const TARGET: crate::piece::Kind = 1;
const SCREEN: crate::piece::Kind = 2;

/// The squares the piece on `from` moves to, and those on which it would capture a lone enemy.
fn reach(variant: &Variant, position: &crate::position::Position, from: Square) -> (Vec<Square>, Vec<Square>) {
    let destinations = |position: &crate::position::Position| -> Vec<Square> {
        let mut moves = Vec::new();
        movegen::piece_moves(&Standard, variant, position, from, &mut moves);
        moves.iter().map(|mv: &Move| mv.to).collect()
    };
    let mut moves = destinations(position);
    moves.sort();
    moves.dedup();
    let captures: Vec<Square> = variant
        .size
        .squares()
        .filter(|&sq| sq != from && position.board.get(sq).as_piece().is_none())
        .filter(|&sq| {
            let mut with_target = position.clone();
            with_target.board.set(sq, Cell::piece(Piece::new(TARGET, Color::Black)));
            destinations(&with_target).contains(&sq)
        })
        .collect();
    (moves, captures)
}

/// What a piece card shows: the piece (White's) and the squares it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDiagram {
    pub from: Square,
    /// Squares it may move to (without capturing) on the board as drawn.
    pub moves: Vec<Square>,
    /// Squares on which it would capture a lone enemy piece.
    pub captures: Vec<Square>,
    /// Pieces to hop over, placed for hoppers (a pao, a grasshopper), whose moves need them.
    pub screens: Vec<Square>,
    /// The diagram as an image's view: the piece, the screens, a dot on every move and a ring on
    /// every capture, each mark saying what it means.
    pub view: View,
}

/// The diagram of `def`: White's piece in the middle of an empty 9x9 board (a pawn-like piece on
/// its second row, where its initial and multi-steps show), with screens for hoppers.
pub fn piece_diagram(def: &PieceDef) -> Result<PieceDiagram, VariantError> {
    // A lone enemy for `def` to capture, with a symbol of its own.
    let symbol = if def.symbol.to_string() == "Z" { "Y" } else { "Z" };
    let target = PieceDef::new("diagram-target", "Target", symbol, "W");
    let is_hopper = def.betza.contains(['p', 'g']);
    // A hopper's screens are pawns, drawn as pawns are in every game.
    let screen_symbol = ["P", "X", "V"]
        .into_iter()
        .find(|s| def.symbol.to_string() != *s && symbol != *s)
        .unwrap_or("V");
    let screen = PieceDef::new("pawn", "Pawn", screen_symbol, "W");
    let empty_rank = SIZE.to_string();
    let start = format!("{} w - - 0 1", vec![empty_rank.as_str(); SIZE as usize].join("/"));
    let variant = Variant::compile(VariantDef {
        id: "diagram".into(),
        name: def.name.clone(),
        files: SIZE,
        ranks: SIZE,
        start,
        pieces: [def.clone(), target]
            .into_iter()
            .chain(is_hopper.then_some(screen))
            .map(PieceSpec::Inline)
            .collect(),
        castling: false,
        en_passant: false,
        initial_move_ranks: vec![2],
        promotion_choices: Vec::new(),
        draws: Default::default(),
        stalemate: Default::default(),
    })?;
    let middle = SIZE / 2;
    let from = Square::new(middle, if def.is_pawn { 1 } else { middle });

    let mut empty = variant.start_position();
    empty.board.set(from, Cell::piece(Piece::new(0, Color::White)));
    let (plain_moves, plain_captures) = reach(&variant, &empty, from);
    // A hopper gets a screen two squares off up, right and diagonally, on each of those lines it
    // hops along: a screen that opens no square beyond it would only mislead.
    let mut screens: Vec<Square> = [(0, 2), (2, 2), (2, 0)]
        .iter()
        .map(|&(df, dr)| Square::new(from.file() + df, from.rank() + dr))
        .filter(|&screen| {
            is_hopper && {
                let mut with_screen = empty.clone();
                with_screen
                    .board
                    .set(screen, Cell::piece(Piece::new(SCREEN, Color::White)));
                let (moves, captures) = reach(&variant, &with_screen, from);
                moves.iter().any(|square| !plain_moves.contains(square))
                    || captures.iter().any(|square| !plain_captures.contains(square))
            }
        })
        .collect();
    screens.sort();
    let mut position = empty;
    for &screen in &screens {
        position
            .board
            .set(screen, Cell::piece(Piece::new(SCREEN, Color::White)));
    }
    let (moves, captures) = reach(&variant, &position, from);
    let mut marks: Vec<Mark> = moves
        .iter()
        .map(|&square| Mark {
            square,
            kind: MarkKind::Dot(Tone::Highlight),
            meaning: "Dots: it moves there.".into(),
        })
        .collect();
    marks.extend(captures.iter().map(|&square| Mark {
        square,
        kind: MarkKind::Ring(Tone::Danger),
        meaning: "Rings: it captures there.".into(),
    }));
    marks.extend(screens.iter().map(|&square| Mark {
        square,
        kind: MarkKind::Tint(Tone::Neutral),
        meaning: "Tinted: a piece on its line to hop over (any piece, either side's, will do).".into(),
    }));
    let board = board_view(&position.board, marks, None, None, variant.fen(&position));
    // Not a game: the piece's id says what the image shows.
    let view = View::new(
        format!("piece:{}", def.id),
        Viewer::Spectator,
        piece_views(&variant),
        vec![board],
        Phase::Play,
        vec![Seat::First],
        None,
    );
    Ok(PieceDiagram {
        from,
        moves,
        captures,
        screens,
        view,
    })
}

/// Several pieces' diagrams as one view, a board each with its caption ("Giraffe (GI) · 8
/// squares"): the sheet a player gets back for a list.
pub fn sheet(pieces: &[(PieceDef, String)]) -> Result<View, VariantError> {
    let mut merged: Option<View> = None;
    for (def, caption) in pieces {
        let mut view = piece_diagram(def)?.view;
        let mut board = view.boards.remove(0);
        board.label = Some(caption.clone());
        let sheet = merged.get_or_insert_with(|| View {
            variant: "sheet".into(),
            boards: Vec::new(),
            pieces: Vec::new(),
            ..view.clone()
        });
        // The diagram's own pieces (the piece, a target) join the sheet's, and its cells are
        // renumbered to match.
        let offset = sheet.pieces.len();
        sheet.pieces.extend(view.pieces);
        for cell in &mut board.cells {
            if let crate::view::ViewCell::Piece { piece, .. } = cell {
                *piece += offset;
            }
        }
        sheet.boards.push(board);
    }
    Ok(merged.unwrap_or_else(|| View {
        variant: "sheet".into(),
        ..piece_diagram(&crate::catalogue::find("king").expect("the king is in the catalogue"))
            .expect("the king has a diagram")
            .view
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;

    fn diagram(id: &str) -> PieceDiagram {
        piece_diagram(&catalogue::find(id).unwrap()).unwrap()
    }

    fn squares(names: &str) -> Vec<Square> {
        let size = crate::geometry::BoardSize::new(SIZE, SIZE).unwrap();
        let mut out: Vec<Square> = names
            .split_whitespace()
            .map(|n| size.parse_square(n).unwrap())
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_knight_moves_and_captures_on_its_eight_squares() {
        let knight = diagram("knight");
        assert_eq!(knight.from, squares("e5")[0]);
        assert_eq!(knight.moves, squares("d3 f3 c4 g4 c6 g6 d7 f7"));
        assert_eq!(knight.captures, knight.moves);
        assert!(knight.screens.is_empty());
    }

    #[test]
    fn a_pawn_stands_on_its_second_row_to_show_its_steps() {
        let pawn = diagram("pawn");
        assert_eq!(pawn.moves, squares("e3 e4"));
        assert_eq!(pawn.captures, squares("d3 f3"));
        let berolina = diagram("ptt-berolina-pawn");
        assert_eq!(
            berolina.moves,
            squares("d3 f3 c4 g4 b5 h5"),
            "double and triple diagonal steps"
        );
        assert_eq!(berolina.captures, squares("e3"));
    }

    #[test]
    fn the_murray_lion_captures_next_to_it_and_leaps_two_away() {
        let lion = diagram("ptt-murray-lion");
        assert_eq!(lion.moves, squares("c3 e3 g3 c5 g5 c7 e7 g7"));
        assert_eq!(lion.captures.len(), 16);
        assert!(lion.captures.contains(&squares("d4")[0]) && !lion.moves.contains(&squares("d4")[0]));
    }

    #[test]
    fn hoppers_get_screens_to_hop_over() {
        let grasshopper = diagram("ptt-grasshopper");
        assert_eq!(grasshopper.screens, squares("e7 g5 g7"));
        assert_eq!(grasshopper.moves, squares("e8 h5 h8"));
        let pao = diagram("ptt-pao");
        // The pao hops along files and ranks only: no screen on its diagonal.
        assert_eq!(pao.screens, squares("e7 g5"));
        for screen in &pao.screens {
            let crate::view::ViewCell::Piece { piece, .. } = pao.view.board().cell(*screen) else {
                panic!("the screen on {screen} is a piece");
            };
            assert_eq!(&*pao.view.piece(piece).id, "pawn", "drawn as a pawn, as in any game");
        }
        assert!(pao.captures.contains(&squares("e9")[0]) && !pao.captures.contains(&squares("e6")[0]));
        assert!(pao.moves.contains(&squares("e6")[0]) && !pao.moves.contains(&squares("e8")[0]));
    }

    #[test]
    fn a_sheet_holds_each_piece_on_its_own_captioned_board() {
        let pieces: Vec<(PieceDef, String)> = ["knight", "ptt-grasshopper"]
            .iter()
            .map(|id| (catalogue::find(id).unwrap(), format!("{id} caption")))
            .collect();
        let sheet = sheet(&pieces).unwrap();
        assert_eq!(sheet.boards.len(), 2);
        assert_eq!(sheet.boards[1].label.as_deref(), Some("ptt-grasshopper caption"));
        let middle = squares("e5")[0];
        for (board, id) in sheet.boards.iter().zip(["knight", "ptt-grasshopper"]) {
            let crate::view::ViewCell::Piece { piece, .. } = board.cell(middle) else {
                panic!("{id} stands in the middle");
            };
            assert_eq!(&*sheet.piece(piece).id, id);
        }
    }

    #[test]
    fn every_catalogue_piece_has_a_diagram_with_somewhere_to_go() {
        for def in catalogue::all() {
            let diagram = piece_diagram(&def).unwrap_or_else(|e| panic!("{}: {e}", def.id));
            assert!(
                !diagram.moves.is_empty() || !diagram.captures.is_empty(),
                "{} goes nowhere",
                def.id
            );
            let marks = &diagram.view.board().marks;
            assert_eq!(
                marks.len(),
                diagram.moves.len() + diagram.captures.len() + diagram.screens.len()
            );
        }
    }
}
