//! Tournaments through the arena, on both databases: a whole event, every kind of bad request,
//! handicap clocks, ratings, and two processes racing to pair a round.

use crate::support;
use crate::support::{asking, refused};
use arbiter::arena::{Caller, Effects, Ruling, TournamentRequest};
use arbiter::clock::MINUTE_MS;
use arbiter::ids::{Place, Places, ServerId, TournamentId, UserId};
use arbiter::model::{GameRow, GameStatus};
use arbiter::scheduler::Scheduler;
use arbiter::tournament::handicap::Bands;
use arbiter::tournament::{CLUB_NIGHT_VARIANTS, TimeSetting, TournamentStatus};
use arbiter_engine::{EndReason, Game, Seat, VariantId};
use std::sync::Arc;

fn channel() -> Place {
    Place::new("local:club")
}

fn player(n: usize) -> UserId {
    UserId::new(format!("local:p{n}"))
}

fn host() -> UserId {
    UserId::new("local:host")
}

/// The host, asking as a host of the server.
fn as_host() -> Caller {
    Caller::host(&host(), None)
}

fn request(variants: Vec<VariantId>, time: TimeSetting) -> TournamentRequest {
    TournamentRequest {
        name: "Club night".into(),
        variants,
        time,
        starts_at: None,
        location: channel(),
    }
}

async fn create(arena: &support::TestArena, players: usize) -> TournamentId {
    let request = request(
        CLUB_NIGHT_VARIANTS.to_vec(),
        TimeSetting::Handicap {
            bands: Bands::default(),
        },
    );
    arena.tournaments().create(&as_host(), request).await.unwrap();
    let id = arena.tournaments().at(&channel()).await.unwrap();
    for n in 1..=players {
        arena.tournaments().join(id, &asking(&player(n))).await.unwrap();
    }
    id
}

/// The games of the tournament's current round.
async fn round_games(arena: &support::TestArena, id: TournamentId) -> Vec<GameRow> {
    let row = arena.store().tournament(id).await.unwrap().unwrap();
    let round = row.tournament.rounds.last().unwrap();
    let mut games = Vec::new();
    for board in &round.boards {
        games.push(arena.store().game(board.game).await.unwrap().unwrap());
    }
    games
}

/// Finishes every game of the round: the first seat resigns on odd games, the second on even.
async fn resign_all(arena: &support::TestArena, games: &[GameRow]) -> Effects {
    let mut last = Effects::default();
    for game in games {
        let loser = game
            .player(if game.id.get() % 2 == 1 {
                Seat::First
            } else {
                Seat::Second
            })
            .unwrap();
        last = arena.play().resign(game.id, loser).await.unwrap();
    }
    last
}

