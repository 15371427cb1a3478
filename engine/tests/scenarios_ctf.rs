//! Capture the Flag, ruling by ruling (rules page docs/rules/ctf.md),
//! and every case of tests/oracles/ctf.json: both seats' legal actions, the bases and flags, the
//! result, and perft with bases e4 and d5.

mod common;

use arbiter_engine::game::{Action, ActionError, EndReason, Game, Seat, Viewer};
use arbiter_engine::piece::Color;
use arbiter_engine::variants::ctf::{CtfGame, Flag};
use arbiter_engine::{AnyGame, VariantId};
use common::{cases, comparable_fen, from_fen, play, played, sq};
use serde_json::Value;

const CTF: VariantId = VariantId::Ctf;

fn ctf(game: &AnyGame) -> &CtfGame {
    match game {
        AnyGame::Ctf(game) => game,
        other => panic!("not a CTF game: {}", other.variant_id()),
    }
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == Seat::First { "white" } else { "black" }
}

/// A seat's legal actions without carrier marks (`[N]f3` is `Nf3`, `[P]e5` is `e5`), sorted.
fn legal(game: &AnyGame, seat: Seat) -> Vec<String> {
    let mut texts: Vec<String> = game
        .noted_actions(seat)
        .into_iter()
        .map(|(_, text)| match text.split_once(']') {
            Some(("[P", rest)) => rest.to_string(),
            Some((mark, rest)) if mark.starts_with('[') => format!("{}{rest}", &mark[1..]),
            _ => text,
        })
        .collect();
    texts.sort();
    texts
}

fn flag_json(flag: Option<Flag>) -> Value {
    match flag {
        Some(flag) => serde_json::json!({ "square": flag.square.to_string(), "carried": flag.is_carried }),
        None => Value::Null,
    }
}

