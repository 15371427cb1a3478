//! Start positions players give (RULES.md, "Start positions that players give") in the games of
//! secrets and scores: Capture the Flag, Beirut, Assault, Rejection and Domination. Each rule of a
//! start is shown refused with its reason, and a tricky but legal start accepted and played on.

mod common;

use arbiter_engine::game::{EndReason, Game, Seat};
use arbiter_engine::piece::Color;
use arbiter_engine::start::{Start, StartError};
use arbiter_engine::variants::assault::{BoardEnd, DeadReason};
use arbiter_engine::variants::ctf::{CtfGame, Flag};
use arbiter_engine::{AnyGame, VariantId};
use common::{play, sq};

const CTF: VariantId = VariantId::Ctf;
const BEIRUT: VariantId = VariantId::Beirut;
const ASSAULT: VariantId = VariantId::Assault;
const REJECTION: VariantId = VariantId::Rejection;
const DOMINATION: VariantId = VariantId::Domination;

const FIDE_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
const ASSAULT_START: &str = "1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

/// Why a game of `id` refuses to start from `fen` (it must read, and be refused).
fn refusal(id: VariantId, fen: &str) -> String {
    match AnyGame::from_players_fen(id, fen) {
        Err(StartError::Refused(refusal)) => refusal.to_string(),
        Err(StartError::Unreadable(error)) => panic!("{fen}: does not read ({error}), expected a refusal"),
        Ok(_) => panic!("{fen}: accepted, expected a refusal"),
    }
}

fn assert_refused(id: VariantId, fen: &str, reason: &str) {
    assert_eq!(refusal(id, fen), reason, "{id} from {fen}");
}

/// A game of `id` started from `fen`, which its rules must accept.
fn started(id: VariantId, fen: &str) -> Start<AnyGame> {
    AnyGame::from_players_fen(id, fen).unwrap_or_else(|error| panic!("{fen}: refused: {error}"))
}

/// A game of `id` started from `fen`, with no note for its first post.
fn started_plainly(id: VariantId, fen: &str) -> AnyGame {
    let start = started(id, fen);
    assert_eq!(start.notes, Vec::<String>::new(), "{fen}");
    start.game
}

fn assert_unreadable(id: VariantId, fen: &str) {
    match AnyGame::from_players_fen(id, fen) {
        Err(StartError::Unreadable(_)) => {}
        other => panic!("{fen}: expected not to read, got {:?}", other.map(|start| start.notes)),
    }
}

fn ctf(game: &AnyGame) -> &CtfGame {
    match game {
        AnyGame::Ctf(game) => game,
        other => panic!("not a CTF game: {}", other.variant_id()),
    }
}

// ---------------------------------------------------------------------------------------------
// Capture the Flag

#[test]
fn ctf_a_base_in_the_other_sides_half_is_refused() {
    // The reproduction: this once started, printing "White's flag: at its base, e6".
    assert_refused(
        CTF,
        &format!("{FIDE_START} bases:e6,d5"),
        "White's base e6 is in Black's half: a base lies in its owner's half, ranks 1-4 for White",
    );
    assert_refused(
        CTF,
        &format!("{FIDE_START} bases:e3,d4"),
        "Black's base d4 is in White's half: a base lies in its owner's half, ranks 5-8 for Black",
    );
}

#[test]
fn ctf_a_base_under_an_enemy_piece_is_refused_and_under_its_own_accepted() {
    assert_refused(
        CTF,
        "rnbqkb1r/pppppppp/8/8/8/4n3/PPPPPPPP/RNBQKBNR w - - 0 1 bases:e3,e7",
        "White's base e3 holds Black's knight: a base is an empty square or one holding its owner's own piece",
    );
    let mut game = started_plainly(CTF, &format!("{FIDE_START} bases:e2,e7"));
    assert_eq!(
        ctf(&game).flag(Color::White),
        Some(Flag {
            square: sq("e2"),
            is_carried: false
        })
    );
    play(&mut game, "e4 e5");
    assert!(game.outcome().is_none());
}

