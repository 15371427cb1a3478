//! Reads variant definitions written for Fairy-Stockfish (its `variants.ini` format) into Arbiter's
//! variant format, so that reference data given in that form runs as it is.
//!
//! Only the settings that describe chess-like games built from Betza pieces are understood; any
//! other setting is an error rather than something silently ignored.

use crate::piece::{PieceDef, Promotion, Symbol};
use crate::variant_file::{PieceSpec, StalemateRule, Variant, VariantDef, VariantError};
use std::collections::BTreeMap;

/// Settings of one section, parents' settings first.
type Settings = BTreeMap<String, String>;

/// Chess's pieces, by the letter Fairy-Stockfish writes them with and their catalogue id (which
/// is also the name of the setting that changes them).
const CHESS_PIECES: [(char, &str); 6] = [
    ('p', "pawn"),
    ('n', "knight"),
    ('b', "bishop"),
    ('r', "rook"),
    ('q', "queen"),
    ('k', "king"),
];

fn bad(message: impl Into<String>) -> VariantError {
    VariantError::Toml(message.into())
}

fn sections(text: &str) -> Vec<(String, Option<String>, Settings)> {
    let mut out: Vec<(String, Option<String>, Settings)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, parent) = match header.split_once(':') {
                Some((name, parent)) => (name.trim().to_string(), Some(parent.trim().to_string())),
                None => (header.trim().to_string(), None),
            };
            out.push((name, parent, Settings::new()));
        } else if let (Some((key, value)), Some(section)) = (line.split_once('='), out.last_mut()) {
            section.2.insert(key.trim().to_string(), value.trim().to_string());
        }
    }
    out
}

fn resolve(all: &[(String, Option<String>, Settings)], name: &str, depth: usize) -> Result<Settings, VariantError> {
    if depth > 8 {
        return Err(bad(format!("the parents of [{name}] form a loop")));
    }
    let (_, parent, own) = all
        .iter()
        .find(|(n, _, _)| n == name)
        .ok_or_else(|| bad(format!("no section [{name}] in the file")))?;
    let mut settings = match parent {
        Some(parent) => resolve(all, parent, depth + 1)?,
        None => Settings::new(),
    };
    settings.extend(own.clone());
    Ok(settings)
}

fn rank_region(value: &str, ranks: u8) -> Result<Vec<u8>, VariantError> {
    // `*2` means every square of rank 2; several may be listed.
    value
        .split_whitespace()
        .map(|token| {
            token
                .strip_prefix('*')
                .and_then(|r| r.parse::<u8>().ok())
                .filter(|r| (1..=ranks).contains(r))
                .ok_or_else(|| bad(format!("unsupported region \"{token}\"")))
        })
        .collect()
}

/// The board's files and ranks: 8 by 8 unless `maxFile` (a number or a file's letter) and
/// `maxRank` say otherwise.
fn board_size(settings: &Settings) -> Result<(u8, u8), VariantError> {
    let ranks: u8 = settings
        .get("maxRank")
        .map_or(Ok(8), |v| v.parse().map_err(|_| bad(format!("bad maxRank {v}"))))?;
    let files: u8 = match settings.get("maxFile") {
        None => 8,
        Some(v) if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() => v.as_bytes()[0] - b'a' + 1,
        Some(v) => v.parse().map_err(|_| bad(format!("bad maxFile {v}")))?,
    };
    Ok((files, ranks))
}

/// The letter a piece setting `key` writes its piece with (the first character of `text`), and
/// the symbol it makes.
fn letter(key: &str, text: &str) -> Result<(char, Symbol), VariantError> {
    let letter = text
        .chars()
        .next()
        .ok_or_else(|| bad(format!("{key} needs a letter")))?;
    let symbol = Symbol::from_char(letter).ok_or_else(|| bad(format!("{key}: '{letter}' is not a letter")))?;
    Ok((letter, symbol))
}

