//! The names players go by, as their transport last showed them: records and standings name
//! players this way even when the transport cannot be asked.

use super::{ArenaError, Players};
use crate::ids::UserId;
use crate::visible_text;

impl Players<'_> {
    /// Remembers the name `user` goes by now, as it is shown (`visible_text::name`): a name with
    /// nothing visible in it is not kept.
    pub async fn remember_name(self, user: &UserId, name: &str) -> Result<(), ArenaError> {
        if let Some(shown) = visible_text::name(name) {
            self.store.save_display_name(user, &shown, self.now()).await?;
        }
        Ok(())
    }

    /// The name `user` was last seen going by, if any, as it is shown (names stored before
    /// they were cleaned on the way in are cleaned on the way out).
    pub async fn known_name(self, user: &UserId) -> Result<Option<String>, ArenaError> {
        Ok(self
            .store
            .display_name(user)
            .await?
            .as_deref()
            .and_then(visible_text::name))
    }
}
