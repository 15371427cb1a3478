//! Analysis of finished games (`/analyse`): the computer goes through every position on its own
//! pool, a position at a time (so the computer's moves in other games wait one position at
//! most), and the result is kept, so a second request shows it at once. One analysis of a game
//! runs at a time: a request made meanwhile waits for it, then shows it.
//!
//! An analysis knows what its asker may know of the finished game and nothing more: a spectator's
//! view, or a player's own where their record reads more (their own secrets). Only then is it
//! theirs alone; otherwise it is the same for everyone and is shown where it was asked.

use super::caller::{Caller, may_look_at};
use super::messages::name;
use super::pgn::{self, WrittenMove};
use super::queries::viewer_of;
use super::{AnalysisReport, ArenaError, Effects, Records};
use crate::ids::GameId;
use crate::model::{GameRow, GameSetup, GameStatus, effective_actions};
use crate::render::{BoardImage, Decor, EvalGraph, GraphMark};
use arbiter_engine::ai::analysis::{self, Analyser, Analysis, Judgement, Review, Stage};
use arbiter_engine::ai::search::WIN;
use arbiter_engine::ai::{Budget, Start};
use arbiter_engine::{Game, Seat, View, Viewer};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The nodes each position gets by default (twice where the move played was not the best): about
/// 1.5 s a chess position on one core, a 40-move game in two minutes or so.
pub const DEFAULT_NODES_PER_POSITION: u64 = 300_000;
/// Whatever the nodes, no position takes longer than this (a slow machine's cap).
const MOST_TIME_PER_POSITION: Duration = Duration::from_secs(5);
/// How many turning points the words list, and how many of them get a board.
const TURNING_POINTS_LISTED: usize = 5;
const TURNING_POINTS_DRAWN: usize = 2;
/// How many turning points the graph labels.
const TURNING_POINTS_LABELLED: usize = 3;

/// The analyses running, by game: a request for a game being analysed waits on its lock.
#[derive(Default)]
pub struct Analysing(Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<()>>>>);

impl Analysing {
    fn lock_of(&self, id: GameId) -> Arc<tokio::sync::Mutex<()>> {
        let mut running = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // Locks nobody holds or waits on any more go, so the map holds only games in analysis.
        running.retain(|_, lock| Arc::strong_count(lock) > 1);
        running.entry(id).or_default().clone()
    }
}

/// Whose knowledge an analysis for `viewer` uses, and its name in the store: a seat's own only
/// where its record reads more than a spectator's (the record is all an analysis reads).
fn viewpoint(game: &GameRow, viewer: Viewer) -> (Viewer, &'static str) {
    let public = game.state.view(Viewer::Spectator);
    match viewer {
        Viewer::Seat(seat) if game.state.view(viewer).record != public.record => {
            (viewer, if seat == Seat::First { "first" } else { "second" })
        }
        _ => (Viewer::Spectator, "spectator"),
    }
}

