//! What ratings say: a variant's leaderboard and a player's profile.

use super::messages::name;
use super::{Arena, ArenaError, Effects};
use crate::ids::{ServerId, UserId};
use crate::ratings::PROVISIONAL_GAMES;
use crate::store::GameStatus;
use arbiter_engine::VariantId;

/// How many players a leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 20;

impl Arena {
    /// The best players of `variant`, among those who have played on `server` (everyone's when
    /// none is given).
    pub async fn leaderboard(&self, variant: VariantId, server: Option<&ServerId>) -> Result<Effects, ArenaError> {
        let ratings = self.store.leaderboard(variant, server, LEADERBOARD_SIZE).await?;
        if ratings.is_empty() {
            return Ok(Effects::reply(format!(
                "Nobody here has finished a rated game of {} yet.",
                variant.name()
            )));
        }
        let mut text = format!(
            "{}: the top {} by rating\n",
            super::text::strong(variant.name()),
            ratings.len()
        );
        for (rank, rating) in ratings.iter().enumerate() {
            text.push_str(&format!(
                "{}. {} {} · {} game{}\n",
                rank + 1,
                name(&rating.user),
                rating.shown(),
                rating.games,
                if rating.games == 1 { "" } else { "s" }
            ));
        }
        if ratings.iter().any(|r| r.is_provisional()) {
            text.push_str(&format!(
                "? = provisional (fewer than {PROVISIONAL_GAMES} games), listed after the established ratings."
            ));
        }
        Ok(Effects::reply(text.trim_end()))
    }

    /// A player's ratings in every variant they have played, their record, and their games now.
    pub async fn profile(&self, of: &UserId) -> Result<Effects, ArenaError> {
        let ratings = self.store.ratings_of(of).await?;
        let mut text = format!("{}\n", super::text::strong(&name(of)));
        if ratings.is_empty() {
            text.push_str("No rated games yet.\n");
        }
        for rating in &ratings {
            text.push_str(&format!(
                "{}: {} ({})\n",
                rating.variant.name(),
                rating.shown(),
                rating.record()
            ));
        }
        let playing = self.store.games_of(of, &[GameStatus::Active]).await?;
        if playing.is_empty() {
            text.push_str("Not playing now.");
        } else {
            let games: Vec<String> = playing
                .iter()
                .map(|game| {
                    let opponent = if &game.challenger == of {
                        &game.opponent
                    } else {
                        &game.challenger
                    };
                    format!("#{} {} vs {}", game.id, game.setup.variant.name(), name(opponent))
                })
                .collect();
            text.push_str(&format!("Playing: {}", games.join(", ")));
        }
        Ok(Effects::reply(text))
    }
}
