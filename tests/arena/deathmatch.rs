//! Death Matches with a clock the test controls: normal time then reserve, warnings, forfeits,
//! pauses, added time, set-up turns, restarts, and schedulers racing on one database.

use crate::support;
use crate::support::{TestArena, play_in_turn, post_texts};
use arbiter::arena::text::plain;
use arbiter::arena::{ArenaError, Caller, Effects, MatchRequest};
use arbiter::clock::{GameClock, ManualClock, TimeControl};
use arbiter::ids::{GameId, Places, ServerId, UserId};
use arbiter::model::GameStatus;
use arbiter::scheduler::Scheduler;
use arbiter_engine::{EndReason, Game, Seat, VariantId};
use std::sync::Arc;

fn host() -> UserId {
    UserId::new("test:host")
}
fn red() -> UserId {
    UserId::new("test:red")
}
fn blue() -> UserId {
    UserId::new("test:blue")
}

/// The placements of a set-up (snake order: Red 1, Blue 2, Red 2, Blue 2, Red 2, Blue 1) that
/// walls Blue's pieces in, and Red's turn that closes the last gap.
const SETUP: [&str; 10] = [
    "R@f8", "Q@h8", "R@g8", "B@f6", "Q@a1", "R@h7", "B@g7", "R@a3", "B@a4", "B@h6",
];
/// The server the matches are hosted on.
fn server() -> ServerId {
    ServerId::new("test-server")
}

const LAST_TURN: &str = "Qa1-c1@g5";

/// A match of `variant` between red (holding the Advantage) and blue, at the standard times, in
/// the show's channel.
fn standard_match(variant: VariantId) -> MatchRequest {
    MatchRequest {
        variant,
        players: [red(), blue()],
        advantage: red(),
        control: TimeControl::STANDARD,
        location: "show".into(),
        computer: None,
    }
}

/// The host starts `request`: the match, its colours still to choose.
async fn open_match(arena: &support::TestArena, request: MatchRequest) -> GameId {
    support::opened_match(arena, &Caller::host(&host(), Some(&server())), request).await
}

/// `chooser` chooses the side of the Advantage holder in match `id` (on the show's server).
async fn choose(arena: &support::TestArena, id: GameId, chooser: &UserId, seat: Seat) -> Result<Effects, ArenaError> {
    arena
        .matches()
        .choose_side(id, &Caller::player(chooser, Some(&server())), seat)
        .await
}

/// A Garden of Statues match at `control`, red having chosen to move first.
async fn start(arena: &support::TestArena, control: TimeControl) -> GameId {
    let id = open_match(
        arena,
        MatchRequest {
            control,
            ..standard_match(VariantId::Garden)
        },
    )
    .await;
    choose(arena, id, &red(), Seat::First).await.unwrap();
    id
}

async fn clock_of(arena: &support::TestArena, id: GameId) -> GameClock {
    arena.store().game(id).await.unwrap().unwrap().clock
}

#[tokio::test]
async fn the_advantage_holder_chooses_colours_and_the_clock_starts() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let request = MatchRequest {
        advantage: blue(),
        ..standard_match(VariantId::Garden)
    };
    let refused = arena
        .matches()
        .start(&Caller::player(&red(), Some(&server())), request.clone())
        .await;
    assert!(refused.unwrap_err().to_string().contains("only hosts"));
    let started = arena
        .matches()
        .start(&Caller::host(&host(), Some(&server())), request)
        .await
        .unwrap();
    let id = started.game.unwrap();
    assert!(
        started.posts[0].text.contains("holds the Advantage"),
        "{}",
        started.posts[0].text
    );
    assert!(started.posts[0].countdown.is_some());
    let refused = choose(&arena, id, &red(), Seat::First).await;
    assert!(refused.unwrap_err().to_string().contains("Advantage"));
    let begun = choose(&arena, id, &blue(), Seat::First).await.unwrap();
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(
        game.player(Seat::First),
        Some(&blue()),
        "Blue holder took Red (moves first)"
    );
    assert_eq!(game.status, GameStatus::Active);
    let post = &begun.posts[0];
    assert!(post.text.contains("1:00 + 5:00 reserve"), "{}", post.text);
    assert_eq!(
        post.board.as_ref().unwrap().decor.clocks[0].as_deref(),
        Some("1:00 + 5:00 reserve")
    );
    assert_eq!(post.countdown.as_ref().unwrap().at, arena.now() + 360_000);
    let again = choose(&arena, id, &blue(), Seat::Second).await;
    assert!(again.unwrap_err().to_string().contains("settled"));
}

