//! Pieces the reference data cannot express (docs/rules/ultimate-battle.md and pick-the-team.md): the
//! true Ultimate Battle king, the Chinese nightrider, the Murray lion, the blocking prince, the pao.

use arbiter_engine::chess_move::Move;
use arbiter_engine::geometry::Square;
use arbiter_engine::movegen;
use arbiter_engine::piece::Color;
use arbiter_engine::position::Position;
use arbiter_engine::rules::Standard;
use arbiter_engine::variant_file::Variant;

/// A variant on a `size`x`size` board with the given catalogue pieces, without castling.
fn variant(size: u8, pieces: &[(&str, char)]) -> Variant {
    let list: Vec<String> = pieces
        .iter()
        .map(|(id, letter)| format!("{{ catalogue = \"{id}\", letter = \"{letter}\" }}"))
        .collect();
    let empty = vec![size.to_string(); size as usize].join("/");
    let text = format!(
        "id = \"t\"\nname = \"t\"\nfiles = {size}\nranks = {size}\nstart = \"{empty} w - - 0 1\"\npieces = [{}]\n",
        list.join(", ")
    );
    Variant::from_toml(&text).unwrap()
}

fn position(variant: &Variant, fen: &str) -> Position {
    variant.position_from_fen(fen).unwrap()
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Destinations of the legal moves of the piece on `from`, sorted by name.
fn destinations(variant: &Variant, position: &Position, from: &str) -> Vec<String> {
    let mut out: Vec<String> = movegen::legal_moves(&Standard, variant, position)
        .into_iter()
        .filter(|m: &Move| m.from == sq(from))
        .map(|m| m.to.to_string())
        .collect();
    out.sort();
    out
}

fn ubc() -> Variant {
    variant(
        8,
        &[
            ("ubc-king", 'K'),
            ("ubc-queen", 'Q'),
            ("ubc-knight", 'N'),
            ("ubc-pawn", 'P'),
            ("rook", 'R'),
            ("bishop", 'B'),
        ],
    )
}

#[test]
fn ultimate_battle_king_reaches_knight_squares_and_orthogonal_neighbours_never_diagonal_ones() {
    let v = ubc();
    let p = position(&v, "7k/8/8/8/3K4/8/8/8 w - - 0 1");
    let moves = destinations(&v, &p, "d4");
    assert_eq!(
        moves,
        ["b3", "b5", "c2", "c4", "c6", "d3", "d5", "e2", "e4", "e6", "f3", "f5"]
    );
}

#[test]
fn ultimate_battle_king_is_blocked_by_its_diagonal_neighbour() {
    let v = ubc();
    // A pawn of its own on e5 blocks the two knight squares beyond it (f5, e6); d5 and e4 are
    // still reached through c5 and e3.
    let p = position(&v, "7k/8/8/4P3/3K4/8/8/8 w - - 0 1");
    let moves = destinations(&v, &p, "d4");
    assert!(
        !moves.contains(&"f5".into()) && !moves.contains(&"e6".into()),
        "{moves:?}"
    );
    assert!(
        moves.contains(&"d5".into()) && moves.contains(&"e4".into()),
        "{moves:?}"
    );
    assert_eq!(moves.len(), 10);
}

#[test]
fn ultimate_battle_king_attacks_are_not_symmetric() {
    let v = ubc();
    // White king d4, White pawn e4, Black king f5. White reaches f5 through e5 (empty); Black
    // would reach d4 through e4, which the pawn blocks.
    let black_to_move = position(&v, "8/8/8/5k2/3KP3/8/8/8 b - - 0 1");
    assert!(movegen::is_in_check(&Standard, &v, &black_to_move, Color::Black));
    assert!(!movegen::is_in_check(&Standard, &v, &black_to_move, Color::White));
}

#[test]
fn ultimate_battle_king_may_pass_an_attacked_square_when_its_destination_is_safe() {
    let v = ubc();
    // The rook on e8 attacks e5, the square the king passes on its way to f5.
    let p = position(&v, "k3r3/8/8/8/3K4/8/8/8 w - - 0 1");
    let moves = destinations(&v, &p, "d4");
    assert!(moves.contains(&"f5".into()), "{moves:?}");
    assert!(
        !moves.contains(&"e4".into()) && !moves.contains(&"e6".into()),
        "destinations on the e-file are attacked"
    );
}

#[test]
fn ultimate_battle_pawn_captures_diagonally_and_double_steps_straight_from_its_first_rank() {
    let v = ubc();
    let p = position(&v, "k7/8/8/8/8/4r3/3P4/K7 w - - 0 1");
    assert_eq!(destinations(&v, &p, "d2"), ["c3", "d4", "e3"]);
    // The double step needs the square between empty and never captures.
    let blocked = position(&v, "k7/8/8/8/3r4/3r4/3P4/K7 w - - 0 1");
    assert_eq!(destinations(&v, &blocked, "d2"), ["c3", "e3"]);
}

fn ptt(pieces: &[(&str, char)]) -> Variant {
    let mut all = vec![("ptt-king", 'K')];
    all.extend_from_slice(pieces);
    variant(10, &all)
}

#[test]
fn chinese_nightrider_repeats_mao_steps_that_need_their_orthogonal_squares_empty() {
    let v = ptt(&[("ptt-chinese-nightrider", 'J'), ("ptt-wazir", 'W')]);
    let open = position(&v, "9k/10/10/10/10/4J5/10/10/10/K9 w - - 0 1");
    assert_eq!(destinations(&v, &open, "e5").len(), 16);
    // A wazir on e6 blocks every step that starts by going up: d7, f7 and the squares beyond.
    let blocked = position(&v, "9k/10/10/10/4W5/4J5/10/10/10/K9 w - - 0 1");
    let moves = destinations(&v, &blocked, "e5");
    for gone in ["d7", "f7", "c9", "g9"] {
        assert!(
            !moves.contains(&gone.to_string()),
            "{gone} should be blocked: {moves:?}"
        );
    }
    assert_eq!(moves.len(), 12);
    // An enemy on the first landing square is captured and stops the ride.
    let capture = position(&v, "9k/10/10/5w4/10/4J5/10/10/10/K9 w - - 0 1");
    let moves = destinations(&v, &capture, "e5");
    assert!(
        moves.contains(&"f7".into()) && !moves.contains(&"g9".into()),
        "{moves:?}"
    );
}

#[test]
fn murray_lion_leaps_two_squares_and_captures_but_never_moves_next_door() {
    let v = ptt(&[("ptt-murray-lion", 'M'), ("ptt-wazir", 'W')]);
    // Enemy wazirs on e6 (adjacent) and e7 (two away), own wazir on f5 (adjacent).
    let p = position(&v, "9k/10/10/4w5/4w5/4MW4/10/10/10/K9 w - - 0 1");
    let moves = destinations(&v, &p, "e5");
    assert!(moves.contains(&"e6".into()), "captures next door: {moves:?}");
    assert!(moves.contains(&"e7".into()), "leaps over the adjacent piece: {moves:?}");
    assert!(
        !moves.contains(&"d5".into()) && !moves.contains(&"e4".into()),
        "never moves next door: {moves:?}"
    );
    assert!(moves.contains(&"g5".into()), "leaps over its own piece: {moves:?}");
    assert_eq!(moves.len(), 9);
}

#[test]
fn blocking_prince_is_never_captured_nor_landed_on_but_blocks_and_screens() {
    let v = ptt(&[
        ("ptt-blocking-prince", 'Z'),
        ("ptt-rook", 'R'),
        ("ptt-pao", 'O'),
        ("ptt-grasshopper", 'G'),
    ]);
    // Black prince on e5 between a White rook on e1 and the Black king's file... the rook stops.
    let p = position(&v, "4k5/10/10/10/10/4z5/10/10/10/K3R5 w - - 0 1");
    let moves = destinations(&v, &p, "e1");
    assert!(
        !moves.contains(&"e5".into()),
        "the prince cannot be captured: {moves:?}"
    );
    assert!(!moves.contains(&"e6".into()), "the prince blocks the line: {moves:?}");
    assert!(
        !movegen::is_in_check(&Standard, &v, &p, Color::Black),
        "no check through the prince"
    );
    // A pao uses it as a screen and gives check beyond it; a grasshopper hops over it.
    let pao = position(&v, "4k5/10/10/10/10/4z5/10/10/10/K3O5 w - - 0 1");
    assert!(movegen::is_in_check(&Standard, &v, &pao, Color::White.other()));
    let hopper = position(&v, "9k/10/10/10/10/4z5/4G5/10/10/K9 w - - 0 1");
    assert!(destinations(&v, &hopper, "e4").contains(&"e6".into()));
    // Its own side cannot land on it either, and it moves like a king without capturing.
    let own = position(&v, "9k/10/10/10/10/4Zr4/10/10/10/K9 w - - 0 1");
    let moves = destinations(&v, &own, "e5");
    assert!(!moves.contains(&"f5".into()), "never captures: {moves:?}");
    assert_eq!(moves.len(), 7);
}

#[test]
fn pao_moves_like_a_rook_but_captures_only_over_one_screen() {
    let v = ptt(&[("ptt-pao", 'O'), ("ptt-wazir", 'W')]);
    let p = position(&v, "9k/10/4w5/10/4W5/4O5/10/10/10/K9 w - - 0 1");
    let moves = destinations(&v, &p, "e5");
    assert!(!moves.contains(&"e6".into()), "cannot capture or land on the screen");
    assert!(moves.contains(&"e8".into()), "captures over the screen");
    assert!(
        !moves.contains(&"e7".into()),
        "does not move beyond the screen without capturing"
    );
}