impl Records<'_> {
    /// `/analyse`: the analysis of a finished game, as its asker may know it; made now (a minute
    /// or two), or the one kept.
    pub async fn analyse(self, id: GameId, caller: &Caller) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        may_look_at(&game, caller)?;
        if game.status != GameStatus::Finished {
            return Err(ArenaError::Rejected(format!(
                "game #{id} is not over: it can be analysed once it has ended"
            )));
        }
        let (viewer, key) = viewpoint(&game, viewer_of(&game, &caller.user));
        let view = game.state.view(viewer);
        if !view.record.iter().any(|entry| entry.is_move) {
            return Err(ArenaError::Rejected(format!(
                "game #{id} ended before anyone moved: there is nothing to analyse"
            )));
        }
        let lock = self.analysing.lock_of(id);
        let _only_one = lock.lock().await;
        let analysis = match self.kept(id, key).await? {
            Some(kept) => kept,
            None => {
                let analysis = self.run_analysis(&game, &view).await?;
                let body = serde_json::to_string(&analysis)
                    .map_err(|e| ArenaError::Computer(format!("its analysis could not be kept: {e}")))?;
                self.store.save_analysis(id, key, &body, self.now()).await?;
                // Shown as it is kept (a number read back may differ in its last digit), so the
                // first answer and every later one are the same.
                self.kept(id, key).await?.unwrap_or(analysis)
            }
        };
        let report = self.report(&game, &view, &analysis).await?;
        Ok(Effects {
            analysis: Some(report),
            game: Some(id),
            ..Default::default()
        })
    }

    /// The analysis kept of the game from what `viewer` may know, if one was made.
    pub async fn kept_analysis(self, game: &GameRow, viewer: Viewer) -> Result<Option<Analysis>, ArenaError> {
        self.kept(game.id, viewpoint(game, viewer).1).await
    }

    /// The graph of the analysis kept of a finished game from what `viewer` may know (a live
    /// page's), if one was made.
    pub async fn kept_graph(self, id: GameId, viewer: Viewer) -> Result<Option<EvalGraph>, ArenaError> {
        let Some(game) = self.store.game(id).await? else {
            return Ok(None);
        };
        if game.status != GameStatus::Finished {
            return Ok(None);
        }
        let (viewer, key) = viewpoint(&game, viewer);
        let Some(analysis) = self.kept(id, key).await? else {
            return Ok(None);
        };
        let view = game.state.view(viewer);
        let labels = pgn::labels(&record_moves(&view));
        let title = format!("Game #{id} · {}", game.setup.variant.name());
        Ok(Some(graph(&title, &view, &analysis, &labels)))
    }

    async fn kept(self, id: GameId, key: &str) -> Result<Option<Analysis>, ArenaError> {
        let Some(body) = self.store.analysis(id, key).await? else {
            return Ok(None);
        };
        match serde_json::from_str(&body) {
            Ok(analysis) => Ok(Some(analysis)),
            Err(error) => {
                // One kept by a release whose analyses read otherwise: made again.
                tracing::warn!(game = %id, %error, "a kept analysis does not read");
                Ok(None)
            }
        }
    }

    /// Goes through the game on the computer's pool, a position at a time.
    async fn run_analysis(self, game: &GameRow, view: &View) -> Result<Analysis, ArenaError> {
        let start = Start {
            variant: game.setup.variant,
            fen: game.setup.fen.clone(),
        };
        let budget = Budget {
            nodes: self.thinkers.analysis_nodes(),
            time: MOST_TIME_PER_POSITION,
        };
        let seed = analysis::seed_of(view);
        let view = view.clone();
        let unreadable = || {
            tracing::error!(game = %game.id, "a finished game's record does not replay for its analysis");
            ArenaError::Rejected(format!(
                "game #{} cannot be analysed: its record does not replay",
                game.id
            ))
        };
        let server = game.server.clone();
        let mut analyser = self
            .thinkers
            .run(server.clone(), move || Analyser::new(&start, &view, budget, seed))
            .await?
            .ok_or_else(unreadable)?;
        loop {
            let (stepped, more) = self
                .thinkers
                .run(server.clone(), move || {
                    let more = analyser.step();
                    (analyser, more)
                })
                .await?;
            analyser = stepped;
            if !more {
                break;
            }
        }
        Ok(analyser.finish())
    }

    /// The analysis shown: the players' summaries, the turning points with the better action,
    /// the graph, and the worst one or two turning points' boards after the better action.
    async fn report(self, game: &GameRow, view: &View, analysis: &Analysis) -> Result<AnalysisReport, ArenaError> {
        let labels = pgn::labels(&record_moves(view));
        let players = Seat::BOTH.map(|seat| {
            let seat_name = &view.seat_names[seat.index()];
            game.player(seat)
                .map(|user| format!("{seat_name} ({})", name(user)))
                .unwrap_or_else(|| seat_name.clone())
        });
        let title = format!("game #{} · {}", game.id, game.setup.variant.name());
        let mut text = words(&title, &players, view, analysis, &labels);
        let private = view.viewer != Viewer::Spectator;
        if private {
            text += "\n(Built from what you know of your own secrets: for you alone.)";
        }
        let worst = analysis.turning_points(TURNING_POINTS_DRAWN);
        Ok(AnalysisReport {
            game: game.id,
            graph: graph(
                &format!("Game #{} · {}", game.id, game.setup.variant.name()),
                view,
                analysis,
                &labels,
            ),
            boards: self.boards(game, view.viewer, &worst, &labels).await?,
            text,
            private,
        })
    }

    /// The game after the better action at each of `reviews`, as `viewer` sees it.
    async fn boards(
        self,
        game: &GameRow,
        viewer: Viewer,
        reviews: &[&Review],
        labels: &[String],
    ) -> Result<Vec<(String, BoardImage)>, ArenaError> {
        let log = self.store.log(game.id).await?;
        let actions = effective_actions(&log);
        let Ok(start) = game.setup.start() else {
            return Ok(Vec::new());
        };
        let names = Seat::BOTH.map(|seat| game.player(seat).map(|user| user.display_name().to_string()));
        let mut boards = Vec::new();
        for review in reviews {
            let Some(best) = &review.best else { continue };
            let mut state = start.clone();
            let replayed = actions
                .iter()
                .take(review.entry)
                .all(|(seat, action)| state.apply(*seat, action).is_ok());
            let Some(action) = replayed.then(|| state.parse_action(review.seat, best).ok()).flatten() else {
                continue;
            };
            if state.apply(review.seat, &action).is_err() {
                continue;
            }
            let caption = format!("Instead of {}: {best}", labels[review.entry]);
            let image = BoardImage {
                view: state.view(viewer),
                decor: Decor {
                    player_names: names.clone(),
                    lines: vec![caption.clone()],
                    ..Decor::default()
                },
            };
            boards.push((caption, image));
        }
        Ok(boards)
    }
}

