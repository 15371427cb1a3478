//! Delivery: what performs the arena's effects on Discord, for one interaction or one
//! announcement. Its work is shared by job: deliver.rs (effects, prompts), posting.rs (posts to
//! a game's place), direct.rs (DMs); this file holds the type and its images.

use super::Data;
use crate::render::{BoardImage, Table};
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
        for name in image.decor.player_names.iter_mut().flatten() {
            if let Ok(id) = name.parse::<u64>()
                && id != 0
            {
                *name = self.data.names.name_of(self.http, discord::UserId::new(id)).await;
            }
        }
        let renderer = self.data.renderer.clone();
        let png = tokio::task::spawn_blocking(move || renderer.image(&image)).await??;
        Ok(discord::CreateAttachment::bytes(png, "board.png"))
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