#[tokio::test]
async fn a_five_round_seed_tournament_of_seven_runs_to_final_standings_with_handicap_clocks() {
    for db in support::databases().await {
        let (arena, _clock) = support::arena(&db);
        let id = create(&arena, 7).await;
        refused(arena.tournaments().join(id, &asking(&player(3))).await, "already in");
        refused(arena.tournaments().pair(id, &as_host()).await, "`tournament start`");
        refused(
            arena.tournaments().start(id, &Caller::player(&player(1), None)).await,
            "only the host",
        );
        let started = arena.tournaments().start(id, &asking(&host())).await.unwrap();
        let paired = started.paired_round.clone().expect("round 1 paired");
        assert_eq!(
            (paired.round, paired.games.len()),
            (1, 3),
            "7 players: 3 games and a bye"
        );
        refused(
            arena.tournaments().join(id, &asking(&player(8))).await,
            "only until round 1 is paired",
        );
        let row = arena.store().tournament(id).await.unwrap().unwrap();
        assert_eq!(row.status, TournamentStatus::Running);
        assert_eq!(
            row.tournament.rounds[0].bye,
            Some(player(7)),
            "the lowest-placed (all 1500: last joined)"
        );
        // Everyone is unrated: 1500, the 1408-1719 band: 9 minutes for the game, no increment.
        let games = round_games(&arena, id).await;
        for game in &games {
            assert_eq!(game.setup.variant, VariantId::Rejection);
            assert_eq!(game.status, GameStatus::Active);
            let control = game.clock.control(Seat::First).unwrap();
            assert_eq!((control.normal_ms, control.reserve_ms), (0, 9 * MINUTE_MS));
            assert!(
                game.clock.running().contains(&Seat::First),
                "the clock runs from the start"
            );
        }
        let announcement = arena.tournaments().round_announcement(id, 1).await.unwrap();
        let text = &arbiter::arena::text::plain(&announcement.posts[0].text);
        assert!(
            text.contains("round 1 of 5: Rejection Chess") && text.contains("Bye (1 point): p7"),
            "{text}"
        );
        assert!(text.contains("(White, 9 minutes)"), "{text}");

        // Pairing before the round ends is refused, naming the games left.
        refused(arena.tournaments().pair(id, &as_host()).await, "still being played");
        let mut quitter = player(0);
        for (index, variant) in CLUB_NIGHT_VARIANTS.iter().enumerate() {
            let number = index + 1;
            if number > 1 {
                let effects = arena.tournaments().pair(id, &as_host()).await.unwrap();
                assert_eq!(
                    effects.paired_round.as_ref().map(|p| p.round),
                    Some(number),
                    "{effects:?}"
                );
            }
            let games = round_games(&arena, id).await;
            assert!(games.iter().all(|g| g.setup.variant == *variant), "round {number}");
            let row = arena.store().tournament(id).await.unwrap().unwrap();
            let round = row.tournament.rounds.last().unwrap();
            if number < 4 {
                assert_eq!(
                    (games.len(), round.bye.is_some()),
                    (3, true),
                    "7 players: 3 games and a bye"
                );
            } else {
                assert_eq!(
                    (games.len(), round.bye.is_some()),
                    (3, false),
                    "one withdrew: 6 players"
                );
                assert!(games.iter().all(|g| g.seat_of(&quitter).is_none()), "not paired again");
            }
            match number {
                2 => {
                    // A host adjudication.
                    refused(
                        arena
                            .tournaments()
                            .adjudicate(games[0].id, &Caller::player(&player(2), None), Ruling::Draw)
                            .await,
                        "only the host",
                    );
                    let done = arena
                        .tournaments()
                        .adjudicate(games[0].id, &asking(&host()), Ruling::Draw)
                        .await
                        .unwrap();
                    assert!(done.posts[0].text.contains("adjudicated the game: a draw"), "{done:?}");
                    resign_all(&arena, &games[1..]).await;
                }
                3 => {
                    // A withdrawal mid-round: the game stands; unplayed, it is lost by forfeit
                    // when the host closes the round.
                    let unplayed = games[2].clone();
                    quitter = unplayed.player(Seat::Second).unwrap().clone();
                    let withdrawn = arena.tournaments().withdraw(id, &asking(&quitter)).await.unwrap();
                    assert!(
                        withdrawn.posts[0]
                            .text
                            .contains("lost by forfeit when the round closes")
                    );
                    refused(arena.tournaments().withdraw(id, &asking(&quitter)).await, "not playing");
                    resign_all(&arena, &games[..2]).await;
                    refused(arena.tournaments().pair(id, &as_host()).await, "still being played");
                    let closed = arena.tournaments().close_round(id, &as_host()).await.unwrap();
                    assert!(
                        closed.posts.iter().any(|p| p.text.contains("round 3 of 5 is over")),
                        "{closed:?}"
                    );
                    let forfeited = arena.store().game(unplayed.id).await.unwrap().unwrap();
                    let outcome = forfeited.state.outcome().unwrap();
                    assert_eq!(
                        (outcome.reason, outcome.winner),
                        (EndReason::Forfeit, Some(Seat::First))
                    );
                    let winner = forfeited.player(Seat::First).unwrap();
                    let games_rated: i64 = arena
                        .store()
                        .ratings_of(None, winner)
                        .await
                        .unwrap()
                        .iter()
                        .map(|r| r.games)
                        .sum();
                    let games_played = row
                        .tournament
                        .rounds
                        .iter()
                        .flat_map(|r| &r.boards)
                        .filter(|b| (&b.white == winner || &b.black == winner) && b.game != unplayed.id)
                        .count() as i64;
                    assert_eq!(games_rated, games_played, "a forfeit is not rated");
                }
                _ => {
                    let last = resign_all(&arena, &games).await;
                    let over = if number == 5 {
                        "is over. Final standings"
                    } else {
                        "of 5 is over"
                    };
                    assert!(last.posts.iter().any(|p| p.text.contains(over)), "{last:?}");
                }
            }
            if number == 1 {
                let rated = arena
                    .store()
                    .ratings_of(None, &games[0].players.clone().unwrap()[0])
                    .await
                    .unwrap();
                assert_eq!(
                    rated[0].variant,
                    VariantId::Rejection,
                    "played games are rated in their variant"
                );
                let bye = round.bye.clone().unwrap();
                assert!(
                    arena.store().ratings_of(None, &bye).await.unwrap().is_empty(),
                    "a bye is not rated"
                );
            }
        }
        let row = arena.store().tournament(id).await.unwrap().unwrap();
        assert_eq!(row.status, TournamentStatus::Finished);
        refused(arena.tournaments().pair(id, &as_host()).await, "is over");
        let row = arena.store().tournament(id).await.unwrap().unwrap();
        assert_eq!(row.status, TournamentStatus::Finished);
        refused(arena.tournaments().pair(id, &as_host()).await, "is over");
        // Nobody met anyone twice.
        let mut met = std::collections::HashSet::new();
        for round in &row.tournament.rounds {
            for board in &round.boards {
                let pair = if board.white < board.black {
                    (board.white.clone(), board.black.clone())
                } else {
                    (board.black.clone(), board.white.clone())
                };
                assert!(met.insert(pair), "{} met twice", db.name);
            }
        }
        let standings = arena
            .tournaments()
            .standings(id, &asking(&host()), &channel())
            .await
            .unwrap();
        let table = standings.posts[0].table.as_ref().unwrap();
        assert_eq!(table.rows.len(), 7);
        assert_eq!(table.header[..5], ["#", "Player", "Score", "Buchholz", "S-B"]);
        assert_eq!(table.header.len(), 10, "a column for each round");
        let line = table.rows.iter().find(|r| r[1] == quitter.display_name()).unwrap();
        assert!(line[2].ends_with("(w)") && line[7].starts_with("0f B"), "{line:?}");
        assert!(
            line[8..].iter().all(|cell| cell == "-"),
            "not paired after withdrawing: {line:?}"
        );
    }
}