/// The view's record as a PGN's moves, for their labels (`12... Nf6`).
fn record_moves(view: &View) -> Vec<WrittenMove> {
    view.record
        .iter()
        .enumerate()
        .map(|(entry, written)| WrittenMove {
            seat: written.seat,
            text: (!written.is_hidden).then(|| written.text.clone()),
            hidden_as: written.text.clone(),
            clock_ms: None,
            is_move: written.is_move,
            entry,
            mark: None,
            eval: None,
        })
        .collect()
}

/// An analysis in words: the result, each player's summary, and the worst turning points with
/// the better action.
fn words(title: &str, players: &[String; 2], view: &View, analysis: &Analysis, labels: &[String]) -> String {
    let result = view
        .outcome
        .as_ref()
        .map(|o| format!(", {} by {}", o.result_text(), o.reason.describe()))
        .unwrap_or_default();
    let mut text = format!("Analysis of {title}: {} vs {}{result}.", players[0], players[1]);
    for seat in Seat::BOTH {
        text += &format!("\n{}", summary_line(&players[seat.index()], analysis, seat));
    }
    let worst = analysis.turning_points(TURNING_POINTS_LISTED);
    if worst.is_empty() {
        text += "\nNo turning points: neither side gave away more than a little.";
    } else {
        text += "\nTurning points:";
        for review in &worst {
            text += &format!("\n• {}", turning_point(labels, review));
        }
    }
    text
}

/// "White (alice): 2.1% of the winning chance given away a move on average · 1 inaccuracy, no mistakes, 2 blunders".
fn summary_line(player: &str, analysis: &Analysis, seat: Seat) -> String {
    let summary = analysis.summary(seat);
    if summary.actions == 0 {
        return format!("{player}: nothing to judge.");
    }
    let counted = |count: usize, judgement: Judgement| match count {
        0 => format!("no {}", judgement.plural()),
        1 => format!("1 {}", judgement.name()),
        n => format!("{n} {}", judgement.plural()),
    };
    format!(
        "{player}: gave away {:.1}% of the winning chance a move on average · {}, {}, {}.",
        summary.average_loss * 100.0,
        counted(summary.inaccuracies, Judgement::Inaccuracy),
        counted(summary.mistakes, Judgement::Mistake),
        counted(summary.blunders, Judgement::Blunder)
    )
}

/// "14... Nf6?? (blunder, −38%): better Qe7".
fn turning_point(labels: &[String], review: &Review) -> String {
    let judgement = review.judgement.unwrap_or(Judgement::Inaccuracy);
    let better = review
        .best
        .as_ref()
        .map(|best| format!(": better {best}"))
        .unwrap_or_default();
    format!(
        "{}{} ({}, −{:.0}%){better}",
        labels[review.entry],
        judgement.mark(),
        judgement.name(),
        review.loss * 100.0
    )
}

/// The evaluation graph of an analysis.
fn graph(title: &str, view: &View, analysis: &Analysis, labels: &[String]) -> EvalGraph {
    let mut stages: Vec<(usize, String)> = Vec::new();
    let mut last: Option<Stage> = None;
    for (index, position) in analysis.positions.iter().enumerate() {
        if last != Some(position.stage) {
            stages.push((index, position.stage.name().to_string()));
            last = Some(position.stage);
        }
    }
    let labelled: Vec<usize> = analysis
        .turning_points(TURNING_POINTS_LABELLED)
        .iter()
        .map(|r| r.entry)
        .collect();
    // The labelled ones last, the worst first: they are placed in that order.
    let mut marks: Vec<GraphMark> = analysis
        .reviews
        .iter()
        .filter(|review| !labelled.contains(&review.entry))
        .filter_map(|review| {
            Some(GraphMark {
                at: review.entry + 1,
                judgement: review.judgement?,
                label: None,
            })
        })
        .collect();
    for review in analysis.turning_points(TURNING_POINTS_LABELLED) {
        let judgement = review.judgement.unwrap_or(Judgement::Inaccuracy);
        marks.push(GraphMark {
            at: review.entry + 1,
            judgement,
            label: Some(format!("{}{}", labels[review.entry], judgement.mark())),
        });
    }
    EvalGraph {
        title: title.to_string(),
        sides: Seat::BOTH.map(|seat| (view.seat_names[seat.index()].clone(), view.seat_style(seat))),
        chances: analysis.positions.iter().map(|p| p.chance).collect(),
        stages,
        marks,
        ticks: ticks(view, analysis.positions.len()),
        footer: format!("{} positions searched a move", thousands(analysis.nodes_per_position)),
    }
}

