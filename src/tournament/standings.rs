//! Standings and what pairing needs to know, from a tournament's rounds and its games' results.
//! Scores 1, ½, 0 (a bye 1); tie-breaks Buchholz (the sum of the opponents' scores), then
//! Sonneborn-Berger (the scores of the opponents beaten, plus half those drawn with), then the
//! direct encounter (points between the tied players). Only decided games count towards the
//! tie-breaks: a bye, a void or an unfinished game brings no opponent's score.

use super::swiss::{Colour, Entrant};
use super::{BoardResult, Tournament};
use crate::ids::GameId;
use std::collections::HashMap;

/// One round of a player's line in the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Paired with `opponent` (an index among the players) playing `colour`.
    Game {
        colour: Colour,
        opponent: usize,
        result: BoardResult,
    },
    Bye,
    /// Not paired that round (withdrawn).
    Absent,
}

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's index among the tournament's players.
    pub player: usize,
    /// 1-based; players tied on everything share a rank.
    pub rank: usize,
    pub shared: bool,
    /// In half points.
    pub points: u32,
    /// In half points.
    pub buchholz: u32,
    /// In quarter points (half of a drawn opponent's half points).
    pub sonneborn: u32,
    pub cells: Vec<Cell>,
    pub withdrawn: bool,
}

/// Each player's rounds, in order.
fn cells(tournament: &Tournament, results: &HashMap<GameId, BoardResult>) -> Vec<Vec<Cell>> {
    let mut cells = vec![Vec::new(); tournament.players.len()];
    for round in &tournament.rounds {
        let mut this_round = vec![Cell::Absent; tournament.players.len()];
        for board in &round.boards {
            let (Some(white), Some(black)) = (tournament.entry_of(&board.white), tournament.entry_of(&board.black))
            else {
                continue;
            };
            let result = results.get(&board.game).copied().unwrap_or(BoardResult::Pending);
            this_round[white] = Cell::Game {
                colour: Colour::White,
                opponent: black,
                result,
            };
            this_round[black] = Cell::Game {
                colour: Colour::Black,
                opponent: white,
                result,
            };
        }
        if let Some(player) = round.bye.as_ref().and_then(|user| tournament.entry_of(user)) {
            this_round[player] = Cell::Bye;
        }
        for (player, cell) in this_round.into_iter().enumerate() {
            cells[player].push(cell);
        }
    }
    cells
}

fn half_points(cell: &Cell) -> u32 {
    match *cell {
        Cell::Game { colour, result, .. } => result.half_points(colour),
        Cell::Bye => 2,
        Cell::Absent => 0,
    }
}

/// A game that was decided on the board or by forfeit (not void, not pending).
fn decided(result: BoardResult) -> bool {
    matches!(result, BoardResult::Won { .. } | BoardResult::Drawn)
}

/// The standings, best first.
pub fn standings(tournament: &Tournament, results: &HashMap<GameId, BoardResult>) -> Vec<Standing> {
    let cells = cells(tournament, results);
    let points: Vec<u32> = cells.iter().map(|line| line.iter().map(half_points).sum()).collect();
    let mut lines: Vec<Standing> = cells
        .into_iter()
        .enumerate()
        .map(|(player, line)| {
            let mut buchholz = 0;
            let mut sonneborn = 0;
            for cell in &line {
                if let Cell::Game {
                    colour,
                    opponent,
                    result,
                } = *cell
                    && decided(result)
                {
                    buchholz += points[opponent];
                    sonneborn += result.half_points(colour) * points[opponent];
                }
            }
            Standing {
                player,
                rank: 0,
                shared: false,
                points: points[player],
                buchholz,
                sonneborn,
                cells: line,
                withdrawn: tournament.players[player].withdrawn,
            }
        })
        .collect();
    let key = |s: &Standing| (s.points, s.buchholz, s.sonneborn);
    let rating = |s: &Standing| tournament.players[s.player].rating();
    lines.sort_by(|a, b| {
        key(b)
            .cmp(&key(a))
            .then(rating(b).cmp(&rating(a)))
            .then(a.player.cmp(&b.player))
    });
    // Players level on score and both tie-breaks: the direct encounter between them decides.
    let mut ranked = Vec::with_capacity(lines.len());
    let mut rest = lines.as_slice();
    while let Some(first) = rest.first() {
        let level = rest.iter().take_while(|s| key(s) == key(first)).count();
        let (group, after) = rest.split_at(level);
        let mut group: Vec<(u32, Standing)> = group.iter().map(|s| (direct_points(s, group), s.clone())).collect();
        // Stable: equal direct scores keep their rating order.
        group.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        let start = ranked.len() + 1;
        for (index, (direct, mut standing)) in group.iter().cloned().enumerate() {
            let first_equal = group.iter().position(|(d, _)| *d == direct).unwrap_or(index);
            standing.rank = start + first_equal;
            standing.shared = group.iter().filter(|(d, _)| *d == direct).count() > 1;
            ranked.push(standing);
        }
        rest = after;
    }
    ranked
}

