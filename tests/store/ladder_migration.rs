//! Ratings kept before they belonged to servers (one ladder for every server, schema version 10)
//! move to per-server ladders when a release with ladders first opens the database: each server's
//! ladder is its own rated games replayed in the order they ended. Nothing is lost (every rated
//! game counts on its own server's ladder, the old table stays as it was) and nothing is invented
//! (no ladder holds another server's games). The fixture (tests/fixtures/ladders/v10.json) holds
//! rows as schema 10 kept them.

use super::stored_fixtures::insert;
use crate::support::{EarlierDb, Pool, earlier_databases};
use arbiter::ids::{ServerId, UserId};
use arbiter::ratings::{RatedResult, Rating, ladders};
use arbiter_engine::{Seat, VariantId};
use serde_json::Value;
use std::collections::BTreeMap;

/// The schema before ladders.
const BEFORE_LADDERS: i64 = 10;

fn fixture() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ladders/v10.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn user(name: &str) -> UserId {
    UserId::new(format!("test:{name}"))
}

fn server(number: u32) -> Option<ServerId> {
    Some(ServerId::new(format!("discord-guild:{number}")))
}

/// An old rating row: (user, variant, rating, deviation, volatility, games, wins, draws, losses,
/// updated_at).
type OldRating = (String, String, f64, f64, f64, i64, i64, i64, i64, i64);

const SELECT_OLD: &str = "SELECT user_id, variant, rating, deviation, volatility, games, wins, draws, losses, \
     updated_at FROM ratings ORDER BY user_id, variant";
const INSERT_OLD: &str = "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games, wins, \
     draws, losses, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/// Writes the fixture's rows as schema 10 kept them.
async fn write_fixture(db: &EarlierDb, fixture: &Value) {
    for game in fixture["games"].as_array().unwrap() {
        insert(&db.pool, "games", game["game"].as_object().unwrap()).await;
        let id = game["game"]["id"].clone();
        for entry in game["log"].as_array().unwrap() {
            let mut row = entry.as_object().unwrap().clone();
            row.insert("game_id".into(), id.clone());
            insert(&db.pool, "game_log", &row).await;
        }
    }
    for old in fixture["ratings"].as_array().unwrap() {
        let old: OldRating = serde_json::from_value(old.clone()).unwrap();
        macro_rules! bind {
            ($query:expr) => {
                $query
                    .bind(old.0.clone())
                    .bind(old.1.clone())
                    .bind(old.2)
                    .bind(old.3)
                    .bind(old.4)
                    .bind(old.5)
                    .bind(old.6)
                    .bind(old.7)
                    .bind(old.8)
                    .bind(old.9)
            };
        }
        match &db.pool {
            Pool::Sqlite(pool) => bind!(sqlx::query(INSERT_OLD)).execute(pool).await.map(|_| ()),
            Pool::Postgres(pool) => bind!(sqlx::query(INSERT_OLD)).execute(pool).await.map(|_| ()),
        }
        .unwrap();
    }
}

async fn old_ratings(pool: &Pool) -> Vec<OldRating> {
    match pool {
        Pool::Sqlite(pool) => sqlx::query_as(SELECT_OLD).fetch_all(pool).await.unwrap(),
        Pool::Postgres(pool) => sqlx::query_as(SELECT_OLD).fetch_all(pool).await.unwrap(),
    }
}