/// Converts the last section of a Fairy-Stockfish variant file (with its parents from the same
/// file) into a compiled variant.
pub fn parse(text: &str) -> Result<Variant, VariantError> {
    let all = sections(text);
    let (name, _, _) = all.last().ok_or_else(|| bad("the file has no [section]"))?;
    let settings = resolve(&all, name, 0)?;
    let (files, ranks) = board_size(&settings)?;
    let mut draft = Draft::chess();
    // In key order, as the map keeps them: a later setting may undo an earlier one's piece.
    for (key, value) in &settings {
        draft.apply(key, value, ranks)?;
    }
    Variant::compile(draft.into_def(name, files, ranks)?)
}

/// A variant as the settings read so far make it: Fairy-Stockfish starts from chess, and each
/// setting changes one part of it.
struct Draft {
    /// The pieces by the letter they are written with; a setting for a letter replaces its piece.
    pieces: Vec<(char, PieceDef)>,
    castling: bool,
    en_passant: bool,
    double_step: bool,
    initial_move_ranks: Vec<u8>,
    /// `None` until a setting names them: the default depends on whether a pawn is left.
    promotion_choices: Option<Vec<Symbol>>,
    stalemate: StalemateRule,
    start: Option<String>,
}

impl Draft {
    fn chess() -> Draft {
        let pieces = CHESS_PIECES
            .iter()
            .map(|&(letter, id)| {
                (
                    letter,
                    crate::catalogue::find(id).expect("chess's pieces are in the catalogue"),
                )
            })
            .collect();
        Draft {
            pieces,
            castling: true,
            en_passant: true,
            double_step: true,
            initial_move_ranks: vec![2],
            promotion_choices: None,
            stalemate: StalemateRule::Draw,
            start: None,
        }
    }

    fn apply(&mut self, key: &str, value: &str, ranks: u8) -> Result<(), VariantError> {
        if let Some(&(_, id)) = CHESS_PIECES.iter().find(|(_, id)| *id == key) {
            return self.change_chess_piece(id, value);
        }
        if let Some(number) = key.strip_prefix("customPiece") {
            return self.add_custom_piece(key, number, value);
        }
        match key {
            "maxRank" | "maxFile" | "pieceToCharTable" => {}
            "startFen" => self.start = Some(value.to_string()),
            "castling" => self.castling = value == "true",
            "doubleStep" => self.double_step = value == "true",
            "doubleStepRegionWhite" => self.initial_move_ranks = rank_region(value, ranks)?,
            "doubleStepRegionBlack" => {
                let black = rank_region(value, ranks)?;
                let relative: Vec<u8> = black.iter().map(|r| ranks + 1 - r).collect();
                if relative != self.initial_move_ranks {
                    return Err(bad("double-step regions that differ by colour are not supported"));
                }
            }
            "enPassantRegion" | "enPassantRegionWhite" | "enPassantRegionBlack" => self.en_passant = value != "-",
            "promotionPieceTypes" => self.promotion_choices = Some(promotion_pieces(value)?),
            "promotionRegionWhite" | "promotionRegionBlack" if value == "-" => {
                self.promotion_choices = Some(Vec::new())
            }
            "stalemateValue" => {
                self.stalemate = match value {
                    "loss" => StalemateRule::Loss,
                    "draw" => StalemateRule::Draw,
                    _ => return Err(bad(format!("unsupported stalemateValue {value}"))),
                }
            }
            _ => return Err(bad(format!("the setting {key} is not supported"))),
        }
        Ok(())
    }

    /// `pawn = p`, `king = k:nN`, `queen = -`: one of chess's pieces (`id`, the setting's name)
    /// under another letter, with other moves, or gone.
    fn change_chess_piece(&mut self, id: &str, value: &str) -> Result<(), VariantError> {
        self.pieces.retain(|(_, p)| p.id != id);
        if value == "-" {
            return Ok(());
        }
        let (letter_text, betza) = match value.split_once(':') {
            Some((letter, betza)) => (letter, Some(betza)),
            None => (value, None),
        };
        let (letter, symbol) = letter(id, letter_text)?;
        let mut def = crate::catalogue::find(id).expect("chess's pieces are in the catalogue");
        if let Some(betza) = betza {
            def.betza = betza.to_string();
            def.id = format!("{id}-{betza}");
        }
        def.symbol = symbol;
        self.put(letter, def);
        Ok(())
    }

