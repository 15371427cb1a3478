//! The lists of pieces the computer opponent brings to Pick-the-team 2, Patch and Easy Patch: a
//! draw from a set of its own, different from game to game, always a list the rules accept.

use crate::lists::{self, ListKind, ListPiece};
use crate::variants::own_pieces::OwnPiecesGame;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::{IndexedRandom, SliceRandom};

/// Royal pieces: at most 8 destinations in any position.
const ROYALS: &[&str] = &["King, K, K, royal", "Guard, GU, WA, royal", "Sentry, SE, FD, royal"];

/// Pieces of some reach, up to 40 squares on an empty board of 10x10, none moving as a royal does.
const BIG: &[&str] = &[
    "Queen, Q, Q",
    "Rook, R, R",
    "Bishop, B, B",
    "Knight, N, N",
    "Camel, CA, C",
    "Cardinal, CD, BN",
    "Chancellor, CH, RN",
    "Grasshopper, G, gQ",
    "Knight-alfil, NA, NA",
    "Centaur, CE, KN",
    "Dragon king, DK, RF",
    "Nightrider, NR, NN",
    "Wildebeest, WB, NC",
    "Zebra, Z, Z",
    "Dragon horse, DH, BW",
    "Squirrel, SQ, NAD",
];

/// Small pieces: at most 4 squares on an empty board.
const SMALL: &[&str] = &[
    "Ferz, F, F",
    "Wazir, W, W",
    "Alfil, AL, A",
    "Dabbabah, DA, D",
    "Threeleaper, H, H",
    "Tripper, TR, G",
    "Pawn, P, fmWfcF, pawn",
    "Chinese pawn, CP, fW, pawn",
    "Fish pawn, FI, fmWfcFbW, pawn",
    "Forward knight, FN, fN",
    "Side knight, SN, sN",
    "Steep knight, VN, vN",
    "Shuffler, SH, sW",
    "Lancer, LA, fWfF",
    "Retreater, RT, fWbF",
    "Forward camel, FC, fC",
];

/// Every piece lists are drawn from, one line each as a player writes it (`Name, symbol, Betza`):
/// royals first, then pieces of reach, then small ones. A palette to build a list by clicking.
pub fn palette() -> impl Iterator<Item = &'static str> {
    ROYALS.iter().chain(BIG).chain(SMALL).copied()
}

/// A list for `kind`, drawn with `seed`: a royal where the game has one, the small pieces the rules
/// ask for, the rest from the pieces of reach. Checked as a player's list is; should a draw ever be
/// refused, the next is tried, and the ready-made list is the last resort.
pub fn compose(kind: ListKind, seed: u64) -> Vec<ListPiece> {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..8 {
        let list = draw(kind, &mut rng);
        if lists::check_list(&list, kind).is_accepted() {
            return list;
        }
    }
    OwnPiecesGame::ready_made(kind)
}

fn draw(kind: ListKind, rng: &mut SmallRng) -> Vec<ListPiece> {
    let mut lines: Vec<&str> = Vec::new();
    if kind.has_royal() {
        lines.extend(ROYALS.choose(rng));
    }
    let mut small = SMALL.to_vec();
    small.shuffle(rng);
    lines.extend(&small[..kind.small_pieces()]);
    let mut big = BIG.to_vec();
    big.shuffle(rng);
    let rest = kind.length() - lines.len();
    lines.extend(&big[..rest]);
    lines
        .into_iter()
        .filter_map(|line| ListPiece::read(line).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drawn_list_is_accepted_and_games_differ() {
        for kind in [ListKind::PickTheTeam2, ListKind::Patch, ListKind::EasyPatch] {
            let mut seen = std::collections::HashSet::new();
            for seed in 0..6 {
                // Each draw itself must pass, not only the fallback.
                let mut rng = SmallRng::seed_from_u64(seed);
                let list = draw(kind, &mut rng);
                let report = lists::check_list(&list, kind);
                assert!(report.is_accepted(), "{kind:?} seed {seed}:\n{}", report.explain(None));
                seen.insert(compose(kind, seed));
            }
            assert!(seen.len() >= 4, "{kind:?}: {} different lists in 6 games", seen.len());
        }
    }
}
