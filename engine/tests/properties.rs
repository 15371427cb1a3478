//! Property tests over random playouts of the hosted games (Chess, Blockade, Garden of Statues,
//! Beirut).
//!
//! A playout starts from `AnyGame::new(id)`; at each step it takes a seat of `to_act()` (a random
//! one during Beirut's simultaneous choice), picks a legal action by a random index and applies
//! it, until the game ends or the steps run out. The properties:
//!
//! 1. every legal action applies, and its notation reads back as the same action;
//! 2. illegal actions, and actions by a seat that is not to act, are refused and change nothing;
//!    garbage text is refused by `parse_action` without a panic;
//! 3. the state survives a serde_json round trip at every step;
//! 4. replaying the logged actions from the start rebuilds the state;
//! 5. Beirut: a bomb carrier stays secret from the opponent, spectators and logs until the end.
//!
//! Failures are not persisted to a regressions file: proptest prints a failing case, and the
//! cases it has found are kept as fixed examples at the end.

use arbiter_engine::game::RecordEntry;
use arbiter_engine::geometry::Square;
use arbiter_engine::movegen::{Move, Special};
use arbiter_engine::piece::{Color, Kind};
use arbiter_engine::variant::Variant;
use arbiter_engine::{Action, ActionError, AnyGame, Game, Phase, Seat, VariantId, ViewCell, Viewer};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use std::fmt::Debug;

// ---------------------------------------------------------------------------------------------
// Configuration and strategies

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        max_shrink_iters: 1024,
        ..ProptestConfig::default()
    }
}

/// Plies a playout may last: chess and Beirut 60 moves (plus Beirut's two choices), Blockade its
/// 10 placements and 50 turns.
fn max_steps(id: VariantId) -> usize {
    match id {
        VariantId::Chess => 60,
        VariantId::Beirut => 62,
        VariantId::Blockade | VariantId::Garden => 60,
    }
}

/// How many piece kinds the variant's table has (kinds are indices into it).
fn kind_count(id: VariantId) -> u8 {
    let count = match id {
        VariantId::Chess | VariantId::Beirut => Variant::fide().pieces.len(),
        VariantId::Blockade | VariantId::Garden => Variant::from_toml(include_str!("../variants/blockade.toml"))
            .expect("the built-in blockade file is valid")
            .pieces
            .len(),
    };
    count as u8
}

/// One step of a playout: which seat (during a simultaneous choice) and which legal action, plus
/// whatever else a property needs at that step.
#[derive(Clone, Debug)]
struct Step<X> {
    seat: Index,
    pick: Index,
    extra: X,
}

fn steps<X: Debug + Clone>(max: usize, extra: impl Strategy<Value = X>) -> impl Strategy<Value = Vec<Step<X>>> {
    vec(
        (any::<Index>(), any::<Index>(), extra).prop_map(|(seat, pick, extra)| Step { seat, pick, extra }),
        0..=max,
    )
}

/// Mostly squares of an 8x8 board, sometimes squares off it (still valid `Square`s).
fn square() -> impl Strategy<Value = Square> {
    prop_oneof![
        8 => (0..8u8, 0..8u8),
        1 => (0..16u8, 0..16u8),
    ]
    .prop_map(|(file, rank)| Square::new(file, rank))
}

fn special() -> impl Strategy<Value = Special> {
    prop_oneof![
        3 => Just(Special::Normal),
        1 => Just(Special::DoubleStep),
        1 => Just(Special::EnPassant),
        1 => (square(), square()).prop_map(|(rook_from, rook_to)| Special::Castle { rook_from, rook_to }),
    ]
}

/// Any action of any game, naming kinds below `kinds`.
fn action(kinds: u8) -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (square(), square(), proptest::option::of(0..kinds), special()).prop_map(|(from, to, promotion, special)| {
            Action::Move(Move { from, to, promotion, special })
        }),
        2 => (0..kinds, square()).prop_map(|(kind, to)| Action::Place { kind, to }),
        2 => (square(), square(), square()).prop_map(|(from, to, statue)| Action::MoveAndStatue { from, to, statue }),
        1 => square().prop_map(Action::ChooseBomb),
        1 => Just(Action::Detonate),
    ]
}

