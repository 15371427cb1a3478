//! Assault Chess, ruling by ruling (rules page //! docs/rules/assault.md), and every case of tests/oracles/assault.json: both seats' legal moves
//! after the scripted steps, the boards, dead boards, passes and results.

mod common;

use arbiter_engine::game::{ActionError, EndReason, Game, Seat, Viewer};
use arbiter_engine::piece::Color;
use arbiter_engine::variants::assault::{AssaultGame, BoardEnd, DeadReason, seat_of};
use arbiter_engine::{AnyGame, VariantId};
use common::{cases, comparable_fen};
use serde_json::Value;

const ASSAULT: VariantId = VariantId::Assault;

fn assault(game: &AnyGame) -> &AssaultGame {
    match game {
        AnyGame::Assault(game) => game,
        other => panic!("not an Assault game: {}", other.variant_id()),
    }
}

fn seat(name: &str) -> Seat {
    match name {
        "a" => Seat::First,
        "b" => Seat::Second,
        other => panic!("no seat {other}"),
    }
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == Seat::First { "a" } else { "b" }
}

/// Plays one move of `seat`, as written.
fn submit(game: &mut AnyGame, who: Seat, text: &str) {
    let action = game
        .parse_action(who, text)
        .unwrap_or_else(|e| panic!("{} {text}: {e}", seat_name(who)));
    game.apply(who, &action).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// Plays steps written as `a-move/b-move` (or one move when only one seat acts), each move by
/// the first seat still to act.
fn steps(game: &mut AnyGame, script: &str) {
    for step in script.split_whitespace() {
        for text in step.split('/') {
            let who = game.to_act()[0];
            submit(game, who, text);
        }
    }
}

fn played(script: &str) -> AnyGame {
    let mut game = AnyGame::new(ASSAULT);
    steps(&mut game, script);
    game
}

fn from_fen(fen: &str) -> AnyGame {
    AnyGame::from_fen(ASSAULT, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A seat's legal moves, sorted, without check marks.
fn legal(game: &AnyGame, who: Seat) -> Vec<String> {
    let mut moves: Vec<String> = game
        .noted_actions(who)
        .into_iter()
        .map(|(_, text)| text.trim_end_matches(['+', '#']).to_string())
        .collect();
    moves.sort();
    moves
}

fn strings(value: &Value) -> Vec<String> {
    let mut out: Vec<String> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

fn dead_name(reason: DeadReason) -> &'static str {
    match reason {
        DeadReason::Stalemate => "stalemate",
        DeadReason::WhiteEliminated => "white_eliminated",
        DeadReason::InsufficientMaterial => "insufficient_material",
        DeadReason::Repetition => "threefold_repetition",
        DeadReason::FiftyMoves => "fifty_move_rule",
    }
}

/// Checks a position against the reference's description of it.
fn check_state(game: &AnyGame, case: &Value, at: &str) {
    let match_ = assault(game);
    let to_act: Vec<&str> = game.to_act().into_iter().map(seat_name).collect();
    assert_eq!(to_act, strings(&case["to_act"]), "{at}: to act");
    for name in ["a", "b"] {
        assert_eq!(
            legal(game, seat(name)),
            strings(&case["legal"][name]),
            "{at}: {name}'s moves"
        );
    }
    let view = game.view(Viewer::Spectator);
    for (index, board) in ["1", "2"].into_iter().enumerate() {
        // Our FEN names an en passant square after every double step; the reference only when
        // a capture there is legal: the rest must be the same.
        let expected = case["boards"][board].as_str().unwrap();
        assert_eq!(
            comparable_fen(&view.boards[index].fen),
            comparable_fen(expected),
            "{at}: board {board}"
        );
        let end = match_.ended(index);
        assert_eq!(
            end == Some(BoardEnd::Mated),
            case["mated"][board].as_bool().unwrap(),
            "{at}: board {board} mated"
        );
        let dead = match end {
            Some(BoardEnd::Dead(reason)) => Some(dead_name(reason)),
            _ => None,
        };
        assert_eq!(dead, case["dead_reason"][board].as_str(), "{at}: board {board} dead");
    }
    let passes: Vec<u64> = match_.pending_passes().iter().map(|&b| b as u64 + 1).collect();
    let expected: Vec<u64> = case["pending_pass"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(passes, expected, "{at}: pending passes");
    let half_turn = game.outcome().is_none().then(|| match match_.half_turn() {
        Color::White => "white",
        Color::Black => "black",
    });
    assert_eq!(half_turn, case["half_turn"].as_str(), "{at}: half-turn");
    let result = game.outcome().map(|outcome| match outcome.winner {
        Some(winner) => seat_name(winner),
        None => "draw",
    });
    assert_eq!(result, case["result"].as_str(), "{at}: result");
    let reason = game.outcome().map(|outcome| match outcome.reason {
        EndReason::Checkmate => {
            let board = (0..2).find(|&b| match_.ended(b) == Some(BoardEnd::Mated)).unwrap();
            if board == 0 {
                "mate_on_board_1"
            } else {
                "mate_on_board_2"
            }
        }
        EndReason::MatesOnBothBoards => "mate_on_both_boards",
        EndReason::BothBoardsDead => "both_boards_dead",
        other => panic!("{at}: unexpected {other:?}"),
    });
    assert_eq!(reason, case["reason"].as_str(), "{at}: reason");
}

#[test]
fn every_reference_case_matches_step_by_step() {
    for case in cases(include_str!("oracles/assault.json")) {
        let id = case["id"].as_str().unwrap();
        let mut game = AnyGame::new(ASSAULT);
        let trace = case["trace"].as_array().unwrap();
        let steps = case["steps"].as_array().unwrap();
        let seats = case["step_seats"].as_array().unwrap();
        for (index, (step, step_seats)) in steps.iter().zip(seats).enumerate() {
            // What the trace says before this step.
            let before = &trace[index];
            let to_act: Vec<&str> = game.to_act().into_iter().map(seat_name).collect();
            assert_eq!(to_act, strings(&before["to_act"]), "{id} before step {}", index + 1);
            for name in ["a", "b"] {
                let expected = before["legal_counts"][name].as_u64().unwrap() as usize;
                assert_eq!(
                    legal(&game, seat(name)).len(),
                    expected,
                    "{id} before step {}: {name}",
                    index + 1
                );
            }
            for (text, who) in step.as_array().unwrap().iter().zip(step_seats.as_array().unwrap()) {
                submit(&mut game, seat(who.as_str().unwrap()), text.as_str().unwrap());
            }
        }
        check_state(&game, &case, id);
    }
}

#[test]
fn the_perft_by_steps_matches_from_the_start() {
    let data: Value = serde_json::from_str(include_str!("oracles/assault.json")).unwrap();
    let game = AnyGame::new(ASSAULT);
    for case in data["perft"].as_array().unwrap() {
        for (depth, nodes) in case["perft"].as_object().unwrap() {
            let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.as_u64().unwrap());
            if nodes <= 1_000_000 {
                assert_eq!(game.perft(depth), nodes, "depth {depth}");
            }
        }
    }
    // One board alone: the variant file's own perft (White's moves are all pseudo-legal).
    for case in data["board_perft"].as_array().unwrap() {
        let variant = arbiter_engine::variants::built_in_file("assault").unwrap();
        let position = variant.position_from_fen(case["fen"].as_str().unwrap()).unwrap();
        for (depth, nodes) in case["perft"].as_object().unwrap() {
            let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.as_u64().unwrap());
            if nodes <= 1_000_000 {
                let counted =
                    arbiter_engine::movegen::perft(&arbiter_engine::rules::Standard, &variant, &position, depth);
                assert_eq!(counted, nodes, "one board, depth {depth}");
            }
        }
    }
}

// --- The rulings ---------------------------------------------------------------------------------

#[test]
fn a_is_white_on_board_1_and_black_on_board_2() {
    assert_eq!(
        (seat_of(0, Color::White), seat_of(0, Color::Black)),
        (Seat::First, Seat::Second)
    );
    assert_eq!(
        (seat_of(1, Color::White), seat_of(1, Color::Black)),
        (Seat::Second, Seat::First)
    );
    let game = AnyGame::new(ASSAULT);
    let view = game.view(Viewer::Seat(Seat::First));
    assert_eq!(view.seat_names, ["A", "B"]);
    assert_eq!(view.boards[0].label.as_deref(), Some("Board 1: A White, B Black"));
    assert_eq!(view.boards[1].label.as_deref(), Some("Board 2: B White, A Black"));
    assert_eq!(view.boards[0].color_of(Seat::First), Color::White);
    assert_eq!(view.boards[1].color_of(Seat::First), Color::Black);
}

#[test]
fn black_armies_have_no_rooks() {
    let view = AnyGame::new(ASSAULT).view(Viewer::Spectator);
    for board in &view.boards {
        assert!(
            board
                .fen
                .starts_with("1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -"),
            "{}",
            board.fen
        );
    }
}

#[test]
fn whites_king_is_not_royal_it_may_stand_attacked_and_be_captured() {
    // White's king walks into the black queen's line; then Black takes it.
    let game = from_fen("4k3/8/8/8/3q4/8/P7/4K3 w - - 0 1 | 4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    let moves = legal(&game, Seat::First);
    assert!(
        moves.contains(&"Kd2".to_string()) && moves.contains(&"Ke2".to_string()),
        "{moves:?}"
    );
    let mut game = game;
    // Each step's moves in seat order: A's first (in a Black half-turn, A's is on board 2).
    steps(&mut game, "Kd1/a3 Kd8/Qxd1");
    let fen = game.view(Viewer::Spectator).boards[0].fen.clone();
    assert!(fen.starts_with("4k3/8/8/8/8/8/P7/3q4"), "the king is gone: {fen}");
    assert_eq!(assault(&game).ended(0), None, "White plays on with its pawn");
    steps(&mut game, "a4/a4 Ke8/Qxa4");
    assert_eq!(
        assault(&game).ended(0),
        Some(BoardEnd::Dead(DeadReason::WhiteEliminated))
    );
}

#[test]
fn white_never_castles() {
    let game = from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let moves = legal(&game, Seat::First);
    assert!(!moves.iter().any(|m| m.starts_with("O-O")), "{moves:?}");
}

#[test]
fn blacks_king_is_royal_and_may_not_step_next_to_whites_king() {
    // Black's king on e8, White's king on e6: d7, e7 and f7 are attacked by it.
    let game = from_fen("4k3/8/4K3/8/8/8/P7/8 b - - 0 1 | 4k3/8/8/8/8/8/P7/4K3 b - - 0 1");
    let moves = legal(&game, Seat::Second);
    assert_eq!(moves, ["Kd8", "Kf8"]);
}

#[test]
fn both_white_moves_are_submitted_secretly_and_revealed_together() {
    let mut game = AnyGame::new(ASSAULT);
    assert_eq!(game.to_act(), [Seat::First, Seat::Second]);
    submit(&mut game, Seat::First, "e4");
    assert_eq!(game.to_act(), [Seat::Second], "B still to move");
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(spectator.record[0].text, "(submitted a move on board 1)");
    assert!(
        spectator.boards[0]
            .fen
            .starts_with("1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/"),
        "not played yet"
    );
    let opponent = game.view(Viewer::Seat(Seat::Second));
    assert!(!format!("{:?}", opponent.record).contains("e4") && !opponent.notes.iter().any(|n| n.contains("e4")));
    let own = game.view(Viewer::Seat(Seat::First));
    assert_eq!(own.record[0].text, "e4");
    assert!(
        own.notes
            .iter()
            .any(|n| n == "Your move on board 1 (e4) is in; waiting for B."),
        "{:?}",
        own.notes
    );
    assert_eq!(own.boards[0].marks.len(), 2, "its squares marked on A's own image");
    submit(&mut game, Seat::Second, "d4");
    let revealed = game.view(Viewer::Spectator);
    let texts: Vec<&str> = revealed.record.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["e4", "d4"]);
    assert!(
        revealed.notes.contains(&"Board 1: 1. e4".to_string()),
        "{:?}",
        revealed.notes
    );
    assert_eq!(game.to_act(), [Seat::First, Seat::Second], "the Black half-turn");
}

#[test]
fn in_the_black_half_turn_a_moves_on_board_2_and_b_on_board_1() {
    let game = played("e4/d4");
    assert_eq!(assault(&game).board_for(Seat::First), Some(1));
    assert_eq!(assault(&game).board_for(Seat::Second), Some(0));
    // A's d5 lands on board 2 (against d4), B's on board 1 (against e4): only A's White on board
    // 1 can then take on d5.
    let game = played("e4/d4 d5/d5");
    assert!(legal(&game, Seat::First).contains(&"exd5".to_string()));
    assert!(!legal(&game, Seat::Second).iter().any(|m| m.contains('x')));
}

#[test]
fn a_move_may_name_its_board_and_the_wrong_board_is_refused() {
    let mut game = AnyGame::new(ASSAULT);
    assert!(game.parse_action(Seat::First, "1:e4").is_ok());
    let wrong = game.parse_action(Seat::First, "2:e4").unwrap_err().to_string();
    assert!(wrong.contains("you move on board 1"), "{wrong}");
    assert!(matches!(
        game.parse_action(Seat::First, "3:e4"),
        Err(ActionError::Unreadable { .. })
    ));
    submit(&mut game, Seat::First, "1:e4");
    assert!(matches!(
        game.parse_action(Seat::First, "d4"),
        Err(ActionError::AlreadyChosen)
    ));
}

#[test]
fn the_first_to_mate_wins_the_match() {
    // B's White on board 2 mates in one (Qh5xf7), A's White on board 1 plays a quiet move.
    let game_fen = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1 | 3qkb2/3ppp2/8/7Q/2B5/8/8/4K3 w - - 0 1";
    let mut game = from_fen(game_fen);
    steps(&mut game, "a3/Qxf7");
    let outcome = game.outcome().expect("mate");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::Second), EndReason::Checkmate)
    );
    assert_eq!(assault(&game).ended(1), Some(BoardEnd::Mated));
}

