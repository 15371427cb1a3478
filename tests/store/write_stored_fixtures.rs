//! Writes tests/fixtures/stored/: games as the store keeps them, of every variant in every phase,
//! exactly as the code of the day writes them. Run by hand when the stored format changes or a
//! fixture is added (`WRITE_STORED_FIXTURES=1 cargo test --test store write_stored_fixtures --
//! --ignored`); the files are committed and `stored_fixtures.rs` checks that every format ever
//! written still loads, and that the fixtures it expects (by name) are all there.
//!
//! A fixture already written is never written again: stored games are players' property, and a
//! committed fixture is the proof that the game as first stored still loads. Only the missing
//! ones are written (new games go at the end, so the games before them are stored as before).

use crate::support::{
    TestArena, accepted, alice, bob, carol, challenged, opened_match, play_moves, started, timed, to_bob,
};
use arbiter::arena::{Caller, ListSource, MatchRequest, OfferResponse};
use arbiter::clock::TimeControl;
use arbiter::clock::{Clock, ManualClock};
use arbiter::ids::{GameId, Place, UserId};
use arbiter::model::{GameSetup, WhitePlayer};
use arbiter::store::SqliteStore;
use arbiter_engine::{Game, Phase, Seat, VariantId, Viewer};
use serde_json::{Value, json};
use sqlx::Row;
use std::sync::Arc;

/// The fixtures' folder: the stored format, and since every game had a clock (migration 0004),
/// "-clocks".
pub const FORMAT: &str = "v2-clocks";

/// An action written by its player, as `"bob Nf6"`: the user (`test:bob`) and the action.
fn written(move_: &str) -> (UserId, &str) {
    let (user, action) = move_.split_once(' ').expect("a player's name, then the action");
    (UserId::new(format!("test:{user}")), action)
}

/// Plays actions written by their players, `"alice e4, bob e5"` (none: `""`), in game `id`.
async fn act(arena: &TestArena, id: GameId, moves: &str) {
    let moves: Vec<(UserId, &str)> = moves.split(", ").filter(|m| !m.is_empty()).map(written).collect();
    let moves: Vec<(&UserId, &str)> = moves.iter().map(|(user, action)| (user, *action)).collect();
    play_moves(arena, id, &moves).await;
}

/// The player of `seat` in the games `started` makes (alice White, bob Black).
fn player_of(seat: Seat) -> UserId {
    match seat {
        Seat::First => alice(),
        Seat::Second => bob(),
    }
}

fn user_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "alice",
        Seat::Second => "bob",
    }
}

/// The action `k` a player of game `id` would write now: the seat to act (the first of several),
/// and one of its legal actions, spread over them so that the picks and moves vary.
async fn written_action(arena: &TestArena, id: GameId, k: usize) -> Option<(Seat, String)> {
    let game = arena.store().game(id).await.unwrap().unwrap();
    let seat = *game.state.to_act().first()?;
    let noted = game.state.noted_actions(seat);
    let (_, text) = &noted[(k * 7 + 3) % noted.len()];
    Some((seat, text.clone()))
}

/// Plays game `id` on as its players would, writing their actions, until it is in `phase` (and
/// then `plies` more actions).
async fn play_until(arena: &TestArena, id: GameId, phase: Phase, plies: usize) {
    let mut k = 0;
    while arena.store().game(id).await.unwrap().unwrap().state.phase() != phase {
        let (seat, text) = written_action(arena, id, k).await.expect("the game goes on");
        play_moves(arena, id, &[(&player_of(seat), &text)]).await;
        k += 1;
        assert!(k < 200, "game {id} never reaches {phase:?}");
    }
    for _ in 0..plies {
        let (seat, text) = written_action(arena, id, k).await.expect("the game goes on");
        play_moves(arena, id, &[(&player_of(seat), &text)]).await;
        k += 1;
    }
}

