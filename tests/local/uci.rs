//! `arbiter uci` spoken to as a GUI speaks to it (a script of commands and the answers expected),
//! and `ai-match` playing a UCI engine: `arbiter uci` itself, so no other engine is needed.

use arbiter::uci::client::{best_of, info_value};
use arbiter_engine::{AnyGame, Game, Seat, VariantId};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A generous wait for an answer (a debug build on a loaded machine); never a measure of speed.
const WAIT: Duration = Duration::from_secs(60);

struct Gui {
    engine: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Gui {
    fn start() -> Gui {
        let mut engine = crate::support::arbiter_binary()
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("arbiter uci starts");
        let input = engine.stdin.take().unwrap();
        let output = engine.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        Gui { engine, input, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The lines up to the first starting with `word` (included).
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut said = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(WAIT)
                .unwrap_or_else(|_| panic!("no {word} after {said:?}"));
            let done = line.split_whitespace().next() == Some(word);
            said.push(line);
            if done {
                return said;
            }
        }
    }

    /// Nothing said for `quiet`.
    fn says_nothing_for(&self, quiet: Duration) -> Option<String> {
        self.lines.recv_timeout(quiet).ok()
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.engine.wait().unwrap();
        assert!(status.success(), "{status:?}");
    }
}

/// Plays `moves` (UCI text) on `game`, each legal in turn.
fn play<'m>(game: &mut AnyGame, moves: impl IntoIterator<Item = &'m str>) {
    for text in moves {
        let seat = game.to_act()[0];
        let action = arbiter_engine::uci::read_move(game, seat, text).unwrap_or_else(|| panic!("{text} is legal"));
        game.apply(seat, &action).unwrap();
    }
}

/// The move of a `bestmove` line.
fn best(said: &[String]) -> String {
    best_of(said).unwrap_or_else(|| panic!("a move: {said:?}")).to_string()
}

#[test]
fn a_gui_is_answered_with_id_options_and_moves_with_their_depths_scores_and_lines() {
    let mut gui = Gui::start();
    gui.send("uci");
    let hello = gui.until("uciok");
    assert!(hello[0].starts_with("id name Arbiter "), "{hello:?}");
    let variants = hello
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .unwrap();
    for spoken in ["var chess", "var blockade", "var garden", "var pick-the-team"] {
        assert!(variants.contains(spoken), "{variants}");
    }
    assert!(
        hello.contains(&"option name Hash type spin default 16 min 1 max 4096".to_string()),
        "{hello:?}"
    );
    assert!(
        !variants.contains("var beirut") && !variants.contains("var ctf"),
        "{variants}"
    );
    gui.send("isready");
    assert_eq!(gui.until("readyok"), ["readyok"]);

    gui.send("ucinewgame");
    gui.send("position startpos moves e2e4 e7e5 g1f3");
    gui.send("go depth 3");
    let said = gui.until("bestmove");
    let infos: Vec<&String> = said.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 3, "one line a depth: {said:?}");
    let mut game = AnyGame::new(VariantId::Chess);
    play(&mut game, ["e2e4", "e7e5", "g1f3"]);
    for (depth, info) in infos.iter().enumerate() {
        assert_eq!(
            info_value(info, "depth"),
            Some((depth + 1).to_string().as_str()),
            "{info}"
        );
        assert!(
            info_value(info, "score").is_some_and(|kind| kind == "cp" || kind == "mate"),
            "{info}"
        );
        for key in ["nodes", "nps", "time"] {
            assert!(
                info_value(info, key).is_some_and(|n| n.parse::<u64>().is_ok()),
                "{key}: {info}"
            );
        }
        // The line is as deep as the depth at least (captures may follow it), each move legal
        // in turn.
        let line = info.split(" pv ").nth(1).unwrap_or_else(|| panic!("a line: {info}"));
        assert!(line.split_whitespace().count() > depth, "{info}");
        play(&mut game.clone(), line.split_whitespace());
    }
    // The move is Black's, legal after the moves given, and the one the last line begins with.
    let chosen = best(&said);
    assert!(
        arbiter_engine::uci::read_move(&game, Seat::Second, &chosen).is_some(),
        "{chosen}"
    );
    assert!(infos[2].split(" pv ").nth(1).unwrap().starts_with(&chosen), "{said:?}");
    gui.quit();
}

