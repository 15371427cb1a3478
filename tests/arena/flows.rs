//! Game lifecycles through the arena, and every kind of bad request: each gets a clear message
//! and changes nothing.

use crate::support;
use crate::support::{
    accepted, alice, asking, bob, carol, challenged, import_to_study, play_moves, press, refused, started, to_bob,
};
use arbiter::arena::{ArenaError, Button, ChallengeRequest, OfferResponse};
use arbiter::ids::{GameId, UserId};
use arbiter::model::rebuild;
use arbiter::model::{GameSetup, GameStatus, WhitePlayer};
use arbiter_engine::{EndReason, Game, Seat, VariantId, ViewCell, Viewer};

/// The record of game `id` as `viewer` exports it (players named by their ids).
async fn record_for(arena: &support::TestArena, id: GameId, viewer: &UserId) -> String {
    let exported = arena.records().export(id, &asking(viewer), &Default::default()).await;
    exported.unwrap().reply.unwrap().text
}

async fn snapshot(arena: &support::TestArena, id: GameId) -> (arbiter::model::GameRow, usize) {
    let store = arena.store();
    (
        store.game(id).await.unwrap().unwrap(),
        store.log(id).await.unwrap().len(),
    )
}

#[tokio::test]
async fn a_challenge_is_accepted_played_to_mate_and_replays_from_its_log() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let id = started(&arena, VariantId::Chess).await;
        play_moves(&arena, id, &[(&alice(), "f3"), (&bob(), "e5"), (&alice(), "g4")]).await;
        let effects = arena.play().act(id, &bob(), "Qh4#").await.unwrap();
        let post = &effects.posts[0];
        assert!(
            post.text.contains("Qh4#") && post.text.contains("0-1") && post.text.contains("checkmate"),
            "{}",
            post.text
        );
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.status, GameStatus::Finished);
        assert_eq!(game.state.outcome().unwrap().winner, Some(Seat::Second));
        let log = arena.store().log(id).await.unwrap();
        assert_eq!(rebuild(&game.setup, &log).unwrap(), game.state, "{}", db.name);
    }
}

#[tokio::test]
async fn colours_follow_the_challenge_and_random_colours_seat_both_players() {
    let (_db, arena, _) = support::sqlite_arena().await;
    for (choice, white) in [(WhitePlayer::Challenger, alice()), (WhitePlayer::Opponent, bob())] {
        let id = accepted(&arena, to_bob(GameSetup::new(VariantId::Chess), choice)).await;
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.player(Seat::First), Some(&white));
    }
    let mut white_players = std::collections::HashSet::new();
    for _ in 0..40 {
        let id = accepted(&arena, to_bob(GameSetup::new(VariantId::Chess), WhitePlayer::Random)).await;
        let game = arena.store().game(id).await.unwrap().unwrap();
        white_players.insert(game.player(Seat::First).unwrap().clone());
        assert_ne!(game.player(Seat::First), game.player(Seat::Second));
    }
    assert_eq!(
        white_players.len(),
        2,
        "random colours gave both players White at some point"
    );
}

#[tokio::test]
async fn challenges_can_be_declined_or_cancelled_only_by_the_right_player() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let setup = || GameSetup::new(VariantId::Chess);
    let id = challenged(&arena, &alice(), to_bob(setup(), WhitePlayer::Random)).await;
    let before = snapshot(&arena, id).await;
    refused(arena.challenges().accept(id, &carol()).await, "only bob can answer");
    refused(arena.challenges().accept(id, &alice()).await, "only bob can answer");
    refused(arena.challenges().cancel(id, &bob()).await, "only alice can cancel");
    refused(arena.play().act(id, &alice(), "e4").await, "still a challenge");
    assert_eq!(snapshot(&arena, id).await, before);
    arena.challenges().decline(id, &bob()).await.unwrap();
    assert_eq!(
        arena.store().game(id).await.unwrap().unwrap().status,
        GameStatus::Declined
    );
    refused(
        arena.challenges().accept(id, &bob()).await,
        "no longer an open challenge",
    );

    let id = challenged(&arena, &alice(), to_bob(setup(), WhitePlayer::Random)).await;
    arena.challenges().cancel(id, &alice()).await.unwrap();
    assert_eq!(
        arena.store().game(id).await.unwrap().unwrap().status,
        GameStatus::Cancelled
    );
    assert!(matches!(
        arena
            .challenges()
            .challenge(
                &alice(),
                ChallengeRequest::untimed(&alice(), setup(), WhitePlayer::Random, "room")
            )
            .await,
        Err(ArenaError::SelfChallenge)
    ));
}

