//! Whether the news of a game's changes reached its players. A change with posts in the game's
//! place is saved with its version marked unshown; the transport marks it shown once the posts
//! are out. A transport starting up after a crash shows each game still marked as it stands, so
//! a move that was saved is never left unseen.

use super::clock_posts::with_clocks;
use super::messages::board_post;
use super::{ArenaError, Effects, Watching};
use crate::ids::{GameId, Places};

impl Watching<'_> {
    /// Records that the news of the game's changes up to `version` reached its players.
    pub async fn mark_shown(self, id: GameId, version: i64) -> Result<(), ArenaError> {
        Ok(self.store.mark_shown(id, version).await?)
    }

    /// For each game at `places` whose latest news may not have gone out, a post showing it as
    /// it stands, at its current version.
    pub async fn unshown_news(self, places: &Places) -> Result<Vec<Effects>, ArenaError> {
        let mut news = Vec::new();
        for id in self.store.unshown_games(places).await? {
            let Some(game) = self.store.game(id).await? else {
                continue;
            };
            let text =
                "Arbiter stopped before it could show this game's latest change; here it is as it stands.".to_string();
            let post = with_clocks(board_post(&game, text), &game, self.now());
            let mut effects = Effects {
                posts: vec![post],
                game: Some(id),
                version: Some(game.version),
                ..Default::default()
            };
            super::computer::spare_the_computer(&game, &mut effects);
            news.push(effects);
        }
        Ok(news)
    }
}
