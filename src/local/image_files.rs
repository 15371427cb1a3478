//! The terminal's image files: every board it prints is also drawn to a PNG file, each named for
//! what it shows, and replays to GIF files.

use crate::ids::{GameId, UserId};
use crate::render::{BoardImage, Renderer};
use std::path::PathBuf;

/// Where the terminal writes board images: every board it prints is also drawn to a PNG file in
/// this directory (public boards as `game-<id>-ply-<n>.png`, private ones with the viewer's name).
pub struct ImageFiles {
    dir: PathBuf,
    renderer: Renderer,
}

impl ImageFiles {
    pub fn new(dir: impl Into<PathBuf>) -> ImageFiles {
        ImageFiles {
            dir: dir.into(),
            renderer: Renderer::new(),
        }
    }

    /// Draws `image` and returns the file it went to.
    pub(super) fn write(
        &self,
        game: Option<GameId>,
        image: &BoardImage,
        private_to: Option<&UserId>,
    ) -> anyhow::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let ply = image.view.record.len();
        // Each file is named for what it shows: a piece's card, a sheet of a list's pieces, or a
        // game's board after a ply (a private one with its viewer's name).
        let game = game
            .filter(|id| id.get() > 0)
            .map_or_else(|| "board".to_string(), |id| format!("game-{id}"));
        let viewer = private_to.map_or_else(String::new, |user| format!("-{}", file_safe(user.display_name())));
        let name = match image.view.variant.strip_prefix("piece:") {
            Some(piece) => format!("piece-{}.png", file_safe(piece)),
            None if image.view.variant.starts_with("sheet") => format!("{game}-pieces{viewer}.png"),
            None => format!("{game}-ply-{ply}{viewer}.png"),
        };
        let png = self.renderer.image(image)?;
        let path = self.unused_or_same(&name, &png);
        std::fs::write(&path, png)?;
        Ok(path)
    }

    /// Writes a game's record (PGN) as `game-<id>.pgn`, and returns the file.
    pub(super) fn write_record(&self, game: GameId, record: &str) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.dir.join(format!("game-{game}.pgn"));
        std::fs::write(&path, record)?;
        Ok(path)
    }

    /// The file for `name` holding `bytes`: the name itself unless it holds something else (a
    /// position shown again after a takeback keeps the file of the first), then the first of
    /// `-2`, `-3`, ... that is free or holds the same.
    fn unused_or_same(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
        (1..)
            .map(|n| match n {
                1 => self.dir.join(name),
                n => self.dir.join(format!("{stem}-{n}.{extension}")),
            })
            .find(|path| std::fs::read(path).map_or(true, |held| held == bytes))
            .unwrap_or_else(|| self.dir.join(name))
    }
}

impl ImageFiles {
    /// Draws a replay (within Discord's attachment limit, as everywhere) to its file.
    pub(super) fn write_replay(&self, replay: &crate::arena::Replay) -> anyhow::Result<(PathBuf, crate::render::Gif)> {
        std::fs::create_dir_all(&self.dir)?;
        let gif = self.renderer.gif(&replay.animation, crate::render::MOST_REPLAY_BYTES)?;
        // The arena names it from the game's number alone.
        let path = self.dir.join(&replay.file_name);
        std::fs::write(&path, &gif.bytes)?;
        Ok((path, gif))
    }
}

impl ImageFiles {
    /// Draws an analysis's graph to `game-<id>-analysis.png` (with the asker's name when it is
    /// theirs alone), and returns the file.
    pub(super) fn write_graph(
        &self,
        report: &crate::arena::AnalysisReport,
        private_to: Option<&UserId>,
    ) -> anyhow::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let viewer = private_to.map_or_else(String::new, |user| format!("-{}", file_safe(user.display_name())));
        let png = self.renderer.graph(&report.graph)?;
        let path = self.dir.join(format!("game-{}-analysis{viewer}.png", report.game));
        std::fs::write(&path, png)?;
        Ok(path)
    }
}

/// A user name as a file name part: letters, digits, `-` and `_` only.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .collect()
}
