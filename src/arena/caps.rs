//! How much a server may have open at once. Each Death Match and tournament is a game row (or
//! many), posts and deadlines, all drawn from the one request budget every server shares, so a
//! server's hosts may keep only so many open: past a cap, creating another is refused, naming
//! the cap, until one is over.
//!
//! Counted over the whole server, every channel of it. What belongs to no server (only the
//! benchmarks and tests make such matches; every transport's belong to one) has no cap.
//!
//! The counts are read before the new match or tournament is saved, outside its save: two
//! hosts creating at the very same moment may both pass at the last place. The caps are for
//! floods, which that cannot carry far.

use super::ArenaError;
use crate::ids::ServerId;
use crate::store::Store;

/// The most Death Matches a server may have open (waiting for colours, or being played). A game
/// show runs a handful at once; 25 leaves room for a busy night and stops a flood.
pub const MOST_OPEN_MATCHES: i64 = 25;

/// The most tournaments a server may have open (registering players, or being played). A club
/// runs one or two at a time.
pub const MOST_OPEN_TOURNAMENTS: i64 = 5;

/// Refuses a new Death Match of `server` when [`MOST_OPEN_MATCHES`] are open there.
pub(super) async fn require_room_for_match(store: &dyn Store, server: Option<&ServerId>) -> Result<(), ArenaError> {
    let Some(server) = server else {
        return Ok(());
    };
    if store.open_matches_on(server).await? >= MOST_OPEN_MATCHES {
        return Err(ArenaError::Rejected(format!(
            "this server already has {MOST_OPEN_MATCHES} Death Matches open, the most it may: finish or abort one first"
        )));
    }
    Ok(())
}

/// Refuses a new tournament of `server` when [`MOST_OPEN_TOURNAMENTS`] are open there.
pub(super) async fn require_room_for_tournament(
    store: &dyn Store,
    server: Option<&ServerId>,
) -> Result<(), ArenaError> {
    let Some(server) = server else {
        return Ok(());
    };
    if store.open_tournaments_on(server).await? >= MOST_OPEN_TOURNAMENTS {
        return Err(ArenaError::Rejected(format!(
            "this server already has {MOST_OPEN_TOURNAMENTS} tournaments open, the most it may: finish one first"
        )));
    }
    Ok(())
}
