//! Swiss pairing against its absolute rules: a brute force over every pairing of small fields
//! checks that `NoPairing` comes exactly when nothing legal exists (and that the bye is the one
//! rule 3 asks for), and whole random tournaments check that no round ever breaks a rule.
//! The rules are restated here apart from the module, on purpose: nothing from it but the
//! public interface is used.

use std::collections::HashSet;
use std::time::Instant;

use super::{Colour, Entrant, PairingError, Pairings, pair_round};
use proptest::collection::vec;
use proptest::prelude::*;

fn balance(colours: &[Colour]) -> i32 {
    colours.iter().map(|&c| if c == Colour::White { 1 } else { -1 }).sum()
}

/// Rule 2 restated apart from the module: no third colour in a row, and whites minus blacks within
/// two (or at least closer to level than before, for histories that start out of range).
fn may_take(history: &[Colour], colour: Colour) -> bool {
    let mut after = history.to_vec();
    after.push(colour);
    let three_in_a_row = after.len() >= 3 && after[after.len() - 3..].iter().all(|&c| c == colour);
    let (before, after) = (balance(history), balance(&after));
    !three_in_a_row && (after.abs() <= 2 || after.abs() < before.abs())
}

fn have_met(a: &Entrant, b: &Entrant) -> bool {
    a.opponents.contains(&b.id) || b.opponents.contains(&a.id)
}

fn legal_game(white: &Entrant, black: &Entrant) -> bool {
    !have_met(white, black) && may_take(&white.colours, Colour::White) && may_take(&black.colours, Colour::Black)
}

/// Whether some pairing of all of `players` obeys rules 1 and 2, trying every one.
fn can_all_be_paired(players: &[&Entrant]) -> bool {
    let Some((first, rest)) = players.split_first() else {
        return true;
    };
    (0..rest.len()).any(|i| {
        let other = rest[i];
        (legal_game(first, other) || legal_game(other, first)) && {
            let others: Vec<&Entrant> = rest
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &e)| e)
                .collect();
            can_all_be_paired(&others)
        }
    })
}

/// Score, then rating, then entrant order, restated.
fn expected_ranking(entrants: &[Entrant]) -> Vec<&Entrant> {
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by_key(|e| (std::cmp::Reverse(e.score), std::cmp::Reverse(e.rating)));
    order
}

/// What rules 1-3 allow, by brute force: None when no pairing obeys them, otherwise the bye rule 3
/// demands (None for an even field).
fn brute_force_bye(entrants: &[Entrant]) -> Option<Option<usize>> {
    let all: Vec<&Entrant> = entrants.iter().collect();
    if entrants.len().is_multiple_of(2) {
        return can_all_be_paired(&all).then_some(None);
    }
    let fewest = entrants.iter().map(|e| e.byes).min()?;
    expected_ranking(entrants)
        .into_iter()
        .rev()
        .filter(|e| e.byes == fewest)
        .find_map(|bye| {
            let rest: Vec<&Entrant> = entrants.iter().filter(|e| e.id != bye.id).collect();
            can_all_be_paired(&rest).then_some(Some(bye.id))
        })
}

/// Rules 1-3 for one round, and that everyone is placed exactly once.
fn assert_obeys_rules(entrants: &[Entrant], pairings: &Pairings) -> Result<(), TestCaseError> {
    let find = |id: usize| entrants.iter().find(|e| e.id == id).unwrap();
    let mut placed: Vec<usize> = pairings
        .boards
        .iter()
        .flat_map(|&(w, b)| [w, b])
        .chain(pairings.bye)
        .collect();
    placed.sort_unstable();
    let mut everyone: Vec<usize> = entrants.iter().map(|e| e.id).collect();
    everyone.sort_unstable();
    prop_assert_eq!(placed, everyone, "everyone exactly once in {:?}", pairings);
    prop_assert_eq!(pairings.bye.is_some(), entrants.len() % 2 == 1);
    if let Some(bye) = pairings.bye {
        let fewest = entrants.iter().map(|e| e.byes).min().unwrap();
        prop_assert_eq!(find(bye).byes, fewest, "bye to {} while someone has fewer", bye);
    }
    for &(white, black) in &pairings.boards {
        prop_assert!(
            legal_game(find(white), find(black)),
            "illegal game {}-{} in {:?}",
            white,
            black,
            pairings
        );
    }
    Ok(())
}

