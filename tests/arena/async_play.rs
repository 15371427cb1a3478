//! Games that stay alive: time controls for every game, reminders as each player wishes, the
//! time the bot was down charged to nobody, abandoned games claimed, and ratings moved exactly
//! once per result, all with a clock the tests control.

use crate::support;
use crate::support::{TestArena, accepted, alice, asking, bob, carol, play_moves, post_texts, press, timed, to_bob};
use arbiter::arena::{ABANDONED_AFTER_MS, ArenaError, Button, Caller, Effects, MatchRequest};
use arbiter::clock::{DAY_MS, HOUR_MS, MINUTE_MS, ManualClock, TimeControl};
use arbiter::ids::{GameId, Place, Places, UserId};
use arbiter::model::{GameSetup, GameStatus, Reminders, UserSettings, WhitePlayer};
use arbiter::scheduler::Scheduler;
use arbiter_engine::{EndReason, Game, Seat, VariantId};
use std::sync::Arc;

/// A game of `variant` under `control` (none: untimed), alice first, accepted by bob.
async fn game(arena: &support::TestArena, variant: VariantId, control: Option<&str>) -> GameId {
    let untimed = to_bob(GameSetup::new(variant), WhitePlayer::Challenger);
    let request = match control {
        Some(control) => timed(untimed, control),
        None => untimed,
    };
    accepted(arena, request).await
}

/// `user` asks for a rematch of game `id` from `place`.
async fn ask_for_rematch(arena: &TestArena, id: GameId, user: &UserId, place: &str) -> Result<Effects, ArenaError> {
    arena.challenges().rematch(id, &asking(user), &Place::new(place)).await
}

fn mentioned(effects: &[Effects]) -> Vec<UserId> {
    effects
        .iter()
        .flat_map(|e| e.posts.iter().flat_map(|p| p.mentions.clone()))
        .collect()
}

#[tokio::test]
async fn a_correspondence_game_is_lost_on_time_after_reminders_at_half_time_and_the_last_hour() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
        let id = game(&arena, VariantId::Chess, Some("3d")).await;
        clock.advance(HOUR_MS);
        play_moves(&arena, id, &[(&alice(), "e4")]).await;
        // bob has three days from now.
        clock.advance(36 * HOUR_MS - 1);
        assert!(scheduler.run_once().await.unwrap().is_empty(), "{}", db.name);
        clock.advance(1);
        let half = scheduler.run_once().await.unwrap();
        assert_eq!(mentioned(&half), [bob()], "{}", db.name);
        let text = post_texts(&half).join("\n");
        assert!(text.contains("1 day 12 hours left for your move in game #"), "{text}");
        let countdown = half[0].posts[0].countdown.clone().expect("a countdown to the flag");
        assert_eq!(countdown.at, arena.now() + 36 * HOUR_MS);

        clock.advance(35 * HOUR_MS);
        let last = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
        assert!(last.contains("1 hour left for your move"), "{last}");

        clock.advance(HOUR_MS);
        let flagged = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
        assert!(flagged.contains("ran out of time"), "{flagged}");
        assert!(flagged.contains("1-0") && flagged.contains("wins by time"), "{flagged}");
        let row = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished);
        let outcome = row.state.outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Some(Seat::First), EndReason::Timeout)
        );
        assert_eq!(row.next_deadline(), None, "nothing more falls due");
        assert!(scheduler.run_once().await.unwrap().is_empty());
        // The result is rated.
        let ratings = arena.store().ratings_of(None, &alice()).await.unwrap();
        assert_eq!((ratings.len(), ratings[0].wins), (1, 1), "{}", db.name);
    }
}

