//! Delivery: what performs the arena's effects on Discord, for one interaction or one
//! announcement. Its work is shared by job: effects.rs (effects, prompts), posting.rs (posts to
//! a game's place), direct.rs (DMs); this file holds the type and its images and replays.

mod direct;
mod effects;
mod posting;

pub use direct::DirectChannels;
pub use posting::{Fate, Patience};

use crate::arena::AnalysisReport;
use crate::arena::Replay;
use crate::arena::text;
use crate::discord::Data;
use crate::discord::respond::Outgoing;
use crate::render::words::{self, MOST_DESCRIPTION_CHARS};
use crate::render::{BoardImage, MOST_REPLAY_BYTES, Table};
use serenity::all as discord;

/// Performs effects for one interaction.
pub struct Delivery<'a> {
    pub http: &'a discord::Http,
    pub data: &'a Data,
}

impl Delivery<'_> {
    /// Draws a board image, with the players' Discord names, as a PNG attachment described in
    /// words (its alt text, which screen readers read aloud).
    pub async fn board_file(&self, image: &BoardImage) -> anyhow::Result<discord::CreateAttachment> {
        self.board_file_captioned(image, None).await
    }

    /// A private answer's board image: a game's board is described as `board_file` describes it;
    /// a piece's card or a list's sheet (a diagram, without players) is described by the answer's
    /// own words first, which name each piece and its moves, then the diagram's.
    pub async fn reply_board_file(
        &self,
        image: &BoardImage,
        reply_text: &str,
    ) -> anyhow::Result<discord::CreateAttachment> {
        let caption = image.decor.without_players.then(|| text::plain(reply_text));
        self.board_file_captioned(image, caption.as_deref()).await
    }

    /// A board image with the players' Discord names, described by `caption` (if any) followed
    /// by the image in words, within Discord's limit.
    async fn board_file_captioned(
        &self,
        image: &BoardImage,
        caption: Option<&str>,
    ) -> anyhow::Result<discord::CreateAttachment> {
        // The arena names players in images by the part of their id after the transport (for
        // Discord users, their numeric id); here those become the names Discord shows, so the
        // description reads the names the image shows.
        let mut image = image.clone();
        self.discord_names(&mut image.decor.player_names).await;
        let description = match caption {
            Some(caption) => captioned(caption, |most| words::describe_within(&image, most)),
            None => words::describe(&image),
        };
        let renderer = self.data.renderer.clone();
        let png = tokio::task::spawn_blocking(move || renderer.image(&image)).await??;
        Ok(discord::CreateAttachment::bytes(png, "board.png").description(description))
    }

    /// The arena names players in images by the part of their id after the transport (for
    /// Discord users, their numeric id); these become the names Discord shows.
    async fn discord_names(&self, names: &mut [Option<String>; 2]) {
        for name in names.iter_mut().flatten() {
            if let Ok(id) = name.parse::<u64>()
                && id != 0
            {
                *name = self.data.names.name_of(self.http, discord::UserId::new(id)).await;
            }
        }
    }

    /// An analysis as a message: its words (within Discord's limit), its graph, and the boards
    /// of its worst turning points, each image described in words.
    pub async fn analysis_message(&self, report: &AnalysisReport) -> anyhow::Result<Outgoing> {
        let mut message = Outgoing::text(&report.text);
        message.content = crate::discord::widgets::fit(&message.content);
        let graph = report.graph.clone();
        let description = within_words(&graph.describe(), MOST_DESCRIPTION_CHARS);
        let renderer = self.data.renderer.clone();
        let png = tokio::task::spawn_blocking(move || renderer.graph(&graph)).await??;
        message.files.push(
            discord::CreateAttachment::bytes(png, format!("game-{}-analysis.png", report.game))
                .description(description),
        );
        for (caption, board) in &report.boards {
            message
                .files
                .push(self.board_file_captioned(board, Some(caption)).await?);
        }
        Ok(message)
    }

    /// A game's replay as a GIF attachment under Discord's limit, and its words (saying so when
    /// a long game's replay leaves positions out).
    pub async fn replay_message(&self, replay: &Replay) -> anyhow::Result<Outgoing> {
        let mut animation = replay.animation.clone();
        let mut named = ReadNames::default();
        if let Some(first) = animation.frames.first() {
            let ids = first.image.decor.player_names.clone();
            let mut names = ids.clone();
            self.discord_names(&mut names).await;
            for (id, name) in ids.iter().zip(&names) {
                if let (Some(id), Some(name)) = (id.as_ref().and_then(|id| id.parse::<u64>().ok()), name)
                    && id != 0
                {
                    named
                        .0
                        .insert(crate::discord::ids::user(discord::UserId::new(id)), name.clone());
                }
            }
            for frame in &mut animation.frames {
                frame.image.decor.player_names = names.clone();
            }
        }
        // The replay in words: its caption (the players by the names the image shows, not
        // as mentions, which a description does not render), then where it ends (the last
        // frame, as drawn).
        let description = captioned(&text::render(&replay.caption, &named), |most| {
            animation
                .frames
                .last()
                .map(|last| words::describe_within(&last.image, most))
                .unwrap_or_default()
        });
        let renderer = self.data.renderer.clone();
        let gif = tokio::task::spawn_blocking(move || renderer.gif(&animation, MOST_REPLAY_BYTES)).await??;
        let mut message = Outgoing::text(&replay.caption);
        if let Some(note) = gif.note() {
            message.content = crate::discord::widgets::fit(&format!("{}\n{note}", message.content));
        }
        message
            .files
            .push(discord::CreateAttachment::bytes(gif.bytes, replay.file_name.clone()).description(description));
        Ok(message)
    }

    /// Draws a table (standings), with the players' Discord names, as a PNG attachment.
    pub async fn table_file(&self, table: &Table) -> anyhow::Result<discord::CreateAttachment> {
        let mut table = table.clone();
        if let Some(column) = table.name_column {
            for row in &mut table.rows {
                if let Some(cell) = row.get_mut(column)
                    && let Ok(id) = cell.parse::<u64>()
                    && id != 0
                {
                    *cell = self.data.names.name_of(self.http, discord::UserId::new(id)).await;
                }
            }
        }
        let description = words::describe_table(&table);
        let renderer = self.data.renderer.clone();
        let png = tokio::task::spawn_blocking(move || renderer.table(&table)).await??;
        Ok(discord::CreateAttachment::bytes(png, "standings.png").description(description))
    }
}

