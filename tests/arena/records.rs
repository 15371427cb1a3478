//! Game records players can use elsewhere: PGN for every game (standard PGN for chess, checked
//! by an independent reader), secrets left out until the game ends, clocks as `%clk`, and
//! imports of what export writes, of other tools' chess PGN and of Arbiter's earlier records.

use crate::support;
use crate::support::{
    accepted, alice, asking, bob, carol, import_to_study, play_in_turn, play_moves, started, timed, to_bob,
};
use arbiter::ids::{GameId, Place, UserId};
use arbiter::model::{GameRow, GameSetup, GameStatus, WhitePlayer};
use arbiter_engine::{EndReason, Game, Seat, VariantId, Viewer};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::HashMap;
use std::ops::ControlFlow;

async fn export(arena: &support::TestArena, id: GameId, viewer: &UserId) -> String {
    let names = HashMap::from([(alice(), "Alice".to_string()), (bob(), "Bob".to_string())]);
    arena
        .records()
        .export(id, &asking(viewer), &names)
        .await
        .unwrap()
        .reply
        .unwrap()
        .text
}

/// Imports `record` as Carol's study and returns the game it became.
async fn carols_study(arena: &support::TestArena, record: &str) -> GameRow {
    let copy = import_to_study(arena, &carol(), record)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{record}"))
        .game
        .unwrap();
    arena.store().game(copy).await.unwrap().unwrap()
}

async fn games_in_room(arena: &support::TestArena) -> usize {
    use GameStatus::*;
    let all = [Challenge, Active, Finished, Declined, Cancelled];
    arena.store().games_at(&Place::new("room"), &all).await.unwrap().len()
}

/// What an independent PGN reader (pgn-reader with shakmaty's move generation) makes of a
/// record: its tags, each move played on its own board, the comments, the final position.
#[derive(Default)]
struct Independent {
    tags: Vec<(String, String)>,
    moves: usize,
    comments: Vec<String>,
    error: Option<String>,
}

impl Visitor for Independent {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = Option<Chess>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).to_string();
        let value = value.decode_utf8_lossy().to_string();
        if name == "FEN" {
            let fen: Fen = value.parse().expect("a FEN shakmaty reads");
            tags.replace(fen.into_position(CastlingMode::Standard).expect("a legal position"));
        }
        self.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, position: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        match san.san.to_move(position) {
            Ok(m) => {
                position.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                self.error = Some(format!("{san}: {e}"));
                ControlFlow::Break(None)
            }
        }
    }

    fn comment(&mut self, _: &mut Self::Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        self.comments
            .push(String::from_utf8_lossy(comment.as_bytes()).trim().to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, position: Self::Movetext) -> Self::Output {
        Some(position)
    }
}

fn read_independently(pgn: &str) -> (Independent, Chess) {
    let mut visitor = Independent::default();
    let mut reader = Reader::new(pgn.as_bytes());
    let position = reader.read_game(&mut visitor).unwrap().flatten();
    assert!(visitor.error.is_none(), "{:?}\n{pgn}", visitor.error);
    (visitor, position.expect("a game"))
}

