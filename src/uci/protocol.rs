//! The UCI protocol's commands from a GUI to an engine, read from their lines. Unknown words are
//! skipped, as the protocol asks, so a GUI that says more than Arbiter knows still works.

/// A command a GUI sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `position startpos|fen <fen> [moves ...]`: `fen` is `None` for the start.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// A line with no command Arbiter knows (or none at all): ignored.
    Unknown(String),
}

/// What `go` asks for. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Each side's time left (`wtime`, `btime`) and increment (`winc`, `binc`).
    pub time: [Option<u64>; 2],
    pub increment: [Option<u64>; 2],
    pub movestogo: Option<u64>,
    /// `go infinite` (and `go ponder`): search until `stop`.
    pub infinite: bool,
}

impl Go {
    /// Whether nothing limits the search: no time, depth or nodes given.
    pub fn unlimited(&self) -> bool {
        self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none() && self.time.iter().all(Option::is_none)
    }
}

/// Reads one line. A command with a malformed argument (`go depth x`) is an error saying so.
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    // The protocol allows words the engine does not know before the command: skip to the first
    // known one.
    let Some(start) = words.iter().position(|word| COMMANDS.contains(word)) else {
        return Ok(Command::Unknown(line.trim().to_string()));
    };
    let rest = &words[start + 1..];
    Ok(match words[start] {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "setoption" => set_option(rest),
        "position" => position(rest)?,
        "go" => Command::Go(go(rest)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        _ => Command::Quit,
    })
}

const COMMANDS: [&str; 9] = [
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// `setoption name <name words> [value <value words>]`.
fn set_option(words: &[&str]) -> Command {
    let value_at = words.iter().position(|word| *word == "value");
    let name_words = &words[..value_at.unwrap_or(words.len())];
    let name = name_words
        .iter()
        .skip_while(|word| **word == "name")
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let value = value_at.map(|at| words[at + 1..].join(" "));
    Command::SetOption { name, value }
}

fn position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words.iter().position(|word| *word == "moves");
    let setup = &words[..moves_at.unwrap_or(words.len())];
    let moves = moves_at.map_or_else(Vec::new, |at| words[at + 1..].iter().map(|m| m.to_string()).collect());
    let fen = match setup.first() {
        Some(&"startpos") => None,
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        Some(&"fen") => return Err("position fen needs a FEN".into()),
        _ => return Err("position needs startpos or fen <FEN>".into()),
    };
    Ok(Command::Position { fen, moves })
}

fn go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let text = words.next().ok_or_else(|| format!("go {name} needs a number"))?;
            // Some GUIs send a negative time when the clock has run out: that is no time.
            if let Ok(negative) = text.parse::<i64>() {
                return Ok(negative.max(0) as u64);
            }
            Err(format!("go {name} needs a number, not \"{text}\""))
        };
        match word {
            "movetime" => go.movetime = Some(number(word)?),
            "depth" => go.depth = Some(u32::try_from(number(word)?).unwrap_or(u32::MAX)),
            "nodes" => go.nodes = Some(number(word)?),
            "wtime" => go.time[0] = Some(number(word)?),
            "btime" => go.time[1] = Some(number(word)?),
            "winc" => go.increment[0] = Some(number(word)?),
            "binc" => go.increment[1] = Some(number(word)?),
            "movestogo" => go.movestogo = Some(number(word)?),
            "infinite" | "ponder" => go.infinite = true,
            // `mate`, `searchmoves` and unknown words are not limits Arbiter keeps.
            _ => {}
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_with_their_arguments() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(
            parse("setoption name UCI_Variant value blockade"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("blockade".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Ok(Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            })
        );
        let Ok(Command::Go(go)) = parse("go wtime 60000 btime 59000 winc 1000 binc 1000 movestogo 20") else {
            panic!("a go");
        };
        assert_eq!(go.time, [Some(60_000), Some(59_000)]);
        assert_eq!(go.increment, [Some(1_000), Some(1_000)]);
        assert_eq!(go.movestogo, Some(20));
        assert!(!go.unlimited());
        let Ok(Command::Go(go)) = parse("go infinite") else {
            panic!("a go")
        };
        assert!(go.infinite && go.unlimited());
        assert_eq!(
            parse("go movetime 100").map(|c| matches!(
                c,
                Command::Go(Go {
                    movetime: Some(100),
                    ..
                })
            )),
            Ok(true)
        );
    }

    #[test]
    fn unknown_words_are_skipped_and_malformed_arguments_are_refused_in_words() {
        assert_eq!(parse("joho debug on isready"), Ok(Command::IsReady));
        assert_eq!(parse("xyzzy"), Ok(Command::Unknown("xyzzy".into())));
        assert_eq!(parse(""), Ok(Command::Unknown(String::new())));
        assert_eq!(parse("go depth x"), Err("go depth needs a number, not \"x\"".into()));
        assert_eq!(parse("go nodes"), Err("go nodes needs a number".into()));
        assert_eq!(parse("position"), Err("position needs startpos or fen <FEN>".into()));
        assert_eq!(parse("position fen"), Err("position fen needs a FEN".into()));
        let Ok(Command::Go(go)) = parse("go wtime -50 btime 100") else {
            panic!("a go")
        };
        assert_eq!(go.time, [Some(0), Some(100)]);
    }
}
