//! The contract every store keeps, run against SQLite and PostgreSQL alike.

use crate::support;
use arbiter::clock::{GameClock, TimeControl};
use arbiter::ids::{Place, Places, UserId};
use arbiter::model::{GameSetup, GameStatus, LogEntry, NewEntry, NewGame, Offer, OfferKind, SavedList, WhitePlayer};
use arbiter::ratings::Rating;
use arbiter::store::{Store, StoreError};
use arbiter_engine::{AnyGame, Game, Seat, VariantId};

fn user(name: &str) -> UserId {
    UserId::new(format!("test:{name}"))
}

fn new_game(challenger: &str, opponent: &str, variant: VariantId) -> NewGame {
    NewGame {
        setup: GameSetup::new(variant),
        location: "channel-1".into(),
        status: GameStatus::Challenge,
        challenger: user(challenger),
        opponent: user(opponent),
        white_player: WhitePlayer::Random,
        players: None,
        state: AnyGame::new(variant),
        now: 1_000,
        deathmatch: None,
        clock: GameClock::timed([TimeControl::days_per_move(3); 2], false, 1_000),
        server: Some("discord-guild:7".into()),
        tournament: None,
        is_rated: true,
    }
}

/// Stores `game`, then moves it to `status` as a save does (one version on).
async fn stored_as(store: &dyn Store, game: &NewGame, status: GameStatus) -> arbiter::model::GameRow {
    let mut row = store.insert_game(game).await.unwrap();
    row.status = status;
    row.version += 1;
    store.update_game(&row, &[], &[]).await.unwrap();
    row
}

fn ids(games: Vec<arbiter::model::GameRow>) -> Vec<arbiter::ids::GameId> {
    games.into_iter().map(|g| g.id).collect()
}

async fn insert_and_read_back(store: &dyn Store) {
    let created = store
        .insert_game(&new_game("alice", "bob", VariantId::Beirut))
        .await
        .unwrap();
    assert_eq!(created.version, 1);
    assert_eq!(created.status, GameStatus::Challenge);
    assert_eq!(
        (created.created_at, created.updated_at, created.turn_since),
        (1_000, 1_000, 1_000)
    );
    let loaded = store.game(created.id).await.unwrap().unwrap();
    assert_eq!(loaded, created);
    assert_eq!(loaded.state, AnyGame::new(VariantId::Beirut));
    assert!(
        store
            .game(arbiter::ids::GameId::new(created.id.get() + 1000))
            .await
            .unwrap()
            .is_none()
    );
    let second = store
        .insert_game(&new_game("alice", "carol", VariantId::Chess))
        .await
        .unwrap();
    assert_ne!(second.id, created.id);
}

async fn updates_are_guarded_by_the_version(store: &dyn Store) {
    let mut game = store
        .insert_game(&new_game("alice", "bob", VariantId::Chess))
        .await
        .unwrap();
    game.status = GameStatus::Active;
    game.players = Some([user("alice"), user("bob")]);
    let action = game.state.parse_action(Seat::First, "e4").unwrap();
    game.state.apply(Seat::First, &action).unwrap();
    game.offer = Some(Offer {
        kind: OfferKind::Draw,
        by: Seat::First,
        game: None,
    });
    game.version += 1;
    game.updated_at = 2_000;
    let entry = NewEntry {
        entry: LogEntry::Act {
            seat: Seat::First,
            action,
        },
        notation: "e4".into(),
        clock_ms: Some(259_000_000),
    };
    game.clock.follow(Some(Seat::First), &[Seat::Second], false, 2_000);
    store
        .update_game(&game, std::slice::from_ref(&entry), &[])
        .await
        .unwrap();
    assert_eq!(store.game(game.id).await.unwrap().unwrap(), game);

    // A writer that read version 1 loses: nothing of its change is saved, its log entry included.
    let mut stale = game.clone();
    stale.version = 2;
    stale.status = GameStatus::Finished;
    let stale_entry = NewEntry {
        entry: LogEntry::Takeback { plies: 1 },
        notation: "stale".into(),
        clock_ms: None,
    };
    match store.update_game(&stale, &[stale_entry], &[]).await {
        Err(StoreError::Conflict(id)) => assert_eq!(id, game.id),
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(store.game(game.id).await.unwrap().unwrap(), game);
    let log = store.log(game.id).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (
            log[0].seq,
            &log[0].entry,
            log[0].notation.as_str(),
            log[0].at,
            log[0].clock_ms
        ),
        (1, &entry.entry, "e4", 2_000, Some(259_000_000))
    );
}

