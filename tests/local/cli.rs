//! The command-line contract of `arbiter perft`, `legal`, `ai` and `ai-match` (README, "Command line").

use std::process::Output;

fn arbiter(args: &[&str]) -> Output {
    crate::support::arbiter_binary()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn perft_prints_the_node_count_last() {
    let lines = stdout_lines(&arbiter(&["perft", "--variant", "chess", "3"]));
    assert_eq!(lines.last().unwrap(), "8902");
    let divided = stdout_lines(&arbiter(&["perft", "--variant", "chess", "--divide", "2"]));
    assert_eq!(divided.len(), 21);
    assert!(divided.contains(&"e4: 20".to_string()));
    assert_eq!(divided.last().unwrap(), "400");
}

#[test]
fn perft_runs_a_variant_file_and_a_fairy_stockfish_definition() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let ini = dir.join("ubc.ini");
    std::fs::write(
        &ini,
        "[ubc-king-mao]\nmaxRank = 8\nmaxFile = h\ncustomPiece1 = q:nN\ncustomPiece2 = n:C\ncustomPiece3 = p:fFifmnD\n\
         rook = r\nbishop = b\nking = k:nN\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n\
         castling = false\ndoubleStep = true\nenPassantRegion = -\npromotionPieceTypes = -\n",
    )
    .unwrap();
    let lines = stdout_lines(&arbiter(&["perft", "--variant-file", ini.to_str().unwrap(), "3"]));
    assert_eq!(lines.last().unwrap(), "18084");
    let toml = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/variants/chess.toml");
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let lines = stdout_lines(&arbiter(&["perft", "--variant-file", toml, "--fen", fen, "3"]));
    assert_eq!(lines.last().unwrap(), "2812");
}

#[test]
fn legal_lists_actions_that_moves_accepts() {
    let lines = stdout_lines(&arbiter(&["legal", "--variant", "chess", "--moves", "e4 e5 Nf3"]));
    assert_eq!(lines.len(), 29);
    for action in &lines {
        let moves = format!("e4 e5 Nf3 {action}");
        let after = arbiter(&["legal", "--variant", "chess", "--moves", &moves]);
        assert!(after.status.success(), "{action} was listed but refused");
    }
}

#[test]
fn legal_takes_sealed_choices_in_seat_order() {
    let white = stdout_lines(&arbiter(&["legal", "--variant", "beirut"]));
    assert_eq!(white.len(), 15);
    assert!(white.contains(&"bomb:d2".to_string()) && !white.contains(&"bomb:e1".to_string()));
    let black = stdout_lines(&arbiter(&["legal", "--variant", "beirut", "--moves", "bomb:d2"]));
    assert!(black.contains(&"bomb:e7".to_string()) && !black.contains(&"bomb:d2".to_string()));
    let play = stdout_lines(&arbiter(&[
        "legal",
        "--variant",
        "beirut",
        "--moves",
        "bomb:d2 bomb:e7",
    ]));
    assert_eq!(
        play.len(),
        20,
        "no detonation is legal at the start: it would leave the king in check"
    );
    let seat = stdout_lines(&arbiter(&["legal", "--variant", "beirut", "--seat", "black"]));
    assert_eq!(seat.len(), 15);
}

#[test]
fn blockade_actions_round_trip_through_the_command_line() {
    let setup = "Q@d1 q@d8 r@a8 R@a1 B@c1 b@c8 r@h8 R@h1 B@f1 b@f8";
    let turns = stdout_lines(&arbiter(&["legal", "--variant", "blockade", "--moves", setup]));
    assert!(!turns.is_empty());
    assert!(turns.iter().all(|t| t.contains('-') && t.contains('@')), "{turns:?}");
    let first = format!("{setup} {}", turns[0]);
    let next = arbiter(&["legal", "--variant", "blockade", "--moves", &first]);
    assert!(next.status.success());
}

