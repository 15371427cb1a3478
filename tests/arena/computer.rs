//! Games against the computer through the arena and its scheduler, as a transport drives them:
//! a game begins at once and unrated, the computer answers each move (and its secret choices)
//! without a word to itself, lets a move be taken back, judges draw offers, plays a Death Match,
//! and its turn waits in the database for a scheduler started after a restart.

use crate::support;
use crate::support::{alice, asking, carol, refused};
use arbiter::arena::{Caller, ChallengeRequest, Effects, MatchRequest, OfferResponse};
use arbiter::ids::{GameId, Places, UserId};
use arbiter::model::{ComputerPlayer, GameSetup, GameStatus, LogEntry, WhitePlayer};
use arbiter::scheduler::Scheduler;
use arbiter_engine::ai::Level;
use arbiter_engine::{Game, Seat, VariantId};

fn computer() -> UserId {
    UserId::new("test:arbiter")
}

/// The computer at `level` as the opponent in a game of `variant`.
fn against_computer(variant: VariantId, level: Level) -> GameSetup {
    GameSetup {
        computer: Some(ComputerPlayer {
            user: computer(),
            level,
        }),
        ..GameSetup::new(variant)
    }
}

/// alice plays the computer at `variant`, taking the first seat when `alice_first`.
async fn practice(arena: &support::TestArena, variant: VariantId, alice_first: bool) -> (GameId, Effects) {
    let white = if alice_first {
        WhitePlayer::Challenger
    } else {
        WhitePlayer::Opponent
    };
    let request = ChallengeRequest::untimed(&computer(), against_computer(variant, Level::Easy), white, "room");
    let effects = arena.challenges().challenge(&alice(), request).await.unwrap();
    (effects.game.unwrap(), effects)
}

/// Runs the scheduler until the computer has nothing left to do in the game; what it announced.
/// Each time, the game's news is first marked shown, as a transport does once its players have it
/// (the computer answers only then, or after a few seconds).
async fn computer_plays(scheduler: &Scheduler, arena: &support::TestArena, id: GameId) -> Vec<Effects> {
    let mut announced = Vec::new();
    for _ in 0..50 {
        let version = arena.store().game(id).await.unwrap().unwrap().version;
        arena.watching().mark_shown(id, version).await.unwrap();
        announced.extend(scheduler.run_once().await.unwrap());
        announced.extend(scheduler.settle().await);
        if !arena.computer_waiting(id).await.unwrap() {
            return announced;
        }
    }
    panic!("the computer never took its turn in game #{id}");
}

fn posts(effects: &[Effects]) -> String {
    effects
        .iter()
        .flat_map(|e| e.posts.iter().map(|p| p.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Nothing goes to the computer: no private message, no ping.
fn spares_the_computer(effects: &[Effects]) {
    for effects in effects {
        assert!(
            effects.direct_messages.iter().all(|dm| dm.to != computer()),
            "{effects:?}"
        );
        assert!(
            effects.posts.iter().all(|post| !post.mentions.contains(&computer())),
            "{effects:?}"
        );
    }
}

#[tokio::test]
async fn a_game_against_the_computer_begins_at_once_unrated_and_it_answers_every_move() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
        let (id, begun) = practice(&arena, VariantId::Chess, true).await;
        let text = posts(std::slice::from_ref(&begun));
        assert!(
            text.contains("plays the computer") && text.contains("level easy, not rated"),
            "{text}"
        );
        assert_eq!(begun.own_place, Some(id), "a transport gives it a place of its own");
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.status, GameStatus::Active);
        assert!(!game.is_rated);
        assert_eq!(game.players, Some([alice(), computer()]));

        for (ply, text) in ["e4", "d4", "Nf3"].into_iter().enumerate() {
            let played = arena.play().act(id, &alice(), text).await.unwrap();
            assert!(arena.computer_waiting(id).await.unwrap(), "{}", db.name);
            let answered = computer_plays(&scheduler, &arena, id).await;
            spares_the_computer(&answered);
            spares_the_computer(&[played]);
            let said = posts(&answered);
            assert!(
                said.contains(&format!("{} played", arbiter::arena::text::user(&computer()))),
                "{said}"
            );
            let game = arena.store().game(id).await.unwrap().unwrap();
            assert_eq!(
                game.state.to_act(),
                vec![Seat::First],
                "alice's turn again after ply {ply}"
            );
            // The reply is logged as the computer's, checked by the rules as any player's is.
            let log = arena.store().log(id).await.unwrap();
            assert!(matches!(
                log.last().map(|e| &e.entry),
                Some(LogEntry::Act { seat: Seat::Second, .. })
            ));
        }
        // Nobody else may act for it, and it is nobody's to accept.
        refused(arena.play().act(id, &carol(), "e5").await, "not playing");
        refused(
            arena.challenges().accept(id, &computer()).await,
            "no longer an open challenge",
        );
    }
}

