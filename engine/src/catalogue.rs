//! Every named piece of the games Arbiter hosts, as data (the rules pages in docs/rules/ give the movements).
//!
//! Ids are stored with games: add new entries, never rename one. Letters are the usual ones where a
//! piece has one; a variant that uses two pieces with one letter must give one of them another.

use crate::piece::{MultiStep, PieceDef, Promotion, StepDirection};

fn fide() -> Vec<PieceDef> {
    vec![
        PieceDef::new("king", "King", "K", "K").royal(),
        PieceDef::new("queen", "Queen", "Q", "Q"),
        PieceDef::new("rook", "Rook", "R", "R"),
        PieceDef::new("bishop", "Bishop", "B", "B"),
        PieceDef::new("knight", "Knight", "N", "N"),
        PieceDef::new("pawn", "Pawn", "P", "fmWfcFifmnD").pawn(Promotion::LastRank),
    ]
}

fn ultimate_battle() -> Vec<PieceDef> {
    vec![
        PieceDef::new("ubc-king", "King (diagonal step, then orthogonal)", "K", "avsF").royal(),
        PieceDef::new("ubc-queen", "Queen (mao)", "Q", "nN"),
        PieceDef::new("ubc-knight", "Knight (camel)", "N", "C"),
        // Ultimate Battle pawns never promote: a pawn on the last rank stays there and gives check.
        PieceDef {
            is_pawn: true,
            ..PieceDef::new("ubc-pawn", "Pawn", "P", "fFifmnD")
        },
    ]
}

