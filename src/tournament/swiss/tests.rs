//! Pairings computed by hand from the rules stated in swiss.rs, the method being FIDE Handbook C.04.3 (Dutch
//! system), rule of S1 vs S2: in each bracket the top half S1 meets the bottom half S2 in order
//! (S1[i] - S2[i]), with transpositions in S2 when a rule or a colour preference forbids that.

use super::*;
use Colour::{Black, White};

fn colours(history: &str) -> Vec<Colour> {
    history.chars().map(|c| if c == 'W' { White } else { Black }).collect()
}

fn entrant(id: usize, score: u32, rating: i32, history: &str, opponents: &[usize]) -> Entrant {
    Entrant {
        id,
        score,
        rating,
        opponents: opponents.to_vec(),
        colours: colours(history),
        byes: 0,
    }
}

/// Players 1..=n rated 2400, 2300, ... so that id order is ranking order in round 1.
fn field(n: usize) -> Vec<Entrant> {
    (1..=n)
        .map(|id| entrant(id, 0, 2500 - 100 * id as i32, "", &[]))
        .collect()
}

/// Feeds a round back: one result per board, '1' White won, '=' drawn, '0' Black won.
fn play(entrants: &mut [Entrant], pairings: &Pairings, results: &str) {
    assert_eq!(results.len(), pairings.boards.len());
    let index = |entrants: &[Entrant], id: usize| entrants.iter().position(|e| e.id == id).unwrap();
    for (&(white, black), result) in pairings.boards.iter().zip(results.chars()) {
        let (w, b) = (index(entrants, white), index(entrants, black));
        let (white_points, black_points) = match result {
            '1' => (2, 0),
            '=' => (1, 1),
            _ => (0, 2),
        };
        entrants[w].score += white_points;
        entrants[b].score += black_points;
        entrants[w].opponents.push(black);
        entrants[b].opponents.push(white);
        entrants[w].colours.push(White);
        entrants[b].colours.push(Black);
    }
    if let Some(bye) = pairings.bye {
        let e = index(entrants, bye);
        entrants[e].score += 2;
        entrants[e].byes += 1;
    }
}

#[test]
fn round_one_of_eight_pairs_halves_with_colours_alternating_by_board() {
    // S1 = 1 2 3 4, S2 = 5 6 7 8: 1-5, 2-6, 3-7, 4-8. Board 1's higher-ranked player has White,
    // board 2's Black, and so on: 1-5, 6-2, 3-7, 8-4.
    let pairings = pair_round(&field(8), 0).unwrap();
    assert_eq!(
        pairings,
        Pairings {
            boards: vec![(1, 5), (6, 2), (3, 7), (8, 4)],
            bye: None
        }
    );
}

#[test]
fn round_one_of_seven_gives_the_lowest_rated_the_bye() {
    // Nobody has had a bye, so it goes to the lowest-ranked: 7. Then S1 = 1 2 3, S2 = 4 5 6.
    let pairings = pair_round(&field(7), 0).unwrap();
    assert_eq!(
        pairings,
        Pairings {
            boards: vec![(1, 4), (5, 2), (3, 6)],
            bye: Some(7)
        }
    );
}

#[test]
fn rounds_two_and_three_of_eight_by_hand() {
    let mut entrants = field(8);
    let round1 = pair_round(&entrants, 0).unwrap();
    // Round 1: 1-5 1-0, 6-2 draw, 3-7 1-0, 8-4 0-1.
    play(&mut entrants, &round1, "1=10");

    // Round 2. Scores (half points): 1, 3, 4 on 2; 2, 6 on 1; 5, 7, 8 on 0.
    // Ranking: 1 3 4 | 2 6 | 5 7 8. Colour preferences, all mild (one game, level after it
    // would alternate): 1 B, 3 B, 6 B, 8 B (they had White); 4 W, 2 W, 5 W, 7 W.
    // Bracket {1 3 4}: S1 = 1, S2 = 3 4. 1-3 would give both the same wish; 1-4 grants both
    // (4 White). 3 is left over and floats.
    // Bracket {3 | 2 6}: S1 = 3, S2 = 2 6. 3-2 grants both (2 White). 6 floats.
    // Bracket {6 | 5 7 8}: S1 = 6 5, S2 = 7 8. 6-7 grants both (7 White); 5-8 grants both
    // (5 White). Nobody has met before.
    // Boards by the pair's higher score, then its better player's rank: 4-1, 2-3, 7-6, 5-8.
    let round2 = pair_round(&entrants, 0).unwrap();
    assert_eq!(
        round2,
        Pairings {
            boards: vec![(4, 1), (2, 3), (7, 6), (5, 8)],
            bye: None
        }
    );
    // Round 2: 4-1 0-1, 2-3 draw, 7-6 1-0, 5-8 1-0.
    play(&mut entrants, &round2, "0=11");

    // Round 3. Scores: 1 on 4; 3 on 3; 2, 4, 5, 7 on 2; 6 on 1; 8 on 0.
    // Ranking: 1 | 3 | 2 4 5 7 | 6 | 8. Everyone has one White and one Black, so everyone's
    // wish is mild, to alternate from the last game: 1 W, 3 W, 6 W, 8 W; 2 B, 4 B, 5 B, 7 B.
    // Met so far: 1: 5 4; 2: 6 3; 3: 7 2; 4: 8 1; 5: 1 8; 6: 2 7; 7: 3 6; 8: 4 5.
    // Bracket {1}: alone, floats. Bracket {1 | 3}: 1-3 (not met; the rest can still be
    // paired: 2-4, 5-7, 6-8). Both want White with the same strength; their colours were the
    // same in every game (W then B), so the higher-ranked 1 gets his wish: 1-3.
    // Bracket {2 4 5 7}: S1 = 2 4, S2 = 5 7. Every pair here wants the same colour, so S2
    // order alone decides: 2-5 (not met; the rest 4 7 6 8 pair as 4-7, 6-8), then 4-7.
    // 2 and 5 both had B then W: 2 is higher and gets Black: 5-2. Likewise 7-4.
    // Bracket {6}: alone, floats. Bracket {6 | 8}: 6-8, the same colours so far: 6 gets his
    // White.
    let round3 = pair_round(&entrants, 0).unwrap();
    assert_eq!(
        round3,
        Pairings {
            boards: vec![(1, 3), (5, 2), (7, 4), (6, 8)],
            bye: None
        }
    );
}

