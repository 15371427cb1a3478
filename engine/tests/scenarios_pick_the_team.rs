//! Pick-the-team chess (version one), ruling by ruling (rules page
//! docs/rules/pick-the-team.md): the picking phase, then the pieces in play. The pieces'
//! reference perft (pick-the-team-pieces.json, ptt.json) runs in perft_oracles.rs.

mod common;

use arbiter_engine::game::{Action, ActionError, Game, Phase, Seat};
use arbiter_engine::piece::Color;
use arbiter_engine::variant_file::Variant;
use arbiter_engine::variants::pick_the_team::{PickTheTeamGame, picker};
use arbiter_engine::{AnyGame, EndReason, VariantId, Viewer};
use common::{from_fen, mover, sq};
use std::sync::Arc;

const PTT: VariantId = VariantId::PickTheTeam;

fn ptt(fen: &str) -> AnyGame {
    from_fen(PTT, fen)
}

/// The legal actions of the side to move, as written, sorted.
fn legal(game: &impl Game) -> Vec<String> {
    let seat = game.to_act()[0];
    let mut texts: Vec<String> = game.noted_actions(seat).into_iter().map(|(_, text)| text).collect();
    texts.sort();
    texts
}

/// The destinations of the piece on `from` (SAN without check marks, promotions included).
fn moves_from(game: &AnyGame, from: &str) -> Vec<String> {
    let seat = mover(game);
    let from = sq(from);
    let mut moves: Vec<String> = game
        .noted_actions(seat)
        .into_iter()
        .filter(|(action, _)| matches!(action, Action::Move { from: f, .. } if *f == from))
        .map(|(action, _)| match action {
            Action::Move { to, .. } => to.to_string(),
            _ => unreachable!(),
        })
        .collect();
    moves.sort();
    moves.dedup();
    moves
}

fn squares(names: &str) -> Vec<String> {
    let mut out: Vec<String> = names.split_whitespace().map(str::to_string).collect();
    out.sort();
    out
}

fn act(game: &mut impl Game, text: &str) {
    let seat = game.to_act()[0];
    let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(seat, &action).unwrap();
}

fn refusal(game: &impl Game, text: &str) -> String {
    let seat = game.to_act()[0];
    match game.parse_action(seat, text) {
        Err(error) => error.to_string(),
        Ok(action) => panic!("{text} was accepted as {action:?}"),
    }
}

/// A small picking game on `files` x `ranks` with the given catalogue pieces.
fn small(files: u8, ranks: u8, pieces: &[&str]) -> PickTheTeamGame {
    let empty = vec![files.to_string(); ranks as usize].join("/");
    let list: Vec<String> = pieces.iter().map(|id| format!("{{ catalogue = \"{id}\" }}")).collect();
    let file = format!(
        "id = \"small-pick\"\nname = \"Small pick\"\nfiles = {files}\nranks = {ranks}\nstart = \"{empty} w - - 0 1\"\n\
         pieces = [{}]\ninitial_move_ranks = []\n",
        list.join(", ")
    );
    PickTheTeamGame::new(Arc::new(Variant::from_toml(&file).unwrap()))
}

// --- The picking phase -------------------------------------------------------------------------

#[test]
fn the_picking_order_is_white_one_then_blocks_of_two_and_white_the_last() {
    let order: String = (0..40)
        .map(|i| if picker(i) == Color::White { 'W' } else { 'B' })
        .collect();
    assert_eq!(order, "WBBWWBBWWBBWWBBWWBBWWBBWWBBWWBBWWBBWWBBW");
    assert_eq!(order.matches('W').count(), 20);
}

