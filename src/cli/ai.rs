//! The computer opponent on the command line: `ai` (the action it would take now), `ai-match`
//! (games between players of given strengths) and `bench search` (its speed). Their output is a
//! contract outside checks rely on (README, "Command line").

use super::{GameArgs, SeatArg, build_game, seat_asked};
use anyhow::{Context, Result, anyhow, bail};
use arbiter::uci::client as uci;
use arbiter_engine::ai::{self, Level, Start};
use arbiter_engine::{Action, AnyGame, Game, Seat, VariantId, Viewer};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    Computer(Level),
    /// Any legal action, at random.
    Random,
    /// The action with the best immediate material gain (a win first), at random among equals.
    Greedy,
    /// A UCI engine: its program and arguments (`uci:/usr/bin/stockfish`, `uci:arbiter uci`).
    Uci(String),
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(text: &str) -> Result<Player, String> {
        if let Some(command) = text.trim().strip_prefix("uci:") {
            return match command.trim() {
                "" => Err("uci: needs the engine's program, as in uci:/usr/games/stockfish".into()),
                command => Ok(Player::Uci(command.to_string())),
            };
        }
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            other => other
                .strip_prefix("ai:")
                .and_then(Level::parse)
                .map(Player::Computer)
                .ok_or_else(|| {
                    format!("\"{text}\" is not a player: ai:easy, ai:normal, ai:hard, random, greedy or uci:PROGRAM")
                }),
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Computer(level) => write!(f, "ai:{level}"),
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
            Player::Uci(command) => write!(f, "uci:{command}"),
        }
    }
}

/// A game longer than this many actions is called a draw (none of the games gets near it
/// without the 50-move rule or a fixed length ending it first).
const MOST_PLIES: usize = 1_500;

/// How `ai-match` plays UCI engines: the time each move is given (`go movetime`) and the options
/// set before the first game.
#[derive(Clone, Debug, Default)]
pub struct UciSettings {
    pub movetime: Duration,
    pub options: Vec<(String, String)>,
}

/// `arbiter ai-match`: `games` games of `variant`, `white` in the first seat and `black` in the
/// second, a line per game written to `out` as the game ends (a series against a UCI engine runs
/// for many minutes), and the tally last. Every action is checked by the game's own rules; a
/// player whose action they refuse loses that game, and the line says so.
#[allow(clippy::too_many_arguments)]
pub fn ai_match(
    variant: &str,
    games: usize,
    players: [Player; 2],
    seed: u64,
    show_moves: bool,
    records: Option<&std::path::Path>,
    uci_settings: &UciSettings,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let id = VariantId::parse(variant).ok_or_else(|| anyhow!("unknown variant \"{variant}\""))?;
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let mut engines = start_engines(id, &players, uci_settings)?;
    let mut tally = [0usize; 3];
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    for index in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
        let mut seats = Seats {
            players: &players,
            engines: &mut engines,
            movetime: uci_settings.movetime,
        };
        let played = play_one(id, &mut seats, game_seed, &mut times)?;
        match played.winner {
            Some(Seat::First) => tally[0] += 1,
            Some(Seat::Second) => tally[2] += 1,
            None => tally[1] += 1,
        }
        writeln!(out, "game {}: {}, {} plies", index + 1, played.result, played.plies)?;
        if show_moves {
            writeln!(out, "  moves: {}", played.moves.join(" "))?;
        }
        if let Some(folder) = records {
            let names = players.each_ref().map(ToString::to_string);
            let record = arbiter::arena::written_record(
                &names,
                &arbiter::model::GameSetup::new(id),
                &played.game.view(Viewer::Spectator),
                None,
            );
            std::fs::create_dir_all(folder).with_context(|| format!("cannot make {}", folder.display()))?;
            let path = folder.join(format!("game-{}.pgn", index + 1));
            std::fs::write(&path, record).with_context(|| format!("cannot write {}", path.display()))?;
        }
        out.flush()?;
    }
    for (seat, player) in players.iter().enumerate() {
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
    Ok(())
}

/// The UCI engines among `players`, started and told the game; none for the other players.
fn start_engines(id: VariantId, players: &[Player; 2], settings: &UciSettings) -> Result<[Option<uci::Engine>; 2]> {
    let mut engines = [None, None];
    for (seat, player) in players.iter().enumerate() {
        let Player::Uci(command) = player else { continue };
        if !arbiter_engine::uci::speaks(id) {
            let spoken: Vec<&str> = arbiter_engine::uci::SPOKEN.iter().map(|v| v.as_str()).collect();
            bail!(
                "{id} is not a game UCI can play (a secret, a list or several boards); UCI plays {}",
                spoken.join(", ")
            );
        }
        engines[seat] = Some(uci::Engine::start(command, id.as_str(), &settings.options)?);
    }
    Ok(engines)
}

/// Who sits in each seat of a match, with the UCI engines among them.
struct Seats<'a> {
    players: &'a [Player; 2],
    engines: &'a mut [Option<uci::Engine>; 2],
    movetime: Duration,
}

struct Played {
    winner: Option<Seat>,
    result: String,
    plies: usize,
    /// Each action in the acting seat's notation, for `--show-moves` (a game can be replayed
    /// from them with `--moves`).
    moves: Vec<String>,
    /// The game as it ended, for `--records`.
    game: AnyGame,
}

