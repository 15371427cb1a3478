//! Starting a game from a position a player gives (RULES.md, "Start positions that players give"),
//! game by game: Blockade and Garden of Statues, Pick-the-team, Ultimate Battle, Circe, Portal,
//! Knights are God, chess, and the games of players' own pieces. Each rule of a start is shown
//! refused with its reason, and a tricky start the rules can play is shown accepted and played on.
//! Every position goes through `AnyGame::from_players_fen`, what every way a position reaches a
//! new game asks.

mod common;

use arbiter_engine::lists::{self, ListKind, ListPiece};
use arbiter_engine::start::StartError;
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use arbiter_engine::{Action, ActionError, AnyGame, EndReason, Game, Outcome, Phase, Seat, VariantId, Viewer};
use common::{legal_san, mover, play, sq};

/// Why `fen` cannot start a game of `id`: the refusal's words (a position that does not read
/// is a failure here: every position below reads).
fn refusal(id: VariantId, fen: &str) -> String {
    match AnyGame::from_players_fen(id, fen) {
        Ok(start) => panic!("{id} from {fen} was accepted, notes {:?}", start.notes),
        Err(StartError::Refused(why)) => why.0,
        Err(StartError::Unreadable(error)) => panic!("{id} from {fen} does not read: {error}"),
    }
}

/// A game of `id` started from `fen`, with its notes for the first post.
fn started(id: VariantId, fen: &str) -> (AnyGame, Vec<String>) {
    match AnyGame::from_players_fen(id, fen) {
        Ok(start) => {
            assert_eq!(start.game.outcome(), None, "{id} from {fen}");
            assert!(!start.game.to_act().is_empty(), "{id} from {fen}: nobody is to act");
            (start.game, start.notes)
        }
        Err(error) => panic!("{id} from {fen} was refused: {error}"),
    }
}

/// A game of `id` started from `fen` with no notes.
fn accepted(id: VariantId, fen: &str) -> AnyGame {
    let (game, notes) = started(id, fen);
    assert!(notes.is_empty(), "{id} from {fen}: {notes:?}");
    game
}

fn fen(game: &AnyGame) -> String {
    game.view(Viewer::Spectator).fen()
}

