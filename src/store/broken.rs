//! The deliberately broken build's store (see `crate::broken`): with `dropped-save` asked for,
//! some moves are answered as saved but never reach the database, the failure the soak's checker
//! must catch. Every other build hands the store back as it is.

use super::layer::{Layer, Layered};
use super::{Store, StoreError};
use crate::broken::{Defect, has};
use crate::model::{GameRow, LogEntry, NewEntry};
use crate::ratings::Rating;
use async_trait::async_trait;
use std::sync::Arc;

/// `store`, dropping saves if this build was asked to.
pub fn with_deliberate_defects(store: Arc<dyn Store>) -> Arc<dyn Store> {
    if has(Defect::DroppedSave) {
        Arc::new(Layered(DropsSaves(store)))
    } else {
        store
    }
}

/// Drops every fifth version's save of a move, answering as if it were saved.
struct DropsSaves(Arc<dyn Store>);

#[async_trait]
impl Layer for DropsSaves {
    fn inner(&self) -> &dyn Store {
        self.0.as_ref()
    }

    async fn update_game(&self, game: &GameRow, entries: &[NewEntry], ratings: &[Rating]) -> Result<(), StoreError> {
        let is_move = entries.iter().any(|e| matches!(e.entry, LogEntry::Act { .. }));
        if game.version % 5 == 0 && is_move {
            return Ok(());
        }
        self.0.update_game(game, entries, ratings).await
    }
}