#[tokio::test]
async fn an_untimed_game_reminds_after_a_day_then_every_two_days_and_a_move_just_before_suppresses_it() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
        let id = game(&arena, VariantId::Chess, None).await;
        // alice moves a minute before her first reminder would have gone out.
        clock.advance(DAY_MS - MINUTE_MS);
        play_moves(&arena, id, &[(&alice(), "e4")]).await;
        clock.advance(MINUTE_MS);
        assert!(
            scheduler.run_once().await.unwrap().is_empty(),
            "{}: no reminder for a game that moved on",
            db.name
        );
        clock.advance(DAY_MS - MINUTE_MS);
        let first = scheduler.run_once().await.unwrap();
        assert_eq!(mentioned(&first), [bob()]);
        let text = post_texts(&first).join("\n");
        assert!(text.contains("has waited 1 day for your move"), "{text}");
        assert!(first[0].posts[0].countdown.is_none(), "an untimed game has no flag");
        clock.advance(2 * DAY_MS - 1);
        assert!(scheduler.run_once().await.unwrap().is_empty());
        clock.advance(1);
        let second = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
        assert!(second.contains("has waited 3 days for your move"), "{second}");
        // After a week away, one reminder, not three.
        clock.advance(6 * DAY_MS);
        let late = scheduler.run_once().await.unwrap();
        assert_eq!(post_texts(&late).len(), 1, "{}", db.name);
        assert!(post_texts(&late)[0].contains("has waited 9 days"));
    }
}

#[tokio::test]
async fn reminders_go_as_each_player_chose_and_always_leave_a_line_in_the_game() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
    let settings = arena.players().reminders(&bob(), Some(Reminders::Dm)).await.unwrap();
    assert!(settings.reply.unwrap().text.contains("a direct message"));
    assert_eq!(
        arena.store().settings(&bob()).await.unwrap(),
        UserSettings {
            reminders: Reminders::Dm
        }
    );
    let id = game(&arena, VariantId::Chess, None).await;
    play_moves(&arena, id, &[(&alice(), "e4")]).await;
    clock.advance(DAY_MS);
    let reminded = scheduler.run_once().await.unwrap();
    assert!(mentioned(&reminded).is_empty(), "no ping in the thread");
    assert!(post_texts(&reminded)[0].contains("(reminded by DM)"));
    let dm = &reminded[0].direct_messages[0];
    assert_eq!(dm.to, bob());
    assert!(dm.text.reveal().contains("has waited 1 day for your move") && dm.choices.is_empty());

    arena.players().reminders(&bob(), Some(Reminders::Off)).await.unwrap();
    clock.advance(2 * DAY_MS);
    let quiet = scheduler.run_once().await.unwrap();
    assert!(mentioned(&quiet).is_empty() && quiet[0].direct_messages.is_empty());
    assert_eq!(post_texts(&quiet).len(), 1, "the thread still gets its line");
}

#[tokio::test]
async fn a_timed_game_across_a_restart_is_charged_nothing_for_the_downtime() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let id = game(&arena, VariantId::Chess, Some("1d")).await;
        let first = Scheduler::new(arena.arena(), Places::starting_with("room"));
        first.start().await.unwrap();
        clock.advance(HOUR_MS);
        support::shut_down(&arena, first, "room").await;

        // Five hours without any scheduler, then a new process on the same database.
        clock.advance(5 * HOUR_MS);
        let (process, process_clock) = support::restarted(db.another_process().await, arena.now());
        let second = Scheduler::new(process.arena(), Places::starting_with("room"));
        second.start().await.unwrap();
        let shown = process.show(id, &asking(&alice())).await.unwrap().reply.unwrap().text;
        assert!(
            shown.contains("23:00:00"),
            "{}: one hour used, not six: {shown}",
            db.name
        );
        // The flag falls 23 hours after the restart, not 18.
        process_clock.advance(23 * HOUR_MS - 1);
        let before = post_texts(&second.run_once().await.unwrap()).join("\n");
        assert!(!before.contains("ran out of time"), "{}: {before}", db.name);
        process_clock.advance(1);
        let after = post_texts(&second.run_once().await.unwrap()).join("\n");
        assert!(after.contains("ran out of time"), "{}: {after}", db.name);
    }
}

