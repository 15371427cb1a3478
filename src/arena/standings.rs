//! What ratings say: a variant's leaderboard and a player's profile.

use super::messages::name;
use super::{ArenaError, Effects, Players};
use crate::ids::{ServerId, UserId};
use crate::model::GameStatus;
use crate::ratings::PROVISIONAL_GAMES;
use arbiter_engine::VariantId;

/// How many players a leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 20;

impl Players<'_> {
    /// The best players of `variant` on `server`'s own ladder.
    pub async fn leaderboard(self, variant: VariantId, server: Option<&ServerId>) -> Result<Effects, ArenaError> {
        let ratings = self.store.leaderboard(server, variant, LEADERBOARD_SIZE).await?;
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

    /// A player's ratings on `server`'s ladder in every variant they have played there, their
    /// record there, and their games now.
    pub async fn profile(self, server: Option<&ServerId>, of: &UserId) -> Result<Effects, ArenaError> {
        let mut text = format!("{}\n", super::text::strong(&name(of)));
        // Ratings belong to a server: asked where there is none (a DM), there is no ladder to show.
        let ratings = match server {
            Some(_) => self.store.ratings_of(server, of).await?,
            None => {
                text.push_str("Ratings belong to each server: ask on a server to see the ratings there.\n");
                Vec::new()
            }
        };
        if ratings.is_empty() && server.is_some() {
            text.push_str("No rated games on this server yet.\n");
        }
        for rating in &ratings {
            text.push_str(&format!(
                "{}: {} ({})\n",
                rating.variant.name(),
                rating.shown(),
                rating.record()
            ));
        }
        // Only the games of `server` (and those of no server, everyone's): a profile asked on one
        // server never shows who plays what, and under which numbers, on another; asked in a DM,
        // only the games of no server.
        let mut playing = self.store.games_of(of, &[GameStatus::Active]).await?;
        playing.retain(|game| super::caller::belongs_to(game.server.as_ref(), server));
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