/// The `next` of a fixture: an action the player to act may write now, after their name.
async fn next_action(arena: &TestArena, id: GameId) -> String {
    let (seat, text) = written_action(arena, id, 0).await.expect("someone is to act");
    format!("{} {text}", user_word(seat))
}

/// A list written as a player writes it, one piece a line, in the notation a game records it in
/// (`list:Name,SYM,betza/...`, spaces in names written `_`).
fn list_notation(lines: &[&str]) -> String {
    let pieces: Vec<String> = lines
        .iter()
        .map(|line| line.replace(", ", ",").replace(' ', "_"))
        .collect();
    format!("list:{}", pieces.join("/"))
}

/// Players' own lists for the fixtures: pieces of their own with royal and pawn marks, pieces both
/// players list alike (one type, picked twice), and a symbol both use for different pieces
/// (Black's plays under letters of its name). Each list is its own first pieces, then the
/// short-range pieces and pawns its player ends both their lists with (`ALICE_SHORT`, `BOB_SHORT`).
const PTT2_ALICE: [&str; 10] = [
    "Guard, GU, WfF, royal",
    "Queen, Q, Q",
    "Rook, R, R",
    "Bishop, B, B",
    "Knight, N, N",
    "Nightrider, NR, NN",
    "Grasshopper, G, gQ",
    "Mao, MA, nN",
    "Cardinal, CD, BN",
    "Sergeant, SG, mfFcfW, pawn",
];
const PTT2_BOB: [&str; 10] = [
    "King, K, K, royal",
    "Queen, Q, Q",
    "Chancellor, CH, RN",
    "Knight-alfil, NA, NA",
    "Rook, R, R",
    "Moa, MO, afsF",
    "Archer, AR, B",
    "Gnu, G, NC",
    "Lancer, LA, fR",
    "Soldier, SO, fsW, pawn",
];
const PATCH_ALICE: [&str; 6] = [
    "Guard, GU, WfF, royal",
    "Queen, Q, Q",
    "Rook, R, R",
    "Knight, N, N",
    "Grasshopper, G, gQ",
    "Sergeant, SG, mfFcfW, pawn",
];
const PATCH_BOB: [&str; 7] = [
    "King, K, K, royal",
    "Queen, Q, Q",
    "Chancellor, CH, RN",
    "Gnu, G, NC",
    "Lancer, LA, fR",
    "Soldier, SO, fsW, pawn",
    "Threeleaper, H, H",
];
const ALICE_SHORT: [&str; 10] = [
    "Wazir, W, W",
    "Ferz, F, F",
    "Alfil, AL, A",
    "Dabbabah, DA, D",
    "Threeleaper, H, H",
    "Tripper, TR, G",
    "Pawn, P, fmWfcF, pawn",
    "Stepper, ST, fmW, pawn",
    "Side mover, SM, sW",
    "Back ferz, BF, bF",
];
const BOB_SHORT: [&str; 9] = [
    "Wazir, W, W",
    "Ferz, F, F",
    "Elephant, EL, nA",
    "Dabbabah, DA, D",
    "Pawn, P, fmWfcF, pawn",
    "Fish pawn, FI, fmWfcFbW, pawn",
    "Chinese pawn, CP, fW, pawn",
    "Retreater, RT, bN",
    "Skipper, SK, vD",
];
const EASY_ALICE: [&str; 7] = [
    "Queen, Q, Q",
    "Queen two, QT, Q",
    "Rook, R, R",
    "Knight, N, N",
    "Crab pawn, CR, fmFbW, pawn",
    "Mao, MA, nN",
    "Gnu, GN, NC",
];
const EASY_BOB: [&str; 7] = [
    "Archbishop, A, BN",
    "Rook, R, R",
    "Bishop, B, B",
    "Giraffe, K, fbsN",
    "Elephant, EL, nA",
    "Wazir, W, W",
    "Sergeant, SG, mfFcfW, pawn",
];

