//! The list rules on pieces and lists known by heart.

use super::lab::lines;
use super::*;
use crate::betza::Offset;
use crate::geometry::{BoardSize, Square};

fn piece(line: &str) -> ListPiece {
    ListPiece::read(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn a_line_is_a_piece_of_ones_own_or_a_catalogue_name_with_marks() {
    assert_eq!(
        piece("Giraffe, gi, C, royal"),
        ListPiece {
            name: "Giraffe".into(),
            symbol: "GI".into(),
            betza: "C".into(),
            is_royal: true,
            is_pawn: false,
        }
    );
    let nightrider = piece("Chinese nightrider");
    assert_eq!((nightrider.symbol.as_str(), nightrider.betza.as_str()), ("CN", "nNN"));
    assert!(piece("Pawn, P, fmWfcF, pawn").is_pawn);
    assert_eq!(piece(&piece("Wazir, W, W").to_string()), piece("Wazir, W, W"));
}

#[test]
fn a_badly_written_line_says_what_is_wrong() {
    for (line, expected) in [
        ("Giraffe, G, Cx", "at position 2"),
        ("Giraffe, G", "write a piece as"),
        ("Giraffé, G, C", "plain ASCII"),
        ("Giraffe, G7, C", "1 to 3 letters"),
        ("Giraffe, G, C, pawn", "straight or diagonally forward"),
        ("Giraffe, P, C", "the symbol P is for a pawn"),
        ("Nothing at all like this", "no catalogue piece"),
        ("Wazir, W, W, royal, pawn", "both royal and a pawn"),
    ] {
        let error = ListPiece::read(line).unwrap_err();
        assert!(error.contains(expected), "{line}: {error}");
    }
    let huge = format!("Big, B, {}", "W".repeat(500));
    assert!(ListPiece::read(&huge).is_err());
    let nested = format!("Odd, O, {}", "a".repeat(30) + "W");
    assert!(ListPiece::read(&nested).is_err());
}

#[test]
fn a_list_of_too_many_lines_is_refused_whole() {
    let text = "Wazir, W, W\n".repeat(200);
    assert!(read_list(&text).unwrap_err().contains("200 lines"));
}

#[test]
fn lines_group_the_board_by_direction() {
    let size = BoardSize { files: 8, ranks: 8 };
    let from = Square::parse("a1").unwrap();
    let found = lines(size, from);
    let (_, diagonal) = found.iter().find(|(d, _)| *d == Offset::new(1, 1)).unwrap();
    assert_eq!(diagonal.len(), 7);
    assert_eq!(diagonal[0], Square::parse("b2").unwrap());
    let (_, knightish) = found.iter().find(|(d, _)| *d == Offset::new(1, 2)).unwrap();
    assert_eq!(knightish.len(), 3, "b3, c5, d7");
}

const BIG: ListKind = ListKind::PickTheTeam2;
const SMALL: ListKind = ListKind::Patch;

fn home_reach(line: &str, kind: ListKind) -> Option<Reach> {
    Lab::new(&piece(line), kind).unwrap().reach_from_full_home()
}

fn problems(line: &str, kind: ListKind) -> Vec<String> {
    check_piece(&piece(line), kind).unwrap().problems
}

#[test]
fn a_pao_on_row_1_captures_on_the_last_row_over_a_row_2_screen() {
    for kind in [BIG, SMALL] {
        let reach = home_reach("Pao, PA, mRcpR", kind).expect("the pao breaks the row rule");
        assert_eq!(reach.from.rank(), 0);
        assert_eq!(reach.to[0].rank(), kind.size().ranks - 1);
        assert_eq!(
            reach.to[0].file(),
            reach.from.file(),
            "straight up over its row-2 screen"
        );
        assert_eq!(reach.enemies, reach.to, "it captures there");
        let problem = &problems("Pao, PA, mRcpR", kind)[0];
        assert!(
            problem.contains("captures on") && problem.contains("last row"),
            "{problem}"
        );
    }
}

#[test]
fn a_grasshopper_lands_right_behind_its_row_2_hurdle_and_passes() {
    for kind in [BIG, SMALL] {
        assert_eq!(home_reach("Grasshopper, GH, gQ", kind), None);
        assert!(problems("Grasshopper, GH, gQ", kind).is_empty());
    }
}

#[test]
fn the_row_rule_closes_paths_through_full_rows_and_leaves_leaps_open() {
    // A dabbabah rider leaps over row 2 but lands on odd rows only (3, 5, 7, 9): never the
    // 10th row, nor the 8th on 8x8.
    assert_eq!(home_reach("Dabbabah rider, DR, DD", BIG), None);
    assert_eq!(home_reach("Dabbabah rider, DR, DD", SMALL), None);
    // Riders are stopped by row 2; a long leaper is not.
    assert_eq!(home_reach("Queen, Q, Q", BIG), None);
    // A triple-stepping pawn is blocked by the full second row.
    assert_eq!(home_reach("Pawn, P, fmWfcF, pawn", SMALL), None);
    // A camel rider leaps row 2 and rides on over the empty board: a1-b4-c7-d10.
    let camel_rider = home_reach("Camel rider, CR, CC", BIG).expect("it reaches the 10th row");
    assert_eq!(
        (camel_rider.from.to_string(), camel_rider.to[0].to_string()),
        ("a1".into(), "d10".into())
    );
    assert!(camel_rider.enemies.is_empty(), "a move, not a capture");
}

#[test]
fn a_royal_king_passes_and_a_royal_centaur_does_not() {
    assert!(problems("King, K, K, royal", BIG).is_empty());
    let centaur = problems("Centaur, CE, KN, royal", BIG);
    assert_eq!(centaur.len(), 1, "{centaur:?}");
    assert!(centaur[0].contains("reaches 16 squares"), "{}", centaur[0]);
    // The same centaur is a fine piece when not royal.
    assert!(problems("Centaur, CE, KN", BIG).is_empty());
}

#[test]
fn a_royal_is_measured_in_the_position_that_gives_it_most() {
    // A king that only captures diagonally reaches 4 squares on an empty board but 8 with
    // enemies on its diagonals.
    let lab = Lab::new(&piece("Odd king, OK, mWcF, royal"), BIG).unwrap();
    assert_eq!(lab.on_empty_board().squares, 4);
    let most = lab.in_any_position().unwrap();
    assert_eq!(most.squares, 8);
    assert_eq!(most.enemies.len(), 4);
    // A royal pao reaches every square of its lines beyond a screen, and more with screens
    // placed than on an empty board; on 10x10 it breaks the limit.
    let pao = Lab::new(&piece("Pao, PA, mRcpR, royal"), BIG).unwrap();
    assert!(pao.in_any_position().unwrap().squares > ROYAL_SQUARES);
    // A royal grasshopper from a corner: at most one landing per line, 3 lines.
    let grasshopper = Lab::new(&piece("Grasshopper, GH, gQ, royal"), BIG).unwrap();
    assert_eq!(
        grasshopper.in_any_position().unwrap().squares,
        8,
        "one landing on each of 8 lines"
    );
    assert!(problems("Grasshopper, GH, gQ, royal", BIG).is_empty());
    // A capture-only rider takes only the first piece on a line: a royal that steps as a
    // wazir and captures as a rook reaches 2 squares a line at most (a step and a capture
    // beyond it), 8 in all, not every square of its lines.
    let capturing_rook = Lab::new(&piece("Sniper, SN, mWcR, royal"), BIG).unwrap();
    assert_eq!(capturing_rook.in_any_position().unwrap().squares, 8);
    assert!(problems("Sniper, SN, mWcR, royal", BIG).is_empty());
    assert!(
        !problems("Sniper king, SK, mKcR, royal", BIG).is_empty(),
        "8 steps and 4 captures"
    );
}

#[test]
fn the_empty_board_count_is_the_best_square_and_capture_only_moves_count_nothing() {
    let count = |line: &str| Lab::new(&piece(line), BIG).unwrap().on_empty_board().squares;
    assert_eq!(count("Queen, Q, Q"), 35, "from the middle of 10x10");
    assert_eq!(count("Knight, N, N"), 8);
    assert_eq!(count("Capturing king, CK, cK"), 0);
    assert_eq!(count("Wazir-ferz, WF, mWcF"), 4);
    assert_eq!(count("Pao, PA, mRcpR"), 18);
    assert_eq!(count("Grasshopper, GH, gQ"), 0, "nothing to hop over");
    // Over 40: a queen-nightrider compound.
    let over = problems("Amazon rider, AR, QNN", BIG);
    assert!(
        over.iter()
            .any(|p| p.contains("on an empty board; a piece may reach at most 40")),
        "{over:?}"
    );
}

#[test]
fn the_same_piece_is_found_whatever_its_spelling() {
    let same = |a: &str, b: &str| same_piece(&piece(a), &piece(b), SMALL).unwrap();
    assert!(same("Queen, Q, Q", "Rook-bishop, RB, RB"));
    assert!(same("Mao, MA, afsW", "Lame knight, LK, nN"));
    assert!(same("King, K, K", "Wazir-ferz, WF, WF"));
    assert!(!same("Queen, Q, Q", "Rook, R, R"));
    assert!(!same("Mao, MA, afsW", "Knight, N, N"), "the lame knight is blocked");
    assert!(!same("Mao, MA, afsW", "Moa, MO, afsF"));
    assert!(!same("Pao, PA, mRcpR", "Rook, R, R"));
    assert!(
        !same("Wazir, W, W", "Moving wazir, MW, mW"),
        "one captures, one does not"
    );
}

fn list(lines: &[&str]) -> Vec<ListPiece> {
    lines.iter().map(|l| piece(l)).collect()
}

/// A Patch list that keeps every rule: a king and 15 distinct pieces, 10 of them small.
fn patch_list() -> Vec<ListPiece> {
    list(&[
        "King, K, K, royal",
        "Wazir, W, W",
        "Ferz, F, F",
        "Alfil, A, A",
        "Dabbabah, D, D",
        "Pawn, P, fmWfcF, pawn",
        "Chinese pawn, CP, fW, pawn",
        "Berolina pawn, BP, mfFcfW, pawn",
        "Stepper, ST, fWbF",
        "Side mover, SM, sW",
        "Back ferz, BF, bF",
        "Rook, R, R",
        "Bishop, B, B",
        "Knight, N, N",
        "Camel, C, C",
        "Grasshopper, GH, gQ",
    ])
}

#[test]
fn a_good_list_is_accepted_and_each_list_rule_is_checked() {
    let report = check_list(&patch_list(), SMALL);
    assert!(report.is_accepted(), "{report:?}");
    // Too short.
    let short = check_list(&patch_list()[..15], SMALL);
    assert!(
        short
            .problems
            .iter()
            .any(|p| p.contains("a list has 16 pieces; this one has 15"))
    );
    // No royal.
    let mut no_royal = patch_list();
    no_royal[0] = piece("Mann, MN, K");
    let report = check_list(&no_royal, SMALL);
    assert!(
        report.problems.iter().any(|p| p.contains("this one has none")),
        "{:?}",
        report.problems
    );
    // Two royals.
    let mut two = patch_list();
    two[1] = piece("Wazir, W, W, royal");
    assert!(
        check_list(&two, SMALL)
            .problems
            .iter()
            .any(|p| p.contains("this one has 2"))
    );
    // Too few small pieces: replace small ones by big distinct ones.
    let mut big = patch_list();
    big[1] = piece("Queen, Q, Q");
    big[2] = piece("Chancellor, CH, RN");
    let report = check_list(&big, SMALL);
    assert!(
        report.problems.iter().any(|p| p.contains("this list has 8")),
        "{:?}",
        report.problems
    );
    // Twins under two names and spellings, and a symbol used twice.
    let mut twins = patch_list();
    twins[12] = piece("Slider, SL, fbsR");
    twins[15] = piece("Camel rider, C, CC");
    let report = check_list(&twins, SMALL);
    // The later piece of a pair is the one refused, saying which it repeats.
    let slider = &report.pieces[12].problems;
    assert!(
        slider.iter().any(|p| p.contains("the same piece as Rook (R)")),
        "{slider:?}"
    );
    assert!(report.pieces[11].problems.is_empty(), "the rook itself is fine");
    let camel_rider = &report.pieces[15].problems;
    assert!(
        camel_rider
            .iter()
            .any(|p| p.contains("Camel already uses the symbol C")),
        "{camel_rider:?}"
    );
    let explained = report.explain(None);
    assert!(
        explained.contains("13. ✗ Slider (SL) `fbsR`: it is the same piece as Rook"),
        "{explained}"
    );
    assert!(
        explained.contains("12. ✓ Rook (R) `R`: 14 squares on an empty board"),
        "{explained}"
    );
}

#[test]
fn easy_patch_keeps_only_the_piece_rules() {
    let pieces = list(&[
        "Queen, Q, Q",
        "Rook, R, R",
        "Knight, N, N",
        "Bishop, B, B",
        "Chancellor, CH, RN",
        "Cardinal, CA, BN",
        "Camel, C, C",
    ]);
    assert!(check_list(&pieces, ListKind::EasyPatch).is_accepted());
    let mut royal = pieces.clone();
    royal[6] = piece("King, K, K, royal");
    let report = check_list(&royal, ListKind::EasyPatch);
    assert!(report.pieces[6].problems[0].contains("no royal piece"));
}
