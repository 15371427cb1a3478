//! Nothing can lose a game: concurrent submissions apply once, racing players lose no update, and
//! requests cut off at any point leave each game before or after an action, never between.

use crate::support;
use crate::support::{alice, bob, started};
use arbiter::arena::{ArenaError, OfferResponse};
use arbiter::ids::GameId;
use arbiter::model::rebuild;
use arbiter_engine::{Game, VariantId, Viewer};
use std::sync::Arc;

/// The state stored for a game equals the state its log rebuilds. The game and its log are read
/// separately, so the pair is re-read until no commit landed between the two reads.
async fn assert_consistent(arena: &support::TestArena, id: GameId) {
    loop {
        let game = arena.store().game(id).await.unwrap().unwrap();
        let log = arena.store().log(id).await.unwrap();
        let again = arena.store().game(id).await.unwrap().unwrap();
        if again.version != game.version {
            continue;
        }
        let rebuilt = rebuild(&game.setup, &log).unwrap();
        assert_eq!(rebuilt, game.state, "game {id}: snapshot and log disagree");
        return;
    }
}

/// `count` chess games started, alice against bob.
async fn chess_games(arena: &support::TestArena, count: usize) -> Vec<GameId> {
    let mut games = Vec::new();
    for _ in 0..count {
        games.push(started(arena, VariantId::Chess).await);
    }
    games
}

/// Waits until a cut-off request can no longer land: a dropped future may leave a statement
/// running on the database's side (SQLite's worker thread finishes what it started), so the
/// version must stay put for a while.
async fn settle(arena: &support::TestArena, id: GameId, quiet: std::time::Duration) {
    let mut version = arena.store().game(id).await.unwrap().unwrap().version;
    loop {
        tokio::time::sleep(quiet).await;
        let now = arena.store().game(id).await.unwrap().unwrap().version;
        if now == version {
            return;
        }
        version = now;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_submissions_of_one_move_apply_exactly_once() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let id = started(&arena, VariantId::Chess).await;
        let tasks: Vec<_> = (0..50)
            .map(|_| {
                let arena = arena.clone();
                tokio::spawn(async move { arena.play().act(id, &alice(), "e4").await })
            })
            .collect();
        let mut applied = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(_) => applied += 1,
                Err(ArenaError::NotYourTurn(_)) => {}
                Err(other) => panic!("{}: unexpected {other:?}", db.name),
            }
        }
        assert_eq!(applied, 1, "{}", db.name);
        let log = arena.store().log(id).await.unwrap();
        assert_eq!(log.len(), 1, "{}", db.name);
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.version, 3, "created, accepted, one move");
        assert_consistent(&arena, id).await;
    }
}

/// A short game both players push through at once, each retrying until it is their turn.
const GAME: [&str; 12] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_players_racing_on_many_games_never_lose_an_update() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let games = chess_games(&arena, 8).await;
        let successes = Arc::new(std::sync::atomic::AtomicI64::new(0));
        let mut tasks = Vec::new();
        for &id in &games {
            for (player, parity) in [(alice(), 0), (bob(), 1)] {
                let (arena, successes) = (arena.clone(), successes.clone());
                tasks.push(tokio::spawn(async move {
                    for text in GAME.iter().skip(parity).step_by(2) {
                        loop {
                            match arena.play().act(id, &player, text).await {
                                Ok(_) => break,
                                Err(ArenaError::NotYourTurn(_)) => tokio::task::yield_now().await,
                                Err(other) => panic!("{text}: {other:?}"),
                            }
                        }
                        successes.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        // A draw offer racing the opponent's move: either order is fine, none is lost.
                        if arena.play().draw(id, &player, OfferResponse::Offer).await.is_ok() {
                            successes.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                }));
            }
        }
        for task in tasks {
            task.await.unwrap();
        }
        let mut versions = 0;
        for &id in &games {
            let game = arena.store().game(id).await.unwrap().unwrap();
            let record: Vec<String> = game
                .state
                .view(Viewer::Spectator)
                .record
                .into_iter()
                .map(|e| e.text)
                .collect();
            let expected: Vec<String> = GAME.iter().map(|m| m.to_string()).collect();
            assert_eq!(record, expected, "{}: every move is there, in order", db.name);
            assert_consistent(&arena, id).await;
            versions += game.version - 2;
        }
        assert_eq!(
            versions,
            successes.load(std::sync::atomic::Ordering::SeqCst),
            "every success is one version step"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn requests_cut_off_at_any_point_leave_every_game_whole() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let games = chess_games(&arena, 6).await;
        // Requests are cancelled after delays spread over twice the time one takes here, which
        // drops them at every await point: before the read, mid-transaction (rolled back), or
        // after commit.
        let spare = started(&arena, VariantId::Chess).await;
        let timer = std::time::Instant::now();
        arena.play().act(spare, &alice(), "e4").await.unwrap();
        let typical = timer.elapsed();
        let mut cut_before_commit = 0;
        let mut cut_off = 0;
        for (round, &text) in GAME.iter().enumerate() {
            for (index, &id) in games.iter().enumerate() {
                let player = if round % 2 == 0 { alice() } else { bob() };
                let arena_for_task = arena.clone();
                let task = tokio::spawn(async move { arena_for_task.play().act(id, &player, text).await });
                let eighths = ((round * 7 + index * 3) % 17) as u32;
                tokio::time::sleep(typical * eighths / 8).await;
                task.abort();
                cut_off += usize::from(task.await.is_err_and(|error| error.is_cancelled()));
                assert_consistent(&arena, id).await;
                settle(&arena, id, typical * 4 + std::time::Duration::from_millis(5)).await;
                assert_consistent(&arena, id).await;
                // Whatever happened, the move is either played or not, and it can be played now.
                let game = arena.store().game(id).await.unwrap().unwrap();
                let played = game.state.view(Viewer::Spectator).record.len();
                assert!(
                    played == round || played == round + 1,
                    "{}: {played} plies after round {round}",
                    db.name
                );
                cut_before_commit += usize::from(played == round);
                if played == round {
                    let player = if round % 2 == 0 { alice() } else { bob() };
                    if let Err(error) = arena.play().act(id, &player, text).await {
                        // Only one thing may have beaten us to it: the cut-off request landing
                        // later than the quiet spell allowed for (the machine was busy).
                        let game = arena.store().game(id).await.unwrap().unwrap();
                        let now = game.state.view(Viewer::Spectator).record.len();
                        assert_eq!(now, round + 1, "{}: {error}", db.name);
                    }
                }
            }
        }
        eprintln!(
            "{}: {cut_off} of {} requests were cut off before they answered, {cut_before_commit} before they \
             committed (a save once begun runs to its end)",
            db.name,
            GAME.len() * games.len()
        );
        // The test did cut requests off mid-way (their callers never heard back).
        assert!(cut_off > 0, "{}: no request was cut off", db.name);
        for &id in &games {
            assert_consistent(&arena, id).await;
            let log = arena.store().log(id).await.unwrap();
            assert_eq!(log.len(), GAME.len(), "{}", db.name);
        }
    }
}
