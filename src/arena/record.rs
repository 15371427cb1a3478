//! Game records: export a game as PGN built from its asker's view (secrets they may not know
//! stay out), and import a record back, replaying every move. Chess records are standard PGN;
//! the other games' carry a `Variant` tag and their own notation (see `pgn.rs`).

use super::caller::{Caller, may_look_at, require_started};
use super::messages::name;
use super::pgn::{self, ReadRecord, WrittenMove};
use super::queries::viewer_of;
use super::text::user_written;
use super::{ArenaError, Button, Effects, Records, Reply};
use crate::clock::GameClock;
use crate::ids::{GameId, Place, UserId};
use crate::model::effective_entries;
use crate::model::{GameRow, GameSetup, GameStatus, LogEntry, LoggedEntry, NewEntry, NewGame, WhitePlayer};
use crate::visible_text;
use arbiter_engine::view::RecordEntry;
use arbiter_engine::{Action, AnyGame, EndReason, Game, Outcome, Phase, Seat, VariantId, Viewer};
use std::collections::HashMap;

impl Records<'_> {
    /// The game as a PGN record, built from the asker's view: secrets the asker may not know
    /// stay out (such a record cannot be imported until the game has ended). `names` are the
    /// players' names as the transport shows them.
    pub async fn export(
        self,
        id: GameId,
        caller: &Caller,
        names: &HashMap<UserId, String>,
    ) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        let game = self.load(id).await?;
        may_look_at(&game, caller)?;
        require_started(&game, "export")?;
        let viewer = viewer_of(&game, user);
        let view = game.state.view(viewer);
        let log = self.store.log(id).await?;
        let mut moves = written_moves(&game, &view.record, &effective_entries(&log))?;
        // An analysed game's record carries its evaluations and judgements.
        let analysis = self.kept_analysis(&game, viewer).await?;
        if let Some(analysis) = &analysis {
            super::analysis::annotate(&mut moves, analysis);
        }
        // Names as shown anywhere else: a record carries no invisible character either.
        let name_of = |user: &UserId| {
            let name = names.get(user).map_or(user.display_name(), String::as_str);
            visible_text::name_or(name, user.display_name())
        };
        let result = view.outcome.as_ref().map_or("*", |o| o.result_text());
        let mut tags = vec![
            tag("Event", &format!("Arbiter game #{id}")),
            tag("Site", "Arbiter"),
            tag("Date", &date(game.created_at)),
            tag("Round", "-"),
            tag("White", &game.player(Seat::First).map(name_of).unwrap_or_default()),
            tag("Black", &game.player(Seat::Second).map(name_of).unwrap_or_default()),
            tag("Result", result),
        ];
        if game.setup.variant != VariantId::Chess {
            tags.push(tag("Variant", game.setup.variant.name()));
        }
        if let Some(fen) = &game.setup.fen {
            tags.push(tag("SetUp", "1"));
            tags.push(tag("FEN", fen));
        }
        if let Some(control) = game.clock.control(Seat::First) {
            if control.normal_ms == 0 {
                tags.push(tag("TimeControl", &(control.reserve_ms / 1000).to_string()));
            }
            tags.push(tag("ArbiterClock", &control.spec()));
        }
        for (name, seat) in [("WhiteId", Seat::First), ("BlackId", Seat::Second)] {
            if let Some(player) = game.player(seat) {
                tags.push(tag(name, player.as_str()));
            }
        }
        if let Some(outcome) = &view.outcome {
            tags.push(tag("Termination", termination(outcome.reason)));
            tags.push(tag("Ending", outcome.reason.describe()));
        }
        if moves.iter().any(|m| m.text.is_none()) {
            tags.push(tag("Secrets", "hidden until the game ends"));
        }
        if let Some(analysis) = &analysis {
            tags.push(tag(
                "Annotator",
                &format!("Arbiter, {} positions a move", analysis.nodes_per_position),
            ));
        }
        let text = pgn::write(&tags, &moves, 1, result);
        Ok(Effects {
            reply: Some(Reply { text, board: None }),
            game: Some(id),
            ..Default::default()
        })
    }

    /// Brings in a game from a record (what `export` writes, standard PGN for chess, or
    /// Arbiter's earlier records), replaying every move. Who plays never comes from the record:
    /// the importer plays `request.side`, and the other side either `request.opponent`, who is
    /// offered the rest of the game like a challenge, or the importer too, for study. A broken
    /// record creates nothing and says which line is wrong. Imported games are never rated.
    pub async fn import(self, caller: &Caller, request: ImportRequest, text: &str) -> Result<Effects, ArenaError> {
        let bad = |message: String| ArenaError::Rejected(format!("cannot import this record: {message}"));
        let ReplayedRecord {
            setup,
            start,
            names,
            state,
            entries,
        } = replay_record(text).map_err(bad)?;
        let importer = &caller.user;
        if let Some(opponent) = &request.opponent {
            if opponent == importer {
                return Err(ArenaError::SelfChallenge);
            }
            if state.outcome().is_some() {
                return Err(ArenaError::Rejected(format!(
                    "this record's game is over, so there is nothing left to play with {}; import it without an \
                     opponent to replay it",
                    name(opponent)
                )));
            }
            self.challenges().check_open_challenges(importer).await?;
        }
        let now = self.now();
        let (status, players, white_player, opponent) = match &request.opponent {
            // An offer, answered like a challenge: the players are seated when it is accepted.
            Some(opponent) => {
                let white_player = if request.side == Seat::First {
                    WhitePlayer::Challenger
                } else {
                    WhitePlayer::Opponent
                };
                (GameStatus::Challenge, None, white_player, opponent.clone())
            }
            None => {
                let status = if state.outcome().is_some() {
                    GameStatus::Finished
                } else {
                    GameStatus::Active
                };
                let both = [importer.clone(), importer.clone()];
                (status, Some(both), WhitePlayer::Challenger, importer.clone())
            }
        };
        let new = NewGame {
            setup,
            location: request.location.clone(),
            status: GameStatus::Challenge,
            challenger: importer.clone(),
            opponent,
            white_player,
            players: None,
            state: start,
            now,
            deathmatch: None,
            clock: GameClock::untimed(now),
            server: caller.server.clone(),
            tournament: None,
            is_rated: false,
        };
        let mut game = self.store.insert_game(&new).await?;
        game.status = status;
        game.players = players;
        game.state = state;
        game.version += 1;
        game.updated_at = now;
        self.store.update_game(&game, &entries, &[]).await?;
        let moves = entries
            .iter()
            .filter(|e| matches!(e.entry, LogEntry::Act { .. }))
            .count();
        let from = format!(
            "{} vs {}, {moves} action{}",
            user_written(&names[0]),
            user_written(&names[1]),
            if moves == 1 { "" } else { "s" }
        );
        let [first, second] = game.state.view(Viewer::Spectator).seat_names;
        let post = match &request.opponent {
            Some(opponent) => {
                let side = if request.side == Seat::First { first } else { second };
                let text = format!(
                    "{} offers {} the rest of an imported game ({from}); {} plays {side}. Imported games are not \
                     rated. {}, accept or decline.",
                    name(importer),
                    name(opponent),
                    name(importer),
                    name(opponent)
                );
                let mut post = super::messages::board_post(&game, text);
                post.mentions = vec![opponent.clone()];
                post.buttons = vec![Button::AcceptChallenge, Button::DeclineChallenge];
                post
            }
            None => super::messages::board_post(
                &game,
                format!(
                    "{} imported a game record ({from}) to study, playing both sides. Imported games are not rated.",
                    name(importer)
                ),
            ),
        };
        Ok(Effects {
            posts: vec![post],
            game: Some(game.id),
            version: Some(game.version),
            ..Default::default()
        })
    }
}