/// A candidate illegal action: a random one, or a legal one with one part changed (the near
/// misses are the interesting ones).
#[derive(Clone, Debug)]
enum Junk {
    Random(Action),
    Mutated {
        base: Index,
        part: u8,
        square: Square,
        kind: Kind,
    },
}

fn junk(kinds: u8) -> impl Strategy<Value = Junk> {
    prop_oneof![
        action(kinds).prop_map(Junk::Random),
        (any::<Index>(), 0..8u8, square(), 0..kinds).prop_map(|(base, part, square, kind)| Junk::Mutated {
            base,
            part,
            square,
            kind
        }),
    ]
}

impl Junk {
    fn realize(&self, legal: &[Action]) -> Action {
        let (base, part, square, kind) = match self {
            Junk::Random(action) => return action.clone(),
            Junk::Mutated {
                base,
                part,
                square,
                kind,
            } => (base, *part, *square, *kind),
        };
        let Some(action) = (!legal.is_empty()).then(|| &legal[base.index(legal.len())]) else {
            return Action::ChooseBomb(square);
        };
        match *action {
            Action::Move(mv) => Action::Move(match part % 6 {
                0 => Move { from: square, ..mv },
                1 => Move { to: square, ..mv },
                2 => Move {
                    promotion: Some(kind),
                    ..mv
                },
                3 => Move {
                    promotion: mv.promotion.xor(Some(kind)),
                    ..mv
                },
                4 => Move {
                    special: match mv.special {
                        Special::Normal => Special::DoubleStep,
                        _ => Special::Normal,
                    },
                    ..mv
                },
                _ => Move {
                    special: Special::Castle {
                        rook_from: square,
                        rook_to: mv.to,
                    },
                    ..mv
                },
            }),
            Action::Place { kind: k, to } => match part % 3 {
                0 => Action::Place { kind, to: square },
                1 => Action::Place { kind, to },
                _ => Action::Place { kind: k, to: square },
            },
            Action::MoveAndStatue { from, to, statue } => match part % 4 {
                0 => Action::MoveAndStatue {
                    from: square,
                    to,
                    statue,
                },
                1 => Action::MoveAndStatue {
                    from,
                    to: square,
                    statue,
                },
                2 => Action::MoveAndStatue {
                    from,
                    to,
                    statue: square,
                },
                _ => Action::MoveAndStatue { from, to, statue: from },
            },
            Action::ChooseBomb(_) => Action::ChooseBomb(square),
            Action::Detonate => Action::ChooseBomb(square),
        }
    }
}

/// Text a player might type, or might mistype, or random Unicode.
fn garbage() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-hpxXQRBNKPOo0-9=@:+#() /-]{0,9}",
        "(bomb|BOMB|detonate|Bomb)?[: @]{0,2}[a-q]?[0-9]{0,3}",
        "[QRBqrb]?[a-i][0-9]{1,2}-?[a-i][0-9]{1,2}@?[a-i][0-9]{1,2}",
        "[a-h1-8xéß♞\u{0}\u{300}=@ -]{0,6}",
    ]
}

// ---------------------------------------------------------------------------------------------
// The playout driver

/// What a playout leaves behind: the start, the log of (seat, action) pairs, every state reached
/// (`states[k]` after `k` actions), and the legal actions of the last position where someone was
/// to act.
struct Playout {
    /// The notation of each action in the log.
    history: Vec<String>,
    start: AnyGame,
    log: Vec<(Seat, Action)>,
    states: Vec<AnyGame>,
    last_legal: Vec<Action>,
}

impl Playout {
    fn game(&self) -> &AnyGame {
        self.states.last().expect("the start state is always there")
    }
}

