//! Property tests of the list rules (RULES.md, "Version two (players' own lists)"):
//!
//! 1. any Betza string the parser reads, on any piece, goes through every check without a
//!    panic, and any line at all reads or is refused without one;
//! 2. a list that keeps the rules keeps them after its pieces are renamed, given other symbols,
//!    reordered and their Betza respelled in equivalent ways (the rules are about moves, not
//!    words).

use arbiter_engine::lists::{self, ListKind, ListPiece};
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Betza-like strings: modifiers, atoms, digits and legs in any order (most do not read).
fn betza() -> impl Strategy<Value = String> {
    "[mcnpgifblrvsha]{0,4}[WFDNAHCZGKRBQ][WFDNAHCZGKRBQ0-9]{0,2}([mcfbvs]{0,2}[WFNRB]){0,2}"
}

fn kind() -> impl Strategy<Value = ListKind> {
    prop_oneof![
        Just(ListKind::PickTheTeam2),
        Just(ListKind::Patch),
        Just(ListKind::EasyPatch)
    ]
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn every_readable_piece_goes_through_every_check(betza in betza(), royal in any::<bool>(), kind in kind()) {
        let line = format!("Test piece, TP, {betza}{}", if royal { ", royal" } else { "" });
        let Ok(piece) = ListPiece::read(&line) else {
            return Ok(());
        };
        let report = lists::check_piece(&piece, kind);
        prop_assert!(report.is_ok(), "{line}: {report:?}");
        let wazir = ListPiece::read("Wazir, W, W").unwrap();
        prop_assert!(lists::same_piece(&piece, &wazir, kind).is_ok());
        let review = lists::Review::of(&[piece, wazir], kind);
        prop_assert!(!review.explain().is_empty());
    }

    #[test]
    fn any_line_reads_or_is_refused_with_a_reason(line in any::<String>(), list in "[ -~\n]{0,300}") {
        if let Err(reason) = ListPiece::read(&line) {
            prop_assert!(!reason.is_empty());
        }
        // Random text is never a whole list: the answer says what is wrong with it.
        let review = lists::review(&list, ListKind::Patch);
        prop_assert!(!review.is_accepted(), "{list:?}");
        prop_assert!(review.explain().contains('✗') || review.explain().contains("The list: "));
    }
}

/// Equivalent spellings of the ready-made lists' moves.
fn respellings(betza: &str) -> Vec<&'static str> {
    match betza {
        "K" => vec!["K", "WF", "FW"],
        "Q" => vec!["Q", "RB", "BR", "WWFF"],
        "R" => vec!["R", "WW", "vRsR", "fbsR"],
        "B" => vec!["B", "FF"],
        "W" => vec!["W", "vsW", "fbsW"],
        "F" => vec!["F", "fFbF"],
        "D" => vec!["D", "vsD"],
        "H" => vec!["H", "vsH"],
        "fmWfcF" => vec!["fmWfcF", "fcFfmW"],
        "fmWfcFbW" => vec!["fmWfcFbW", "bWfmWfcF"],
        "fWbW" => vec!["fWbW", "vW"],
        _ => vec![],
    }
}

/// A ready-made list with its pieces renamed, re-symbolled, respelled and reordered by `picks`.
fn disguised(kind: ListKind, picks: &[usize]) -> Vec<ListPiece> {
    let mut pieces = OwnPiecesGame::ready_made(kind);
    let mut choice = picks.iter().cycle();
    for (i, piece) in pieces.iter_mut().enumerate() {
        piece.name = format!("Piece number {i}");
        // Symbols that are not the originals: two letters from the index.
        piece.symbol = format!(
            "{}{}",
            (b'A' + (i / 26) as u8 + 1) as char,
            (b'A' + (i % 26) as u8) as char
        );
        let spellings = respellings(&piece.betza);
        if !spellings.is_empty() {
            let index = choice.next().expect("cycled") % spellings.len();
            piece.betza = spellings[index].to_string();
        }
    }
    let rotation = picks.first().map_or(0, |p| p % pieces.len());
    pieces.rotate_left(rotation);
    pieces
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn a_kept_list_keeps_the_rules_under_other_names_and_spellings(
        kind in kind(),
        picks in proptest::collection::vec(0..1000usize, 1..30),
    ) {
        prop_assert!(lists::check_list(&OwnPiecesGame::ready_made(kind), kind).is_accepted());
        let pieces = disguised(kind, &picks);
        let report = lists::check_list(&pieces, kind);
        prop_assert!(report.is_accepted(), "{}", report.explain(None));
    }
}

#[test]
fn a_respelled_twin_is_still_found() {
    // The disguise keeps pieces apart only because they differ: one twin shows through it.
    let mut pieces = disguised(ListKind::Patch, &[0]);
    let queen = pieces.iter().position(|p| p.betza == "Q").expect("a queen");
    let rook = pieces.iter().position(|p| p.betza == "R").expect("a rook");
    pieces[rook].betza = "BR".into();
    let report = lists::check_list(&pieces, ListKind::Patch);
    let later = queen.max(rook);
    assert!(
        report.pieces[later]
            .problems
            .iter()
            .any(|p| p.contains("the same piece as")),
        "{}",
        report.explain(None)
    );
}
