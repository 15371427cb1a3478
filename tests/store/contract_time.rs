//! The contract of what schedulers share, on SQLite and PostgreSQL alike: games' deadlines and
//! the claims on them (one process wins, the lease's end hands over), heartbeats, and downtime.

use crate::support;
use arbiter::clock::{GameClock, TimeControl};
use arbiter::ids::{GameId, Place, Places, UserId};
use arbiter::model::{DeathMatch, GameRow, GameSetup, GameStatus, NewGame, WhitePlayer};
use arbiter::store::Store;
use arbiter_engine::{AnyGame, VariantId};
use std::collections::BTreeSet;
use std::sync::Arc;

fn user(name: &str) -> UserId {
    UserId::new(format!("test:{name}"))
}

/// A game at `location` with nothing due (an ordinary challenge).
fn challenge_at(location: &str) -> NewGame {
    NewGame {
        setup: GameSetup::new(VariantId::Chess),
        location: location.into(),
        status: GameStatus::Challenge,
        challenger: user("alice"),
        opponent: user("bob"),
        white_player: WhitePlayer::Random,
        players: None,
        state: AnyGame::new(VariantId::Chess),
        now: 0,
        deathmatch: None,
        clock: GameClock::timed([TimeControl::days_per_move(3); 2], false, 0),
        server: None,
        tournament: None,
        is_rated: true,
    }
}

/// A Death Match at `location` waiting for its colour choice, which falls due at `due`: its
/// next deadline is exactly `due`.
fn match_due(location: &str, due: i64) -> NewGame {
    NewGame {
        deathmatch: Some(DeathMatch::new(user("host"), user("alice"), due)),
        ..challenge_at(location)
    }
}

async fn insert(store: &dyn Store, game: NewGame) -> GameRow {
    store.insert_game(&game).await.unwrap()
}

/// Saves `game` one version on.
async fn save(store: &dyn Store, game: &mut GameRow) {
    game.version += 1;
    store.update_game(game, &[], &[]).await.unwrap();
}

fn set(ids: impl IntoIterator<Item = GameId>) -> BTreeSet<GameId> {
    ids.into_iter().collect()
}

/// Long enough that no lease ends within a test that does not mean it to.
const LEASE: i64 = 1_000_000;

/// Due games at the places are claimed, the earliest first and no more than the limit; games
/// not yet due, without a deadline, or at other places are not.
async fn due_games_are_claimed_earliest_first_within_places_and_limit(store: &dyn Store) {
    let places = Places::starting_with("claims:");
    let late = insert(store, match_due("claims:1", 300)).await;
    let earliest = insert(store, match_due("claims:2", 100)).await;
    let second = insert(store, match_due("claims:3", 200)).await;
    let third = insert(store, match_due("claims:4", 250)).await;
    let not_due = insert(store, match_due("claims:5", 10_000)).await;
    insert(store, challenge_at("claims:6")).await;
    insert(store, match_due("elsewhere:1", 50)).await;
    // LIKE's wildcards in a prefix are taken literally: "claims_" matches neither "claims:" nor
    // "claimsX:".
    insert(store, match_due("claimsX:1", 50)).await;
    assert_eq!(
        store
            .claim_due(&Places::starting_with("claims_"), 350, LEASE, 10)
            .await
            .unwrap(),
        Vec::<GameId>::new()
    );

    assert_eq!(
        store.claim_due(&places, 350, LEASE, 1).await.unwrap(),
        [earliest.id],
        "the earliest deadline first"
    );
    let next_two = store.claim_due(&places, 350, LEASE, 2).await.unwrap();
    assert_eq!(set(next_two), set([second.id, third.id]), "the two earliest left");
    assert_eq!(store.claim_due(&places, 350, LEASE, 10).await.unwrap(), [late.id]);
    assert_eq!(
        store.claim_due(&places, 350, LEASE, 10).await.unwrap(),
        Vec::<GameId>::new(),
        "all claimed, nothing else due"
    );
    // A deadline falling due exactly now is due.
    assert_eq!(store.claim_due(&places, 10_000, LEASE, 10).await.unwrap(), [not_due.id]);
}