fn pick_the_team() -> Vec<PieceDef> {
    use StepDirection::{Diagonal, Straight};
    let last = Promotion::LastRank;
    let mecklenberg = Promotion::RelativeRank(8);
    let piece = |id: &str, name: &str, symbol: &str, betza: &str, about: &str| {
        PieceDef::new(id, name, symbol, betza).described(about)
    };
    // Every pawn type: row-based double and triple steps in its non-capturing forward direction.
    let pawn =
        |id: &str, name: &str, symbol: &str, betza: &str, promotion: Promotion, steps: StepDirection, about: &str| {
            piece(id, name, symbol, betza, about)
                .pawn(promotion)
                .with_multi_step(MultiStep::pick_the_team(steps))
        };
    vec![
        piece("ptt-king", "King", "K", "K", "Royal. One step in any direction.").royal(),
        piece("ptt-royal-knight", "Royal knight", "RN", "N", "Royal. Leaps like a knight.").royal(),
        piece("ptt-queen", "Queen", "Q", "Q", "Any number of squares along a line or diagonal."),
        piece("ptt-rook", "Rook", "R", "R", "Any number of squares along a line."),
        piece("ptt-knight", "Knight", "N", "N", "Leaps (2,1), jumping."),
        piece("ptt-bishop", "Bishop", "B", "B", "Any number of squares along a diagonal."),
        piece(
            "ptt-chinese-nightrider",
            "Chinese nightrider",
            "CN",
            "nNN",
            "Repeats the Chinese horse's move (a step, then a diagonal step outward) in one direction; every square it passes must be empty.",
        ),
        piece(
            "ptt-pao",
            "Pao",
            "PA",
            "mRcpR",
            "Moves like a rook; captures by jumping exactly one piece along a line.",
        ),
        piece("ptt-camel", "Camel", "CA", "C", "Leaps (3,1), jumping."),
        piece("ptt-knight-camel", "Knight-camel", "NC", "NC", "Leaps like a knight or a camel."),
        piece("ptt-cardinal", "Cardinal", "CD", "BN", "A bishop and a knight in one."),
        piece("ptt-chancellor", "Chancellor", "CH", "RN", "A rook and a knight in one."),
        piece("ptt-ferz", "Ferz", "F", "F", "One step diagonally."),
        piece("ptt-wazir", "Wazir", "W", "W", "One step along a line."),
        piece(
            "ptt-murray-lion",
            "Murray lion",
            "ML",
            "ADcK",
            "Leaps to the second square in any direction, moving or capturing; captures (never moves) on the squares next to it.",
        ),
        piece("ptt-alfil", "Alfil", "AL", "A", "Leaps two squares diagonally."),
        piece("ptt-knight-alfil", "Knight-alfil", "NA", "NA", "Leaps like a knight or an alfil."),
        piece("ptt-dabbabah", "Dabbabah", "DA", "D", "Leaps two squares along a line."),
        piece(
            "ptt-blocking-prince",
            "Blocking prince",
            "BP",
            "mK",
            "One step in any direction, never capturing; can never be captured or landed on, so it blocks lines and may serve as a screen.",
        )
        .uncapturable(),
        piece(
            "ptt-grasshopper",
            "Grasshopper",
            "G",
            "gQ",
            "Along a queen line to the square right behind the first piece it meets.",
        ),
        pawn("ptt-pawn", "Pawn", "P", "fmWfcF", last, Straight, "Steps forward, captures one square diagonally forward."),
        pawn("ptt-chinese-pawn", "Chinese pawn", "CP", "fW", last, Straight, "Steps forward, moving or capturing."),
        pawn("ptt-berolina-pawn", "Berolina pawn", "BE", "mfFcfW", last, Diagonal, "Steps diagonally forward, captures straight forward."),
        pawn("ptt-ff-pawn", "fF-pawn", "FP", "fF", last, Diagonal, "Steps diagonally forward, moving or capturing."),
        pawn("ptt-mecklenberg-pawn", "Mecklenberg pawn", "MP", "fmWfcF", mecklenberg, Straight, "A pawn that promotes on its 8th row."),
        pawn("ptt-mecklenberg-chinese-pawn", "Mecklenberg Chinese pawn", "MC", "fW", mecklenberg, Straight, "A Chinese pawn that promotes on its 8th row."),
        pawn("ptt-mecklenberg-berolina-pawn", "Mecklenberg Berolina pawn", "MB", "mfFcfW", mecklenberg, Diagonal, "A Berolina pawn that promotes on its 8th row."),
        pawn("ptt-mecklenberg-ff-pawn", "Mecklenberg fF-pawn", "MF", "fF", mecklenberg, Diagonal, "An fF-pawn that promotes on its 8th row."),
        pawn("ptt-defending-pawn", "Defending pawn", "DP", "fmWfcFmbR", last, Straight, "A pawn that may also move straight back any distance, never capturing."),
        pawn("ptt-defending-chinese-pawn", "Defending Chinese pawn", "DC", "fWmbR", last, Straight, "A Chinese pawn that may also move straight back, never capturing."),
        pawn("ptt-defending-berolina-pawn", "Defending Berolina pawn", "DB", "mfFcfWmbR", last, Diagonal, "A Berolina pawn that may also move straight back, never capturing."),
        pawn("ptt-defending-ff-pawn", "Defending fF-pawn", "DF", "fFmbR", last, Diagonal, "An fF-pawn that may also move straight back, never capturing."),
        // Spears are no pawns: they never promote (stuck once on the last row), and a pawn may
        // promote to one.
        piece("ptt-japanese-spear", "Japanese spear", "JS", "fR", "Any number of squares straight forward."),
        piece("ptt-arabic-spear", "Arabic spear", "AS", "mfRcfB", "Moves straight forward, captures diagonally forward, any distance."),
        piece("ptt-berolina-spear", "Berolina spear", "BS", "mfBcfR", "Moves diagonally forward, captures straight forward, any distance."),
        piece("ptt-diagonal-spear", "Diagonal spear", "DS", "fB", "Any number of squares diagonally forward."),
        pawn("ptt-fish-pawn", "Fish pawn", "FI", "fmWfcFbW", last, Straight, "A pawn that may also step straight back, moving or capturing."),
        pawn("ptt-chinese-fish-pawn", "Chinese fish pawn", "FC", "fWbW", last, Straight, "A Chinese pawn that may also step straight back."),
        pawn("ptt-berolina-fish-pawn", "Berolina fish pawn", "FB", "mfFcfWbW", last, Diagonal, "A Berolina pawn that may also step straight back."),
        pawn("ptt-ff-fish-pawn", "fF-fish pawn", "FF", "fFbW", last, Diagonal, "An fF-pawn that may also step straight back."),
    ]
}