#[test]
fn an_odd_score_group_floats_its_lowest_player() {
    let mut entrants = field(6);
    let round1 = pair_round(&entrants, 0).unwrap();
    assert_eq!(round1.boards, vec![(1, 4), (5, 2), (3, 6)]);
    // 1, 2 and 3 win. Group {1 2 3}: S1 = 1, S2 = 2 3: 1-2 (2 had Black and gets White), and 3
    // floats into {3 | 4 5 6}: S1 = 3 4, S2 = 5 6. 3 met 6, so 3-5 and 4-6. 3 and 5 both had
    // White: the higher-ranked 3 gets his Black; 4 and 6 both had Black: 4 gets White.
    play(&mut entrants, &round1, "101");
    let round2 = pair_round(&entrants, 0).unwrap();
    assert_eq!(
        round2,
        Pairings {
            boards: vec![(2, 1), (5, 3), (4, 6)],
            bye: None
        }
    );
}

#[test]
fn a_rematch_is_avoided_by_transposition() {
    let mut entrants = field(8);
    let round1 = pair_round(&entrants, 0).unwrap();
    // 1-5 and 6-2 drawn, 3 and 4 win. Group {1 2 5 6}: S1 = 1 2, S2 = 5 6, but 1 met 5, so
    // 1-6 and 2-5 (S1[0]-S2[1], S1[1]-S2[0]). 1 and 6 both had White: 1 gets Black; 2 and 5
    // both had Black: 2 gets White. Above, 4-3 (3 had White); below, 7-8 (8 had White).
    play(&mut entrants, &round1, "==10");
    let round2 = pair_round(&entrants, 0).unwrap();
    assert_eq!(
        round2,
        Pairings {
            boards: vec![(4, 3), (6, 1), (2, 5), (7, 8)],
            bye: None
        }
    );
}

/// FIDE Handbook C.04.1 (Swiss system based on rating), D.1: with S1 = 1 2 3 4 and S2 = 5 6
/// 7 8, transpositions of S2 are tried in the order 5-6-7-8, 5-6-8-7, 5-7-6-8, 5-7-8-6, ...,
/// and the first that breaks no rule is played.
#[test]
fn transpositions_come_in_the_handbook_order() {
    let pairs_with_met = |met: &[(usize, usize)]| {
        let mut entrants = field(8);
        for &(a, b) in met {
            entrants[a - 1].opponents.push(b);
            entrants[b - 1].opponents.push(a);
        }
        let mut pairs: Vec<(usize, usize)> = pair_round(&entrants, 0)
            .unwrap()
            .boards
            .into_iter()
            .map(|(w, b)| (w.min(b), w.max(b)))
            .collect();
        pairs.sort_unstable();
        pairs
    };
    // 4 met 8: 5-6-7-8 is out, 5-6-8-7 is next.
    assert_eq!(pairs_with_met(&[(4, 8)]), vec![(1, 5), (2, 6), (3, 8), (4, 7)]);
    // 2 met 6: 5-6-x-x are out, 5-7-6-8 is next.
    assert_eq!(pairs_with_met(&[(2, 6)]), vec![(1, 5), (2, 7), (3, 6), (4, 8)]);
    // And 3 met 6: 5-7-8-6.
    assert_eq!(pairs_with_met(&[(2, 6), (3, 6)]), vec![(1, 5), (2, 7), (3, 8), (4, 6)]);
    // (Where only a transposition moving S1[0]'s partner would avoid an exchange between S1
    // and S2, this module keeps the top board and exchanges: a simplification of the Dutch
    // rules, which try every transposition first.)
}