fn board_part(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

#[tokio::test]
async fn a_chess_record_is_standard_pgn_that_an_independent_reader_replays_to_the_same_position() {
    for db in support::databases().await {
        let (arena, clock) = support::arena(&db);
        let request = to_bob(GameSetup::new(VariantId::Chess), WhitePlayer::Challenger);
        let id = accepted(&arena, timed(request, "10m+5m")).await;
        // Castling, en passant, a promotion with check, a takeback, and a mate.
        let moves = [
            "e4", "d5", "e5", "f5", "exf6", "Nc6", "fxg7", "Bf5", "Nf3", "Qd6", "Bb5", "O-O-O", "O-O", "a6",
        ];
        for text in moves {
            clock.advance(7_000);
            play_in_turn(&arena, id, &[text]).await;
        }
        arena
            .play()
            .takeback(id, &bob(), arbiter::arena::OfferResponse::Offer)
            .await
            .unwrap();
        arena
            .play()
            .takeback(id, &alice(), arbiter::arena::OfferResponse::Accept)
            .await
            .unwrap();
        for text in ["Kb8", "Bxc6", "bxc6", "gxh8=Q"] {
            // alice thinks eleven minutes over Bxc6: a minute off her reserve.
            clock.advance(if text == "Bxc6" { 11 * 60_000 } else { 7_000 });
            play_in_turn(&arena, id, &[text]).await;
        }
        let pgn = export(&arena, id, &carol()).await;
        let (read, position) = read_independently(&pgn);
        assert_eq!(read.moves, 17, "{pgn}");
        let ours = arena.store().game(id).await.unwrap().unwrap();
        let our_fen = ours.state.view(Viewer::Spectator).boards[0].fen.clone();
        let their_fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
        assert_eq!(board_part(&their_fen), board_part(&our_fen), "{pgn}");
        let tags: HashMap<String, String> = read.tags.into_iter().collect();
        assert_eq!(tags["White"], "Alice");
        assert_eq!(tags["Black"], "Bob");
        assert_eq!(tags["Result"], "*");
        assert_eq!(tags["ArbiterClock"], "10m+5m");
        assert!(!tags.contains_key("Variant"), "chess records are standard PGN");
        assert_eq!(tags["Date"].len(), 10);
        // Each move's clock: the time its player has for their next move.
        assert_eq!(read.comments.len(), 17, "{pgn}");
        assert_eq!(read.comments[0], "[%clk 0:15:00]");
        assert_eq!(read.comments[14], "[%clk 0:14:00]", "{pgn}");
        assert!(pgn.contains("9. gxh8=Q"), "{pgn}");
        // Our own reader takes it back to the same game.
        let imported = carols_study(&arena, &pgn).await;
        assert_eq!(imported.state, ours.state, "{}", db.name);
    }
}

#[tokio::test]
async fn a_record_from_a_position_carries_it_as_standard_setup_and_fen_tags() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let setup = GameSetup::with_fen(VariantId::Chess, Some(fen.into()));
    let id = accepted(&arena, to_bob(setup, WhitePlayer::Challenger)).await;
    play_in_turn(&arena, id, &["a8=Q+", "Kd7"]).await;
    arena.play().resign(id, &bob()).await.unwrap();
    let pgn = export(&arena, id, &bob()).await;
    assert!(
        pgn.contains("[SetUp \"1\"]") && pgn.contains(&format!("[FEN \"{fen}\"]")),
        "{pgn}"
    );
    assert!(pgn.contains("[Termination \"normal\"]") && pgn.contains("[Ending \"resignation\"]"));
    let (read, _) = read_independently(&pgn);
    assert_eq!(read.moves, 2);
    let imported = carols_study(&arena, &pgn).await;
    let outcome = imported.state.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::Resignation)
    );
}

#[tokio::test]
async fn every_variant_exports_pgn_and_imports_back_to_the_same_game() {
    let (_db, arena, _) = support::sqlite_arena().await;
    for &variant in VariantId::ALL {
        let id = started(&arena, variant).await;
        // Sixteen actions, each the one in the middle of the list the actor is offered.
        for _ in 0..16 {
            let game = arena.store().game(id).await.unwrap().unwrap();
            let Some(&seat) = game.state.to_act().first() else {
                break;
            };
            let user = game.player(seat).unwrap().clone();
            let offered = arena.play().legal_actions(id, &user).await.unwrap();
            arena.play().act(id, &user, &offered[offered.len() / 2]).await.unwrap();
        }
        let game = arena.store().game(id).await.unwrap().unwrap();
        if game.state.outcome().is_none() {
            arena.play().resign(id, &alice()).await.unwrap();
        }
        // A player's record: Rejection's rejected proposals stay the players' alone for good,
        // so only they can export a record that replays.
        let record = export(&arena, id, &alice()).await;
        if variant == VariantId::Chess {
            assert!(!record.contains("[Variant"), "{record}");
        } else {
            assert!(
                record.contains(&format!("[Variant \"{}\"]", variant.name())),
                "{record}"
            );
        }
        assert!(record.contains("[WhiteId \"test:alice\"]"), "{record}");
        let original = arena.store().game(id).await.unwrap().unwrap();
        let imported = carols_study(&arena, &record).await;
        assert_eq!(imported.state, original.state, "{variant}\n{record}");
        // The record names alice and bob (ids and all); only its importer plays the copy.
        assert_eq!(imported.players, Some([carol(), carol()]), "{variant}");
    }
}

