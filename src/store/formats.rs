//! The stored formats of games, and the way forward from older ones.
//!
//! A game is stored as a snapshot of its state plus an append-only log, each tagged with the
//! format it was written in. The log is the truth: it holds actions in a form that names squares
//! and pieces by stable names (see `arbiter_engine::Action`), and every format ever written is
//! read here. The snapshot is a cache of the state the log leads to: a snapshot of another format,
//! or one that no longer reads (a built-in variant whose pieces changed), is rebuilt from the log.
//!
//! Formats:
//! - 0: actions named pieces by their index in the variant's piece list and squares by packed
//!   byte; seats were colour names; snapshots were the engine's structs of the day.
//! - 1: actions as `arbiter_engine::Action`; seats by index; snapshots with a fingerprint of the
//!   built-in variant's pieces.
//! - 2: log entries as in 1. Snapshots hold what later code adds to a game's state: the units a
//!   Beirut detonation destroyed (for its news) and the square of the last placement or pick
//!   (Blockade's set-up, Pick-the-team). A format-1 snapshot lacks them, so it is rebuilt from its
//!   log, which gives them.

use super::StoreError;
use crate::model::LogEntry;
use arbiter_engine::{AnyGame, VariantId};

/// The format this build writes.
pub const FORMAT: i64 = 2;

pub fn encode_entry(entry: &LogEntry) -> String {
    serde_json::to_string(entry).expect("log entries serialise")
}

pub fn encode_state(state: &AnyGame) -> String {
    serde_json::to_string(state).expect("games serialise")
}

/// Reads a log entry written in `format` by a game of `variant`.
pub fn decode_entry(variant: VariantId, format: i64, text: &str) -> Result<LogEntry, StoreError> {
    let corrupt = |e: &dyn std::fmt::Display| StoreError::Corrupt(format!("log entry (format {format}): {e}"));
    let value = match format {
        0 => v0::entry(variant, serde_json::from_str(text).map_err(|e| corrupt(&e))?).map_err(|e| corrupt(&e))?,
        // Format 2 changed snapshots only: its log entries read as format 1's.
        1 | FORMAT => serde_json::from_str(text).map_err(|e| corrupt(&e))?,
        other => {
            return Err(corrupt(&format!(
                "this build reads formats up to {FORMAT}, not {other}"
            )));
        }
    };
    serde_json::from_value(value).map_err(|e| corrupt(&e))
}

/// Reads a snapshot, when it is of the current format and still reads; `None` means the state
/// must be rebuilt from the log.
pub fn decode_state(format: i64, text: &str) -> Option<AnyGame> {
    if format != FORMAT {
        return None;
    }
    match serde_json::from_str(text) {
        Ok(state) => Some(state),
        Err(e) => {
            tracing::warn!("a stored game snapshot no longer reads ({e}); rebuilding it from its log");
            None
        }
    }
}

/// Format 0, as it was written, turned into format 1.
mod v0 {
    use arbiter_engine::VariantId;
    use serde_json::{Map, Value, json};

    /// The piece lists of format 0's variants: an action's kind was an index into these.
    fn pieces(variant: VariantId) -> &'static [&'static str] {
        match variant {
            VariantId::Chess | VariantId::Beirut => &["king", "queen", "rook", "bishop", "knight", "pawn"],
            VariantId::Blockade | VariantId::Garden => &["blockade-queen", "blockade-rook", "blockade-bishop"],
            // Games added after format 0 never wrote it.
            _ => &[],
        }
    }

    fn piece(variant: VariantId, kind: &Value) -> Result<Value, String> {
        let index = kind
            .as_u64()
            .ok_or_else(|| format!("a piece kind must be a number, not {kind}"))?;
        pieces(variant)
            .get(index as usize)
            .map(|id| json!(id))
            .ok_or_else(|| format!("{variant} had no piece kind {index}"))
    }

    /// A format-0 log entry as the JSON of a format-1 one. Seats and squares of format 0 still
    /// read as they are (colour names, packed bytes); actions change shape.
    pub fn entry(variant: VariantId, mut entry: Value) -> Result<Value, String> {
        if let Some(action) = entry.get_mut("action") {
            *action = self::action(variant, action.take())?;
        }
        Ok(entry)
    }

    fn action(variant: VariantId, action: Value) -> Result<Value, String> {
        if action == json!("detonate") {
            return Ok(json!({"type": "detonate"}));
        }
        let Some((tag, body)) = action.as_object().and_then(|o| o.iter().next()) else {
            return Err(format!("unknown action {action}"));
        };
        let field = |name: &str| body.get(name).cloned().unwrap_or(Value::Null);
        let mut out = Map::new();
        match tag.as_str() {
            "move" => {
                out.insert("type".into(), json!("move"));
                out.insert("from".into(), field("from"));
                out.insert("to".into(), field("to"));
                if !field("promotion").is_null() {
                    out.insert("promotion".into(), piece(variant, &field("promotion"))?);
                }
            }
            "place" => {
                out.insert("type".into(), json!("place"));
                out.insert("piece".into(), piece(variant, &field("kind"))?);
                out.insert("to".into(), field("to"));
            }
            "move-and-statue" => {
                out.insert("type".into(), json!("move-and-statue"));
                for name in ["from", "to", "statue"] {
                    out.insert(name.into(), field(name));
                }
            }
            "choose-bomb" => {
                out.insert("type".into(), json!("choose-bomb"));
                out.insert("square".into(), body.clone());
            }
            other => return Err(format!("unknown action \"{other}\"")),
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::geometry::Square;
    use arbiter_engine::{Action, Seat};

    #[test]
    fn format_0_actions_name_pieces_by_the_old_lists() {
        let promotion =
            r#"{"kind":"act","seat":"white","action":{"move":{"from":97,"to":113,"promotion":4,"special":"Normal"}}}"#;
        let LogEntry::Act { seat, action } = decode_entry(VariantId::Chess, 0, promotion).unwrap() else {
            panic!("an action");
        };
        assert_eq!(seat, Seat::First);
        assert_eq!(
            action,
            Action::Move {
                from: Square::parse("b7").unwrap(),
                to: Square::parse("b8").unwrap(),
                promotion: Some("knight".into()),
                choice: None,
                board: 0,
            }
        );
        let place = r#"{"kind":"act","seat":"black","action":{"place":{"kind":1,"to":67}}}"#;
        assert!(matches!(
            decode_entry(VariantId::Garden, 0, place).unwrap(),
            LogEntry::Act { seat: Seat::Second, action: Action::Place { piece, .. } } if piece.as_str() == "blockade-rook"
        ));
        let bomb = r#"{"kind":"act","seat":"black","action":{"choose-bomb":100}}"#;
        assert!(matches!(
            decode_entry(VariantId::Beirut, 0, bomb).unwrap(),
            LogEntry::Act { action: Action::ChooseBomb { square }, .. } if square == Square::parse("e7").unwrap()
        ));
        let detonate = r#"{"kind":"act","seat":"black","action":"detonate"}"#;
        assert!(matches!(
            decode_entry(VariantId::Beirut, 0, detonate).unwrap(),
            LogEntry::Act {
                action: Action::Detonate,
                ..
            }
        ));
    }

    #[test]
    fn unknown_formats_and_kinds_are_errors_not_guesses() {
        let bad_kind = r#"{"kind":"act","seat":"white","action":{"place":{"kind":7,"to":3}}}"#;
        assert!(decode_entry(VariantId::Blockade, 0, bad_kind).is_err());
        assert!(decode_entry(VariantId::Chess, 99, "{}").is_err());
        assert!(decode_state(0, "{}").is_none());
    }
}
