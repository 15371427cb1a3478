//! The computer opponent on the command line: `ai` (the action it would take now), `ai-match`
//! (games between players of given strengths) and `bench search` (its speed). Their output is a
//! contract outside checks rely on (README, "Command line").

use super::{GameArgs, SeatArg, build_game, seat_asked};
use anyhow::{Result, anyhow, bail};
use arbiter_engine::ai::{self, Level, Start};
use arbiter_engine::{Action, AnyGame, Game, Seat, VariantId, Viewer};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// Where the game of the engine tools' arguments began: the computer is told no more.
fn start_of(args: &GameArgs) -> Result<Start> {
    let id = args
        .variant
        .variant
        .as_deref()
        .ok_or_else(|| anyhow!("the computer plays the hosted variants: say which with --variant ID"))?;
    let variant = VariantId::parse(id).ok_or_else(|| anyhow!("unknown variant \"{id}\""))?;
    Ok(Start {
        variant,
        fen: args.fen.clone(),
    })
}

/// `arbiter ai`: the action the computer would take now for `seat` (default: the seat to act),
/// from that seat's view, written as `arbiter legal` writes it; nothing when it has nothing to do.
pub fn choose(args: &GameArgs, seat: Option<SeatArg>, level: Level, seed: u64) -> Result<String> {
    let start = start_of(args)?;
    let game = build_game(args)?;
    let Some(seat) = seat_asked(&game, seat) else {
        return Ok(String::new());
    };
    let Some(thought) = ai::think(&start, &game.view(Viewer::Seat(seat)), level, seed) else {
        return Ok(String::new());
    };
    Ok(format!("{}\n", game.notation(seat, &thought.action)))
}

/// A player in `ai-match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Computer(Level),
    /// Any legal action, at random.
    Random,
    /// The action with the best immediate material gain (a win first), at random among equals.
    Greedy,
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(text: &str) -> Result<Player, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            other => other
                .strip_prefix("ai:")
                .and_then(Level::parse)
                .map(Player::Computer)
                .ok_or_else(|| format!("\"{text}\" is not a player: ai:easy, ai:normal, ai:hard, random or greedy")),
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Computer(level) => write!(f, "ai:{level}"),
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
        }
    }
}

/// A game longer than this many actions is called a draw (none of the games gets near it
/// without the 50-move rule or a fixed length ending it first).
const MOST_PLIES: usize = 1_500;

/// `arbiter ai-match`: `games` games of `variant`, `white` in the first seat and `black` in the
/// second, a line per game and the tally last. Every action is checked by the game's own rules;
/// a player whose action they refuse loses that game, and the line says so.
pub fn ai_match(
    variant: &str,
    games: usize,
    [white, black]: [Player; 2],
    seed: u64,
    show_moves: bool,
) -> Result<String> {
    let id = VariantId::parse(variant).ok_or_else(|| anyhow!("unknown variant \"{variant}\""))?;
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let mut out = String::new();
    let mut tally = [0usize; 3];
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    for index in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
        let played = play_one(id, [white, black], game_seed, &mut times)?;
        match played.winner {
            Some(Seat::First) => tally[0] += 1,
            Some(Seat::Second) => tally[2] += 1,
            None => tally[1] += 1,
        }
        writeln!(out, "game {}: {}, {} plies", index + 1, played.result, played.plies)?;
        if show_moves {
            writeln!(out, "  moves: {}", played.moves.join(" "))?;
        }
    }
    for (seat, player) in [(0, white), (1, black)] {
        let mut spent = std::mem::take(&mut times[seat]);
        if spent.is_empty() {
            continue;
        }
        spent.sort();
        let at = |q: f64| spent[((spent.len() - 1) as f64 * q).round() as usize].as_millis();
        writeln!(
            out,
            "{} ({}): {} actions, p50 {} ms, p95 {} ms, max {} ms",
            player,
            ["white", "black"][seat],
            spent.len(),
            at(0.5),
            at(0.95),
            at(1.0)
        )?;
    }
    writeln!(out, "white {}, draws {}, black {}", tally[0], tally[1], tally[2])?;
    Ok(out)
}

