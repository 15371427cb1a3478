//! Delivery: what performs the arena's effects on Discord, for one interaction or one
//! announcement. Its work is shared by job: deliver.rs (effects, prompts), posting.rs (posts to
//! a game's place), direct.rs (DMs); this file holds the type and its images and replays.

use super::Data;
use super::respond::Outgoing;
use crate::arena::Replay;
use crate::render::{BoardImage, MOST_REPLAY_BYTES, Table};
use serenity::all as discord;

/// Performs effects for one interaction.
pub struct Delivery<'a> {
    pub http: &'a discord::Http,
    pub data: &'a Data,
}

impl Delivery<'_> {
    /// Draws a board image, with the players' Discord names, as a PNG attachment.
    pub async fn board_file(&self, image: &BoardImage) -> anyhow::Result<discord::CreateAttachment> {
        // The arena names players in images by the part of their id after the transport (for
        // Discord users, their numeric id); here those become the names Discord shows.
        let mut image = image.clone();
        self.discord_names(&mut image.decor.player_names).await;
        let renderer = self.data.renderer.clone();
        let png = tokio::task::spawn_blocking(move || renderer.image(&image)).await??;
        Ok(discord::CreateAttachment::bytes(png, "board.png"))
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

    /// A game's replay as a GIF attachment under Discord's limit, and its words (saying so when
    /// a long game's replay leaves positions out).
    pub async fn replay_message(&self, replay: &Replay) -> anyhow::Result<Outgoing> {
        let mut animation = replay.animation.clone();
        if let Some(first) = animation.frames.first() {
            let mut names = first.image.decor.player_names.clone();
            self.discord_names(&mut names).await;
            for frame in &mut animation.frames {
                frame.image.decor.player_names = names.clone();
            }
        }
        let renderer = self.data.renderer.clone();
        let gif = tokio::task::spawn_blocking(move || renderer.gif(&animation, MOST_REPLAY_BYTES)).await??;
        let mut message = Outgoing::text(&replay.caption);
        if let Some(note) = gif.note() {
            message.content = super::widgets::fit(&format!("{}\n{note}", message.content));
        }
        message
            .files
            .push(discord::CreateAttachment::bytes(gif.bytes, replay.file_name.clone()));
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
        let renderer = self.data.renderer.clone();
        let png = tokio::task::spawn_blocking(move || renderer.table(&table)).await??;
        Ok(discord::CreateAttachment::bytes(png, "standings.png"))
    }
}