#[test]
fn go_infinite_thinks_until_stop_and_isready_is_answered_meanwhile() {
    let mut gui = Gui::start();
    gui.send("position startpos");
    gui.send("go infinite");
    // Thinking: no move is given before `stop`, but `isready` is answered at once.
    gui.send("isready");
    let until_ready = gui.until("readyok");
    assert!(
        until_ready.iter().all(|l| !l.starts_with("bestmove")),
        "{until_ready:?}"
    );
    if let Some(line) = gui.says_nothing_for(Duration::from_millis(500)) {
        assert!(line.starts_with("info "), "only info lines before stop: {line}");
    }
    gui.send("stop");
    let said = gui.until("bestmove");
    let mv = best(&said);
    let game = AnyGame::new(VariantId::Chess);
    assert!(
        arbiter_engine::uci::read_move(&game, Seat::First, &mv).is_some(),
        "{mv}"
    );
    // Searches limited by nodes and by time end by themselves.
    gui.send("go nodes 300");
    assert!(gui.until("bestmove").len() >= 2);
    gui.send("go movetime 200");
    assert!(gui.until("bestmove").len() >= 2);
    gui.send("go wtime 3000 btime 3000 winc 100 binc 100");
    assert!(gui.until("bestmove").len() >= 2);
    gui.quit();
}

#[test]
fn a_position_from_a_fen_is_searched_to_its_mate() {
    let mut gui = Gui::start();
    // A back-rank mate in one for White: Ra8#.
    gui.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    gui.send("go depth 3");
    let said = gui.until("bestmove");
    assert_eq!(best(&said), "a1a8", "{said:?}");
    let last_info = said.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains("score mate 1"), "{last_info}");
    gui.quit();
}

#[test]
fn blockade_is_played_with_placements_and_statues_in_uci_text() {
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value blockade");
    gui.send("position startpos");
    gui.send("go nodes 2000");
    let placement = best(&gui.until("bestmove"));
    assert!(placement.contains('@'), "a placement first: {placement}");
    // After the ten placements, a move and its statue.
    let mut game = AnyGame::new(VariantId::Blockade);
    let mut moves = Vec::new();
    while game.phase() != arbiter_engine::Phase::Play {
        let seat = game.to_act()[0];
        let (action, text) = arbiter_engine::uci::legal_moves(&game, seat).remove(0);
        game.apply(seat, &action).unwrap();
        moves.push(text);
    }
    gui.send(&format!("position startpos moves {}", moves.join(" ")));
    gui.send("go nodes 2000");
    let turn = best(&gui.until("bestmove"));
    let seat = game.to_act()[0];
    assert!(turn.contains(','), "a move, then its statue: {turn}");
    assert!(arbiter_engine::uci::read_move(&game, seat, &turn).is_some(), "{turn}");
    gui.quit();
}

#[test]
fn wrong_commands_are_answered_in_words_and_change_nothing() {
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value beirut");
    gui.send("setoption name Contempt value 10");
    gui.send("setoption name Hash value lots");
    gui.send("go depth many");
    gui.send("position fen not/a/fen w - - 0 1");
    gui.send("position startpos moves e2e4 e2e4");
    gui.send("isready");
    let said = gui.until("readyok");
    let infos: Vec<&String> = said.iter().filter(|l| l.starts_with("info string ")).collect();
    assert_eq!(infos.len(), 6, "{said:?}");
    assert!(infos[0].contains("beirut is not a game UCI can play"), "{}", infos[0]);
    assert!(infos[1].contains("no option named Contempt"), "{}", infos[1]);
    assert!(infos[2].contains("Hash is a number of megabytes"), "{}", infos[2]);
    assert!(infos[3].contains("go depth needs a number"), "{}", infos[3]);
    assert!(infos[4].contains("FEN does not read"), "{}", infos[4]);
    assert!(infos[5].contains("e2e4 is not a legal move here"), "{}", infos[5]);
    // Still chess, with e2e4 played: Black's move comes.
    gui.send("go depth 1");
    let mv = best(&gui.until("bestmove"));
    let mut game = AnyGame::new(VariantId::Chess);
    play(&mut game, ["e2e4"]);
    assert!(
        arbiter_engine::uci::read_move(&game, Seat::Second, &mv).is_some(),
        "{mv}"
    );
    gui.quit();
}

