//! The contract of what belongs to players and servers, on SQLite and PostgreSQL alike:
//! settings per user and per server, ratings saved and read back, and leaderboards (per
//! variant, per server).

use arbiter::clock::{GameClock, TimeControl};
use arbiter::ids::{ServerId, UserId};
use arbiter::model::{GameSetup, GameStatus, NewGame, Reminders, ServerSettings, UserSettings, WhitePlayer};
use arbiter::ratings::Rating;
use arbiter::store::{Store, StoreError};
use arbiter_engine::{AnyGame, VariantId};

fn user(name: &str) -> UserId {
    UserId::new(format!("test:{name}"))
}

fn server(number: u32) -> ServerId {
    ServerId::new(format!("discord-guild:{number}"))
}

/// A game of `variant` between `white` and `black` (seated: an accepted game) on `server`.
fn game_on(server: Option<ServerId>, variant: VariantId, white: &str, black: &str, seated: bool) -> NewGame {
    NewGame {
        setup: GameSetup::new(variant),
        location: "players-room".into(),
        status: if seated {
            GameStatus::Active
        } else {
            GameStatus::Challenge
        },
        challenger: user(white),
        opponent: user(black),
        white_player: WhitePlayer::Challenger,
        players: seated.then(|| [user(white), user(black)]),
        state: AnyGame::new(variant),
        now: 0,
        deathmatch: None,
        clock: GameClock::timed([TimeControl::days_per_move(3); 2], false, 0),
        server,
        tournament: None,
        is_rated: true,
    }
}

/// A rating with every field set apart from the others, so that a column read as another would
/// show.
fn rating(name: &str, variant: VariantId, value: f64, games: i64) -> Rating {
    let wins = games / 2;
    let draws = games / 3;
    Rating {
        server: None,
        user: user(name),
        variant,
        rating: value,
        deviation: 61.25 + games as f64,
        volatility: 0.059_987_5,
        games,
        wins,
        draws,
        losses: games - wins - draws,
        updated_at: 1_700_000_000_000 + games,
    }
}

/// Saves `finals` the way results do: one rated game's save per game played, each rating one
/// game on from the stored one, ending at exactly `finals`. The games saved belong to no server
/// and seat nobody, so they put nobody on a server's leaderboard.
async fn rate(store: &dyn Store, finals: &[Rating]) {
    let most = finals.iter().map(|r| r.games).max().unwrap_or(0);
    for step in 1..=most {
        let ratings: Vec<Rating> = finals
            .iter()
            .filter(|r| r.games >= step)
            .map(|r| {
                if r.games == step {
                    r.clone()
                } else {
                    Rating {
                        rating: 1_000.0 + step as f64,
                        server: r.server.clone(),
                        ..rating(r.user.local_part(), r.variant, 0.0, step)
                    }
                }
            })
            .collect();
        let mut game = store
            .insert_game(&game_on(None, VariantId::Chess, "rater-1", "rater-2", false))
            .await
            .unwrap();
        game.status = GameStatus::Finished;
        game.version += 1;
        store.update_game(&game, &[], &ratings).await.unwrap();
    }
}

/// A user's settings are the defaults until saved, then what was saved last; each user's own.
async fn settings_are_kept_per_user(store: &dyn Store) {
    let (alice, bob) = (user("settings-alice"), user("settings-bob"));
    assert_eq!(store.settings(&alice).await.unwrap(), UserSettings::default());
    assert_eq!(store.settings(&alice).await.unwrap().reminders, Reminders::Thread);
    let dm = UserSettings {
        reminders: Reminders::Dm,
    };
    store.save_settings(&alice, &dm).await.unwrap();
    assert_eq!(store.settings(&alice).await.unwrap(), dm);
    assert_eq!(
        store.settings(&bob).await.unwrap(),
        UserSettings::default(),
        "another user's are untouched"
    );
    let off = UserSettings {
        reminders: Reminders::Off,
    };
    store.save_settings(&bob, &off).await.unwrap();
    store.save_settings(&alice, &UserSettings::default()).await.unwrap();
    assert_eq!(store.settings(&alice).await.unwrap().reminders, Reminders::Thread);
    assert_eq!(store.settings(&bob).await.unwrap().reminders, Reminders::Off);
}