#[tokio::test]
async fn every_kind_of_bad_request_is_refused_and_changes_nothing() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let id = started(&arena, VariantId::Chess).await;
        play_moves(&arena, id, &[(&alice(), "e4")]).await;
        let before = snapshot(&arena, id).await;
        refused(arena.play().act(id, &carol(), "e5").await, "not playing in game");
        refused(arena.play().act(id, &alice(), "d4").await, "not your turn");
        refused(arena.play().act(id, &bob(), "e4").await, "not a legal move");
        refused(arena.play().act(id, &bob(), "Qxf7").await, "not a legal move");
        refused(arena.play().act(id, &bob(), "hello!").await, "could not read");
        refused(arena.play().act(id, &bob(), "").await, "could not read");
        refused(arena.play().resign(id, &carol()).await, "not playing");
        refused(
            arena.play().draw(id, &bob(), OfferResponse::Accept).await,
            "no draw offer",
        );
        refused(
            arena.play().takeback(id, &alice(), OfferResponse::Accept).await,
            "no takeback offer",
        );
        refused(
            arena.play().takeback(id, &bob(), OfferResponse::Offer).await,
            "no move of your own",
        );
        assert_eq!(snapshot(&arena, id).await, before, "{}", db.name);
        assert!(matches!(
            arena.play().act(GameId::new(id.get() + 999), &bob(), "e5").await,
            Err(ArenaError::UnknownGame(_))
        ));
        assert!(matches!(
            arena.show(GameId::new(id.get() + 999), &asking(&bob())).await,
            Err(ArenaError::UnknownGame(_))
        ));

        // A stale takeback: requested, then the game moved on before it was accepted.
        arena.play().takeback(id, &alice(), OfferResponse::Offer).await.unwrap();
        refused(
            arena.play().takeback(id, &alice(), OfferResponse::Offer).await,
            "already made an offer",
        );
        refused(
            arena.play().takeback(id, &alice(), OfferResponse::Accept).await,
            "your own offer",
        );
        play_moves(&arena, id, &[(&bob(), "e5")]).await;
        let moved_on = snapshot(&arena, id).await;
        refused(
            arena.play().takeback(id, &bob(), OfferResponse::Accept).await,
            "no takeback offer",
        );
        assert_eq!(snapshot(&arena, id).await, moved_on);

        // A finished game refuses everything.
        arena.play().resign(id, &bob()).await.unwrap();
        let finished = snapshot(&arena, id).await;
        refused(arena.play().act(id, &alice(), "Nf3").await, "is over");
        refused(arena.play().resign(id, &alice()).await, "is over");
        refused(arena.play().draw(id, &alice(), OfferResponse::Offer).await, "is over");
        refused(arena.play().abort(id, &alice()).await, "is over");
        assert_eq!(snapshot(&arena, id).await, finished, "{}", db.name);
    }
}

#[tokio::test]
async fn draws_are_offered_declined_by_a_move_and_agreed() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Chess).await;
    arena.play().draw(id, &alice(), OfferResponse::Offer).await.unwrap();
    play_moves(&arena, id, &[(&alice(), "e4"), (&bob(), "e5")]).await;
    refused(
        arena.play().draw(id, &alice(), OfferResponse::Accept).await,
        "no draw offer",
    );
    arena.play().draw(id, &bob(), OfferResponse::Offer).await.unwrap();
    arena.play().draw(id, &alice(), OfferResponse::Decline).await.unwrap();
    arena.play().draw(id, &alice(), OfferResponse::Offer).await.unwrap();
    let effects = arena.play().draw(id, &bob(), OfferResponse::Accept).await.unwrap();
    assert!(effects.posts[0].text.contains("1/2-1/2"), "{}", effects.posts[0].text);
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.state.outcome().unwrap().reason, EndReason::Agreement);
    assert_eq!(
        rebuild(&game.setup, &arena.store().log(id).await.unwrap()).unwrap(),
        game.state
    );
}