#[test]
fn mates_on_both_boards_in_the_same_half_turn_draw_the_match() {
    let both = "3qkb2/3ppp2/8/7Q/2B5/8/8/4K3 w - - 0 1";
    let mut game = from_fen(both);
    steps(&mut game, "Qxf7/Qxf7");
    let outcome = game.outcome().expect("both mated");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::MatesOnBothBoards));
}

#[test]
fn a_mate_and_a_board_going_dead_in_the_same_step_is_won_by_the_mating_player() {
    // Board 1: A mates. Board 2: B's last white piece is a lone king: after its move the board is
    // dead (White can no longer mate), in the same step.
    let mut game = from_fen("3qkb2/3ppp2/8/7Q/2B5/8/8/4K3 w - - 0 1 | 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    // Board 2 is already dead from the start (a lone king cannot mate): only A moves.
    assert_eq!(
        assault(&game).ended(1),
        Some(BoardEnd::Dead(DeadReason::InsufficientMaterial))
    );
    steps(&mut game, "Qxf7");
    assert_eq!(game.outcome().unwrap().winner, Some(Seat::First));
}

#[test]
fn a_dead_board_leaves_play_on_the_other_with_normal_alternation() {
    // Board 2 is dead (a lone white king); on board 1 A and B alternate alone.
    let mut game = from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1 | 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(game.to_act(), [Seat::First], "only board 1's White");
    steps(&mut game, "e4");
    assert_eq!(game.to_act(), [Seat::Second], "then board 1's Black");
    steps(&mut game, "e5");
    assert_eq!(game.to_act(), [Seat::First]);
    assert!(game.outcome().is_none());
}

#[test]
fn stalemate_makes_a_board_dead() {
    // Black king a8, White queen c7 after Qb5-c7?: Black to move, not in check, no move.
    let mut game = from_fen("k7/8/8/1Q6/8/8/8/4K3 w - - 0 1 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    steps(&mut game, "Qb6/e4");
    assert_eq!(assault(&game).ended(0), Some(BoardEnd::Dead(DeadReason::Stalemate)));
    assert!(game.outcome().is_none(), "play goes on on board 2");
}

#[test]
fn threefold_repetition_makes_a_board_dead_without_a_claim() {
    let game = played("Nf3/Nf3 Nf6/Nf6 Ng1/Ng1 Ng8/Ng8 Nf3/Nf3 Nf6/Nf6 Ng1/Ng1 Ng8/Ng8");
    assert_eq!(assault(&game).ended(0), Some(BoardEnd::Dead(DeadReason::Repetition)));
    assert_eq!(assault(&game).ended(1), Some(BoardEnd::Dead(DeadReason::Repetition)));
    let outcome = game.outcome().expect("both boards dead");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::BothBoardsDead));
}

