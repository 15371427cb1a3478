//! A tournament in the terminal: seven players, the club night's five rounds, a bye each round until a
//! withdrawal, host adjudications and a forfeit, to the final standings.

use crate::support::run_script;

#[tokio::test]
async fn a_five_round_tournament_of_seven_is_played_to_final_standings_in_the_terminal() {
    let mut script = String::from("host: tournament create Club night\n");
    for name in ["ann", "bob", "cat", "dan", "eve", "fay", "gus"] {
        script.push_str(&format!("{name}: tournament join\n"));
    }
    script.push_str("ann: tournament join\nann: tournament pair\nhost: tournament pair\nhost: tournament start\n");
    // Games are numbered in order: three a round. In round 3 the last game's Black withdraws.
    for round in 0..5 {
        let games: Vec<i64> = (1..=3).map(|n| round * 3 + n).collect();
        if round == 2 {
            script.push_str("host: tournament show\n");
            for game in &games[..2] {
                script.push_str(&format!("host: tournament adjudicate #{game} white\n"));
            }
            script.push_str("host: tournament pair\nhost: tournament close-round\n");
        } else {
            // Every game of the other rounds drawn: with seven players and a withdrawal, pairing
            // must look ahead to reach round 5.
            for game in &games {
                script.push_str(&format!("host: tournament adjudicate #{game} draw\n"));
            }
        }
        if round < 4 {
            script.push_str("host: tournament pair\n");
        }
    }
    script.push_str("bob: tournament standings\nhost: tournament pair\n");
    // Who plays Black in game #9 is known only once round 3 is paired: the script withdraws them
    // by trying everyone (only a player of the tournament can, once).
    let withdrawals: String = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
        .iter()
        .map(|name| format!("{name}: tournament withdraw\n"))
        .collect();
    let script = script.replace("host: tournament show\n", "host: tournament show\n__WITHDRAW__");
    let output = run_script(&script.replace("__WITHDRAW__", "")).await;
    // Find game #9's Black from the first run, then run again with their withdrawal.
    let line = output
        .lines()
        .find(|l| l.starts_with("Board 3 · game #9:"))
        .unwrap_or_else(|| panic!("round 3's announcement:\n{output}"));
    let black = line.split(" - ").nth(1).unwrap().split(' ').next().unwrap().to_string();
    assert!(withdrawals.contains(&black));
    let output = run_script(&script.replace("__WITHDRAW__", &format!("{black}: tournament withdraw\n"))).await;
    assert!(
        output.contains("(to ann) error: you are already in Club night"),
        "{output}"
    );
    assert!(
        output.contains("(to ann) error: only the host (host) or a host of this server runs Club night"),
        "a player is no host: {output}"
    );
    assert!(output.contains("(to host) error: Club night has not begun"), "{output}");
    assert!(
        output.contains("round 1 of 5: Rejection Chess") && output.contains("Bye (1 point)"),
        "{output}"
    );
    assert!(output.contains("9 minutes for the game"), "{output}");
    assert!(
        output.contains(&format!("{black} withdrew from Club night.")),
        "{output}"
    );
    assert!(
        output.contains("(to host) error: round 3 is still being played"),
        "{output}"
    );
    assert!(
        output.contains("withdrew from the tournament: the game is lost by forfeit"),
        "{output}"
    );
    assert!(output.contains("round 5 of 5: Knights are God"), "{output}");
    assert!(output.contains("Club night is over. Final standings"), "{output}");
    // The terminal words its own way: no Discord markdown, its own command names.
    assert!(!output.contains("**") && !output.contains("`/"), "{output}");
    assert!(output.contains("Hosts: `tournament pair` pairs round 2"), "{output}");
    assert!(output.contains("standings after 5 of 5 rounds"), "{output}");
    assert!(output.contains("(to host) error: Club night is over"), "{output}");
    let table_lines = output
        .lines()
        .filter(|l| l.trim_start().starts_with('#') && l.contains("Player  Score"))
        .count();
    assert!(
        table_lines >= 6,
        "a table at every round's end and on request: {table_lines}\n{output}"
    );
}