#[tokio::test]
async fn takebacks_undo_the_askers_last_move_and_replay_from_the_log() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let id = started(&arena, VariantId::Chess).await;
        play_moves(&arena, id, &[(&alice(), "e4"), (&bob(), "e5"), (&alice(), "Qh5")]).await;
        // Alice takes back her own last move: one ply.
        arena.play().takeback(id, &alice(), OfferResponse::Offer).await.unwrap();
        arena.play().takeback(id, &bob(), OfferResponse::Accept).await.unwrap();
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.state.to_act(), vec![Seat::First]);
        assert_eq!(game.state.view(Viewer::Spectator).record.len(), 2);
        // Bob takes back his move after Alice replied: two plies.
        play_moves(&arena, id, &[(&alice(), "Nf3")]).await;
        arena.play().takeback(id, &bob(), OfferResponse::Offer).await.unwrap();
        arena
            .play()
            .takeback(id, &alice(), OfferResponse::Accept)
            .await
            .unwrap();
        let game = arena.store().game(id).await.unwrap().unwrap();
        assert_eq!(game.state.to_act(), vec![Seat::Second]);
        assert_eq!(game.state.view(Viewer::Spectator).record.len(), 1);
        let log = arena.store().log(id).await.unwrap();
        assert_eq!(rebuild(&game.setup, &log).unwrap(), game.state, "{}", db.name);
    }
}

#[tokio::test]
async fn abort_is_allowed_only_before_both_players_have_acted() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Chess).await;
    play_moves(&arena, id, &[(&alice(), "e4")]).await;
    arena.play().abort(id, &bob()).await.unwrap();
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.state.outcome().unwrap().reason, EndReason::Aborted);

    let id = started(&arena, VariantId::Chess).await;
    play_moves(&arena, id, &[(&alice(), "e4"), (&bob(), "e5")]).await;
    let before = snapshot(&arena, id).await;
    refused(arena.play().abort(id, &alice()).await, "can no longer be aborted");
    assert_eq!(snapshot(&arena, id).await, before);
}

#[tokio::test]
async fn beirut_choices_go_privately_and_never_reach_public_output() {
    for db in support::databases().await {
        let (arena, _) = support::arena(&db);
        let beirut = to_bob(GameSetup::new(VariantId::Beirut), WhitePlayer::Challenger);
        let id = challenged(&arena, &alice(), beirut).await;
        let accepted = arena.challenges().accept(id, &bob()).await.unwrap();
        let prompted: Vec<&UserId> = accepted.direct_messages.iter().map(|dm| &dm.to).collect();
        assert_eq!(prompted, [&alice(), &bob()]);
        assert!(accepted.direct_messages[0].choices.contains(&"bomb:d2".to_string()));

        let chosen = arena.play().act(id, &alice(), "bomb:d2").await.unwrap();
        let public = format!("{:?}", chosen.posts);
        assert!(
            !public.contains("d2") && !public.contains("is_marked: true"),
            "{public}"
        );
        assert!(chosen.reply.as_ref().unwrap().text.contains("bomb:d2"));
        assert!(chosen.direct_messages.is_empty(), "bob was prompted already");
        refused(
            arena.play().act(id, &alice(), "bomb:e2").await,
            "already made your choice",
        );

        let both = arena.play().act(id, &bob(), "bomb:e7").await.unwrap();
        assert!(!format!("{:?}", both.posts).contains("e7"));
        for viewer in [&alice(), &carol()] {
            let shown = arena.show(id, &asking(viewer)).await.unwrap();
            let text = format!("{:?}", shown.reply);
            assert!(
                !text.contains("bomb:e7"),
                "{viewer} must not learn bob's carrier: {text}"
            );
        }
        let export = record_for(&arena, id, &carol()).await;
        assert!(!export.contains("bomb:"), "{export}");
        let bobs = arena
            .show(id, &asking(&bob()))
            .await
            .unwrap()
            .reply
            .unwrap()
            .board
            .unwrap();
        let marked = &bobs.view.board().marks;
        assert_eq!(marked.len(), 1, "bob sees his own carrier only: {marked:?}");
        assert!(matches!(bobs.view.board().cell(marked[0].square), ViewCell::Piece { color, .. } if color.is_black()));

        // A record with a hidden choice cannot be imported; a finished game's can.
        let alices_export = record_for(&arena, id, &alice()).await;
        refused(
            import_to_study(&arena, &alice(), &alices_export).await,
            "hides secret choices",
        );
        arena.play().resign(id, &bob()).await.unwrap();
        let full = record_for(&arena, id, &carol()).await;
        assert!(full.contains("bomb:d2") && full.contains("bomb:e7"), "{full}");
        let copy = import_to_study(&arena, &carol(), &full).await.unwrap().game.unwrap();
        let original = arena.store().game(id).await.unwrap().unwrap();
        let imported = arena.store().game(copy).await.unwrap().unwrap();
        assert_eq!(imported.state, original.state, "{}", db.name);
    }
}

