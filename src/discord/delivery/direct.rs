//! Direct messages. A user's DM channel is asked of Discord once and kept; a user whose DMs are
//! closed (50007) is remembered for a while instead of being tried on every message (Discord
//! counts many failed DMs against a bot); and Discord's "opening DMs too fast" (40003) is waited
//! out, never taken for a failure.

use super::Delivery;
use super::posting::Patience;
use crate::discord::counted::counted;
use crate::discord::refusals::{OPENING_DMS_TOO_FAST, Refusal, backoff, error_code, is_closed_dms};
use crate::discord::respond::Outgoing;
use serenity::all as discord;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long closed DMs are remembered: long enough to spare Discord a burst of failures, short
/// enough that a player who opens their DMs gets the next prompt there.
pub const CLOSED_FOR: Duration = Duration::from_secs(15 * 60);
/// How many times opening a DM channel is retried while Discord says it comes too fast.
const OPENING_ATTEMPTS: u32 = 6;
/// Above this many remembered users, the oldest are forgotten.
const REMEMBERED: usize = 50_000;

/// Why a DM did not go.
#[derive(Debug)]
pub enum NotSent {
    /// The user does not take DMs from the bot (now, or when last tried).
    Closed,
    Failed(serenity::Error),
}

impl std::fmt::Display for NotSent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotSent::Closed => f.write_str("the user's DMs are closed"),
            NotSent::Failed(error) => write!(f, "{}", crate::logging::Quiet(error)),
        }
    }
}

/// What the bot knows of its users' DMs.
#[derive(Default)]
pub struct DirectChannels {
    channels: Mutex<HashMap<discord::UserId, discord::ChannelId>>,
    closed: Mutex<HashMap<discord::UserId, Instant>>,
}

impl DirectChannels {
    fn channel(&self, user: discord::UserId) -> Option<discord::ChannelId> {
        lock(&self.channels).get(&user).copied()
    }

    fn keep_channel(&self, user: discord::UserId, channel: discord::ChannelId) {
        let mut channels = lock(&self.channels);
        if channels.len() >= REMEMBERED {
            channels.clear();
        }
        channels.insert(user, channel);
    }

    /// Whether the user's DMs were found closed within [`CLOSED_FOR`] of `now`.
    pub fn is_closed(&self, user: discord::UserId, now: Instant) -> bool {
        let mut closed = lock(&self.closed);
        match closed.get(&user) {
            Some(&at) if now.duration_since(at) < CLOSED_FOR => true,
            Some(_) => {
                closed.remove(&user);
                false
            }
            None => false,
        }
    }

    pub fn remember_closed(&self, user: discord::UserId, now: Instant) {
        let mut closed = lock(&self.closed);
        if closed.len() >= REMEMBERED {
            closed.retain(|_, at| now.duration_since(*at) < CLOSED_FOR);
        }
        closed.insert(user, now);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Delivery<'_> {
    /// Sends `message` to `user` by DM, within Discord's rate limits.
    pub async fn send_dm(&self, user: discord::UserId, message: Outgoing) -> Result<(), NotSent> {
        let known = &self.data.direct;
        if known.is_closed(user, Instant::now()) {
            return Err(NotSent::Closed);
        }
        let channel = self.dm_channel(user).await.map_err(NotSent::Failed)?;
        let mut attempt = 0;
        loop {
            self.data.pace.message_to(channel).await;
            let sent = channel.send_message(self.http, message.clone().into_message());
            match counted("POST /channels/{id}/messages", sent).await {
                Ok(_) => return Ok(()),
                Err(error) if is_closed_dms(&error) => {
                    known.remember_closed(user, Instant::now());
                    return Err(NotSent::Closed);
                }
                // Discord's passing trouble (a 429, a 5xx): a few quick tries, as a player waits.
                Err(error) if Refusal::of(&error) == Refusal::Transient && Patience::Brief.may_retry(attempt) => {
                    crate::telemetry::retried();
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
                Err(error) => return Err(NotSent::Failed(error)),
            }
        }
    }

    /// The user's DM channel: kept from before, or opened now (waiting while Discord says DMs
    /// are being opened too fast).
    async fn dm_channel(&self, user: discord::UserId) -> serenity::Result<discord::ChannelId> {
        if let Some(channel) = self.data.direct.channel(user) {
            return Ok(channel);
        }
        let mut attempt = 0;
        loop {
            self.data.pace.request().await;
            match counted("POST /users/@me/channels", user.create_dm_channel(self.http)).await {
                Ok(channel) => {
                    self.data.direct.keep_channel(user, channel.id);
                    return Ok(channel.id);
                }
                Err(error) if error_code(&error) == Some(OPENING_DMS_TOO_FAST) && attempt + 1 < OPENING_ATTEMPTS => {
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
                Err(error) => return Err(error),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_dms_are_remembered_for_a_while_then_tried_again() {
        let known = DirectChannels::default();
        let (alice, bob) = (discord::UserId::new(1), discord::UserId::new(2));
        let start = Instant::now();
        assert!(!known.is_closed(alice, start));
        known.remember_closed(alice, start);
        assert!(known.is_closed(alice, start + Duration::from_secs(60)));
        assert!(!known.is_closed(bob, start + Duration::from_secs(60)));
        assert!(!known.is_closed(alice, start + CLOSED_FOR), "tried again after a while");
    }
}