#[test]
fn the_first_pick_of_each_player_is_royal_and_goes_on_their_first_row() {
    let mut game = AnyGame::new(PTT);
    assert_eq!(game.phase(), Phase::Setup);
    let first = legal(&game);
    assert_eq!(first.len(), 20, "K or RN on one of ten squares: {first:?}");
    assert!(
        first
            .iter()
            .all(|pick| (pick.starts_with("K@") || pick.starts_with("RN@")) && pick.ends_with('1'))
    );
    let message = refusal(&game, "Q@e1");
    assert!(message.contains("first pick must be royal"), "{message}");
    act(&mut game, "RN@e1");
    assert_eq!(mover(&game), Seat::Second);
    let black = legal(&game);
    assert_eq!(black.len(), 10, "only the King is left royal: {black:?}");
    assert!(black.iter().all(|pick| pick.starts_with("K@") && pick.ends_with("10")));
    let message = refusal(&game, "RN@e10");
    assert!(message.contains("already been picked"), "{message}");
    let message = refusal(&game, "K@e9");
    assert!(message.contains("first row"), "{message}");
    act(&mut game, "K@d10");
    // Black's second pick: any of the 38 types left, on row 10.
    let second = legal(&game);
    assert!(second.iter().all(|pick| pick.ends_with("10")));
    let types: std::collections::BTreeSet<&str> = second.iter().map(|p| p.split('@').next().unwrap()).collect();
    assert_eq!(types.len(), 38);
}

#[test]
fn the_second_row_is_used_only_once_the_first_is_full_and_every_type_is_picked_once() {
    let mut game = AnyGame::new(PTT);
    let mut picked = Vec::new();
    for index in 0..40 {
        let seat = mover(&game);
        assert_eq!(seat.color(), picker(index), "pick {index}");
        let color = seat.color();
        let home = |row: u8| if color == Color::White { row - 1 } else { 10 - row };
        let view = game.view(Viewer::Spectator);
        let first_row_full = (0..10).all(|file| {
            !matches!(
                view.board().cell(arbiter_engine::geometry::Square::new(file, home(1))),
                arbiter_engine::ViewCell::Empty
            )
        });
        let (action, text) = game.noted_actions(seat).into_iter().next().unwrap();
        let Action::Place { piece, to } = &action else {
            panic!("{action:?}")
        };
        let expected_row = if first_row_full { home(2) } else { home(1) };
        assert_eq!(
            to.rank(),
            expected_row,
            "pick {index} ({text}) goes on row {}",
            expected_row + 1
        );
        picked.push(piece.clone());
        game.apply(seat, &action).unwrap();
    }
    picked.sort();
    picked.dedup();
    assert_eq!(picked.len(), 40, "every type once");
    assert_eq!(game.phase(), Phase::Play);
    assert!(game.view(Viewer::Spectator).pool.is_empty());
    let fen = game.view(Viewer::Spectator).fen();
    let rows: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
    assert!(rows[2..8].iter().all(|row| *row == "10"), "rows 3-8 stay empty: {fen}");
}

#[test]
fn a_placement_may_not_attack_the_opponents_royal_while_another_does_not() {
    // Row 1 of a 1x4 board is a1, Black's first row a4: a rook on a3 would attack the King on a1,
    // a knight would not.
    let mut game = small(1, 4, &["ptt-king", "ptt-royal-knight", "ptt-knight", "ptt-rook"]);
    act(&mut game, "K@a1");
    act(&mut game, "RN@a4");
    assert_eq!(
        legal(&game),
        ["N@a3"],
        "the second row once the first is full; the rook would check"
    );
    let message = refusal(&game, "R@a3");
    assert!(message.contains("would attack a royal"), "{message}");
}

#[test]
fn when_every_placement_disturbs_a_royal_any_placement_is_allowed() {
    let mut game = small(1, 4, &["ptt-king", "ptt-royal-knight", "ptt-rook", "ptt-queen"]);
    act(&mut game, "K@a1");
    act(&mut game, "RN@a4");
    assert_eq!(
        legal(&game),
        ["Q@a3", "R@a3"],
        "both attack the King: neither is refused"
    );
    act(&mut game, "R@a3");
    // White's King is attacked; its last pick must not leave it so, and here it blocks.
    assert_eq!(legal(&game), ["Q@a2"]);
    act(&mut game, "Q@a2");
    assert_eq!(game.phase(), Phase::Play);
    assert_eq!(mover_of(&game), Seat::First, "no royal attacked: White moves first");
}