/// Sends `user`'s list as a player does (`/list` with the text, one piece a line).
async fn send_list(arena: &TestArena, id: GameId, user: &UserId, lines: &[&str]) {
    let effects = arena
        .lists()
        .submit(Some(id), user, ListSource::Text(lines.join("\n")))
        .await
        .unwrap_or_else(|e| panic!("{user}'s list: {e}"));
    let game = arena.store().game(id).await.unwrap().unwrap();
    let seat = if *user == alice() { Seat::First } else { Seat::Second };
    assert!(
        !game.state.to_act().contains(&seat) || game.state.phase() != Phase::SealedChoice,
        "{user}'s list was not accepted: {:?}",
        effects.reply.map(|r| r.text)
    );
}

/// Every column of a row, as stored.
fn columns(row: &sqlx::sqlite::SqliteRow) -> serde_json::Map<String, Value> {
    use sqlx::Column;
    let mut columns = serde_json::Map::new();
    for (index, column) in row.columns().iter().enumerate() {
        let value = match row.try_get::<Option<i64>, _>(index) {
            Ok(Some(n)) => json!(n),
            Ok(None) => Value::Null,
            Err(_) => json!(row.try_get::<Option<String>, _>(index).unwrap()),
        };
        columns.insert(column.name().to_string(), value);
    }
    columns
}

/// Every column of the game and its log, as stored, and what the code of the day made of it.
async fn dump(pool: &sqlx::SqlitePool, arena: &TestArena, id: GameId, next: Option<(&str, &str)>) -> Value {
    let row = sqlx::query("SELECT * FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap();
    let log: Vec<Value> = sqlx::query("SELECT * FROM game_log WHERE game_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(pool)
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let mut entry = columns(r);
            entry.remove("game_id");
            Value::Object(entry)
        })
        .collect();
    let game = arena.store().game(id).await.unwrap().unwrap();
    let view = game.state.view(Viewer::Spectator);
    let to_act: Vec<&str> = view
        .to_act
        .iter()
        .map(|s| if *s == Seat::First { "first" } else { "second" })
        .collect();
    let legal: Vec<Value> = view
        .to_act
        .iter()
        .map(|&seat| json!(game.state.legal_actions(seat).len()))
        .collect();
    json!({
        "format": FORMAT,
        "game": Value::Object(columns(&row)),
        "log": log,
        "expected": {
            "fen": view.fen(),
            "record": view.record.iter().map(|e| e.text.clone()).collect::<Vec<_>>(),
            "to_act": to_act,
            "legal_counts": legal,
            "result": view.outcome.as_ref().map(|o| o.result_text()),
            "reason": view.outcome.as_ref().map(|o| o.reason.describe()),
        },
        "next": next.map(|(user, action)| json!({"user": user, "action": action})),
    })
}

/// The fixtures written so far, with the arena their games are played in and its database (read
/// row by row).
struct Writer {
    arena: TestArena,
    pool: sqlx::SqlitePool,
    fixtures: Vec<(&'static str, Value)>,
}

impl Writer {
    /// Keeps game `id` as stored now as the fixture `name`, with `next` (as `"bob Nf6"`) an
    /// action its player may write now.
    async fn keep(&mut self, name: &'static str, id: GameId, next: Option<&str>) {
        let next = next.map(|next| next.split_once(' ').expect("a player's name, then the action"));
        let value = dump(&self.pool, &self.arena, id, next).await;
        self.fixtures.push((name, value));
    }

    /// A game of `variant` started (alice White, bob Black) and played through `moves` (as
    /// [`act`] reads them).
    async fn game(&self, variant: VariantId, moves: &str) -> GameId {
        let id = started(&self.arena, variant).await;
        act(&self.arena, id, moves).await;
        id
    }

