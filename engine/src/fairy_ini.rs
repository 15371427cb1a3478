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
    let bad = |m: String| VariantError::Toml(m);
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
                .ok_or_else(|| VariantError::Toml(format!("unsupported region \"{token}\"")))
        })
        .collect()
}

/// Converts the last section of a Fairy-Stockfish variant file (with its parents from the same
/// file) into a compiled variant.
pub fn parse(text: &str) -> Result<Variant, VariantError> {
    let all = sections(text);
    let (name, _, _) = all
        .last()
        .ok_or_else(|| VariantError::Toml("the file has no [section]".into()))?;
    let settings = resolve(&all, name, 0)?;
    let bad = |m: String| VariantError::Toml(m);

    let ranks: u8 = settings
        .get("maxRank")
        .map_or(Ok(8), |v| v.parse().map_err(|_| bad(format!("bad maxRank {v}"))))?;
    let files: u8 = match settings.get("maxFile") {
        None => 8,
        Some(v) if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() => v.as_bytes()[0] - b'a' + 1,
        Some(v) => v.parse().map_err(|_| bad(format!("bad maxFile {v}")))?,
    };

    // Fairy-Stockfish starts from chess's pieces; settings and custom pieces replace them by letter.
    let mut pieces: Vec<(char, PieceDef)> = vec![
        ('p', crate::catalogue::find("pawn").expect("catalogue pawn")),
        ('n', crate::catalogue::find("knight").expect("catalogue knight")),
        ('b', crate::catalogue::find("bishop").expect("catalogue bishop")),
        ('r', crate::catalogue::find("rook").expect("catalogue rook")),
        ('q', crate::catalogue::find("queen").expect("catalogue queen")),
        ('k', crate::catalogue::find("king").expect("catalogue king")),
    ];
    let mut castling = true;
    let mut en_passant = true;
    let mut double_step = true;
    let mut initial_move_ranks = vec![2];
    let mut promotion_choices: Option<Vec<Symbol>> = None;
    let mut stalemate = StalemateRule::Draw;
    let mut start = None;

    for (key, value) in &settings {
        let builtin = match key.as_str() {
            "pawn" => Some("pawn"),
            "knight" => Some("knight"),
            "bishop" => Some("bishop"),
            "rook" => Some("rook"),
            "queen" => Some("queen"),
            "king" => Some("king"),
            _ => None,
        };
        if let Some(id) = builtin {
            pieces.retain(|(_, p)| p.id != id);
            if value == "-" {
                continue;
            }
            let (letter, betza) = match value.split_once(':') {
                Some((letter, betza)) => (letter, Some(betza)),
                None => (value.as_str(), None),
            };
            let letter = letter
                .chars()
                .next()
                .ok_or_else(|| bad(format!("{key} needs a letter")))?;
            let mut def = crate::catalogue::find(id).expect("built-in pieces are in the catalogue");
            if let Some(betza) = betza {
                def.betza = betza.to_string();
                def.id = format!("{id}-{betza}");
            }
            def.symbol = Symbol::from_char(letter).ok_or_else(|| bad(format!("{key}: '{letter}' is not a letter")))?;
            pieces.retain(|(l, _)| *l != letter);
            pieces.push((letter, def));
            continue;
        }
        if let Some(number) = key.strip_prefix("customPiece") {
            let (letter, betza) = value
                .split_once(':')
                .ok_or_else(|| bad(format!("{key} needs letter:betza")))?;
            let letter = letter
                .chars()
                .next()
                .ok_or_else(|| bad(format!("{key} needs a letter")))?;
            pieces.retain(|(l, _)| *l != letter);
            let mut def = PieceDef::new(
                &format!("custom{number}-{betza}"),
                &format!("Custom piece {number}"),
                "X",
                betza,
            );
            def.symbol = Symbol::from_char(letter).ok_or_else(|| bad(format!("{key}: '{letter}' is not a letter")))?;
            pieces.push((letter, def));
            continue;
        }
        match key.as_str() {
            "maxRank" | "maxFile" | "pieceToCharTable" => {}
            "startFen" => start = Some(value.clone()),
            "castling" => castling = value == "true",
            "doubleStep" => double_step = value == "true",
            "doubleStepRegionWhite" => initial_move_ranks = rank_region(value, ranks)?,
            "doubleStepRegionBlack" => {
                let black = rank_region(value, ranks)?;
                let relative: Vec<u8> = black.iter().map(|r| ranks + 1 - r).collect();
                if relative != initial_move_ranks {
                    return Err(bad("double-step regions that differ by colour are not supported".into()));
                }
            }
            "enPassantRegion" | "enPassantRegionWhite" | "enPassantRegionBlack" => en_passant = value != "-",
            "promotionPieceTypes" => {
                promotion_choices = Some(if value == "-" {
                    Vec::new()
                } else {
                    value
                        .chars()
                        .map(|c| Symbol::from_char(c).ok_or_else(|| bad(format!("bad promotion piece '{c}'"))))
                        .collect::<Result<_, _>>()?
                })
            }
            "promotionRegionWhite" | "promotionRegionBlack" if value == "-" => promotion_choices = Some(Vec::new()),
            "stalemateValue" => {
                stalemate = match value.as_str() {
                    "loss" => StalemateRule::Loss,
                    "draw" => StalemateRule::Draw,
                    _ => return Err(bad(format!("unsupported stalemateValue {value}"))),
                }
            }
            _ => return Err(bad(format!("the setting {key} is not supported"))),
        }
    }
    if !double_step {
        initial_move_ranks.clear();
    }
    let has_pawn = pieces.iter().any(|(_, p)| p.id == "pawn");
    let promotion_choices = promotion_choices.unwrap_or_else(|| {
        if has_pawn {
            ["Q", "R", "B", "N"].iter().filter_map(|s| Symbol::new(s)).collect()
        } else {
            Vec::new()
        }
    });
    for (_, def) in pieces.iter_mut() {
        if def.id == "pawn" && promotion_choices.is_empty() {
            def.promotion = Promotion::Never;
        }
    }
    let def = VariantDef {
        id: name.clone(),
        name: name.clone(),
        files,
        ranks,
        start: start.ok_or_else(|| bad("the definition has no startFen".into()))?,
        pieces: pieces.into_iter().map(|(_, p)| PieceSpec::Inline(p)).collect(),
        castling,
        en_passant,
        initial_move_ranks,
        promotion_choices,
        draws: Default::default(),
        stalemate,
    };
    Variant::compile(def)
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