/// Several games claimed in one call come earliest first, as `claim_due` promises
/// (`UPDATE ... RETURNING` alone keeps no order).
async fn one_claim_returns_its_games_earliest_first(store: &dyn Store) {
    let places = Places::starting_with("order:");
    // Inserted latest deadline first, so the order of ids is the reverse of the deadlines'.
    let third = insert(store, match_due("order:1", 300)).await;
    let second = insert(store, match_due("order:2", 200)).await;
    let first = insert(store, match_due("order:3", 100)).await;
    assert_eq!(
        store.claim_due(&places, 1_000, 1_000, 10).await.unwrap(),
        [first.id, second.id, third.id]
    );
}

/// A claim keeps every other process off the game until its lease ends; then another takes
/// it over. Saving the game releases the claim at once.
async fn a_claim_holds_until_its_lease_ends_or_the_game_is_saved(db: &support::TestDb) {
    let (one, two) = (db.store.clone(), db.another_process().await);
    let places = Places::starting_with("lease:");
    let mut game = insert(one.as_ref(), match_due("lease:1", 100)).await;

    assert_eq!(one.claim_due(&places, 100, 1_000, 10).await.unwrap(), [game.id]);
    for now in [100, 500, 1_099] {
        assert_eq!(
            two.claim_due(&places, now, 1_000, 10).await.unwrap(),
            Vec::<GameId>::new(),
            "held by the first process at {now}"
        );
    }
    assert_eq!(
        one.claim_due(&places, 500, 1_000, 10).await.unwrap(),
        Vec::<GameId>::new(),
        "a claim is not taken twice, even by its holder"
    );
    assert_eq!(
        two.earliest_deadline(&places).await.unwrap(),
        Some(1_100),
        "a claimed game is looked at again when its lease ends"
    );
    assert_eq!(
        two.claim_due(&places, 1_100, 1_000, 10).await.unwrap(),
        [game.id],
        "the lease has ended: the second process takes over"
    );
    assert_eq!(
        one.claim_due(&places, 1_200, 1_000, 10).await.unwrap(),
        Vec::<GameId>::new(),
        "now held by the second process until 2,100"
    );
    assert_eq!(one.earliest_deadline(&places).await.unwrap(), Some(2_100));

    // Saving the game (still due) releases the claim.
    save(two.as_ref(), &mut game).await;
    assert_eq!(one.earliest_deadline(&places).await.unwrap(), Some(100));
    assert_eq!(one.claim_due(&places, 1_200, 1_000, 10).await.unwrap(), [game.id]);

    // A save that moves the deadline moves it for everyone.
    game.deathmatch.as_mut().unwrap().colours_due = 5_000;
    save(one.as_ref(), &mut game).await;
    assert_eq!(two.earliest_deadline(&places).await.unwrap(), Some(5_000));
    assert_eq!(
        two.claim_due(&places, 4_999, 1_000, 10).await.unwrap(),
        Vec::<GameId>::new()
    );
    assert_eq!(two.claim_due(&places, 5_000, 1_000, 10).await.unwrap(), [game.id]);

    // A game no longer waiting (finished) has no deadline left to claim.
    game.status = GameStatus::Cancelled;
    save(two.as_ref(), &mut game).await;
    assert_eq!(one.earliest_deadline(&places).await.unwrap(), None);
    assert_eq!(
        one.claim_due(&places, 1_000_000, 1_000, 10).await.unwrap(),
        Vec::<GameId>::new()
    );
}

/// Two processes claiming the same due games at once, in batches: every game is claimed by
/// exactly one of them.
async fn racing_processes_claim_each_due_game_exactly_once(db: &support::TestDb) {
    let places = Places::starting_with("race:");
    let mut all = BTreeSet::new();
    for i in 0..40 {
        all.insert(
            insert(db.store.as_ref(), match_due(&format!("race:{i}"), 100 + i))
                .await
                .id,
        );
    }
    let processes: [Arc<dyn Store>; 2] = [db.store.clone(), db.another_process().await];
    let runs = processes.map(|store| {
        let places = places.clone();
        tokio::spawn(async move {
            let mut claimed = Vec::new();
            loop {
                let batch = store.claim_due(&places, 1_000, 60_000, 3).await.unwrap();
                if batch.is_empty() {
                    return claimed;
                }
                claimed.extend(batch);
                tokio::task::yield_now().await;
            }
        })
    });
    let mut claimed = Vec::new();
    let mut per_process = Vec::new();
    for run in runs {
        let mine = run.await.unwrap();
        per_process.push(mine.len());
        claimed.extend(mine);
    }
    let distinct = set(claimed.iter().copied());
    assert_eq!(claimed.len(), 40, "no game claimed twice ({per_process:?})");
    assert_eq!(distinct, all, "every due game claimed");
    eprintln!("due games claimed per process on {}: {per_process:?}", db.name);
}