struct Played {
    winner: Option<Seat>,
    result: String,
    plies: usize,
    /// Each action in the acting seat's notation, for `--show-moves` (a game can be replayed
    /// from them with `--moves`).
    moves: Vec<String>,
}

fn play_one(id: VariantId, players: [Player; 2], seed: u64, times: &mut [Vec<Duration>; 2]) -> Result<Played> {
    let start = Start::new(id);
    let mut game = AnyGame::new(id);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut plies = 0;
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        if plies >= MOST_PLIES {
            return Ok(Played {
                winner: None,
                result: format!("1/2-1/2 (no result in {MOST_PLIES} actions)"),
                plies,
                moves,
            });
        }
        // During a simultaneous choice each seat acts in turn, the first seat first.
        let Some(&seat) = game.to_act().first() else {
            bail!("{id}: a game not over has nobody to act");
        };
        let player = players[seat.index()];
        let began = Instant::now();
        let action = match player {
            Player::Computer(level) => {
                let view = game.view(Viewer::Seat(seat));
                ai::think(&start, &view, level, rng.random()).map(|thought| thought.action)
            }
            Player::Random => game.legal_actions(seat).choose(&mut rng).cloned(),
            Player::Greedy => greedy(&game, seat, &mut rng),
        };
        if matches!(player, Player::Computer(_)) {
            times[seat.index()].push(began.elapsed());
        }
        if let Some(action) = &action {
            moves.push(game.notation(seat, action));
        }
        let refused = match &action {
            Some(action) => game.apply(seat, action).err().map(|e| format!("{action:?}: {e}")),
            None => Some("no action at all".into()),
        };
        if let Some(why) = refused {
            let winner = seat.other();
            return Ok(Played {
                winner: Some(winner),
                result: format!(
                    "{} (ILLEGAL: {player} in the {} seat took {why})",
                    if winner == Seat::First { "1-0" } else { "0-1" },
                    ["first", "second"][seat.index()]
                ),
                plies,
                moves,
            });
        }
        plies += 1;
    }
    let outcome = game.outcome().expect("the loop ends on an outcome");
    Ok(Played {
        winner: outcome.winner,
        result: format!("{} ({})", outcome.result_text(), outcome.reason.describe()),
        plies,
        moves,
    })
}

/// The greedy player: a winning action if there is one, else the best material after its action
/// (as the board then stands, before any reply), at random among equals.
fn greedy(game: &AnyGame, seat: Seat, rng: &mut SmallRng) -> Option<Action> {
    let mut best: Vec<Action> = Vec::new();
    let mut best_score = i64::MIN;
    for action in game.legal_actions(seat) {
        let mut next = game.clone();
        if next.apply(seat, &action).is_err() {
            continue;
        }
        let score = match next.outcome().map(|outcome| outcome.winner) {
            Some(Some(winner)) if winner == seat => i64::MAX,
            Some(Some(_)) => i64::MIN + 1,
            Some(None) => 0,
            None => i64::from(ai::evaluate::material(&next.sight(Viewer::Seat(seat)), seat)),
        };
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(action);
        }
    }
    best.choose(rng).cloned()
}

/// `arbiter bench search`: how many positions the search visits in `millis` from the position,
/// for the seat to act, in one thread.
pub fn bench_search(args: &GameArgs, millis: u64) -> Result<String> {
    let start = start_of(args)?;
    let game = build_game(args)?;
    let Some(&seat) = game.to_act().first() else {
        bail!("the game is over: nothing to search");
    };
    let budget = ai::Budget {
        nodes: u64::MAX,
        time: Duration::from_millis(millis),
    };
    let thought = ai::think_within(&start, &game.view(Viewer::Seat(seat)), Level::Hard, budget, 0)
        .ok_or_else(|| anyhow!("{seat:?} has nothing to do here"))?;
    let seconds = thought.elapsed.as_secs_f64().max(1e-9);
    Ok(format!(
        "{}: {} nodes in {} ms, {:.0} nodes a second, depth {}, best {} ({})\n",
        start.variant,
        thought.nodes,
        thought.elapsed.as_millis(),
        thought.nodes as f64 / seconds,
        thought.depth,
        game.notation(seat, &thought.action),
        thought.score
    ))
}