fn mover_of(game: &impl Game) -> Seat {
    game.to_act()[0]
}

#[test]
fn the_owner_of_the_one_attacked_royal_moves_first() {
    // White's last pick is a rook that can only go on b1, under Black's royal knight on b5.
    let mut game = small(2, 5, &["ptt-king", "ptt-royal-knight", "ptt-knight", "ptt-rook"]);
    act(&mut game, "K@a1");
    act(&mut game, "RN@b5");
    act(&mut game, "N@a5");
    assert_eq!(legal(&game), ["R@b1"], "the rook's only square, though it attacks b5");
    act(&mut game, "R@b1");
    assert_eq!(
        mover_of(&game),
        Seat::Second,
        "Black's royal is attacked: Black moves first"
    );
    assert_eq!(
        legal(&game),
        ["Nb3+", "RNa3"],
        "and must get out of check: block or step away"
    );
}

#[test]
fn both_royals_attacked_or_neither_means_white_moves_first() {
    // Neither: the full game above. Both: each side's last placement attacks the other's royal.
    let mut game = small(2, 5, &["ptt-king", "ptt-royal-knight", "ptt-rook", "ptt-queen"]);
    act(&mut game, "K@b1");
    act(&mut game, "RN@a5");
    // Black's rook on b5 attacks the King on b1 (b2-b4 empty); the queen on b5 too: fallback.
    assert_eq!(legal(&game), ["Q@b5", "R@b5"]);
    act(&mut game, "R@b5");
    // White's last pick: the queen on a1, which attacks a5 (and leaves b1 attacked): the only
    // square, so allowed.
    assert_eq!(legal(&game), ["Q@a1"]);
    act(&mut game, "Q@a1");
    assert_eq!(mover_of(&game), Seat::First, "both royals attacked: White moves first");
    let view = game.view(Viewer::Seat(Seat::First));
    assert_eq!(view.board().check.map(|s| s.to_string()).as_deref(), Some("b1"));
}

#[test]
fn a_pick_is_written_symbol_at_square_and_bad_picks_are_explained() {
    let game = AnyGame::new(PTT);
    let seat = Seat::First;
    assert!(matches!(game.parse_action(seat, "K@e1"), Ok(Action::Place { .. })));
    assert!(
        matches!(game.parse_action(seat, "k@e1"), Ok(Action::Place { .. })),
        "either case"
    );
    for (text, expected) in [
        ("Ke1", "like CN@c1"),
        ("XY@e1", "XY is not a piece of this game"),
        ("K@z9", "like CN@c1"),
        ("K@e2", "first row"),
    ] {
        let message = refusal(&game, text);
        assert!(message.contains(expected), "{text}: {message}");
    }
    assert!(matches!(
        game.parse_action(Seat::Second, "K@e10"),
        Err(ActionError::NotYourTurn)
    ));
}

#[test]
fn the_pool_and_the_pick_count_are_in_every_view() {
    let mut game = AnyGame::new(PTT);
    act(&mut game, "K@e1");
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.pool.len(), 39);
    assert!(view.pool.iter().all(|&p| *view.piece(p).id != *"ptt-king"));
    assert!(
        view.notes
            .iter()
            .any(|n| n == "Pick 2 of 40: 39 pieces left in the pool"),
        "{:?}",
        view.notes
    );
    assert_eq!(view.record[0].text, "K@e1");
}

#[test]
fn the_picking_tree_counts_royal_first_picks() {
    let game = AnyGame::new(PTT);
    // 2 royals x 10 squares, then Black's remaining royal on 10 squares.
    assert_eq!(game.perft(1), 20);
    assert_eq!(game.perft(2), 200);
}

// --- Pawn multi-steps --------------------------------------------------------------------------

