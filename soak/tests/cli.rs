//! The soak's command line is a contract that CI and operators rely on: its options, and that
//! bad input is refused before anything starts. (Building this test also builds the soak binary
//! with the tests' features, so CI runs it without building again.)

use std::process::Command;

fn soak(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter-soak"))
        .args(args)
        .output()
        .expect("the soak binary runs")
}

#[test]
fn the_options_are_the_ones_the_readme_gives() {
    let help = soak(&["--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for option in [
        "--minutes <MINUTES>",
        "--games <GAMES>",
        "--seed <SEED>",
        "--at-once <AT_ONCE>",
    ] {
        assert!(text.contains(option), "`{option}` missing from:\n{text}");
    }
}

#[test]
fn a_malformed_option_is_refused_before_anything_starts() {
    let refused = soak(&["--minutes", "soon"]);
    assert_eq!(refused.status.code(), Some(2), "clap's usage error");
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(
        text.contains("invalid value 'soon' for '--minutes <MINUTES>'"),
        "{text}"
    );
}
