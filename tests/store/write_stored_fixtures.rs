//! Writes tests/fixtures/stored/: games as the store keeps them, of every variant in every phase,
//! exactly as the code of the day writes them. Run by hand when the stored format changes or a
//! fixture is added (`WRITE_STORED_FIXTURES=1 cargo test --test store write_stored_fixtures --
//! --ignored`); the files are committed and `stored_fixtures.rs` checks that every format ever
//! written still loads, and that the fixtures it expects (by name) are all there.
//!
//! A fixture already written is never written again: stored games are players' property, and a
//! committed fixture is the proof that the game as first stored still loads. Only the missing
//! ones are written (new games go at the end, so the games before them are stored as before).

use crate::support::{alice, bob, carol, started};
use arbiter::arena::{Caller, ChallengeRequest, ListSource, MatchRequest, OfferResponse};
use arbiter::clock::TimeControl;
use arbiter::clock::{Clock, ManualClock};
use arbiter::ids::{GameId, Place, UserId};
use arbiter::model::{GameSetup, WhitePlayer};
use arbiter::store::SqliteStore;
use arbiter_engine::{Game, Phase, Seat, VariantId, Viewer};
use serde_json::{Value, json};
use sqlx::Row;

/// The fixtures' folder: the stored format, and since every game had a clock (migration 0004),
/// "-clocks".
pub const FORMAT: &str = "v2-clocks";

/// Actions written by their players.
type Moves<'a> = &'a [(&'a UserId, &'a str)];