/// Plays `steps` from the start of `id`, calling `visit(step, game, seat, legal, chosen)` before
/// each action is applied.
fn play<X>(
    id: VariantId,
    steps: &[Step<X>],
    mut visit: impl FnMut(&Step<X>, &AnyGame, Seat, &[Action], usize) -> Result<(), TestCaseError>,
) -> Result<Playout, TestCaseError> {
    let start = AnyGame::new(id);
    let mut game = start.clone();
    let mut log = Vec::new();
    let mut states = vec![game.clone()];
    let mut last_legal = Vec::new();
    let mut history: Vec<String> = Vec::new();
    let with_history = |e: TestCaseError, history: &[String]| match e {
        TestCaseError::Fail(reason) => {
            TestCaseError::fail(format!("{}\n    after: {}", reason.message(), history.join(" ")))
        }
        other => other,
    };
    for step in steps {
        let to_act = game.to_act();
        if to_act.is_empty() {
            break;
        }
        let seat = to_act[step.seat.index(to_act.len())];
        let legal = game.legal_actions(seat);
        prop_assert!(
            !legal.is_empty(),
            "{seat:?} is to act but has no legal action in {:?}",
            game.view(Viewer::Spectator).fen
        );
        let chosen = step.pick.index(legal.len());
        visit(step, &game, seat, &legal, chosen).map_err(|e| with_history(e, &history))?;
        let action = legal[chosen].clone();
        let text = game.notation(seat, &action);
        if let Err(e) = game.apply(seat, &action) {
            let e = TestCaseError::fail(format!("legal {action:?} ({text}) by {seat:?} refused: {e}"));
            return Err(with_history(e, &history));
        }
        history.push(text);
        log.push((seat, action));
        states.push(game.clone());
        last_legal = legal;
    }
    Ok(Playout {
        history,
        start,
        log,
        states,
        last_legal,
    })
}

fn json(game: &AnyGame) -> String {
    serde_json::to_string(game).expect("a game serialises")
}

// ---------------------------------------------------------------------------------------------
// 1. Legal actions apply, and their notation reads back

/// At most this many legal actions are tried per step besides the chosen one (Blockade turns run
/// to the thousands); all of them when there are no more than this.
const TRIED_PER_STEP: usize = 40;

fn samples() -> impl Strategy<Value = Vec<Index>> {
    vec(any::<Index>(), TRIED_PER_STEP / 2)
}

/// Runs `check(game, seat, action)` on the legal actions tried at each step of a playout.
fn for_legal_actions(
    id: VariantId,
    steps: &[Step<Vec<Index>>],
    mut check: impl FnMut(&AnyGame, Seat, &Action) -> Result<(), TestCaseError>,
) -> Result<Playout, TestCaseError> {
    play(id, steps, |step, game, seat, legal, chosen| {
        let mut tried: Vec<usize> = if legal.len() <= TRIED_PER_STEP {
            (0..legal.len()).collect()
        } else {
            step.extra.iter().map(|i| i.index(legal.len())).collect()
        };
        tried.push(chosen);
        for i in tried {
            check(game, seat, &legal[i])?;
        }
        Ok(())
    })
}

fn check_legal_actions_apply(id: VariantId, steps: &[Step<Vec<Index>>]) -> Result<(), TestCaseError> {
    let playout = for_legal_actions(id, steps, |game, seat, action| {
        prop_assert!(game.outcome().is_none(), "a seat is to act in a finished game");
        prop_assert_ne!(game.phase(), Phase::Finished);
        let text = game.notation(seat, action);
        let mut next = game.clone();
        if let Err(e) = next.apply(seat, action) {
            return Err(TestCaseError::fail(format!("legal {action:?} ({text}) refused: {e}")));
        }
        let record = next.view(Viewer::Arbiter).record;
        prop_assert_eq!(
            record.last(),
            Some(&RecordEntry { seat, text }),
            "the record does not end with the action's notation"
        );
        Ok(())
    })?;
    let game = playout.game();
    let is_over = game.outcome().is_some();
    prop_assert_eq!(is_over, game.phase() == Phase::Finished);
    prop_assert_eq!(is_over, game.to_act().is_empty());
    Ok(())
}

fn check_notation_round_trips(id: VariantId, steps: &[Step<Vec<Index>>]) -> Result<(), TestCaseError> {
    for_legal_actions(id, steps, |game, seat, action| {
        let text = game.notation(seat, action);
        match game.parse_action(seat, &text) {
            Ok(read) => prop_assert_eq!(&read, action, "{:?} was written {:?}", action, text),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "{action:?} was written {text:?}, which reads back as an error: {e} (position {})",
                    game.view(Viewer::Spectator).fen
                )));
            }
        }
        Ok(())
    })?;
    Ok(())
}