/// A finished game's save carries its players' new ratings, each one game on from the stored
/// one; ratings computed from an older rating are refused, and nothing of that save lands.
async fn ratings_move_with_the_save_only_from_the_rating_they_were_computed_from(store: &dyn Store) {
    let (alice, bob) = (user("rated-alice"), user("rated-bob"));
    let mut game = store
        .insert_game(&new_game("rated-alice", "rated-bob", VariantId::Chess))
        .await
        .unwrap();
    assert_eq!(store.rating(None, &alice, VariantId::Chess).await.unwrap(), None);
    let fresh = [
        Rating::initial(None, alice.clone(), VariantId::Chess),
        Rating::initial(None, bob.clone(), VariantId::Chess),
    ];
    let after_one = arbiter::ratings::rate(fresh.clone(), Some(Seat::First), 2_000);
    game.status = GameStatus::Finished;
    game.version += 1;
    store.update_game(&game, &[], &after_one).await.unwrap();
    assert_eq!(
        store.rating(None, &alice, VariantId::Chess).await.unwrap(),
        Some(after_one[0].clone())
    );
    assert_eq!(store.ratings_of(None, &bob).await.unwrap(), vec![after_one[1].clone()]);

    // A second result computed from the ratings before the first is refused whole.
    let mut second = store
        .insert_game(&new_game("rated-alice", "rated-bob", VariantId::Chess))
        .await
        .unwrap();
    let before = second.clone();
    second.status = GameStatus::Finished;
    second.version += 1;
    let stale = arbiter::ratings::rate(fresh, None, 3_000);
    match store.update_game(&second, &[], &stale).await {
        Err(StoreError::RatingConflict) => {}
        other => panic!("expected a rating conflict, got {other:?}"),
    }
    assert_eq!(store.game(second.id).await.unwrap().unwrap(), before);
    assert_eq!(
        store.rating(None, &bob, VariantId::Chess).await.unwrap(),
        Some(after_one[1].clone())
    );
    let current = [after_one[0].clone(), after_one[1].clone()];
    let after_two = arbiter::ratings::rate(current, None, 3_000);
    store.update_game(&second, &[], &after_two).await.unwrap();
    let alice_now = store.rating(None, &alice, VariantId::Chess).await.unwrap().unwrap();
    assert_eq!((alice_now.games, alice_now.wins, alice_now.draws), (2, 1, 1));
}