#[tokio::test]
async fn the_computer_moves_first_when_it_has_the_first_seat_and_its_rematch_is_against_it_again() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
    let (id, _) = practice(&arena, VariantId::Chess, false).await;
    computer_plays(&scheduler, &arena, id).await;
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.state.to_act(), vec![Seat::Second]);
    arena.play().resign(id, &alice()).await.unwrap();
    let rematch = arena
        .challenges()
        .rematch(id, &asking(&alice()), &"room".into())
        .await
        .unwrap();
    let new = rematch.game.unwrap();
    let game = arena.store().game(new).await.unwrap().unwrap();
    assert_eq!(
        game.status,
        GameStatus::Active,
        "the computer takes up its rematch at once"
    );
    assert_eq!(game.players, Some([alice(), computer()]), "the sides swap");
    assert_eq!(
        game.setup.computer,
        Some(ComputerPlayer {
            user: computer(),
            level: Level::Easy
        })
    );
}

#[tokio::test]
async fn the_computer_makes_its_secret_choice_unseen_and_alice_is_prompted_alone() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
        let (id, begun) = practice(&arena, VariantId::Beirut, true).await;
        let prompted: Vec<&UserId> = begun.direct_messages.iter().map(|dm| &dm.to).collect();
        assert_eq!(prompted, [&alice()], "{}", db.name);
        let chose = computer_plays(&scheduler, &arena, id).await;
        spares_the_computer(&chose);
        let log = arena.store().log(id).await.unwrap();
        let carrier = log.last().unwrap().notation.clone();
        assert!(carrier.starts_with("bomb:"), "{carrier}");
        let public = format!("{:?}", chose.iter().map(|e| &e.posts).collect::<Vec<_>>());
        assert!(public.contains("chose a bomb carrier"), "{public}");
        assert!(!public.contains(&carrier), "the carrier stays secret: {public}");
        assert!(
            chose.iter().all(|e| e.reply.is_none()),
            "nothing private of the computer's goes out"
        );
        let alices = format!("{:?}", arena.show(id, &asking(&alice())).await.unwrap().reply);
        assert!(!alices.contains(&carrier), "{alices}");
        // alice chooses hers; then she moves first.
        arena.play().act(id, &alice(), "bomb:d2").await.unwrap();
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.state.to_act(), vec![Seat::First]);
    }
}

#[tokio::test]
async fn the_computer_grants_a_takeback_and_declines_a_draw_it_need_not_take() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
    let (id, _) = practice(&arena, VariantId::Chess, true).await;
    arena.play().act(id, &alice(), "e4").await.unwrap();
    computer_plays(&scheduler, &arena, id).await;
    arena.play().act(id, &alice(), "Qh5").await.unwrap();
    computer_plays(&scheduler, &arena, id).await;

    let taken = arena.play().takeback(id, &alice(), OfferResponse::Offer).await.unwrap();
    let said = posts(std::slice::from_ref(&taken));
    assert!(said.contains("agreed to take back") && said.contains("Qh5"), "{said}");
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(
        game.state.view(arbiter_engine::Viewer::Spectator).record.len(),
        2,
        "e4 and its reply stand"
    );
    assert_eq!(game.offer, None);

    let declined = arena.play().draw(id, &alice(), OfferResponse::Offer).await.unwrap();
    let reply = declined.reply.unwrap().text;
    assert!(reply.contains("declines the draw"), "{reply}");
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!((game.status, game.offer), (GameStatus::Active, None));
}

#[tokio::test]
async fn the_computers_turn_waits_in_the_database_for_a_scheduler_started_after_a_restart() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        // No scheduler runs: the bot is down once the game is made.
        let (id, _) = practice(&arena, VariantId::Garden, false).await;
        let due = arena
            .clocks()
            .next_deadline(&Places::starting_with("room"))
            .await
            .unwrap();
        assert!(
            due.is_some_and(|due| due <= arena.now()),
            "its turn is due now: {due:?}"
        );

        // Another process comes up over the same database.
        let store = db.another_process().await;
        // It comes up a minute later.
        let (restarted, _) = support::restarted(store, arena.now() + 60_000);
        let scheduler = Scheduler::new(restarted.arena(), Places::starting_with("room"));
        let played = computer_plays(&scheduler, &restarted, id).await;
        assert!(!played.is_empty(), "its move is announced");
        let log = restarted.store().log(id).await.unwrap();
        assert!(matches!(
            log.last().map(|e| &e.entry),
            Some(LogEntry::Act { seat: Seat::First, .. })
        ));
        let game = restarted.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.state.to_act(), vec![Seat::Second], "{}", db.name);
    }
}

#[tokio::test]
async fn a_death_match_against_the_computer_holding_the_advantage_begins_at_once_and_it_moves_in_time() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
    let request = MatchRequest {
        variant: VariantId::Blockade,
        players: [alice(), computer()],
        advantage: computer(),
        control: arbiter::clock::TimeControl::STANDARD,
        location: "room".into(),
        computer: Some(ComputerPlayer {
            user: computer(),
            level: Level::Easy,
        }),
    };
    let id = arena
        .matches()
        .start(&Caller::host(&carol(), None), request)
        .await
        .unwrap()
        .game
        .unwrap();
    // The colours are drawn on the scheduler's first pass, not a minute later.
    scheduler.run_once().await.unwrap();
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.status, GameStatus::Active);
    assert!(!game.is_rated);
    if game.computer_to_act().is_some() {
        computer_plays(&scheduler, &arena, id).await;
    }
    let game = arena.store().game(id).await.unwrap().unwrap();
    let alices_seat = game.seat_of(&alice()).unwrap();
    assert_eq!(
        game.state.to_act(),
        vec![alices_seat],
        "the computer moved within its normal time"
    );
}
