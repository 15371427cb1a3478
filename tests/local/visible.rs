//! The terminal prints only what a reader can see: escape codes and direction overrides typed in
//! a name or a move never reach the screen, whatever the program prints back.

use std::io::Write;
use std::process::Stdio;

/// `arbiter local` on a fresh data folder, fed `script`: what it printed, as bytes.
fn run_terminal(script: &str) -> Vec<u8> {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let mut child = crate::support::arbiter_binary()
        .args(["local", "--no-images"])
        .env("ARBITER_DATA_DIR", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output.stdout
}

#[test]
fn escape_codes_and_direction_overrides_typed_never_reach_the_terminal() {
    let script = "al\u{202E}ice\u{1B}: challenge b\u{2066}o\u{7}b\u{200B} chess white\n\
                  bob: accept\n\
                  alice: move zz\u{1B}[2J\u{202E}\n\
                  \u{202E}\u{200B}: games\n\
                  alice: move e4\n\
                  bob: move e5\r\u{1B}[1A\n\
                  bob: profile al\u{202E}ice\n";
    let printed = run_terminal(script);
    let text = String::from_utf8(printed.clone()).expect("UTF-8");
    assert!(!printed.contains(&0x1B), "an escape byte was printed:\n{text:?}");
    assert!(
        !text.contains('\u{202E}'),
        "a direction override was printed:\n{text:?}"
    );
    assert!(!text.contains('\r') && !text.contains('\u{7}'), "{text:?}");
    // The names typed are the players, without what could not be seen: alice challenged bob,
    // and her move counts as hers.
    assert!(text.contains("alice played e4"), "{text}");
    // The refused move is quoted back as it shows.
    assert!(text.contains("zz[2J"), "{text}");
    // A name of nothing visible names nobody.
    assert!(text.contains("start the line with who acts"), "{text}");
}