/// A record read and every move of it replayed.
pub struct ReplayedRecord {
    pub setup: GameSetup,
    pub start: AnyGame,
    /// The players as the record names them (names only, never anyone's id).
    pub names: [String; 2],
    /// Where the moves (and a result the board did not reach) lead.
    pub state: AnyGame,
    pub entries: Vec<NewEntry>,
}

/// Reads a record (what `export` writes, standard PGN for chess, Arbiter's earlier records) and
/// replays it; what is wrong with a broken one, by line. A record that hides secret choices
/// (exported while the game went on) is refused: the game cannot go on from it.
pub fn replay_record(text: &str) -> Result<ReplayedRecord, String> {
    let record = pgn::read(text)?;
    if record.tag("Secrets").is_some() {
        return Err(
            "it hides secret choices (it was exported before the game ended); export it again once the game is over"
                .into(),
        );
    }
    replayed(&record, SecretChoices::Given)
}

/// [`replay_record`] for the audience's replay of what a record shows: a secret choice it hides
/// is stood in for by any choice the rules allow, which the audience's view never shows. A
/// record whose later moves need the real choice (a detonation) says so.
pub fn replay_record_for_audience(text: &str) -> Result<ReplayedRecord, String> {
    let record = pgn::read(text)?;
    let secrets = match record.tag("Secrets") {
        Some(_) => SecretChoices::StoodIn,
        None => SecretChoices::Given,
    };
    replayed(&record, secrets)
}