#[tokio::test]
async fn bad_requests_get_clear_messages_and_change_nothing() {
    for db in support::databases().await {
        let (arena, _clock) = support::arena(&db);
        let everyone = || TimeSetting::Handicap {
            bands: Bands::default(),
        };
        refused(
            arena
                .tournaments()
                .create(
                    &Caller::player(&player(1), None),
                    request(CLUB_NIGHT_VARIANTS.to_vec(), everyone()),
                )
                .await,
            "only hosts",
        );
        refused(
            arena
                .tournaments()
                .create(&as_host(), request(vec![], everyone()))
                .await,
            "rounds",
        );
        let mut long = request(vec![VariantId::Chess], everyone());
        long.name = "x".repeat(81);
        refused(arena.tournaments().create(&as_host(), long).await, "name");
        refused(
            arena.tournaments().at(&channel()).await.map(|_| Effects::default()),
            "no tournament",
        );
        // Five rounds need at least five players (odd) or six (even).
        let id = create(&arena, 4).await;
        let before = arena.store().tournament(id).await.unwrap().unwrap();
        refused(
            arena.tournaments().start(id, &as_host()).await,
            "4 players cannot play 5 rounds",
        );
        refused(
            arena.tournaments().close_round(id, &as_host()).await,
            "no round being played",
        );
        refused(
            arena.tournaments().withdraw(id, &asking(&player(9))).await,
            "not playing",
        );
        assert_eq!(arena.store().tournament(id).await.unwrap().unwrap(), before);
        // Before round 1 a withdrawal takes the player off the list.
        arena.tournaments().withdraw(id, &asking(&player(4))).await.unwrap();
        let row = arena.store().tournament(id).await.unwrap().unwrap();
        assert_eq!(row.tournament.players.len(), 3);
        // An ordinary game cannot be adjudicated as a tournament's.
        let game = support::started(&arena, VariantId::Chess).await;
        refused(
            arena.tournaments().adjudicate(game, &as_host(), Ruling::Draw).await,
            "not a tournament game",
        );
    }
}

#[tokio::test]
async fn two_processes_pairing_a_round_at_once_make_one_pairing() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let id = create(&arena, 6).await;
        let other = support::TestArena::new(
            db.another_process().await,
            clock.clone() as Arc<dyn arbiter::clock::Clock>,
        );
        let host = as_host();
        let (a, b) = tokio::join!(
            arena.tournaments().start(id, &host),
            other.tournaments().start(id, &host)
        );
        let started = [&a, &b]
            .iter()
            .filter(|r| r.as_ref().is_ok_and(|e| e.paired_round.is_some()))
            .count();
        assert_eq!(started, 1, "{}: {a:?} {b:?}", db.name);
        let loser = if a.is_ok() { b } else { a };
        refused(loser, "already begun");
        resign_all(&arena, &round_games(&arena, id).await).await;
        let (a, b) = tokio::join!(arena.tournaments().pair(id, &host), other.tournaments().pair(id, &host));
        let paired = [&a, &b].iter().filter(|r| r.is_ok()).count();
        assert_eq!(paired, 1, "{}: {a:?} {b:?}", db.name);
        let row = arena.store().tournament(id).await.unwrap().unwrap();
        assert_eq!(row.tournament.rounds.len(), 2);
        let games = arena.store().tournament_games(id).await.unwrap();
        assert_eq!(
            games.len(),
            6,
            "three games a round, none left over from the losing pairing"
        );
    }
}

