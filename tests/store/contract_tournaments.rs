//! The contract of tournaments, on SQLite and PostgreSQL alike: created and read back, listed
//! per place, saved only over the version read, rounds' games made with the save that pairs
//! them (filling the round's boards), results read through the games, and starts falling due.

use arbiter::clock::{GameClock, TimeControl};
use arbiter::ids::{Place, Places, ServerId, TournamentId, UserId};
use arbiter::model::{GameRow, GameSetup, GameStatus, NewGame, NewTournament, TournamentRow, WhitePlayer};
use arbiter::store::{Store, StoreError};
use arbiter::tournament::{Board, Entry, Round, TimeSetting, Tournament, TournamentStatus};
use arbiter_engine::{AnyGame, VariantId};

fn user(name: &str) -> UserId {
    UserId::new(format!("test:{name}"))
}

fn event(name: &str, players: &[&str]) -> Tournament {
    Tournament {
        name: name.into(),
        host: user("t-host"),
        variants: vec![VariantId::Circe, VariantId::Portal],
        time: TimeSetting::Everyone {
            control: TimeControl::days_per_move(2),
        },
        players: players
            .iter()
            .map(|p| Entry {
                user: user(p),
                rating: None,
                withdrawn: false,
            })
            .collect(),
        rounds: Vec::new(),
    }
}

fn new_tournament(name: &str, location: &str, starts_at: Option<i64>, now: i64) -> NewTournament {
    NewTournament {
        location: location.into(),
        server: Some(ServerId::new("discord-guild:9")),
        tournament: event(name, &["t-ann", "t-ben", "t-cat", "t-dan", "t-eve"]),
        starts_at,
        now,
    }
}

/// A round's game, as the arena makes them: white challenges black, seated, playing.
fn board_game(row: &TournamentRow, variant: VariantId, white: &str, black: &str, now: i64) -> NewGame {
    NewGame {
        setup: GameSetup::new(variant),
        location: row.location.clone(),
        status: GameStatus::Active,
        challenger: user(white),
        opponent: user(black),
        white_player: WhitePlayer::Challenger,
        players: Some([user(white), user(black)]),
        state: AnyGame::new(variant),
        now,
        deathmatch: None,
        clock: GameClock::timed([TimeControl::days_per_move(2); 2], false, now),
        server: row.server.clone(),
        tournament: Some(row.id),
        is_rated: true,
    }
}

fn round(bye: Option<&str>) -> Round {
    Round {
        boards: Vec::new(),
        bye: bye.map(user),
        complete: false,
    }
}

fn ids(rows: &[TournamentRow]) -> Vec<TournamentId> {
    rows.iter().map(|t| t.id).collect()
}

fn game_ids(rows: &[GameRow]) -> Vec<arbiter::ids::GameId> {
    rows.iter().map(|g| g.id).collect()
}

/// Saves `row` one version on, with no games.
async fn save(store: &dyn Store, row: &mut TournamentRow) {
    row.version += 1;
    assert_eq!(store.update_tournament(row, &[]).await.unwrap(), vec![]);
}

/// A server's open tournaments are counted over all its channels: registering or being played,
/// not finished, not another server's.
async fn open_tournaments_are_counted_per_server(store: &dyn Store) {
    let server = ServerId::new("discord-guild:41");
    let on = |place: &str| NewTournament {
        server: Some(server.clone()),
        ..new_tournament("Count", place, None, 2_000)
    };
    store.insert_tournament(&on("count:1")).await.unwrap();
    let mut playing = store.insert_tournament(&on("count:2")).await.unwrap();
    playing.status = TournamentStatus::Running;
    save(store, &mut playing).await;
    let mut finished = store.insert_tournament(&on("count:3")).await.unwrap();
    finished.status = TournamentStatus::Finished;
    save(store, &mut finished).await;
    store
        .insert_tournament(&NewTournament {
            server: Some(ServerId::new("discord-guild:42")),
            ..new_tournament("Elsewhere", "count:4", None, 2_000)
        })
        .await
        .unwrap();
    assert_eq!(store.open_tournaments_on(&server).await.unwrap(), 2);
    assert_eq!(
        store
            .open_tournaments_on(&ServerId::new("discord-guild:43"))
            .await
            .unwrap(),
        0
    );
}