async fn act(arena: &crate::support::TestArena, id: GameId, moves: Moves<'_>) {
    for (user, text) in moves {
        arena
            .play()
            .act(id, user, text)
            .await
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
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
async fn written_action(arena: &crate::support::TestArena, id: GameId, k: usize) -> Option<(Seat, String)> {
    let game = arena.store().game(id).await.unwrap().unwrap();
    let seat = *game.state.to_act().first()?;
    let noted = game.state.noted_actions(seat);
    let (_, text) = &noted[(k * 7 + 3) % noted.len()];
    Some((seat, text.clone()))
}

/// Plays game `id` on as its players would, writing their actions, until it is in `phase` (and
/// then `plies` more actions).
async fn play_until(arena: &crate::support::TestArena, id: GameId, phase: Phase, plies: usize) {
    let mut k = 0;
    while arena.store().game(id).await.unwrap().unwrap().state.phase() != phase {
        let (seat, text) = written_action(arena, id, k).await.expect("the game goes on");
        act(arena, id, &[(&player_of(seat), &text)]).await;
        k += 1;
        assert!(k < 200, "game {id} never reaches {phase:?}");
    }
    for _ in 0..plies {
        let (seat, text) = written_action(arena, id, k).await.expect("the game goes on");
        act(arena, id, &[(&player_of(seat), &text)]).await;
        k += 1;
    }
}

/// The `next` of a fixture: an action the player to act may write now.
async fn next_action(arena: &crate::support::TestArena, id: GameId) -> (&'static str, String) {
    let (seat, text) = written_action(arena, id, 0).await.expect("someone is to act");
    (user_word(seat), text)
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
/// (Black's plays under letters of its name).
const PTT2_ALICE: [&str; 20] = [
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
const PTT2_BOB: [&str; 20] = [
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
    "Wazir, W, W",
    "Ferz, F, F",
    "Elephant, EL, nA",
    "Dabbabah, DA, D",
    "Pawn, P, fmWfcF, pawn",
    "Fish pawn, FI, fmWfcFbW, pawn",
    "Chinese pawn, CP, fW, pawn",
    "Retreater, RT, bN",
    "Skipper, SK, vD",
    "Threeleaper, H, H",
];
const PATCH_ALICE: [&str; 16] = [
    "Guard, GU, WfF, royal",
    "Queen, Q, Q",
    "Rook, R, R",
    "Knight, N, N",
    "Grasshopper, G, gQ",
    "Sergeant, SG, mfFcfW, pawn",
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
const PATCH_BOB: [&str; 16] = [
    "King, K, K, royal",
    "Queen, Q, Q",
    "Chancellor, CH, RN",
    "Gnu, G, NC",
    "Lancer, LA, fR",
    "Soldier, SO, fsW, pawn",
    "Threeleaper, H, H",
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
async fn send_list(arena: &crate::support::TestArena, id: GameId, user: &UserId, lines: &[&str]) {
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
async fn dump(
    pool: &sqlx::SqlitePool,
    arena: &crate::support::TestArena,
    id: GameId,
    next: Option<(&str, &str)>,
) -> Value {
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
    let clock = std::sync::Arc::new(ManualClock::new(1_700_000_000_000));
    let arena = crate::support::TestArena::new(std::sync::Arc::new(store), clock.clone() as std::sync::Arc<dyn Clock>);
    let a = alice();
    let b = bob();
    let mut fixtures: Vec<(&str, Value)> = Vec::new();

    // Chess: an open challenge; a game in play with castling, en passant and a pending draw
    // offer; a promotion to a knight; a takeback; a mate; a resignation; a start from a FEN.
    let id = arena
        .challenges()
        .challenge(
            &a,
            ChallengeRequest::untimed(&b, GameSetup::new(VariantId::Chess), WhitePlayer::Random, "room"),
        )
        .await
        .unwrap()
        .game
        .unwrap();
    fixtures.push(("chess-challenge", dump(&pool, &arena, id, None).await));

    let id = started(&arena, VariantId::Chess).await;
    act(
        &arena,
        id,
        &[
            (&a, "e4"),
            (&b, "Nf6"),
            (&a, "e5"),
            (&b, "d5"),
            (&a, "exd6"),
            (&b, "e5"),
            (&a, "Nf3"),
            (&b, "Be7"),
            (&a, "Bc4"),
            (&b, "O-O"),
            (&a, "O-O"),
        ],
    )
    .await;
    clock.advance(60_000);
    arena.play().draw(id, &b, OfferResponse::Offer).await.unwrap();
    fixtures.push((
        "chess-play-castled-ep-offer",
        dump(&pool, &arena, id, Some(("bob", "Bxd6"))).await,
    ));

    let fen = "r7/1P6/8/8/8/8/k7/4K3 w - - 0 1";
    let setup = GameSetup::with_fen(VariantId::Chess, Some(fen.into()));
    let id = arena
        .challenges()
        .challenge(
            &a,
            ChallengeRequest::untimed(&b, setup, WhitePlayer::Challenger, "room"),
        )
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, &b).await.unwrap();
    act(&arena, id, &[(&a, "b8=N"), (&b, "Ka3"), (&a, "Nc6"), (&b, "Ka4")]).await;
    arena.play().takeback(id, &b, OfferResponse::Offer).await.unwrap();
    arena.play().takeback(id, &a, OfferResponse::Accept).await.unwrap();
    fixtures.push((
        "chess-from-fen-promotion-takeback",
        dump(&pool, &arena, id, Some(("bob", "Kb3"))).await,
    ));

    let id = started(&arena, VariantId::Chess).await;
    act(&arena, id, &[(&a, "f3"), (&b, "e5"), (&a, "g4"), (&b, "Qh4#")]).await;
    fixtures.push(("chess-checkmate", dump(&pool, &arena, id, None).await));

    let id = started(&arena, VariantId::Chess).await;
    act(&arena, id, &[(&a, "d4"), (&b, "d5")]).await;
    arena.play().resign(id, &a).await.unwrap();
    fixtures.push(("chess-resigned", dump(&pool, &arena, id, None).await));

    // Blockade: mid set-up, in play, and won by a blockade.
    let id = started(&arena, VariantId::Blockade).await;
    act(&arena, id, &[(&a, "Q@d4"), (&b, "R@a8"), (&b, "B@h8")]).await;
    fixtures.push(("blockade-setup", dump(&pool, &arena, id, Some(("alice", "R@a1"))).await));

    let id = started(&arena, VariantId::Blockade).await;
    let setup_moves = [
        (&a, "Q@d4"),
        (&b, "Q@e5"),
        (&b, "R@a8"),
        (&a, "R@a1"),
        (&a, "R@h1"),
        (&b, "R@h8"),
        (&b, "B@c8"),
        (&a, "B@c1"),
        (&a, "B@f1"),
        (&b, "B@f8"),
        (&a, "Qd4-d5@d7"),
    ];
    act(&arena, id, &setup_moves).await;
    fixtures.push((
        "blockade-play",
        dump(&pool, &arena, id, Some(("bob", "Qe5-e4@e2"))).await,
    ));

    let setup = GameSetup::with_fen(VariantId::Blockade, Some("r*6/*7/8/8/8/8/8/Q7 w".into()));
    let id = arena
        .challenges()
        .challenge(
            &a,
            ChallengeRequest::untimed(&b, setup, WhitePlayer::Challenger, "room"),
        )
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, &b).await.unwrap();
    act(&arena, id, &[(&a, "Qa1-b1@b2")]).await;
    fixtures.push(("blockade-walled-in", dump(&pool, &arena, id, None).await));

    let id = started(&arena, VariantId::Garden).await;
    act(&arena, id, &setup_moves).await;
    arena.play().resign(id, &b).await.unwrap();
    fixtures.push(("garden-resigned", dump(&pool, &arena, id, None).await));

    // Garden of Statues Death Matches: waiting for colours, and in play on the clock.
    let request = |location: &str| MatchRequest {
        variant: VariantId::Garden,
        players: [alice(), bob()],
        advantage: alice(),
        control: TimeControl::STANDARD,
        location: Place::new(location),
        computer: None,
    };
    let id = arena
        .matches()
        .start(&Caller::host(&carol(), None), request("show-1"))
        .await
        .unwrap()
        .game
        .unwrap();
    fixtures.push(("garden-match-colours", dump(&pool, &arena, id, None).await));
    let id = arena
        .matches()
        .start(&Caller::host(&carol(), None), request("show-2"))
        .await
        .unwrap()
        .game
        .unwrap();
    arena
        .matches()
        .choose_side(id, &Caller::player(&a, None), Seat::First)
        .await
        .unwrap();
    clock.advance(20_000);
    act(&arena, id, &[(&a, "Q@d4"), (&b, "Q@e5")]).await;
    clock.advance(70_000);
    fixtures.push((
        "garden-match-play",
        dump(&pool, &arena, id, Some(("bob", "R@a8"))).await,
    ));

    // Timed games: three days per move with a move overdue for a reminder, and a secret choice
    // made by one player while the other's clock runs on.
    let timed = |variant: VariantId, control: &str| ChallengeRequest {
        control: Some(TimeControl::parse(control).unwrap()),
        ..ChallengeRequest::untimed(&b, GameSetup::new(variant), WhitePlayer::Challenger, "room")
    };
    let id = arena
        .challenges()
        .challenge(&a, timed(VariantId::Chess, "3d"))
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, &b).await.unwrap();
    clock.advance(3_600_000);
    act(&arena, id, &[(&a, "e4"), (&b, "c5")]).await;
    clock.advance(40 * 3_600_000);
    act(&arena, id, &[(&a, "Nf3")]).await;
    fixtures.push(("chess-timed", dump(&pool, &arena, id, Some(("bob", "d6"))).await));
    let id = arena
        .challenges()
        .challenge(&a, timed(VariantId::Beirut, "1d+2d"))
        .await
        .unwrap()
        .game
        .unwrap();
    arena.challenges().accept(id, &b).await.unwrap();
    clock.advance(60_000);
    act(&arena, id, &[(&a, "bomb:d2")]).await;
    fixtures.push((
        "beirut-timed-choosing",
        dump(&pool, &arena, id, Some(("bob", "bomb:e7"))).await,
    ));

    // Beirut: one carrier chosen, both chosen and moving, and a king blown up.
    let id = started(&arena, VariantId::Beirut).await;
    act(&arena, id, &[(&b, "bomb:e7")]).await;
    fixtures.push((
        "beirut-choosing",
        dump(&pool, &arena, id, Some(("alice", "bomb:d2"))).await,
    ));

    let id = started(&arena, VariantId::Beirut).await;
    act(
        &arena,
        id,
        &[(&a, "bomb:d2"), (&b, "bomb:e7"), (&a, "e4"), (&b, "e5"), (&a, "d4")],
    )
    .await;
    fixtures.push(("beirut-play", dump(&pool, &arena, id, Some(("bob", "exd4"))).await));

    let id = started(&arena, VariantId::Beirut).await;
    act(
        &arena,
        id,
        &[
            (&a, "bomb:d2"),
            (&b, "bomb:g8"),
            (&a, "e4"),
            (&b, "Nf6"),
            (&a, "Ke2"),
            (&b, "Ng4"),
            (&a, "Kf3"),
            (&b, "detonate"),
        ],
    )
    .await;
    fixtures.push(("beirut-detonated", dump(&pool, &arena, id, None).await));

    // The FIDE-based games: in play and finished.
    let played_out = |variant: VariantId, moves: &'static str, last: Option<(&'static str, &'static str)>| {
        let arena = arena.clone();
        let pool = pool.clone();
        async move {
            let id = started(&arena, variant).await;
            let (a, b) = (alice(), bob());
            let sequence: Vec<(&UserId, &str)> = moves
                .split_whitespace()
                .enumerate()
                .map(|(i, m)| (if i % 2 == 0 { &a } else { &b }, m))
                .collect();
            act(&arena, id, &sequence).await;
            dump(&pool, &arena, id, last).await
        }
    };
    fixtures.push((
        "circe-play-rebirths",
        played_out(
            VariantId::Circe,
            "e4 d5 exd5(a4) Bg4 Nf3 Qc8 h3 Bxf3(g1)",
            Some(("alice", "Nxf3")),
        )
        .await,
    ));
    fixtures.push((
        "circe-checkmate",
        played_out(VariantId::Circe, "f4 e5 g4 Qh4+ fxe5(g3) Qxh2(g6) gxh7(e3) Qf2#", None).await,
    ));
    fixtures.push((
        "portal-play-teleports",
        played_out(VariantId::Portal, "Na3 Nc6 f3 Nb4", Some(("alice", "bxb4"))).await,
    ));
    fixtures.push((
        "portal-checkmate",
        played_out(VariantId::Portal, "f3 a6 bxa6 e5 axb7 f6 Kf2 Qh4+ Kf3 Qg4#", None).await,
    ));
    fixtures.push((
        "knights-are-god-play-relays",
        played_out(VariantId::KnightsAreGod, "e2d4 g8h5 a2a4", Some(("bob", "a5"))).await,
    ));
    fixtures.push((
        "knights-are-god-checkmate",
        played_out(VariantId::KnightsAreGod, "b1a4 b8c5 a4d5", None).await,
    ));
    fixtures.push((
        "domination-play-scored",
        played_out(VariantId::Domination, "e3 d5 e4 dxe4 Nc3 Nf6", Some(("alice", "Nxe4"))).await,
    ));
    fixtures.push((
        "domination-checkmate",
        played_out(VariantId::Domination, "f4 e6 g4 Qh4#", None).await,
    ));

    fixtures.push((
        "ultimate-battle-play",
        played_out(VariantId::UltimateBattle, "e4 d5 exd5 Qe6", Some(("alice", "Nc4"))).await,
    ));
    // Games whose seats do not simply alternate: picks in blocks, sealed half-turns.
    let (a, b) = (alice(), bob());
    let id = started(&arena, VariantId::PickTheTeam).await;
    act(
        &arena,
        id,
        &[(&a, "K@e1"), (&b, "RN@f10"), (&b, "CN@a10"), (&a, "Q@b1")],
    )
    .await;
    fixtures.push((
        "pick-the-team-picking",
        dump(&pool, &arena, id, Some(("alice", "PA@a1"))).await,
    ));
    let id = started(&arena, VariantId::Assault).await;
    act(&arena, id, &[(&a, "e4"), (&b, "d4"), (&a, "d5")]).await;
    fixtures.push(("assault-sealed", dump(&pool, &arena, id, Some(("bob", "d5"))).await));

    // Rejection: a proposal waiting for its answer, and a rejection waiting for the next move.
    let id = started(&arena, VariantId::Rejection).await;
    act(&arena, id, &[(&a, "e4"), (&b, "accept"), (&b, "c5")]).await;
    fixtures.push((
        "rejection-proposed",
        dump(&pool, &arena, id, Some(("alice", "reject"))).await,
    ));
    let id = started(&arena, VariantId::Rejection).await;
    act(&arena, id, &[(&a, "d4"), (&b, "reject")]).await;
    fixtures.push((
        "rejection-rejected",
        dump(&pool, &arena, id, Some(("alice", "e4"))).await,
    ));

    // Capture the Flag: one base chosen; a carrier in play after a drop and a pick-up.
    let id = started(&arena, VariantId::Ctf).await;
    act(&arena, id, &[(&b, "base:e5")]).await;
    fixtures.push((
        "ctf-choosing",
        dump(&pool, &arena, id, Some(("alice", "base:f3"))).await,
    ));
    let id = started(&arena, VariantId::Ctf).await;
    let moves = [
        (&a, "base:f3"),
        (&b, "base:e5"),
        (&a, "Nf3"),
        (&b, "a6"),
        (&a, "Ne5"),
        (&b, "a5"),
        (&a, "Nc4"),
        (&b, "b6"),
        (&a, "drop"),
        (&b, "h6"),
        (&a, "Ne3"),
        (&b, "h5"),
        (&a, "Nc4"),
    ];
    act(&arena, id, &moves).await;
    fixtures.push(("ctf-carrying", dump(&pool, &arena, id, Some(("bob", "h4"))).await));

    // Players' own pieces: one list in (and changed once), the other to come; then both in and
    // the picking under way, with a type both players listed.
    let patch = "list:King,K,K,royal/Queen,Q,Q/Rook,R,R/Bishop,B,B/Knight,N,N/Camel,CA,C/Ferz,F,F/Wazir,W,W/\
        Alfil,AL,A/Dabbabah,DA,D/Threeleaper,H,H/Tripper,TR,G/Pawn,P,fmWfcF,pawn/Chinese_pawn,CP,fW,pawn/\
        Fish_pawn,FI,fmWfcFbW,pawn/Chinese_fish_pawn,FC,fWbW,pawn";
    let id = started(&arena, VariantId::Patch).await;
    act(
        &arena,
        id,
        &[(&a, &patch.replace("Camel,CA,C", "Giraffe,GI,fbsN")), (&a, patch)],
    )
    .await;
    fixtures.push(("patch-listing", dump(&pool, &arena, id, Some(("bob", patch))).await));
    let id = started(&arena, VariantId::EasyPatch).await;
    let moves = [
        (
            &a,
            "list:Queen,Q,Q/Rook,R,R/Bishop,B,B/Knight,N,N/Camel,CA,C/Cardinal,CD,BN/Chancellor,CH,RN",
        ),
        (
            &b,
            "list:Queen,Q,Q/Wazir,W,W/Ferz,F,F/Alfil,AL,A/Dabbabah,DA,D/Mann,MN,K/Giraffe,K,fbsN",
        ),
        (&a, "Q@d1"),
        (&b, "Q@d8"),
        (&b, "G@c8"),
    ];
    act(&arena, id, &moves).await;
    fixtures.push((
        "easy-patch-picking",
        dump(&pool, &arena, id, Some(("alice", "N@b1"))).await,
    ));

    // Every variant in every phase (stored_fixtures.rs names them all): the phases the games
    // above leave out. Games of the players' own pieces with their own lists: one list in, both
    // in and the picks under way, the picks done and play begun, and resigned in play; an Easy
    // Patch game resigned before the lists were in.
    let own_games: [(&str, VariantId, &[&str], &[&str]); 3] = [
        ("pick-the-team-2", VariantId::PickTheTeam2, &PTT2_ALICE, &PTT2_BOB),
        ("patch", VariantId::Patch, &PATCH_ALICE, &PATCH_BOB),
        ("easy-patch", VariantId::EasyPatch, &EASY_ALICE, &EASY_BOB),
    ];
    for (name, variant, alice_list, bob_list) in own_games {
        let id = started(&arena, variant).await;
        send_list(&arena, id, &a, alice_list).await;
        let bob_notation = list_notation(bob_list);
        fixtures.push((
            leak(format!("{name}-listing-own")),
            dump(&pool, &arena, id, Some(("bob", &bob_notation))).await,
        ));
        send_list(&arena, id, &b, bob_list).await;
        play_until(&arena, id, Phase::Setup, 5).await;
        let (user, next) = next_action(&arena, id).await;
        fixtures.push((
            leak(format!("{name}-picking-own")),
            dump(&pool, &arena, id, Some((user, &next))).await,
        ));
        play_until(&arena, id, Phase::Play, 6).await;
        let (user, next) = next_action(&arena, id).await;
        fixtures.push((
            leak(format!("{name}-play")),
            dump(&pool, &arena, id, Some((user, &next))).await,
        ));
        clock.advance(60_000);
        arena.play().resign(id, &b).await.unwrap();
        fixtures.push((leak(format!("{name}-resigned")), dump(&pool, &arena, id, None).await));
    }
    let id = started(&arena, VariantId::EasyPatch).await;
    send_list(&arena, id, &b, &EASY_BOB).await;
    arena.play().resign(id, &a).await.unwrap();
    fixtures.push(("easy-patch-resigned-listing", dump(&pool, &arena, id, None).await));

    // Pick-the-team: the picks done and play begun, and resigned in play.
    let id = started(&arena, VariantId::PickTheTeam).await;
    play_until(&arena, id, Phase::Play, 6).await;
    let (user, next) = next_action(&arena, id).await;
    fixtures.push(("pick-the-team-play", dump(&pool, &arena, id, Some((user, &next))).await));
    arena.play().resign(id, &a).await.unwrap();
    fixtures.push(("pick-the-team-resigned", dump(&pool, &arena, id, None).await));

    // Garden of Statues in play; the games whose fixtures above are all in play, finished.
    let id = started(&arena, VariantId::Garden).await;
    act(&arena, id, &setup_moves).await;
    fixtures.push(("garden-play", dump(&pool, &arena, id, Some(("bob", "Qe5-e4@e2"))).await));
    let resigned_in_play: [(&str, VariantId, Moves); 4] = [
        (
            "ultimate-battle-resigned",
            VariantId::UltimateBattle,
            &[(&a, "e4"), (&b, "d5"), (&a, "exd5"), (&b, "Qe6")],
        ),
        (
            "assault-resigned",
            VariantId::Assault,
            &[(&a, "e4"), (&b, "d4"), (&a, "d5")],
        ),
        (
            "rejection-resigned",
            VariantId::Rejection,
            &[(&a, "e4"), (&b, "accept"), (&b, "c5")],
        ),
        (
            "ctf-resigned",
            VariantId::Ctf,
            &[(&a, "base:f3"), (&b, "base:e5"), (&a, "e4")],
        ),
    ];
    for (name, variant, moves) in resigned_in_play {
        let id = started(&arena, variant).await;
        act(&arena, id, moves).await;
        arena.play().resign(id, &b).await.unwrap();
        fixtures.push((name, dump(&pool, &arena, id, None).await));
    }

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stored")
        .join(FORMAT);
    std::fs::create_dir_all(&dir).unwrap();
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