/// Points `standing`'s player took from decided games against the others of `group`.
fn direct_points(standing: &Standing, group: &[Standing]) -> u32 {
    let members: Vec<usize> = group.iter().map(|s| s.player).collect();
    standing
        .cells
        .iter()
        .filter_map(|cell| match *cell {
            Cell::Game {
                colour,
                opponent,
                result,
            } if members.contains(&opponent) && decided(result) => Some(result.half_points(colour)),
            _ => None,
        })
        .sum()
}

/// The players still in the tournament as pairing sees them, in joining order (`id` is the
/// player's index). Every game paired counts as a meeting, whatever became of it; only games
/// played out (not void) count for colours.
pub fn entrants(tournament: &Tournament, results: &HashMap<GameId, BoardResult>) -> Vec<Entrant> {
    let cells = cells(tournament, results);
    tournament
        .players
        .iter()
        .enumerate()
        .filter(|(_, entry)| !entry.withdrawn)
        .map(|(player, entry)| {
            let line = &cells[player];
            Entrant {
                id: player,
                score: line.iter().map(half_points).sum(),
                rating: entry.rating(),
                opponents: line
                    .iter()
                    .filter_map(|cell| match cell {
                        Cell::Game { opponent, .. } => Some(*opponent),
                        _ => None,
                    })
                    .collect(),
                colours: line
                    .iter()
                    .filter_map(|cell| match cell {
                        Cell::Game { colour, result, .. } if *result != BoardResult::Void => Some(*colour),
                        _ => None,
                    })
                    .collect(),
                byes: line.iter().filter(|cell| **cell == Cell::Bye).count() as u32,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use crate::ids::UserId;
    use crate::tournament::{Board, Entry, Round, TimeSetting};
    use arbiter_engine::VariantId;

    fn user(name: &str) -> UserId {
        UserId::new(format!("local:{name}"))
    }

    /// A round as tests write it: (white, black, result) boards and a bye.
    type TestRound<'a> = (&'a [(&'a str, &'a str, BoardResult)], Option<&'a str>);

    /// A tournament of `names` (rated in that order, strongest first) with `rounds` given as
    /// (white, black, result) boards plus a bye; game ids count up from 1.
    fn event(names: &[&str], rounds: &[TestRound]) -> (Tournament, HashMap<GameId, BoardResult>) {
        let mut results = HashMap::new();
        let mut next = 0;
        let rounds = rounds
            .iter()
            .map(|(boards, bye)| Round {
                boards: boards
                    .iter()
                    .map(|(white, black, result)| {
                        next += 1;
                        results.insert(GameId::new(next), *result);
                        Board {
                            game: GameId::new(next),
                            white: user(white),
                            black: user(black),
                        }
                    })
                    .collect(),
                bye: bye.map(user),
                complete: true,
            })
            .collect();
        let tournament = Tournament {
            name: "Club night".into(),
            host: user("host"),
            variants: vec![VariantId::Chess; 5],
            time: TimeSetting::Everyone {
                control: TimeControl::days_per_move(1),
            },
            players: names
                .iter()
                .enumerate()
                .map(|(i, name)| Entry {
                    user: user(name),
                    rating: Some(2000 - 100 * i as i32),
                    withdrawn: false,
                })
                .collect(),
            rounds,
        };
        (tournament, results)
    }

    const WHITE: BoardResult = BoardResult::Won {
        by: Colour::White,
        forfeit: false,
    };
    const BLACK: BoardResult = BoardResult::Won {
        by: Colour::Black,
        forfeit: false,
    };
    const DRAW: BoardResult = BoardResult::Drawn;

    fn names(tournament: &Tournament, standings: &[Standing]) -> Vec<String> {
        standings
            .iter()
            .map(|s| tournament.players[s.player].user.display_name().to_string())
            .collect()
    }

    #[test]
    fn scores_and_tie_breaks_are_computed_by_hand() {
        // Round 1: a-b 1-0, c-d ½-½, e bye. Round 2: a-c 1-0, e-b ½-½, d bye.
        let (t, results) = event(
            &["a", "b", "c", "d", "e"],
            &[
                (&[("a", "b", WHITE), ("c", "d", DRAW)], Some("e")),
                (&[("a", "c", WHITE), ("e", "b", DRAW)], Some("d")),
            ],
        );
        let table = standings(&t, &results);
        // Scores: a 2, e 1½, d 1½, b ½, c ½.
        // Buchholz: e: b (½) = ½; d: c (½) = ½ ... tied on score and Buchholz:
        // Sonneborn-Berger: e drew b: ½ x ½ = ¼; d drew c: ½ x ½ = ¼; still level, and e and d
        // never met: they share 2nd place (listed by rating: d first).
        assert_eq!(names(&t, &table), ["a", "d", "e", "b", "c"]);
        let a = &table[0];
        assert_eq!((a.rank, a.points, a.buchholz, a.sonneborn), (1, 4, 2, 4));
        assert_eq!((table[1].rank, table[1].shared, table[2].rank), (2, true, 2));
        assert_eq!((table[1].points, table[1].buchholz, table[1].sonneborn), (3, 1, 1));
        // b: lost to a (2), drew e (1½): Buchholz 3½; c: drew d (1½), lost to a (2): 3½.
        // Sonneborn-Berger: b drew e: ¾; c drew d: ¾. They never met: shared 4th.
        assert_eq!((table[3].rank, table[3].buchholz, table[3].sonneborn), (4, 7, 3));
        assert_eq!(table[4].rank, 4);
        assert_eq!(
            table[0].cells[1],
            Cell::Game {
                colour: Colour::White,
                opponent: 2,
                result: WHITE
            }
        );
        assert_eq!(table[2].cells[0], Cell::Bye);
    }

    #[test]
    fn the_direct_encounter_separates_players_level_on_everything_else() {
        // a beats b, b beats c, c beats a: a cycle; d beats nobody... Level players a and b below
        // share Buchholz and Sonneborn-Berger, and a beat b.
        let (t, results) = event(
            &["b", "a", "c", "d"],
            &[
                (&[("a", "b", WHITE), ("c", "d", WHITE)], None),
                (&[("b", "d", WHITE), ("c", "a", WHITE)], None),
                (&[("a", "d", WHITE), ("b", "c", WHITE)], None),
            ],
        );
        let table = standings(&t, &results);
        // a: 2 (beat b, d), b: 2 (beat d, c), c: 2 (beat d, a), d: 0. Buchholz all 4 (2+0+2), SB:
        // a: b 2 + d 0 = 2, b: d 0 + c 2 = 2, c: d 0 + a 2 = 2. Direct encounter among a, b, c:
        // one win each: a three-way share of 1st.
        assert!(table[..3].iter().all(|s| s.rank == 1 && s.shared));
        assert_eq!(names(&t, &table)[3], "d");
    }

    #[test]
    fn players_level_on_score_and_tie_breaks_are_ordered_by_their_games_against_each_other() {
        // Every round-robin of 5 players with results drawn from a fixed sequence: wherever
        // players are level on score, Buchholz and Sonneborn-Berger, the one with more points
        // against the others of the level group ranks higher, and equal ones share the rank.
        let names = ["a", "b", "c", "d", "e"];
        let mut pairs = Vec::new();
        for (i, white) in names.iter().enumerate() {
            for black in &names[i + 1..] {
                pairs.push((*white, *black));
            }
        }
        let mut seen_decisive_encounter = false;
        for seed in 0u64..300 {
            let pick = |n: usize| match (seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(n as u64 * 1442695040888963407)
                >> 33)
                % 3
            {
                0 => WHITE,
                1 => DRAW,
                _ => BLACK,
            };
            let boards: Vec<(&str, &str, BoardResult)> =
                pairs.iter().enumerate().map(|(n, (w, b))| (*w, *b, pick(n))).collect();
            let rounds: Vec<TestRound> = boards.chunks(2).map(|chunk| (chunk, None)).collect();
            let (t, results) = event(&names, &rounds);
            let table = standings(&t, &results);
            for window in table.windows(2) {
                let [first, second] = window else { continue };
                let level = (first.points, first.buchholz, first.sonneborn)
                    == (second.points, second.buchholz, second.sonneborn);
                assert!(
                    (first.points, first.buchholz, first.sonneborn)
                        >= (second.points, second.buchholz, second.sonneborn)
                );
                if level {
                    let group: Vec<Standing> = table
                        .iter()
                        .filter(|s| {
                            (s.points, s.buchholz, s.sonneborn) == (first.points, first.buchholz, first.sonneborn)
                        })
                        .cloned()
                        .collect();
                    let (a, b) = (direct_points(first, &group), direct_points(second, &group));
                    assert!(a >= b, "seed {seed}");
                    assert_eq!(first.rank == second.rank, a == b, "seed {seed}");
                    seen_decisive_encounter |= a > b;
                } else {
                    assert!(second.rank > first.rank);
                }
            }
        }
        assert!(seen_decisive_encounter, "no case tested the direct encounter");
    }

    #[test]
    fn entrants_count_meetings_colours_and_byes_and_leave_out_the_withdrawn() {
        let (mut t, results) = event(
            &["a", "b", "c"],
            &[
                (&[("a", "b", BLACK)], Some("c")),
                (&[("c", "a", BoardResult::Void)], Some("b")),
            ],
        );
        t.players[1].withdrawn = true;
        let entrants = entrants(&t, &results);
        assert_eq!(entrants.len(), 2);
        let a = &entrants[0];
        assert_eq!((a.id, a.score, a.byes), (0, 0, 0));
        assert_eq!(a.opponents, [1, 2], "a void game still counts as a meeting");
        assert_eq!(a.colours, [Colour::White], "but not for colours");
        let c = &entrants[1];
        assert_eq!((c.id, c.score, c.byes, c.rating), (2, 2, 1, 1800));
    }
}