/// A tournament reads back as created: registering, at version 1, stamped with its creation.
async fn a_tournament_reads_back_as_created(store: &dyn Store) {
    let new = new_tournament("Spring Swiss", "club:1", Some(5_000), 1_234);
    let created = store.insert_tournament(&new).await.unwrap();
    assert_eq!(
        created,
        TournamentRow {
            id: created.id,
            location: Place::new("club:1"),
            server: Some(ServerId::new("discord-guild:9")),
            status: TournamentStatus::Registering,
            tournament: new.tournament.clone(),
            version: 1,
            created_at: 1_234,
            updated_at: 1_234,
            starts_at: Some(5_000),
        }
    );
    assert_eq!(store.tournament(created.id).await.unwrap(), Some(created.clone()));
    let serverless = store
        .insert_tournament(&NewTournament {
            server: None,
            starts_at: None,
            ..new_tournament("Open", "club:1", None, 1_300)
        })
        .await
        .unwrap();
    assert_ne!(serverless.id, created.id);
    assert_eq!((serverless.server.clone(), serverless.starts_at), (None, None));
    assert_eq!(store.tournament(serverless.id).await.unwrap(), Some(serverless.clone()));
    assert_eq!(
        store
            .tournament(TournamentId::new(serverless.id.get() + 1_000))
            .await
            .unwrap(),
        None
    );
    assert_eq!(store.tournament_games(created.id).await.unwrap(), vec![]);
}

/// A place's tournaments: those not finished first, then the finished, newest first in each;
/// only those of exactly that place.
async fn tournaments_are_listed_per_place_unfinished_first_newest_first(store: &dyn Store) {
    let mut made = Vec::new();
    for i in 1..=4 {
        made.push(
            store
                .insert_tournament(&new_tournament(&format!("Cup {i}"), "hall", None, i))
                .await
                .unwrap(),
        );
    }
    let other = store
        .insert_tournament(&new_tournament("Elsewhere", "hall-2", None, 9))
        .await
        .unwrap();
    let [first, second, third, fourth] = <[TournamentRow; 4]>::try_from(made).unwrap();
    let (mut first, mut second, mut third) = (first, second, third);
    first.status = TournamentStatus::Finished;
    save(store, &mut first).await;
    third.status = TournamentStatus::Running;
    save(store, &mut third).await;
    second.status = TournamentStatus::Finished;
    save(store, &mut second).await;

    let listed = store.tournaments_at(&Place::new("hall")).await.unwrap();
    assert_eq!(ids(&listed), [fourth.id, third.id, second.id, first.id]);
    assert_eq!(listed[1], third, "read back as saved");
    assert_eq!(
        ids(&store.tournaments_at(&Place::new("hall-2")).await.unwrap()),
        [other.id]
    );
    assert_eq!(store.tournaments_at(&Place::new("hal")).await.unwrap(), vec![]);
}

/// A save lands only over the version it was read at; a stale one changes nothing, the games
/// it carried included, and says which tournament.
async fn a_tournament_save_is_guarded_by_its_version(store: &dyn Store) {
    let mut row = store
        .insert_tournament(&new_tournament("Guarded", "guard", Some(100), 10))
        .await
        .unwrap();
    let stale = row.clone();
    row.tournament.players[0].withdrawn = true;
    row.starts_at = Some(200);
    row.updated_at = 20;
    save(store, &mut row).await;
    assert_eq!(store.tournament(row.id).await.unwrap(), Some(row.clone()));
    assert_eq!(row.version, 2);

    // Read at version 1, saved as 2 after someone else's 2: refused whole.
    let mut late = stale.clone();
    late.version = 2;
    late.status = TournamentStatus::Running;
    late.tournament.rounds.push(round(None));
    let pairing = [board_game(&late, VariantId::Circe, "t-ann", "t-ben", 30)];
    match store.update_tournament(&late, &pairing).await {
        Err(StoreError::TournamentConflict(id)) => assert_eq!(id, row.id),
        other => panic!("expected a tournament conflict, got {other:?}"),
    }
    assert_eq!(store.tournament(row.id).await.unwrap(), Some(row.clone()));
    assert_eq!(store.tournament_games(row.id).await.unwrap(), vec![]);
    assert_eq!(
        store
            .games_of(&user("t-ann"), &[GameStatus::Active])
            .await
            .unwrap()
            .iter()
            .filter(|g| g.tournament == Some(row.id))
            .count(),
        0,
        "no game of the refused save exists"
    );
    // A version skipping ahead is refused too.
    let mut ahead = row.clone();
    ahead.version = 4;
    match store.update_tournament(&ahead, &[]).await {
        Err(StoreError::TournamentConflict(id)) => assert_eq!(id, row.id),
        other => panic!("expected a tournament conflict, got {other:?}"),
    }
    assert_eq!(store.tournament(row.id).await.unwrap().unwrap().version, 2);
}