#[tokio::test]
async fn handicap_bands_follow_ratings_and_a_flag_fall_on_the_scheduler_loses_the_game() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let bands = Bands::parse("1600:3m, 5m").unwrap();
        let request = request(vec![VariantId::Chess], TimeSetting::Handicap { bands });
        arena.tournaments().create(&as_host(), request).await.unwrap();
        let id = arena.tournaments().at(&channel()).await.unwrap();
        // p1 wins two rated chess games first: above 1600.
        for _ in 0..2 {
            let game = support::started(&arena, VariantId::Chess).await;
            let row = arena.store().game(game).await.unwrap().unwrap();
            let loser = if row.seat_of(&support::alice()) == Some(Seat::First) {
                support::bob()
            } else {
                support::alice()
            };
            arena.play().resign(game, &loser).await.unwrap();
        }
        let strong = if arena.store().ratings_of(None, &support::alice()).await.unwrap()[0].rating > 1600.0 {
            support::alice()
        } else {
            support::bob()
        };
        arena.tournaments().join(id, &asking(&strong)).await.unwrap();
        arena.tournaments().join(id, &asking(&support::carol())).await.unwrap();
        arena.tournaments().start(id, &as_host()).await.unwrap();
        let game = round_games(&arena, id).await.remove(0);
        let strong_seat = game.seat_of(&strong).unwrap();
        assert_eq!(game.clock.control(strong_seat).unwrap().reserve_ms, 3 * MINUTE_MS);
        assert_eq!(
            game.clock.control(strong_seat.other()).unwrap().reserve_ms,
            5 * MINUTE_MS
        );
        // White does not move: after 3 or 5 minutes the scheduler's deadline forfeits on time.
        let white_time = game.clock.control(Seat::First).unwrap().reserve_ms;
        clock.advance(white_time + 1);
        let effects = Scheduler::new(arena.arena(), Places::starting_with("local"))
            .run_once()
            .await
            .unwrap();
        assert!(
            effects
                .iter()
                .any(|e| e.posts.iter().any(|p| p.text.contains("Final standings"))),
            "{effects:?}"
        );
        let done = arena.store().game(game.id).await.unwrap().unwrap();
        assert_eq!(done.state.outcome().unwrap().reason, EndReason::Timeout);
        assert_eq!(done.state.outcome().unwrap().winner, Some(Seat::Second));
    }
}

/// A host who plays in their own tournament rules on the others' games, never on their own;
/// another server's host rules on none of it.
#[tokio::test]
async fn a_host_never_rules_on_their_own_game_nor_on_another_servers_tournament() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let host_here = Caller::host(&host(), Some(&ServerId::new("server-a")));
    arena
        .tournaments()
        .create(
            &host_here,
            request(
                vec![VariantId::Chess],
                TimeSetting::Handicap {
                    bands: Bands::default(),
                },
            ),
        )
        .await
        .unwrap();
    let id = arena.tournaments().at(&channel()).await.unwrap();
    arena
        .tournaments()
        .join(id, &Caller::player(&host(), Some(&ServerId::new("server-a"))))
        .await
        .unwrap();
    for n in 1..=3 {
        arena
            .tournaments()
            .join(id, &Caller::player(&player(n), Some(&ServerId::new("server-a"))))
            .await
            .unwrap();
    }
    let stranger = Caller::player(&player(9), Some(&ServerId::new("server-b")));
    // Another server's tournament is refused as one that exists nowhere.
    refused(
        arena.tournaments().join(id, &stranger).await,
        &format!("there is no tournament #{id} here"),
    );
    let nowhere = arbiter::ids::TournamentId::new(id.get() + 100);
    refused(
        arena.tournaments().join(nowhere, &stranger).await,
        &format!("there is no tournament #{nowhere} here"),
    );
    let other_host = Caller::host(&player(9), Some(&ServerId::new("server-b")));
    refused(
        arena.tournaments().start(id, &other_host).await,
        &format!("there is no tournament #{id} here"),
    );
    arena.tournaments().start(id, &host_here).await.unwrap();
    let games = round_games(&arena, id).await;
    let (own, others): (Vec<&GameRow>, Vec<&GameRow>) = games.iter().partition(|g| g.seat_of(&host()).is_some());
    refused(
        arena
            .tournaments()
            .adjudicate(own[0].id, &host_here, Ruling::WhiteWins)
            .await,
        "you play in game",
    );
    refused(
        arena
            .tournaments()
            .adjudicate(others[0].id, &other_host, Ruling::Draw)
            .await,
        &format!("there is no game #{} here", others[0].id),
    );
    arena
        .tournaments()
        .adjudicate(others[0].id, &host_here, Ruling::Draw)
        .await
        .unwrap();
}
