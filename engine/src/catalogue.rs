//! Every named piece of the games Arbiter hosts, as data (RULES.md gives the movements).
//!
//! Ids are stored with games: add new entries, never rename one. Letters are the usual ones where a
//! piece has one; a variant that uses two pieces with one letter must give one of them another.

use crate::piece::{PieceDef, Promotion};

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
    let last = Promotion::LastRank;
    let mecklenberg = Promotion::RelativeRank(8);
    vec![
        PieceDef::new("ptt-king", "King", "K", "K").royal(),
        PieceDef::new("ptt-royal-knight", "Royal knight", "Y", "N").royal(),
        PieceDef::new("ptt-queen", "Queen", "Q", "Q"),
        PieceDef::new("ptt-rook", "Rook", "R", "R"),
        PieceDef::new("ptt-knight", "Knight", "N", "N"),
        PieceDef::new("ptt-bishop", "Bishop", "B", "B"),
        PieceDef::new("ptt-chinese-nightrider", "Chinese nightrider", "J", "nNN"),
        PieceDef::new("ptt-pao", "Pao", "O", "mRcpR"),
        PieceDef::new("ptt-camel", "Camel", "L", "C"),
        PieceDef::new("ptt-knight-camel", "Knight-camel", "U", "NC"),
        PieceDef::new("ptt-cardinal", "Cardinal", "I", "BN"),
        PieceDef::new("ptt-chancellor", "Chancellor", "E", "RN"),
        PieceDef::new("ptt-ferz", "Ferz", "F", "F"),
        PieceDef::new("ptt-wazir", "Wazir", "W", "W"),
        PieceDef::new("ptt-murray-lion", "Murray lion", "M", "ADcK"),
        PieceDef::new("ptt-alfil", "Alfil", "A", "A"),
        PieceDef::new("ptt-knight-alfil", "Knight-alfil", "X", "NA"),
        PieceDef::new("ptt-dabbabah", "Dabbabah", "D", "D"),
        PieceDef::new("ptt-blocking-prince", "Blocking prince", "Z", "mK").uncapturable(),
        PieceDef::new("ptt-grasshopper", "Grasshopper", "G", "gQ"),
        PieceDef::new("ptt-pawn", "Pawn", "P", "fmWfcF").pawn(last),
        PieceDef::new("ptt-chinese-pawn", "Chinese pawn", "C", "fW").pawn(last),
        PieceDef::new("ptt-berolina-pawn", "Berolina pawn", "H", "mfFcfW").pawn(last),
        PieceDef::new("ptt-ff-pawn", "fF-pawn", "V", "fF").pawn(last),
        PieceDef::new("ptt-mecklenberg-pawn", "Mecklenberg pawn", "P", "fmWfcF").pawn(mecklenberg),
        PieceDef::new("ptt-mecklenberg-chinese-pawn", "Mecklenberg Chinese pawn", "C", "fW").pawn(mecklenberg),
        PieceDef::new(
            "ptt-mecklenberg-berolina-pawn",
            "Mecklenberg Berolina pawn",
            "H",
            "mfFcfW",
        )
        .pawn(mecklenberg),
        PieceDef::new("ptt-mecklenberg-ff-pawn", "Mecklenberg fF-pawn", "V", "fF").pawn(mecklenberg),
        PieceDef::new("ptt-defending-pawn", "Defending pawn", "P", "fmWfcFmbR").pawn(last),
        PieceDef::new("ptt-defending-chinese-pawn", "Defending Chinese pawn", "C", "fWmbR").pawn(last),
        PieceDef::new(
            "ptt-defending-berolina-pawn",
            "Defending Berolina pawn",
            "H",
            "mfFcfWmbR",
        )
        .pawn(last),
        PieceDef::new("ptt-defending-ff-pawn", "Defending fF-pawn", "V", "fFmbR").pawn(last),
        // Spears never promote: once on the last row they are stuck.
        PieceDef {
            is_pawn: true,
            ..PieceDef::new("ptt-japanese-spear", "Japanese spear", "S", "fR")
        },
        PieceDef {
            is_pawn: true,
            ..PieceDef::new("ptt-arabic-spear", "Arabic spear", "S", "mfRcfB")
        },
        PieceDef {
            is_pawn: true,
            ..PieceDef::new("ptt-berolina-spear", "Berolina spear", "S", "mfBcfR")
        },
        PieceDef {
            is_pawn: true,
            ..PieceDef::new("ptt-diagonal-spear", "Diagonal spear", "S", "fB")
        },
        PieceDef::new("ptt-fish-pawn", "Fish pawn", "P", "fmWfcFbW").pawn(last),
        PieceDef::new("ptt-chinese-fish-pawn", "Chinese fish pawn", "C", "fWbW").pawn(last),
        PieceDef::new("ptt-berolina-fish-pawn", "Berolina fish pawn", "H", "mfFcfWbW").pawn(last),
        PieceDef::new("ptt-ff-fish-pawn", "fF-fish pawn", "V", "fFbW").pawn(last),
    ]
}

fn blockade() -> Vec<PieceDef> {
    vec![
        PieceDef::new("blockade-queen", "Queen (never captures)", "Q", "mQ"),
        PieceDef::new("blockade-rook", "Rook (never captures)", "R", "mR"),
        PieceDef::new("blockade-bishop", "Bishop (never captures)", "B", "mB"),
    ]
}

/// The whole catalogue, in a stable order.
pub fn all() -> Vec<PieceDef> {
    let mut all = fide();
    all.extend(ultimate_battle());
    all.extend(pick_the_team());
    all.extend(blockade());
    all
}

/// The Pick-the-team pieces, in the numbered order of RULES.md.
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