/// Feeds a round back: results 0 White won, 1 drawn, 2 Black won, one per board.
fn play(entrants: &mut [Entrant], pairings: &Pairings, results: &mut impl Iterator<Item = u8>) {
    let index = |entrants: &[Entrant], id: usize| entrants.iter().position(|e| e.id == id).unwrap();
    for &(white, black) in &pairings.boards {
        let (w, b) = (index(entrants, white), index(entrants, black));
        let (white_points, black_points) = match results.next().unwrap_or(1) {
            0 => (2, 0),
            1 => (1, 1),
            _ => (0, 2),
        };
        entrants[w].score += white_points;
        entrants[b].score += black_points;
        entrants[w].opponents.push(black);
        entrants[b].opponents.push(white);
        entrants[w].colours.push(Colour::White);
        entrants[b].colours.push(Colour::Black);
    }
    if let Some(bye) = pairings.bye {
        let e = index(entrants, bye);
        entrants[e].score += 2;
        entrants[e].byes += 1;
    }
}

/// A new field; ids are spread out so that an id mistaken for an index shows.
fn field(ratings: &[i32]) -> Vec<Entrant> {
    ratings
        .iter()
        .enumerate()
        .map(|(i, &rating)| Entrant {
            id: 7 * i + 3,
            score: 0,
            rating,
            opponents: Vec::new(),
            colours: Vec::new(),
            byes: 0,
        })
        .collect()
}

/// Plays a whole event with pair_round, checking every round over the event's own record. Returns
/// the round that could not be paired, if any.
fn run_event(
    entrants: &mut Vec<Entrant>,
    rounds: usize,
    results: &[u8],
    brute_force: bool,
    look_ahead: bool,
) -> Result<Option<usize>, TestCaseError> {
    let mut results = results.iter().copied().cycle();
    let mut met: HashSet<(usize, usize)> = HashSet::new();
    for round in 1..=rounds {
        let later_rounds = if look_ahead { rounds - round } else { 0 };
        let pairings = match pair_round(entrants, later_rounds) {
            Ok(pairings) => pairings,
            Err(PairingError::NoPairing) => {
                if brute_force {
                    prop_assert_eq!(
                        brute_force_bye(entrants),
                        None,
                        "NoPairing in round {}: {:?}",
                        round,
                        entrants
                    );
                }
                return Ok(Some(round));
            }
            Err(error) => return Err(TestCaseError::fail(format!("{error} for {entrants:?}"))),
        };
        assert_obeys_rules(entrants, &pairings)?;
        if brute_force {
            prop_assert_eq!(
                brute_force_bye(entrants),
                Some(pairings.bye),
                "bye in round {}: {:?}",
                round,
                entrants
            );
        }
        for &(white, black) in &pairings.boards {
            prop_assert!(
                met.insert((white.min(black), white.max(black))),
                "{}-{} meet again",
                white,
                black
            );
        }
        if let Some(bye) = pairings.bye
            && entrants.iter().find(|e| e.id == bye).unwrap().byes > 0
        {
            prop_assert!(
                entrants.iter().all(|e| e.byes > 0),
                "a second bye while someone has none"
            );
        }
        play(entrants, &pairings, &mut results);
        for e in entrants.iter() {
            prop_assert!(e.colours.windows(3).all(|w| w[0] != w[1] || w[1] != w[2]), "{:?}", e);
            prop_assert!(
                (1..=e.colours.len()).all(|k| balance(&e.colours[..k]).abs() <= 2),
                "{:?}",
                e
            );
        }
    }
    Ok(None)
}