#[test]
fn every_reference_case_matches() {
    for case in cases(include_str!("oracles/ctf.json")) {
        let id = case["id"].as_str().unwrap();
        let game = played(CTF, case["actions"].as_str().unwrap());
        let to_act: Vec<&str> = game.to_act().into_iter().map(seat_name).collect();
        let expected: Vec<&str> = case["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(to_act, expected, "{id}: seats to act");
        for seat in game.to_act() {
            let theirs = common::sorted(&case["legal_actions"][seat_name(seat)]);
            assert_eq!(legal(&game, seat), theirs, "{id}: {} legal actions", seat_name(seat));
        }
        let view = game.view(Viewer::Arbiter);
        assert_eq!(
            comparable_fen(&view.fen()),
            comparable_fen(case["fen"].as_str().unwrap()),
            "{id}"
        );
        let state = ctf(&game);
        for color in Color::BOTH {
            let name = if color == Color::White { "white" } else { "black" };
            let base = state
                .base(color)
                .map(|s| Value::from(s.to_string()))
                .unwrap_or(Value::Null);
            assert_eq!(base, case["bases"][name], "{id}: {name}'s base");
            assert_eq!(flag_json(state.flag(color)), case["flags"][name], "{id}: {name}'s flag");
        }
        let winner = game.outcome().and_then(|o| o.winner).map(seat_name);
        assert_eq!(winner, case["winner"].as_str(), "{id}: winner");
        if let Some(marked) = case["actions_marked"].as_str() {
            // Our notation marks the carrier the same way.
            let written: Vec<String> = game.view(Viewer::Arbiter).record.into_iter().map(|e| e.text).collect();
            assert_eq!(written.join(" "), marked, "{id}: carrier marks");
        }
    }
}

#[test]
fn perft_with_bases_e4_and_d5_matches_the_reference() {
    let data: Value = serde_json::from_str(include_str!("oracles/ctf.json")).unwrap();
    for case in data["perft"].as_array().unwrap() {
        let game = played(CTF, case["actions"].as_str().unwrap());
        for (depth, nodes) in case["perft"].as_object().unwrap() {
            let depth: u32 = depth.parse().unwrap();
            assert_eq!(game.perft(depth), nodes.as_u64().unwrap(), "depth {depth}");
        }
    }
}

#[test]
fn bases_are_chosen_secretly_and_revealed_together() {
    let game = played(CTF, "base:e3");
    assert_eq!(game.to_act(), [Seat::Second]);
    let spectator = game.view(Viewer::Spectator);
    assert!(
        !format!("{spectator:?}").contains("e3"),
        "nobody else knows White's base"
    );
    assert_eq!(spectator.record[0].text, "(chose a base)");
    let own = game.view(Viewer::Seat(Seat::First));
    assert!(
        own.board().marks.iter().any(|m| m.square == sq("e3")),
        "White sees its own base"
    );
    assert!(own.prompt.is_none());
    let black = game.view(Viewer::Seat(Seat::Second));
    assert!(black.prompt.is_some() && !format!("{black:?}").contains("e3"));
    let both = played(CTF, "base:e3 base:d6");
    let texts: Vec<String> = both
        .view(Viewer::Spectator)
        .record
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert_eq!(texts, ["base:e3", "base:d6"]);
    assert_eq!(both.to_act(), [Seat::First]);
}

#[test]
fn a_base_lies_in_the_owners_half_on_an_empty_square_or_an_own_piece() {
    let game = AnyGame::new(CTF);
    assert!(game.parse_action(Seat::First, "base:e2").is_ok(), "an own pawn");
    assert!(game.parse_action(Seat::First, "base:h4").is_ok(), "empty, in the half");
    for bad in ["base:e5", "base:a7"] {
        let error = game.parse_action(Seat::First, bad).unwrap_err().to_string();
        assert!(error.contains("not a square of your half"), "{bad}: {error}");
    }
    // A bare square is never taken for a base: the choice is for good.
    let error = game.parse_action(Seat::First, "e4").unwrap_err().to_string();
    assert!(error.contains("base:e4"), "{error}");
    assert!(game.parse_action(Seat::First, "base e3").is_ok(), "a space will do");
    let black = from_fen(CTF, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1");
    assert!(black.parse_action(Seat::Second, "base:e5").is_ok());
    assert!(black.parse_action(Seat::Second, "base:e4").is_err(), "White's half");
}

#[test]
fn a_flag_never_blocks_and_is_never_captured() {
    // White's base a3, Black's h6; the a-pawn steps through and onto White's own flag square.
    let mut game = played(CTF, "base:a3 base:h6 a4");
    assert_eq!(ctf(&game).flag(Color::White).unwrap().square, sq("a3"));
    play(&mut game, "h5 a5 h4");
    assert_eq!(
        ctf(&game).flag(Color::White).unwrap(),
        Flag {
            square: sq("a3"),
            is_carried: false
        }
    );
}

#[test]
fn a_piece_ending_on_the_enemy_base_catches_the_flag_also_by_capturing_there() {
    let game = played(CTF, "base:e4 base:d5 e4 d5 exd5");
    assert_eq!(
        ctf(&game).flag(Color::Black).unwrap(),
        Flag {
            square: sq("d5"),
            is_carried: true
        }
    );
    let quiet = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5");
    assert!(ctf(&quiet).flag(Color::Black).unwrap().is_carried);
}

#[test]
fn the_carrier_may_drop_the_flag_as_its_whole_turn() {
    let mut game = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4");
    assert!(
        legal(&game, Seat::Second).iter().all(|a| a != "drop"),
        "only the carrier's side drops"
    );
    play(&mut game, "b6");
    assert!(legal(&game, Seat::First).contains(&"drop".to_string()));
    play(&mut game, "drop");
    assert_eq!(
        ctf(&game).flag(Color::Black).unwrap(),
        Flag {
            square: sq("c4"),
            is_carried: false
        }
    );
    assert_eq!(game.to_act(), [Seat::Second], "the drop was White's turn");
}

#[test]
fn an_enemy_piece_ending_on_a_lying_flag_carries_it_and_the_owner_sends_it_home() {
    let mut game = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 drop h6 Ne3 h5 Nc4");
    assert_eq!(
        ctf(&game).flag(Color::Black).unwrap(),
        Flag {
            square: sq("c4"),
            is_carried: true
        }
    );
    // Dropped again and reached by a Black piece: it goes back to its base at once.
    play(&mut game, "h4 drop Nc6 Ne3 Ne5 Ng4 Nc4");
    assert_eq!(
        ctf(&game).flag(Color::Black).unwrap(),
        Flag {
            square: sq("e5"),
            is_carried: false
        }
    );
}

#[test]
fn capturing_a_carrier_sends_the_flag_home_en_passant_included() {
    let game = played(
        CTF,
        "base:a1 base:d5 Nc3 f5 Nd5 f4 Nc3 a6 Ne4 a5 drop a4 Ng5 b6 e4 fxe3",
    );
    assert_eq!(
        ctf(&game).flag(Color::Black).unwrap(),
        Flag {
            square: sq("d5"),
            is_carried: false
        }
    );
    let mut direct = played(CTF, "base:e4 base:d5 e4 d5 exd5");
    play(&mut direct, "Qxd5");
    assert_eq!(
        ctf(&direct).flag(Color::Black).unwrap(),
        Flag {
            square: sq("d5"),
            is_carried: false
        }
    );
}

#[test]
fn a_flag_returned_to_a_base_an_enemy_piece_stands_on_is_not_caught_by_it() {
    // White's pawn stands on Black's base e5 when Black captures the carrier on c4: the flag
    // comes home under the pawn, which has not moved onto it.
    let game = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 e4 b5 e5 bxc4");
    assert_eq!(
        ctf(&game).flag(Color::Black).unwrap(),
        Flag {
            square: sq("e5"),
            is_carried: false
        }
    );
    let view = game.view(Viewer::Spectator);
    assert!(
        matches!(
            view.board().cell(sq("e5")),
            arbiter_engine::view::ViewCell::Piece {
                color: Color::White,
                ..
            }
        ),
        "the pawn is on e5"
    );
}

#[test]
fn bringing_the_enemy_flag_to_the_own_base_wins_a_capture_there_counting() {
    let game = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nf3");
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::FlagCaptured)
    );
    assert!(game.to_act().is_empty() && game.legal_actions(Seat::Second).is_empty());
    let promoted = played(CTF, "base:h3 base:d7 e4 a6 e5 a5 e6 a4 exd7 h6 dxc8=Q h5 Qh3");
    assert_eq!(promoted.outcome().unwrap().winner, Some(Seat::First));
}