#[test]
fn bad_input_exits_non_zero_naming_the_action() {
    let cases: [(&[&str], &str); 5] = [
        (&["legal", "--variant", "chess", "--moves", "e4 e4"], "\"e4\""),
        (&["legal", "--variant", "chess", "--moves", "e4 zz9"], "zz9"),
        (&["legal", "--variant", "shogi"], "unknown variant"),
        (
            &["perft", "--variant", "chess", "--fen", "8/8/8 w - - 0 1", "1"],
            "3 ranks",
        ),
        (&["legal", "--variant", "beirut", "--moves", "bomb:e1"], "bomb:e1"),
    ];
    for (args, expected) in cases {
        let output = arbiter(args);
        assert!(!output.status.success(), "{args:?} should fail");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn render_writes_a_png_of_the_position_for_the_viewer() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let out = dir.join("board.png");
    let svg = dir.join("board.svg");
    let output = arbiter(&[
        "render",
        "--variant",
        "beirut",
        "--moves",
        "bomb:d2 bomb:e7 e4",
        "--viewer",
        "black",
        "--dots",
        "g8",
        "--out",
        out.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    stdout_lines(&output);
    let png = std::fs::read(&out).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, after the signature and the chunk header.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert_eq!(width, 480);
    let svg = std::fs::read_to_string(&svg).unwrap();
    // The badge on its square and its sample in the key.
    assert_eq!(
        svg.matches("fill=\"#c81e1e\"").count(),
        2,
        "Black sees its own carrier only"
    );
    assert_eq!(svg.matches("fill-opacity=\"0.45\"").count(), 2, "dots on f6 and h6");
    let bad = arbiter(&[
        "render",
        "--variant",
        "chess",
        "--dots",
        "z9",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a square"));
}

#[test]
fn assault_steps_take_a_move_per_acting_seat_and_legal_names_a_seats_board_moves() {
    let after_white = stdout_lines(&arbiter(&[
        "legal",
        "--variant",
        "assault",
        "--moves",
        "e4 d4",
        "--seat",
        "b",
    ]));
    // B is Black on board 1 now: twenty replies, written without a board prefix.
    assert_eq!(after_white.len(), 20);
    assert!(after_white.contains(&"e5".to_string()) && !after_white.iter().any(|m| m.contains(':')));
    // Mid-step, the seat that has submitted has nothing to do until the step resolves.
    let submitted = arbiter(&["legal", "--variant", "assault", "--moves", "e4 d4 2:e5", "--seat", "a"]);
    assert!(stdout_lines(&submitted).is_empty());
    // A move named for the wrong board is refused with a message.
    let wrong = arbiter(&["legal", "--variant", "assault", "--moves", "e4 d4 1:e5"]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("you move on board 2"));
    let perft = stdout_lines(&arbiter(&["perft", "--variant", "assault", "2"]));
    assert_eq!(perft.last().unwrap(), "160000");
}

#[test]
fn rejection_and_ctf_list_the_actions_of_the_seat_to_act_and_count_perft() {
    let answering = stdout_lines(&arbiter(&[
        "legal",
        "--variant",
        "rejection",
        "--moves",
        "e4 accept e5",
    ]));
    assert_eq!(answering, ["accept", "reject"]);
    let replacing = stdout_lines(&arbiter(&[
        "legal",
        "--variant",
        "rejection",
        "--moves",
        "e4 accept e5 reject",
    ]));
    assert_eq!(replacing.len(), 19, "Black's moves but the rejected e5");
    assert!(!replacing.contains(&"e5".to_string()));
    let perft = stdout_lines(&arbiter(&[
        "perft",
        "--variant",
        "ctf",
        "--moves",
        "base:e4 base:d5",
        "3",
    ]));
    assert_eq!(perft.last().unwrap(), "8902");
    let bases = stdout_lines(&arbiter(&["legal", "--variant", "ctf", "--seat", "black"]));
    assert_eq!(bases.len(), 32);
    assert!(bases.iter().all(|b| b.starts_with("base:")));
}

#[test]
fn ai_prints_the_computers_action_as_legal_writes_it_or_nothing() {
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let lines = stdout_lines(&arbiter(&[
        "ai",
        "--variant",
        "chess",
        "--fen",
        mate,
        "--level",
        "easy",
    ]));
    assert_eq!(lines, ["Ra8#"]);
    // Not Black's turn: nothing to do, nothing printed.
    let idle = stdout_lines(&arbiter(&["ai", "--variant", "chess", "--seat", "black"]));
    assert!(idle.is_empty(), "{idle:?}");
    // A secret choice, from the seat's view: one of the seat's own units, never the king.
    let bomb = stdout_lines(&arbiter(&[
        "ai",
        "--variant",
        "beirut",
        "--seat",
        "white",
        "--level",
        "easy",
    ]));
    let legal = stdout_lines(&arbiter(&["legal", "--variant", "beirut", "--seat", "white"]));
    assert_eq!(bomb.len(), 1);
    assert!(legal.contains(&bomb[0]), "{bomb:?} among {legal:?}");
    let refused = arbiter(&["ai", "--variant", "chess", "--level", "expert"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("easy, normal or hard"));
}

#[test]
fn ai_match_prints_a_line_per_game_and_the_tally_last() {
    let lines = stdout_lines(&arbiter(&[
        "ai-match",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        "ai:easy",
        "--black",
        "random",
        "--seed",
        "3",
    ]));
    assert!(
        lines[0].starts_with("game 1: ") && lines[1].starts_with("game 2: "),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("ai:easy (white): ")), "{lines:?}");
    let tally = lines.last().unwrap();
    let numbers: Vec<u32> = tally.split([' ', ',']).filter_map(|word| word.parse().ok()).collect();
    assert!(
        tally.starts_with("white ") && tally.contains(", draws ") && tally.contains(", black "),
        "{tally}"
    );
    assert_eq!(numbers.iter().sum::<u32>(), 2, "{tally}");
    let unknown = arbiter(&[
        "ai-match",
        "--variant",
        "chess",
        "--white",
        "stockfish",
        "--black",
        "random",
    ]);
    assert!(!unknown.status.success());
}

#[test]
fn ai_match_shows_each_games_moves_which_replay_to_its_result() {
    let lines = stdout_lines(&arbiter(&[
        "ai-match",
        "--variant",
        "chess",
        "--games",
        "1",
        "--white",
        "random",
        "--black",
        "greedy",
        "--seed",
        "5",
        "--show-moves",
    ]));
    assert!(lines[0].starts_with("game 1: "), "{lines:?}");
    let moves = lines[1]
        .strip_prefix("  moves: ")
        .expect("the moves after the game's line");
    let plies: usize = lines[0]
        .rsplit(", ")
        .next()
        .and_then(|last| last.strip_suffix(" plies"))
        .and_then(|n| n.parse().ok())
        .expect("the game's length");
    assert_eq!(moves.split_whitespace().count(), plies, "{moves}");
    // They are legal, in order, from the start: `legal` accepts them all.
    let replayed = arbiter(&["legal", "--variant", "chess", "--moves", moves]);
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
}

#[test]
fn replay_draws_a_records_gif_with_a_frame_a_position() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let record = dir.join("mate.pgn");
    std::fs::write(
        &record,
        "[White \"alice\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let gif_path = dir.join("mate.gif");
    let output = arbiter(&["replay", record.to_str().unwrap(), "--out", gif_path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let said = stdout_lines(&output).join("\n");
    assert!(said.contains("8 frames") && said.contains("KiB"), "{said}");
    let bytes = std::fs::read(&gif_path).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(bytes.as_slice()).unwrap();
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
    }
    assert_eq!(
        delays,
        vec![150, 90, 90, 90, 90, 90, 90, 400],
        "the start, seven moves, the mate held"
    );
    // A broken record says what is wrong and writes nothing.
    std::fs::write(&record, "1. e4 e5 2. Ke3 Ke6 3. Kxe5 *\n").unwrap();
    let refused = arbiter(&[
        "replay",
        record.to_str().unwrap(),
        "--out",
        dir.join("no.gif").to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot replay"));
    assert!(!dir.join("no.gif").exists());
}

/// A record exported while a game with secrets goes on (a spectator's, its choices hidden) is
/// replayed as its audience saw it, the hidden choices stood in for; the summary ends its line.
#[tokio::test]
async fn replay_draws_the_audiences_replay_of_a_record_that_hides_secrets() {
    let output = crate::support::run_script(
        "alice: challenge bob beirut white\nbob: accept\nalice: bomb:d2\nbob: bomb:e7\nalice: e4\nbob: e5\n\
         carol: export #1\n",
    )
    .await;
    let record = output
        .split("(to carol) ")
        .nth(1)
        .and_then(|rest| rest.split(" *\n").next())
        .map(|pgn| format!("{pgn} *\n"))
        .unwrap_or_else(|| panic!("{output}"));
    assert!(
        record.contains("[Secrets \"hidden until the game ends\"]") && !record.contains("bomb:"),
        "{record}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("in-progress.pgn");
    std::fs::write(&path, &record).unwrap();
    let gif_path = scratch.path().join("in-progress.gif");
    let replayed = arbiter(&["replay", path.to_str().unwrap(), "--out", gif_path.to_str().unwrap()]);
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    let said = String::from_utf8(replayed.stdout).unwrap();
    assert!(said.ends_with('\n') && said.contains(" frames"), "{said:?}");
    let bytes = std::fs::read(&gif_path).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(bytes.as_slice()).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert!(frames >= 3, "the start and both moves at least: {frames}");
}
