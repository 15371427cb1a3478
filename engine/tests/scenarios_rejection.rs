//! Rejection Chess, ruling by ruling (rules page //! docs/rules/rejection.md), and every case of tests/oracles/rejection.json: the seat to act, its
//! legal actions and the position after scripted games.

mod common;

use arbiter_engine::game::{Action, ActionError, EndReason, Game, Seat, Timeout, Viewer};
use arbiter_engine::variants::rejection::RejectionGame;
use arbiter_engine::view::PromptKind;
use arbiter_engine::{AnyGame, VariantId};
use common::{cases, comparable_fen, from_fen, legal_san, plain_san, play, played, sorted};

const REJECTION: VariantId = VariantId::Rejection;

fn rejection(game: &AnyGame) -> &RejectionGame {
    match game {
        AnyGame::Rejection(game) => game,
        other => panic!("not a Rejection game: {}", other.variant_id()),
    }
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == Seat::First { "white" } else { "black" }
}

fn refused(game: &AnyGame, seat: Seat, text: &str) -> ActionError {
    game.parse_action(seat, text)
        .and_then(|action| game.clone().apply(seat, &action).map(|()| action))
        .expect_err(text)
}

#[test]
fn every_reference_case_matches() {
    for case in cases(include_str!("oracles/rejection.json")) {
        let id = case["id"].as_str().unwrap();
        let game = played(REJECTION, case["actions"].as_str().unwrap());
        let to_act: Vec<&str> = game.to_act().into_iter().map(seat_name).collect();
        let expected: Vec<&str> = case["to_act"].as_str().into_iter().collect();
        assert_eq!(to_act, expected, "{id}: seat to act");
        if let Some(&seat) = game.to_act().first() {
            let mut ours = legal_san(&game, seat);
            ours.sort();
            let theirs: Vec<String> = sorted(&case["legal_actions"]).iter().map(|t| plain_san(t)).collect();
            assert_eq!(ours, theirs, "{id}: legal actions");
            assert_eq!(ours.len() as u64, case["legal_count"].as_u64().unwrap(), "{id}");
        }
        let state = case["state"].as_str().unwrap();
        let (fen, pending) = state.split_once(" | ").unwrap_or((state, ""));
        let view = game.view(Viewer::Arbiter);
        assert_eq!(comparable_fen(&view.fen()), comparable_fen(fen), "{id}: position");
        let game_state = rejection(&game);
        let ours_pending = match (game_state.proposal(), game_state.rejected()) {
            (Some(p), _) => format!("proposed {}", plain_san(p)),
            (None, Some(r)) => format!("rejected {}", plain_san(r)),
            (None, None) => String::new(),
        };
        assert_eq!(ours_pending, pending, "{id}: protocol step");
        match case["result"].as_str() {
            None => assert!(game.outcome().is_none(), "{id}"),
            Some(result) => {
                let outcome = game.outcome().unwrap_or_else(|| panic!("{id}: over"));
                let winner = if result.contains("white wins") {
                    Some(Seat::First)
                } else {
                    Some(Seat::Second)
                };
                assert_eq!((outcome.reason, outcome.winner), (EndReason::Checkmate, winner), "{id}");
            }
        }
    }
}

#[test]
fn a_proposal_is_played_only_once_the_opponent_accepts_it() {
    let game = played(REJECTION, "e4");
    assert_eq!(game.to_act(), [Seat::Second], "Black answers");
    assert_eq!(legal_san(&game, Seat::Second), ["accept", "reject"]);
    assert_eq!(
        game.view(Viewer::Arbiter).fen(),
        AnyGame::new(REJECTION).view(Viewer::Arbiter).fen()
    );
    let accepted = played(REJECTION, "e4 accept");
    assert!(
        accepted
            .view(Viewer::Spectator)
            .fen()
            .starts_with("rnbqkbnr/pppppppp/8/8/4P3")
    );
    assert_eq!(accepted.to_act(), [Seat::Second], "Black proposes next");
}

#[test]
fn after_a_rejection_the_movers_next_move_is_played_at_once_and_is_a_different_one() {
    let game = played(REJECTION, "e4 reject");
    assert_eq!(game.to_act(), [Seat::First]);
    assert!(!legal_san(&game, Seat::First).contains(&"e4".to_string()));
    assert_eq!(legal_san(&game, Seat::First).len(), 19);
    let error = refused(&game, Seat::First, "e4").to_string();
    assert!(error.contains("e4 was rejected this turn"), "{error}");
    let game = played(REJECTION, "e4 reject d4");
    assert!(
        game.view(Viewer::Spectator).fen().contains("3P4"),
        "d4 was played without a proposal"
    );
    assert_eq!(game.to_act(), [Seat::Second], "and it is Black's turn");
}