#[test]
fn dropping_the_enemy_flag_on_the_own_base_wins() {
    // White's base c4; the carrier knight reaches c4 and wins at once by standing there.
    let game = played(CTF, "base:c4 base:e5 Nf3 a6 Ne5 a5 Nc4");
    assert_eq!(game.outcome().unwrap().reason, EndReason::FlagCaptured);
}

#[test]
fn the_own_flag_need_not_be_home_to_win() {
    // Black carries White's flag away from d5; White's carrier still wins by reaching d5.
    let mut game = from_fen(CTF, "7k/8/8/8/4N3/2n5/8/7K w - - 0 1 bases:d5,f6");
    play(&mut game, "Nf6 Nd5 Kg1 Nb4");
    assert_eq!(
        ctf(&game).flag(Color::White).unwrap(),
        Flag {
            square: sq("b4"),
            is_carried: true
        }
    );
    play(&mut game, "Nd5");
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::FlagCaptured)
    );
}

#[test]
fn kings_are_not_royal_they_may_be_captured_and_nobody_castles() {
    let game = from_fen(CTF, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 bases:a1,h8");
    let moves = legal(&game, Seat::First);
    assert!(!moves.iter().any(|m| m.starts_with("O-O")), "{moves:?}");
    let mut capture = from_fen(CTF, "4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1 bases:a1,h8");
    // Black may move its king next to the queen, or take it: every pseudo-legal move is legal.
    let black = legal(&capture, Seat::Second);
    assert!(
        black.contains(&"Kd8".to_string()) && black.contains(&"Kxe7".to_string()),
        "{black:?}"
    );
    play(&mut capture, "Kf8 Qf7");
    let view = capture.view(Viewer::Spectator);
    assert!(view.board().check.is_none(), "no check in CTF");
    let mut taken = from_fen(CTF, "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1 bases:a1,h8");
    play(&mut taken, "Qxe8");
    assert!(taken.outcome().is_none(), "losing the king loses nothing by itself");
}

#[test]
fn a_side_with_no_move_passes_and_when_neither_can_move_the_game_is_drawn() {
    let case = cases(include_str!("oracles/ctf.json"))
        .into_iter()
        .find(|c| c["id"] == "ctf-pass-only")
        .unwrap();
    let mut game = played(CTF, case["actions"].as_str().unwrap());
    assert_eq!(legal(&game, Seat::First), ["pass"]);
    play(&mut game, "pass");
    assert_eq!(game.to_act(), [Seat::Second]);
    let error = game.parse_action(Seat::Second, "pass").unwrap_err().to_string();
    assert!(error.contains("only when you have no move"), "{error}");
    // Two lone pawns blocked head to head: nobody can move.
    let stuck = from_fen(CTF, "8/8/8/4p3/4P3/8/8/8 w - - 0 1 bases:a1,h8");
    let outcome = stuck.outcome().expect("drawn at once");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::NeitherCanMove));
}

