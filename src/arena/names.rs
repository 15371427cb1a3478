//! The names players go by, as their transport last showed them: records and standings name
//! players this way even when the transport cannot be asked.

use super::{Arena, ArenaError};
use crate::ids::UserId;

impl Arena {
    /// Remembers the name `user` goes by now.
    pub async fn remember_name(&self, user: &UserId, name: &str) -> Result<(), ArenaError> {
        self.store.save_display_name(user, name, self.now()).await?;
        Ok(())
    }

    /// The name `user` was last seen going by, if any.
    pub async fn known_name(&self, user: &UserId) -> Result<Option<String>, ArenaError> {
        Ok(self.store.display_name(user).await?)
    }
}