#[test]
fn rejecting_is_optional_at_most_once_a_turn_and_does_not_carry_over() {
    let game = played(REJECTION, "e4 reject");
    // Black has no answer to give while White replaces the move.
    assert!(game.legal_actions(Seat::Second).is_empty());
    assert!(matches!(
        refused(&game, Seat::Second, "reject"),
        ActionError::NotYourTurn
    ));
    // Next turn, Black may be rejected in turn, and White may reject again later.
    let game = played(REJECTION, "e4 reject d4 e5 reject d5 Nf3");
    assert_eq!(legal_san(&game, Seat::Second), ["accept", "reject"]);
}

#[test]
fn promotions_to_different_pieces_are_different_moves() {
    let fen = "7k/4P3/8/8/8/8/8/K7 w - - 0 1";
    let mut game = from_fen(REJECTION, fen);
    play(&mut game, "e8=Q+ reject");
    let left = legal_san(&game, Seat::First);
    assert!(
        !left.contains(&"e8=Q".to_string()) && left.contains(&"e8=R".to_string()),
        "{left:?}"
    );
    play(&mut game, "e8=R+");
    assert!(game.view(Viewer::Spectator).fen().starts_with("4R2k"));
}

#[test]
fn castling_and_en_passant_are_moves_too() {
    let mut game = from_fen(REJECTION, "4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1");
    play(&mut game, "exd6 reject");
    assert!(!legal_san(&game, Seat::First).contains(&"exd6".to_string()));
    play(&mut game, "O-O");
    assert!(
        game.view(Viewer::Spectator)
            .fen()
            .starts_with("4k3/8/8/3pP3/8/8/8/R4RK1")
    );
}

#[test]
fn a_player_with_exactly_one_legal_move_plays_it_without_a_proposal() {
    // The reference game whose last position leaves Black the king's one move.
    let case = cases(include_str!("oracles/rejection.json"))
        .into_iter()
        .find(|c| c["id"] == "rej-forced-single-3")
        .unwrap();
    let mut game = played(REJECTION, case["actions"].as_str().unwrap());
    assert_eq!(legal_san(&game, Seat::Second), ["Kd8"]);
    play(&mut game, "Kd8");
    assert_eq!(game.to_act(), [Seat::First], "played at once, nobody answers");
    let entry = game.view(Viewer::Spectator).record.last().cloned().unwrap();
    assert_eq!(entry.said.as_deref(), Some("played Kd8, the only legal move"));
    assert!(!entry.is_hidden);
}

#[test]
fn checkmate_and_stalemate_are_as_in_fide() {
    let mate = played(REJECTION, "f3 accept e5 accept g4 accept Qh4# accept");
    assert_eq!(mate.outcome().unwrap().reason, EndReason::Checkmate);
    let mut stalemate = from_fen(REJECTION, "7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    play(&mut stalemate, "Qf7 accept");
    assert_eq!(stalemate.outcome().unwrap().reason, EndReason::Stalemate);
}

#[test]
fn repetition_counts_played_positions_only() {
    // Proposals that are rejected do not count as positions reached.
    let mut game = AnyGame::new(REJECTION);
    play(
        &mut game,
        "Nf3 accept Nf6 accept Ng1 accept Ng8 accept Nf3 accept Nf6 accept Ng1 accept",
    );
    assert!(game.outcome().is_none());
    play(&mut game, "Ng8 reject Nh5");
    assert!(game.outcome().is_none(), "the rejected Ng8 did not repeat the position");
    let mut again = AnyGame::new(REJECTION);
    play(
        &mut again,
        "Nf3 accept Nf6 accept Ng1 accept Ng8 accept Nf3 accept Nf6 accept Ng1 accept Ng8 accept",
    );
    assert_eq!(again.outcome().unwrap().reason, EndReason::Repetition);
}

#[test]
fn an_unanswered_proposal_is_accepted_when_the_answers_time_runs_out() {
    let game = played(REJECTION, "e4");
    assert_eq!(game.on_timeout(Seat::Second), Timeout::Plays(Action::Accept));
    let proposing = AnyGame::new(REJECTION);
    assert!(matches!(proposing.on_timeout(Seat::First), Timeout::Ends(_)));
}

#[test]
fn the_rejected_move_stays_the_players_alone_even_after_the_game() {
    let mut game = played(REJECTION, "e4 reject d4");
    let view = game.view(Viewer::Spectator);
    let texts: Vec<&str> = view.record.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["(proposed a move)", "reject", "d4"]);
    assert!(!format!("{view:?}").contains("e4"));
    for seat in Seat::BOTH {
        let texts: Vec<String> = game
            .view(Viewer::Seat(seat))
            .record
            .into_iter()
            .map(|e| e.text)
            .collect();
        assert_eq!(texts, ["e4", "reject", "d4"]);
    }
    game.conclude(arbiter_engine::Outcome::win(Seat::First, EndReason::Resignation));
    assert!(
        !format!("{:?}", game.view(Viewer::Spectator)).contains("e4"),
        "not even after the game"
    );
}

