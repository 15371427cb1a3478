//! `arbiter uci`: the computer opponent as a UCI engine, for GUIs, cutechess-cli and lichess-bot.
//! It reads commands line by line; a `go` searches on a thread of its own, so `stop`, `isready`
//! and `quit` are answered while it thinks. Every game UCI can play is a `UCI_Variant`
//! (`arbiter_engine::uci::SPOKEN`); a move is written as `arbiter_engine::uci` writes it.

use super::protocol::{self, Command, Go};
use arbiter_engine::ai::evaluate::Evaluator;
use arbiter_engine::ai::search::{Budget, Progress, Search, WIN};
use arbiter_engine::ai::table::{DEFAULT_MEGABYTES, Table};
use arbiter_engine::uci::{self, SPOKEN};
use arbiter_engine::{AnyGame, Game, VariantId, Viewer};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where the engine's lines go (standard output, or a test's buffer), shared with the search's
/// thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// A search under way: how to stop it, and the thread that will say `bestmove`.
struct Thinking {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

struct Engine {
    out: Output,
    variant: VariantId,
    game: AnyGame,
    thinking: Option<Thinking>,
    /// What searches found, kept from move to move of a game (`Hash` megabytes in all): a table
    /// for each side, since a search's scores are its own side's, and a GUI analysing a game
    /// asks for both sides in turn.
    tables: Arc<Mutex<[Table; 2]>>,
}

/// The largest table `Hash` may ask for, in megabytes.
const MOST_MEGABYTES: usize = 4096;

/// Serves UCI on `input` until `quit` or its end, writing to `out`.
pub fn serve(input: impl BufRead, out: Output) -> std::io::Result<()> {
    let mut engine = Engine {
        out,
        variant: VariantId::Chess,
        game: AnyGame::new(VariantId::Chess),
        thinking: None,
        tables: Arc::new(Mutex::new(tables_of(DEFAULT_MEGABYTES))),
    };
    for line in input.lines() {
        let line = line?;
        match protocol::parse(&line) {
            Ok(Command::Quit) => break,
            Ok(command) => engine.obey(command),
            Err(error) => engine.say(&format!("info string {error}")),
        }
    }
    engine.stop();
    Ok(())
}

impl Engine {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn obey(&mut self, command: Command) {
        match command {
            Command::Uci => self.introduce(),
            Command::IsReady => self.say("readyok"),
            Command::UciNewGame => {
                self.stop();
                self.game = AnyGame::new(self.variant);
                lock(&self.tables).iter_mut().for_each(Table::clear);
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => {
                self.stop();
                self.set_position(fen.as_deref(), &moves);
            }
            Command::Go(go) => {
                self.stop();
                self.go(go);
            }
            Command::Stop => self.stop(),
            // Pondering is searched as `go infinite`: a hit lets it go on until `stop`.
            Command::PonderHit | Command::Unknown(_) | Command::Quit => {}
        }
    }

    fn introduce(&self) {
        self.say(&format!("id name Arbiter {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Arbiter developers");
        let variants: Vec<String> = SPOKEN.iter().map(|v| format!("var {}", v.as_str())).collect();
        self.say(&format!(
            "option name UCI_Variant type combo default chess {}",
            variants.join(" ")
        ));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_MEGABYTES} min 1 max {MOST_MEGABYTES}"
        ));
        self.say("option name Clear Hash type button");
        self.say("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if name.eq_ignore_ascii_case("Hash") {
            return self.set_hash(value);
        }
        if name.eq_ignore_ascii_case("Clear Hash") {
            self.stop();
            return lock(&self.tables).iter_mut().for_each(Table::clear);
        }
        if !name.eq_ignore_ascii_case("UCI_Variant") {
            self.say(&format!("info string no option named {name}"));
            return;
        }
        let asked = value.unwrap_or_default().trim();
        match VariantId::parse(asked).filter(|variant| uci::speaks(*variant)) {
            Some(variant) => {
                self.stop();
                self.variant = variant;
                self.game = AnyGame::new(variant);
            }
            None => {
                let known: Vec<&str> = SPOKEN.iter().map(|v| v.as_str()).collect();
                self.say(&format!(
                    "info string UCI_Variant {asked} is not a game UCI can play here; one of {}",
                    known.join(", ")
                ));
            }
        }
    }

    fn set_hash(&mut self, value: Option<&str>) {
        match value.and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(megabytes) if (1..=MOST_MEGABYTES).contains(&megabytes) => {
                self.stop();
                *lock(&self.tables) = tables_of(megabytes);
            }
            _ => self.say(&format!(
                "info string Hash is a number of megabytes from 1 to {MOST_MEGABYTES}"
            )),
        }
    }

    /// The position asked, its moves played in turn. A FEN that does not read keeps the position
    /// as it was; a move that is not legal stops there, the moves before it played.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let start = match fen {
            None => AnyGame::new(self.variant),
            Some(fen) => match AnyGame::from_fen(self.variant, fen) {
                Ok(game) => game,
                Err(error) => {
                    self.say(&format!("info string the FEN does not read: {error}"));
                    return;
                }
            },
        };
        self.game = start;
        for text in moves {
            let Some(&seat) = self.game.to_act().first() else {
                self.say(&format!("info string {text} comes after the game's end"));
                return;
            };
            let played = uci::read_move(&self.game, seat, text).and_then(|action| self.game.apply(seat, &action).ok());
            if played.is_none() {
                self.say(&format!(
                    "info string {text} is not a legal move here; the moves before it are played"
                ));
                return;
            }
        }
    }

    fn go(&mut self, go: Go) {
        let game = self.game.clone();
        let variant = self.variant;
        let out = self.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let tables = self.tables.clone();
        let thread = std::thread::spawn(move || think(&game, variant, &go, &stopped, &out, &mut lock(&tables)));
        self.thinking = Some(Thinking { stop, thread });
    }

    /// Stops the search under way, if any, once it has said its `bestmove`.
    fn stop(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.store(true, Ordering::Relaxed);
            let _ = thinking.thread.join();
        }
    }
}