#[test]
fn every_pawn_family_steps_two_or_three_from_rows_one_and_two_and_two_from_row_three() {
    // Straight families: pawn, Chinese pawn, defending and fish pawns.
    for (fen, from, expected) in [
        ("4k5/10/10/10/10/10/10/10/4P5/K9 w - - 0 1", "e2", "e3 e4 e5"),
        ("4k5/10/10/10/10/10/10/4P5/10/K9 w - - 0 1", "e3", "e4 e5"),
        ("4k5/10/10/10/10/10/4P5/10/10/K9 w - - 0 1", "e4", "e5"),
        ("4k5/10/10/10/10/10/10/10/10/K3P5 w - - 0 1", "e1", "e2 e3 e4"),
        ("4k5/10/10/10/10/10/10/4(CP)5/10/K9 w - - 0 1", "e3", "e4 e5"),
        ("4k5/10/10/10/10/10/10/10/4(FI)5/K9 w - - 0 1", "e2", "e1 e3 e4 e5"),
    ] {
        assert_eq!(moves_from(&ptt(fen), from), squares(expected), "{fen}");
    }
}

#[test]
fn the_chinese_pawn_on_e3_goes_straight_not_diagonally() {
    // The original rules' d4/c5/f4/g5 is the fF-pawn's move (docs/rules/pick-the-team.md).
    let game = ptt("4k5/10/10/10/10/10/10/4(CP)5/10/K9 w - - 0 1");
    assert_eq!(moves_from(&game, "e3"), squares("e4 e5"));
    let ff = ptt("4k5/10/10/10/10/10/10/4(FP)5/10/K9 w - - 0 1");
    assert_eq!(moves_from(&ff, "e3"), squares("d4 c5 f4 g5"));
}

#[test]
fn berolina_and_ff_pawns_multi_step_diagonally() {
    let berolina = ptt("4k5/10/10/10/10/10/10/10/4(BE)5/K9 w - - 0 1");
    assert_eq!(moves_from(&berolina, "e2"), squares("d3 c4 b5 f3 g4 h5"));
    let mecklenberg_ff = ptt("4k5/10/10/10/10/10/10/10/10/K3(MF)5 w - - 0 1");
    assert_eq!(moves_from(&mecklenberg_ff, "e1"), squares("d2 c3 b4 f2 g3 h4"));
}

#[test]
fn multi_steps_need_every_crossed_square_empty_and_never_capture() {
    // A piece on e4 stops the triple step and the double step past it.
    let blocked = ptt("4k5/10/10/10/10/10/4n5/10/4P5/K9 w - - 0 1");
    assert_eq!(moves_from(&blocked, "e2"), squares("e3"));
    // An enemy on e5: the triple step may not capture it.
    let target = ptt("4k5/10/10/10/10/4n5/10/10/4P5/K9 w - - 0 1");
    assert_eq!(moves_from(&target, "e2"), squares("e3 e4"));
    // Berolina: the diagonal path d3-c4 blocked at c4.
    let berolina = ptt("4k5/10/10/10/10/10/2n7/10/4(BE)5/K9 w - - 0 1");
    assert_eq!(moves_from(&berolina, "e2"), squares("d3 f3 g4 h5"));
}

#[test]
fn black_pawns_count_rows_from_their_own_side() {
    // Black's pawn on e9 is on its row 2; Black's Berolina on e8 on its row 3.
    let game = ptt("k9/4p5/3(be)6/10/10/10/10/10/10/9K b - - 0 1");
    assert_eq!(moves_from(&game, "e9"), squares("e8 e7 e6"));
    assert_eq!(moves_from(&game, "d8"), squares("c7 b6 e7 f6"));
}

#[test]
fn defending_pawns_retreat_straight_back_without_capturing() {
    let game = ptt("k9/10/10/10/4(DP)5/10/10/4n5/10/9K w - - 0 1");
    assert_eq!(
        moves_from(&game, "e6"),
        squares("e7 e5 e4"),
        "back to e4: the knight on e3 stops it"
    );
    let fish = ptt("k9/10/10/10/4(FI)5/4n5/10/10/10/9K w - - 0 1");
    assert_eq!(
        moves_from(&fish, "e6"),
        squares("e7 e5"),
        "a fish pawn captures straight back"
    );
}