#[tokio::test]
async fn games_list_whose_turn_it_is_and_since_when() {
    let (_db, arena, clock) = support::sqlite_arena().await;
    let first = started(&arena, VariantId::Chess).await;
    clock.advance(60_000);
    let second = started(&arena, VariantId::Chess).await;
    play_moves(&arena, second, &[(&alice(), "e4")]).await;
    let to_alice = ChallengeRequest::untimed(&alice(), GameSetup::new(VariantId::Garden), WhitePlayer::Random, "room");
    let waiting = challenged(&arena, &carol(), to_alice).await;
    let games = arena.games(&alice()).await.unwrap();
    let order: Vec<(GameId, bool)> = games.iter().map(|g| (g.id, g.is_your_turn)).collect();
    assert_eq!(order, [(first, true), (waiting, true), (second, false)]);
    assert_eq!(games[0].since, 1_700_000_000_000);
    assert!(
        arena
            .games(&carol())
            .await
            .unwrap()
            .iter()
            .all(|g| g.id == waiting && !g.is_your_turn)
    );
}

#[tokio::test]
async fn a_button_answers_only_the_question_it_was_posted_with() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Chess).await;
    let first = arena
        .play()
        .draw(id, &alice(), OfferResponse::Offer)
        .await
        .unwrap()
        .version
        .unwrap();
    arena.play().draw(id, &bob(), OfferResponse::Decline).await.unwrap();
    arena.play().draw(id, &alice(), OfferResponse::Offer).await.unwrap();
    let before = snapshot(&arena, id).await;
    // The first offer's "Accept draw" button must not accept the second offer.
    refused(
        press(&arena, id, &bob(), Button::AcceptDraw, first, "room").await,
        "out of date",
    );
    assert_eq!(snapshot(&arena, id).await, before);
    let current = before.0.version;
    press(&arena, id, &bob(), Button::AcceptDraw, current, "room")
        .await
        .unwrap();
    let game = arena.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.state.outcome().unwrap().reason, EndReason::Agreement);
}

#[tokio::test]
async fn a_player_may_have_twenty_open_challenges_and_no_more() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let challenge = |opponent: UserId| {
        let arena = arena.clone();
        async move {
            let request =
                ChallengeRequest::untimed(&opponent, GameSetup::new(VariantId::Chess), WhitePlayer::Random, "room");
            arena.challenges().challenge(&alice(), request).await
        }
    };
    let mut first = None;
    for i in 0..arbiter::arena::MOST_OPEN_CHALLENGES {
        let id = challenge(UserId::new(format!("test:friend{i}"))).await.unwrap().game;
        first = first.or(id);
    }
    // Challenges others sent alice do not count against her.
    let request = ChallengeRequest::untimed(&alice(), GameSetup::new(VariantId::Chess), WhitePlayer::Random, "room");
    arena.challenges().challenge(&bob(), request).await.unwrap();
    let refused = challenge(carol()).await.unwrap_err().to_string();
    assert!(
        refused.contains("you have 20 challenges nobody has answered yet"),
        "{refused}"
    );
    let open = arena
        .store()
        .games_of(&carol(), &[GameStatus::Challenge])
        .await
        .unwrap();
    assert!(open.is_empty(), "nothing was created for carol");
    // An answered or cancelled challenge frees a place.
    arena.challenges().cancel(first.unwrap(), &alice()).await.unwrap();
    challenge(carol()).await.unwrap();
}