/// Move numbers under the graph: about eight, at the first seat's moves.
fn ticks(view: &View, positions: usize) -> Vec<(usize, String)> {
    let firsts: Vec<usize> = view
        .record
        .iter()
        .enumerate()
        .filter(|(_, entry)| entry.seat == Seat::First && entry.is_move)
        .map(|(index, _)| index)
        .collect();
    let every = firsts.len().div_ceil(8).max(1);
    firsts
        .iter()
        .enumerate()
        .filter(|(number, _)| number % every == 0)
        .filter(|(_, index)| **index < positions)
        .map(|(number, index)| (*index, (number + 1).to_string()))
        .collect()
}

/// 100000 as "100,000".
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Marks and evaluations for a record's moves from an analysis (`Nf6?? {[%eval #1]}`).
pub fn annotate(moves: &mut [WrittenMove], analysis: &Analysis) {
    for written in moves.iter_mut() {
        if written.text.is_none() {
            continue;
        }
        if let Some(review) = analysis.reviews.iter().find(|r| r.entry == written.entry) {
            written.mark = review.judgement.map(Judgement::mark);
        }
        // A position the game ended in gets no evaluation: its result says it all.
        if let Some(after) = analysis
            .positions
            .get(written.entry + 1)
            .filter(|p| p.score.abs() != WIN)
        {
            written.eval = Some(match analysis::moves_to_win(after.score) {
                Some(moves) => format!("#{moves}"),
                None => format!("{:.2}", f64::from(after.score) / 100.0),
            });
        }
    }
}

/// A game record analysed away from any server (`arbiter analyse`): the words, the record with
/// the evaluations and judgements, and the graph.
pub struct RecordAnalysis {
    pub words: String,
    pub annotated: String,
    pub graph: EvalGraph,
    pub analysis: Analysis,
}

/// Analyses the game a record holds (what `/export` writes, or any chess PGN) as its audience
/// sees it, searching `nodes` a position; what is wrong with a broken record, by line.
pub fn analyse_record(text: &str, nodes: u64) -> Result<RecordAnalysis, String> {
    let record = super::replay_record_for_audience(text)?;
    let view = record.state.view(Viewer::Spectator);
    let start = Start {
        variant: record.setup.variant,
        fen: record.setup.fen.clone(),
    };
    let budget = Budget {
        nodes,
        // Nodes alone decide, so the same record is analysed alike on any machine.
        time: Duration::from_secs(3600),
    };
    let analysis = analysis::analyse(&start, &view, budget, analysis::seed_of(&view))
        .ok_or_else(|| "the record's moves do not replay".to_string())?;
    let labels = pgn::labels(&record_moves(&view));
    let variant = record.setup.variant;
    let players = Seat::BOTH.map(|seat| format!("{} ({})", view.seat_names[seat.index()], record.names[seat.index()]));
    Ok(RecordAnalysis {
        words: words(variant.name(), &players, &view, &analysis, &labels),
        annotated: written_record(&record.names, &record.setup, &view, Some(&analysis)),
        graph: graph(variant.name(), &view, &analysis, &labels),
        analysis,
    })
}

/// A game as a record (PGN) from `view`, annotated with `analysis` if there is one: what
/// `arbiter analyse` and `arbiter ai-match --records` write, and `import` reads back.
pub fn written_record(names: &[String; 2], setup: &GameSetup, view: &View, analysis: Option<&Analysis>) -> String {
    let mut moves = record_moves(view);
    if let Some(analysis) = analysis {
        annotate(&mut moves, analysis);
    }
    let variant = setup.variant;
    let result = view.outcome.as_ref().map_or("*", |o| o.result_text());
    let mut tags: Vec<(String, String)> = vec![
        ("White".into(), names[0].clone()),
        ("Black".into(), names[1].clone()),
        ("Result".into(), result.into()),
    ];
    if variant != arbiter_engine::VariantId::Chess {
        tags.push(("Variant".into(), variant.name().into()));
    }
    if let Some(fen) = &setup.fen {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), fen.clone()));
    }
    if let Some(analysis) = analysis {
        tags.push((
            "Annotator".into(),
            format!("Arbiter, {} positions a move", analysis.nodes_per_position),
        ));
    }
    pgn::write(&tags, &moves, 1, result)
}
