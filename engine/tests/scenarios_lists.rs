//! The list rules of the games of players' own pieces, as ruled (docs/rules/pick-the-team-2.md,
//! patch.md, easy-patch.md, "Reading the list rules"): one test per ruling, each reading a list
//! line as a player writes it and checking the verdict's words.

use arbiter_engine::geometry::Square;
use arbiter_engine::lists::{self, Lab, ListKind, ListPiece};
use arbiter_engine::piece::Color;
use arbiter_engine::position::Position;
use arbiter_engine::rules::Standard;
use arbiter_engine::variants::own_pieces::game_variant;

fn piece(line: &str) -> ListPiece {
    ListPiece::read(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn problems(line: &str, kind: ListKind) -> Vec<String> {
    lists::check_piece(&piece(line), kind).unwrap().problems
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

#[test]
fn rows_1_and_2_full_covers_a_screen_anywhere_on_the_board() {
    // A camel cannon from a1 hops a screen on b4 and lands on d10 (c7 empty).
    let reach = Lab::new(&piece("Camel cannon, CC, pCC"), ListKind::PickTheTeam2)
        .unwrap()
        .reach_from_full_home()
        .expect("the camel cannon reaches the last row");
    assert_eq!((reach.from, reach.to[0]), (sq("a1"), sq("d10")));
    assert_eq!(reach.enemies, [sq("b4")], "the screen it needs, off rows 1 and 2");
    assert_eq!(
        problems("Camel cannon, CC, pCC", ListKind::PickTheTeam2),
        ["standing on a1 with rows 1 and 2 full and a piece on b4, it moves to d10 on the last row in one move"]
    );
    // The arrangement is real: the move generator lands it there.
    let lab = Lab::new(&piece("Camel cannon, CC, pCC"), ListKind::PickTheTeam2).unwrap();
    let mut board: Vec<Square> = (0..10).flat_map(|f| [Square::new(f, 0), Square::new(f, 1)]).collect();
    board.retain(|&s| s != sq("a1"));
    board.push(sq("b4"));
    assert!(lab.reach(sq("a1"), &board, &[]).contains(&sq("d10")));
    // A cannon whose line crosses row 2 uses that row's piece as its screen (the pao), and a
    // grasshopper lands right behind its hurdle, never on the last row from a full home.
    assert!(!problems("Pao, PA, mRcpR", ListKind::Patch).is_empty());
    assert!(problems("Grasshopper, GH, gQ", ListKind::Patch).is_empty());
    // A camel grasshopper lands right behind its first hurdle: over c7 (b4 empty) to d10.
    assert_eq!(
        problems("Camel grasshopper, CG, gCC", ListKind::PickTheTeam2),
        ["standing on a1 with rows 1 and 2 full and a piece on c7, it moves to d10 on the last row in one move"]
    );
}

#[test]
fn a_marked_pawn_multi_steps_in_its_own_quiet_directions_only() {
    let kind = ListKind::PickTheTeam2;
    // White's forward-right pawn (quiet step fr, capture straight ahead) and a straight-and-
    // diagonal pawn, on row 2 of 10x10 with nothing in the way.
    let lists = [
        piece("King, K, K, royal"),
        piece("Right pawn, RP, mfrFcfW, pawn"),
        piece("Broad pawn, BP, mfWmfF, pawn"),
        piece("Long pawn, LP, mfDcfF, pawn"),
    ];
    let (variant, _) = game_variant(kind, &lists, &lists);
    // The piece alone with the two kings (White's on j1, Black's on a10), `color` to move.
    let destinations = |symbol: &str, color: Color, from: &str| {
        let from = sq(from);
        let written = if color == Color::White {
            format!("({symbol})")
        } else {
            format!("({})", symbol.to_ascii_lowercase())
        };
        let mut ranks: Vec<String> = (0..10).map(|_| "10".to_string()).collect();
        ranks[0] = "k9".into();
        ranks[9] = "9K".into();
        let row = 9 - from.rank() as usize;
        let file = from.file() as usize;
        let left = if file > 0 { file.to_string() } else { String::new() };
        let right = if file < 9 {
            (9 - file).to_string()
        } else {
            String::new()
        };
        ranks[row] = format!("{left}{written}{right}");
        let turn = if color == Color::White { "w" } else { "b" };
        let fen = format!("{} {turn} - - 0 1", ranks.join("/"));
        let position: Position = variant.position_from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut to: Vec<String> = arbiter_engine::movegen::legal_moves(&Standard, &variant, &position)
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| m.to.to_string())
            .collect();
        to.sort();
        to
    };
    assert_eq!(
        destinations("RP", Color::White, "d2"),
        ["e3", "f4", "g5"],
        "forward-right only"
    );
    assert_eq!(
        destinations("RP", Color::Black, "d9"),
        ["a6", "b7", "c8"],
        "Black's forward-right is toward the a-file"
    );
    assert_eq!(
        destinations("BP", Color::White, "d2"),
        ["a5", "b4", "c3", "d3", "d4", "d5", "e3", "f4", "g5"],
        "straight and both diagonals, each a single step or a double or triple"
    );
    // A pawn whose only quiet forward move is a two-square leap may be marked, and has no
    // multi-steps (the leap is its own move).
    assert!(problems("Long pawn, LP, mfDcfF, pawn", kind).is_empty());
    assert_eq!(destinations("LP", Color::White, "d2"), ["d4"]);
    // The sheet's piece and the game's agree: the list's definition is the game's.
    let def = piece("Right pawn, RP, mfrFcfW, pawn").def("x");
    assert_eq!(
        def.multi_step.map(|m| m.files().to_vec()),
        Some(vec![1]),
        "the sheet's pawn multi-steps forward-right"
    );
}

#[test]
fn betza_initial_moves_are_refused_with_why() {
    let refused = ListPiece::read("Runner, RU, mfWifmnD, pawn").unwrap_err();
    assert!(
        refused.contains("initial move (`i`)") && refused.contains("double and triple steps"),
        "{refused}"
    );
}

#[test]
fn an_easy_patch_list_may_hold_a_piece_twice_under_two_symbols() {
    let list: Vec<ListPiece> = [
        "Queen, Q, Q",
        "Queen again, QA, Q",
        "Rook, R, R",
        "Bishop, B, B",
        "Knight, N, N",
        "Camel, CA, C",
        "Cardinal, CD, BN",
    ]
    .iter()
    .map(|line| piece(line))
    .collect();
    let review = lists::Review::of(&list, ListKind::EasyPatch);
    assert!(review.is_accepted(), "{}", review.explain());
    // Two symbols it must still have; and Patch lists must still differ.
    let mut same_symbol = list.clone();
    same_symbol[1].symbol = "Q".into();
    let explained = lists::Review::of(&same_symbol, ListKind::EasyPatch).explain();
    assert!(explained.contains("already uses the symbol Q"), "{explained}");
    let patch = lists::check_list(&[piece("Queen, Q, Q"), piece("Queen again, QA, Q")], ListKind::Patch);
    assert!(
        patch.pieces[1]
            .problems
            .iter()
            .any(|p| p.contains("same piece as Queen")),
        "{:?}",
        patch.pieces[1].problems
    );
}

#[test]
fn a_royals_limit_is_the_most_it_reaches_in_one_real_position() {
    // A horse that captures as a wazir: an enemy on a wazir square blocks the two horse moves
    // through it, so the most is 8 (the open horse), never 4 captures plus 8 moves at once.
    let horse = Lab::new(&piece("Horse, H, cWmnN, royal"), ListKind::Patch).unwrap();
    let most = horse.in_any_position().unwrap();
    assert_eq!(most.squares, 8);
    assert_eq!(horse.reach(most.from, &most.enemies, &[]).len(), 8, "{most:?}");
    assert!(problems("Horse, H, cWmnN, royal", ListKind::Patch).is_empty());
    // Unlamed, the same piece does make 12 in one position, and is refused with it.
    let knight = Lab::new(&piece("Knight king, NK, cWmN, royal"), ListKind::Patch).unwrap();
    let most = knight.in_any_position().unwrap();
    assert_eq!(most.squares, 12);
    assert_eq!(knight.reach(most.from, &most.enemies, &[]).len(), 12);
    assert_eq!(
        problems("Knight king, NK, cWmN, royal", ListKind::Patch),
        [
            "as the royal piece it reaches 12 squares from c3 with enemies on c2, b3, d3, c4; a royal may reach at most 8 in any position"
        ]
    );
}