fn play_one(id: VariantId, seats: &mut Seats, seed: u64, times: &mut [Vec<Duration>; 2]) -> Result<Played> {
    let start = Start::new(id);
    let mut game = AnyGame::new(id);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut plies = 0;
    let mut moves = Vec::new();
    // The game's moves as UCI writes them, for its engines.
    let pieces = game.sight(Viewer::Spectator).pieces;
    let mut spoken = Vec::new();
    for engine in seats.engines.iter_mut().flatten() {
        engine.new_game()?;
    }
    while game.outcome().is_none() {
        if plies >= MOST_PLIES {
            return Ok(Played {
                winner: None,
                result: format!("1/2-1/2 (no result in {MOST_PLIES} actions)"),
                plies,
                moves,
                game,
            });
        }
        // During a simultaneous choice each seat acts in turn, the first seat first.
        let Some(&seat) = game.to_act().first() else {
            bail!("{id}: a game not over has nobody to act");
        };
        let player = &seats.players[seat.index()];
        let began = Instant::now();
        let action = match player {
            Player::Computer(level) => {
                let view = game.view(Viewer::Seat(seat));
                ai::think(&start, &view, *level, rng.random())
                    .map(|thought| thought.action)
                    .ok_or_else(|| "no action at all".to_string())
            }
            Player::Random => game
                .legal_actions(seat)
                .choose(&mut rng)
                .cloned()
                .ok_or_else(|| "no action at all".to_string()),
            Player::Greedy => greedy(&game, seat, &mut rng).ok_or_else(|| "no action at all".to_string()),
            Player::Uci(_) => {
                let engine = seats.engines[seat.index()].as_mut().context("the engine was started")?;
                match engine.best_move(&spoken, seats.movetime) {
                    Ok(text) => arbiter_engine::uci::read_move(&game, seat, &text)
                        .ok_or_else(|| format!("{text}, which is not a legal move")),
                    Err(error) => Err(format!("no move: {error}")),
                }
            }
        };
        if matches!(player, Player::Computer(_) | Player::Uci(_)) {
            times[seat.index()].push(began.elapsed());
        }
        if let Ok(action) = &action {
            moves.push(game.notation(seat, action));
            spoken.extend(arbiter_engine::uci::move_text(&pieces, action));
        }
        let refused = match &action {
            Ok(action) => game.apply(seat, action).err().map(|e| format!("{action:?}: {e}")),
            Err(why) => Some(why.clone()),
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
                game,
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
        game,
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
/// for the seat to act, in one thread; with `vs`, a UCI engine's figures on the same position
/// for as long, on the next line (its last `info` line's nodes, nodes a second and depth).
pub fn bench_search(args: &GameArgs, millis: u64, vs: Option<&Player>) -> Result<String> {
    let start = start_of(args)?;
    let game = build_game(args)?;
    let Some(&seat) = game.to_act().first() else {
        bail!("the game is over: nothing to search");
    };
    // The engine to compare with is checked before anything is searched.
    let engine = match vs {
        None => None,
        Some(Player::Uci(_)) if !arbiter_engine::uci::speaks(start.variant) => {
            bail!("{} is not a game UCI can play", start.variant)
        }
        Some(Player::Uci(command)) => Some(command),
        Some(other) => bail!("--vs takes a UCI engine (uci:PROGRAM), not {other}"),
    };
    let budget = ai::Budget {
        nodes: u64::MAX,
        time: Duration::from_millis(millis),
    };
    let thought = ai::think_within(&start, &game.view(Viewer::Seat(seat)), Level::Hard, budget, 0)
        .ok_or_else(|| anyhow!("{seat:?} has nothing to do here"))?;
    let seconds = thought.elapsed.as_secs_f64().max(1e-9);
    let mut out = format!(
        "{}: {} nodes in {} ms, {:.0} nodes a second, depth {}, best {} ({})\n",
        start.variant,
        thought.nodes,
        thought.elapsed.as_millis(),
        thought.nodes as f64 / seconds,
        thought.depth,
        game.notation(seat, &thought.action),
        thought.score
    );
    if let Some(command) = engine {
        out.push_str(&engine_search(command, &start, &game, millis)?);
    }
    Ok(out)
}

/// A UCI engine's search of `game`'s position for `millis`, as one line of figures.
fn engine_search(command: &str, start: &Start, game: &AnyGame, millis: u64) -> Result<String> {
    let variant = start.variant;
    let fen = game
        .sight(Viewer::Spectator)
        .boards
        .first()
        .map(|board| board.fen.clone())
        .context("the position's FEN")?;
    let mut engine = uci::Engine::start(command, variant.as_str(), &[])?;
    let said = engine.search_from(&fen, Duration::from_millis(millis))?;
    let last = said
        .iter()
        .rev()
        .find(|line| line.starts_with("info") && line.contains(" nps "))
        .ok_or_else(|| anyhow!("{} said no info line with nps", engine.name))?;
    let field = |key: &str| uci::info_value(last, key).unwrap_or("?");
    let best = uci::best_of(&said).unwrap_or("?");
    Ok(format!(
        "{}: {} nodes in {} ms, {} nodes a second, depth {}, best {best}\n",
        engine.name,
        field("nodes"),
        field("time"),
        field("nps"),
        field("depth"),
    ))
}