#[tokio::test]
async fn moves_made_at_once_are_written_in_seat_order_with_their_board() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Assault).await;
    // bob (B) submits first in the second step; the record still lists A's move first.
    arena.play().act(id, &alice(), "e4").await.unwrap();
    arena.play().act(id, &bob(), "d4").await.unwrap();
    arena.play().act(id, &bob(), "e5").await.unwrap();
    arena.play().act(id, &alice(), "d5").await.unwrap();
    let record = export(&arena, id, &carol()).await;
    assert!(record.contains("1. 1:e4 2:d4 2. 2:d5 1:e5 *"), "{record}");
    // The same boards and moves; only the order the two moves of a step arrived in differs.
    let stored = arena.store().game(id).await.unwrap().unwrap();
    let original = stored.state.view(Viewer::Spectator);
    let imported = carols_study(&arena, &record).await.state.view(Viewer::Spectator);
    let fens = |view: &arbiter_engine::View| view.boards.iter().map(|b| b.fen.clone()).collect::<Vec<_>>();
    assert_eq!(fens(&imported), fens(&original));
    assert_eq!(imported.notes, original.notes);
    assert_eq!(imported.to_act, original.to_act);
}

#[tokio::test]
async fn secrets_stay_out_of_records_until_the_game_ends() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Beirut).await;
    play_in_turn(&arena, id, &["bomb:d2", "bomb:e7", "e4"]).await;
    let spectators = export(&arena, id, &carol()).await;
    assert!(!spectators.contains("bomb:"), "{spectators}");
    assert!(spectators.contains("{chose a bomb carrier}"), "{spectators}");
    assert!(spectators.contains("[Secrets \"hidden until the game ends\"]"));
    let alices = export(&arena, id, &alice()).await;
    assert!(alices.contains("bomb:d2") && !alices.contains("bomb:e7"), "{alices}");
    let refused = import_to_study(&arena, &alice(), &alices)
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("hides secret choices"), "{refused}");
    arena.play().resign(id, &bob()).await.unwrap();
    let after = export(&arena, id, &carol()).await;
    // The choices are steps of the first turn, not moves of their own (as a proposal's answer).
    assert!(after.contains("1. bomb:d2 bomb:e7 e4 1-0"), "{after}");
}

#[tokio::test]
async fn a_lichess_record_with_clocks_variations_and_annotations_is_imported() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let lichess = r#"[Event "Rated Blitz game"]
[Site "https://lichess.org/AbCdEfGh"]
[Date "2026.11.20"]
[White "magnus_fan"]
[Black "tal_lover"]
[Result "0-1"]
[Variant "Standard"]
[TimeControl "180+2"]
[Termination "Normal"]

1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 Nc6 (2... d6 3. d4) 3. Bc4!? Bc5
4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Nc3?! Nxe4 $6 8. O-O Bxc3 9. d5 Bf6 10. Re1 Ne7
11. Rxe4 d6 12. Bg5 Bxg5 13. Nxg5 h6?? 14. Qe2 hxg5 15. Re1 Be6 16. dxe6 f6 0-1
"#;
    let game = carols_study(&arena, lichess).await;
    assert_eq!(game.state.view(Viewer::Spectator).record.len(), 32);
    // "Normal" is how Lichess ends a resignation and a mate alike: no reason is made up.
    let outcome = game.state.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::Second), EndReason::Unstated)
    );
    assert_eq!(outcome.reason.describe(), "the record's result, which gives no reason");
    assert_eq!(game.player(Seat::First), Some(&carol()), "its importer studies it");
    assert!(!game.is_rated);
    assert!(game.clock.running().is_empty(), "a study reminds nobody");
    assert!(arena.store().ratings_of(None, &carol()).await.unwrap().is_empty());
}