    /// `customPiece1 = a:nN`: a piece of the variant's own, by its letter and its moves.
    fn add_custom_piece(&mut self, key: &str, number: &str, value: &str) -> Result<(), VariantError> {
        let (letter_text, betza) = value
            .split_once(':')
            .ok_or_else(|| bad(format!("{key} needs letter:betza")))?;
        let (letter, symbol) = letter(key, letter_text)?;
        let mut def = PieceDef::new(
            &format!("custom{number}-{betza}"),
            &format!("Custom piece {number}"),
            "X",
            betza,
        );
        def.symbol = symbol;
        self.put(letter, def);
        Ok(())
    }

    /// Puts `def` under `letter`, in place of the piece written with it before.
    fn put(&mut self, letter: char, def: PieceDef) {
        self.pieces.retain(|(l, _)| *l != letter);
        self.pieces.push((letter, def));
    }

    fn into_def(self, name: &str, files: u8, ranks: u8) -> Result<VariantDef, VariantError> {
        let initial_move_ranks = if self.double_step {
            self.initial_move_ranks
        } else {
            Vec::new()
        };
        let has_pawn = self.pieces.iter().any(|(_, p)| p.id == "pawn");
        let promotion_choices = self.promotion_choices.unwrap_or_else(|| {
            if has_pawn {
                ["Q", "R", "B", "N"].iter().filter_map(|s| Symbol::new(s)).collect()
            } else {
                Vec::new()
            }
        });
        let mut pieces = self.pieces;
        for (_, def) in pieces.iter_mut() {
            if def.id == "pawn" && promotion_choices.is_empty() {
                def.promotion = Promotion::Never;
            }
        }
        Ok(VariantDef {
            id: name.to_string(),
            name: name.to_string(),
            files,
            ranks,
            start: self.start.ok_or_else(|| bad("the definition has no startFen"))?,
            pieces: pieces.into_iter().map(|(_, p)| PieceSpec::Inline(p)).collect(),
            castling: self.castling,
            en_passant: self.en_passant,
            initial_move_ranks,
            promotion_choices,
            draws: Default::default(),
            stalemate: self.stalemate,
        })
    }
}

/// `promotionPieceTypes = qrbn`: the letters of the pieces a pawn may become; `-` for none.
fn promotion_pieces(value: &str) -> Result<Vec<Symbol>, VariantError> {
    if value == "-" {
        return Ok(Vec::new());
    }
    value
        .chars()
        .map(|c| Symbol::from_char(c).ok_or_else(|| bad(format!("bad promotion piece '{c}'"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_section_inherits_and_overrides_its_parent() {
        let text = "[base]\nmaxRank = 8\nmaxFile = h\ncustomPiece1 = q:nN\nking = k:N\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\ncastling = false\n\n[child:base]\nking = k:nN\n";
        let variant = parse(text).unwrap();
        assert_eq!(variant.def.id, "child");
        let king = variant.piece(variant.kind_by_symbol(Symbol::new("K").unwrap()).unwrap());
        assert!(variant.is_royal(
            variant.kind_by_symbol(Symbol::new("K").unwrap()).unwrap(),
            crate::piece::Color::White
        ));
        assert_eq!(king.def.betza, "nN");
        assert_eq!(
            variant
                .piece(variant.kind_by_symbol(Symbol::new("Q").unwrap()).unwrap())
                .def
                .betza,
            "nN"
        );
        assert!(!variant.def.castling);
        assert!(
            parse("[x]\nfoo = bar\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n")
                .unwrap_err()
                .to_string()
                .contains("foo")
        );
    }
}