    /// Keeps a game of `variant` after `moves` as the fixture `name` (see [`Writer::keep`]).
    async fn played(&mut self, name: &'static str, variant: VariantId, moves: &str, next: Option<&str>) {
        let id = self.game(variant, moves).await;
        self.keep(name, id, next).await;
    }
}

/// The blockade set-up the Blockade and Garden of Statues fixtures play, and its first move.
const SETUP_MOVES: &str = "alice Q@d4, bob Q@e5, bob R@a8, alice R@a1, alice R@h1, bob R@h8, bob B@c8, alice B@c1, \
    alice B@f1, bob B@f8, alice Qd4-d5@d7";

/// A patch list as a player writes it (the Patch fixtures' alice sends it, changing one piece).
const PATCH: &str = "list:King,K,K,royal/Queen,Q,Q/Rook,R,R/Bishop,B,B/Knight,N,N/Camel,CA,C/Ferz,F,F/Wazir,W,W/\
    Alfil,AL,A/Dabbabah,DA,D/Threeleaper,H,H/Tripper,TR,G/Pawn,P,fmWfcF,pawn/Chinese_pawn,CP,fW,pawn/\
    Fish_pawn,FI,fmWfcFbW,pawn/Chinese_fish_pawn,FC,fWbW,pawn";

#[tokio::test]
#[ignore = "writes the committed fixtures; run by hand when the stored format changes"]
async fn write_stored_fixtures() {
    if std::env::var_os("WRITE_STORED_FIXTURES").is_none() {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let url = format!("sqlite://{}?mode=rwc", dir.join("fixtures.db").display());
    let store = SqliteStore::connect(&url).await.unwrap();
    let pool = store.pool().clone();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let arena = TestArena::new(Arc::new(store), clock.clone() as Arc<dyn Clock>);
    let a = alice();
    let b = bob();
    let mut w = Writer {
        arena: arena.clone(),
        pool,
        fixtures: Vec::new(),
    };

    // Chess: an open challenge; a game in play with castling, en passant and a pending draw
    // offer; a promotion to a knight; a takeback; a mate; a resignation; a start from a FEN.
    let id = challenged(
        &arena,
        &a,
        to_bob(GameSetup::new(VariantId::Chess), WhitePlayer::Random),
    )
    .await;
    w.keep("chess-challenge", id, None).await;

    let opening =
        "alice e4, bob Nf6, alice e5, bob d5, alice exd6, bob e5, alice Nf3, bob Be7, alice Bc4, bob O-O, alice O-O";
    let id = w.game(VariantId::Chess, opening).await;
    clock.advance(60_000);
    arena.play().draw(id, &b, OfferResponse::Offer).await.unwrap();
    w.keep("chess-play-castled-ep-offer", id, Some("bob Bxd6")).await;

    let fen = "r7/1P6/8/8/8/8/k7/4K3 w - - 0 1";
    let setup = GameSetup::with_fen(VariantId::Chess, Some(fen.into()));
    let id = accepted(&arena, to_bob(setup, WhitePlayer::Challenger)).await;
    act(&arena, id, "alice b8=N, bob Ka3, alice Nc6, bob Ka4").await;
    arena.play().takeback(id, &b, OfferResponse::Offer).await.unwrap();
    arena.play().takeback(id, &a, OfferResponse::Accept).await.unwrap();
    w.keep("chess-from-fen-promotion-takeback", id, Some("bob Kb3")).await;

    w.played(
        "chess-checkmate",
        VariantId::Chess,
        "alice f3, bob e5, alice g4, bob Qh4#",
        None,
    )
    .await;
    let id = w.game(VariantId::Chess, "alice d4, bob d5").await;
    arena.play().resign(id, &a).await.unwrap();
    w.keep("chess-resigned", id, None).await;

    // Blockade: mid set-up, in play, and won by a blockade.
    w.played(
        "blockade-setup",
        VariantId::Blockade,
        "alice Q@d4, bob R@a8, bob B@h8",
        Some("alice R@a1"),
    )
    .await;
    w.played("blockade-play", VariantId::Blockade, SETUP_MOVES, Some("bob Qe5-e4@e2"))
        .await;
    let setup = GameSetup::with_fen(VariantId::Blockade, Some("r*6/*7/8/8/8/8/8/Q7 w".into()));
    let id = accepted(&arena, to_bob(setup, WhitePlayer::Challenger)).await;
    act(&arena, id, "alice Qa1-b1@b2").await;
    w.keep("blockade-walled-in", id, None).await;

    let id = w.game(VariantId::Garden, SETUP_MOVES).await;
    arena.play().resign(id, &b).await.unwrap();
    w.keep("garden-resigned", id, None).await;

    // Garden of Statues Death Matches: waiting for colours, and in play on the clock.
    let host = Caller::host(&carol(), None);
    let request = |location: &str| MatchRequest {
        variant: VariantId::Garden,
        players: [alice(), bob()],
        advantage: alice(),
        control: TimeControl::STANDARD,
        location: Place::new(location),
        computer: None,
    };
    let id = opened_match(&arena, &host, request("show-1")).await;
    w.keep("garden-match-colours", id, None).await;
    let id = opened_match(&arena, &host, request("show-2")).await;
    arena
        .matches()
        .choose_side(id, &Caller::player(&a, None), Seat::First)
        .await
        .unwrap();
    clock.advance(20_000);
    act(&arena, id, "alice Q@d4, bob Q@e5").await;
    clock.advance(70_000);
    w.keep("garden-match-play", id, Some("bob R@a8")).await;

    // Timed games: three days per move with a move overdue for a reminder, and a secret choice
    // made by one player while the other's clock runs on.
    let timed_game = |variant: VariantId, control: &str| {
        accepted(
            &arena,
            timed(to_bob(GameSetup::new(variant), WhitePlayer::Challenger), control),
        )
    };
    let id = timed_game(VariantId::Chess, "3d").await;
    clock.advance(3_600_000);
    act(&arena, id, "alice e4, bob c5").await;
    clock.advance(40 * 3_600_000);
    act(&arena, id, "alice Nf3").await;
    w.keep("chess-timed", id, Some("bob d6")).await;
    let id = timed_game(VariantId::Beirut, "1d+2d").await;
    clock.advance(60_000);
    act(&arena, id, "alice bomb:d2").await;
    w.keep("beirut-timed-choosing", id, Some("bob bomb:e7")).await;

    // Games only started and played, each kept once: Beirut with one carrier chosen, both chosen
    // and moving, and a king blown up; the FIDE-based games in play and finished; games whose
    // seats do not simply alternate (picks in blocks, sealed half-turns); Rejection with a
    // proposal waiting for its answer, and a rejection waiting for the next move; Capture the
    // Flag with one base chosen, and a carrier in play after a drop and a pick-up; players' own
    // pieces, one list in (and changed once) and the other to come, and both in with the
    // picking under way (a type both players listed).
    let patch_listing = format!(
        "alice {}, alice {PATCH}",
        PATCH.replace("Camel,CA,C", "Giraffe,GI,fbsN")
    );
    let easy_patch_picking = "alice list:Queen,Q,Q/Rook,R,R/Bishop,B,B/Knight,N,N/Camel,CA,C/Cardinal,CD,BN/Chancellor,CH,RN, \
        bob list:Queen,Q,Q/Wazir,W,W/Ferz,F,F/Alfil,AL,A/Dabbabah,DA,D/Mann,MN,K/Giraffe,K,fbsN, \
        alice Q@d1, bob Q@d8, bob G@c8";
    let patch_next = format!("bob {PATCH}");
    let played: [(&str, VariantId, &str, Option<&str>); 20] = [
        (
            "beirut-choosing",
            VariantId::Beirut,
            "bob bomb:e7",
            Some("alice bomb:d2"),
        ),
        (
            "beirut-play",
            VariantId::Beirut,
            "alice bomb:d2, bob bomb:e7, alice e4, bob e5, alice d4",
            Some("bob exd4"),
        ),
        (
            "beirut-detonated",
            VariantId::Beirut,
            "alice bomb:d2, bob bomb:g8, alice e4, bob Nf6, alice Ke2, bob Ng4, alice Kf3, bob detonate",
            None,
        ),
        (
            "circe-play-rebirths",
            VariantId::Circe,
            "alice e4, bob d5, alice exd5(a4), bob Bg4, alice Nf3, bob Qc8, alice h3, bob Bxf3(g1)",
            Some("alice Nxf3"),
        ),
        (
            "circe-checkmate",
            VariantId::Circe,
            "alice f4, bob e5, alice g4, bob Qh4+, alice fxe5(g3), bob Qxh2(g6), alice gxh7(e3), bob Qf2#",
            None,
        ),
        (
            "portal-play-teleports",
            VariantId::Portal,
            "alice Na3, bob Nc6, alice f3, bob Nb4",
            Some("alice bxb4"),
        ),
        (
            "portal-checkmate",
            VariantId::Portal,
            "alice f3, bob a6, alice bxa6, bob e5, alice axb7, bob f6, alice Kf2, bob Qh4+, alice Kf3, bob Qg4#",
            None,
        ),
        (
            "knights-are-god-play-relays",
            VariantId::KnightsAreGod,
            "alice e2d4, bob g8h5, alice a2a4",
            Some("bob a5"),
        ),
        (
            "knights-are-god-checkmate",
            VariantId::KnightsAreGod,
            "alice b1a4, bob b8c5, alice a4d5",
            None,
        ),
        (
            "domination-play-scored",
            VariantId::Domination,
            "alice e3, bob d5, alice e4, bob dxe4, alice Nc3, bob Nf6",
            Some("alice Nxe4"),
        ),
        (
            "domination-checkmate",
            VariantId::Domination,
            "alice f4, bob e6, alice g4, bob Qh4#",
            None,
        ),
        (
            "ultimate-battle-play",
            VariantId::UltimateBattle,
            "alice e4, bob d5, alice exd5, bob Qe6",
            Some("alice Nc4"),
        ),
        (
            "pick-the-team-picking",
            VariantId::PickTheTeam,
            "alice K@e1, bob RN@f10, bob CN@a10, alice Q@b1",
            Some("alice PA@a1"),
        ),
        (
            "assault-sealed",
            VariantId::Assault,
            "alice e4, bob d4, alice d5",
            Some("bob d5"),
        ),
        (
            "rejection-proposed",
            VariantId::Rejection,
            "alice e4, bob accept, bob c5",
            Some("alice reject"),
        ),
        (
            "rejection-rejected",
            VariantId::Rejection,
            "alice d4, bob reject",
            Some("alice e4"),
        ),
        ("ctf-choosing", VariantId::Ctf, "bob base:e5", Some("alice base:f3")),
        (
            "ctf-carrying",
            VariantId::Ctf,
            "alice base:f3, bob base:e5, alice Nf3, bob a6, alice Ne5, bob a5, alice Nc4, bob b6, alice drop, bob h6, \
                alice Ne3, bob h5, alice Nc4",
            Some("bob h4"),
        ),
        ("patch-listing", VariantId::Patch, &patch_listing, Some(&patch_next)),
        (
            "easy-patch-picking",
            VariantId::EasyPatch,
            easy_patch_picking,
            Some("alice N@b1"),
        ),
    ];
    for (name, variant, moves, next) in played {
        w.played(name, variant, moves, next).await;
    }

    // Every variant in every phase (stored_fixtures.rs names them all): the phases the games
    // above leave out. Games of the players' own pieces with their own lists: one list in, both
    // in and the picks under way, the picks done and play begun, and resigned in play; an Easy
    // Patch game resigned before the lists were in.
    let own_games: [(&str, VariantId, Vec<&str>, Vec<&str>); 3] = [
        (
            "pick-the-team-2",
            VariantId::PickTheTeam2,
            [&PTT2_ALICE[..], &ALICE_SHORT].concat(),
            [&PTT2_BOB[..], &BOB_SHORT, &["Threeleaper, H, H"]].concat(),
        ),
        (
            "patch",
            VariantId::Patch,
            [&PATCH_ALICE[..], &ALICE_SHORT].concat(),
            [&PATCH_BOB[..], &BOB_SHORT].concat(),
        ),
        (
            "easy-patch",
            VariantId::EasyPatch,
            EASY_ALICE.to_vec(),
            EASY_BOB.to_vec(),
        ),
    ];
    for (name, variant, alice_list, bob_list) in own_games {
        let id = started(&arena, variant).await;
        send_list(&arena, id, &a, &alice_list).await;
        let bob_next = format!("bob {}", list_notation(&bob_list));
        w.keep(leak(format!("{name}-listing-own")), id, Some(&bob_next)).await;
        send_list(&arena, id, &b, &bob_list).await;
        play_until(&arena, id, Phase::Setup, 5).await;
        let next = next_action(&arena, id).await;
        w.keep(leak(format!("{name}-picking-own")), id, Some(&next)).await;
        play_until(&arena, id, Phase::Play, 6).await;
        let next = next_action(&arena, id).await;
        w.keep(leak(format!("{name}-play")), id, Some(&next)).await;
        clock.advance(60_000);
        arena.play().resign(id, &b).await.unwrap();
        w.keep(leak(format!("{name}-resigned")), id, None).await;
    }
    let id = started(&arena, VariantId::EasyPatch).await;
    send_list(&arena, id, &b, &EASY_BOB).await;
    arena.play().resign(id, &a).await.unwrap();
    w.keep("easy-patch-resigned-listing", id, None).await;

    // Pick-the-team: the picks done and play begun, and resigned in play.
    let id = started(&arena, VariantId::PickTheTeam).await;
    play_until(&arena, id, Phase::Play, 6).await;
    let next = next_action(&arena, id).await;
    w.keep("pick-the-team-play", id, Some(&next)).await;
    arena.play().resign(id, &a).await.unwrap();
    w.keep("pick-the-team-resigned", id, None).await;

    // Garden of Statues in play; the games whose fixtures above are all in play, finished.
    w.played("garden-play", VariantId::Garden, SETUP_MOVES, Some("bob Qe5-e4@e2"))
        .await;
    let resigned_in_play = [
        (
            "ultimate-battle-resigned",
            VariantId::UltimateBattle,
            "alice e4, bob d5, alice exd5, bob Qe6",
        ),
        ("assault-resigned", VariantId::Assault, "alice e4, bob d4, alice d5"),
        (
            "rejection-resigned",
            VariantId::Rejection,
            "alice e4, bob accept, bob c5",
        ),
        ("ctf-resigned", VariantId::Ctf, "alice base:f3, bob base:e5, alice e4"),
    ];
    for (name, variant, moves) in resigned_in_play {
        let id = w.game(variant, moves).await;
        arena.play().resign(id, &b).await.unwrap();
        w.keep(name, id, None).await;
    }

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stored")
        .join(FORMAT);
    std::fs::create_dir_all(&dir).unwrap();
    let fixtures = w.fixtures;
    let mut names: Vec<&str> = fixtures.iter().map(|(name, _)| *name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), fixtures.len(), "two fixtures share a name");
    for (name, value) in fixtures {
        let path = dir.join(format!("{name}.json"));
        if path.exists() {
            // Written by an earlier run, and committed: never rewritten.
            continue;
        }
        let text = serde_json::to_string_pretty(&value).unwrap();
        std::fs::write(path, text + "\n").unwrap();
    }
}

/// A name made at run time, for the fixtures' list of names.
fn leak(name: String) -> &'static str {
    Box::leak(name.into_boxed_str())
}
