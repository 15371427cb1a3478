//! How each kind of piece is drawn. The six FIDE pieces (and the pieces that move exactly like
//! them in their own game) have drawn art from assets/pieces; every other catalogue piece is a
//! token showing the symbol a player types (`CN`, `PA`), which no other token piece of the
//! catalogue shares (a unit test checks it), and the image lists those symbols in a legend.
//! Pawn-like tokens are smaller discs, royal ones crowned.

use arbiter_engine::catalogue;
use arbiter_engine::view::PieceView;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The drawn pieces, each a 100x100 SVG fragment (assets/pieces/README.md gives the format).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Art {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Art {
    pub const ALL: [Art; 6] = [Art::King, Art::Queen, Art::Rook, Art::Bishop, Art::Knight, Art::Pawn];

    pub fn id(self) -> &'static str {
        match self {
            Art::King => "king",
            Art::Queen => "queen",
            Art::Rook => "rook",
            Art::Bishop => "bishop",
            Art::Knight => "knight",
            Art::Pawn => "pawn",
        }
    }

    /// The drawing's elements, without the file's root `<svg>` element.
    pub fn fragment(self) -> &'static str {
        svg_inner(match self {
            Art::King => include_str!("../../assets/pieces/king.svg"),
            Art::Queen => include_str!("../../assets/pieces/queen.svg"),
            Art::Rook => include_str!("../../assets/pieces/rook.svg"),
            Art::Bishop => include_str!("../../assets/pieces/bishop.svg"),
            Art::Knight => include_str!("../../assets/pieces/knight.svg"),
            Art::Pawn => include_str!("../../assets/pieces/pawn.svg"),
        })
    }
}

/// The statue of Blockade Chess and Garden of Statues.
pub fn statue_fragment() -> &'static str {
    svg_inner(include_str!("../../assets/pieces/statue.svg"))
}

/// What lies between a file's root `<svg ...>` tag and its `</svg>`.
fn svg_inner(file: &'static str) -> &'static str {
    let start = file
        .find("<svg")
        .and_then(|at| file[at..].find('>').map(|end| at + end + 1));
    let end = file.rfind("</svg>");
    match (start, end) {
        (Some(start), Some(end)) if start <= end => file[start..end].trim(),
        _ => "",
    }
}

/// The outline of a token, telling families apart before the label is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenShape {
    /// A royal piece: a disc with a crown.
    Royal,
    /// A pawn-like piece: a smaller disc.
    Pawn,
    /// Any other piece: a full disc.
    Piece,
}

/// How one kind of piece is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Picture {
    Art(Art),
    Token {
        shape: TokenShape,
        label: String,
        /// The piece's name, for the legend.
        name: String,
    },
}

/// Catalogue pieces drawn with FIDE art: they move as the FIDE piece does in their own game.
const ART_PIECES: [(&str, Art); 15] = [
    ("king", Art::King),
    ("queen", Art::Queen),
    ("rook", Art::Rook),
    ("bishop", Art::Bishop),
    ("knight", Art::Knight),
    ("pawn", Art::Pawn),
    ("ptt-king", Art::King),
    ("ptt-queen", Art::Queen),
    ("ptt-rook", Art::Rook),
    ("ptt-bishop", Art::Bishop),
    ("ptt-knight", Art::Knight),
    ("ptt-pawn", Art::Pawn),
    ("blockade-queen", Art::Queen),
    ("blockade-rook", Art::Rook),
    ("blockade-bishop", Art::Bishop),
];

fn catalogue_pictures() -> &'static HashMap<String, Picture> {
    static PICTURES: OnceLock<HashMap<String, Picture>> = OnceLock::new();
    PICTURES.get_or_init(|| {
        catalogue::all()
            .into_iter()
            .map(|def| {
                let picture = match ART_PIECES.iter().find(|(id, _)| *id == def.id) {
                    Some(&(_, art)) => Picture::Art(art),
                    None => Picture::Token {
                        shape: shape_of(def.royal != arbiter_engine::piece::Royalty::None, def.is_pawn),
                        label: def.symbol.to_string(),
                        name: def.name.clone(),
                    },
                };
                (def.id, picture)
            })
            .collect()
    })
}

fn shape_of(is_royal: bool, is_pawn: bool) -> TokenShape {
    if is_royal {
        TokenShape::Royal
    } else if is_pawn {
        TokenShape::Pawn
    } else {
        TokenShape::Piece
    }
}

/// How to draw a piece: catalogue pieces as the catalogue says. A piece outside the catalogue
/// (from a variant file, or a player's own) that is a drawn catalogue piece under another id (a
/// Queen listed for Patch: same name, moves and marks) is drawn as that piece is everywhere else;
/// any other is a token with its symbol, crowned when royal and smaller when pawn-like.
pub fn picture(piece: &PieceView) -> Picture {
    if let Some(picture) = catalogue_pictures().get(&*piece.id) {
        return picture.clone();
    }
    match drawn_as(piece) {
        Some(art) => Picture::Art(art),
        None => Picture::Token {
            shape: shape_of(piece.is_royal, piece.is_pawn),
            label: piece.symbol.to_string(),
            name: piece.name.to_string(),
        },
    }
}

/// The art of the drawn catalogue piece `piece` is a copy of, if any.
fn drawn_as(piece: &PieceView) -> Option<Art> {
    static DRAWN: OnceLock<Vec<(PieceView, Art)>> = OnceLock::new();
    let drawn = DRAWN.get_or_init(|| {
        catalogue::all()
            .into_iter()
            .filter_map(|def| {
                let &(_, art) = ART_PIECES.iter().find(|(id, _)| *id == def.id)?;
                Some((PieceView::of(&def), art))
            })
            .collect()
    });
    drawn
        .iter()
        .find(|(def, _)| {
            def.name.eq_ignore_ascii_case(&piece.name)
                && def.betza == piece.betza
                && def.is_royal == piece.is_royal
                && def.is_pawn == piece.is_pawn
        })
        .map(|&(_, art)| art)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_catalogue_piece_has_a_picture_that_no_other_kind_shares() {
        let mut tokens = HashSet::new();
        let mut arts = HashMap::new();
        for def in catalogue::all() {
            let view = PieceView::of(&def);
            match picture(&view) {
                Picture::Art(art) => {
                    // Only pieces that move like the FIDE piece share its art.
                    let fide = arts.entry(art).or_insert_with(|| def.betza.clone());
                    let same = *fide == def.betza || def.id.starts_with("blockade-") || art == Art::Pawn;
                    assert!(same, "{} borrows the {art:?} art but moves differently", def.id);
                }
                Picture::Token { shape, label, .. } => {
                    assert!(
                        tokens.insert(label.clone()),
                        "{}: the label {label} is used twice",
                        def.id
                    );
                    assert!(!label.is_empty() && label.len() <= 2, "{}: {label}", def.id);
                    assert_eq!(shape == TokenShape::Royal, view.is_royal, "{}", def.id);
                }
            }
        }
    }

    #[test]
    fn art_fragments_are_the_inner_elements_of_their_files() {
        for art in Art::ALL {
            let fragment = art.fragment();
            assert!(fragment.starts_with('<') && !fragment.contains("<svg") && !fragment.contains("</svg>"));
        }
        assert!(statue_fragment().contains("#8a8a8a"));
    }
}
