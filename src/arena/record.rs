//! Game records as text: export a game as its asker may see it, import a complete record back.
//!
//! ```text
//! [Game "12"]
//! [Variant "chess"]
//! [White "local:alice"]
//! [Black "local:bob"]
//! [Result "1-0"]
//! [Termination "resignation"]
//!
//! white: e4
//! black: e5
//! ```

use super::queries::viewer_of;
use super::{Arena, ArenaError, Effects, Reply};
use crate::store::{GameId, GameSetup, GameStatus, LogEntry, LoggedEntry, NewEntry, NewGame, UserId, WhitePlayer};
use arbiter_engine::variants::beirut::HIDDEN_CHOICE;
use arbiter_engine::{AnyGame, EndReason, Game, Outcome, Seat, VariantId};

const END_REASONS: [EndReason; 12] = [
    EndReason::Checkmate,
    EndReason::Stalemate,
    EndReason::Repetition,
    EndReason::FiftyMoves,
    EndReason::InsufficientMaterial,
    EndReason::NoCompleteTurn,
    EndReason::KingDestroyed,
    EndReason::Resignation,
    EndReason::Agreement,
    EndReason::Timeout,
    EndReason::Adjudication,
    EndReason::Aborted,
];

/// Rebuilds a game's state from its start and its log: the log is the truth.
pub fn rebuild(setup: &GameSetup, log: &[LoggedEntry]) -> Result<AnyGame, String> {
    let start = setup.start().map_err(|e| format!("the start position: {e}"))?;
    let actions = super::play::effective_actions(log);
    let mut game =
        AnyGame::replay(&start, &actions).map_err(|(i, e)| format!("action {} does not replay: {e}", i + 1))?;
    if let Some(LogEntry::Conclude { outcome }) = log
        .iter()
        .rev()
        .map(|l| &l.entry)
        .find(|e| matches!(e, LogEntry::Conclude { .. }))
    {
        game.conclude(outcome.clone());
    }
    Ok(game)
}

fn header(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('"', "'"))
}

impl Arena {
    /// The game as a text record, built from the asker's view: secrets the asker may not know
    /// are shown as hidden (such a record cannot be imported until the game has ended).
    pub async fn export(&self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        if matches!(
            game.status,
            GameStatus::Challenge | GameStatus::Declined | GameStatus::Cancelled
        ) {
            return Err(ArenaError::Rejected(format!(
                "game #{id} never started, so there is nothing to export"
            )));
        }
        let view = game.state.view(viewer_of(&game, user));
        let mut text = header("Game", &id.to_string());
        text.push_str(&header("Variant", game.setup.variant.as_str()));
        for seat in [Seat::White, Seat::Black] {
            if let Some(player) = game.player(seat) {
                text.push_str(&header(seat.name(), &player.0));
            }
        }
        if let Some(fen) = &game.setup.fen {
            text.push_str(&header("Start", fen));
        }
        let result = view.outcome.as_ref().map_or("*", |o| o.result_text());
        text.push_str(&header("Result", result));
        if let Some(outcome) = &view.outcome {
            text.push_str(&header("Termination", outcome.reason.describe()));
        }
        text.push('\n');
        for entry in &view.record {
            text.push_str(&format!("{}: {}\n", entry.seat.name().to_ascii_lowercase(), entry.text));
        }
        Ok(Effects {
            reply: Some(Reply { text, board: None }),
            game: Some(id),
            ..Default::default()
        })
    }

    /// Creates a game at `location` from a complete record, replaying every action.
    pub async fn import(&self, user: &UserId, location: &str, text: &str) -> Result<Effects, ArenaError> {
        let bad = |message: String| ArenaError::Rejected(format!("cannot import this record: {message}"));
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut lines: Vec<(Seat, String)> = Vec::new();
        for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
            if line.is_empty() {
                continue;
            }
            if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let (name, value) = tag
                    .split_once(' ')
                    .ok_or_else(|| bad(format!("line {number} is not a [Tag \"value\"]")))?;
                tags.push((name.to_string(), value.trim().trim_matches('"').to_string()));
                continue;
            }
            let (seat, action) = line
                .split_once(':')
                .ok_or_else(|| bad(format!("line {number} is not `white: <action>`")))?;
            let seat = match seat.trim().to_ascii_lowercase().as_str() {
                "white" => Seat::White,
                "black" => Seat::Black,
                other => return Err(bad(format!("line {number}: \"{other}\" is not white or black"))),
            };
            let action = action.trim();
            if action == HIDDEN_CHOICE {
                return Err(bad(format!(
                    "line {number} hides a secret choice; export the game again once it has ended"
                )));
            }
            lines.push((seat, action.to_string()));
        }
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        let variant_text = tag("Variant").ok_or_else(|| bad("it has no [Variant] tag".into()))?;
        let variant =
            VariantId::parse(&variant_text).ok_or_else(|| bad(format!("unknown variant \"{variant_text}\"")))?;
        let white = UserId(tag("White").ok_or_else(|| bad("it has no [White] tag".into()))?);
        let black = UserId(tag("Black").ok_or_else(|| bad("it has no [Black] tag".into()))?);
        if white == black {
            return Err(bad("White and Black are the same player".into()));
        }
        let setup = GameSetup {
            variant,
            fen: tag("Start"),
        };
        let start = setup.start().map_err(|e| bad(format!("the start position: {e}")))?;

        let mut state = start.clone();
        let mut entries = Vec::new();
        for (index, (seat, text)) in lines.iter().enumerate() {
            let action = state
                .parse_action(*seat, text)
                .map_err(|e| bad(format!("action {} \"{text}\": {e}", index + 1)))?;
            let notation = state.notation(*seat, &action);
            state
                .apply(*seat, &action)
                .map_err(|e| bad(format!("action {} \"{text}\": {e}", index + 1)))?;
            entries.push(NewEntry {
                entry: LogEntry::Act { seat: *seat, action },
                notation,
            });
        }
        if state.outcome().is_none()
            && let (Some(result), Some(termination)) = (tag("Result"), tag("Termination"))
        {
            let reason = END_REASONS
                .into_iter()
                .find(|r| r.describe() == termination)
                .ok_or_else(|| bad(format!("unknown termination \"{termination}\"")))?;
            let winner = match result.as_str() {
                "1-0" => Some(Seat::White),
                "0-1" => Some(Seat::Black),
                _ => None,
            };
            let outcome = Outcome {
                winner,
                reason,
                scores: None,
            };
            state.conclude(outcome.clone());
            entries.push(NewEntry {
                notation: reason.describe().into(),
                entry: LogEntry::Conclude { outcome },
            });
        }
        let now = self.now();
        let new = NewGame {
            setup,
            location: location.to_string(),
            status: GameStatus::Active,
            challenger: white.clone(),
            opponent: black.clone(),
            white_player: WhitePlayer::Challenger,
            players: Some([white, black]),
            state: start,
            now,
            deathmatch: None,
        };
        let mut game = self.store.insert_game(&new).await?;
        game.status = if state.outcome().is_some() {
            GameStatus::Finished
        } else {
            GameStatus::Active
        };
        game.state = state;
        game.version += 1;
        game.updated_at = now;
        self.store.update_game(&game, &entries).await?;
        let post = super::messages::board_post(&game, format!("{} imported a game record.", user.display_name()));
        Ok(Effects {
            posts: vec![post],
            game: Some(game.id),
            ..Default::default()
        })
    }
}