fn lock(tables: &Mutex<[Table; 2]>) -> std::sync::MutexGuard<'_, [Table; 2]> {
    tables.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A table for each side, `megabytes` in all (half each, and at least one).
fn tables_of(megabytes: usize) -> [Table; 2] {
    [(); 2].map(|_| Table::with_megabytes((megabytes / 2).max(1)))
}

fn say(out: &Output, line: &str) {
    let mut out = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Searches `game` as `go` asks, writing `info` lines and then `bestmove`.
fn think(game: &AnyGame, variant: VariantId, go: &Go, stop: &Arc<AtomicBool>, out: &Output, tables: &mut [Table; 2]) {
    let Some(&seat) = game.to_act().first() else {
        say(out, "info string the game is over");
        return say(out, "bestmove 0000");
    };
    let pieces = game.sight(Viewer::Spectator).pieces;
    let text = |action: &arbiter_engine::Action| uci::move_text(&pieces, action).unwrap_or_else(|| "0000".into());
    let budget = Budget {
        nodes: go.nodes.unwrap_or(u64::MAX),
        time: time_for(go, seat.index()),
    };
    let mut evaluator = Evaluator::new(seat, variant);
    let mut report = |progress: &Progress| {
        let millis = progress.elapsed.as_millis().max(1) as u64;
        let line: Vec<String> = progress.line.iter().map(&text).collect();
        say(
            out,
            &format!(
                "info depth {} score {} nodes {} nps {} time {} pv {}",
                progress.depth,
                score_text(progress.score),
                progress.nodes,
                progress.nodes * 1000 / millis,
                millis,
                line.join(" ")
            ),
        );
    };
    let mut search = Search::new(seat, &mut evaluator, budget)
        .stopped_by(stop.clone())
        .reporting(&mut report)
        .with_table(&mut tables[seat.index()]);
    if let Some(depth) = go.depth {
        search = search.no_deeper_than(depth);
    }
    let found = search.run(game);
    // `go infinite` says its move only when stopped, however soon the search is done.
    if go.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let best = found
        .scores
        .first()
        .map_or_else(|| "0000".to_string(), |(action, _)| text(action));
    say(out, &format!("bestmove {best}"));
}

/// How long a search may take: `movetime`; else a share of the clock (a thirtieth of the time
/// left, or of it over the moves to go, and most of the increment), never all of it; else no
/// end but `stop`, the depth or the nodes.
fn time_for(go: &Go, side: usize) -> Duration {
    if let Some(movetime) = go.movetime {
        return Duration::from_millis(movetime);
    }
    let Some(left) = go.time[side] else {
        return Duration::MAX;
    };
    let increment = go.increment[side].unwrap_or(0);
    let moves = go.movestogo.unwrap_or(30).clamp(1, 30);
    // A margin for the GUI's own delay: never plan on the last 50 ms.
    let usable = left.saturating_sub(50);
    let share = left / moves + increment * 3 / 4;
    Duration::from_millis(share.min(usable / 2).max(1))
}

/// A score as UCI writes it: centipawns, or moves to a mate the search sees.
fn score_text(score: i32) -> String {
    if score.abs() > WIN / 2 {
        let plies = WIN - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_shared_over_the_moves_to_come_and_never_spent_whole() {
        let go = |time: u64, inc: u64, to_go: Option<u64>| Go {
            time: [Some(time), Some(1)],
            increment: [Some(inc), None],
            movestogo: to_go,
            ..Go::default()
        };
        assert_eq!(time_for(&go(60_000, 0, None), 0), Duration::from_millis(2_000));
        assert_eq!(time_for(&go(60_000, 1_000, None), 0), Duration::from_millis(2_750));
        assert_eq!(time_for(&go(10_000, 0, Some(2)), 0), Duration::from_millis(4_975));
        assert_eq!(time_for(&go(100, 5_000, None), 0), Duration::from_millis(25));
        assert_eq!(time_for(&go(60_000, 0, None), 1), Duration::from_millis(1));
        assert_eq!(
            time_for(
                &Go {
                    movetime: Some(250),
                    ..Go::default()
                },
                0
            ),
            Duration::from_millis(250)
        );
        assert_eq!(time_for(&Go::default(), 0), Duration::MAX);
    }

    #[test]
    fn scores_are_centipawns_or_moves_to_mate() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(-120), "cp -120");
        assert_eq!(score_text(WIN - 1), "mate 1");
        assert_eq!(score_text(WIN - 3), "mate 2");
        assert_eq!(score_text(-WIN + 2), "mate -1");
    }
}