#[test]
fn catching_dropping_and_returning_a_flag_reset_the_fifty_move_count() {
    let game = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5");
    assert!(
        game.view(Viewer::Spectator).fen().ends_with(" 0 2"),
        "{}",
        game.view(Viewer::Spectator).fen()
    );
    let dropped = played(CTF, "base:f3 base:e5 Nf3 Nc6 Ne5 Nb8 drop");
    assert!(
        dropped.view(Viewer::Spectator).fen().contains(" 0 3"),
        "{}",
        dropped.view(Viewer::Spectator).fen()
    );
}

#[test]
fn a_repeated_board_with_the_flags_elsewhere_is_not_a_repetition() {
    // The knights dance; the first time round White's knight picks up Black's flag on e5.
    let game = played(CTF, "base:a3 base:h6 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::Repetition));
    let carried = played(CTF, "base:a3 base:e5 Nf3 Nf6 Ne5 Ng8 Nf3 Nf6 Ne5 Ng8 Nf3 Nf6");
    assert!(
        carried.outcome().is_none(),
        "the flag moved with the knight, so positions differ"
    );
}

#[test]
fn the_carrier_is_marked_in_output_and_may_be_left_unmarked_in_input() {
    let game = played(CTF, "base:f3 base:e5 Nf3 a6 Ne5 a5");
    let texts: Vec<String> = game.noted_actions(Seat::First).into_iter().map(|(_, t)| t).collect();
    assert!(
        texts.contains(&"[N]c4".to_string()) && texts.contains(&"drop".to_string()),
        "{texts:?}"
    );
    for written in ["Nc4", "[N]c4"] {
        assert_eq!(
            game.parse_action(Seat::First, written).unwrap(),
            game.parse_action(Seat::First, "Nc4").unwrap()
        );
    }
    assert!(matches!(
        game.parse_action(Seat::First, "base:e4"),
        Err(ActionError::Illegal(_))
    ));
    assert_eq!(game.parse_action(Seat::First, "drop").unwrap(), Action::Drop);
}
