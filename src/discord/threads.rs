//! Keeps games' threads usable. Discord archives a thread after a week without posts, and
//! players cannot use commands in an archived thread, so a thread holding a game in progress is
//! reopened as soon as Discord archives it. A thread a moderator locked or deleted is given up:
//! its games move to the channel the thread hung off, and their players are told there.

use super::Data;
use super::delivery::Delivery;
use super::ids;
use serenity::all as discord;

/// A thread changed: reopen it if Discord archived it, move its games out if it was locked.
pub async fn on_thread_update(http: &discord::Http, data: &Data, thread: &discord::GuildChannel) {
    let Some(metadata) = thread.thread_metadata else {
        return;
    };
    if !metadata.archived && !metadata.locked {
        return;
    }
    let delivery = Delivery { http, data };
    if !metadata.locked {
        if has_games(data, thread.id).await {
            delivery.reopen(thread.id).await;
        }
        return;
    }
    move_games_out(&delivery, thread.id, thread.parent_id).await;
}

/// A thread was deleted: its games move to the channel it hung off.
pub async fn on_thread_delete(http: &discord::Http, data: &Data, thread: &discord::PartialGuildChannel) {
    move_games_out(&Delivery { http, data }, thread.id, Some(thread.parent_id)).await;
}

async fn has_games(data: &Data, thread: discord::ChannelId) -> bool {
    let games = data.arena.games_in_progress_at(&ids::location(thread)).await;
    games.is_ok_and(|games| !games.is_empty())
}

async fn move_games_out(delivery: &Delivery<'_>, thread: discord::ChannelId, parent: Option<discord::ChannelId>) {
    let lost = ids::location(thread);
    let games = match delivery.data.arena.games_in_progress_at(&lost).await {
        Ok(games) => games,
        Err(error) => {
            tracing::error!(%thread, error = %crate::logging::Quiet(&error), "could not look up the games of a closed thread");
            return;
        }
    };
    for game in games {
        match delivery.move_game(game, &lost, parent).await {
            Ok(Some((home, _))) => {
                tracing::info!(game = %game, %thread, %home, "moved a game out of a closed thread")
            }
            // Its next post tells the players by DM.
            Ok(None) => tracing::warn!(game = %game, %thread, "a closed thread's game has nowhere to go"),
            Err(error) => {
                tracing::error!(game = %game, error = %crate::logging::Quiet(error.as_ref()), "could not move a game out of a closed thread")
            }
        }
    }
}
