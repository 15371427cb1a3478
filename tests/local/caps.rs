//! How much the terminal (a server of its own) may have open at once: past the caps, starting a
//! Death Match, a match's rematch or a tournament is refused, naming the cap, until one is over.

use crate::support::run_script;
use arbiter::arena::caps::{MOST_OPEN_MATCHES, MOST_OPEN_TOURNAMENTS};

const START: &str = "host: deathmatch alice bob alice garden 60s 5m\n";

#[tokio::test]
async fn past_the_cap_no_match_nor_rematch_starts_until_one_is_over() {
    let mut script = START.repeat(MOST_OPEN_MATCHES as usize + 1);
    script.push_str("alice: side first #1\nhost: adjudicate alice #1\n");
    script.push_str(START);
    script.push_str("host: rematch #1\n");
    let next = MOST_OPEN_MATCHES + 1;
    script.push_str(&format!("alice: side first #{next}\nhost: adjudicate abort #{next}\n"));
    script.push_str("host: rematch #1\n");
    let output = run_script(&script).await;
    let refusal = format!(
        "(to host) error: this server already has {MOST_OPEN_MATCHES} Death Matches open, the most it may: finish or \
         abort one first"
    );
    let refused: Vec<&str> = output.lines().filter(|line| line.contains(&refusal)).collect();
    assert_eq!(
        refused.len(),
        2,
        "the start past the cap, and the rematch while full: {output}"
    );
    for n in 1..=next + 1 {
        assert!(output.contains(&format!("Death Match #{n} ")), "#{n}: {output}");
    }
    assert!(!output.contains(&format!("Death Match #{} ", next + 2)), "{output}");
    // The rematch came once there was room: the last match started is the rematch of #1.
    assert!(output.contains("host aborted the match."), "{output}");
}

#[tokio::test]
async fn past_the_cap_no_tournament_is_created() {
    let script: String = (1..=MOST_OPEN_TOURNAMENTS + 1)
        .map(|n| format!("host: tournament create Night {n}\n"))
        .collect();
    let output = run_script(&script).await;
    for n in 1..=MOST_OPEN_TOURNAMENTS {
        assert!(output.contains(&format!("Tournament #{n} ")), "#{n}: {output}");
    }
    assert!(
        output.contains(&format!(
            "(to host) error: this server already has {MOST_OPEN_TOURNAMENTS} tournaments open, the most it may: \
             finish one first"
        )),
        "{output}"
    );
    assert!(
        !output.contains(&format!("Tournament #{} ", MOST_OPEN_TOURNAMENTS + 1)),
        "{output}"
    );
}
