//! Records out and in: a spectator exports a game (`/export` in its thread); a player exports
//! their game part-way, and once it is over brings the record back (`/import`, with the other
//! player as opponent, who accepts) to play it on from where the record left off.

use crate::table::{PATIENCE, Played, Record, Table, next_id, player, token_of};
use arbiter_engine::{Game, VariantId, Viewer};
use fake_discord::command_interaction;
use serde_json::json;

/// The games whose records hold no secret part-way, so they can be brought back in.
pub const IMPORTABLE: [VariantId; 5] = [
    VariantId::Chess,
    VariantId::Circe,
    VariantId::Portal,
    VariantId::KnightsAreGod,
    VariantId::Blockade,
];

impl Table {
    /// The game's record as a spectator exports it at the end: the file's text.
    pub async fn export(&self, game: &Played) -> Option<String> {
        self.export_as(game, 9_999).await
    }

    /// The game's record as `who` exports it in the game's place: the file's text.
    async fn export_as(&self, game: &Played, who: u64) -> Option<String> {
        let export = command_interaction(next_id(), &player(who), game.thread, "export", json!([]));
        let token = token_of(&export);
        self.interact(export, Some(game.guild)).await.0?;
        self.calls.files_with(&token, PATIENCE).await.into_iter().next()
    }

    /// `who` exports the game now, as `row` holds it: the record, kept to bring back in later.
    /// An action saved meanwhile (one sent just before, whose answer came first) would leave
    /// the record and `row` apart, so a record is kept only when the game did not move on
    /// while it was made.
    pub async fn keep_record(&self, game: &Played, who: u64, row: &arbiter::model::GameRow) -> Option<Record> {
        let text = self.export_as(game, who).await?;
        let after = self.game_row(game.id).await?;
        (after.version == row.version).then(|| Record {
            text,
            fen: row.state.view(Viewer::Spectator).fen(),
            by: who,
        })
    }

    /// The record's player imports it with `opponent`, who accepts, in the game's channel: the
    /// game as begun (noting whether it begins where the record left off).
    pub async fn import(&self, game: &Played, record: &Record, opponent: u64) -> Option<Played> {
        let attachment = self.fake.attach("game.pgn", record.text.as_bytes());
        let file = attachment["id"].as_str()?.to_string();
        let options = json!([
            { "name": "file", "type": 11, "value": file },
            { "name": "side", "type": 4, "value": 0 },
            { "name": "opponent", "type": 6, "value": opponent.to_string() },
        ]);
        let who = player(record.by);
        let other = player(opponent);
        // Sent again (after the second the bot asks for) when the player is going too fast.
        let mut tries = 0;
        let sent = loop {
            let mut import = command_interaction(next_id(), &who, game.channel, "import", options.clone());
            import["data"]["resolved"] = crate::hosting::resolved(&[&other]);
            import["data"]["resolved"]["attachments"] = json!({ file.clone(): attachment.clone() });
            let sent = self.send_noted(import, Some(game.guild), "/import".into()).await;
            tries += 1;
            let told = self.calls.answered_with(&sent.token);
            if tries < 3 && told.iter().any(|text| text.starts_with(crate::table::SLOW_DOWN)) {
                continue;
            }
            if let Some(refusal) = told.iter().find(|text| crate::calls::is_refusal(text)) {
                // A record the bot itself wrote, of a game with nothing secret, must come back in.
                crate::table::lock(&self.troubles).push(format!(
                    "game #{}'s record, exported part-way, could not be imported: {refusal}",
                    game.id.get()
                ));
                return None;
            }
            break sent;
        };
        let token = sent.token;
        let accept = self
            .calls
            .offered_with(&token)
            .into_iter()
            .find(|offer| offer.custom_id.starts_with("arb:accept:"))?
            .custom_id;
        let message = self.fake.response_message_id(&token);
        let begun = self
            .accept(
                &accept,
                message,
                &other,
                (game.channel, game.guild),
                game.variant,
                false,
            )
            .await?;
        let row = self.game_row(begun.id).await?;
        let log = self.store.log(begun.id).await.ok()?;
        let mut begun = begun;
        begun.imported = log
            .iter()
            .filter(|logged| matches!(logged.entry, arbiter::model::LogEntry::Act { .. }))
            .count();
        let faithful = row.state.view(Viewer::Spectator).fen() == record.fen;
        begun.imported_from = Some((game.id, faithful));
        Some(begun)
    }
}