#[test]
fn ctf_a_flag_on_a_carrier_starts_and_the_carrier_can_bring_it_home() {
    // White's knight on c6 carries Black's flag; White's base is e2, two knight moves away.
    let mut game = started_plainly(CTF, "4k3/8/2N5/8/8/8/8/4K3 w - - 0 1 bases:e2,d8 flags:-,c6");
    assert_eq!(
        ctf(&game).flag(Color::Black),
        Some(Flag {
            square: sq("c6"),
            is_carried: true
        })
    );
    assert_eq!(
        ctf(&game).flag(Color::White),
        Some(Flag {
            square: sq("e2"),
            is_carried: false
        })
    );
    play(&mut game, "Nd4 Kd7 Ne2");
    let outcome = game.outcome().expect("brought home");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::FlagCaptured)
    );
}

#[test]
fn ctf_a_flag_lying_away_from_its_base_starts_and_can_be_caught() {
    // Black's flag lies on d5 with no piece on it; White's knight on c3 takes it up.
    let mut game = started_plainly(CTF, "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1 bases:e2,d8 flags:-,d5");
    assert_eq!(
        ctf(&game).flag(Color::Black),
        Some(Flag {
            square: sq("d5"),
            is_carried: false
        })
    );
    play(&mut game, "Nd5");
    assert_eq!(
        ctf(&game).flag(Color::Black),
        Some(Flag {
            square: sq("d5"),
            is_carried: true
        })
    );
    assert!(game.outcome().is_none());
}

#[test]
fn ctf_a_flag_already_home_is_refused() {
    assert_refused(
        CTF,
        "4k3/8/8/8/8/4N3/8/4K3 b - - 0 1 bases:e3,d8 flags:-,e3",
        "Black's flag is carried onto e3, White's own base: White has already won, so nothing would be left to play",
    );
    assert_refused(
        CTF,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bases:e3,d8 flags:e3,e3",
        "Black's flag lies on e3, White's own base: White has already won, so nothing would be left to play",
    );
    assert_refused(
        CTF,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bases:e3,d8 flags:d8,-",
        "White's flag lies on d8, Black's own base: Black has already won, so nothing would be left to play",
    );
}

#[test]
fn ctf_flags_without_bases_or_off_the_board_do_not_read() {
    assert_unreadable(CTF, "4k3/8/2N5/8/8/8/8/4K3 w - - 0 1 flags:-,c6");
    assert_unreadable(CTF, "4k3/8/2N5/8/8/8/8/4K3 w - - 0 1 bases:e2,d8 flags:-,c9");
    assert_unreadable(CTF, "4k3/8/2N5/8/8/8/8/4K3 w - - 0 1 bases:e2,d8 flags:c6");
}

#[test]
fn ctf_a_side_with_no_square_to_choose_as_its_base_is_refused() {
    assert_refused(
        CTF,
        "4k3/8/8/8/nnnnnnnn/nnnnnnnn/nnnnnnnn/nnnnnnnn w - - 0 1",
        "White has no square to choose as its base: every square of ranks 1-4 holds a Black piece, \
         and a base is an empty square or one holding its owner's own piece",
    );
}

#[test]
fn ctf_a_position_nobody_can_move_in_is_refused_with_or_without_bases() {
    let over = "this position is already over (neither side can move): nothing would be left to play";
    assert_refused(CTF, "8/8/8/4p3/4P3/8/8/8 w - - 0 1", over);
    assert_refused(CTF, "8/8/8/4p3/4P3/8/8/8 w - - 0 1 bases:a1,h8", over);
    let fifty = "this position is already over (the 50-move rule): nothing would be left to play";
    assert_refused(CTF, "4k3/8/8/8/8/8/8/4K3 w - - 100 80", fifty);
    assert_refused(CTF, "4k3/8/8/8/8/8/8/4K3 w - - 100 80 bases:a1,h8", fifty);
}

#[test]
fn ctf_needs_no_king_and_a_king_may_stand_attacked() {
    // No king at all: CTF's kings are not royal, so none is required.
    let mut kingless = started_plainly(CTF, "8/4p3/8/8/8/8/4P3/8 w - - 0 1");
    play(&mut kingless, "base:e2 base:e7 e4 e6");
    assert!(kingless.outcome().is_none());
    // Black's king attacked with White to move: it may simply be taken.
    let mut attacked = started_plainly(CTF, "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1 bases:a1,h8");
    play(&mut attacked, "Qxe8");
    assert!(attacked.outcome().is_none(), "losing the king loses nothing by itself");
}

