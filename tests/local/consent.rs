//! Ratings only by consent, in the terminal (RULES.md, "Ratings"): a host may start a Death
//! Match between any two players, but it moves their ratings only if both accepted that it is
//! rated before the first placement; and a rated result moves this server's ladder alone.

use crate::support;
use arbiter::clock::{Clock, SystemClock};
use arbiter::ids::{ServerId, UserId};
use arbiter::local;
use arbiter_engine::VariantId;
use std::sync::Arc;

/// Runs `script` in the terminal on a fresh database; what it printed, and the database.
async fn play(script: &str) -> (String, support::TestDb) {
    let db = support::sqlite().await;
    let arena = arbiter::arena::Arena::new(db.store.clone(), Arc::new(SystemClock) as Arc<dyn Clock>);
    let mut out = Vec::new();
    local::run(&arena, script.as_bytes(), &mut out, None).await.unwrap();
    (String::from_utf8(out).unwrap(), db)
}

fn player(name: &str) -> UserId {
    UserId::new(format!("local:{name}"))
}

async fn blockade_games(db: &support::TestDb, server: Option<&ServerId>, name: &str) -> Option<i64> {
    db.store
        .rating(server, &player(name), VariantId::Blockade)
        .await
        .unwrap()
        .map(|rating| rating.games)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_ruling_on_a_match_nobody_accepted_as_rated_moves_no_rating() {
    // The door as it was found: a host names a victim and an accomplice and rules against the
    // victim, or lets the clock do it.
    let (ruled, db) = play(
        "mallory: deathmatch victim alt alt blockade\n\
         mallory: side first\n\
         mallory: adjudicate alt\n\
         victim: profile\n",
    )
    .await;
    assert!(
        ruled.contains("Rated only if both players accept (`deathmatch rated`) before the first placement"),
        "{ruled}"
    );
    assert!(ruled.contains("mallory adjudicated the match to alt."), "{ruled}");
    assert!(ruled.contains("wins by adjudication. Not rated."), "{ruled}");
    assert!(ruled.contains("No rated games on this server yet."), "{ruled}");
    assert!(!ruled.contains("(1 game:"), "{ruled}");
    assert_eq!(blockade_games(&db, Some(&local::server()), "victim").await, None);

    let (timed_out, db) = play(
        "mallory: deathmatch victim alt alt blockade 1s 1s\n\
         mallory: side second\n\
         wait 5s\n\
         victim: profile\n",
    )
    .await;
    assert!(timed_out.contains("ran out of time"), "{timed_out}");
    assert!(timed_out.contains("wins by time. Not rated."), "{timed_out}");
    assert!(timed_out.contains("No rated games on this server yet."), "{timed_out}");
    assert_eq!(blockade_games(&db, Some(&local::server()), "victim").await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_both_players_accepted_is_rated_on_this_servers_ladder_only() {
    let (output, db) = play(
        "host: deathmatch alice bob alice blockade\n\
         alice: rated\n\
         alice: rated\n\
         carol: rated #1\n\
         bob: deathmatch rated #1\n\
         alice: side first\n\
         host: adjudicate bob\n\
         alice: profile\n",
    )
    .await;
    assert!(
        output.contains("alice accepts that Death Match #1 is rated. It is once bob accepts too"),
        "{output}"
    );
    assert!(
        output.contains("(to alice) error: you have accepted already"),
        "{output}"
    );
    assert!(
        output.contains("(to carol) error: only the two players of Death Match #1 accept that it is rated"),
        "{output}"
    );
    assert!(
        output.contains("Both players accepted: Death Match #1 is rated on this server's ladder."),
        "{output}"
    );
    assert!(
        output.contains("wins by adjudication. Rated on this server's ladder."),
        "{output}"
    );
    assert!(output.contains("Blockade Chess: "), "{output}");
    assert!(output.contains("(1 game: 0 won, 0 drawn, 1 lost)"), "{output}");
    assert_eq!(blockade_games(&db, Some(&local::server()), "alice").await, Some(1));
    assert_eq!(blockade_games(&db, Some(&local::server()), "bob").await, Some(1));
    // No other ladder holds it.
    for other in [None, Some(ServerId::new("discord-guild:1"))] {
        assert_eq!(blockade_games(&db, other.as_ref(), "alice").await, None, "{other:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_comes_before_the_first_placement_or_the_match_is_played_unrated() {
    let (output, db) = play(
        "host: deathmatch alice bob alice blockade\n\
         alice: rated\n\
         alice: side first\n\
         alice: move R@f8\n\
         bob: rated\n\
         host: adjudicate alice\n",
    )
    .await;
    assert!(
        output.contains(
            "(to bob) error: Death Match #1 is played unrated: both players had to accept before the first placement"
        ),
        "{output}"
    );
    assert!(output.contains("wins by adjudication. Not rated."), "{output}");
    assert_eq!(blockade_games(&db, Some(&local::server()), "alice").await, None);
}
