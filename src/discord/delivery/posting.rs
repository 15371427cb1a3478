//! Posting in a game's place so that the post arrives: within Discord's rate limits, waiting
//! out its trouble, reopening an archived thread, moving a game whose thread is lost back to the
//! channel it came from (and telling the players there), and, when a game has nowhere left to
//! go, telling its players by DM. A saved move is never left unshown.

use super::Delivery;
use crate::arena::Post;
use crate::discord::counted::counted;
use crate::discord::ids;
use crate::discord::refusals::{Refusal, backoff};
use crate::discord::respond::Public;
use crate::discord::widgets::post_components;
use crate::ids::{GameId, Place};
use serenity::all as discord;

/// How many times a post tries again while a player waits: backing off from half a second, the
/// last try comes some 15 s after the first, past a storm of 429s or a burst of server errors
/// (the interaction is deferred meanwhile, so Discord's 3 seconds are kept).
const BRIEF_RETRIES: u32 = 5;

/// How long a post keeps trying through Discord's trouble (rate limits, server errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Patience {
    /// While a player waits on an interaction: a few quick tries.
    Brief,
    /// What the clocks announce: until it is posted (a warning: until it goes stale).
    UntilPosted,
}

impl Patience {
    pub fn may_retry(self, attempt: u32) -> bool {
        match self {
            Patience::Brief => attempt < BRIEF_RETRIES,
            Patience::UntilPosted => true,
        }
    }
}

/// What became of a post.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It is in the game's place (perhaps a new one).
    Posted,
    /// A warning that went stale before it could be sent, dropped.
    Stale,
    /// The game had nowhere left to post: its players were sent it by DM instead.
    Privately,
}