#[tokio::test]
async fn an_abandoned_game_is_claimed_after_thirty_days_as_a_win_or_an_abort_before_the_first_move() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let id = game(&arena, VariantId::Chess, None).await;
        play_moves(&arena, id, &[(&alice(), "e4"), (&bob(), "e5"), (&alice(), "Nf3")]).await;
        clock.advance(ABANDONED_AFTER_MS - DAY_MS);
        let early = arena
            .play()
            .claim_abandoned(id, &alice())
            .await
            .unwrap_err()
            .to_string();
        assert!(
            early.contains("has waited 29 days") && early.contains("(in 1 day)"),
            "{early}"
        );
        let wrong = arena.play().claim_abandoned(id, &bob()).await.unwrap_err().to_string();
        assert!(wrong.contains("waiting for you"), "{wrong}");
        clock.advance(DAY_MS);
        let claimed = arena.play().claim_abandoned(id, &alice()).await.unwrap();
        let text = claimed.posts[0].text.clone();
        assert!(text.contains("left the game untouched for 30 days"), "{text}");
        assert!(text.contains("1-0") && text.contains("wins by abandonment"), "{text}");
        assert_eq!(arena.store().ratings_of(None, &bob()).await.unwrap()[0].losses, 1);

        // An opponent who never moved: the game is called off and rates nobody.
        let unplayed = game(&arena, VariantId::Chess, None).await;
        play_moves(&arena, unplayed, &[(&alice(), "d4")]).await;
        clock.advance(ABANDONED_AFTER_MS);
        let aborted = arena.play().claim_abandoned(unplayed, &alice()).await.unwrap();
        assert!(aborted.posts[0].text.contains("never made a move"));
        let row = arena.store().game(unplayed).await.unwrap().unwrap();
        assert_eq!(row.state.outcome().unwrap().reason, EndReason::Aborted);
        assert_eq!(
            arena.store().ratings_of(None, &bob()).await.unwrap()[0].games,
            1,
            "{}",
            db.name
        );
        assert!(matches!(
            arena.play().claim_abandoned(unplayed, &alice()).await,
            Err(ArenaError::NotActive { .. })
        ));
    }
}

#[tokio::test]
async fn a_player_who_never_makes_a_secret_choice_forfeits_on_time() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
    let id = game(&arena, VariantId::Beirut, Some("1d")).await;
    clock.advance(HOUR_MS);
    play_moves(&arena, id, &[(&alice(), "bomb:d2")]).await;
    let row = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(
        row.clock.running(),
        [Seat::Second],
        "alice's clock stopped when she chose"
    );
    clock.advance(23 * HOUR_MS);
    let flagged = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
    assert!(flagged.contains("ran out of time"), "{flagged}");
    // The bomb is revealed with the result; it never was before.
    let row = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(row.state.outcome().unwrap().winner, Some(Seat::First));
}

#[tokio::test]
async fn assault_times_each_player_separately_in_every_half_turn() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("room"));
    let id = game(&arena, VariantId::Assault, Some("1h")).await;
    // A submits at once; B takes 50 minutes: nobody runs out.
    play_moves(&arena, id, &[(&alice(), "e4")]).await;
    clock.advance(50 * MINUTE_MS);
    play_moves(&arena, id, &[(&bob(), "d4")]).await;
    assert!(scheduler.run_once().await.unwrap().iter().all(|e| e.posts.is_empty()));
    // The next half-turn gives both a fresh hour: A moves after 59 minutes, B never does.
    clock.advance(59 * MINUTE_MS);
    play_moves(&arena, id, &[(&alice(), "e5")]).await;
    clock.advance(MINUTE_MS);
    let row = arena.store().game(id).await.unwrap().unwrap();
    assert!(
        row.state.outcome().is_none(),
        "B's hour runs from the half-turn's start"
    );
    let flagged = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
    assert!(flagged.contains("ran out of time"), "{flagged}");
    let row = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(row.state.outcome().unwrap().winner, Some(Seat::First));
}

/// Two processes on one database race to end the same games (a forfeit fired by each one's
/// scheduler, a resignation through each): every result moves the ratings exactly once. On
/// SQLite (the default deployment: two processes on one file) and PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ratings_change_once_per_result_with_two_processes_racing() {
    support::racing_on_every_database("two processes racing", race_to_end_the_same_games).await;
}