async fn the_log_is_append_only_and_ordered(store: &dyn Store) {
    let mut game = store
        .insert_game(&new_game("alice", "bob", VariantId::Chess))
        .await
        .unwrap();
    for (i, text) in ["e4", "e5", "Nf3"].iter().enumerate() {
        let seat = game.state.to_act()[0];
        let action = game.state.parse_action(seat, text).unwrap();
        game.state.apply(seat, &action).unwrap();
        game.version += 1;
        game.updated_at = 10 + i as i64;
        let entries = [NewEntry {
            entry: LogEntry::Act { seat, action },
            notation: text.to_string(),
            clock_ms: None,
        }];
        store.update_game(&game, &entries, &[]).await.unwrap();
    }
    let log = store.log(game.id).await.unwrap();
    let notations: Vec<&str> = log.iter().map(|l| l.notation.as_str()).collect();
    assert_eq!(notations, ["e4", "e5", "Nf3"]);
    assert_eq!(log.iter().map(|l| l.seq).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(
        store
            .log(arbiter::ids::GameId::new(game.id.get() + 1000))
            .await
            .unwrap()
            .is_empty()
    );
}

async fn games_are_listed_per_user_and_status(store: &dyn Store) {
    let challenge = store
        .insert_game(&new_game("dora", "ed", VariantId::Chess))
        .await
        .unwrap();
    let active = stored_as(store, &new_game("ed", "fay", VariantId::Blockade), GameStatus::Active).await;
    let finished = stored_as(store, &new_game("fay", "ed", VariantId::Garden), GameStatus::Finished).await;

    let open = [GameStatus::Challenge, GameStatus::Active];
    assert_eq!(
        ids(store.games_of(&user("ed"), &open).await.unwrap()),
        [active.id, challenge.id]
    );
    assert_eq!(
        ids(store.games_of(&user("ed"), &[GameStatus::Finished]).await.unwrap()),
        [finished.id]
    );
    assert_eq!(ids(store.games_of(&user("fay"), &open).await.unwrap()), [active.id]);
    assert!(store.games_of(&user("nobody"), &open).await.unwrap().is_empty());
    assert!(store.games_of(&user("ed"), &[]).await.unwrap().is_empty());
}

async fn games_move_between_places_and_are_found_by_place(store: &dyn Store) {
    let mut game = store
        .insert_game(&new_game("ivy", "jon", VariantId::Chess))
        .await
        .unwrap();
    let open = [GameStatus::Challenge, GameStatus::Active];
    assert!(ids(store.games_at(&Place::new("thread-9"), &open).await.unwrap()).is_empty());
    game.location = "thread-9".into();
    game.version += 1;
    store.update_game(&game, &[], &[]).await.unwrap();
    assert_eq!(store.game(game.id).await.unwrap().unwrap().location, "thread-9");
    assert_eq!(
        ids(store.games_at(&Place::new("thread-9"), &open).await.unwrap()),
        [game.id]
    );
    assert!(
        ids(store
            .games_at(&Place::new("thread-9"), &[GameStatus::Finished])
            .await
            .unwrap())
        .is_empty()
    );
}

/// A game keeps the home it came from, and news marked unshown until a newer or equal version
/// is marked shown; games with news unshown are found by their transport's prefix.
async fn homes_and_unshown_news_are_kept(store: &dyn Store) {
    let mut game = store
        .insert_game(&new_game("kim", "lou", VariantId::Chess))
        .await
        .unwrap();
    assert_eq!((game.home.clone(), game.unshown), (None, None));
    game.home = Some("news:channel".into());
    game.location = "news:thread".into();
    game.version += 1;
    game.unshown = Some(game.version);
    store.update_game(&game, &[], &[]).await.unwrap();
    let stored = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(stored.home.as_ref().map(Place::as_str), Some("news:channel"));
    assert_eq!(
        store.unshown_games(&Places::starting_with("news:")).await.unwrap(),
        [game.id]
    );
    assert!(
        store
            .unshown_games(&Places::starting_with("other:"))
            .await
            .unwrap()
            .is_empty()
    );
    store.mark_shown(game.id, game.version - 1).await.unwrap();
    assert_eq!(
        store.unshown_games(&Places::starting_with("news:")).await.unwrap(),
        [game.id],
        "an older version is not enough"
    );
    store.mark_shown(game.id, game.version).await.unwrap();
    assert!(
        store
            .unshown_games(&Places::starting_with("news:"))
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(store.game(game.id).await.unwrap().unwrap().unshown, None);
}

/// The name a user goes by: the latest one stored.
async fn display_names_are_kept_per_user(store: &dyn Store) {
    let (alice, bob) = (user("names-alice"), user("names-bob"));
    assert_eq!(store.display_name(&alice).await.unwrap(), None);
    store.save_display_name(&alice, "Alice", 1).await.unwrap();
    store.save_display_name(&bob, "Bob", 2).await.unwrap();
    store.save_display_name(&alice, "Alice the Bold", 3).await.unwrap();
    assert_eq!(
        store.display_name(&alice).await.unwrap().as_deref(),
        Some("Alice the Bold")
    );
    assert_eq!(store.display_name(&bob).await.unwrap().as_deref(), Some("Bob"));
}

/// Heartbeats (a read, then a write, in one transaction) and game writes from many tasks at
/// once: each waits its turn, none fails with "database is locked".
async fn concurrent_heartbeats_and_writes_wait_their_turn(store: std::sync::Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for task in 0..8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for beat in 0..10 {
                store
                    .heartbeat(&Places::starting_with("local"), task * 100 + beat)
                    .await?;
                store.insert_game(&new_game("alice", "bob", VariantId::Chess)).await?;
            }
            Ok::<_, arbiter::store::StoreError>(())
        }));
    }
    for task in tasks {
        task.await.unwrap().expect("no write fails under contention");
    }
}

/// Saved piece lists: per user, by name, replaced under the same name, deleted once.
async fn saved_lists_are_kept_per_user_by_name(store: &dyn Store) {
    let (alice, bob) = (user("lists-alice"), user("lists-bob"));
    let list = |name: &str, body: &str, at: i64| SavedList {
        name: name.into(),
        body: body.into(),
        saved_at: at,
    };
    store.save_list(&alice, &list("weak", "Wazir, W, W", 1)).await.unwrap();
    store
        .save_list(&alice, &list("strong", "Queen, Q, Q", 2))
        .await
        .unwrap();
    store.save_list(&bob, &list("weak", "Ferz, F, F", 3)).await.unwrap();
    // The same name again replaces the list.
    store
        .save_list(&alice, &list("weak", "Wazir, W, W\nFerz, F, F", 4))
        .await
        .unwrap();
    let saved = store.saved_lists(&alice).await.unwrap();
    assert_eq!(
        saved,
        vec![
            list("strong", "Queen, Q, Q", 2),
            list("weak", "Wazir, W, W\nFerz, F, F", 4)
        ],
        "by name"
    );
    assert!(store.delete_list(&alice, "weak").await.unwrap());
    assert!(!store.delete_list(&alice, "weak").await.unwrap(), "deleted once");
    assert_eq!(store.saved_lists(&alice).await.unwrap().len(), 1);
    assert_eq!(
        store.saved_lists(&bob).await.unwrap(),
        vec![list("weak", "Ferz, F, F", 3)]
    );
}