/// A server's settings are the defaults until saved, then what was saved last; each server's own.
async fn settings_are_kept_per_server(store: &dyn Store) {
    let (one, two) = (server(101), server(102));
    assert_eq!(store.server_settings(&one).await.unwrap(), ServerSettings::default());
    assert_eq!(store.server_settings(&one).await.unwrap().host_role, None);
    let hosts = |role: &str| ServerSettings {
        host_role: Some(role.into()),
    };
    store.save_server_settings(&one, &hosts("555")).await.unwrap();
    assert_eq!(store.server_settings(&one).await.unwrap(), hosts("555"));
    assert_eq!(store.server_settings(&two).await.unwrap(), ServerSettings::default());
    store.save_server_settings(&two, &hosts("777")).await.unwrap();
    store.save_server_settings(&one, &hosts("666")).await.unwrap();
    assert_eq!(store.server_settings(&one).await.unwrap(), hosts("666"));
    assert_eq!(store.server_settings(&two).await.unwrap(), hosts("777"));
    store
        .save_server_settings(&one, &ServerSettings::default())
        .await
        .unwrap();
    assert_eq!(
        store.server_settings(&one).await.unwrap().host_role,
        None,
        "back to the bot's default"
    );
    assert_eq!(store.server_settings(&two).await.unwrap(), hosts("777"));
}

/// Ratings read back exactly as saved (every field), per user and variant; a user's ratings
/// come most games first, then by variant.
async fn ratings_read_back_exactly_per_user_and_variant(store: &dyn Store) {
    let chess = rating("rr-alice", VariantId::Chess, 1_623.456_789_012_3, 3);
    let portal = rating("rr-alice", VariantId::Portal, 1_401.5, 3);
    let beirut = rating("rr-alice", VariantId::Beirut, 1_700.25, 1);
    let bob = rating("rr-bob", VariantId::Chess, 1_377.125, 2);
    rate(store, &[chess.clone(), portal.clone(), beirut.clone(), bob.clone()]).await;

    assert_eq!(
        store.rating(None, &user("rr-alice"), VariantId::Chess).await.unwrap(),
        Some(chess.clone())
    );
    assert_eq!(
        store.rating(None, &user("rr-alice"), VariantId::Beirut).await.unwrap(),
        Some(beirut.clone())
    );
    assert_eq!(
        store.rating(None, &user("rr-alice"), VariantId::Garden).await.unwrap(),
        None
    );
    assert_eq!(
        store.rating(None, &user("rr-bob"), VariantId::Chess).await.unwrap(),
        Some(bob.clone())
    );
    assert_eq!(
        store.rating(None, &user("rr-nobody"), VariantId::Chess).await.unwrap(),
        None
    );
    assert_eq!(
        store.ratings_of(None, &user("rr-alice")).await.unwrap(),
        vec![chess, portal, beirut],
        "most games first, then by variant (chess before portal)"
    );
    assert_eq!(store.ratings_of(None, &user("rr-bob")).await.unwrap(), vec![bob]);
    assert_eq!(store.ratings_of(None, &user("rr-nobody")).await.unwrap(), vec![]);
}

/// A player's first rating must be one game on from none: a save whose rating skips ahead is
/// refused whole, and leaves the player unrated (no half-made rating shows).
async fn a_first_rating_that_skips_ahead_is_refused_and_leaves_nothing(store: &dyn Store) {
    let mut game = store
        .insert_game(&game_on(None, VariantId::Chess, "skip-a", "skip-b", true))
        .await
        .unwrap();
    let before = game.clone();
    game.status = GameStatus::Finished;
    game.version += 1;
    let skipping = [
        rating("skip-a", VariantId::Chess, 1_550.0, 1),
        rating("skip-b", VariantId::Chess, 1_450.0, 2),
    ];
    match store.update_game(&game, &[], &skipping).await {
        Err(StoreError::RatingConflict) => {}
        other => panic!("expected a rating conflict, got {other:?}"),
    }
    assert_eq!(store.game(game.id).await.unwrap().unwrap(), before);
    for name in ["skip-a", "skip-b"] {
        assert_eq!(
            store.rating(None, &user(name), VariantId::Chess).await.unwrap(),
            None,
            "{name}"
        );
        assert_eq!(store.ratings_of(None, &user(name)).await.unwrap(), vec![], "{name}");
    }
    assert_eq!(
        store
            .leaderboard(None, VariantId::Chess, 100)
            .await
            .unwrap()
            .iter()
            .filter(|r| r.user.as_str().contains("skip-"))
            .count(),
        0
    );
}