/// Whether a record's secret choices are all written, or some are stood in for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SecretChoices {
    Given,
    StoodIn,
}

fn replayed(record: &ReadRecord, secrets: SecretChoices) -> Result<ReplayedRecord, String> {
    let variant = variant_of(record)?;
    let asked = GameSetup::with_fen(variant, record.tag("FEN").or(record.tag("Start")).map(str::to_string));
    // A record's start is a position someone gave: a game begins there only if its rules can
    // play it (kept as the game keeps it).
    let kept = asked.start_new().map_err(|e| format!("the start position: {e}"))?;
    let setup = GameSetup { fen: kept.fen, ..asked };
    let start = kept.game;
    let names = names_of(record, &start);
    let (state, entries) = replay(record, start.clone(), secrets)?;
    Ok(ReplayedRecord {
        setup,
        start,
        names,
        state,
        entries,
    })
}

/// What an importer asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportRequest {
    /// The side the importer plays.
    pub side: Seat,
    /// Who plays the other side (offered the game, like a challenge); none: the importer plays
    /// both sides, for study, and nobody else can act in it.
    pub opponent: Option<UserId>,
    /// Where the game is played.
    pub location: Place,
}

fn tag(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

/// `2026.11.24`, the day (UTC) a game was created.
fn date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map_or_else(|| "????.??.??".into(), |t| t.format("%Y.%m.%d").to_string())
}

/// PGN's own words for how a game ended.
fn termination(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Timeout => "time forfeit",
        EndReason::Abandoned => "abandoned",
        EndReason::Adjudication => "adjudication",
        EndReason::Aborted => "unterminated",
        EndReason::Forfeit => "rules infraction",
        _ => "normal",
    }
}

