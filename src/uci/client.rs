//! Another UCI engine, driven as a GUI drives it: Arbiter's levels play it in `ai-match`
//! (`--white uci:PATH`). It runs as a child process; its lines are read on a thread of their own,
//! with deadlines: an engine that hangs or dies loses the game it is playing (and the match stops
//! at the next game, saying why), never hangs the match.

use anyhow::{Context, Result, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// What a move may take beyond its `movetime` before the engine is taken to hang.
const MOVE_GRACE: Duration = Duration::from_secs(5);

pub struct Engine {
    /// What the engine calls itself (`id name`).
    pub name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `command` (a program and its arguments, split at spaces), makes it ready to play
    /// `variant` with `options` set, or says why it cannot.
    pub fn start(command: &str, variant: &str, options: &[(String, String)]) -> Result<Engine> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| anyhow!("uci: needs the engine's program"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("could not start the UCI engine {program}"))?;
        let input = child.stdin.take().context("the engine's input")?;
        let output = child.stdout.take().context("the engine's output")?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: program.to_string(),
            child,
            input,
            lines,
        };
        engine.send("uci")?;
        let said = engine.read_until("uciok", ANSWER_WITHIN)?;
        if let Some(name) = said.iter().find_map(|line| line.strip_prefix("id name ")) {
            engine.name = name.trim().to_string();
        }
        let variants = said.iter().find(|line| line.starts_with("option name UCI_Variant "));
        match variants {
            Some(line) => {
                let known = line.split_whitespace().collect::<Vec<_>>();
                if !known.windows(2).any(|pair| pair == ["var", variant]) {
                    bail!(
                        "{} does not play {variant} (its UCI_Variant has no such var)",
                        engine.name
                    );
                }
                engine.send(&format!("setoption name UCI_Variant value {variant}"))?;
            }
            None if variant == "chess" => {}
            None => bail!("{} plays chess alone (it has no UCI_Variant option)", engine.name),
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// A new game from the start.
    pub fn new_game(&mut self) -> Result<()> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's move after `moves` from the start, given `movetime`.
    pub fn best_move(&mut self, moves: &[String], movetime: Duration) -> Result<String> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        self.send(&format!("go movetime {}", movetime.as_millis()))?;
        let said = self.read_until("bestmove", movetime + MOVE_GRACE)?;
        best_of(&said).map(str::to_string).ok_or_else(|| {
            let last = said.last().map(String::as_str).unwrap_or_default();
            anyhow!("{} said \"{last}\" without a move", self.name)
        })
    }

    /// What the engine says searching the position `fen` for `movetime`: its lines up to and
    /// with `bestmove`.
    pub fn search_from(&mut self, fen: &str, movetime: Duration) -> Result<Vec<String>> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go movetime {}", movetime.as_millis()))?;
        self.read_until("bestmove", movetime + MOVE_GRACE)
    }

    fn ready(&mut self) -> Result<()> {
        self.send("isready")?;
        self.read_until("readyok", ANSWER_WITHIN).map(|_| ())
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .with_context(|| format!("{} stopped reading", self.name))
    }

    /// The lines the engine says up to the first that starts with `word` (included).
    fn read_until(&mut self, word: &str, within: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + within;
        let mut said = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    said.push(line);
                    if done {
                        return Ok(said);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    bail!("{} did not say {word} within {} s", self.name, within.as_secs())
                }
                Err(RecvTimeoutError::Disconnected) => bail!("{} ended before saying {word}", self.name),
            }
        }
    }
}

/// The move of what an engine said up to its `bestmove` line.
pub fn best_of(said: &[String]) -> Option<&str> {
    let last = said.last()?;
    last.strip_prefix("bestmove")?.split_whitespace().next()
}

/// The value after `key` in an engine's `info` line (`info depth 5 nodes 1200 ...`).
pub fn info_value<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    let mut words = line.split_whitespace();
    words.find(|word| *word == key)?;
    words.next()
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A moment to leave by itself, then it is stopped.
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