/// Pairing a round: the save creates its games, in order, as the boards of the round just
/// added; the games are the tournament's, and their results read back through them.
async fn a_rounds_games_are_made_with_its_save_and_fill_its_boards(store: &dyn Store) {
    let mut row = store
        .insert_tournament(&new_tournament("Paired", "pairs", None, 10))
        .await
        .unwrap();
    row.status = TournamentStatus::Running;
    row.tournament.rounds.push(round(Some("t-eve")));
    row.version += 1;
    row.updated_at = 50;
    let pairings = [
        board_game(&row, VariantId::Circe, "t-cat", "t-ann", 50),
        board_game(&row, VariantId::Circe, "t-ben", "t-dan", 50),
    ];
    let created = store.update_tournament(&row, &pairings).await.unwrap();
    assert_eq!(created.len(), 2);
    for (game, new) in created.iter().zip(&pairings) {
        assert_eq!(
            (
                &game.challenger,
                &game.opponent,
                game.players.clone(),
                game.tournament,
                game.status,
                game.version,
                &game.location,
                game.server.clone(),
                game.setup.variant,
            ),
            (
                &new.challenger,
                &new.opponent,
                new.players.clone(),
                Some(row.id),
                GameStatus::Active,
                1,
                &row.location,
                row.server.clone(),
                VariantId::Circe,
            )
        );
        assert_eq!(store.game(game.id).await.unwrap().as_ref(), Some(game));
    }
    let stored = store.tournament(row.id).await.unwrap().unwrap();
    let boards = vec![
        Board {
            game: created[0].id,
            white: user("t-cat"),
            black: user("t-ann"),
        },
        Board {
            game: created[1].id,
            white: user("t-ben"),
            black: user("t-dan"),
        },
    ];
    let mut expected = row.clone();
    expected.tournament.rounds[0].boards = boards.clone();
    assert_eq!(stored, expected, "the round's boards are its games, in order");
    assert_eq!(store.tournament_games(row.id).await.unwrap(), created);

    // A result lands on the game, and is read back through the tournament's games.
    let mut first = created[0].clone();
    first.status = GameStatus::Finished;
    first.version += 1;
    store.update_game(&first, &[], &[]).await.unwrap();
    let games = store.tournament_games(row.id).await.unwrap();
    assert_eq!(
        games.iter().map(|g| (g.id, g.status)).collect::<Vec<_>>(),
        [
            (created[0].id, GameStatus::Finished),
            (created[1].id, GameStatus::Active)
        ]
    );

    // The next round: its games join the tournament's, the first round's boards stay.
    let mut row = stored;
    row.tournament.rounds[0].complete = true;
    row.tournament.rounds.push(round(Some("t-cat")));
    row.version += 1;
    let pairings = [
        board_game(&row, VariantId::Portal, "t-ann", "t-eve", 60),
        board_game(&row, VariantId::Portal, "t-dan", "t-ben", 60),
    ];
    let second_round = store.update_tournament(&row, &pairings).await.unwrap();
    let stored = store.tournament(row.id).await.unwrap().unwrap();
    assert_eq!(stored.tournament.rounds[0].boards, boards);
    assert!(stored.tournament.rounds[0].complete);
    assert_eq!(
        stored.tournament.rounds[1]
            .boards
            .iter()
            .map(|b| (b.game, b.white.clone(), b.black.clone()))
            .collect::<Vec<_>>(),
        [
            (second_round[0].id, user("t-ann"), user("t-eve")),
            (second_round[1].id, user("t-dan"), user("t-ben")),
        ]
    );
    assert_eq!(stored.tournament.rounds[1].bye, Some(user("t-cat")));
    assert_eq!(
        game_ids(&store.tournament_games(row.id).await.unwrap()),
        [created[0].id, created[1].id, second_round[0].id, second_round[1].id]
    );
    assert_eq!(
        store
            .tournament_games(row.id)
            .await
            .unwrap()
            .iter()
            .map(|g| g.setup.variant)
            .collect::<Vec<_>>(),
        [VariantId::Circe, VariantId::Circe, VariantId::Portal, VariantId::Portal]
    );
}

