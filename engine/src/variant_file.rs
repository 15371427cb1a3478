//! Variant files: the TOML format of docs/variant-files.md that describes a chess-like game as
//! data, and its compiled form ([`Variant`]). The games themselves are in [`crate::variants`].

use crate::attack_map::AttackMap;
use crate::catalogue;
use crate::fen::{self, FenError};
use crate::geometry::{BoardSize, Square};
use crate::move_map::MoveMap;
use crate::piece::{Color, Kind, PieceDef, PieceType, Royalty, Symbol};
use crate::piece_table::{PieceTable, PieceTableError};
use crate::position::Position;
use crate::rays::Rays;
use crate::view::PieceView;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What a stalemated side gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StalemateRule {
    #[default]
    Draw,
    Loss,
}

/// Which automatic draws apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DrawRules {
    pub repetition: bool,
    pub fifty_moves: bool,
    /// The FIDE dead positions: king against king with at most one minor piece (a knight, or
    /// Knights are God's (1,3) knight, or a bishop), or with bishops all on one square colour.
    pub insufficient_material: bool,
    /// Whether bishops all on one square colour are dead material. Not in Circe: a captured
    /// bishop is reborn on either colour (c1 or f1), so they can still mate. (Written only when
    /// false, so games stored before it read, and are stored, as they were.)
    #[serde(skip_serializing_if = "is_true")]
    pub same_colour_bishops_are_dead: bool,
}

fn is_true(value: &bool) -> bool {
    *value
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            repetition: true,
            fifty_moves: true,
            insufficient_material: false,
            same_colour_bishops_are_dead: true,
        }
    }
}

/// A piece in a variant file: a catalogue entry (optionally with another symbol or royalty) or
/// a full definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PieceSpec {
    Catalogue {
        catalogue: String,
        #[serde(default, alias = "letter", skip_serializing_if = "Option::is_none")]
        symbol: Option<Symbol>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        royal: Option<Royalty>,
    },
    Inline(PieceDef),
}

impl PieceSpec {
    /// The definition this entry stands for, catalogue entries looked up.
    pub fn resolve(&self) -> Result<PieceDef, VariantError> {
        match self {
            PieceSpec::Inline(piece) => Ok(piece.clone()),
            PieceSpec::Catalogue {
                catalogue: id,
                symbol,
                royal,
            } => {
                let mut piece = catalogue::find(id).ok_or_else(|| VariantError::UnknownCataloguePiece(id.clone()))?;
                if let Some(symbol) = symbol {
                    piece.symbol = *symbol;
                }
                if let Some(royal) = royal {
                    piece.royal = *royal;
                }
                Ok(piece)
            }
        }
    }
}

/// A variant file, as written (docs/variant-files.md).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantDef {
    pub id: String,
    pub name: String,
    #[serde(default = "eight")]
    pub files: u8,
    #[serde(default = "eight")]
    pub ranks: u8,
    /// The start position in Arbiter's FEN (docs/fen.md).
    pub start: String,
    pub pieces: Vec<PieceSpec>,
    #[serde(default)]
    pub castling: bool,
    #[serde(default)]
    pub en_passant: bool,
    /// Ranks (counted from the owner's side) on which `i` moves such as a pawn's double step are
    /// allowed.
    #[serde(default = "second_rank")]
    pub initial_move_ranks: Vec<u8>,
    /// Symbols of the pieces a promoting piece may become.
    #[serde(default)]
    pub promotion_choices: Vec<Symbol>,
    #[serde(default)]
    pub draws: DrawRules,
    #[serde(default)]
    pub stalemate: StalemateRule,
}