fn assert_contains(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "\"{part}\" is not in: {text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Chess: the reproductions

const CHESS: VariantId = VariantId::Chess;

#[test]
fn chess_the_empty_board_is_refused_for_want_of_kings() {
    assert_eq!(
        refusal(CHESS, "8/8/8/8/8/8/8/8 w - - 0 1"),
        "White has no king: each side needs exactly one"
    );
    assert_eq!(
        refusal(CHESS, "8/8/8/8/8/8/8/4K3 w - - 0 1"),
        "Black has no king: each side needs exactly one"
    );
}

#[test]
fn chess_a_king_in_check_with_the_other_side_to_move_is_refused() {
    assert_contains(
        &refusal(CHESS, "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"),
        &["Black's king on e8 is in check with White to move", "could be taken"],
    );
    // The same position with Black to move is a check to answer, and plays on.
    let mut game = accepted(CHESS, "4k3/4Q3/8/8/8/8/8/R3K3 b - - 0 1");
    play(&mut game, "Kxe7");
    assert_eq!(fen(&game), "8/4k3/8/8/8/8/8/R3K3 w - - 0 2");
    assert_eq!(game.outcome(), None);
}

#[test]
fn chess_a_board_full_of_queens_is_refused() {
    let queens = ["QQQQQQQQ"; 8].join("/");
    assert_eq!(
        refusal(CHESS, &format!("{queens} w - - 0 1")),
        "White has no king: each side needs exactly one"
    );
    // With a king each, the one in the middle stands attacked with the other side to move
    // (`Qd4xe5` would take it).
    assert_contains(
        &refusal(
            CHESS,
            "qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqkqqq/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQKQQQ w - - 0 1",
        ),
        &["Black's king on e5 is in check with White to move"],
    );
    // Two kings of one side do not even read as a position.
    match AnyGame::from_players_fen(CHESS, "4k3/8/8/8/8/8/8/K3K3 w - - 0 1") {
        Err(StartError::Unreadable(error)) => assert_contains(&error.to_string(), &["more than one royal"]),
        other => panic!("two white kings: {:?}", other.map(|start| start.notes)),
    }
}

#[test]
fn chess_pawns_on_their_first_or_promotion_rank_are_refused() {
    assert_contains(
        &refusal(CHESS, "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        &["White pawn", "a1", "first rank"],
    );
    assert_contains(
        &refusal(CHESS, "4k2p/8/8/8/8/8/8/4K3 w - - 0 1"),
        &["Black pawn", "h8", "first rank"],
    );
    assert_contains(
        &refusal(CHESS, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        &["White pawn", "a8", "promoted"],
    );
}

#[test]
fn chess_castling_rights_without_their_rooks_are_dropped_with_a_note() {
    let (mut game, notes) = started(CHESS, "4k3/4p3/8/8/8/8/4P3/4K3 w KQkq - 0 1");
    assert_eq!(
        notes,
        ["Castling rights dropped: KQkq (their king or rook is not on its starting square)."]
    );
    assert!(
        fen(&game).starts_with("4k3/4p3/8/8/8/8/4P3/4K3 w - -"),
        "{}",
        fen(&game)
    );
    play(&mut game, "Kd2 Kd7");
    assert_eq!(game.outcome(), None);
}

#[test]
fn chess_castling_with_both_rooks_home_is_kept_and_played() {
    let mut game = accepted(CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut game, "O-O-O O-O");
    assert_eq!(fen(&game), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
}

#[test]
fn chess_an_en_passant_square_behind_the_side_to_move_is_refused() {
    // e3 with White to move: no black pawn can have just skipped it.
    assert_contains(
        &refusal(CHESS, "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        &["with White to move", "rank 6", "e3 is not"],
    );
    // d3 with Black to move but no white pawn on d4.
    assert_contains(
        &refusal(CHESS, "4k3/8/8/8/4p3/8/8/4K3 b - d3 0 1"),
        &["en passant square d3", "d4"],
    );
}

#[test]
fn chess_black_to_move_with_an_en_passant_square_takes_en_passant() {
    let mut game = accepted(CHESS, "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(legal_san(&game, Seat::Second).contains(&"exd3".to_string()));
    play(&mut game, "exd3");
    assert_eq!(fen(&game), "4k3/8/8/8/8/3p4/8/4K3 w - - 0 2");
}

#[test]
fn chess_counters_out_of_range_are_refused() {
    assert_contains(
        &refusal(CHESS, "4k3/8/8/8/8/8/8/R3K3 w - - 101 1"),
        &["halfmove clock 101"],
    );
    assert_contains(
        &refusal(CHESS, "4k3/8/8/8/8/8/8/R3K3 w - - 0 10001"),
        &["move number 10001"],
    );
}

#[test]
fn chess_a_position_already_over_is_refused() {
    assert_eq!(
        refusal(CHESS, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        "this position is already over (stalemate): nothing would be left to play"
    );
    assert_eq!(
        refusal(CHESS, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
        "this position is already over (checkmate): nothing would be left to play"
    );
}

// ---------------------------------------------------------------------------------------------
// Circe Chess: the chess checks; rebirth squares may be taken

const CIRCE: VariantId = VariantId::Circe;

#[test]
fn circe_a_king_in_check_with_the_other_side_to_move_is_refused() {
    assert_contains(
        &refusal(CIRCE, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        &["Black's king on e8 is in check with White to move"],
    );
    assert_contains(
        &refusal(CIRCE, "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        &["White pawn", "a1", "first rank"],
    );
}

#[test]
fn circe_a_start_with_every_rebirth_square_taken_plays_and_removes_the_unit() {
    // Black's knights stand on a8 and h8, both of a rook's rebirth squares: a rook captured now is
    // removed, as the rules say, and nothing is bracketed.
    let mut game = accepted(CIRCE, "n3k2n/8/8/8/8/8/r7/R3K3 w - - 0 1");
    let captures: Vec<String> = legal_san(&game, Seat::First)
        .into_iter()
        .filter(|san| san.starts_with("Rxa2"))
        .collect();
    assert_eq!(captures, ["Rxa2"]);
    play(&mut game, "Rxa2");
    assert_eq!(fen(&game), "n3k2n/8/8/8/8/8/R7/4K3 b - - 0 1");
    // With h8 free the rook is reborn there.
    let mut game = accepted(CIRCE, "n3k3/8/8/8/8/8/r7/R3K3 w - - 0 1");
    play(&mut game, "Rxa2(h8)");
    assert_eq!(fen(&game), "n3k2r/8/8/8/8/8/R7/4K3 b - - 0 1");
}

// ---------------------------------------------------------------------------------------------
// Portal Chess: checks through portals; no en passant behind a double step onto a portal

const PORTAL: VariantId = VariantId::Portal;

#[test]
fn portal_a_king_attacked_through_a_portal_with_the_other_side_to_move_is_refused() {
    // White's f2 pawn could step onto the f3 portal and go on to b5, where Black's king is.
    assert_contains(
        &refusal(PORTAL, "8/8/8/1k6/8/8/5P2/4K3 w - - 0 1"),
        &["Black's king on b5 is in check with White to move"],
    );
}

#[test]
fn portal_no_en_passant_square_behind_a_double_step_onto_a_portal() {
    assert_eq!(
        refusal(PORTAL, "4k3/8/8/8/pP6/8/8/4K3 b - b3 0 1"),
        "the en passant square b3 cannot be: a White pawn's double step to b4 ends on a portal and goes on at once \
         to f6, so it leaves no en passant square"
    );
    assert_eq!(
        refusal(PORTAL, "4k3/8/8/1pP5/8/8/8/4K3 w - b6 0 1"),
        "the en passant square b6 cannot be: a Black pawn's double step to b5 ends on a portal and goes on at once \
         to f3, so it leaves no en passant square"
    );
}

#[test]
fn portal_an_en_passant_capture_onto_a_portal_goes_on_through_it() {
    // f2-f4 passed the f3 portal and stayed; exf3 e.p. ends on f3 and goes on to b5.
    let mut game = accepted(PORTAL, "4k3/8/8/8/4pP2/8/8/4K3 b - f3 0 1");
    play(&mut game, "exf3");
    assert_eq!(fen(&game), "4k3/8/8/1p6/8/8/8/4K3 w - - 0 2");
}

#[test]
fn portal_a_piece_may_start_on_a_portal() {
    // A piece carried through f3 comes to rest on b5, a portal itself.
    let mut game = accepted(PORTAL, "4k3/p7/8/1N6/8/8/P7/4K3 b - - 0 1");
    play(&mut game, "Kd8");
    assert_eq!(game.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Knights are God: checks by a relayed knight move count

const KAG: VariantId = VariantId::KnightsAreGod;

#[test]
fn knights_are_god_a_king_attacked_by_a_relayed_knight_move_is_refused() {
    // The knight on c3 guards the bishop on d6 (a camel leap), which may move as a knight to e8.
    assert_contains(
        &refusal(KAG, "4k3/8/3B4/8/8/2N5/8/4K3 w - - 0 1"),
        &["Black's king on e8 is in check with White to move"],
    );
    // Without the knight's guard the bishop gives no check: accepted.
    let mut game = accepted(KAG, "4k3/8/3B4/8/8/8/8/N3K3 w - - 0 1");
    play(&mut game, "Kd1");
    assert_eq!(game.outcome(), None);
}

#[test]
fn knights_are_god_a_relayed_check_to_answer_plays_on() {
    let mut game = accepted(KAG, "4k3/8/3B4/8/8/2N5/8/4K3 b - - 0 1");
    assert_eq!(game.view(Viewer::Spectator).board().check, Some(sq("e8")));
    // f7 is a relayed knight's square too; d8 is free.
    assert!(!legal_san(&game, Seat::Second).contains(&"Kf7".to_string()));
    play(&mut game, "Kd8");
    assert_eq!(mover(&game), Seat::First);
}

// ---------------------------------------------------------------------------------------------
// Ultimate Battle Chess: the last-rank pawn

const UB: VariantId = VariantId::UltimateBattle;

#[test]
fn ultimate_battle_a_last_rank_pawn_with_its_owner_to_move_is_refused() {
    assert_eq!(
        refusal(UB, "4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        "White's pawn on h8 stands on Black's first rank with White to move: Black had to capture it at once"
    );
    assert_eq!(
        refusal(UB, "4k3/8/8/8/8/8/8/p3K3 b - - 0 1"),
        "Black's pawn on a1 stands on White's first rank with Black to move: White had to capture it at once"
    );
}

#[test]
fn ultimate_battle_two_last_rank_pawns_of_one_side_are_refused() {
    assert_eq!(
        refusal(UB, "P3k2P/8/8/8/8/8/7r/4K3 b - - 0 1"),
        "White has pawns on a8 and h8, Black's first rank: a pawn that arrives there must be captured at once, so \
         only one can stand there"
    );
}

#[test]
fn ultimate_battle_a_last_rank_pawn_to_capture_at_once_plays_on() {
    let mut game = accepted(UB, "4k2P/8/8/8/8/8/7r/4K3 b - - 0 1");
    assert_eq!(legal_san(&game, Seat::Second), ["Rxh8"]);
    play(&mut game, "Rxh8");
    assert_eq!(fen(&game), "4k2r/8/8/8/8/8/8/4K3 w - - 0 2");
}

#[test]
fn ultimate_battle_a_last_rank_pawn_nobody_can_capture_is_already_over() {
    assert_eq!(
        refusal(UB, "4k2P/8/8/8/8/8/8/4K3 b - - 0 1"),
        "this position is already over (checkmate): nothing would be left to play"
    );
}

#[test]
fn ultimate_battle_castling_rights_are_dropped_as_the_game_has_none() {
    let (mut game, notes) = started(UB, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(notes, ["Castling rights dropped: KQkq (this game has no castling)."]);
    play(&mut game, "e4");
    assert_eq!(game.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Pick-the-team chess (version one): a game in play on 10x10

const PTT: VariantId = VariantId::PickTheTeam;

/// A 10x10 board with White's king on e1 and Black's on e10, and `rows` in between, given from
/// row 9 down to row 2 (eight of them), `first` as row 1 and `last` as row 10.
fn ptt_board(last: &str, rows: [&str; 8], first: &str, rest: &str) -> String {
    format!("{last}/{}/{first} {rest}", rows.join("/"))
}

const EMPTY_ROWS: [&str; 8] = ["10"; 8];

#[test]
fn pick_the_team_a_pawn_on_its_own_first_row_is_accepted_and_moves() {
    // Pawns are picked onto rows 1 and 2, and some step back: row 1 is theirs too.
    let fen = ptt_board("4k4(fi)", EMPTY_ROWS, "P3K5", "w - - 0 1");
    let mut game = accepted(PTT, &fen);
    // The row-based triple step, from row 1.
    play(&mut game, "a4");
    assert_eq!(game.outcome(), None);
}

#[test]
fn pick_the_team_a_pawn_on_or_past_its_promotion_row_is_refused() {
    assert_eq!(
        refusal(PTT, &ptt_board("P3k5", EMPTY_ROWS, "4K5", "w - - 0 1")),
        "a White pawn stands on a10, its last rank: it would already have been promoted"
    );
    // A Mecklenberg pawn promotes on its 8th row (row 3 for Black).
    let mut rows = EMPTY_ROWS;
    rows[7] = "(mp)9";
    assert_eq!(
        refusal(PTT, &ptt_board("4k5", rows, "4K5", "w - - 0 1")),
        "a Black mecklenberg pawn stands on a2, on or past the rank it promotes on (8): it would already have been promoted"
    );
    rows[7] = "10";
    rows[1] = "(MP)9";
    assert_contains(&refusal(PTT, &ptt_board("4k5", rows, "4K5", "w - - 0 1")), &["a8"]);
    rows[1] = "10";
    rows[2] = "(MP)9";
    let mut game = accepted(PTT, &ptt_board("4k5", rows, "4K5", "w - - 0 1"));
    play(&mut game, "MPa8=Q");
    assert_eq!(game.outcome(), None);
}

#[test]
fn pick_the_team_a_spear_may_start_on_its_last_row() {
    // Spears never promote: one on the last row is stuck, and the game goes on.
    let mut game = accepted(PTT, &ptt_board("(JS)3k5", EMPTY_ROWS, "4K5", "b - - 0 1"));
    play(&mut game, "Kd10");
    assert_eq!(game.outcome(), None);
}

#[test]
fn pick_the_team_each_side_needs_one_royal_of_either_kind() {
    assert_eq!(
        refusal(PTT, &ptt_board("10", EMPTY_ROWS, "10", "w - - 0 1")),
        "White has no king or royal knight: each side needs exactly one"
    );
    assert_eq!(
        refusal(PTT, &ptt_board("10", EMPTY_ROWS, "4K5", "w - - 0 1")),
        "Black has no king or royal knight: each side needs exactly one"
    );
    // A royal knight is royal enough.
    let mut game = accepted(PTT, &ptt_board("4(rn)5", EMPTY_ROWS, "(RN)9", "w - - 0 1"));
    play(&mut game, "RNc2");
    assert_eq!(game.outcome(), None);
}

#[test]
fn pick_the_team_a_royal_in_check_with_the_other_side_to_move_is_refused() {
    assert_eq!(
        refusal(PTT, &ptt_board("4(rn)5", EMPTY_ROWS, "(RN)3R5", "w - - 0 1")),
        "Black's royal knight on e10 is in check with White to move: it could be taken"
    );
}

#[test]
fn pick_the_team_has_no_en_passant_nor_castling() {
    assert_eq!(
        refusal(PTT, &ptt_board("4k5", EMPTY_ROWS, "4K5", "w - e3 0 1")),
        "this game has no en passant, so the en passant square e3 cannot be"
    );
    let (_, notes) = started(PTT, &ptt_board("4k5", EMPTY_ROWS, "4K5", "w KQkq - 0 1"));
    assert_eq!(notes, ["Castling rights dropped: KQkq (this game has no castling)."]);
    assert_contains(
        &refusal(PTT, &ptt_board("4k5", EMPTY_ROWS, "R3K5", "w - - 101 1")),
        &["halfmove clock 101"],
    );
}

// ---------------------------------------------------------------------------------------------
// Blockade Chess and Garden of Statues

const BLOCKADE: VariantId = VariantId::Blockade;
const GARDEN: VariantId = VariantId::Garden;

#[test]
fn blockade_a_set_up_in_progress_plays_on_with_or_without_its_side_field() {
    // The docs' example: White has placed its queen, Black places next.
    let mut game = accepted(BLOCKADE, "8/8/8/3Q4/8/8/8/8[RRBBqrrbb] b");
    assert_eq!(game.phase(), Phase::Setup);
    assert_eq!(mover(&game), Seat::Second);
    play(&mut game, "Q@e5 R@a8");
    assert_eq!(mover(&game), Seat::First);
    // Without the side field the snake order says who places.
    let game = accepted(BLOCKADE, "8/8/8/3Q4/8/8/8/8[RRBBqrrbb]");
    assert_eq!(mover(&game), Seat::Second);
}

#[test]
fn blockade_a_side_field_against_the_snake_order_is_refused() {
    assert_eq!(
        refusal(BLOCKADE, "8/8/8/3Q4/8/8/8/8[RRBBqrrbb] w"),
        "after 1 placement the snake order (White 1, Black 2, White 2, Black 2, White 2, Black 1) has Black place \
         next, not White"
    );
}

#[test]
fn blockade_hands_against_the_snake_order_are_refused() {
    // One piece placed, but Black's: the first placement is White's.
    assert_eq!(
        refusal(BLOCKADE, "8/8/8/3q4/8/8/8/8[QRRBBrrbb] b"),
        "after 1 placement the snake order (White 1, Black 2, White 2, Black 2, White 2, Black 1) gives White 1 \
         and Black 0, but here White has placed 0 and Black 1"
    );
}

#[test]
fn blockade_each_army_is_whole_on_the_board_and_in_hand() {
    assert_eq!(
        refusal(BLOCKADE, "r1bq1b1r/8/8/8/8/8/8/R1BQ1B2 w"),
        "White has 1 rook on the board and in hand: each side's army is one queen, two rooks and two bishops, all of \
         them placed or still to place (pieces are never captured)"
    );
    assert_eq!(
        refusal(BLOCKADE, "8/8/8/8/8/8/8/8[QQRRBBqrrbb] w"),
        "White has 2 queens on the board and in hand: each side's army is one queen, two rooks and two bishops, all \
         of them placed or still to place (pieces are never captured)"
    );
    assert_contains(
        &refusal(BLOCKADE, "8/8/8/8/8/8/8/8[QRRBBqrrb] w"),
        &["Black has 1 bishop on the board and in hand"],
    );
    // Garden of Statues names its sides Red and Blue.
    assert_contains(
        &refusal(GARDEN, "r1bq1b1r/8/8/8/8/8/8/R1BQ1B2 w"),
        &["Red has 1 rook on the board and in hand"],
    );
}

#[test]
fn blockade_a_set_up_needs_a_free_square_for_every_piece_in_hand() {
    let fen = format!("****4/{}[QRRBBqrrbb] w", ["********"; 7].join("/"));
    assert_eq!(
        refusal(BLOCKADE, &fen),
        "10 pieces are still to be placed but only 4 squares are empty: the set-up could not be finished"
    );
    // Statues are allowed in a set-up with room enough.
    let fen = format!("**6/{}[QRRBBqrrbb] w", ["8"; 7].join("/"));
    let mut game = accepted(GARDEN, &fen);
    play(&mut game, "Q@d4");
    assert_eq!(mover(&game), Seat::Second);
}

#[test]
fn blockade_a_walled_in_side_to_move_has_already_lost() {
    let fen = "rrbbq3/********/********/********/********/********/********/QRRBB*** w";
    // What the game reports for it: Black has won, White having no complete turn ...
    let game = AnyGame::from_fen(BLOCKADE, fen).unwrap();
    assert_eq!(
        game.outcome(),
        Some(&Outcome::win(Seat::Second, EndReason::NoCompleteTurn))
    );
    // ... so no game starts there.
    assert_eq!(
        refusal(BLOCKADE, fen),
        "this position is already over (no complete turn left): nothing would be left to play"
    );
    // With Black to move, Black has room: the game goes on, and White loses at its turn.
    let mut game = accepted(BLOCKADE, &fen.replace(" w", " b"));
    play(&mut game, "Qe8-f8@g8");
    assert_eq!(
        game.outcome(),
        Some(&Outcome::win(Seat::Second, EndReason::NoCompleteTurn))
    );
}

#[test]
fn blockade_a_single_turn_placing_the_statue_on_the_square_just_left_plays_on() {
    // Black's only turn: the rook steps from a8 to b8 and walls a8, the square it left.
    let fen = "r1******/********/rbbq****/********/8/8/8/QRRBB3 b";
    let mut game = accepted(BLOCKADE, fen);
    let turns = game.legal_actions(Seat::Second);
    assert_eq!(
        turns,
        [Action::MoveAndStatue {
            from: sq("a8"),
            to: sq("b8"),
            statue: sq("a8"),
        }]
    );
    play(&mut game, "Ra8-b8@a8");
    assert_eq!(mover(&game), Seat::First);
    assert_eq!(game.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// The games of players' own pieces: no position, and armies checked as lists

#[test]
fn own_pieces_games_never_start_from_a_position() {
    for id in [VariantId::PickTheTeam2, VariantId::Patch, VariantId::EasyPatch] {
        match AnyGame::from_players_fen(id, "4k3/8/8/8/8/8/8/4K3 w - - 0 1") {
            Err(StartError::Unreadable(error)) => assert_contains(&error.to_string(), &["list"]),
            other => panic!("{id}: {:?}", other.map(|start| start.notes)),
        }
    }
}

/// The ready-made list of `kind` with its piece named `name` replaced by `line`.
fn list_with(kind: ListKind, name: &str, line: &str) -> Vec<ListPiece> {
    let mut list = OwnPiecesGame::ready_made(kind);
    let at = list
        .iter()
        .position(|piece| piece.name == name)
        .unwrap_or_else(|| panic!("no {name} in the ready-made list"));
    list[at] = ListPiece::read(line).unwrap();
    list
}

/// Why `seat`'s list is refused by a new game of `id`.
fn list_refusal(id: VariantId, list: Vec<ListPiece>) -> String {
    let mut game = AnyGame::new(id);
    match game.apply(Seat::First, &Action::SubmitList { pieces: list }) {
        Err(ActionError::Illegal(why)) => why,
        other => panic!("{id}: the list was not refused: {other:?}"),
    }
}

#[test]
fn own_pieces_an_army_without_its_one_royal_is_refused_as_a_list() {
    // No royal: the army could never be mated (and the picking could not begin).
    let no_royal = list_with(ListKind::Patch, "King", "Commoner, CM, K");
    assert_contains(
        &list_refusal(VariantId::Patch, no_royal.clone()),
        &["exactly one royal", "none"],
    );
    assert!(!lists::check_list(&no_royal, ListKind::Patch).is_accepted());
    // Two royals.
    let two = list_with(ListKind::PickTheTeam2, "Queen", "Royal wazir, RW, W, royal");
    assert_contains(&list_refusal(VariantId::PickTheTeam2, two), &["exactly one royal"]);
    // A royal too mobile to be mated fairly.
    let queen_royal = list_with(ListKind::Patch, "King", "Royal queen, RQ, Q, royal");
    assert_contains(
        &list_refusal(VariantId::Patch, queen_royal),
        &["as the royal piece it reaches"],
    );
    // Easy Patch's royals are FIDE's kings: a list has none.
    let easy = list_with(ListKind::EasyPatch, "Queen", "Royal wazir, RW, W, royal");
    assert_contains(
        &list_refusal(VariantId::EasyPatch, easy),
        &["Easy Patch lists have no royal piece"],
    );
}

#[test]
fn own_pieces_a_piece_that_reaches_the_enemy_home_from_its_own_is_refused_as_a_list() {
    // A pao on row 1 captures on the last row over a screen: from its home it could take the
    // enemy royal on its first move.
    let pao = list_with(ListKind::Patch, "Queen", "Pao, PA, mRcpR");
    assert_contains(&list_refusal(VariantId::Patch, pao), &["last row"]);
}