#[test]
fn a_pending_proposal_is_shown_to_the_answerer_and_the_mover_only() {
    let game = played(REJECTION, "Nf3");
    let answerer = game.view(Viewer::Seat(Seat::Second));
    let prompt = answerer.prompt.clone().expect("Black answers privately");
    assert_eq!(prompt.kind, PromptKind::Answer);
    assert!(prompt.text.contains("White proposes Nf3"), "{}", prompt.text);
    assert_eq!(prompt.choices, ["accept", "reject"]);
    assert_eq!(answerer.board().marks.len(), 2, "the proposal is highlighted");
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.board().marks.is_empty() && spectator.prompt.is_none());
    assert!(spectator.notes.iter().any(|n| n.contains("White has proposed a move")));
    let mover = game.view(Viewer::Seat(Seat::First));
    assert!(mover.notes.iter().any(|n| n.contains("Your proposal Nf3 is waiting")));
}

#[test]
fn after_a_rejection_the_mover_is_prompted_with_the_moves_left_and_after_an_acceptance_told() {
    let game = played(REJECTION, "e4 reject");
    let prompt = game.view(Viewer::Seat(Seat::First)).prompt.expect("a prompt to move");
    assert_eq!(prompt.kind, PromptKind::Move);
    assert!(prompt.text.contains("Black rejected e4"), "{}", prompt.text);
    assert_eq!(prompt.choices.len(), 19);
    assert!(game.view(Viewer::Spectator).prompt.is_none());
    let accepted = played(REJECTION, "e4 accept");
    assert_eq!(
        accepted.view(Viewer::Seat(Seat::First)).notice.as_deref(),
        Some("Black accepted your proposal: e4 is played.")
    );
    assert_eq!(accepted.view(Viewer::Spectator).notice, None);
    assert_eq!(accepted.view(Viewer::Seat(Seat::Second)).notice, None);
}

#[test]
fn answers_and_rejected_proposals_are_not_moves_of_the_move_list() {
    let game = played(REJECTION, "e4 accept e5 reject d6");
    let moves: Vec<String> = game
        .view(Viewer::Seat(Seat::First))
        .record
        .into_iter()
        .filter(|e| e.is_move)
        .map(|e| e.text)
        .collect();
    assert_eq!(moves, ["e4", "d6"]);
}

#[test]
fn answers_are_accept_and_reject_and_nothing_else() {
    let game = played(REJECTION, "e4");
    assert!(matches!(
        refused(&game, Seat::Second, "e5"),
        ActionError::Unreadable { .. }
    ));
    let fresh = AnyGame::new(REJECTION);
    let error = refused(&fresh, Seat::First, "accept").to_string();
    assert!(error.contains("no proposal to answer"), "{error}");
}

#[test]
fn a_takeback_undoes_the_askers_last_move_and_what_followed() {
    let game = played(REJECTION, "e4 accept e5 reject d6");
    let history: Vec<(Seat, Action)> = {
        let mut replay = AnyGame::new(REJECTION);
        let mut out = Vec::new();
        for text in "e4 accept e5 reject d6".split_whitespace() {
            let seat = replay.to_act()[0];
            let action = replay.parse_action(seat, text).unwrap();
            replay.apply(seat, &action).unwrap();
            out.push((seat, action));
        }
        out
    };
    assert_eq!(game.takeback_plies(Seat::Second, &history), Ok(1), "Black's d6");
    assert_eq!(
        game.takeback_plies(Seat::First, &history),
        Ok(5),
        "White's e4 and all after"
    );
}
