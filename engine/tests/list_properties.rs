//! Property tests of the list rules (docs/rules/pick-the-team-2.md, "Reading the list rules"):
//!
//! 1. any Betza string the parser reads, on any piece, goes through every check without a
//!    panic, and any line at all reads or is refused without one;
//! 2. a list that keeps the rules keeps them after its pieces are renamed, given other symbols,
//!    reordered and their Betza respelled in equivalent ways (the rules are about moves, not
//!    words);
//! 3. the row rule ("rows 1 and 2 full") is decided exactly: what it passes never reaches the last
//!    row in sampled positions, what it refuses comes with an arrangement that does.

#[path = "common/own_lists.rs"]
mod own_lists;

use arbiter_engine::lists::{self, ListKind, ListPiece};
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use own_lists::readable_betza;
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

/// A random arrangement about a piece on `from`: each other square empty, an enemy or a friend,
/// by a density the seed picks; with `home_full`, rows 1 and 2 all occupied.
fn sampled_arrangement(
    size: arbiter_engine::geometry::BoardSize,
    from: arbiter_engine::geometry::Square,
    home_full: bool,
    seed: &mut u64,
) -> (
    Vec<arbiter_engine::geometry::Square>,
    Vec<arbiter_engine::geometry::Square>,
) {
    let mut roll = |n: u64| {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*seed >> 33) % n
    };
    let density = roll(60);
    let (mut enemies, mut friends) = (Vec::new(), Vec::new());
    for square in size.squares().filter(|&s| s != from) {
        let is_home = home_full && square.rank() <= 1;
        let occupied = is_home || roll(100) < density;
        if occupied {
            if roll(2) == 0 {
                enemies.push(square);
            } else {
                friends.push(square);
            }
        }
    }
    (enemies, friends)
}