async fn race_to_end_the_same_games(on: &'static str, arena: TestArena, other: TestArena, clock: Arc<ManualClock>) {
    let mut ids = Vec::new();
    for _ in 0..20 {
        ids.push(game(&arena, VariantId::Chess, Some("1d")).await);
    }
    clock.advance(DAY_MS);
    let mut tasks = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        for (process, resigns) in [(arena.clone(), i % 2 == 0), (other.clone(), i % 2 == 1)] {
            tasks.push(tokio::spawn(async move {
                if resigns {
                    // The resignation lands, or comes after the forfeit ended the game, or
                    // found the game too busy: never a fault of the store.
                    match process.play().resign(id, &alice()).await {
                        Ok(_) | Err(ArenaError::NotActive { .. }) | Err(ArenaError::Busy(_)) => {}
                        Err(error) => panic!("resigning game {id} on {on}: {error:?}"),
                    }
                }
                Scheduler::new(process.arena(), Places::starting_with("room"))
                    .run_once()
                    .await
                    .unwrap();
            }));
        }
    }
    for task in tasks {
        task.await.unwrap();
    }
    let ratings = arena.store().ratings_of(None, &bob()).await.unwrap();
    assert_eq!(ratings.len(), 1, "on {on}");
    assert_eq!(ratings[0].games, 20, "one rating change per game, on {on}");
    assert_eq!(
        ratings[0].wins, 20,
        "bob won every game (alice resigned or ran out of time), on {on}"
    );
    let alice_rating = &arena.store().ratings_of(None, &alice()).await.unwrap()[0];
    assert_eq!((alice_rating.games, alice_rating.losses), (20, 20), "on {on}");
    assert!(!alice_rating.is_provisional());
    for id in ids {
        let row = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished, "game {id} on {on}");
        let concluded = support::times_concluded(&arena, id).await;
        assert_eq!(concluded, 1, "game {id} ended once, on {on}");
    }
}

#[tokio::test]
async fn a_finished_game_offers_one_rematch_with_the_same_time_control_and_the_sides_swapped() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = game(&arena, VariantId::Circe, Some("3d")).await;
    let early = ask_for_rematch(&arena, id, &bob(), "room").await.unwrap_err();
    assert!(early.to_string().contains("not over yet"), "{early}");
    let resigned = arena.play().resign(id, &alice()).await.unwrap();
    let last = &resigned.posts[0];
    assert_eq!(last.buttons, [Button::Rematch], "the final post offers a rematch");
    let version = resigned.version.unwrap();

    let outsider = UserId::new("test:carol");
    let refused = press(&arena, id, &outsider, Button::Rematch, version, "lobby")
        .await
        .unwrap_err();
    assert!(matches!(refused, ArenaError::NotAPlayer(_)), "{refused}");

    let rematch = press(&arena, id, &bob(), Button::Rematch, version, "lobby")
        .await
        .unwrap();
    let new = rematch.game.unwrap();
    let post = &rematch.posts[0];
    assert_eq!(post.location, "lobby", "offered where the button was pressed");
    assert!(post.text.contains("Circe Chess · 3 days per move"), "{}", post.text);
    assert_eq!(post.buttons, [Button::AcceptChallenge, Button::DeclineChallenge]);
    // Pressed again, by either player: the same rematch, not a second one.
    for user in [alice(), bob()] {
        let again = press(&arena, id, &user, Button::Rematch, version, "lobby")
            .await
            .unwrap_err()
            .to_string();
        assert!(again.contains(&format!("it is game #{new}")), "{again}");
    }
    arena.challenges().accept(new, &alice()).await.unwrap();
    let row = arena.store().game(new).await.unwrap().unwrap();
    assert_eq!(
        row.player(Seat::First),
        Some(&bob()),
        "bob had Black, so now he has White"
    );
    assert_eq!(row.clock.control(Seat::First), Some(TimeControl::days_per_move(3)));
    assert_eq!(row.setup.variant, VariantId::Circe);
}

