//! A newcomer's first minutes in the terminal: a bare move, `wait` after a name, commands that
//! find the only game they can apply to, `#id` anywhere, a record written to a file, and board
//! images that keep every position shown.

use crate::support;
use crate::support::run_script;
use arbiter::local::{self, ImageFiles};

/// A script run with board images (and records) written to `dir`.
async fn run_with_files(script: &str, dir: &std::path::Path) -> String {
    let db = support::sqlite().await;
    let (arena, _) = support::arena(&db);
    let mut out = Vec::new();
    let files = ImageFiles::new(dir);
    local::run(&arena.arena(), script.as_bytes(), &mut out, Some(&files))
        .await
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[tokio::test]
async fn a_bare_action_is_a_move_in_the_only_game_waiting_for_it() {
    let output =
        run_script("alice: challenge bob chess white\nbob: accept\nalice: e4\nbob: E5\nalice: nf3\nbob: frobnicate\n")
            .await;
    assert!(output.contains("alice played e4"), "{output}");
    assert!(output.contains("bob played e5"), "{output}");
    assert!(output.contains("alice played Nf3"), "{output}");
    let refusal = output
        .lines()
        .find(|line| line.contains("error:"))
        .unwrap_or_else(|| panic!("{output}"));
    assert!(
        refusal.contains("unknown command \"frobnicate\"; a move goes after `move`, like `move e4`"),
        "{refusal}"
    );
}

#[tokio::test]
async fn a_bare_action_that_could_be_in_two_games_is_refused() {
    // With two games waiting for alice, `e4` could be a move in either: nothing is guessed.
    let output = run_script(
        "alice: challenge bob chess white\nbob: accept\nalice: challenge carol chess white\ncarol: accept\n\
         alice: e4\n",
    )
    .await;
    let refusal = output
        .lines()
        .find(|line| line.contains("error:"))
        .unwrap_or_else(|| panic!("{output}"));
    assert!(refusal.contains("unknown command \"e4\""), "{refusal}");
    assert!(!output.contains("alice played"), "{output}");
}

#[tokio::test]
async fn wait_after_a_name_lets_the_clocks_run() {
    let output = run_script("bob: wait 1s\nbob: wait soon\n").await;
    assert!(!output.contains("unknown command"), "{output}");
    assert!(output.contains("`wait` takes a duration, like `wait 5s`"), "{output}");
}

#[tokio::test]
async fn a_match_command_finds_the_only_match_its_host_runs_beside_other_games() {
    let output = run_script(
        "carol: challenge dave chess white\ndave: accept\n\
         carol: deathmatch alice bob alice blockade\nalice: side first\ncarol: pause\ncarol: resume\n",
    )
    .await;
    assert!(!output.contains("error:"), "{output}");
    assert!(output.contains("paused"), "{output}");
}

#[tokio::test]
async fn the_game_number_goes_anywhere_in_a_command() {
    let output = run_script(
        "alice: challenge bob chess white\nbob: accept\nalice: challenge carol chess white\ncarol: accept\n\
         alice: move #2 e4\nalice: move d4 #1\nalice: show words #2\n",
    )
    .await;
    assert!(!output.contains("error:"), "{output}");
    assert!(
        output.contains("alice played e4") && output.contains("alice played d4"),
        "{output}"
    );
}

#[tokio::test]
async fn export_writes_the_record_to_a_file_and_says_where() {
    let scratch = tempfile::tempdir().unwrap();
    let chosen = scratch.path().join("mine.pgn");
    let output = run_with_files(
        &format!(
            "alice: challenge bob chess white\nbob: accept\nalice: e4\nalice: export\nalice: export {}\n",
            chosen.display()
        ),
        scratch.path(),
    )
    .await;
    let beside_images = scratch.path().join("game-1.pgn");
    assert!(
        output.contains(&format!("Game #1 as PGN: {}", beside_images.display())),
        "{output}"
    );
    assert!(
        output.contains(&format!("Game #1 as PGN: {}", chosen.display())),
        "{output}"
    );
    for file in [beside_images, chosen] {
        let record = std::fs::read_to_string(&file).unwrap();
        assert!(
            record.contains("[Event \"Arbiter game #1\"]") && record.contains("1. e4 *"),
            "{record}"
        );
    }
    assert!(
        !output.contains("[Event"),
        "the record is in its file, not on the screen: {output}"
    );
}

#[tokio::test]
async fn a_position_shown_again_after_a_takeback_keeps_the_first_ones_file() {
    let scratch = tempfile::tempdir().unwrap();
    let output = run_with_files(
        "alice: challenge bob chess white\nbob: accept\nalice: e4\nalice: takeback offer\nbob: takeback accept\n\
         alice: d4\n",
        scratch.path(),
    )
    .await;
    let first = scratch.path().join("game-1-ply-1.png");
    let second = scratch.path().join("game-1-ply-1-2.png");
    assert!(first.exists() && second.exists(), "{output}");
    assert_ne!(std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    // The start position, shown twice (the game's start, and after the takeback), is one file.
    assert!(scratch.path().join("game-1-ply-0.png").exists());
    assert!(!scratch.path().join("game-1-ply-0-2.png").exists(), "{output}");
}

/// Words newcomers write: long time units, a choice made twice, a name nobody could tell from
/// another, castling where there is none, and a Rejection answerer who is to answer.
#[tokio::test]
async fn what_newcomers_write_is_read_or_refused_in_words() {
    let long_name = "x".repeat(100_000);
    let output = run_script(&format!(
        "alice: challenge bob chess white time 5 mins + 2 days\nalice: cancel\n\
         alice: challenge bob chess white white\nalice: practice chess hard easy\n\
         {long_name}: challenge bob chess\nalice: challenge {long_name} chess\n\
         alice: challenge bob ctf white\nbob: accept\nalice: base:e3\nbob: base:e6\nalice: move O-O\n"
    ))
    .await;
    assert!(
        output.contains("Chess · 5 minutes per move + 2 days reserve: alice challenges bob"),
        "{output}"
    );
    let errors: Vec<&str> = output.lines().filter(|line| line.contains("error:")).collect();
    assert_eq!(errors.len(), 5, "{output}");
    assert!(
        errors[0].contains("choose the side once (`white` or `white`)"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("choose the level once (`hard` or `easy`)"),
        "{}",
        errors[1]
    );
    assert!(errors[2].contains("a name is at most 32 characters"), "{}", errors[2]);
    assert!(errors[3].contains("a name is at most 32 characters"), "{}", errors[3]);
    assert!(
        errors[4].contains("O-O is not a legal move here: there is no castling in this game"),
        "{}",
        errors[4]
    );
}

/// The README's five-minute start, run as written: its script through the real binary, in a
/// fresh folder (as `data/` is on a fresh clone), plays a game to its end and leaves its images
/// and record where the README says.
#[test]
fn the_readmes_five_minute_script_plays_a_game_to_its_end() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Five minutes in the terminal")
        .nth(1)
        .expect("the README has its five-minute start");
    let script: String = section
        .split("<<'EOF'\n")
        .nth(1)
        .and_then(|rest| rest.split("\nEOF\n").next())
        .expect("the five-minute start has its script")
        .lines()
        .map(|line| format!("{line}\n"))
        .collect();
    let scratch = tempfile::tempdir().unwrap();
    let mut child = support::arbiter_binary()
        .arg("local")
        .current_dir(scratch.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let printed = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{printed}");
    assert!(!printed.contains("error:"), "{printed}");
    assert!(printed.contains("1-0 · alice (White) wins by checkmate."), "{printed}");
    let images = scratch.path().join("data").join("images");
    assert!(images.join("game-1-ply-7.png").exists(), "{printed}");
    let record = std::fs::read_to_string(images.join("game-1.pgn")).unwrap();
    assert!(
        record.contains("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"),
        "{record}"
    );
    assert!(scratch.path().join("data").join("arbiter.db").exists());
}

/// The text board keeps a badge with its own piece (its letter right after it, and a wider gap
/// before the next square), names each badge's square in the legend, and shows the squares a
/// detonation cleared as such, not as a piece diagram's moves.
#[tokio::test]
async fn badges_and_blasts_read_plainly_on_the_text_board() {
    let flags =
        run_script("alice: challenge bob ctf white\nbob: accept\nalice: base:e2\nbob: base:e7\nalice: show\n").await;
    let shown = flags.split("(to alice) ").last().unwrap();
    assert!(shown.contains("  2 P  P  P  P  PF P  P  P  \n"), "{shown}");
    assert!(shown.contains("    a  b  c  d  e  f  g  h  \n"), "{shown}");
    assert!(
        shown.contains("    F on e2: White's flag\n    F on e7: Black's flag\n"),
        "{shown}"
    );
    assert!(!shown.contains('!'), "{shown}");

    let blast = run_script(
        "alice: challenge bob beirut white\nbob: accept\nalice: bomb:g1\nbob: bomb:a7\nalice: Nf3\nbob: a6\n\
         alice: Ng5\nbob: a5\nalice: Nxf7\nbob: a4\nalice: detonate\n",
    )
    .await;
    let last = blast.split("wins by blowing up the king.").last().unwrap();
    assert!(last.contains("  8 r  n  b  q  x  x  x  r  \n"), "{last}");
    assert!(
        last.contains("    x the squares the last detonation cleared\n"),
        "{last}"
    );
    assert!(
        last.contains("    B on a4: a bomb carrier, revealed now the game is over\n"),
        "{last}"
    );
    assert!(!last.contains("o moves there"), "{last}");
}