/// When a scheduler should look next: the earliest deadline at its places, a claimed game's
/// counted from its lease's end when that is later; none when nothing waits.
async fn the_earliest_deadline_counts_claims_from_their_lease(store: &dyn Store) {
    let places = Places::starting_with("next:");
    assert_eq!(store.earliest_deadline(&places).await.unwrap(), None);
    insert(store, challenge_at("next:1")).await;
    assert_eq!(
        store.earliest_deadline(&places).await.unwrap(),
        None,
        "a game without a deadline"
    );
    insert(store, match_due("nextdoor:1", 10)).await;
    let soon = insert(store, match_due("next:2", 400)).await;
    insert(store, match_due("next:3", 700)).await;
    assert_eq!(store.earliest_deadline(&places).await.unwrap(), Some(400));
    // Claimed when due, for 200 ms: it counts from its lease's end, 600.
    assert_eq!(store.claim_due(&places, 400, 200, 1).await.unwrap(), [soon.id]);
    assert_eq!(store.earliest_deadline(&places).await.unwrap(), Some(600));
    assert_eq!(store.claim_due(&places, 650, 1_000, 1).await.unwrap(), [soon.id]);
    assert_eq!(
        store.earliest_deadline(&places).await.unwrap(),
        Some(700),
        "the other game's deadline comes before the new lease ends"
    );
}

/// The Death Matches whose time runs at the places: choosing colours or playing; not other
/// games, not finished matches, not other places'.
async fn running_matches_are_the_death_matches_playing_or_choosing(store: &dyn Store) {
    let places = Places::starting_with("show:");
    let choosing = insert(store, match_due("show:1", 100)).await;
    let mut playing = insert(store, match_due("show:2", 100)).await;
    playing.status = GameStatus::Active;
    playing.players = Some([user("alice"), user("bob")]);
    save(store, &mut playing).await;
    let mut finished = insert(store, match_due("show:3", 100)).await;
    finished.status = GameStatus::Active;
    save(store, &mut finished).await;
    finished.status = GameStatus::Finished;
    save(store, &mut finished).await;
    let mut ordinary = insert(store, challenge_at("show:4")).await;
    ordinary.status = GameStatus::Active;
    save(store, &mut ordinary).await;
    insert(store, match_due("elsewhere:show", 100)).await;

    assert_eq!(
        set(store.running_matches(&places).await.unwrap()),
        set([choosing.id, playing.id])
    );
    assert_eq!(store.running_matches(&places).await.unwrap().len(), 2);
    assert_eq!(
        store.running_matches(&Places::starting_with("nowhere:")).await.unwrap(),
        Vec::<GameId>::new()
    );
}

/// A heartbeat returns the beat before it, per places.
async fn a_heartbeat_returns_the_beat_before_it(store: &dyn Store) {
    let (discord, local) = (Places::starting_with("beat:"), Places::starting_with("beatlocal"));
    assert_eq!(store.heartbeat(&discord, 1_000).await.unwrap(), None, "the first beat");
    assert_eq!(store.heartbeat(&discord, 2_000).await.unwrap(), Some(1_000));
    assert_eq!(
        store.heartbeat(&local, 5_000).await.unwrap(),
        None,
        "other places beat on their own"
    );
    assert_eq!(store.heartbeat(&discord, 9_000).await.unwrap(), Some(2_000));
    assert_eq!(store.heartbeat(&local, 6_000).await.unwrap(), Some(5_000));
    // The record is the last beat written, even one earlier in time (a clock set back).
    assert_eq!(store.heartbeat(&discord, 8_000).await.unwrap(), Some(9_000));
    assert_eq!(store.heartbeat(&discord, 8_500).await.unwrap(), Some(8_000));
}