#[tokio::test]
async fn a_death_matchs_rematch_is_the_hosts_and_the_advantage_holder_chooses_again() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let host = UserId::new("test:host");
    let request = MatchRequest {
        variant: VariantId::Garden,
        players: [alice(), bob()],
        advantage: bob(),
        control: TimeControl::STANDARD,
        location: "show".into(),
        computer: None,
    };
    let id = support::opened_match(&arena, &Caller::host(&host, None), request).await;
    arena
        .matches()
        .choose_side(id, &Caller::player(&bob(), None), Seat::First)
        .await
        .unwrap();
    arena
        .matches()
        .adjudicate(id, &Caller::host(&host, None), Some(&bob()), false)
        .await
        .unwrap();
    // A player asks the host, and only the host starts it.
    let asked = ask_for_rematch(&arena, id, &alice(), "show").await.unwrap();
    assert_eq!(asked.game, Some(id), "no new game: {asked:?}");
    assert_eq!(asked.posts[0].mentions, std::slice::from_ref(&host));
    assert_eq!(asked.posts[0].buttons, [Button::Rematch]);
    assert!(
        asked.posts[0].text.contains("asks for a rematch"),
        "{}",
        asked.posts[0].text
    );
    let again = ask_for_rematch(&arena, id, &bob(), "show").await.unwrap_err();
    assert!(again.to_string().contains("has been asked"), "{again}");
    let stranger = ask_for_rematch(&arena, id, &carol(), "show").await.unwrap_err();
    assert!(stranger.to_string().contains("for its host"), "{stranger}");
    let rematch = ask_for_rematch(&arena, id, &host, "show").await.unwrap();
    let text = &rematch.posts[0].text;
    assert!(
        text.contains("Death Match") && text.contains("holds the Advantage"),
        "{text}"
    );
    // The Advantage holder chooses again; both players are pinged, each asked whether it is rated.
    assert!(
        arbiter::arena::text::plain(text).contains("bob holds the Advantage"),
        "{text}"
    );
    assert!(
        rematch.posts[0].mentions.contains(&bob()),
        "{:?}",
        rematch.posts[0].mentions
    );
}

/// A Rejection game on one day per move: bob never answers alice's proposal, the bot is down for
/// three hours on the way, and when bob's day (and not a minute of the downtime) has run out,
/// the proposal is accepted for him and the game goes on.
#[tokio::test]
async fn an_unanswered_rejection_proposal_is_accepted_at_the_deadline_across_a_restart() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let id = game(&arena, VariantId::Rejection, Some("1d")).await;
        let first = Scheduler::new(arena.arena(), Places::starting_with("room"));
        first.start().await.unwrap();
        play_moves(&arena, id, &[(&alice(), "e4")]).await;
        clock.advance(2 * HOUR_MS);
        support::shut_down(&arena, first, "room").await;

        clock.advance(3 * HOUR_MS);
        let (process, process_clock) = support::restarted(db.another_process().await, arena.now());
        let scheduler = Scheduler::new(process.arena(), Places::starting_with("room"));
        scheduler.start().await.unwrap();
        // 22 hours of bob's day are left, whatever the downtime.
        process_clock.advance(22 * HOUR_MS - 1);
        let waiting = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
        assert!(!waiting.contains("ran out of time"), "{}: {waiting}", db.name);
        process_clock.advance(1);
        let accepted = post_texts(&scheduler.run_once().await.unwrap()).join("\n");
        assert!(accepted.contains("ran out of time"), "{}: {accepted}", db.name);
        assert!(accepted.contains("accepted White's e4"), "{}: {accepted}", db.name);
        let row = process.store().game(id).await.unwrap().unwrap();
        assert!(row.state.outcome().is_none(), "the game goes on");
        assert_eq!(row.state.to_act(), [Seat::Second], "bob proposes next");
        assert!(row.state.view(arbiter_engine::Viewer::Spectator).fen().contains("4P3"));
    }
}