fn ai_match(args: &[&str]) -> std::process::Output {
    crate::support::arbiter_binary()
        .arg("ai-match")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `arbiter uci` as the UCI engine of a match, by its own path.
fn itself() -> String {
    format!("uci:{} uci", env!("CARGO_BIN_EXE_arbiter"))
}

#[test]
fn ai_match_plays_a_uci_engine_to_the_end_of_each_game() {
    let engine = itself();
    for (variant, args) in [
        ("chess", ["--white", "ai:easy", "--black", engine.as_str()]),
        ("blockade", ["--white", engine.as_str(), "--black", "greedy"]),
    ] {
        let output = ai_match(&[
            "--variant",
            variant,
            "--games",
            "2",
            args[0],
            args[1],
            args[2],
            args[3],
            "--uci-movetime",
            "30",
            "--seed",
            "5",
        ]);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(text.contains("game 1: ") && text.contains("game 2: "), "{text}");
        assert!(!text.contains("ILLEGAL"), "every move of the engine was legal: {text}");
        assert!(text.contains(&format!("{engine} (")), "its times are shown: {text}");
        let tally = text.lines().last().unwrap();
        let numbers: Vec<u32> = tally.split([' ', ',']).filter_map(|w| w.parse().ok()).collect();
        assert_eq!(numbers.iter().sum::<u32>(), 2, "{tally}");
    }
}

#[test]
fn ai_match_refuses_a_uci_engine_it_cannot_play_and_says_why() {
    let engine = itself();
    let secret = ai_match(&["--variant", "beirut", "--white", &engine, "--black", "random"]);
    assert!(!secret.status.success());
    let said = String::from_utf8_lossy(&secret.stderr);
    assert!(said.contains("beirut is not a game UCI can play"), "{said}");
    let missing = ai_match(&[
        "--variant",
        "chess",
        "--white",
        "uci:/no/such/engine",
        "--black",
        "random",
    ]);
    assert!(!missing.status.success());
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(
        said.contains("could not start the UCI engine /no/such/engine"),
        "{said}"
    );
    let option = ai_match(&[
        "--variant",
        "chess",
        "--white",
        &engine,
        "--black",
        "random",
        "--uci-option",
        "novalue",
    ]);
    assert!(!option.status.success());
    assert!(String::from_utf8_lossy(&option.stderr).contains("is not NAME=VALUE"));
}

#[test]
fn bench_search_puts_a_uci_engines_figures_on_the_same_position_beside_its_own() {
    let output = crate::support::arbiter_binary()
        .args(["bench", "search", "--variant", "chess", "--moves", "e4 e5 Nf3"])
        .args(["--millis", "200", "--vs", &itself()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("chess: ") && lines[0].contains("nodes a second"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("Arbiter ") && lines[1].contains("nodes a second"),
        "{text}"
    );
    // The engine's move is Black's, legal in the position both searched.
    let best = lines[1].rsplit("best ").next().unwrap();
    let mut game = AnyGame::new(VariantId::Chess);
    play(&mut game, ["e2e4", "e7e5", "g1f3"]);
    assert!(
        arbiter_engine::uci::read_move(&game, Seat::Second, best).is_some(),
        "{best}"
    );
    for (variant, vs, why) in [
        ("beirut", itself(), "beirut is not a game UCI can play"),
        ("chess", "random".to_string(), "--vs takes a UCI engine"),
    ] {
        let refused = crate::support::arbiter_binary()
            .args(["bench", "search", "--variant", variant, "--millis", "50", "--vs", &vs])
            .output()
            .unwrap();
        assert!(!refused.status.success());
        assert!(refused.stdout.is_empty(), "nothing is searched");
        assert!(String::from_utf8_lossy(&refused.stderr).contains(why));
    }
}