/// A server's open Death Matches are counted over all its channels: waiting for colours or
/// being played, not finished, not a plain game, not another server's.
async fn open_matches_are_counted_per_server(store: &dyn Store) {
    let (here, there) = (
        arbiter::ids::ServerId::new("discord-guild:31"),
        arbiter::ids::ServerId::new("discord-guild:32"),
    );
    let game = |server: &arbiter::ids::ServerId, place: &str, is_match: bool| NewGame {
        location: place.into(),
        server: Some(server.clone()),
        deathmatch: is_match.then(|| arbiter::model::DeathMatch::new(user("om-host"), user("om-a"), 0)),
        ..new_game("om-a", "om-b", VariantId::Blockade)
    };
    let waiting = store.insert_game(&game(&here, "om-1", true)).await.unwrap();
    stored_as(store, &game(&here, "om-2", true), GameStatus::Active).await;
    stored_as(store, &game(&here, "om-3", true), GameStatus::Finished).await;
    store.insert_game(&game(&here, "om-1", false)).await.unwrap();
    store.insert_game(&game(&there, "om-4", true)).await.unwrap();
    assert_eq!(store.open_matches_on(&here).await.unwrap(), 2, "{waiting:?}");
    assert_eq!(store.open_matches_on(&there).await.unwrap(), 1);
    let nowhere = arbiter::ids::ServerId::new("discord-guild:33");
    assert_eq!(store.open_matches_on(&nowhere).await.unwrap(), 0);
}

async fn analyses_are_kept_once_per_game_and_viewpoint(store: &dyn Store) {
    let game = store
        .insert_game(&new_game("ann", "bob", VariantId::Rejection))
        .await
        .unwrap();
    let other = store
        .insert_game(&new_game("ann", "bob", VariantId::Chess))
        .await
        .unwrap();
    assert_eq!(store.analysis(game.id, "spectator").await.unwrap(), None);
    store
        .save_analysis(game.id, "spectator", "{\"first\":1}", 10)
        .await
        .unwrap();
    store.save_analysis(game.id, "first", "{\"own\":1}", 11).await.unwrap();
    // One made meanwhile by another request changes nothing: the first kept is everyone's.
    store
        .save_analysis(game.id, "spectator", "{\"second\":2}", 12)
        .await
        .unwrap();
    assert_eq!(
        store.analysis(game.id, "spectator").await.unwrap().as_deref(),
        Some("{\"first\":1}")
    );
    assert_eq!(
        store.analysis(game.id, "first").await.unwrap().as_deref(),
        Some("{\"own\":1}")
    );
    assert_eq!(store.analysis(game.id, "second").await.unwrap(), None);
    assert_eq!(store.analysis(other.id, "spectator").await.unwrap(), None);
}

on_each_database!(
    store: insert_and_read_back,
    store: analyses_are_kept_once_per_game_and_viewpoint,
    store: updates_are_guarded_by_the_version,
    store: ratings_move_with_the_save_only_from_the_rating_they_were_computed_from,
    store: the_log_is_append_only_and_ordered,
    store: games_are_listed_per_user_and_status,
    store: games_move_between_places_and_are_found_by_place,
    store: saved_lists_are_kept_per_user_by_name,
    store: homes_and_unshown_news_are_kept,
    store: display_names_are_kept_per_user,
    store: open_matches_are_counted_per_server,
    shared: concurrent_heartbeats_and_writes_wait_their_turn,
);

#[tokio::test]
async fn the_embedded_default_is_a_file_in_the_data_directory_and_persists() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let id = {
        let store = arbiter::store::open(None, &dir).await.unwrap();
        store
            .insert_game(&new_game("gus", "hal", VariantId::Chess))
            .await
            .unwrap()
            .id
    };
    assert!(dir.join("arbiter.db").exists());
    let reopened = arbiter::store::open(None, &dir).await.unwrap();
    assert_eq!(reopened.game(id).await.unwrap().unwrap().challenger, user("gus"));
}

/// CI runs the PostgreSQL half of every test: there, a server that does not answer fails this
/// test (and every other that asks for one) instead of skipping it. Outside CI it may skip.
#[tokio::test]
async fn postgresql_answers_where_ci_requires_it() {
    let db = support::postgres().await;
    if std::env::var_os("CI").is_some() {
        let db = db.expect("CI needs PostgreSQL at TEST_DATABASE_URL");
        assert_eq!(db.name, "postgres");
        let id = db
            .store
            .insert_game(&new_game("ci", "check", VariantId::Chess))
            .await
            .unwrap()
            .id;
        assert!(db.store.game(id).await.unwrap().is_some(), "it keeps what it is given");
    }
}
