//! Analyses of finished games: made once on the computer's pool and kept, shown again at once,
//! carried into the record (`[%eval]`, `??`), and built from what the asker may know.

use crate::support;
use crate::support::{alice, asking, bob, carol, play_alternately, play_moves, refused, started};
use arbiter::arena::{AnalysisReport, Thinkers};
use arbiter::ids::{GameId, UserId};
use arbiter_engine::VariantId;

/// The analysis `user` gets of game `id`.
async fn analysed(arena: &arbiter::arena::Arena, id: GameId, user: &UserId) -> AnalysisReport {
    let effects = arena.records().analyse(id, &asking(user)).await.expect("analysed");
    effects.analysis.expect("an analysis")
}

async fn export(arena: &arbiter::arena::Arena, id: GameId, user: &UserId) -> String {
    let effects = arena
        .records()
        .export(id, &asking(user), &Default::default())
        .await
        .unwrap();
    effects.reply.unwrap().text
}

/// An arena whose analyses search `nodes` a position, over a fresh SQLite database.
async fn analysing_arena(nodes: u64) -> (support::TestDb, arbiter::arena::Arena) {
    let (db, arena, _) = support::sqlite_arena().await;
    (
        db,
        arena.arena().with_thinkers(Thinkers::new(1, 2).analysing_with(nodes)),
    )
}

#[tokio::test]
async fn a_finished_game_is_analysed_once_kept_and_carried_into_its_record() {
    let (db, arena) = analysing_arena(20_000).await;
    let id = started(&arena, VariantId::Chess).await;
    play_alternately(&arena, id, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#").await;
    let report = analysed(&arena, id, &carol()).await;
    assert!(
        !report.private,
        "a chess game hides nothing: its analysis is everyone's"
    );
    assert!(
        report.text.contains("• 3... Nf6?? (blunder, −"),
        "the blunder, numbered as the record numbers it: {}",
        report.text
    );
    assert!(
        arbiter::arena::text::plain(&report.text).contains("Black (bob)"),
        "{}",
        report.text
    );
    assert!(report.text.contains("1 blunder"), "{}", report.text);
    assert_eq!(
        report.graph.chances.len(),
        8,
        "the start and a position after each move"
    );
    assert_eq!(report.graph.chances[7], 1.0, "mate is a win");
    let labelled: Vec<_> = report.graph.marks.iter().filter_map(|m| m.label.clone()).collect();
    assert_eq!(labelled, ["3... Nf6??"]);
    let (caption, board) = report.boards.first().expect("the blunder's board");
    assert!(caption.starts_with("Instead of 3... Nf6: "), "{caption}");
    assert_eq!(
        board.view.record.len(),
        6,
        "the game after the better move, not the blunder"
    );

    // Kept: asked again, by anyone, the same analysis comes back from the store.
    let kept = db.store.analysis(id, "spectator").await.unwrap().expect("kept");
    assert_eq!(analysed(&arena, id, &alice()).await, report);
    assert_eq!(db.store.analysis(id, "spectator").await.unwrap(), Some(kept));

    let record = export(&arena, id, &bob()).await;
    assert!(record.contains("3... Nf6?? {[%eval #1]} 4. Qxf7# 1-0"), "{record}");
    assert!(record.contains("1. e4 {[%eval "), "{record}");
    assert!(
        record.contains("[Annotator \"Arbiter, 20000 positions a move\"]"),
        "{record}"
    );
}

#[tokio::test]
async fn a_game_still_being_played_or_never_begun_is_not_analysed() {
    let (_db, arena) = analysing_arena(5_000).await;
    let id = started(&arena, VariantId::Chess).await;
    refused(arena.records().analyse(id, &asking(&carol())).await, "is not over");
    arena.play().resign(id, &bob()).await.unwrap();
    refused(
        arena.records().analyse(id, &asking(&carol())).await,
        "ended before anyone moved",
    );
    refused(
        arena.records().analyse(GameId::new(999), &asking(&carol())).await,
        "999",
    );
}

/// A store that counts the analyses saved into it.
struct CountsAnalyses {
    inner: std::sync::Arc<dyn arbiter::store::Store>,
    saved: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl arbiter::store::layer::Layer for CountsAnalyses {
    fn inner(&self) -> &dyn arbiter::store::Store {
        self.inner.as_ref()
    }

    async fn before(&self, request: &'static str) {
        if request == "save_analysis" {
            self.saved.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_requests_at_once_wait_for_one_analysis() {
    let db = support::sqlite().await;
    let counting = std::sync::Arc::new(arbiter::store::layer::Layered(CountsAnalyses {
        inner: db.store.clone(),
        saved: Default::default(),
    }));
    let clock = std::sync::Arc::new(arbiter::clock::ManualClock::new(1_700_000_000_000));
    let arena = support::TestArena::new(counting.clone(), clock);
    let id = started(&arena, VariantId::Chess).await;
    play_alternately(&arena, id, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#").await;
    let (carol, alice) = (asking(&carol()), asking(&alice()));
    let (first, second) = tokio::join!(arena.records().analyse(id, &carol), arena.records().analyse(id, &alice));
    assert_eq!(first.unwrap().analysis, second.unwrap().analysis);
    assert_eq!(
        counting.saved.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the second request waited for the first analysis and showed it"
    );
}

/// Rejection's rejected proposals are the players' alone, for good: a spectator's analysis never
/// names one, in its words, its graph, its boards or the record, and is the same whichever
/// proposals were rejected; a player's own analysis may (it is theirs alone).
#[tokio::test]
async fn a_spectators_analysis_keeps_the_players_secrets() {
    let (_db, arena) = analysing_arena(5_000).await;
    let (a, b) = (alice(), bob());
    let mut spectators = Vec::new();
    for rejected in ["Na3", "Nh3"] {
        let id = started(&arena, VariantId::Rejection).await;
        // alice proposes a move bob rejects and plays f3 instead; e5 and g4 are proposed and
        // accepted; then Qh4#, accepted.
        play_moves(
            &arena,
            id,
            &[
                (&a, rejected),
                (&b, "reject"),
                (&a, "f3"),
                (&b, "e5"),
                (&a, "accept"),
                (&a, "g4"),
                (&b, "accept"),
                (&b, "Qh4#"),
                (&a, "accept"),
            ],
        )
        .await;
        let report = analysed(&arena, id, &carol()).await;
        assert!(!report.private);
        // The record's moves as the report shows them: the graph's labels, the boards' records.
        let shown = format!(
            "{:?}{:?}",
            report.graph.marks,
            report.boards.iter().map(|(_, b)| &b.view.record).collect::<Vec<_>>()
        );
        let record = export(&arena, id, &carol()).await;
        for words in [&shown, &record] {
            assert!(!words.contains(rejected), "the rejected {rejected} shows: {words}");
        }
        assert!(report.text.contains("0-1 by checkmate"), "{}", report.text);
        let own = analysed(&arena, id, &a).await;
        assert!(
            own.private,
            "alice's own analysis reads her rejected proposal: hers alone"
        );
        spectators.push((report.text.replace(&format!("#{id}"), "#N"), report.graph.chances));
    }
    assert_eq!(
        spectators[0], spectators[1],
        "nothing a spectator cannot see changes their analysis"
    );
}