impl Delivery<'_> {
    /// Posts `post` (made at the game's `version`) in its game's place, or wherever the game has
    /// to move to. Fails only on what Discord will never take, or trouble that outlasts
    /// `patience`.
    pub async fn post_to_game(&self, post: &Post, version: Option<i64>, patience: Patience) -> anyhow::Result<Fate> {
        let mut location = post.location.clone();
        let mut version = version;
        let mut message = self.post_message(post, version).await?;
        let mut reopened = false;
        let mut attempt = 0;
        let fate = loop {
            let Some(channel) = ids::channel(&location) else {
                anyhow::bail!("a post for a place that is not on Discord: {location}");
            };
            let sent = if post.stale_at.is_some() {
                if !self.warning_may_go(post, version, channel).await {
                    break Fate::Stale;
                }
                self.send_now(channel, message.clone()).await
            } else {
                self.send(channel, message.clone()).await
            };
            let Err(error) = sent else {
                break Fate::Posted;
            };
            match Refusal::of(&error) {
                Refusal::Transient if patience.may_retry(attempt) => {
                    crate::telemetry::retried();
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
                Refusal::ArchivedThread if !reopened => {
                    reopened = true;
                    self.reopen(channel).await;
                }
                Refusal::ArchivedThread | Refusal::PlaceLost if let Some(game) = post.game => {
                    tracing::warn!(game = %game, %channel, %error, "a game's place is lost; moving the game");
                    let parent = self.parent_of(channel).await;
                    match self.move_game(game, &location, parent).await? {
                        Some((home, moved_to)) => {
                            location = home;
                            if version.is_some() {
                                // Moving the game made its older buttons stale.
                                version = Some(moved_to);
                                message.set_components(post_components(post, moved_to));
                            }
                            reopened = false;
                        }
                        None => {
                            self.tell_players_privately(game, &location, message).await?;
                            break Fate::Privately;
                        }
                    }
                }
                _ => return Err(error.into()),
            }
        };
        if let (Some(game), Some(version)) = (post.game, version) {
            self.shown(game, version).await;
        }
        Ok(fate)
    }

    /// Records that the news of a game up to `version` reached its players (or went stale).
    pub async fn shown(&self, game: GameId, version: i64) {
        if let Err(error) = self.data.arena.watching().mark_shown(game, version).await {
            // The worst that follows: the game is shown again after a restart.
            tracing::warn!(game = %game, error = %crate::logging::Quiet(&error), "could not record that a game's news went out");
        }
    }

    /// Sends a public message to a channel or thread within Discord's rate limits (DMs go by
    /// `send_dm`).
    pub async fn send(&self, channel: discord::ChannelId, message: Public) -> serenity::Result<()> {
        self.data.pace.message_to(channel).await;
        self.send_now(channel, message).await
    }

    /// `send`, trying again a few times through Discord's passing trouble (a 429, a 5xx), as a
    /// player waits on an interaction.
    pub async fn send_briefly(&self, channel: discord::ChannelId, message: Public) -> serenity::Result<()> {
        let mut attempt = 0;
        loop {
            match self.send(channel, message.clone()).await {
                Err(error) if Refusal::of(&error) == Refusal::Transient && Patience::Brief.may_retry(attempt) => {
                    crate::telemetry::retried();
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
                sent => return sent,
            }
        }
    }

    /// Sends a message whose place under the rate limits is taken already.
    async fn send_now(&self, channel: discord::ChannelId, message: Public) -> serenity::Result<()> {
        counted(
            "POST /channels/{id}/messages",
            channel.send_message(self.http, message.message().into_message()),
        )
        .await
        .map(drop)
    }

    /// Waits for a warning's turn under the rate limits and takes it, unless the warning goes
    /// stale first (false). It is judged when it could go, not when it joined the queue.
    async fn warning_may_go(&self, post: &Post, version: Option<i64>, channel: discord::ChannelId) -> bool {
        let past = |stale_at: Option<i64>| stale_at.is_some_and(|at| self.data.arena.now() >= at);
        loop {
            self.data.pace.room_for(channel).await;
            if past(post.stale_at) {
                return false;
            }
            // Others waiting may have taken the room meanwhile. The game is read only once the
            // room is taken (a room taken by a warning dropped then is a rare waste).
            if self.data.pace.try_message_to(channel) {
                return !self.is_stale(post, version).await;
            }
        }
    }

    /// Whether a warning is no longer worth posting: its moment passed, or the game moved on.
    async fn is_stale(&self, post: &Post, version: Option<i64>) -> bool {
        let Some(stale_at) = post.stale_at else {
            return false;
        };
        if self.data.arena.now() >= stale_at {
            return true;
        }
        let Some(game) = post.game else {
            return false;
        };
        match self.data.arena.facts(game).await {
            Ok(Some(game)) => version.is_some_and(|version| version != game.version),
            // Cannot tell: post it.
            _ => false,
        }
    }

    /// Reopens an archived thread (Discord archives idle threads after a week). Failing that
    /// (a locked thread, no permission), the next attempt finds the place lost.
    pub async fn reopen(&self, thread: discord::ChannelId) {
        self.data.pace.request().await;
        let reopened = discord::EditThread::new().archived(false);
        match counted("PATCH /channels/{id}", thread.edit_thread(self.http, reopened)).await {
            Ok(_) => tracing::info!(%thread, "reopened an archived game thread"),
            Err(error) => tracing::warn!(%thread, %error, "could not reopen an archived game thread"),
        }
    }

    /// Moves a game out of a place it lost to its home (or, for a game stored before games had
    /// homes, to `parent`, the channel its thread hangs off), posting there why; returns the new
    /// place and the game's version, or `None` when there is nowhere to go.
    pub async fn move_game(
        &self,
        game: GameId,
        lost: &Place,
        parent: Option<discord::ChannelId>,
    ) -> anyhow::Result<Option<(Place, i64)>> {
        let parent = parent.map(ids::location);
        let arena = &self.data.arena;
        let Some(moved) = arena.move_home(game, lost, parent.as_ref()).await? else {
            return Ok(None);
        };
        for notice in &moved.posts {
            let message = self.post_message(notice, moved.version).await?;
            let Some(home) = ids::channel(&notice.location) else {
                continue;
            };
            match self.send(home, message).await {
                Ok(()) => self.shown(game, moved.version.unwrap_or_default()).await,
                // The post that follows tries the new place again, and goes by DM if it fails.
                Err(error) => tracing::warn!(game = %game, %error, "could not say where a game moved"),
            }
        }
        let Some(facts) = arena.facts(game).await? else {
            return Ok(None);
        };
        Ok(Some((facts.location, facts.version)))
    }

    /// The channel a thread hangs off, while Discord still knows the thread.
    async fn parent_of(&self, channel: discord::ChannelId) -> Option<discord::ChannelId> {
        self.data.pace.request().await;
        match counted("GET /channels/{id}", channel.to_channel(self.http)).await {
            Ok(discord::Channel::Guild(thread)) if thread.thread_metadata.is_some() => thread.parent_id,
            _ => None,
        }
    }

    /// Sends a post that has no place left to go to each of its game's players by DM, with why.
    async fn tell_players_privately(&self, game: GameId, lost: &Place, message: Public) -> anyhow::Result<()> {
        let Some(facts) = self.data.arena.facts(game).await? else {
            return Ok(());
        };
        let place = ids::channel(lost).map_or_else(|| "its place".to_string(), |c| format!("<#{c}>"));
        let mut message = message.message();
        message.content = crate::discord::widgets::fit(&format!(
            "I can no longer post in game #{game}'s place ({place}): it is gone or closed to me. \
             The game goes on: use its buttons here or the commands with `game:{game}` anywhere.\n\n{}",
            message.content
        ));
        message.pings.clear();
        for player in facts.seated.iter().flatten().filter_map(ids::discord_user) {
            if let Err(failure) = self.send_dm(player, message.clone()).await {
                tracing::warn!(game = %game, %player, error = %failure, "could not tell a player about a post their game's place refused");
            }
        }
        Ok(())
    }
}