proptest! {
    #![proptest_config(config(48))]

    /// The row rule decided exactly: a piece the check passes never reaches the last row from row
    /// 1 in thousands of sampled positions with rows 1 and 2 full; a piece it refuses comes with
    /// an arrangement the move generator confirms.
    #[test]
    fn the_row_rule_is_exact(betza in readable_betza(), kind in kind(), seed in any::<u64>()) {
        let line = format!("Test piece, TP, {betza}");
        let Ok(piece) = ListPiece::read(&line) else {
            return Ok(());
        };
        let lab = lists::Lab::new(&piece, kind).unwrap();
        let size = kind.size();
        let last = size.ranks - 1;
        match lab.reach_from_full_home() {
            Some(reach) => {
                let mut board: Vec<_> = size.squares().filter(|s| s.rank() <= 1 && *s != reach.from).collect();
                board.extend(reach.enemies.iter().copied());
                prop_assert!(
                    lab.reach(reach.from, &board, &[]).contains(&reach.to[0]),
                    "{line}: the arrangement {reach:?} does not reach"
                );
            }
            None => {
                let mut seed = seed;
                for sample in 0..2_000u32 {
                    let from = arbiter_engine::geometry::Square::new((sample % u32::from(size.files)) as u8, 0);
                    let (enemies, friends) = sampled_arrangement(size, from, true, &mut seed);
                    let reached = lab.reach(from, &enemies, &friends);
                    prop_assert!(
                        reached.iter().all(|s| s.rank() != last),
                        "{line} on {kind:?}: passed, yet from {from} with enemies {enemies:?} and friends {friends:?} it reaches {reached:?}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// A royal's count is exact: the position it names gives the piece exactly that many
    /// destinations (the move generator counts them), and no sampled position gives more.
    #[test]
    fn the_royal_count_is_exact(betza in readable_betza(), kind in kind(), seed in any::<u64>()) {
        let line = format!("Test piece, TP, {betza}");
        let Ok(piece) = ListPiece::read(&line) else {
            return Ok(());
        };
        let lab = lists::Lab::new(&piece, kind).unwrap();
        let Ok(most) = lab.in_any_position() else {
            return Ok(());
        };
        prop_assert_eq!(
            lab.reach(most.from, &most.enemies, &[]).len(),
            most.squares,
            "{} on {:?}: the position {:?}",
            line,
            kind,
            most
        );
        let size = kind.size();
        let squares: Vec<_> = size.squares().collect();
        let mut seed = seed;
        for sample in 0..2_000usize {
            let from = squares[sample * 7 % squares.len()];
            let (enemies, friends) = sampled_arrangement(size, from, false, &mut seed);
            let reached = lab.reach(from, &enemies, &friends).len();
            prop_assert!(
                reached <= most.squares,
                "{line} on {kind:?}: the most is {} ({most:?}), yet from {from} with enemies {enemies:?} and friends {friends:?} it reaches {reached}",
                most.squares
            );
        }
    }
}

/// The lists the game properties send (properties.rs) keep every rule as a player writes them,
/// and are mostly the generated pieces, not the fillers that complete them.
#[test]
fn generated_lists_keep_every_rule() {
    let filler_names: Vec<String> = own_lists::ROYAL_FILLERS
        .iter()
        .chain(&own_lists::SMALL_FILLERS)
        .chain(&own_lists::BIG_FILLERS)
        .map(|line| format!("{}, ", ListPiece::read(line).unwrap().name))
        .collect();
    let (generated, all) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    let strategy = kind().prop_flat_map(|kind| own_lists::own_list(kind).prop_map(move |lines| (kind, lines)));
    let mut runner = proptest::test_runner::TestRunner::new(config(24));
    let result = runner.run(&strategy, |(kind, lines)| {
        let review = lists::review(&own_lists::list_text(&lines), kind);
        let pieces = review.pieces();
        prop_assert!(pieces.is_some(), "{}", review.explain());
        let pieces = pieces.unwrap();
        prop_assert_eq!(pieces.len(), kind.length());
        for (line, piece) in lines.iter().zip(&pieces) {
            prop_assert_eq!(ListPiece::read(line), Ok(piece.clone()), "{}", line);
        }
        all.set(all.get() + lines.len());
        let own = lines
            .iter()
            .filter(|line| !filler_names.iter().any(|name| line.starts_with(name.as_str())))
            .count();
        generated.set(generated.get() + own);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let (generated, all) = (generated.get(), all.get());
    eprintln!("{generated} of {all} pieces generated");
    // About three in four are generated (half is far below).
    assert!(generated * 2 >= all, "{generated} of {all} pieces generated");
}

#[test]
fn the_fillers_of_generated_lists_keep_every_rule_and_differ() {
    for kind in [ListKind::PickTheTeam2, ListKind::Patch, ListKind::EasyPatch] {
        let royals: &[&str] = if kind.has_royal() {
            &own_lists::ROYAL_FILLERS
        } else {
            &[]
        };
        let fillers: Vec<ListPiece> = royals
            .iter()
            .chain(&own_lists::SMALL_FILLERS)
            .chain(&own_lists::BIG_FILLERS)
            .map(|line| ListPiece::read(line).unwrap_or_else(|e| panic!("{line}: {e}")))
            .collect();
        let labs: Vec<(Vec<Vec<_>>, lists::Lab)> = fillers
            .iter()
            .map(|piece| {
                let lab = lists::Lab::new(piece, kind).unwrap();
                (lab.quick_signature(), lab)
            })
            .collect();
        for (i, a) in fillers.iter().enumerate() {
            let report = lists::check_piece(a, kind).unwrap();
            assert!(report.problems.is_empty(), "{kind:?}: {}", report.verdict());
            // (A list takes one royal filler at most: they may be other fillers made royal.)
            for (j, b) in fillers[..i].iter().enumerate().filter(|(_, b)| !b.is_royal) {
                let is_same = labs[i].0 == labs[j].0 && labs[i].1.signature() == labs[j].1.signature();
                assert!(!is_same, "{kind:?}: {a} is {b}");
            }
        }
        let small = fillers
            .iter()
            .filter(|p| lists::check_piece(p, kind).unwrap().empty_board.squares <= lists::SMALL_PIECE)
            .count();
        assert!(small >= kind.small_pieces() + 5, "{kind:?}: {small} small fillers");
    }
}