#[test]
fn the_fifty_move_rule_makes_a_board_dead() {
    let mut game = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 60 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    steps(&mut game, "Ra2/e4");
    assert_eq!(assault(&game).ended(0), Some(BoardEnd::Dead(DeadReason::FiftyMoves)));
}

#[test]
fn a_mate_on_the_hundredth_half_move_wins_instead() {
    let mut game = from_fen("4k3/R7/8/8/8/8/8/1R2K3 w - - 99 60 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    steps(&mut game, "Rb8/e4");
    assert_eq!(assault(&game).ended(0), Some(BoardEnd::Mated));
    assert_eq!(game.outcome().unwrap().winner, Some(Seat::First));
}

#[test]
fn a_board_is_dead_when_white_can_no_longer_mate() {
    // White's knight and king against Black: one minor piece (the king adds nothing).
    let game = from_fen("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    assert_eq!(
        assault(&game).ended(0),
        Some(BoardEnd::Dead(DeadReason::InsufficientMaterial))
    );
    // Two minor pieces without a king can still mate.
    let two = from_fen("4k3/8/8/8/8/8/8/1NB5 w - - 0 1 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    assert_eq!(assault(&game).ended(1), None);
    assert_eq!(assault(&two).ended(0), None);
}

#[test]
fn white_with_pieces_but_no_legal_move_passes() {
    // Board 1's White has only a blocked pawn: it passes while B moves on board 2.
    let mut game = from_fen("4k3/8/8/8/8/p7/P7/8 w - - 0 1 | 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    assert_eq!(game.to_act(), [Seat::Second], "A has no move to make");
    assert_eq!(assault(&game).pending_passes(), [0]);
    steps(&mut game, "e4");
    let view = game.view(Viewer::Spectator);
    assert!(
        view.boards[0].fen.contains(" b - - 1 1"),
        "the pass is a half-move: {}",
        view.boards[0].fen
    );
    assert!(
        view.notes.contains(&"Board 1: 1. (pass)".to_string()),
        "{:?}",
        view.notes
    );
    assert_eq!(
        game.to_act(),
        [Seat::First, Seat::Second],
        "the Black half-turn on both boards"
    );
}

#[test]
fn a_step_in_which_nobody_has_a_move_resolves_at_once() {
    // Both Whites are blocked: the White half-turn passes by itself.
    let game = from_fen("4k3/8/8/8/8/p7/P7/8 w - - 0 1");
    assert_eq!(game.to_act(), [Seat::First, Seat::Second]);
    assert_eq!(assault(&game).half_turn(), Color::Black);
}

#[test]
fn takebacks_undo_the_whole_last_half_turn() {
    let game = played("e4/d4");
    let history: Vec<(Seat, arbiter_engine::Action)> = Vec::new();
    assert_eq!(game.takeback_plies(Seat::First, &history).unwrap(), 2);
    let mut more = game.clone();
    submit(&mut more, Seat::First, "e5");
    assert_eq!(
        more.takeback_plies(Seat::Second, &history).unwrap(),
        3,
        "with the move already submitted"
    );
    assert!(AnyGame::new(ASSAULT).takeback_plies(Seat::First, &history).is_err());
}

#[test]
fn two_fens_must_share_the_side_to_move() {
    let error = AnyGame::from_fen(
        ASSAULT,
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1 | 4k3/8/8/8/8/8/P7/4K3 b - - 0 1",
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("same side to move"), "{error}");
}

#[test]
fn one_white_minor_piece_still_mates_a_king_boxed_in_by_its_own_pieces() {
    // Board 1: White has a lone knight (and its king); Black has pawns beside its king, which
    // may box it in: the board plays on. Board 2: the same knight against a lone king is dead.
    let game = from_fen("4k3/3ppp2/8/8/8/8/8/1N2K3 w - - 0 1 | 4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(assault(&game).ended(0), None, "a boxed king can be mated by a knight");
    assert_eq!(
        assault(&game).ended(1),
        Some(BoardEnd::Dead(DeadReason::InsufficientMaterial)),
        "a lone king cannot"
    );
}