/// The moves of the record as `record` (a viewer's) shows them, with the board each is played
/// on where there are several, and the mover's clock after each in timed games. Moves made at
/// once by several seats are written in seat order, as an importer replays them.
fn written_moves(game: &GameRow, record: &[RecordEntry], log: &[&LoggedEntry]) -> Result<Vec<WrittenMove>, ArenaError> {
    let actions: Vec<(Seat, Action)> = log
        .iter()
        .filter_map(|logged| match &logged.entry {
            LogEntry::Act { seat, action } => Some((*seat, action.clone())),
            _ => None,
        })
        .collect();
    let in_step = |index: usize| log.get(index).and_then(|l| l.clock_ms);
    let several_boards = game.state.view(Viewer::Spectator).boards.len() > 1;
    let written = |index: usize, entry: &RecordEntry, is_choice: bool| WrittenMove {
        seat: entry.seat,
        text: (!entry.is_hidden).then(|| match actions.get(index) {
            Some((_, Action::Move { board, .. })) if several_boards => format!("{}:{}", board + 1, entry.text),
            _ => entry.text.clone(),
        }),
        hidden_as: entry.text.trim_matches(['(', ')']).to_string(),
        clock_ms: in_step(index),
        // A secret choice (a bomb carrier, a base) is a step of the first turn, as a proposal's
        // answer is of its turn: it gets no move number of its own.
        is_move: entry.is_move && !is_choice,
        entry: index,
        mark: None,
        eval: None,
    };
    if record.len() != actions.len() {
        // A game whose record is not one entry per action: written as recorded.
        return Ok(record.iter().enumerate().map(|(i, e)| written(i, e, false)).collect());
    }
    let mut state = game
        .setup
        .start()
        .map_err(|e| ArenaError::Rejected(format!("the start position: {e}")))?;
    let mut moves = Vec::with_capacity(record.len());
    let mut index = 0;
    while index < actions.len() {
        let acting = state.to_act();
        let is_choice = state.phase() == Phase::SealedChoice;
        let step = acting.len().clamp(1, actions.len() - index);
        let mut group: Vec<usize> = (index..index + step).collect();
        let is_one_step = group.iter().all(|&i| acting.contains(&actions[i].0));
        if !is_one_step {
            group.truncate(1);
        }
        for &i in &group {
            let (seat, action) = &actions[i];
            state
                .apply(*seat, action)
                .map_err(|e| ArenaError::Rejected(format!("the game does not replay at action {}: {e}", i + 1)))?;
        }
        group.sort_by_key(|&i| actions[i].0.index());
        moves.extend(group.iter().map(|&i| written(i, &record[i], is_choice)));
        index += group.len();
    }
    Ok(moves)
}

/// While the game waits for secret choices `written` is none of, each seat it cannot be is given
/// its first allowed choice (recorded like any action); whether any was.
fn stand_in_hidden_choices(state: &mut AnyGame, written: &str, entries: &mut Vec<NewEntry>) -> bool {
    let mut stood_in = false;
    while state.phase() == Phase::SealedChoice && state.outcome().is_none() {
        let seats = state.to_act();
        if seats.iter().any(|&seat| state.parse_action(seat, written).is_ok()) {
            break;
        }
        let Some((seat, action)) = seats.iter().find_map(|&seat| {
            state
                .legal_actions(seat)
                .into_iter()
                .next()
                .map(|action| (seat, action))
        }) else {
            break;
        };
        let notation = state.notation(seat, &action);
        if state.apply(seat, &action).is_err() {
            break;
        }
        entries.push(NewEntry::new(LogEntry::Act { seat, action }, notation));
        stood_in = true;
    }
    stood_in
}

/// The variant a record names: chess when it names none (or chess by another name).
fn variant_of(record: &ReadRecord) -> Result<VariantId, String> {
    let Some(name) = record.tag("Variant") else {
        return Ok(VariantId::Chess);
    };
    let lower = name.trim().to_ascii_lowercase();
    if ["standard", "chess", "from position"].contains(&lower.as_str()) {
        return Ok(VariantId::Chess);
    }
    VariantId::parse(&lower)
        .or_else(|| {
            VariantId::ALL
                .iter()
                .copied()
                .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
        })
        .ok_or_else(|| format!("its variant \"{name}\" is not a game Arbiter hosts (see /rules)"))
}