#[test]
fn ctf_pawns_en_passant_and_counters_follow_the_chess_checks() {
    assert_refused(
        CTF,
        "4k3/8/8/8/8/8/8/3PK3 w - - 0 1",
        "a White pawn stands on d1, its own first rank, where no pawn can be",
    );
    assert_refused(
        CTF,
        "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1 bases:a1,h8",
        "a White pawn stands on d8, its last rank: it would already have been promoted",
    );
    let wrong_side = refusal(CTF, "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1");
    assert!(
        wrong_side.contains("en passant square") && wrong_side.contains("e3"),
        "{wrong_side}"
    );
    assert_refused(
        CTF,
        "4k3/8/8/8/8/8/8/4K3 w - - 101 80",
        "the halfmove clock 101 is out of range: at most 100 (the 50-move rule)",
    );
}

#[test]
fn ctf_black_to_move_with_en_passant_plays_on_and_castling_rights_are_dropped_with_a_note() {
    let start = started(CTF, "4k3/8/8/8/3pP3/8/8/R3K2R b KQ e3 0 1 bases:a1,h8");
    assert_eq!(
        start.notes,
        ["Castling rights dropped: KQ (this game has no castling)."]
    );
    let mut game = start.game;
    play(&mut game, "dxe3");
    assert!(game.outcome().is_none());
}

// ---------------------------------------------------------------------------------------------
// Beirut

#[test]
fn beirut_a_side_with_nothing_but_its_king_to_arm_is_refused() {
    // The reproduction: both players were asked for a carrier neither had.
    assert_refused(
        BEIRUT,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "White has no unit but its king to carry the bomb: each side chooses a carrier among its other units",
    );
    assert_refused(
        BEIRUT,
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "Black has no unit but its king to carry the bomb: each side chooses a carrier among its other units",
    );
}