// --- Promotion ----------------------------------------------------------------------------------

/// The types a pawn's move to `to` may promote to, as symbols, sorted.
fn promotions(game: &AnyGame, to: &str) -> Vec<String> {
    let seat = mover(game);
    let mut symbols: Vec<String> = game
        .noted_actions(seat)
        .into_iter()
        .filter(|(action, _)| matches!(action, Action::Move { to: t, promotion: Some(_), .. } if t.to_string() == to))
        .map(|(_, text)| text.split('=').nth(1).unwrap().trim_end_matches(['+', '#']).to_string())
        .collect();
    symbols.sort();
    symbols
}

const TARGETS: &str = "AL AS B BP BS CA CD CH CN DA DS F G JS ML N NA NC PA Q R W";

#[test]
fn pawns_promote_on_the_last_row_to_any_non_royal_non_pawn_type() {
    // A queen already on the board does not stop a second one.
    let game = ptt("k9/4P5/10/10/10/10/10/10/10/Q8K w - - 0 1");
    assert_eq!(promotions(&game, "e10"), squares(TARGETS));
    assert_eq!(
        moves_from(&game, "e9"),
        ["e10"],
        "promotion is compulsory: no move stays a pawn"
    );
}

#[test]
fn mecklenberg_pawns_promote_on_their_eighth_row() {
    let white = ptt("k9/10/10/4(MP)5/10/10/10/10/10/9K w - - 0 1");
    assert_eq!(promotions(&white, "e8"), squares(TARGETS));
    let black = ptt("k9/10/10/10/10/10/4(mc)5/10/10/9K b - - 0 1");
    assert_eq!(promotions(&black, "e3"), squares(TARGETS), "Black's 8th row is row 3");
    // An ordinary pawn on e7 does not promote on e8.
    let pawn = ptt("k9/10/10/4P5/10/10/10/10/10/9K w - - 0 1");
    assert!(promotions(&pawn, "e8").is_empty());
}

#[test]
fn spears_never_promote_and_are_stuck_on_the_last_row() {
    let game = ptt("k9/4(JS)5/10/10/10/10/10/10/10/9K w - - 0 1");
    assert_eq!(moves_from(&game, "e9"), ["e10"]);
    assert!(promotions(&game, "e10").is_empty());
    let stuck = ptt("k3(JS)5/10/10/10/10/10/10/10/10/9K w - - 0 1");
    assert!(moves_from(&stuck, "e10").is_empty());
}

// --- Pieces -------------------------------------------------------------------------------------

#[test]
fn the_blocking_prince_is_never_captured_nor_landed_on_and_never_captures() {
    // Black's prince on e6: the rook on e1 stops below it, the knight on d4 may not land on it.
    let game = ptt("k9/10/10/10/4(bp)5/10/3N6/10/10/4R4K w - - 0 1");
    assert_eq!(moves_from(&game, "e1"), squares("a1 b1 c1 d1 f1 g1 h1 i1 e2 e3 e4 e5"));
    assert_eq!(moves_from(&game, "d4"), squares("b3 b5 c2 c6 e2 f3 f5"));
    // White's prince steps only to empty squares: never onto the knight on b1.
    let prince = ptt("k9/10/10/10/10/10/10/10/1(BP)8/1n7K w - - 0 1");
    assert_eq!(moves_from(&prince, "b2"), squares("a1 a2 a3 b3 c1 c2 c3"));
    // A prince next to the enemy king gives no check.
    let beside = ptt("k(BP)8/10/10/10/10/10/10/10/10/9K b - - 0 1");
    assert!(beside.view(Viewer::Spectator).board().check.is_none());
    assert!(moves_from(&beside, "a10").len() == 2, "a9 and b9; b10 cannot be taken");
}