fn legal_steps(id: VariantId) -> impl Strategy<Value = Vec<Step<Vec<Index>>>> {
    steps(max_steps(id), samples())
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn chess_legal_actions_apply(steps in legal_steps(VariantId::Chess)) {
        check_legal_actions_apply(VariantId::Chess, &steps)?;
    }

    #[test]
    fn blockade_legal_actions_apply(steps in legal_steps(VariantId::Blockade)) {
        check_legal_actions_apply(VariantId::Blockade, &steps)?;
    }

    #[test]
    fn garden_legal_actions_apply(steps in legal_steps(VariantId::Garden)) {
        check_legal_actions_apply(VariantId::Garden, &steps)?;
    }

    #[test]
    fn beirut_legal_actions_apply(steps in legal_steps(VariantId::Beirut)) {
        check_legal_actions_apply(VariantId::Beirut, &steps)?;
    }

    // Found: Black's pawn capture b4xc3, written "bxc3", reads back as ambiguous ("could mean Bxc3
    // or bxc3") when a bishop can also take on c3, e.g. after 1. g4 c5 2. f3 Qa5 3. Bh3 Na6 4. c3
    // g5 5. Kf2 f5 6. b3 h6 7. Qe1 d5 8. Kf1 Be6 9. b4 Qc7 10. Qg3 Bg7 11. Qg2 Qc6 12. Bb2 Rb8
    // 13. gxf5 Qb5 14. Bg4 Kd8 15. Ba3 cxb4 16. fxe6 (1r1k2nr/pp2p1b1/n3P2p/1q1p2p1/1p4B1/B1P2P2/
    // P2PP1QP/RN3KNR b - - 0 16). See `regression_pawn_capture_by_the_b_pawn_reads_back`.
    #[test]
    fn chess_notation_round_trips(steps in legal_steps(VariantId::Chess)) {
        check_notation_round_trips(VariantId::Chess, &steps)?;
    }

    #[test]
    fn blockade_notation_round_trips(steps in legal_steps(VariantId::Blockade)) {
        check_notation_round_trips(VariantId::Blockade, &steps)?;
    }

    #[test]
    fn garden_notation_round_trips(steps in legal_steps(VariantId::Garden)) {
        check_notation_round_trips(VariantId::Garden, &steps)?;
    }

    // Found: the same "bxc3" ambiguity, after bomb:g1 bomb:f7 1. Nh3 b5 2. f3 Ba6 3. Nf2 e5 4. Nh3
    // Bc5 5. Nf2 f5 6. Ne4 Qc8 7. Rg1 Bd4 8. d3 Nh6 9. Bd2 c6 10. a3 b4 11. Nbc3 (position
    // rnq1k2r/p2p2pp/b1p4n/4pp2/1p1bN3/P1NP1P2/1PPBP1PP/R2QKBR1 b Qkq - 1 11): b4xc3 or Bd4xc3.
    #[test]
    fn beirut_notation_round_trips(steps in legal_steps(VariantId::Beirut)) {
        check_notation_round_trips(VariantId::Beirut, &steps)?;
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Illegal actions are refused and change nothing; garbage text is refused without a panic

/// Applies `action` by `seat` to a copy of `game`, expecting a refusal that leaves it unchanged.
fn expect_refused(game: &AnyGame, seat: Seat, action: &Action) -> Result<ActionError, TestCaseError> {
    let before = json(game);
    let mut copy = game.clone();
    match copy.apply(seat, action) {
        Ok(()) => Err(TestCaseError::fail(format!(
            "illegal {action:?} by {seat:?} was accepted in {}",
            game.view(Viewer::Spectator).fen
        ))),
        Err(e) => {
            prop_assert_eq!(
                &copy,
                game,
                "refusing {:?} by {:?} ({}) changed the game",
                action,
                seat,
                e
            );
            prop_assert_eq!(
                json(&copy),
                before,
                "refusing {:?} by {:?} changed the stored state",
                action,
                seat
            );
            Ok(e)
        }
    }
}

fn check_illegal_actions(id: VariantId, steps: &[Step<Vec<Junk>>]) -> Result<(), TestCaseError> {
    let playout = play(id, steps, |step, game, seat, legal, chosen| {
        for junk in &step.extra {
            let action = junk.realize(legal);
            if !legal.contains(&action) {
                expect_refused(game, seat, &action)?;
            }
        }
        let to_act = game.to_act();
        for other in Color::BOTH.into_iter().filter(|s| !to_act.contains(s)) {
            prop_assert!(
                game.legal_actions(other).is_empty(),
                "{:?} is not to act but has actions",
                other
            );
            let text = game.notation(seat, &legal[chosen]);
            prop_assert!(
                game.parse_action(other, &text).is_err(),
                "{:?} may write {:?} out of turn",
                other,
                text
            );
            let mut candidates = vec![legal[chosen].clone()];
            candidates.extend(step.extra.iter().map(|junk| junk.realize(legal)));
            for action in candidates {
                let error = expect_refused(game, other, &action)?;
                prop_assert!(
                    matches!(error, ActionError::NotYourTurn | ActionError::AlreadyChosen),
                    "{:?} out of turn was refused with {:?}",
                    action,
                    error
                );
            }
        }
        Ok(())
    })?;
    let game = playout.game();
    if game.outcome().is_some() {
        let mut candidates = playout.last_legal.clone();
        candidates.extend(
            steps
                .iter()
                .flat_map(|s| &s.extra)
                .map(|junk| junk.realize(&playout.last_legal)),
        );
        for seat in Color::BOTH {
            prop_assert!(
                game.legal_actions(seat).is_empty(),
                "{:?} has actions in a finished game",
                seat
            );
            for action in &candidates {
                let error = expect_refused(game, seat, action)?;
                prop_assert_eq!(error, ActionError::GameOver);
            }
        }
    }
    Ok(())
}

fn check_garbage_text(id: VariantId, steps: &[Step<Vec<String>>]) -> Result<(), TestCaseError> {
    let check = |game: &AnyGame, texts: &[String]| -> Result<(), TestCaseError> {
        for text in texts {
            for seat in Color::BOTH {
                if let Ok(action) = game.parse_action(seat, text) {
                    prop_assert!(
                        game.legal_actions(seat).contains(&action),
                        "{:?} by {:?} reads as {:?}, which is not legal",
                        text,
                        seat,
                        action
                    );
                }
            }
        }
        Ok(())
    };
    let playout = play(id, steps, |step, game, _, _, _| check(game, &step.extra))?;
    let texts: Vec<String> = steps.iter().flat_map(|s| s.extra.clone()).collect();
    check(playout.game(), &texts)
}

fn junk_steps(id: VariantId, kinds: u8) -> impl Strategy<Value = Vec<Step<Vec<Junk>>>> {
    steps(max_steps(id), vec(junk(kinds), 0..4))
}

fn text_steps(id: VariantId) -> impl Strategy<Value = Vec<Step<Vec<String>>>> {
    steps(max_steps(id), vec(garbage(), 0..4))
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn chess_illegal_actions_are_refused_and_change_nothing(
        steps in junk_steps(VariantId::Chess, kind_count(VariantId::Chess))
    ) {
        check_illegal_actions(VariantId::Chess, &steps)?;
    }

    #[test]
    fn blockade_illegal_actions_are_refused_and_change_nothing(
        steps in junk_steps(VariantId::Blockade, kind_count(VariantId::Blockade))
    ) {
        check_illegal_actions(VariantId::Blockade, &steps)?;
    }

    #[test]
    fn garden_illegal_actions_are_refused_and_change_nothing(
        steps in junk_steps(VariantId::Garden, kind_count(VariantId::Garden))
    ) {
        check_illegal_actions(VariantId::Garden, &steps)?;
    }

    #[test]
    fn beirut_illegal_actions_are_refused_and_change_nothing(
        steps in junk_steps(VariantId::Beirut, kind_count(VariantId::Beirut))
    ) {
        check_illegal_actions(VariantId::Beirut, &steps)?;
    }

    // `Action` is deserialisable, so an action may name any kind, not only the variant's own.
    #[test]
    fn chess_actions_naming_unknown_kinds_are_refused(steps in junk_steps(VariantId::Chess, u8::MAX)) {
        check_illegal_actions(VariantId::Chess, &steps)?;
    }

    // Found: at the start, `apply(White, Place { kind: 15, to: d6 })` panics (index out of bounds:
    // the len is 3 but the index is 15, variant.rs:215) instead of returning Err. See
    // `regression_blockade_refuses_a_placement_of_an_unknown_kind`.
    #[test]
    fn blockade_actions_naming_unknown_kinds_are_refused(steps in junk_steps(VariantId::Blockade, u8::MAX)) {
        check_illegal_actions(VariantId::Blockade, &steps)?;
    }

    #[test]
    fn beirut_actions_naming_unknown_kinds_are_refused(steps in junk_steps(VariantId::Beirut, u8::MAX)) {
        check_illegal_actions(VariantId::Beirut, &steps)?;
    }

    // Found: `parse_action(_, "xé♞♞é1")` panics ("byte index 10 is not a char boundary; it is
    // inside 'é'", notation.rs:142): the destination is sliced by bytes, counting back from the
    // digits. Any position will do, the start included ("ß6", "é1"). See
    // `regression_move_text_with_non_ascii_characters_is_refused`.
    #[test]
    fn chess_garbage_text_is_refused(steps in text_steps(VariantId::Chess)) {
        check_garbage_text(VariantId::Chess, &steps)?;
    }

    #[test]
    fn blockade_garbage_text_is_refused(steps in text_steps(VariantId::Blockade)) {
        check_garbage_text(VariantId::Blockade, &steps)?;
    }

    #[test]
    fn garden_garbage_text_is_refused(steps in text_steps(VariantId::Garden)) {
        check_garbage_text(VariantId::Garden, &steps)?;
    }

    // Found: once both carriers are chosen, `parse_action(_, "x--ß6")` panics as in chess ("byte
    // index 4 is not a char boundary", notation.rs:142); the choice phase has its own reader.
    #[test]
    fn beirut_garbage_text_is_refused(steps in text_steps(VariantId::Beirut)) {
        check_garbage_text(VariantId::Beirut, &steps)?;
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Serde round trip, and 4. replay

fn check_serde(id: VariantId, steps: &[Step<()>]) -> Result<(), TestCaseError> {
    let playout = play(id, steps, |_, _, _, _, _| Ok(()))?;
    for (k, game) in playout.states.iter().enumerate() {
        let text = json(game);
        let back: AnyGame = match serde_json::from_str(&text) {
            Ok(back) => back,
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "state {k} does not deserialise: {e}\n{text}"
                )));
            }
        };
        prop_assert_eq!(&back, game, "state {} changed in a serde round trip", k);
        prop_assert_eq!(
            json(&back),
            text,
            "state {} serialises differently after a round trip",
            k
        );
    }
    Ok(())
}