#[test]
fn beirut_a_carrier_gone_is_no_choice_to_make() {
    // Black's carrier is gone ('-'): its lone king is no unit to arm, and needs none.
    let mut game = started_plainly(BEIRUT, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 bombs:a1,-");
    play(&mut game, "Ra7 Kf8 Ke2");
    assert!(game.outcome().is_none());
    // Both carriers gone and two bare kings: a dead position, already drawn.
    assert_refused(
        BEIRUT,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bombs:-,-",
        "this position is already over (insufficient material): nothing would be left to play",
    );
}

#[test]
fn beirut_a_bombs_field_naming_a_king_an_enemy_unit_or_an_empty_square_does_not_read() {
    let fen = "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1";
    assert_unreadable(BEIRUT, &format!("{fen} bombs:e1,a8"));
    assert_unreadable(BEIRUT, &format!("{fen} bombs:a8,a1"));
    assert_unreadable(BEIRUT, &format!("{fen} bombs:d4,a8"));
    assert_unreadable(BEIRUT, &format!("{fen} bombs:a1"));
    let armed = started_plainly(BEIRUT, &format!("{fen} bombs:a1,a8"));
    assert_eq!(armed.to_act(), [Seat::First], "both carriers given: play begins");
}

#[test]
fn beirut_castling_with_both_rooks_home_plays_after_the_choice() {
    let mut game = started_plainly(BEIRUT, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 5");
    play(&mut game, "bomb:a1 bomb:h8 O-O-O O-O");
    assert!(game.outcome().is_none());
}

#[test]
fn beirut_a_stalemate_a_bomb_could_break_is_a_start_and_one_none_can_is_refused() {
    // White's king on a1 cannot move, its pawn h2 is blocked; armed, the pawn may detonate.
    let mut game = started_plainly(BEIRUT, "3k4/8/8/8/8/1q5p/7P/K7 w - - 0 1");
    play(&mut game, "bomb:h2 bomb:b3 detonate");
    assert!(game.outcome().is_none());
    // Here the only unit White could arm stands next to its king: no detonation is legal.
    assert_refused(
        BEIRUT,
        "7k/8/8/8/8/p1n5/P7/K7 w - - 0 1",
        "White has no legal move, and no unit it could choose as its carrier could detonate: \
         the position is already over (stalemate), so nothing would be left to play",
    );
}

#[test]
fn beirut_royals_check_and_pawns_follow_the_chess_checks() {
    assert_refused(
        BEIRUT,
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "Black's king on e8 is in check with White to move: it could be taken",
    );
    assert_refused(
        BEIRUT,
        "4r3/8/8/8/8/8/8/4K2R w - - 0 1",
        "Black has no king: each side needs exactly one",
    );
    assert_refused(
        BEIRUT,
        "4k3/8/8/8/8/8/8/R3K1p1 w - - 0 1",
        "a Black pawn stands on g1, its last rank: it would already have been promoted",
    );
}

#[test]
fn beirut_black_to_move_with_en_passant_plays_on() {
    let mut game = started_plainly(BEIRUT, "4k3/8/8/8/3pP3/8/8/R3K3 b Q e3 0 1");
    play(&mut game, "bomb:a1 bomb:d4 dxe3");
    assert!(game.outcome().is_none());
}

// ---------------------------------------------------------------------------------------------
// Assault

fn assault_ended(game: &AnyGame, board: usize) -> Option<BoardEnd> {
    match game {
        AnyGame::Assault(game) => game.ended(board),
        other => panic!("not an Assault game: {}", other.variant_id()),
    }
}

#[test]
fn assault_black_needs_its_one_king_on_each_board_and_white_none() {
    assert_refused(
        ASSAULT,
        &format!("8/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 | {ASSAULT_START}"),
        "board 1: Black has no king: Black's king is royal, so each board needs exactly one \
         (White's king is not royal and may be missing)",
    );
    // White without a king on board 1 and with two on board 2: neither is royal.
    let mut game = started_plainly(
        ASSAULT,
        "1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/3KK3 w - - 0 1",
    );
    play(&mut game, "e4 e4 e5 e5");
    assert!(game.outcome().is_none());
}

#[test]
fn assault_blacks_king_in_check_with_white_to_move_is_refused_on_either_board() {
    assert_refused(
        ASSAULT,
        &format!("{ASSAULT_START} | 4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"),
        "board 2: Black's king on e8 is in check with White to move: it could be taken",
    );
}

#[test]
fn assault_whites_king_may_stand_attacked_with_black_to_move_and_be_taken() {
    // Black's queen attacks White's king on both boards; Black moves in this half-turn.
    let mut game = started_plainly(ASSAULT, "4k3/8/8/8/8/8/P2q4/4K3 b - - 0 1");
    play(&mut game, "Qxe1 Qxe1");
    assert!(game.outcome().is_none(), "White's pawns play on");
}

#[test]
fn assault_each_board_is_checked_as_given_before_any_pass() {
    // White cannot move on either board, so reading the match passes at once and clears the en
    // passant square; the square was still wrong as given.
    let refused = refusal(ASSAULT, "4k3/8/8/p7/P7/8/8/8 w - d6 0 1");
    assert!(
        refused.starts_with("board 1: ") && refused.contains("en passant square d6"),
        "{refused}"
    );
    let mut game = started_plainly(ASSAULT, "4k3/8/8/p7/P7/8/8/8 w - - 0 1");
    play(&mut game, "Kd7 Kd7");
    assert!(game.outcome().is_none());
}

#[test]
fn assault_pawns_and_counters_are_refused_naming_the_board() {
    assert_refused(
        ASSAULT,
        &format!("{ASSAULT_START} | 1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1"),
        "board 2: a White pawn stands on h1, its own first rank, where no pawn can be",
    );
    assert_refused(
        ASSAULT,
        "1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 101 60",
        "board 1: the halfmove clock 101 is out of range: at most 100 (the 50-move rule)",
    );
}

#[test]
fn assault_black_to_move_with_en_passant_plays_on_both_boards() {
    let mut game = started_plainly(ASSAULT, "4k3/8/8/8/3pP3/8/P7/4K3 b - e3 0 1");
    play(&mut game, "dxe3 dxe3");
    assert!(game.outcome().is_none());
}

#[test]
fn assault_a_dead_board_is_noted_both_dead_or_a_mate_is_over() {
    let start = started(ASSAULT, &format!("{ASSAULT_START} | 4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    assert_eq!(
        start.notes,
        ["Board 2 is already dead (White can no longer mate): play goes on on board 1 alone."]
    );
    assert_eq!(
        assault_ended(&start.game, 1),
        Some(BoardEnd::Dead(DeadReason::InsufficientMaterial))
    );
    assert_refused(
        ASSAULT,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "this position is already over (both boards dead): nothing would be left to play",
    );
    assert_refused(
        ASSAULT,
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 | 1nbqkbn1/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - e3 0 1",
        "this position is already over (checkmate): nothing would be left to play",
    );
}

#[test]
fn assault_castling_rights_are_dropped_with_a_note_per_board() {
    let start = started(
        ASSAULT,
        "1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1 | 1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
    assert_eq!(
        start.notes,
        ["Board 1: Castling rights dropped: KQ (this game has no castling)."]
    );
}

// ---------------------------------------------------------------------------------------------
// Rejection

#[test]
fn rejection_follows_the_chess_checks() {
    assert_refused(
        REJECTION,
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "Black's king on e8 is in check with White to move: it could be taken",
    );
    assert_refused(
        REJECTION,
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        "Black has no king: each side needs exactly one",
    );
    assert_refused(
        REJECTION,
        "3Pk3/8/8/8/8/8/8/4K3 b - - 0 1",
        "a White pawn stands on d8, its last rank: it would already have been promoted",
    );
    assert_refused(
        REJECTION,
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        "this position is already over (stalemate): nothing would be left to play",
    );
}

#[test]
fn rejection_castling_with_both_rooks_home_and_black_to_move_is_proposed_and_played() {
    let mut game = started_plainly(REJECTION, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
    play(&mut game, "O-O-O accept O-O reject O-O-O");
    assert!(game.outcome().is_none());
    assert_eq!(game.to_act(), [Seat::Second]);
}

#[test]
fn rejection_en_passant_and_a_single_legal_move_play_on_from_a_start() {
    let mut passant = started_plainly(REJECTION, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    play(&mut passant, "dxe3 accept");
    assert!(passant.outcome().is_none());
    // Black's only move is Kh7: it is played at once, without a proposal.
    let mut single = started_plainly(REJECTION, "7k/8/8/8/8/8/8/K5R1 b - - 0 1");
    play(&mut single, "Kh7");
    assert_eq!(single.to_act(), [Seat::First]);
}

#[test]
fn rejection_a_proposal_cannot_be_given_in_a_fen() {
    assert_unreadable(REJECTION, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 e4");
}

// ---------------------------------------------------------------------------------------------
// Domination

#[test]
fn domination_a_move_number_past_the_thirty_turns_is_refused() {
    let past = "the move number 31 is past the game's 30 turns: the game would already be over on points";
    assert_refused(DOMINATION, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 31", past);
    assert_refused(DOMINATION, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 31", past);
    // Black's 30th move is the last of the game: it is played, then the points decide.
    let mut last = started_plainly(DOMINATION, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
    play(&mut last, "Kd7");
    let outcome = last.outcome().expect("the 30 turns are done");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Points));
}

#[test]
fn domination_a_first_move_that_can_only_end_on_d4_or_e4_is_refused() {
    // White's king is boxed in by Black's queen; the pawn's one move is to d4.
    assert_refused(
        DOMINATION,
        "7k/8/8/8/8/1q1P4/8/K7 w - - 0 1",
        "every move White has ends on d4 or e4, where White's first move (move 1) may not: give a later move number",
    );
    let mut later = started_plainly(DOMINATION, "7k/8/8/8/8/1q1P4/8/K7 w - - 0 2");
    play(&mut later, "d4");
    assert!(later.outcome().is_none());
}

#[test]
fn domination_follows_the_chess_checks_and_the_fifty_move_rule() {
    assert_refused(
        DOMINATION,
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "Black's king on e8 is in check with White to move: it could be taken",
    );
    assert_refused(
        DOMINATION,
        "4k3/8/8/8/8/8/8/4K3 w - - 100 20",
        "this position is already over (the 50-move rule): nothing would be left to play",
    );
    let start = started(DOMINATION, "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    assert_eq!(
        start.notes,
        ["Castling rights dropped: KQkq (their king or rook is not on its starting square)."]
    );
}

#[test]
fn domination_castling_with_both_rooks_home_and_black_to_move_plays_on() {
    let mut game = started_plainly(DOMINATION, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 5");
    play(&mut game, "O-O O-O-O");
    assert!(game.outcome().is_none());
}