#[tokio::test]
async fn the_host_may_choose_and_an_unanswered_choice_is_drawn_when_due() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let request = standard_match(VariantId::Blockade);
    let by_host = open_match(&arena, request.clone()).await;
    choose(&arena, by_host, &host(), Seat::Second).await.unwrap();
    let game = arena.store().game(by_host).await.unwrap().unwrap();
    assert_eq!(
        game.player(Seat::Second),
        Some(&red()),
        "the host chose Black for the Advantage holder"
    );

    let drawn = open_match(&arena, request).await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("show"));
    assert!(scheduler.run_once().await.unwrap().is_empty());
    clock.advance(arbiter::arena::COLOUR_CHOICE_MS);
    let fired = scheduler.run_once().await.unwrap();
    let drawn_text = post_texts(&fired);
    assert!(
        drawn_text.iter().any(|t| t.contains("drawn at random")),
        "{drawn_text:?}"
    );
    let game = arena.store().game(drawn).await.unwrap().unwrap();
    assert_eq!(game.status, GameStatus::Active);
}

#[tokio::test]
async fn normal_time_comes_first_and_only_overtime_costs_reserve_with_set_up_turns_timed_alike() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    clock.advance(30_000);
    play_in_turn(&arena, id, &SETUP[..1]).await; // Red's set-up turn: one placement
    assert_eq!(clock_of(&arena, id).await.reserve_ms, [300_000, 300_000]);
    // Blue's set-up turn is two placements: the first does not stop the clock.
    clock.advance(50_000);
    play_in_turn(&arena, id, &SETUP[1..2]).await;
    let half = clock_of(&arena, id).await;
    assert_eq!(half.running(), [Seat::Second]);
    clock.advance(40_000);
    assert_eq!(
        half.left(Seat::Second, arena.now()).unwrap(),
        (0, 270_000),
        "90 s into a 60 s turn"
    );
    play_in_turn(&arena, id, &SETUP[2..3]).await;
    let after = clock_of(&arena, id).await;
    assert_eq!(after.reserve_ms, [300_000, 270_000]);
    assert_eq!(after.running(), [Seat::First]);
    assert_eq!(
        after.left(Seat::First, arena.now()).unwrap(),
        (60_000, 300_000),
        "a fresh turn"
    );
}

#[tokio::test]
async fn warnings_come_when_normal_time_ends_and_at_60_30_and_10_seconds_then_the_reserve_runs_out() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("show"));
    let mut heard = Vec::new();
    for (advance, expected) in [
        (44_999, None),
        (1, Some("0:15 of normal time left in this turn")),
        (14_999, None),
        (1, Some("your normal time is over; your reserve is running (5:00 left)")),
        (239_000, None),
        (1_000, Some("1:00 of reserve left")),
        (30_000, Some("0:30 of reserve left")),
        (20_000, Some("0:10 of reserve left")),
        (9_999, None),
    ] {
        clock.advance(advance);
        let fired = post_texts(&scheduler.run_once().await.unwrap());
        match expected {
            None => assert!(fired.is_empty(), "nothing due yet: {fired:?}"),
            Some(text) => {
                assert_eq!(fired.len(), 1, "{fired:?}");
                assert!(fired[0].contains(text), "{}", fired[0]);
            }
        }
        heard.extend(fired);
    }
    clock.advance(1);
    let flagged = scheduler.run_once().await.unwrap();
    assert!(
        post_texts(&flagged)[0].contains("ran out of time"),
        "{:?}",
        post_texts(&flagged)
    );
    let game = arena.store().game(id).await.unwrap().unwrap();
    let outcome = game.state.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::Second), EndReason::Timeout)
    );
    assert_eq!(game.next_deadline(), None);
    assert!(scheduler.run_once().await.unwrap().is_empty(), "a forfeit fires once");
    assert_eq!(heard.len(), 5);
}

#[tokio::test]
async fn a_move_after_the_reserve_ran_out_loses_on_time_instead() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    clock.advance(360_000);
    let effects = arena.play().act(id, &red(), SETUP[0]).await.unwrap();
    assert!(effects.posts[0].text.contains("ran out of time before moving"));
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.state.outcome().unwrap().reason, EndReason::Timeout);
    assert!(
        game.state.view(arbiter_engine::Viewer::Spectator).record.is_empty(),
        "the move was not played"
    );
}