/// Games come only with a round to hold them (the last round, its boards still empty);
/// otherwise the save is refused as corrupt and nothing of it lands.
async fn games_without_an_empty_round_to_hold_them_are_refused(store: &dyn Store) {
    let original = store
        .insert_tournament(&new_tournament("Roundless", "roundless", None, 10))
        .await
        .unwrap();
    let mut row = original.clone();
    row.version += 1;
    let pairing = [board_game(&row, VariantId::Circe, "t-ann", "t-ben", 20)];
    match store.update_tournament(&row, &pairing).await {
        Err(StoreError::Corrupt(message)) => assert!(
            message.contains("a round's games came without a round to hold them"),
            "{message}"
        ),
        other => panic!("expected the save refused as corrupt, got {other:?}"),
    }
    assert_eq!(store.tournament(row.id).await.unwrap(), Some(original));
    assert_eq!(store.tournament_games(row.id).await.unwrap(), vec![]);
}

/// Tournaments at the places still registering whose start has come, earliest start first.
async fn tournaments_fall_due_when_their_start_comes(store: &dyn Store) {
    let places = Places::starting_with("due:");
    // A tournament registering at `place`, to start at `starts_at`.
    let insert = async |name: &str, place: &str, starts_at: Option<i64>| {
        let tournament = new_tournament(name, place, starts_at, 1);
        store.insert_tournament(&tournament).await.unwrap()
    };
    let at_100 = insert("A", "due:a", Some(100)).await;
    let at_50 = insert("B", "due:b", Some(50)).await;
    insert("No start", "due:c", None).await;
    let later = insert("Later", "due:d", Some(1_000)).await;
    let mut started = insert("Started", "due:e", Some(10)).await;
    started.status = TournamentStatus::Running;
    save(store, &mut started).await;
    insert("Other places", "undue:a", Some(10)).await;

    assert_eq!(store.tournaments_due(&places, 49).await.unwrap(), vec![]);
    assert_eq!(
        store.tournaments_due(&places, 100).await.unwrap(),
        [at_50.id, at_100.id],
        "earliest start first; a start exactly now is due"
    );
    // A start moved later is no longer due; one started is not due again.
    let mut moved = store.tournament(at_100.id).await.unwrap().unwrap();
    moved.starts_at = Some(2_000);
    save(store, &mut moved).await;
    let mut begun = store.tournament(at_50.id).await.unwrap().unwrap();
    begun.status = TournamentStatus::Running;
    save(store, &mut begun).await;
    assert_eq!(store.tournaments_due(&places, 1_500).await.unwrap(), [later.id]);
    assert_eq!(
        store.tournaments_due(&places, 2_000).await.unwrap(),
        [later.id, at_100.id]
    );
}

on_each_database!(
    store: a_tournament_reads_back_as_created,
    store: open_tournaments_are_counted_per_server,
    store: tournaments_are_listed_per_place_unfinished_first_newest_first,
    store: a_tournament_save_is_guarded_by_its_version,
    store: a_rounds_games_are_made_with_its_save_and_fill_its_boards,
    store: games_without_an_empty_round_to_hold_them_are_refused,
    store: tournaments_fall_due_when_their_start_comes,
);