#[test]
fn a_player_with_two_whites_in_a_row_gets_black() {
    // 1 is higher-ranked and 2 would like Black too, but a third White is forbidden.
    let entrants = [entrant(1, 2, 2000, "WW", &[]), entrant(2, 2, 1900, "BW", &[])];
    assert_eq!(pair_round(&entrants, 0).unwrap().boards, vec![(2, 1)]);
}

#[test]
fn a_colour_difference_of_two_forces_the_other_colour() {
    // 1 has W W B W: a White would make three more whites than blacks. 2 has a strong wish
    // for Black too (one White ahead), but 1's is absolute.
    let entrants = [entrant(1, 4, 2000, "WWBW", &[]), entrant(2, 4, 1900, "W", &[])];
    assert_eq!(pair_round(&entrants, 0).unwrap().boards, vec![(2, 1)]);
}

#[test]
fn a_strong_wish_beats_a_mild_one_of_a_higher_ranked_player() {
    // 1 is level (B W: mild, Black); 2 is a White ahead (strong, Black).
    let entrants = [entrant(1, 2, 2000, "BW", &[]), entrant(2, 2, 1900, "WBW", &[])];
    assert_eq!(pair_round(&entrants, 0).unwrap().boards, vec![(1, 2)]);
}

#[test]
fn equal_wishes_alternate_from_the_latest_game_with_different_colours() {
    // Both level with a White last: both mildly want Black. Counting back, the games had W/W,
    // B/B, then B for 1 and W for 2: each alternates from that, so 1 gets White.
    let entrants = [entrant(1, 4, 2000, "WBBW", &[]), entrant(2, 4, 1900, "BWBW", &[])];
    assert_eq!(pair_round(&entrants, 0).unwrap().boards, vec![(1, 2)]);
}

#[test]
fn two_players_who_must_have_white_never_meet() {
    // 1 and 3 both had Black twice in a row. S1 = 1 2, S2 = 3 4 would give 1-3; it is not
    // allowed, so 1-4 and 2-3, each of them with White (the newcomers 2 and 4 have no wish).
    let entrants = [
        entrant(1, 0, 2000, "BB", &[]),
        entrant(2, 0, 1900, "", &[]),
        entrant(3, 0, 1800, "BB", &[]),
        entrant(4, 0, 1700, "", &[]),
    ];
    assert_eq!(pair_round(&entrants, 0).unwrap().boards, vec![(1, 4), (3, 2)]);
    assert_eq!(
        pair_round(&[entrants[0].clone(), entrants[2].clone()], 0),
        Err(PairingError::NoPairing)
    );
}

#[test]
fn three_players_who_have_all_met_and_all_had_a_bye_cannot_be_paired() {
    // Three rounds of three: each round one pair played and one player sat out.
    let entrants = [
        Entrant {
            byes: 1,
            ..entrant(1, 4, 2000, "WB", &[2, 3])
        },
        Entrant {
            byes: 1,
            ..entrant(2, 2, 1900, "BW", &[1, 3])
        },
        Entrant {
            byes: 1,
            ..entrant(3, 2, 1800, "WB", &[1, 2])
        },
    ];
    assert_eq!(pair_round(&entrants, 0), Err(PairingError::NoPairing));
}

#[test]
fn the_bye_skips_a_player_the_rest_cannot_do_without() {
    // 3 is lowest but 1 and 2 have met: only 3 can be 1's or 2's opponent, so 2, the lowest of
    // the others, sits out.
    let entrants = [
        entrant(1, 0, 2000, "", &[2]),
        entrant(2, 0, 1900, "", &[1]),
        entrant(3, 0, 1800, "", &[]),
    ];
    assert_eq!(
        pair_round(&entrants, 0).unwrap(),
        Pairings {
            boards: vec![(1, 3)],
            bye: Some(2)
        }
    );
}

#[test]
fn no_second_bye_while_someone_has_none() {
    let mut entrants = field(5);
    entrants[4].byes = 1;
    assert_eq!(pair_round(&entrants, 0).unwrap().bye, Some(4));
}

#[test]
fn fewer_than_two_players_is_an_error() {
    assert_eq!(pair_round(&[], 0), Err(PairingError::TooFewPlayers));
    assert_eq!(pair_round(&field(1), 0), Err(PairingError::TooFewPlayers));
}

#[test]
fn ranking_is_score_then_rating_then_entrant_order() {
    let entrants = [
        entrant(10, 2, 1500, "", &[]),
        entrant(11, 4, 1400, "", &[]),
        entrant(12, 2, 1600, "", &[]),
        entrant(13, 2, 1500, "", &[]),
    ];
    assert_eq!(ranking(&entrants), vec![11, 12, 10, 13]);
}