#[tokio::test]
async fn a_pause_freezes_the_clocks_and_blocks_moves_until_the_host_resumes() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    let scheduler = Scheduler::new(arena.arena(), Places::starting_with("show"));
    clock.advance(20_000);
    let refused = arena
        .matches()
        .pause(id, &Caller::player(&red(), Some(&server())), true)
        .await;
    assert!(
        refused.unwrap_err().to_string().contains("host"),
        "players cannot pause"
    );
    let paused = arena
        .matches()
        .pause(id, &Caller::player(&host(), Some(&server())), true)
        .await
        .unwrap();
    assert!(paused.posts[0].text.contains("paused the clocks"));
    clock.advance(3_600_000);
    assert!(
        scheduler.run_once().await.unwrap().is_empty(),
        "nothing falls due while paused"
    );
    let moved = arena.play().act(id, &red(), SETUP[0]).await;
    assert!(moved.unwrap_err().to_string().contains("paused"));
    arena
        .matches()
        .pause(id, &Caller::host(&UserId::new("test:mod"), Some(&server())), false)
        .await
        .unwrap();
    let resumed = clock_of(&arena, id).await;
    assert_eq!(
        resumed.left(Seat::First, arena.now()).unwrap(),
        (40_000, 300_000),
        "20 s spent, the pause not counted"
    );
    clock.advance(40_000);
    assert!(post_texts(&scheduler.run_once().await.unwrap())[0].contains("normal time is over"));
}

#[tokio::test]
async fn the_host_adds_time_and_adjudicates_publicly() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    clock.advance(340_000);
    let added = arena
        .matches()
        .add_time(id, &Caller::player(&host(), Some(&server())), &red(), 60_000)
        .await
        .unwrap();
    let said = plain(&added.posts[0].text);
    assert!(said.contains("gave red 1:00 more reserve"), "{said}");
    assert_eq!(
        clock_of(&arena, id).await.left(Seat::First, arena.now()).unwrap(),
        (0, 80_000)
    );
    let outsider = arena
        .matches()
        .add_time(id, &Caller::player(&blue(), Some(&server())), &blue(), 60_000)
        .await;
    support::refused(outsider, "or a host of this server runs game");
    let ruled = arena
        .matches()
        .adjudicate(id, &Caller::player(&host(), Some(&server())), Some(&blue()), false)
        .await
        .unwrap();
    assert!(plain(&ruled.posts[0].text).contains("adjudicated the match to blue"));
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.state.outcome().unwrap().reason, EndReason::Adjudication);
    assert_eq!(game.next_deadline(), None, "the clock stopped");
}

#[tokio::test]
async fn a_match_is_won_by_blockade_and_the_clock_stops() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    for placement in SETUP {
        clock.advance(5_000);
        play_in_turn(&arena, id, &[placement]).await;
    }
    play_in_turn(&arena, id, &[LAST_TURN]).await;
    let game = arena.store().game(id).await.unwrap().unwrap();
    let outcome = game.state.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::NoCompleteTurn)
    );
    assert_eq!(game.next_deadline(), None);
    assert!(game.clock.running().is_empty());
}

/// The scheduler stops mid-turn; a new one starts 20 minutes later on the same database (a new
/// process: nothing carried over but the data). The downtime is not charged and nothing fires
/// for it; the match says it resumed.
#[tokio::test]
async fn after_a_restart_the_clocks_resume_without_charging_the_downtime() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let id = start(&arena, TimeControl::STANDARD).await;
        let first = Scheduler::new(arena.arena(), Places::starting_with("show"));
        assert!(first.start().await.unwrap().is_empty());
        clock.advance(20_000);
        support::shut_down(&arena, first, "show").await;

        clock.advance(20 * 60_000);
        let (restarted, restarted_clock) = support::restarted(arena.store().clone(), arena.now());
        let second = Scheduler::new(restarted.arena(), Places::starting_with("show"));
        let resumed = second.start().await.unwrap();
        assert_eq!(resumed.len(), 1, "{}", db.name);
        assert!(post_texts(&resumed)[0].contains("resumed after Arbiter was unavailable for 20:00"));
        assert!(
            second.run_once().await.unwrap().is_empty(),
            "no forfeit for the downtime"
        );
        let left = clock_of(&restarted, id)
            .await
            .left(Seat::First, restarted.now())
            .unwrap();
        assert_eq!(left, (40_000, 300_000), "{}", db.name);
        restarted_clock.advance(40_000);
        assert!(post_texts(&second.run_once().await.unwrap())[0].contains("normal time is over"));
    }
}

/// Two schedulers in two processes on one database, 200 matches whose reserves run out at the
/// same moment: each forfeit fires exactly once. On SQLite (the default deployment: two
/// processes on one file) and PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_schedulers_racing_fire_each_forfeit_exactly_once() {
    support::racing_on_every_database("two schedulers racing", race_to_forfeit_200_matches).await;
}

