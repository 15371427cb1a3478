//! Domination Chess, ruling by ruling (rules page //! docs/rules/domination.md), and every case of tests/oracles/domination.json.

mod common;

use arbiter_engine::geometry::Square;
use arbiter_engine::piece::Color;
use arbiter_engine::view::{MarkKind, Tone, View};
use arbiter_engine::{AnyGame, EndReason, Game, Seat, VariantId, Viewer};
use common::{comparable_fen, legal_san, legal_san_with_checks, play, played, sorted, sq};

const DOMINATION: VariantId = VariantId::Domination;

fn view(game: &AnyGame) -> View {
    game.view(Viewer::Spectator)
}

/// Who owns a domination square, as the view tints it.
fn owner(view: &View, square: Square) -> Option<Color> {
    view.board()
        .marks
        .iter()
        .find(|m| m.square == square)
        .and_then(|m| match m.kind {
            MarkKind::Tint(Tone::SideLight(color)) => Some(color),
            _ => None,
        })
}

fn scores(game: &AnyGame) -> [i32; 2] {
    view(game).scores.expect("Domination keeps a score")
}

// ---------------------------------------------------------------------------------------------
// The reference data

#[test]
fn every_reference_case_has_the_same_moves_owners_scores_and_result() {
    for case in common::cases(include_str!("oracles/domination.json")) {
        let id = case["id"].as_str().unwrap();
        let game = played(DOMINATION, case["moves"].as_str().unwrap());
        let view = view(&game);
        assert_eq!(
            comparable_fen(&view.fen()),
            comparable_fen(case["fen"].as_str().unwrap()),
            "{id}: position"
        );
        if case["kind"] == "perft" {
            let depth = case["depth"].as_u64().unwrap() as u32;
            assert_eq!(
                game.perft(depth),
                case["nodes"].as_u64().unwrap(),
                "{id}: perft {depth}"
            );
            continue;
        }
        let seat = game.to_act().first().copied().unwrap_or(Seat::First);
        assert_eq!(
            legal_san_with_checks(&game, seat),
            sorted(&case["legal_moves"]),
            "{id}: legal moves"
        );
        assert_eq!(
            legal_san(&game, seat).len() as u64,
            case["legal"].as_u64().unwrap(),
            "{id}: count"
        );
        for (name, expected) in case["owners"].as_object().unwrap() {
            let expected = match expected.as_str() {
                Some("w") => Some(Color::White),
                Some("b") => Some(Color::Black),
                _ => None,
            };
            assert_eq!(owner(&view, sq(name)), expected, "{id}: owner of {name}");
        }
        let score = &case["score"];
        assert_eq!(
            scores(&game),
            [
                score["white"].as_i64().unwrap() as i32,
                score["black"].as_i64().unwrap() as i32
            ],
            "{id}: score"
        );
        assert_eq!(
            view.turns.map(|t| t.0),
            case["full_turns"].as_u64().map(|t| t as u32),
            "{id}: turns"
        );
        let result = view.outcome.as_ref().map(|o| o.result_text());
        assert_eq!(result, case["result"].as_str(), "{id}: result");
        let reason = view.outcome.as_ref().map(|o| match o.reason {
            EndReason::Points => "points",
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            other => other.describe(),
        });
        assert_eq!(reason, case["reason"].as_str(), "{id}: how it ended");
    }
}

#[test]
fn start_position_perft_with_whites_first_move_ban_is_18_360_7742() {
    let game = AnyGame::new(DOMINATION);
    assert_eq!([1, 2, 3].map(|d| game.perft(d)), [18, 360, 7742]);
}

// ---------------------------------------------------------------------------------------------
// Owning the squares

#[test]
fn nobody_owns_a_domination_square_at_the_start() {
    let view = view(&AnyGame::new(DOMINATION));
    for name in ["d4", "d5", "e4", "e5"] {
        assert_eq!(owner(&view, sq(name)), None);
    }
    assert_eq!(view.scores, Some([0, 0]));
    assert_eq!(view.turns, Some((0, 30)));
}

#[test]
fn the_last_player_to_end_a_move_on_a_square_owns_it_a_capture_included() {
    let game = played(DOMINATION, "e3 d5 e4 dxe4");
    assert_eq!(
        owner(&view(&game), sq("e4")),
        Some(Color::Black),
        "the capture on e4 took it"
    );
    assert_eq!(owner(&view(&game), sq("d5")), Some(Color::Black));
}

#[test]
fn ownership_stays_when_the_piece_leaves() {
    let game = played(DOMINATION, "e3 d5 Nc3 d4 Nb5 d3");
    assert_eq!(owner(&view(&game), sq("d5")), Some(Color::Black));
    assert_eq!(owner(&view(&game), sq("d4")), Some(Color::Black));
}

#[test]
fn passing_over_a_square_changes_nothing() {
    // Bb2-f6 crosses d4 and e5 (the reference case dom-pass-over).
    let game = played(DOMINATION, "b3 e6 Bb2 Bb4 Bf6");
    let view = view(&game);
    assert_eq!(owner(&view, sq("d4")), None);
    assert_eq!(owner(&view, sq("e5")), None);
}

#[test]
fn an_en_passant_removal_changes_nothing() {
    // White's e2-e4 takes e4; Black's d4 pawn captures it en passant, landing on e3. The pawn
    // removed from e4 leaves the square White's.
    let mut game = played(DOMINATION, "a3 d5 a4 d4 e4");
    let before = owner(&view(&game), sq("e4"));
    assert_eq!(before, Some(Color::White), "e2-e4 ended on e4");
    play(&mut game, "dxe3");
    assert_eq!(
        owner(&view(&game), sq("e4")),
        Some(Color::White),
        "the e.p. removal does not change e4"
    );
}