fn eight() -> u8 {
    8
}
fn second_rank() -> Vec<u8> {
    vec![2]
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    #[error("the variant file is not valid TOML for a variant: {0}")]
    Toml(String),
    #[error("the board must be between 1x1 and 16x16, not {files}x{ranks}")]
    BoardSize { files: u8, ranks: u8 },
    #[error("there is no catalogue piece called \"{0}\"")]
    UnknownCataloguePiece(String),
    #[error("{0}")]
    Pieces(#[from] PieceTableError),
    #[error("promotion choice {0} is not a piece of this variant")]
    UnknownPromotionChoice(Symbol),
    #[error("the start position: {0}")]
    Start(FenError),
}

/// The rank of `square` counted from `color`'s side, starting at 1.
pub fn relative_rank(size: BoardSize, color: Color, square: Square) -> u8 {
    match color {
        Color::White => square.rank() + 1,
        Color::Black => size.ranks - square.rank(),
    }
}

/// A compiled variant: the definition, its pieces with parsed movement, and its start position.
///
/// Stored (with a game of a variant that is not built in) as its definition with every piece
/// written out in full, so a later change to the catalogue cannot change a game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "VariantDef", into = "VariantDef")]
pub struct Variant {
    pub def: VariantDef,
    pub size: BoardSize,
    pub table: PieceTable,
    pub promotion_kinds: Vec<Kind>,
    /// Every square's squares along each step the pieces take (see [`Rays`]).
    pub rays: Rays,
    /// Where each side's leaps and lines could attack each square from (see [`AttackMap`]).
    pub attack_map: AttackMap,
    /// Where each piece's rules could take it from each square (see [`MoveMap`]).
    pub move_map: MoveMap,
    /// The pieces as views name them, in kind order (made once: every view of a game lists them).
    pub piece_views: Vec<PieceView>,
}

impl From<Variant> for VariantDef {
    fn from(variant: Variant) -> VariantDef {
        variant.resolved_def()
    }
}

impl TryFrom<VariantDef> for Variant {
    type Error = VariantError;
    fn try_from(def: VariantDef) -> Result<Variant, VariantError> {
        Variant::compile(def)
    }
}

impl Variant {
    pub fn from_toml(text: &str) -> Result<Variant, VariantError> {
        let def: VariantDef = toml::from_str(text).map_err(|e| VariantError::Toml(e.to_string()))?;
        Variant::compile(def)
    }

    pub fn compile(def: VariantDef) -> Result<Variant, VariantError> {
        let size = BoardSize::new(def.files, def.ranks).ok_or(VariantError::BoardSize {
            files: def.files,
            ranks: def.ranks,
        })?;
        let pieces = def
            .pieces
            .iter()
            .map(PieceSpec::resolve)
            .collect::<Result<Vec<_>, _>>()?;
        let table = PieceTable::new(pieces)?;
        let promotion_kinds = def
            .promotion_choices
            .iter()
            .map(|&symbol| {
                table
                    .by_symbol(symbol)
                    .ok_or(VariantError::UnknownPromotionChoice(symbol))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let steps = table
            .iter()
            .flat_map(|(_, piece)| Color::BOTH.into_iter().flat_map(move |color| piece.rules(color)))
            .map(|rule| rule.step)
            .collect::<Vec<_>>();
        let rays = Rays::new(size, steps);
        let move_map = MoveMap::new(&table, &rays, |color, square| {
            def.initial_move_ranks.contains(&relative_rank(size, color, square))
        });
        let variant = Variant {
            piece_views: table.defs().map(PieceView::of).collect(),
            move_map,
            attack_map: AttackMap::new(Color::BOTH.map(|color| table.attacks(color)), &rays),
            rays,
            def,
            size,
            table,
            promotion_kinds,
        };
        variant
            .position_from_fen(&variant.def.start)
            .map_err(VariantError::Start)?;
        Ok(variant)
    }

    /// The definition with every catalogue piece written out in full.
    pub fn resolved_def(&self) -> VariantDef {
        VariantDef {
            pieces: self.table.defs().cloned().map(PieceSpec::Inline).collect(),
            ..self.def.clone()
        }
    }

    pub fn start_position(&self) -> Position {
        self.position_from_fen(&self.def.start)
            .expect("checked when the variant was compiled")
    }

    /// Reads a FEN of this variant (docs/fen.md).
    pub fn position_from_fen(&self, fen: &str) -> Result<Position, FenError> {
        fen::parse_position(&self.table, self.size, self.def.castling, fen)
    }

    /// Writes a position of this variant as FEN.
    pub fn fen(&self, position: &Position) -> String {
        fen::format_position(&self.table, position)
    }

    #[inline]
    pub fn piece(&self, kind: Kind) -> &PieceType {
        self.table.piece(kind)
    }

    #[inline]
    pub fn is_royal(&self, kind: Kind, color: Color) -> bool {
        self.table.is_royal(kind, color)
    }

    pub fn kind_by_symbol(&self, symbol: Symbol) -> Option<Kind> {
        self.table.by_symbol(symbol)
    }

    pub fn kind_by_id(&self, id: &str) -> Option<Kind> {
        self.table.by_id(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fide_file_compiles_and_survives_serde() {
        let fide = crate::variants::fide();
        assert_eq!(fide.table.len(), 6);
        let king = fide.kind_by_symbol(Symbol::new("K").unwrap()).unwrap();
        assert!(fide.is_royal(king, Color::White) && fide.is_royal(king, Color::Black));
        let json = serde_json::to_string(&*fide).unwrap();
        let back: Variant = serde_json::from_str(&json).unwrap();
        assert_eq!(back.table, fide.table);
        assert_eq!(back.resolved_def(), fide.resolved_def());
        assert!(
            !json.contains("catalogue"),
            "stored variants spell their pieces out: {json}"
        );
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let base = include_str!("../variants/chess.toml");
        let cases = [
            (
                base.replace("{ catalogue = \"king\" }", "{ catalogue = \"king\", letter = \"K2\" }"),
                "TOML",
            ),
            (
                base.replace("catalogue = \"queen\"", "catalogue = \"empress\""),
                "empress",
            ),
            (base.replace("files = 8", "files = 17"), "16x16"),
            (
                base.replace("promotion_choices = [\"Q\"", "promotion_choices = [\"X\""),
                "promotion choice X",
            ),
            (base.replace("rnbqkbnr/", "rnbqkbnrr/"), "start position"),
        ];
        for (text, expected) in cases {
            let err = Variant::from_toml(&text).unwrap_err().to_string();
            assert!(err.contains(expected), "{err} should mention {expected}");
        }
        let inline = r#"
            id = "t"
            name = "t"
            start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
            pieces = [{ catalogue = "king" }, { id = "x", name = "X", symbol = "X", betza = "fWq" }]
        "#;
        let err = Variant::from_toml(inline).unwrap_err().to_string();
        assert!(err.contains("position 2"), "{err}");
    }

    #[test]
    fn the_documented_example_file_compiles() {
        let doc = include_str!("../../docs/variant-files.md");
        let start = doc.find("```toml").expect("the page has an example") + "```toml".len();
        let end = start + doc[start..].find("```").expect("the example ends");
        let variant = Variant::from_toml(&doc[start..end]).unwrap();
        assert_eq!((variant.size.files, variant.size.ranks), (10, 8));
        assert_eq!(variant.promotion_kinds.len(), 6);
        assert_eq!(
            crate::movegen::perft(&crate::rules::Standard, &variant, &variant.start_position(), 1),
            28
        );
    }
}
