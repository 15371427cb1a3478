//! How games begin: a challenge and its Accept button (the game then gets a thread opened from
//! the challenge), and a rematch asked for with a finished game's **Rematch** button.

use crate::calls::Offer;
use crate::table::{PATIENCE, Played, TIME_CONTROL, Table, discord_id, next_id, player};
use arbiter::ids::GameId;
use arbiter_engine::VariantId;
use fake_discord::{Invoker, command_interaction, component_interaction, custom_ids};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::json;
use std::time::Duration;

impl Table {
    /// `white` challenges `black` in `channel`, who accepts: the game as begun, in the thread
    /// opened from the challenge (or the channel, if none could be).
    pub async fn challenge(
        &self,
        variant: VariantId,
        (white, black): (&Invoker, &Invoker),
        (channel, guild): (u64, u64),
        timed: bool,
    ) -> Option<Played> {
        let index = VariantId::ALL.iter().position(|&v| v == variant)?;
        let mut options = vec![
            json!({ "name": "variant", "type": 4, "value": index }),
            json!({ "name": "opponent", "type": 6, "value": black.user_id.to_string() }),
            json!({ "name": "colour", "type": 4, "value": 1 }),
        ];
        if timed {
            options.push(json!({ "name": "time", "type": 3, "value": TIME_CONTROL }));
        }
        let mut challenge = command_interaction(next_id(), white, channel, "challenge", json!(options));
        challenge["data"]["resolved"] = crate::hosting::resolved(&[black]);
        let (answer, _) = self.interact(challenge, Some(guild)).await;
        let answer = answer?;
        let accept = custom_ids(&answer.json)
            .into_iter()
            .find(|id| id.starts_with("arb:accept:"))?;
        let token = answer.path.split('/').nth(5)?.to_string();
        let message = self.fake.response_message_id(&token);
        self.accept(&accept, message, black, (channel, guild), variant, timed)
            .await
    }

    /// `who` presses the Accept button `accept` of a challenge posted as `message` in
    /// `channel`: the game as begun.
    pub async fn accept(
        &self,
        accept: &str,
        message: u64,
        who: &Invoker,
        (channel, guild): (u64, u64),
        variant: VariantId,
        timed: bool,
    ) -> Option<Played> {
        let id: GameId = accept.split(':').nth(2)?.parse().ok()?;
        let click = component_interaction(next_id(), who, channel, accept, 2, Vec::new(), message);
        self.interact(click, Some(guild)).await.0?;
        // The game is played in a thread started from the challenge (it has the message's id)
        // once the bot has opened it, or in the channel if it could not.
        let opened = self.calls.thread_opened(message, PATIENCE).await;
        let thread = if opened { message } else { channel };
        Some(Played::begun(id, variant, (thread, channel), guild, timed))
    }

    /// A player of the finished game presses its **Rematch** button; the other accepts the
    /// challenge it posts in the channel: the rematch as begun.
    pub async fn rematch(&self, played: &Played, rng: &mut StdRng) -> Option<Played> {
        let row = self.game_row(played.id).await?;
        let players = row.players.as_ref()?;
        let asker = discord_id(&players[rng.random_range(0..2)])?;
        let other = discord_id(players.iter().find(|p| discord_id(p) != Some(asker))?)?;
        let key = format!("arb:rematch:{}:", played.id.get());
        let (message, place, button) = self.newest_button(played, &key).await?;
        let press = component_interaction(next_id(), &player(asker), place, &button, 2, Vec::new(), message);
        self.interact(press, Some(played.guild)).await.0?;
        // The rematch's challenge, in the channel: a game after this one.
        let newer = |offer: &Offer| {
            offer.custom_id.starts_with("arb:accept:")
                && offer
                    .custom_id
                    .split(':')
                    .nth(2)
                    .and_then(|id| id.parse::<i64>().ok())
                    .is_some_and(|id| id > played.id.get())
        };
        let posted = self
            .calls
            .newest_post(played.channel, PATIENCE, |post| post.offers.iter().any(newer))
            .await?;
        let accept = posted.offers.iter().find(|o| newer(o))?.custom_id.clone();
        let mut rematch = self
            .accept(
                &accept,
                posted.message,
                &player(other),
                (played.channel, played.guild),
                played.variant,
                played.timed,
            )
            .await?;
        rematch.rematch_of = Some(played.id);
        Some(rematch)
    }

    /// The newest button starting with `key` among the game's posts and the answers to its
    /// players: the message it is on, where, and its id.
    async fn newest_button(&self, played: &Played, key: &str) -> Option<(u64, u64, String)> {
        for sent in played.sent.iter().rev() {
            if let Some(offer) = self
                .calls
                .offered_with(&sent.token)
                .into_iter()
                .find(|o| o.custom_id.starts_with(key))
            {
                return Some((
                    self.fake.response_message_id(&sent.token),
                    played.thread,
                    offer.custom_id,
                ));
            }
        }
        let post = self
            .calls
            .newest_post(played.thread, Duration::from_secs(2), |post| {
                post.offers.iter().any(|o| o.custom_id.starts_with(key))
            })
            .await?;
        let offer = post.offers.into_iter().find(|o| o.custom_id.starts_with(key))?;
        Some((post.message, played.thread, offer.custom_id))
    }
}
