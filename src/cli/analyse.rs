//! `arbiter analyse FILE.pgn`: a game record gone through by the computer, as `/analyse` goes
//! through a finished game (as its audience saw it): the summary and turning points printed, the
//! record with its evaluations and judgements and the graph written where asked.

use anyhow::{Context, Result};
use arbiter::arena::analyse_record;
use arbiter::render::Renderer;
use std::path::Path;

pub fn analyse(record: &Path, nodes: u64, out: Option<&Path>, graph: Option<&Path>) -> Result<String> {
    let text = std::fs::read_to_string(record).with_context(|| format!("cannot read {}", record.display()))?;
    let analysed = analyse_record(&text, nodes.max(1))
        .map_err(|why| anyhow::anyhow!("cannot analyse {}: {why}", record.display()))?;
    let mut said = arbiter::arena::text::plain(&analysed.words);
    if let Some(out) = out {
        std::fs::write(out, &analysed.annotated).with_context(|| format!("cannot write {}", out.display()))?;
        said += &format!("\nThe record with its evaluations: {}", out.display());
    }
    if let Some(path) = graph {
        let png = Renderer::new().graph(&analysed.graph)?;
        std::fs::write(path, png).with_context(|| format!("cannot write {}", path.display()))?;
        said += &format!("\nThe graph: {}", path.display());
    }
    said.push('\n');
    Ok(said)
}