/// The fixture's rated results as the games say them (each a chess or Garden game that Black or
/// White won), in the order they ended: game 101 was saved again after it ended, so its last
/// save is not its end.
fn results_in_order() -> Vec<(RatedResult, i64)> {
    let t = 1_700_100_000_000;
    let result = |server, variant, white: &str, black: &str, winner| RatedResult {
        server,
        variant,
        players: [user(white), user(black)],
        winner: Some(winner),
    };
    vec![
        (result(server(1), VariantId::Chess, "alice", "bob", Seat::Second), t),
        (
            result(server(2), VariantId::Chess, "carol", "alice", Seat::Second),
            t + 1000,
        ),
        (
            result(server(1), VariantId::Garden, "bob", "alice", Seat::First),
            t + 2000,
        ),
        (result(None, VariantId::Chess, "alice", "bob", Seat::Second), t + 3000),
        // Game 105 was unrated: it moves nothing.
        (
            result(server(1), VariantId::Chess, "alice", "bob", Seat::Second),
            t + 5000,
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_of_before_move_to_each_servers_ladder_rebuilt_from_its_own_rated_games() {
    let fixture = fixture();
    for earlier in earlier_databases(BEFORE_LADDERS).await {
        let name = earlier.name;
        write_fixture(&earlier, &fixture).await;
        let before = old_ratings(&earlier.pool).await;
        let db = earlier.open().await;
        let store = db.store.as_ref();

        // Each ladder is exactly its own server's results replayed in the order they ended.
        let expected = ladders(results_in_order());
        for want in &expected {
            let got = store
                .rating(want.server.as_ref(), &want.user, want.variant)
                .await
                .unwrap();
            assert_eq!(got.as_ref(), Some(want), "{name}: {:?} {}", want.server, want.user);
        }
        let alice_home = store.ratings_of(server(1).as_ref(), &user("alice")).await.unwrap();
        assert_eq!(
            alice_home
                .iter()
                .map(|r| (r.variant, r.games, r.losses))
                .collect::<Vec<_>>(),
            vec![(VariantId::Chess, 2, 2), (VariantId::Garden, 1, 1)],
            "{name}: alice's two chess losses and a Garden loss on server 1, not the unrated game"
        );
        let alice_away = store.ratings_of(server(2).as_ref(), &user("alice")).await.unwrap();
        assert_eq!((alice_away.len(), alice_away[0].wins), (1, 1), "{name}: {alice_away:?}");
        assert!(
            store
                .ratings_of(server(2).as_ref(), &user("bob"))
                .await
                .unwrap()
                .is_empty(),
            "{name}: bob never played on server 2"
        );
        let board = store
            .leaderboard(server(1).as_ref(), VariantId::Chess, 10)
            .await
            .unwrap();
        assert_eq!(
            board.iter().map(|r| r.user.clone()).collect::<Vec<_>>(),
            vec![user("bob"), user("alice")],
            "{name}: carol, who played only on server 2, is not on server 1's ladder"
        );

        // Nothing lost, nothing invented: per player and game, the ladders' games add up to the
        // one ladder's of before, which stays as it was.
        let mut counted: BTreeMap<(String, String), (i64, i64, i64, i64)> = BTreeMap::new();
        for rating in &expected {
            let entry = counted
                .entry((rating.user.as_str().to_string(), rating.variant.as_str().to_string()))
                .or_default();
            entry.0 += rating.games;
            entry.1 += rating.wins;
            entry.2 += rating.draws;
            entry.3 += rating.losses;
        }
        let old: BTreeMap<(String, String), (i64, i64, i64, i64)> = before
            .iter()
            .map(|r| ((r.0.clone(), r.1.clone()), (r.5, r.6, r.7, r.8)))
            .collect();
        assert_eq!(counted, old, "{name}");
        assert_eq!(
            old_ratings(&db.pool).await,
            before,
            "{name}: the ratings of before are kept"
        );

        // Opened again (a restart, another process), nothing is rebuilt twice.
        let again = db.another_process().await;
        for want in &expected {
            let got = again
                .rating(want.server.as_ref(), &want.user, want.variant)
                .await
                .unwrap();
            assert_eq!(got.as_ref(), Some(want), "{name}");
        }
    }
}

/// The fixture's old table is what the one ladder of before made of these results: the same
/// results replayed with no server told apart.
#[test]
fn the_fixtures_ratings_of_before_are_the_one_ladder_of_every_result() {
    let one_ladder = ladders(
        results_in_order()
            .into_iter()
            .map(|(result, at)| (RatedResult { server: None, ..result }, at)),
    );
    let fixture = fixture();
    let stored: Vec<OldRating> = serde_json::from_value(fixture["ratings"].clone()).unwrap();
    let made: Vec<OldRating> = one_ladder
        .iter()
        .map(|r: &Rating| {
            (
                r.user.as_str().to_string(),
                r.variant.as_str().to_string(),
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.updated_at,
            )
        })
        .collect();
    // JSON keeps a float to within its last bit.
    let close = |a: &OldRating, b: &OldRating| {
        (&a.0, &a.1, a.5, a.6, a.7, a.8, a.9) == (&b.0, &b.1, b.5, b.6, b.7, b.8, b.9)
            && [(a.2, b.2), (a.3, b.3), (a.4, b.4)]
                .iter()
                .all(|(x, y)| (x - y).abs() < 1e-9)
    };
    assert_eq!(stored.len(), made.len());
    assert!(
        stored.iter().zip(&made).all(|(a, b)| close(a, b)),
        "{stored:?}\n{made:?}"
    );
}