/// Two processes beating at once never both see the same previous beat: one sees the beat
/// before both, the other the first one's.
async fn two_processes_beating_at_once_see_different_previous_beats(db: &support::TestDb) {
    let places = Places::starting_with("twobeats:");
    let processes: [Arc<dyn Store>; 2] = [db.store.clone(), db.another_process().await];
    assert_eq!(db.store.heartbeat(&places, 0).await.unwrap(), None);
    let mut last = 0;
    for round in 1..=20_i64 {
        let nows = [round * 1_000, round * 1_000 + 500];
        let beats = [0, 1].map(|i| {
            let (store, places) = (processes[i].clone(), places.clone());
            tokio::spawn(async move { store.heartbeat(&places, nows[i]).await.unwrap() })
        });
        let mut seen = Vec::new();
        for beat in beats {
            seen.push(beat.await.unwrap());
        }
        // Whichever went first saw the last round's beat; the other saw the first one's.
        let expected = if seen[0] == Some(last) {
            [Some(last), Some(nows[0])]
        } else {
            [Some(nows[1]), Some(last)]
        };
        assert_eq!(seen, expected, "round {round}: previous beats seen {seen:?}");
        last = if seen[0] == Some(last) { nows[1] } else { nows[0] };
    }
    assert_eq!(db.store.heartbeat(&places, 100_000).await.unwrap(), Some(last));
}

/// Downtime concerns the games at locations of its places (a location starting with them), and
/// is listed when it ended after the given time, oldest first.
async fn downtimes_are_listed_per_places_oldest_first(store: &dyn Store) {
    let down = Places::starting_with("down:");
    store.record_downtime(&down, 500, 900).await.unwrap();
    store.record_downtime(&down, 100, 200).await.unwrap();
    store.record_downtime(&down, 300, 400).await.unwrap();
    store
        .record_downtime(&Places::starting_with("other:"), 150, 250)
        .await
        .unwrap();
    let room = Place::new("down:room-7");
    assert_eq!(
        store.downtimes(&room, 0).await.unwrap(),
        [(100, 200), (300, 400), (500, 900)]
    );
    assert_eq!(
        store.downtimes(&room, 200).await.unwrap(),
        [(300, 400), (500, 900)],
        "a stretch that ended at the given time is over"
    );
    assert_eq!(store.downtimes(&room, 899).await.unwrap(), [(500, 900)]);
    assert_eq!(store.downtimes(&room, 900).await.unwrap(), Vec::<(i64, i64)>::new());
    assert_eq!(
        store.downtimes(&Place::new("other:room"), 0).await.unwrap(),
        [(150, 250)]
    );
    assert_eq!(
        store.downtimes(&Place::new("down"), 0).await.unwrap(),
        Vec::<(i64, i64)>::new(),
        "a location shorter than the places' prefix is not theirs"
    );
    assert_eq!(
        store.downtimes(&Place::new("downstairs:1"), 0).await.unwrap(),
        Vec::<(i64, i64)>::new()
    );
}

on_each_database!(
    store: due_games_are_claimed_earliest_first_within_places_and_limit,
    db: a_claim_holds_until_its_lease_ends_or_the_game_is_saved,
    db: racing_processes_claim_each_due_game_exactly_once,
    store: the_earliest_deadline_counts_claims_from_their_lease,
    store: running_matches_are_the_death_matches_playing_or_choosing,
    store: a_heartbeat_returns_the_beat_before_it,
    db: two_processes_beating_at_once_see_different_previous_beats,
    store: downtimes_are_listed_per_places_oldest_first,
    store: one_claim_returns_its_games_earliest_first,
);

/// Two schedulers (two processes) giving the very first beat of some places at once: one of
/// them beats first and sees none before it, the other sees that beat, never both none (on
/// PostgreSQL there is no row to lock yet, so the store serializes the beats otherwise).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_first_beats_at_once_are_one_after_the_other() {
    for db in support::databases().await {
        eprintln!("first beats on {}", db.name);
        let other = db.another_process().await;
        for round in 0..20 {
            let places = Places::starting_with(format!("first{round}:"));
            let (mine, theirs) = (places.clone(), places.clone());
            let (store, other) = (db.store.clone(), other.clone());
            let a = tokio::spawn(async move { store.heartbeat(&mine, 1_000).await.unwrap() });
            let b = tokio::spawn(async move { other.heartbeat(&theirs, 2_000).await.unwrap() });
            let mut seen = [a.await.unwrap(), b.await.unwrap()];
            seen.sort();
            assert!(
                seen == [None, Some(2_000)] || seen == [None, Some(1_000)],
                "round {round} on {}: {seen:?}",
                db.name
            );
        }
    }
}