/// Any history at all, consistent or not, with meetings as dense as the density says: this is
/// what reaches the corners (forced colours, everyone met, byes uneven).
fn arbitrary_field() -> impl Strategy<Value = Vec<Entrant>> {
    (2usize..=10)
        .prop_flat_map(|n| {
            let person = (0u32..=8, 1500i32..1504, vec(any::<bool>(), 0..=6), 0u32..=2);
            (vec(person, n), vec(any::<u8>(), n * n), any::<u8>())
        })
        .prop_map(|(people, meetings, density)| {
            let n = people.len();
            let mut entrants: Vec<Entrant> = people
                .into_iter()
                .enumerate()
                .map(|(i, (score, rating, colours, byes))| Entrant {
                    id: 7 * i + 3,
                    score,
                    rating,
                    opponents: Vec::new(),
                    colours: colours
                        .into_iter()
                        .map(|w| if w { Colour::White } else { Colour::Black })
                        .collect(),
                    byes,
                })
                .collect();
            for i in 0..n {
                for j in i + 1..n {
                    if meetings[i * n + j] < density {
                        let (a, b) = (entrants[i].id, entrants[j].id);
                        entrants[i].opponents.push(b);
                        entrants[j].opponents.push(a);
                    }
                }
            }
            entrants
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_pairing_exactly_when_brute_force_finds_none(entrants in arbitrary_field()) {
        match (pair_round(&entrants, 0), brute_force_bye(&entrants)) {
            (Ok(pairings), Some(bye)) => {
                assert_obeys_rules(&entrants, &pairings)?;
                prop_assert_eq!(pairings.bye, bye, "not the bye rule 3 asks for");
            }
            (Err(PairingError::NoPairing), None) => {}
            (got, expected) => prop_assert!(false, "pair_round gave {:?}, brute force {:?}", got, expected),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn small_tournaments_agree_with_brute_force_every_round(
        ratings in vec(1500i32..1510, 2..=10),
        rounds in 1usize..=10,
        results in vec(0u8..3, 50),
    ) {
        run_event(&mut field(&ratings), rounds, &results, true, false)?;
    }

    #[test]
    fn round_one_is_s1_against_s2(ratings in vec(1500i32..1520, 2..=60)) {
        let entrants = field(&ratings);
        let order: Vec<usize> = expected_ranking(&entrants).iter().map(|e| e.id).collect();
        let (order, bye) = if order.len() % 2 == 1 {
            (&order[..order.len() - 1], order.last().copied())
        } else {
            (&order[..], None)
        };
        let half = order.len() / 2;
        let boards = (0..half)
            .map(|k| if k.is_multiple_of(2) { (order[k], order[half + k]) } else { (order[half + k], order[k]) })
            .collect();
        prop_assert_eq!(pair_round(&entrants, 0), Ok(Pairings { boards, bye }));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn random_tournaments_obey_the_rules(
        players in 3usize..=60,
        rounds in 5usize..=9,
        ratings in vec(1000i32..2800, 60),
        results in vec(0u8..3, 9 * 30),
    ) {
        let mut entrants = field(&ratings[..players]);
        let stopped = run_event(&mut entrants, rounds, &results, false, true)?;
        if let Some(round) = stopped {
            // Legal pairings are plentiful with this many players: NoPairing here would mean the
            // oracle is wrong.
            prop_assert!(
                players < 2 * rounds + 2,
                "NoPairing in round {} of {} with {} players: {:?}", round, rounds, players, entrants
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The look-ahead: a small field plays every round it was allowed (at most one round per
    /// opponent, or per player when one sits out each round), whatever the results.
    #[test]
    fn small_fields_play_every_round_allowed(
        ratings in vec(1000i32..2800, 3..=10),
        rounds_short in 0usize..3,
        results in vec(0u8..3, 50),
    ) {
        let players = ratings.len();
        let most_rounds = if players % 2 == 0 { players - 1 } else { players };
        let rounds = most_rounds.saturating_sub(rounds_short).max(1);
        let stopped = run_event(&mut field(&ratings), rounds, &results, false, true)?;
        prop_assert_eq!(stopped, None, "{} players, {} rounds", players, rounds);
    }
}

/// Seven players, five rounds, every result the same, and the last board's Black withdrawing
/// after `withdraw_after` rounds. Returns the round that could not be paired, if any.
fn club_night(results: u8, withdraw_after: usize, look_ahead: bool) -> Option<usize> {
    let mut entrants = field(&[1800, 1750, 1700, 1650, 1600, 1550, 1500]);
    let rounds = 5;
    for round in 1..=rounds {
        let later_rounds = if look_ahead { rounds - round } else { 0 };
        let Ok(pairings) = pair_round(&entrants, later_rounds) else {
            return Some(round);
        };
        play(&mut entrants, &pairings, &mut std::iter::repeat(results));
        if round == withdraw_after {
            let quitter = pairings.boards.last().unwrap().1;
            entrants.retain(|e| e.id != quitter);
        }
    }
    None
}

#[test]
fn a_club_night_plays_all_five_rounds_unless_a_withdrawal_leaves_no_way() {
    let outcomes = |look_ahead: bool| -> Vec<Option<usize>> {
        (0..3)
            .flat_map(|results| (0..=4).map(move |after| club_night(results, after, look_ahead)))
            .collect()
    };
    let (looking, greedy) = (outcomes(true), outcomes(false));
    // Withdrawing after round 0 or 4 changes nothing still to pair: every result pattern then
    // plays all five rounds.
    for results in 0..3 {
        for after in [0, 4] {
            assert_eq!(
                looking[results * 5 + after],
                None,
                "results {results}, withdrawal after {after}"
            );
        }
    }
    // A withdrawal half way can leave no legal pairing for the last round, but looking ahead
    // never ends an event earlier than pairing round by round, and ends far fewer early.
    for (looked, greedy) in looking.iter().zip(&greedy) {
        assert!(looked.unwrap_or(6) >= greedy.unwrap_or(6), "{looking:?} {greedy:?}");
    }
    let early = |outcomes: &[Option<usize>]| outcomes.iter().filter(|o| o.is_some()).count();
    assert!(early(&looking) < early(&greedy), "{looking:?} {greedy:?}");
}

/// `cargo test --release --lib swiss -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a check"]
fn time_pairing() {
    // Round 9 of 60 is the largest event; 7 of 9 and 10 of 10 are where the look-ahead works
    // hardest (small fields, every round allowed).
    for (players, rounds, round) in [
        (60, 9, 9),
        (60, 9, 2),
        (9, 9, 7),
        (10, 9, 5),
        (7, 5, 3),
        (16, 15, 2),
        (16, 15, 9),
        (16, 15, 14),
        (15, 15, 12),
    ] {
        let ratings: Vec<i32> = (0..players).map(|i| 2700 - 23 * i).collect();
        let mut entrants = field(&ratings);
        // A fixed pseudo-random sequence of results.
        let results: Vec<u8> = (0u32..300)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 % 3)
            .collect();
        let mut results = results.into_iter();
        for played in 1..round {
            let pairings = pair_round(&entrants, rounds - played).unwrap();
            play(&mut entrants, &pairings, &mut results);
        }
        let repeats = 100;
        let start = Instant::now();
        for _ in 0..repeats {
            std::hint::black_box(pair_round(std::hint::black_box(&entrants), rounds - round).unwrap());
        }
        println!(
            "round {round} of {rounds}, {players} players: {:?} per pairing",
            start.elapsed() / repeats
        );
    }
}