#[tokio::test]
async fn broken_or_hostile_records_say_which_line_is_wrong_and_create_nothing() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let before = games_in_room(&arena).await;
    // Thirty-nine plies of a game, then one the position does not allow.
    let mut game = arbiter_engine::AnyGame::new(VariantId::Chess);
    let mut moves = Vec::new();
    for _ in 0..39 {
        let seat = game.to_act()[0];
        let offered = game.noted_actions(seat);
        let (action, text) = offered[offered.len() / 3].clone();
        game.apply(seat, &action).unwrap();
        moves.push(text);
    }
    let impossible = "Ke5";
    assert!(
        game.parse_action(Seat::Second, impossible).is_err(),
        "the 40th must be illegal"
    );
    moves.push(impossible.to_string());
    let movetext: Vec<String> = moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}\n", i + 1, pair.join(" ")))
        .collect();
    let illegal = format!("[White \"a\"]\n[Black \"b\"]\n\n{}*\n", movetext.concat());
    let error = import_to_study(&arena, &carol(), &illegal)
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("line 23, move 40 \"Ke5\""), "{error}");
    for (record, expected) in [
        (
            "[Variant \"Crazyhouse\"]\n\n1. e4 *",
            "\"Crazyhouse\" is not a game Arbiter hosts",
        ),
        ("[FEN \"not a position\"]\n\n*", "the start position"),
        ("1. f3 e5 2. g4 Qh4# 3. e4 *", "the game was already over"),
        ("1. e4 {a comment that never ends", "never closed"),
        ("[Result \"2-0\"]\n\n1. e4 *", "the result \"2-0\""),
        ("1. e4 *\n\n[Event \"again\"]\n\n1. d4 *", "a second game starts here"),
    ] {
        let error = import_to_study(&arena, &carol(), record).await.unwrap_err().to_string();
        assert!(error.contains(expected), "{record:?}: {error}");
    }
    let huge = format!("1. e4 {{{}}} *", "x".repeat(2 << 20));
    let error = import_to_study(&arena, &carol(), &huge).await.unwrap_err().to_string();
    assert!(error.contains("KB"), "{error}");
    assert_eq!(games_in_room(&arena).await, before, "nothing was created");
}

#[tokio::test]
async fn records_arbiter_wrote_before_pgn_still_import() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let old = "[Game \"12\"]\n[Variant \"blockade\"]\n[White \"local:alice\"]\n[Black \"local:bob\"]\n\
        [Result \"*\"]\n\nwhite: Q@d1\nblack: q@d8\nblack: r@a8\nwhite: R@a1\n";
    let game = carols_study(&arena, old).await;
    assert_eq!(
        game.player(Seat::First),
        Some(&carol()),
        "ids in a record are names only"
    );
    assert_eq!(game.state.view(Viewer::Spectator).record.len(), 4);
    assert_eq!(game.status, GameStatus::Active);
}

/// Rejection Chess records number each turn before its first step, as the rules page writes
/// them (`1. e4 reject d4 e5 accept 2. ...`); records of either numbering read back.
#[tokio::test]
async fn a_rejection_record_numbers_each_turn_first_and_reads_back_in_either_form() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Rejection).await;
    let (a, b) = (alice(), bob());
    // Two turns: e4 rejected, d4 played, e5 accepted; then Nf3 rejected, e3 played.
    play_moves(
        &arena,
        id,
        &[(&a, "e4"), (&b, "reject"), (&a, "d4"), (&b, "e5"), (&a, "accept")],
    )
    .await;
    play_moves(&arena, id, &[(&a, "Nf3"), (&b, "reject"), (&a, "e3")]).await;
    arena.play().resign(id, &bob()).await.unwrap();
    // A player's record (the rejected proposals stay the players' for good).
    let record = export(&arena, id, &alice()).await;
    assert!(
        record.contains("1. e4 reject d4 e5 accept 2. Nf3 reject e3 1-0"),
        "{record}"
    );
    let original = arena.store().game(id).await.unwrap().unwrap();
    let imported = carols_study(&arena, &record).await;
    assert_eq!(imported.state, original.state);
    // The numbering earlier versions wrote reads too.
    let older = record.replace(
        "1. e4 reject d4 e5 accept 2. Nf3 reject e3",
        "e4 reject 1. d4 e5 accept Nf3 reject 2. e3",
    );
    let imported = carols_study(&arena, &older).await;
    assert_eq!(imported.state, original.state);
}
