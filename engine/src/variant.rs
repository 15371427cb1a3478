//! Chess-like variants as data: the TOML format of docs/variant-files.md, and its compiled form.

use crate::betza::BetzaError;
use crate::catalogue;
use crate::geometry::BoardSize;
use crate::piece::{Kind, MAX_KINDS, PieceDef, PieceType};
use crate::position::{FenError, Position};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
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
    /// The FIDE dead positions: king against king with at most a knight or bishops of one colour.
    pub insufficient_material: bool,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            repetition: true,
            fifty_moves: true,
            insufficient_material: false,
        }
    }
}

/// A piece in a variant file: a catalogue entry (optionally with another letter) or a full
/// definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PieceSpec {
    Catalogue {
        catalogue: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        letter: Option<char>,
    },
    Inline(PieceDef),
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
    /// Letters of the pieces a promoting piece may become.
    #[serde(default)]
    pub promotion_choices: Vec<char>,
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
    #[error("piece {id}: {source}")]
    Betza { id: String, source: BetzaError },
    #[error("two pieces use the letter {0}")]
    DuplicateLetter(char),
    #[error("piece letters must be upper-case ASCII letters, not '{0}'")]
    BadLetter(char),
    #[error("a variant may have at most {MAX_KINDS} piece types")]
    TooManyPieces,
    #[error("promotion choice {0} is not a piece of this variant")]
    UnknownPromotionChoice(char),
    #[error("the start position: {0}")]
    Start(FenError),
}

/// A compiled variant: the definition, its pieces with parsed movement, and its start position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "VariantDef", into = "VariantDef")]
pub struct Variant {
    pub def: VariantDef,
    pub size: BoardSize,
    pub pieces: Vec<PieceType>,
    pub royal_kind: Option<Kind>,
    pub promotion_kinds: Vec<Kind>,
}

impl From<Variant> for VariantDef {
    fn from(variant: Variant) -> VariantDef {
        variant.def
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
        if def.pieces.len() > MAX_KINDS {
            return Err(VariantError::TooManyPieces);
        }
        let mut pieces: Vec<PieceType> = Vec::new();
        for spec in &def.pieces {
            let piece = match spec {
                PieceSpec::Inline(piece) => piece.clone(),
                PieceSpec::Catalogue { catalogue: id, letter } => {
                    let mut piece =
                        catalogue::find(id).ok_or_else(|| VariantError::UnknownCataloguePiece(id.clone()))?;
                    if let Some(letter) = letter {
                        piece.letter = *letter;
                    }
                    piece
                }
            };
            if !piece.letter.is_ascii_uppercase() {
                return Err(VariantError::BadLetter(piece.letter));
            }
            if pieces.iter().any(|p| p.def.letter == piece.letter) {
                return Err(VariantError::DuplicateLetter(piece.letter));
            }
            let compiled = piece.compile().map_err(|source| VariantError::Betza {
                id: piece.id.clone(),
                source,
            })?;
            pieces.push(compiled);
        }
        let royal_kind = pieces.iter().position(|p| p.def.is_royal).map(|k| k as Kind);
        let promotion_kinds = def
            .promotion_choices
            .iter()
            .map(|&letter| {
                pieces
                    .iter()
                    .position(|p| p.def.letter == letter.to_ascii_uppercase())
                    .map(|k| k as Kind)
                    .ok_or(VariantError::UnknownPromotionChoice(letter))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let variant = Variant {
            def,
            size,
            pieces,
            royal_kind,
            promotion_kinds,
        };
        Position::from_fen(&variant, &variant.def.start).map_err(VariantError::Start)?;
        Ok(variant)
    }

    /// FIDE chess, from its own variant file.
    pub fn fide() -> Arc<Variant> {
        static FIDE: std::sync::OnceLock<Arc<Variant>> = std::sync::OnceLock::new();
        FIDE.get_or_init(|| {
            Arc::new(
                Variant::from_toml(include_str!("../variants/chess.toml")).expect("the built-in chess file is valid"),
            )
        })
        .clone()
    }

    pub fn start_position(&self) -> Position {
        Position::from_fen(self, &self.def.start).expect("checked when the variant was compiled")
    }

    pub fn piece(&self, kind: Kind) -> &PieceType {
        &self.pieces[kind as usize]
    }

    pub fn kind_by_letter(&self, letter: char) -> Option<Kind> {
        let upper = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.def.letter == upper)
            .map(|k| k as Kind)
    }

    pub fn kind_by_id(&self, id: &str) -> Option<Kind> {
        self.pieces.iter().position(|p| p.def.id == id).map(|k| k as Kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fide_file_compiles_and_survives_serde() {
        let fide = Variant::fide();
        assert_eq!(fide.pieces.len(), 6);
        assert_eq!(fide.royal_kind, fide.kind_by_letter('K'));
        let json = serde_json::to_string(&*fide).unwrap();
        let back: Variant = serde_json::from_str(&json).unwrap();
        assert_eq!(back, *fide);
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let base = include_str!("../variants/chess.toml");
        let cases = [
            (
                base.replace("{ catalogue = \"king\" }", "{ catalogue = \"king\", letter = \"Kx\" }"),
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
            pieces = [{ catalogue = "king" }, { id = "x", name = "X", letter = "X", betza = "fWq" }]
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
        assert_eq!(crate::movegen::perft(&variant, &variant.start_position(), 1), 28);
    }
}