#[test]
fn each_full_turn_scores_a_point_per_square_owned() {
    let mut game = played(DOMINATION, "e3 d5");
    assert_eq!(scores(&game), [0, 1], "after one full turn Black owns d5");
    play(&mut game, "Nc3");
    assert_eq!(scores(&game), [0, 1], "no score in the middle of a turn");
    play(&mut game, "e5");
    assert_eq!(scores(&game), [0, 3]);
}

#[test]
fn whites_first_move_may_not_end_on_d4_or_e4() {
    let game = AnyGame::new(DOMINATION);
    let legal = legal_san(&game, Seat::First);
    assert_eq!(legal.len(), 18);
    assert!(!legal.contains(&"d4".to_string()) && !legal.contains(&"e4".to_string()));
    // Later it may.
    let later = played(DOMINATION, "e3 e6");
    assert!(legal_san(&later, Seat::First).contains(&"e4".to_string()));
}

// ---------------------------------------------------------------------------------------------
// The end

#[test]
fn after_thirty_full_turns_the_higher_score_wins() {
    let moves = "g4 e6 h4 d5 d4 Qxh4 e4 b6 Rxh4 dxe4 Bb5+ Nc6 Qe2 Bd7 Qxe4 Ne5 a3 Nc4 Qf5 f6 Qxe6+ Kd8 f3 Rb8 Qe5 Nxe5 Ne2 c5 d5 c4 Rxh7 a5 Rh5 Bxg4 Rxh8 Bb4+ Kf2 Bh3 Rh6 Nf7 Rxf6 Ne5 b3 gxf6 Ng3 Bxa3 Ne4 Nd3+ cxd3 Kc7 b4 Bf1 Nxa3 Nh6 Kg3 Rg8+ Kh2 Rg5 Bxc4 Rxd5";
    let game = played(DOMINATION, moves);
    let outcome = game.outcome().expect("the turns ran out");
    assert_eq!((outcome.winner, outcome.reason), (Some(Seat::First), EndReason::Points));
    assert_eq!(outcome.scores, Some([67, 40]), "the outcome carries the score");
    assert!(game.legal_actions(Seat::First).is_empty());
}

#[test]
fn a_mate_wins_at_once_and_carries_the_score() {
    let game = played(
        DOMINATION,
        "f4 e5 h4 h6 d4 Bb4+ Kf2 Be1+ Kf3 Qf6 Nd2 Nc6 Qxe1 b5 a3 Qxf4#",
    );
    let outcome = game.outcome().expect("mate");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::Second), EndReason::Checkmate)
    );
    assert_eq!(
        outcome.scores,
        Some([6, 8]),
        "Black's mating move completed the 8th turn"
    );
}

#[test]
fn stalemate_draws() {
    let mut game = common::from_fen(DOMINATION, "7k/4Q3/6K1/8/8/8/8/8 w - - 0 10");
    play(&mut game, "Qf7");
    let outcome = game.outcome().expect("stalemate");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Stalemate));
}

#[test]
fn repetition_and_insufficient_material_do_not_end_the_game() {
    let game = played(DOMINATION, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert!(game.outcome().is_none(), "a position seen three times does not draw");
    let bare = common::from_fen(DOMINATION, "7k/8/8/8/8/8/8/K7 w - - 0 1");
    assert!(bare.outcome().is_none(), "king against king plays on to the last turn");
}

#[test]
fn a_stalemate_made_by_blacks_thirtieth_move_ends_the_thirty_turns_on_points() {
    // Bd5 stalemates White on Black's 30th move: the points decide (Black owns d5).
    let mut game = AnyGame::from_fen(DOMINATION, "8/8/4b3/8/8/8/2k5/K7 b - - 0 30").unwrap();
    play(&mut game, "Bd5");
    let outcome = game.outcome().expect("the 30 turns are done");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::Second), EndReason::Points)
    );
    assert_eq!(outcome.scores, Some([0, 1]));
    assert_eq!(outcome.result_text(), "0-1");
    // The same stalemate earlier in the game draws.
    let mut early = AnyGame::from_fen(DOMINATION, "8/8/4b3/8/8/8/2k5/K7 b - - 0 12").unwrap();
    play(&mut early, "Bd5");
    assert_eq!(early.outcome().unwrap().reason, EndReason::Stalemate);
}

#[test]
fn a_banned_first_move_is_refused_with_the_rule() {
    let game = AnyGame::new(VariantId::Domination);
    let error = game.parse_action(Seat::First, "e4").unwrap_err().to_string();
    assert!(error.contains("White's first move may not end on d4 or e4"), "{error}");
    assert!(game.parse_action(Seat::First, "e3").is_ok());
}

#[test]
fn the_searchs_key_tells_apart_games_alike_but_for_owners_or_score() {
    let key = |moves: &str| {
        played(DOMINATION, moves)
            .search_key()
            .expect("Domination is searched with a table")
    };
    // The same game by another order of moves: the same key.
    assert_eq!(key("Nf3 Nf6 Nc3 Nc6"), key("Nc3 Nc6 Nf3 Nf6"));
    // The same board after the same turns, but in one game Black's knight stopped on d4, so
    // Black owns it and has scored from it.
    let owned = played(DOMINATION, "Nf3 Nc6 Ng1 Nd4 Nf3 Nc6 Ng1 Nb8");
    let fresh = played(DOMINATION, "Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8");
    assert_eq!(view(&owned).fen(), view(&fresh).fen(), "the same board");
    assert_eq!(scores(&owned), [0, 3]);
    assert_eq!(scores(&fresh), [0, 0]);
    assert_ne!(owned.search_key(), fresh.search_key());
}
