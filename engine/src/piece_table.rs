//! A variant's pieces, compiled: what FEN, notation and the move generator look pieces up in.

use crate::attack_index::AttackIndex;
use crate::betza::BetzaError;
use crate::piece::{Color, Kind, MAX_KINDS, PieceDef, PieceType, Symbol};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PieceTableError {
    #[error("piece {id}: {source}")]
    Betza { id: String, source: BetzaError },
    #[error("two pieces use the symbol {0}")]
    DuplicateSymbol(Symbol),
    #[error("two pieces have the id \"{0}\"")]
    DuplicateId(String),
    #[error("a variant may have at most {MAX_KINDS} piece types")]
    TooManyPieces,
}

/// The pieces of a variant, by kind (their index), with their symbols and royalty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceTable {
    pieces: Vec<PieceType>,
    /// Per colour, bit `k` set when kind `k` is royal for that colour.
    royal: [u64; 2],
    /// Bit `k` set when kind `k` cannot be captured.
    uncapturable: u64,
    /// Per colour, the capturing moves grouped for the attack test.
    attacks: [AttackIndex; 2],
}

impl PieceTable {
    pub fn new(defs: Vec<PieceDef>) -> Result<PieceTable, PieceTableError> {
        if defs.len() > MAX_KINDS {
            return Err(PieceTableError::TooManyPieces);
        }
        let mut pieces: Vec<PieceType> = Vec::with_capacity(defs.len());
        let mut royal = [0u64; 2];
        let mut uncapturable = 0u64;
        for (kind, def) in defs.into_iter().enumerate() {
            if pieces.iter().any(|p| p.def.symbol == def.symbol) {
                return Err(PieceTableError::DuplicateSymbol(def.symbol));
            }
            if pieces.iter().any(|p| p.def.id == def.id) {
                return Err(PieceTableError::DuplicateId(def.id));
            }
            for color in Color::BOTH {
                if def.royal.applies_to(color) {
                    royal[color.index()] |= 1 << kind;
                }
            }
            if def.is_uncapturable {
                uncapturable |= 1 << kind;
            }
            let compiled = def.compile().map_err(|source| PieceTableError::Betza {
                id: def.id.clone(),
                source,
            })?;
            pieces.push(compiled);
        }
        let attacks = Color::BOTH.map(|color| {
            AttackIndex::new(
                pieces
                    .iter()
                    .enumerate()
                    .map(|(kind, p)| (kind as Kind, p.rules(color))),
            )
        });
        Ok(PieceTable {
            pieces,
            royal,
            uncapturable,
            attacks,
        })
    }

    #[inline]
    pub fn piece(&self, kind: Kind) -> &PieceType {
        &self.pieces[kind as usize]
    }

    /// The piece of a kind that may have come from outside (a stored action): `None` rather than
    /// a panic for a kind this table does not have.
    pub fn get(&self, kind: Kind) -> Option<&PieceType> {
        self.pieces.get(kind as usize)
    }

    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Every kind with its piece.
    pub fn iter(&self) -> impl Iterator<Item = (Kind, &PieceType)> {
        self.pieces.iter().enumerate().map(|(kind, p)| (kind as Kind, p))
    }

    /// `color`'s capturing moves, grouped for the attack test.
    #[inline]
    pub fn attacks(&self, color: Color) -> &AttackIndex {
        &self.attacks[color.index()]
    }

    #[inline]
    pub fn is_royal(&self, kind: Kind, color: Color) -> bool {
        self.royal[color.index()] & (1 << kind) != 0
    }

    #[inline]
    pub fn is_uncapturable(&self, kind: Kind) -> bool {
        self.uncapturable & (1 << kind) != 0
    }

    /// Whether `color` has any royal type at all (a side without one is never in check).
    pub fn has_royal_type(&self, color: Color) -> bool {
        self.royal[color.index()] != 0
    }

    pub fn by_symbol(&self, symbol: Symbol) -> Option<Kind> {
        self.pieces
            .iter()
            .position(|p| p.def.symbol == symbol)
            .map(|k| k as Kind)
    }

    pub fn by_id(&self, id: &str) -> Option<Kind> {
        self.pieces.iter().position(|p| p.def.id == id).map(|k| k as Kind)
    }

    pub fn symbol(&self, kind: Kind) -> Symbol {
        self.piece(kind).def.symbol
    }

    /// The ids of the pieces in kind order: what stored boards' kinds mean.
    pub fn ids(&self) -> Vec<String> {
        self.pieces.iter().map(|p| p.def.id.clone()).collect()
    }

    pub fn defs(&self) -> impl Iterator<Item = &PieceDef> {
        self.pieces.iter().map(|p| &p.def)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Royalty;

    #[test]
    fn royalty_is_per_type_and_colour_and_any_number_of_types_may_be_royal() {
        let mut king = PieceDef::new("k", "King", "K", "K");
        king.royal = Royalty::Only(Color::Black);
        let royal_knight = PieceDef::new("rn", "Royal knight", "RN", "N").royal();
        let table = PieceTable::new(vec![king, royal_knight, PieceDef::new("q", "Queen", "Q", "Q")]).unwrap();
        assert!(table.is_royal(0, Color::Black) && !table.is_royal(0, Color::White));
        assert!(table.is_royal(1, Color::White) && table.is_royal(1, Color::Black));
        assert!(!table.is_royal(2, Color::White));
        assert_eq!(table.by_symbol(Symbol::new("RN").unwrap()), Some(1));
        assert_eq!(table.by_id("q"), Some(2));
        assert!(table.get(9).is_none());
    }

    #[test]
    fn symbols_and_ids_must_be_unique() {
        let a = PieceDef::new("a", "A", "N", "N");
        let b = PieceDef::new("b", "B", "N", "W");
        assert!(matches!(
            PieceTable::new(vec![a.clone(), b]),
            Err(PieceTableError::DuplicateSymbol(_))
        ));
        let c = PieceDef::new("a", "C", "C", "W");
        assert!(matches!(
            PieceTable::new(vec![a, c]),
            Err(PieceTableError::DuplicateId(_))
        ));
    }
}
