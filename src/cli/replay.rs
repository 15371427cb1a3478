//! `arbiter replay FILE.pgn --out FILE.gif`: a game record's animated replay, as its audience saw
//! it (the same frames `/replay` posts).

use anyhow::{Context, Result};
use arbiter::arena::{ReplayedRecord, animation, replay_record_for_audience};
use arbiter::model::LogEntry;
use arbiter::render::{MOST_REPLAY_BYTES, Renderer};
use std::path::Path;

/// Writes the replay of the record in `record` to `out`; says how many frames and bytes.
pub fn replay(record: &Path, out: &Path) -> Result<String> {
    let text = std::fs::read_to_string(record).with_context(|| format!("cannot read {}", record.display()))?;
    let ReplayedRecord {
        start,
        names,
        state,
        entries,
        ..
    } = replay_record_for_audience(&text)
        .map_err(|why| anyhow::anyhow!("cannot replay {}: {why}", record.display()))?;
    let actions: Vec<_> = entries
        .into_iter()
        .filter_map(|entry| match entry.entry {
            LogEntry::Act { seat, action } => Some((seat, action)),
            _ => None,
        })
        .collect();
    let animation = animation(&start, &actions, &state, names.map(Some)).map_err(anyhow::Error::msg)?;
    let gif = Renderer::new().gif(&animation, MOST_REPLAY_BYTES)?;
    std::fs::write(out, &gif.bytes).with_context(|| format!("cannot write {}", out.display()))?;
    let mut said = format!(
        "{}: {} frames, {} KiB",
        out.display(),
        gif.shown,
        gif.bytes.len().div_ceil(1024)
    );
    if let Some(note) = gif.note() {
        said.push('\n');
        said.push_str(&note);
    }
    said.push('\n');
    Ok(said)
}