fn check_replay(id: VariantId, steps: &[Step<()>], prefix: Index) -> Result<(), TestCaseError> {
    let playout = play(id, steps, |_, _, _, _, _| Ok(()))?;
    let moves = playout.history.join(" ");
    let replayed = AnyGame::replay(&playout.start, &playout.log)
        .map_err(|(i, e)| TestCaseError::fail(format!("replay of {moves} refused action {i}: {e}")))?;
    prop_assert_eq!(
        &replayed,
        playout.game(),
        "replay of {} differs from the played game",
        moves
    );
    let k = prefix.index(playout.log.len() + 1);
    let partial = AnyGame::replay(&playout.start, &playout.log[..k])
        .map_err(|(i, e)| TestCaseError::fail(format!("replay of {k} actions of {moves} refused action {i}: {e}")))?;
    prop_assert_eq!(
        &partial,
        &playout.states[k],
        "replay of {} actions of {} differs",
        k,
        moves
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn chess_survives_serde(steps in steps(max_steps(VariantId::Chess), Just(()))) {
        check_serde(VariantId::Chess, &steps)?;
    }

    #[test]
    fn blockade_survives_serde(steps in steps(max_steps(VariantId::Blockade), Just(()))) {
        check_serde(VariantId::Blockade, &steps)?;
    }

    #[test]
    fn garden_survives_serde(steps in steps(max_steps(VariantId::Garden), Just(()))) {
        check_serde(VariantId::Garden, &steps)?;
    }

    #[test]
    fn beirut_survives_serde(steps in steps(max_steps(VariantId::Beirut), Just(()))) {
        check_serde(VariantId::Beirut, &steps)?;
    }

    #[test]
    fn chess_replay_rebuilds_the_state(
        steps in steps(max_steps(VariantId::Chess), Just(())),
        prefix in any::<Index>(),
    ) {
        check_replay(VariantId::Chess, &steps, prefix)?;
    }

    #[test]
    fn blockade_replay_rebuilds_the_state(
        steps in steps(max_steps(VariantId::Blockade), Just(())),
        prefix in any::<Index>(),
    ) {
        check_replay(VariantId::Blockade, &steps, prefix)?;
    }

    #[test]
    fn garden_replay_rebuilds_the_state(
        steps in steps(max_steps(VariantId::Garden), Just(())),
        prefix in any::<Index>(),
    ) {
        check_replay(VariantId::Garden, &steps, prefix)?;
    }

    #[test]
    fn beirut_replay_rebuilds_the_state(
        steps in steps(max_steps(VariantId::Beirut), Just(())),
        prefix in any::<Index>(),
    ) {
        check_replay(VariantId::Beirut, &steps, prefix)?;
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Beirut secrecy

/// Where each side's bomb carrier is, followed independently of the engine: it travels with its
/// piece (castling rook and promotion included), and is gone once captured or detonated.
#[derive(Clone, Copy, Debug, Default)]
struct Carriers {
    chosen: [Option<Square>; 2],
    now: [Option<Square>; 2],
}

impl Carriers {
    fn follow(&mut self, game: &AnyGame, seat: Seat, action: &Action) {
        let (own, enemy) = (seat.index(), seat.other().index());
        match *action {
            Action::ChooseBomb(square) => {
                self.chosen[own] = Some(square);
                self.now[own] = Some(square);
            }
            Action::Detonate => {
                let center = self.now[own].expect("only a live carrier detonates");
                let is_blasted =
                    |sq: Square| sq.file().abs_diff(center.file()) <= 1 && sq.rank().abs_diff(center.rank()) <= 1;
                for carrier in &mut self.now {
                    if carrier.is_some_and(is_blasted) {
                        *carrier = None;
                    }
                }
            }
            Action::Move(mv) => {
                let captured = match mv.special {
                    Special::EnPassant => Some(Square::new(mv.to.file(), mv.from.rank())),
                    Special::Castle { .. } => None,
                    _ => game
                        .view(Viewer::Arbiter)
                        .cell(mv.to)
                        .ne(&ViewCell::Empty)
                        .then_some(mv.to),
                };
                if captured.is_some() && self.now[enemy] == captured {
                    self.now[enemy] = None;
                }
                if self.now[own] == Some(mv.from) {
                    self.now[own] = Some(mv.to);
                } else if let Special::Castle { rook_from, rook_to } = mv.special
                    && self.now[own] == Some(rook_from)
                {
                    self.now[own] = Some(rook_to);
                }
            }
            _ => {}
        }
    }
}

fn marked_cells(game: &AnyGame, viewer: Viewer, color: Color) -> Vec<Square> {
    let view = game.view(viewer);
    let files = view.files;
    view.cells
        .iter()
        .enumerate()
        .filter(|(_, cell)| matches!(cell, ViewCell::Piece { is_marked: true, color: c, .. } if *c == color))
        .map(|(i, _)| Square::new(i as u8 % files, i as u8 / files))
        .collect()
}

fn check_secrecy(game: &AnyGame, carriers: &Carriers) -> Result<(), TestCaseError> {
    let debug = format!("{game:?}");
    prop_assert!(!debug.contains("bomb:"), "Debug output shows a bomb: {}", debug);
    let is_over = game.outcome().is_some();
    for seat in Color::BOTH {
        let live: Vec<Square> = carriers.now[seat.index()].into_iter().collect();
        // The owner (and the arbiter) see the carrier: the mark is real, so hiding it means something.
        prop_assert_eq!(
            marked_cells(game, Viewer::Seat(seat), seat),
            live.clone(),
            "{:?}'s own view",
            seat
        );
        prop_assert_eq!(
            marked_cells(game, Viewer::Arbiter, seat),
            live.clone(),
            "the arbiter's view"
        );
        let Some(chosen) = carriers.chosen[seat.index()] else {
            continue;
        };
        let secret = format!("bomb:{chosen}");
        let own_record = game.view(Viewer::Seat(seat)).record;
        prop_assert!(
            own_record.iter().any(|e| e.seat == seat && e.text == secret),
            "{:?} does not see their own choice {} in {:?}",
            seat,
            secret,
            own_record
        );
        for viewer in [Viewer::Seat(seat.other()), Viewer::Spectator] {
            if is_over {
                // Both carriers are revealed at the end.
                prop_assert_eq!(
                    marked_cells(game, viewer, seat),
                    live.clone(),
                    "{:?} after the end",
                    viewer
                );
                continue;
            }
            prop_assert!(
                marked_cells(game, viewer, seat).is_empty(),
                "{:?} sees {:?}'s carrier on {:?}",
                viewer,
                seat,
                live
            );
            let view = game.view(viewer);
            for entry in view.record.iter().filter(|e| e.seat == seat) {
                prop_assert!(
                    !entry.text.contains("bomb:"),
                    "{:?} reads {:?}'s record entry {:?}",
                    viewer,
                    seat,
                    entry.text
                );
            }
            let text = serde_json::to_string(&view).expect("a view serialises");
            prop_assert!(
                !text.contains(&secret),
                "{:?}'s view contains {}: {}",
                viewer,
                secret,
                text
            );
            if viewer == Viewer::Spectator {
                prop_assert!(!text.contains("bomb:"), "the spectator's view names a bomb: {}", text);
            }
        }
    }
    Ok(())
}

fn check_beirut_secrecy(steps: &[Step<()>]) -> Result<(), TestCaseError> {
    let mut carriers = Carriers::default();
    let playout = play(VariantId::Beirut, steps, |_, game, seat, legal, chosen| {
        check_secrecy(game, &carriers)?;
        carriers.follow(game, seat, &legal[chosen]);
        Ok(())
    })?;
    check_secrecy(playout.game(), &carriers)
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn beirut_carriers_stay_secret_until_the_end(steps in steps(max_steps(VariantId::Beirut), Just(()))) {
        check_beirut_secrecy(&steps)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Cases the properties once found, kept as fixed examples

#[test]
fn regression_pawn_capture_by_the_b_pawn_reads_back() {
    // Black: pawn b4 and bishop e5 can both take the pawn on c3.
    let mut failures = Vec::new();
    for (id, fen) in [
        (VariantId::Chess, "4k3/8/8/4b3/1p6/2P5/8/4K3 b - - 0 1"),
        (VariantId::Beirut, "4k3/8/8/4b3/1p6/2P5/8/4K3 b - - 0 1 bombs:-,-"),
    ] {
        let game = AnyGame::from_fen(id, fen).expect("a valid position");
        assert_eq!(game.to_act(), vec![Color::Black], "{id}");
        for action in game.legal_actions(Color::Black) {
            let text = game.notation(Color::Black, &action);
            let read = game.parse_action(Color::Black, &text);
            if read.as_ref() != Ok(&action) {
                failures.push(format!("{id}: {text} reads as {read:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn regression_move_text_with_non_ascii_characters_is_refused() {
    let game = AnyGame::new(VariantId::Chess);
    for text in ["ß6", "é1", "x--ß6", "Nß3"] {
        assert!(game.parse_action(Color::White, text).is_err(), "{text}");
    }
}

#[test]
fn regression_blockade_refuses_a_placement_of_an_unknown_kind() {
    let mut game = AnyGame::new(VariantId::Blockade);
    let before = game.clone();
    let square = Square::new(3, 5);
    assert!(
        game.apply(Color::White, &Action::Place { kind: 3, to: square })
            .is_err()
    );
    assert_eq!(game, before);
}