async fn race_to_forfeit_200_matches(on: &'static str, arena: TestArena, other: TestArena, clock: Arc<ManualClock>) {
    let control = TimeControl {
        normal_ms: 1_000,
        reserve_ms: 0,
    };
    let mut ids = Vec::new();
    for i in 0..200 {
        let request = MatchRequest {
            variant: VariantId::Blockade,
            players: [UserId::new(format!("test:a{i}")), UserId::new(format!("test:b{i}"))],
            advantage: UserId::new(format!("test:a{i}")),
            control,
            location: "show".into(),
            computer: None,
        };
        // Twenty to a server, within the cap on a server's open matches.
        let on_server = ServerId::new(format!("discord-guild:{}", 100 + i / 20));
        let id = support::opened_match(&arena, &Caller::host(&host(), Some(&on_server)), request).await;
        arena
            .matches()
            .choose_side(
                id,
                &Caller::player(&UserId::new(format!("test:a{i}")), Some(&on_server)),
                Seat::First,
            )
            .await
            .unwrap();
        ids.push(id);
    }
    clock.advance(1_000);
    let schedulers = [
        Scheduler::new(arena.arena(), Places::starting_with("show")),
        Scheduler::new(other.arena(), Places::starting_with("show")),
    ];
    let runs = schedulers.map(|s| tokio::spawn(async move { s.run_once().await.unwrap() }));
    let mut forfeits = 0;
    let mut per_scheduler = Vec::new();
    for run in runs {
        let fired = run.await.unwrap();
        let count = post_texts(&fired)
            .iter()
            .filter(|t| t.contains("ran out of time"))
            .count();
        per_scheduler.push(count);
        forfeits += count;
    }
    assert_eq!(forfeits, 200, "each forfeit announced once on {on} ({per_scheduler:?})");
    for id in ids {
        let concluded = support::times_concluded(&arena, id).await;
        assert_eq!(concluded, 1, "game {id} on {on}");
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(
            game.state.outcome().unwrap().reason,
            EndReason::Timeout,
            "game {id} on {on}"
        );
    }
    eprintln!("forfeits fired per scheduler on {on}: {per_scheduler:?}");
}

#[tokio::test]
async fn a_match_is_not_an_ordinary_challenge_and_refuses_absurd_times() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let request = standard_match(VariantId::Garden);
    let id = open_match(&arena, request.clone()).await;
    for refused in [
        arena.challenges().accept(id, &blue()).await,
        arena.challenges().decline(id, &blue()).await,
        arena.challenges().cancel(id, &red()).await,
    ] {
        assert!(refused.unwrap_err().to_string().contains("Death Match"));
    }
    choose(&arena, id, &red(), Seat::First).await.unwrap();
    assert!(
        arena
            .play()
            .abort(id, &red())
            .await
            .unwrap_err()
            .to_string()
            .contains("Death Match")
    );
    let year = 366 * 86_400_000;
    let absurd = MatchRequest {
        control: TimeControl {
            normal_ms: year + 1,
            reserve_ms: 0,
        },
        ..request
    };
    support::refused(
        arena
            .matches()
            .start(&Caller::host(&host(), Some(&server())), absurd)
            .await,
        "the normal time must be between a second and a year",
    );
    support::refused(
        arena
            .matches()
            .add_time(id, &Caller::player(&host(), Some(&server())), &red(), year + 1)
            .await,
        "add a positive amount of time, at most a year",
    );
    // A player whose flag fell cannot be saved by a pause or a draw.
    clock.advance(360_000);
    let late = arena
        .matches()
        .pause(id, &Caller::player(&host(), Some(&server())), true)
        .await
        .unwrap();
    assert!(late.posts[0].text.contains("ran out of time"), "{}", late.posts[0].text);
}

#[tokio::test]
async fn schedulers_fire_only_the_games_of_their_own_places() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    clock.advance(60_000);
    let elsewhere = Scheduler::new(arena.arena(), Places::starting_with("discord:"));
    assert!(elsewhere.run_once().await.unwrap().is_empty(), "not its game");
    let here = Scheduler::new(arena.arena(), Places::starting_with("show"));
    assert_eq!(here.run_once().await.unwrap()[0].game, Some(id));
}

#[tokio::test]
async fn showing_a_match_gives_both_clocks_as_of_now() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let id = start(&arena, TimeControl::STANDARD).await;
    clock.advance(20_000);
    let shown = arena.show(id, &support::asking(&blue())).await.unwrap().reply.unwrap();
    let said = plain(&shown.text);
    assert!(said.contains("red (Red): 0:40 + 5:00 reserve"), "{said}");
    let clocks = &shown.board.unwrap().decor.clocks;
    assert_eq!(clocks[0].as_deref(), Some("0:40 + 5:00 reserve"));
    assert_eq!(clocks[1].as_deref(), Some("1:00 + 5:00 reserve"));
}