/// Words for a description, read rather than rendered: plain text, the players by the names
/// Discord shows (others by the name in their id).
#[derive(Default)]
struct ReadNames(std::collections::HashMap<crate::ids::UserId, String>);

impl text::Style for ReadNames {
    fn user_written(&self, words: &str) -> String {
        text::Plain { now: None }.user_written(words)
    }
    fn strong(&self, words: &str) -> String {
        text::Plain { now: None }.strong(words)
    }
    fn user(&self, user: &crate::ids::UserId) -> String {
        self.0
            .get(user)
            .cloned()
            .unwrap_or_else(|| text::Plain { now: None }.user(user))
    }
    fn command(&self, words: &str, options: &[(&str, &str)]) -> String {
        text::Plain { now: None }.command(words, options)
    }
    fn where_played(&self, place: &crate::ids::Place) -> String {
        text::Plain { now: None }.where_played(place)
    }
    fn time(&self, at_ms: i64) -> String {
        text::Plain { now: None }.time(at_ms)
    }
    fn block(&self, words: &str) -> String {
        text::Plain { now: None }.block(words)
    }
}

/// `caption` then what `rest` words within the characters left, all within Discord's limit for
/// a description: a caption too long for it is shortened at a word, and `rest` is left out
/// when no room is left for it.
fn captioned(caption: &str, rest: impl FnOnce(usize) -> String) -> String {
    let caption = within_words(caption.trim(), MOST_DESCRIPTION_CHARS);
    // One character joins the two.
    let room = MOST_DESCRIPTION_CHARS.saturating_sub(caption.chars().count() + 1);
    let rest = if room == 0 { String::new() } else { rest(room) };
    match (caption.is_empty(), rest.is_empty()) {
        (_, true) => caption,
        (true, false) => rest,
        (false, false) => format!("{caption} {rest}"),
    }
}

/// `text` on one line (a description is read as one), within `most` characters: a longer one
/// is cut after its last whole word that fits, and ends with "…".
fn within_words(text: &str, most: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= most {
        return text;
    }
    let mut kept = String::new();
    for word in text.split(' ') {
        // The word, a space before it, and the closing "…".
        let needed = kept.chars().count() + usize::from(!kept.is_empty()) + word.chars().count() + 1;
        if needed > most {
            break;
        }
        if !kept.is_empty() {
            kept.push(' ');
        }
        kept.push_str(word);
    }
    if most > 0 {
        kept.push('…');
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_caption_is_cut_at_a_word_within_the_limit() {
        let caption = "knight ".repeat(400);
        let description = captioned(&caption, |most| "x".repeat(most));
        assert!(description.chars().count() <= MOST_DESCRIPTION_CHARS, "{description}");
        assert!(description.starts_with("knight knight"), "{description}");
        assert!(description.contains("knight…"), "cut at a word: {description}");
    }

    #[test]
    fn the_rest_fills_the_room_the_caption_leaves() {
        let caption = "Game #7, replayed.";
        let mut offered = 0;
        let description = captioned(caption, |most| {
            offered = most;
            "x".repeat(most)
        });
        assert_eq!(offered, MOST_DESCRIPTION_CHARS - caption.len() - 1);
        assert_eq!(description.chars().count(), MOST_DESCRIPTION_CHARS);
        assert!(description.starts_with("Game #7, replayed. x"));
    }

    #[test]
    fn lines_become_one_and_short_text_is_kept_whole() {
        assert_eq!(within_words("Rook (`R`)\nmoves  far", 100), "Rook (`R`) moves far");
        assert_eq!(within_words("one two three", 9), "one two…");
    }
}
