//! The names Discord users go by, for board images (message text uses mentions, which Discord
//! shows as names by itself). Every user the bot meets is remembered, in memory and in the
//! store, so a board drawn after a restart, or for a player who has not clicked anything yet
//! today, rarely needs to ask Discord. Names are kept as they are shown (`visible_text::name`):
//! whatever of a display name a reader could not see never reaches a thread's name, an image or
//! a page.

use super::ids;
use super::pace::Pace;
use crate::arena::Arena;
use serenity::all as discord;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct Names {
    known: Mutex<HashMap<discord::UserId, String>>,
    arena: Arena,
    /// Looking a name up is a request like any other under Discord's global limit.
    pace: Arc<Pace>,
}

impl Names {
    pub fn new(arena: Arena, pace: Arc<Pace>) -> Names {
        Names {
            known: Mutex::default(),
            arena,
            pace,
        }
    }

    /// Remembers the name a user goes by now (stored when it is new or changed).
    pub fn remember(&self, user: &discord::User) {
        let name = shown_name(user);
        if self.lock().insert(user.id, name.clone()).as_ref() == Some(&name) {
            return;
        }
        let (arena, who) = (self.arena.clone(), ids::user(user.id));
        tokio::spawn(async move {
            if let Err(error) = arena.players().remember_name(&who, &name).await {
                tracing::warn!(error = %crate::logging::Quiet(&error), "could not store a display name");
            }
        });
    }

    /// The user's name: as remembered, as stored, or asked of Discord (once).
    pub async fn name_of(&self, http: &discord::Http, id: discord::UserId) -> String {
        if let Some(name) = self.lock().get(&id) {
            return name.clone();
        }
        // The arena hands stored names back as they are shown.
        match self.arena.players().known_name(&ids::user(id)).await {
            Ok(Some(name)) => {
                self.lock().insert(id, name.clone());
                return name;
            }
            Ok(None) => {}
            Err(error) => tracing::warn!(error = %crate::logging::Quiet(&error), "could not read a display name"),
        }
        // Bounded, as this runs while an interaction waits for its answer; the wait for room
        // under the rate limits comes first, as it is not Discord being slow.
        self.pace.request().await;
        let fetched = tokio::time::timeout(std::time::Duration::from_secs(1), http.get_user(id)).await;
        match fetched {
            Ok(Ok(user)) => {
                self.remember(&user);
                shown_name(&user)
            }
            _ => format!("user {id}"),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<discord::UserId, String>> {
        self.known.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The name a user goes by (their display name, else their account name), as it is shown: a
/// display name with nothing visible in it gives way to the account name.
fn shown_name(user: &discord::User) -> String {
    let account = crate::visible_text::name_or(&user.name, &format!("user {}", user.id));
    match &user.global_name {
        Some(display) => crate::visible_text::name_or(display, &account),
        None => account,
    }
}

/// Names as Discord shows them, for the live pages.
pub struct PageNames {
    pub http: Arc<discord::Http>,
    pub names: Arc<Names>,
}

#[async_trait::async_trait]
impl crate::web::NameBook for PageNames {
    async fn name(&self, user: &crate::ids::UserId) -> String {
        match ids::discord_user(user) {
            Some(id) => self.names.name_of(&self.http, id).await,
            None => crate::visible_text::name_or(user.display_name(), user.as_str()),
        }
    }
}