#[test]
fn the_blocking_prince_is_a_screen_for_the_pao_and_a_hurdle_for_the_grasshopper() {
    let pao = ptt("k9/4r5/10/10/4(BP)5/10/10/10/10/4(PA)4K w - - 0 1");
    assert!(
        moves_from(&pao, "e1").contains(&"e9".to_string()),
        "captures over the prince"
    );
    let grasshopper = ptt("k9/10/10/10/10/10/4(bp)5/10/10/4G4K w - - 0 1");
    assert!(
        moves_from(&grasshopper, "e1").contains(&"e5".to_string()),
        "lands right behind it"
    );
}

#[test]
fn the_murray_lion_leaps_two_away_and_captures_but_never_moves_next_to_it() {
    let game = ptt("k9/10/10/10/10/10/3n6/4(ML)5/10/9K w - - 0 1");
    let moves = moves_from(&game, "e3");
    assert_eq!(
        moves,
        squares("c1 e1 g1 c3 g3 c5 e5 g5 d4"),
        "leaps, and the capture on d4"
    );
    // An adjacent enemy king is in check from the lion.
    let check = ptt("k9/10/10/10/10/10/10/10/(ml)9/K9 w - - 0 1");
    assert!(check.view(Viewer::Spectator).board().check.is_some());
}

#[test]
fn the_chinese_nightrider_needs_each_legs_orthogonal_square_empty() {
    // From a1 towards b3, c5, d7: legs a2, b4, c6. A piece on b4 stops it after b3.
    let open = ptt("k9/10/10/10/10/10/10/10/10/(CN)8K w - - 0 1");
    assert!(moves_from(&open, "a1").contains(&"d7".to_string()));
    let blocked = ptt("k9/10/10/10/10/10/1p8/10/10/(CN)8K w - - 0 1");
    let moves = moves_from(&blocked, "a1");
    assert!(
        moves.contains(&"b3".to_string()) && !moves.contains(&"c5".to_string()),
        "{moves:?}"
    );
}

#[test]
fn checkmate_of_a_royal_knight_ends_the_game() {
    // The royal knight on a10 can go to b8 (the rook's file) or c9 (next to the queen).
    let mut game = ptt("(rn)9/10/10/10/10/10/10/10/10/1RQ6K w - - 0 1");
    act(&mut game, "Qc10");
    let outcome = game.outcome().expect("mate");
    assert_eq!(
        (outcome.reason, outcome.winner),
        (EndReason::Checkmate, Some(Seat::First))
    );
    assert_eq!(game.view(Viewer::Spectator).record[0].text, "Qc10#");
}

// --- The rules page -----------------------------------------------------------------------------

#[test]
fn the_rules_page_tables_the_40_pieces_as_the_catalogue_defines_them() {
    let page = include_str!("../../docs/rules/pick-the-team.md");
    let rows: Vec<String> = arbiter_engine::catalogue::pick_the_team_pieces()
        .iter()
        .enumerate()
        .map(|(index, piece)| {
            format!(
                "| {} | {} | `{}` | `{}` | {} | <img src=\"../images/pieces/{}.svg\" width=\"150\" alt=\"{}\"> |",
                index + 1,
                piece.name,
                piece.symbol,
                piece.betza,
                piece.description,
                piece.id,
                piece.name
            )
        })
        .collect();
    let missing: Vec<&String> = rows.iter().filter(|row| !page.contains(row.as_str())).collect();
    assert!(missing.is_empty(), "the table should read:\n{}", rows.join("\n"));
    // In chat the page stops before the table, and still lists every symbol.
    let chat = PTT.rules_page();
    assert!(!chat.contains("<img") && chat.len() < 4096, "{} characters", chat.len());
    for piece in arbiter_engine::catalogue::pick_the_team_pieces() {
        assert!(
            chat.contains(&format!("`{}` {}", piece.symbol, piece.name)),
            "{}",
            piece.name
        );
    }
}

