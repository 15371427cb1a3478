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
use crate::store::{GameId, GameSetup, GameStatus, LogEntry, NewEntry, NewGame, UserId, WhitePlayer};
use arbiter_engine::{EndReason, Game, Outcome, Seat, VariantId, Viewer};

/// What a record shows for an action its reader may not know.
const HIDDEN: &str = "(hidden)";

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
        for seat in Seat::BOTH {
            if let Some(player) = game.player(seat) {
                text.push_str(&header(&view.seat_names[seat.index()], &player.0));
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
            let seat = view.seat_names[entry.seat.index()].to_ascii_lowercase();
            let text_of = if entry.is_hidden { HIDDEN } else { &entry.text };
            text.push_str(&format!("{seat}: {text_of}\n"));
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
        let mut lines: Vec<(usize, String, String)> = Vec::new();
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
            let action = action.trim();
            if action == HIDDEN {
                return Err(bad(format!(
                    "line {number} hides a secret choice; export the game again once it has ended"
                )));
            }
            lines.push((number, seat.trim().to_ascii_lowercase(), action.to_string()));
        }
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        let variant_text = tag("Variant").ok_or_else(|| bad("it has no [Variant] tag".into()))?;
        let variant =
            VariantId::parse(&variant_text).ok_or_else(|| bad(format!("unknown variant \"{variant_text}\"")))?;
        let setup = GameSetup {
            variant,
            fen: tag("Start"),
        };
        let start = setup.start().map_err(|e| bad(format!("the start position: {e}")))?;
        let names = start.view(Viewer::Spectator).seat_names;
        let [first, second] = names.clone().map(|name| {
            tag(&name)
                .map(UserId)
                .ok_or_else(|| bad(format!("it has no [{name}] tag")))
        });
        let (first, second) = (first?, second?);
        if first == second {
            return Err(bad(format!("{} and {} are the same player", names[0], names[1])));
        }
        let mut seated: Vec<(Seat, String)> = Vec::new();
        for (number, seat, text) in lines {
            let seat = Seat::BOTH
                .into_iter()
                .find(|s| names[s.index()].to_ascii_lowercase() == seat)
                .ok_or_else(|| {
                    bad(format!(
                        "line {number}: \"{seat}\" is not {} or {}",
                        names[0].to_ascii_lowercase(),
                        names[1].to_ascii_lowercase()
                    ))
                })?;
            seated.push((seat, text));
        }

        let mut state = start.clone();
        let mut entries = Vec::new();
        for (index, (seat, text)) in seated.iter().enumerate() {
            let action = state
                .parse_action(*seat, text)
                .map_err(|e| bad(format!("action {} \"{text}\": {e}", index + 1)))?;
            let notation = state.notation(*seat, &action);
            state
                .apply(*seat, &action)
                .map_err(|e| bad(format!("action {} \"{text}\": {e}", index + 1)))?;
            entries.push(NewEntry::new(LogEntry::Act { seat: *seat, action }, notation));
        }
        if state.outcome().is_none()
            && let (Some(result), Some(termination)) = (tag("Result"), tag("Termination"))
        {
            let reason = EndReason::from_description(&termination)
                .ok_or_else(|| bad(format!("unknown termination \"{termination}\"")))?;
            let winner = match result.as_str() {
                "1-0" => Some(Seat::First),
                "0-1" => Some(Seat::Second),
                _ => None,
            };
            let outcome = Outcome {
                winner,
                reason,
                scores: None,
            };
            state.conclude(outcome.clone());
            entries.push(NewEntry::new(LogEntry::Conclude { outcome }, reason.describe()));
        }
        let now = self.now();
        let new = NewGame {
            setup,
            location: location.to_string(),
            status: GameStatus::Active,
            challenger: first.clone(),
            opponent: second.clone(),
            white_player: WhitePlayer::Challenger,
            players: Some([first, second]),
            state: start,
            now,
            deathmatch: None,
            clock: crate::clock::GameClock::untimed(now),
            server: None,
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
        // A record brought in from elsewhere moves no ratings.
        self.store.update_game(&game, &entries, None).await?;
        let post = super::messages::board_post(&game, format!("{} imported a game record.", user.display_name()));
        Ok(Effects {
            posts: vec![post],
            game: Some(game.id),
            ..Default::default()
        })
    }
}