/// The names a record gives its players, as names only: a record's ids (`WhiteId`, an earlier
/// record's seat tags) never make anyone a player.
fn names_of(record: &ReadRecord, start: &AnyGame) -> [String; 2] {
    let seat_names = start.view(Viewer::Spectator).seat_names;
    Seat::BOTH.map(|seat| {
        let tags = if seat == Seat::First {
            ["White", "WhiteId"]
        } else {
            ["Black", "BlackId"]
        };
        tags.into_iter()
            .chain(std::iter::once(seat_names[seat.index()].as_str()))
            .filter_map(|tag| record.tag(tag))
            .map(str::trim)
            // Earlier records wrote ids ("local:alice"): the name is what follows the transport.
            .map(|name| match name.split_once(':') {
                Some(("local" | "discord" | "test" | "bench", rest)) if !rest.is_empty() => rest,
                _ => name,
            })
            // As names are shown: what cannot be seen taken out (a name of nothing visible is
            // no name), cut to fit an image's strip.
            .filter_map(visible_text::name)
            .find(|name| name != "?")
            .unwrap_or_else(|| seat_names[seat.index()].clone())
    })
}

/// Replays a record's moves from `state`, then its result where the board did not end the
/// game: the log entries to store and the game they lead to.
fn replay(record: &ReadRecord, mut state: AnyGame, secrets: SecretChoices) -> Result<(AnyGame, Vec<NewEntry>), String> {
    let seat_names = state.view(Viewer::Spectator).seat_names;
    let mut entries = Vec::with_capacity(record.moves.len());
    let mut stood_in = false;
    for (number, written) in record.moves.iter().enumerate() {
        if secrets == SecretChoices::StoodIn {
            stood_in |= stand_in_hidden_choices(&mut state, &written.text, &mut entries);
        }
        let fail = |error: String| {
            let hidden = if stood_in {
                " (the record hides a secret choice this move needs: export it again once the game is over)"
            } else {
                ""
            };
            format!(
                "line {}, move {} \"{}\": {error}{hidden}",
                written.line,
                number + 1,
                written.text
            )
        };
        let seats: Vec<Seat> = match &written.seat_name {
            Some(name) => vec![
                Seat::BOTH
                    .into_iter()
                    .find(|s| seat_names[s.index()].eq_ignore_ascii_case(name))
                    .ok_or_else(|| fail(format!("\"{name}\" is not {} or {}", seat_names[0], seat_names[1])))?,
            ],
            None => state.to_act(),
        };
        if state.outcome().is_some() {
            return Err(fail("the game was already over".into()));
        }
        // Several seats acting at once: the move is the first of theirs it can be.
        let mut first_error = None;
        let parsed = seats
            .iter()
            .find_map(|&seat| match state.parse_action(seat, &written.text) {
                Ok(action) => Some((seat, action)),
                Err(error) => {
                    first_error.get_or_insert(error);
                    None
                }
            });
        let Some((seat, action)) = parsed else {
            let why = first_error.map_or_else(|| "nobody is to move".to_string(), |e| e.to_string());
            return Err(fail(why));
        };
        let notation = state.notation(seat, &action);
        state.apply(seat, &action).map_err(|e| fail(e.to_string()))?;
        entries.push(NewEntry::new(LogEntry::Act { seat, action }, notation));
    }
    let result = record.tag("Result").or(record.result.as_deref()).unwrap_or("*");
    if state.outcome().is_none() && result != "*" {
        let winner = match result {
            "1-0" => Some(Seat::First),
            "0-1" => Some(Seat::Second),
            "1/2-1/2" => None,
            other => return Err(format!("the result \"{other}\" is not 1-0, 0-1, 1/2-1/2 or *")),
        };
        // A reason the record states, in Arbiter's words or PGN's; else none is made up ("normal",
        // as other sites write a resignation and a mate alike, states none).
        let reason = match record.tag("Ending").or(record.tag("Termination")) {
            Some(text) => EndReason::from_description(text).unwrap_or(match text.to_ascii_lowercase().as_str() {
                "time forfeit" => EndReason::Timeout,
                "abandoned" => EndReason::Abandoned,
                "adjudication" => EndReason::Adjudication,
                _ => EndReason::Unstated,
            }),
            None => EndReason::Unstated,
        };
        let outcome = Outcome {
            winner,
            reason,
            scores: None,
        };
        state.conclude(outcome.clone());
        entries.push(NewEntry::new(LogEntry::Conclude { outcome }, reason.describe()));
    }
    Ok((state, entries))
}
