//! The soak's checker catches each defect of a deliberately broken bot: a dropped save, a
//! duplicated post, a leaked secret, a double-fired deadline. Each run fails with the line that
//! names the game and what shows it.
//!
//! The broken bot is a build with the `deliberately-broken` feature, made apart (`.ci/run` builds
//! it and names it in `ARBITER_BROKEN_BOT`): building it here would rebuild the crate under the
//! other tests. Outside CI, without it, these tests say so and pass.

use std::process::Command;

/// A short soak of the broken bot with `defect`; its exit code and what it printed.
fn soak_of_broken_bot(defect: &str, extra: &[&str]) -> Option<(Option<i32>, String)> {
    let Ok(bot) = std::env::var("ARBITER_BROKEN_BOT") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI builds the deliberately broken bot and names it in ARBITER_BROKEN_BOT"
        );
        eprintln!(
            "skipped: ARBITER_BROKEN_BOT is not set (cargo build --features deliberately-broken --bin arbiter, \
             then copy target/debug/arbiter aside and name it there)"
        );
        return None;
    };
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter-soak"))
        .args([
            "--bot",
            &bot,
            "--broken",
            defect,
            "--no-faults",
            "--minutes",
            "0.3",
            "--at-once",
            "2",
            // Each defect shows in the games themselves; a club night would only make it longer.
            "--no-club-night",
        ])
        .args(extra)
        .output()
        .expect("the soak binary runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    Some((output.status.code(), text))
}

/// The run failed, with a FAILED line containing `what`, and its verdict line counts it.
fn assert_caught(run: Option<(Option<i32>, String)>, what: &str, verdict: &str) {
    let Some((code, text)) = run else {
        return;
    };
    assert_eq!(code, Some(1), "the run must fail:\n{text}");
    assert!(
        text.lines()
            .any(|line| line.starts_with("FAILED game #") && line.contains(what)),
        "no failure naming a game and `{what}`:\n{text}"
    );
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("lost ") && !last.contains(verdict),
        "the verdict line must count it (not `{verdict}`): {last}"
    );
}

#[test]
fn a_dropped_save_is_caught_as_a_lost_action() {
    let run = soak_of_broken_bot("dropped-save", &["--games", "2", "--variants", "chess", "--timed", "0"]);
    assert_caught(run, "was acknowledged but is not in the log", "lost 0,");
}

#[test]
fn a_duplicated_result_post_is_caught() {
    let run = soak_of_broken_bot(
        "duplicated-post",
        &["--games", "2", "--variants", "chess", "--timed", "0"],
    );
    assert_caught(run, "result posts in its thread, not 1", "duplicated 0,");
}

#[test]
fn a_leaked_secret_is_caught() {
    let run = soak_of_broken_bot(
        "leaked-secret",
        &["--games", "2", "--variants", "beirut,ctf", "--timed", "0"],
    );
    assert_caught(run, "was named in public", "leaked 0,");
}

#[test]
fn a_deadline_fired_twice_is_caught() {
    let run = soak_of_broken_bot(
        "double-deadline",
        &[
            "--games",
            "2",
            "--variants",
            "chess",
            "--timed",
            "1",
            "--walk-away",
            "1",
        ],
    );
    assert_caught(run, "concluded 2 times", "deadlines missed 0");
}