fn blockade() -> Vec<PieceDef> {
    vec![
        PieceDef::new("blockade-queen", "Queen (never captures)", "Q", "mQ"),
        PieceDef::new("blockade-rook", "Rook (never captures)", "R", "mR"),
        PieceDef::new("blockade-bishop", "Bishop (never captures)", "B", "mB"),
    ]
}

/// The catalogue in sections: the game the pieces come from, and its pieces.
pub fn sections() -> Vec<(&'static str, Vec<PieceDef>)> {
    vec![
        ("FIDE chess", fide()),
        ("Ultimate Battle", ultimate_battle()),
        ("Pick-the-team", pick_the_team()),
        ("Blockade", blockade()),
    ]
}

/// The whole catalogue, in a stable order.
pub fn all() -> Vec<PieceDef> {
    sections().into_iter().flat_map(|(_, pieces)| pieces).collect()
}

/// The game a catalogue piece comes from.
pub fn section_of(id: &str) -> Option<&'static str> {
    sections()
        .into_iter()
        .find(|(_, pieces)| pieces.iter().any(|p| p.id == id))
        .map(|(section, _)| section)
}

/// The pieces a player may mean by `query`: the piece with that id; else those with that name or
/// symbol (several games share a "Knight"); else those whose name contains it. Case and
/// surrounding spaces do not matter.
pub fn lookup(query: &str) -> Vec<PieceDef> {
    let query = query.trim().to_lowercase();
    if query.is_empty() {
        return Vec::new();
    }
    let all = all();
    if let Some(piece) = all.iter().find(|p| p.id == query) {
        return vec![piece.clone()];
    }
    let exact: Vec<PieceDef> = all
        .iter()
        .filter(|p| p.name.to_lowercase() == query || p.symbol.to_string().to_lowercase() == query)
        .cloned()
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    all.into_iter()
        .filter(|p| p.name.to_lowercase().contains(&query))
        .collect()
}

/// The Pick-the-team pieces, in the numbered order of docs/rules/pick-the-team.md.
pub fn pick_the_team_pieces() -> Vec<PieceDef> {
    pick_the_team()
}

/// Looks a piece up by its id.
pub fn find(id: &str) -> Option<PieceDef> {
    all().into_iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn pieces_are_found_by_id_name_symbol_or_part_of_the_name() {
        let ids = |query: &str| lookup(query).into_iter().map(|p| p.id).collect::<Vec<_>>();
        assert_eq!(ids("ptt-pao"), ["ptt-pao"]);
        assert_eq!(ids(" Chinese Nightrider "), ["ptt-chinese-nightrider"]);
        assert_eq!(ids("cn"), ["ptt-chinese-nightrider"]);
        assert_eq!(ids("knight"), ["knight"], "an id first");
        assert_eq!(
            ids("n"),
            ["knight", "ubc-knight", "ptt-knight"],
            "one symbol in three games"
        );
        assert_eq!(ids("lion"), ["ptt-murray-lion"]);
        assert!(ids("").is_empty() && ids("dragon").is_empty());
        assert_eq!(section_of("ptt-pao"), Some("Pick-the-team"));
        assert_eq!(section_of("ubc-king"), Some("Ultimate Battle"));
        assert_eq!(section_of("nothing"), None);
    }

    #[test]
    fn every_catalogue_entry_parses_and_ids_are_unique() {
        let all = all();
        let ids: HashSet<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), all.len());
        for piece in &all {
            piece.compile().unwrap_or_else(|e| panic!("{}: {e}", piece.id));
        }
        assert_eq!(pick_the_team_pieces().len(), 40);
        assert_eq!(
            pick_the_team_pieces()
                .iter()
                .filter(|p| p.royal == crate::piece::Royalty::Both)
                .count(),
            2
        );
    }
}
