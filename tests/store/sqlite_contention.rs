//! The embedded database under the load of a real session: a scheduler firing deadlines and
//! beating its heartbeat while several players move, everyone on one SQLite file through
//! connections of their own (the terminal and its scheduler, or two processes). No write may fail
//! with "database is locked" (SQLite's busy snapshot, code 517, among them), and nothing written
//! may be lost.

use crate::support;
use arbiter::arena::ChallengeRequest;
use arbiter::clock::{Clock, TimeControl};
use arbiter::ids::{GameId, Places, UserId};
use arbiter::model::{GameSetup, GameStatus, WhitePlayer};
use arbiter::scheduler::Scheduler;
use arbiter_engine::{EndReason, Game, VariantId};
use std::sync::Arc;

/// Twenty plies of an ordinary Italian game, none of them repeating a position.
const OPENING: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6", "O-O", "O-O", "h3", "h6", "a4", "a5", "Re1",
    "Re8", "Nbd2", "Be6",
];

/// Players who move in turn in their own game.
const MOVERS: usize = 6;
/// Games nobody moves in, lost on time while the others play.
const IDLE: usize = 4;

async fn game(arena: &support::TestArena, white: &UserId, black: &UserId, control: &str) -> GameId {
    let request = ChallengeRequest {
        control: Some(TimeControl::parse(control).unwrap()),
        ..ChallengeRequest::untimed(black, GameSetup::new(VariantId::Chess), WhitePlayer::Challenger, "room")
    };
    let id = arena
        .challenges()
        .challenge(white, request)
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, black).await.unwrap();
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduler_and_several_players_share_one_sqlite_file_and_nothing_fails_or_is_lost() {
    let db = support::sqlite().await;
    let (players_arena, clock) = support::arena(&db);
    // The scheduler has a store of its own on the same file, as in `arbiter local`.
    let scheduler_arena = support::TestArena::new(db.another_process().await, clock.clone() as Arc<dyn Clock>);

    let mut moving = Vec::new();
    for pair in 0..MOVERS {
        let (white, black) = (
            UserId::new(format!("test:white{pair}")),
            UserId::new(format!("test:black{pair}")),
        );
        moving.push((game(&players_arena, &white, &black, "1d").await, white, black));
    }
    let mut idle = Vec::new();
    for pair in 0..IDLE {
        let (white, black) = (
            UserId::new(format!("test:idle-white{pair}")),
            UserId::new(format!("test:idle-black{pair}")),
        );
        idle.push(game(&players_arena, &white, &black, "1m").await);
    }

    // Every player moves as fast as the store lets them, each game in a task of its own.
    let mut tasks = Vec::new();
    for (id, white, black) in moving.clone() {
        let arena = players_arena.clone();
        tasks.push(tokio::spawn(async move {
            for (ply, text) in OPENING.iter().enumerate() {
                let mover = if ply % 2 == 0 { &white } else { &black };
                arena
                    .play()
                    .act(id, mover, text)
                    .await
                    .map_err(|error| format!("game #{id}, {text}: {error}"))?;
            }
            Ok::<(), String>(())
        }));
    }
    // Meanwhile time passes in steps of ten seconds, and after each the scheduler beats and fires
    // whatever fell due (the idle games' flags after a minute).
    let scheduler = Scheduler::new(scheduler_arena.arena(), Places::starting_with("room"));
    let passes = {
        let clock = clock.clone();
        tokio::spawn(async move {
            let mut fired = Vec::new();
            for _ in 0..30 {
                clock.advance(10_000);
                scheduler_arena
                    .store()
                    .heartbeat(&Places::starting_with("room"), scheduler_arena.now())
                    .await
                    .map_err(|error| format!("heartbeat: {error}"))?;
                fired.extend(
                    scheduler
                        .run_once()
                        .await
                        .map_err(|error| format!("scheduler: {error}"))?,
                );
                tokio::task::yield_now().await;
            }
            Ok::<_, String>(fired)
        })
    };

    for task in tasks {
        task.await
            .unwrap()
            .unwrap_or_else(|error| panic!("a move failed: {error}"));
    }
    let fired = passes.await.unwrap().unwrap_or_else(|error| panic!("{error}"));

    // Every move the players were told about is stored, in order.
    for (id, _, _) in &moving {
        let log = players_arena.store().log(*id).await.unwrap();
        assert_eq!(log.len(), OPENING.len(), "game #{id}: {log:?}");
        let row = players_arena.store().game(*id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Active, "game #{id}");
    }
    // Every idle game was lost on time, and announced once.
    for id in &idle {
        let row = players_arena.store().game(*id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished, "game #{id}");
        assert_eq!(row.state.outcome().unwrap().reason, EndReason::Timeout, "game #{id}");
        let announced = fired
            .iter()
            .filter(|effects| {
                effects
                    .posts
                    .iter()
                    .any(|p| p.text.contains(&format!("#{id}")) && p.text.contains("ran out of time"))
            })
            .count();
        assert_eq!(announced, 1, "game #{id}'s flag announced once");
    }
}