/// A variant's leaderboard: established players (ten games or more) first, each group by
/// rating, best first, ties by user; only the variant's rated players; no more than the limit.
async fn the_leaderboard_ranks_established_players_first_then_by_rating(store: &dyn Store) {
    let variant = VariantId::Garden;
    let established = rating("lb-a", variant, 1_500.0, 12);
    let provisional_best = rating("lb-b", variant, 1_800.0, 3);
    let tied_first = rating("lb-c", variant, 1_650.0, 10);
    let tied_second = rating("lb-d", variant, 1_650.0, 15);
    let provisional = rating("lb-e", variant, 1_400.0, 1);
    let other_variant = rating("lb-f", VariantId::Domination, 2_000.0, 12);
    let just_provisional = rating("lb-g", variant, 1_900.0, 9);
    rate(
        store,
        &[
            established.clone(),
            provisional_best.clone(),
            tied_first.clone(),
            tied_second.clone(),
            provisional.clone(),
            other_variant.clone(),
            just_provisional.clone(),
        ],
    )
    .await;
    let everyone = vec![
        tied_first.clone(),
        tied_second.clone(),
        established.clone(),
        just_provisional.clone(),
        provisional_best,
        provisional,
    ];
    assert_eq!(store.leaderboard(None, variant, 10).await.unwrap(), everyone);
    assert_eq!(
        store.leaderboard(None, variant, 3).await.unwrap(),
        vec![tied_first, tied_second, established],
        "the limit keeps the best"
    );
    assert_eq!(store.leaderboard(None, variant, 0).await.unwrap(), vec![]);
    assert_eq!(
        store.leaderboard(None, VariantId::Domination, 10).await.unwrap(),
        vec![other_variant]
    );
    assert_eq!(
        store.leaderboard(None, VariantId::Rejection, 10).await.unwrap(),
        vec![],
        "a variant nobody played rated"
    );
}

/// Each server keeps its own ladder: a player's ratings on one server never show or move on
/// another, each ladder's first rating starts from none whatever the player has elsewhere, and a
/// leaderboard lists its own server's players only.
async fn each_server_keeps_its_own_ladder(store: &dyn Store) {
    let variant = VariantId::Circe;
    let (home, away, empty) = (server(1), server(2), server(3));
    let on = |server: &ServerId, rating: Rating| Rating {
        server: Some(server.clone()),
        ..rating
    };
    let home_a = on(&home, rating("sv-a", variant, 1_600.0, 3));
    let home_b = on(&home, rating("sv-b", variant, 1_550.0, 2));
    // sv-a on the other server: a ladder of its own, one game in, whatever three games at home.
    let away_a = on(&away, rating("sv-a", variant, 1_420.0, 1));
    let away_c = on(&away, rating("sv-c", variant, 1_700.0, 2));
    let unplaced = rating("sv-a", variant, 1_999.0, 1);
    rate(
        store,
        &[
            home_a.clone(),
            home_b.clone(),
            away_a.clone(),
            away_c.clone(),
            unplaced.clone(),
        ],
    )
    .await;

    let a = user("sv-a");
    assert_eq!(
        store.rating(Some(&home), &a, variant).await.unwrap(),
        Some(home_a.clone())
    );
    assert_eq!(
        store.rating(Some(&away), &a, variant).await.unwrap(),
        Some(away_a.clone())
    );
    assert_eq!(store.rating(Some(&empty), &a, variant).await.unwrap(), None);
    assert_eq!(store.rating(None, &a, variant).await.unwrap(), Some(unplaced));
    assert_eq!(store.ratings_of(Some(&home), &a).await.unwrap(), vec![home_a.clone()]);
    assert_eq!(store.ratings_of(Some(&away), &a).await.unwrap(), vec![away_a.clone()]);
    assert_eq!(store.ratings_of(Some(&empty), &a).await.unwrap(), vec![]);
    assert_eq!(
        store.leaderboard(Some(&home), variant, 10).await.unwrap(),
        vec![home_a.clone(), home_b.clone()]
    );
    assert_eq!(
        store.leaderboard(Some(&home), variant, 1).await.unwrap(),
        vec![home_a.clone()]
    );
    assert_eq!(
        store.leaderboard(Some(&away), variant, 10).await.unwrap(),
        vec![away_c, away_a.clone()]
    );
    assert_eq!(store.leaderboard(Some(&empty), variant, 10).await.unwrap(), vec![]);

    // A result on the away ladder is checked against the away rating alone: one computed from
    // the home rating (three games) is refused there, and moves nothing anywhere.
    let mut game = store
        .insert_game(&game_on(Some(away.clone()), variant, "sv-a", "sv-c", true))
        .await
        .unwrap();
    game.status = GameStatus::Finished;
    game.version += 1;
    let from_home = Rating {
        games: home_a.games + 1,
        ..on(&away, home_a.clone())
    };
    match store.update_game(&game, &[], &[from_home]).await {
        Err(StoreError::RatingConflict) => {}
        other => panic!("expected a rating conflict, got {other:?}"),
    }
    assert_eq!(store.rating(Some(&home), &a, variant).await.unwrap(), Some(home_a));
    assert_eq!(store.rating(Some(&away), &a, variant).await.unwrap(), Some(away_a));
}

on_each_database!(
    store: settings_are_kept_per_user,
    store: settings_are_kept_per_server,
    store: ratings_read_back_exactly_per_user_and_variant,
    store: a_first_rating_that_skips_ahead_is_refused_and_leaves_nothing,
    store: the_leaderboard_ranks_established_players_first_then_by_rating,
    store: each_server_keeps_its_own_ladder,
);