#[test]
fn the_search_keeps_a_table_only_in_play_and_a_copy_that_stops_writing_plays_the_same() {
    assert_eq!(AnyGame::new(PTT).search_key(), None, "while picking");
    let game = ptt("4k5/10/10/10/10/10/10/4(CP)5/10/K9 w - - 0 1");
    assert!(game.search_key().is_some(), "in play");
    // A search's copy writes nothing, and takes and refuses the same moves.
    let mut written = game.clone();
    let mut searched = game.clone();
    searched.stop_writing();
    for action in game.legal_actions(Seat::First) {
        let (mut a, mut b) = (written.clone(), searched.clone());
        assert_eq!(
            a.apply(Seat::First, &action).is_ok(),
            b.apply(Seat::First, &action).is_ok()
        );
        assert_eq!(a.search_key(), b.search_key());
    }
    let stale = game.legal_actions(Seat::First).remove(0);
    written.apply(Seat::First, &stale).unwrap();
    searched.apply(Seat::First, &stale).unwrap();
    assert!(searched.view(Viewer::Spectator).record.is_empty());
    assert!(!written.view(Viewer::Spectator).record.is_empty());
    // The move just played is no longer legal for White: refused alike, with the same words.
    let refused = |game: &mut AnyGame| game.apply(Seat::Second, &stale).unwrap_err().to_string();
    assert_eq!(refused(&mut written), refused(&mut searched));
}

/// Version two, Patch and Easy Patch play Pick-the-team once both lists are in: the search reads
/// that play's key, passes, guards and checks, and stops its writing; while the lists are
/// written it keeps no table and never passes.
#[test]
fn an_own_pieces_game_is_searched_as_its_play_once_the_lists_are_in() {
    for id in [VariantId::PickTheTeam2, VariantId::Patch, VariantId::EasyPatch] {
        let mut game = AnyGame::new(id);
        assert_eq!(game.search_key(), None, "{id:?} while the lists are written");
        assert!(!game.clone().pass_in_search(), "{id:?} while the lists are written");
        // The lists, then the picks, each the first legal action, until the play begins.
        let mut actions = 0;
        while game.search_key().is_none() {
            let seat = game.to_act()[0];
            let action = game.legal_actions(seat).remove(0);
            game.apply(seat, &action).unwrap();
            actions += 1;
            assert!(actions < 200, "{id:?} reaches its play");
        }
        let mover = game.to_act()[0];
        let mut passed = game.clone();
        assert!(passed.pass_in_search(), "{id:?} in play");
        assert_eq!(
            passed.to_act(),
            vec![mover.other()],
            "{id:?}: the pass hands over the turn"
        );
        assert_ne!(passed.search_key(), game.search_key());
        assert!(game.guarded(0, sq("a1"), mover.other()).is_some(), "{id:?} in play");
        // A search's copy writes nothing, and takes the same moves to the same positions.
        let mut searched = game.clone();
        searched.stop_writing();
        for action in game.legal_actions(mover) {
            assert!(game.gives_check(mover, &action).is_some(), "{id:?} {action:?}");
            let (mut a, mut b) = (game.clone(), searched.clone());
            a.apply(mover, &action).unwrap();
            b.apply(mover, &action).unwrap();
            assert_eq!(a.search_key(), b.search_key(), "{id:?} {action:?}");
            // (The search's copy writes no FEN either.)
            assert_eq!(
                a.sight(Viewer::Spectator).boards[0].cells,
                b.sight(Viewer::Spectator).boards[0].cells
            );
        }
        let action = game.legal_actions(mover).remove(0);
        let (mut written, mut unwritten) = (game.clone(), searched.clone());
        written.apply(mover, &action).unwrap();
        unwritten.apply(mover, &action).unwrap();
        let recorded = |game: &AnyGame| game.view(Viewer::Spectator).record.len();
        assert_eq!(recorded(&written), recorded(&game) + 1, "{id:?}");
        assert!(
            recorded(&unwritten) < recorded(&written),
            "{id:?}: the search's copy writes no record"
        );
    }
}
