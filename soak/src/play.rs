//! One game as its two players play it through Discord: a challenge, the Accept button, then
//! `/move` with a random legal action for whoever is to act (read from the database, as a
//! player reads the board), until the game ends or runs long, when the player to act resigns.

use crate::calls::Calls;
use arbiter::ids::{GameId, UserId};
use arbiter::store::Store;
use arbiter_engine::{Game, VariantId};
use fake_discord::{FakeDiscord, Invoker, command_interaction, component_interaction, custom_ids, in_guild, user_json};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a player waits for an answer before taking the bot for gone (Discord itself gives
/// up after 3 s; a killed process never answers).
const PATIENCE: Duration = Duration::from_secs(10);

/// Actions past this many, the player to act resigns.
const MOST_ACTIONS: usize = 40;

/// What a resignation is noted as among the actions sent (it is not an action of the log).
pub const RESIGNED: &str = "/resign";

/// How long a player waits for an answer.
pub fn patience() -> Duration {
    PATIENCE
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1_000_000);

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// An action a player sent, and what came back.
#[derive(Clone, Debug)]
pub struct Sent {
    pub text: String,
    /// The bot answered within [`PATIENCE`].
    pub answered: bool,
    /// From sending to the first answer.
    pub latency: Option<Duration>,
    pub at: Instant,
    /// The interaction's token, which its answer and follow-ups carry.
    pub token: String,
}

/// A game the soak played.
#[derive(Debug)]
pub struct Played {
    pub variant: VariantId,
    pub id: GameId,
    pub thread: u64,
    pub sent: Vec<Sent>,
}

/// What the games share: the fake, the calls read so far, the database.
#[derive(Clone)]
pub struct Table {
    pub fake: Arc<FakeDiscord>,
    pub calls: Calls,
    pub store: Arc<dyn Store>,
}

fn player(user_id: u64) -> Invoker {
    Invoker {
        user_id,
        name: format!("player{user_id}"),
    }
}

impl Table {
    /// Sends an interaction and waits for its first answer.
    async fn interact(&self, interaction: Value, guild: u64) -> (Option<fake_discord::Call>, Instant) {
        let interaction = in_guild(interaction, guild);
        let id: u64 = interaction["id"]
            .as_str()
            .and_then(|id| id.parse().ok())
            .unwrap_or_default();
        // An interaction for a shard whose process was just killed is lost, as on Discord.
        let before = Instant::now();
        match self.fake.try_send_interaction(interaction).await {
            Some(sent) => (self.calls.answer(id, PATIENCE).await, sent),
            None => (None, before),
        }
    }

    /// Plays game number `number` of `variant` between two players of its own, in a channel of
    /// its own in `guild`. `None` when the game never started (its challenge or acceptance went
    /// unanswered, as when a process was killed then).
    pub async fn play(&self, number: u64, variant: VariantId, guild: u64, rng: &mut StdRng) -> Option<Played> {
        let (white, black) = (player(10_000 + 2 * number), player(10_001 + 2 * number));
        let channel = 500_000 + number;
        let index = VariantId::ALL.iter().position(|&v| v == variant)?;
        let mut challenge = command_interaction(
            next_id(),
            &white,
            channel,
            "challenge",
            json!([
                { "name": "variant", "type": 4, "value": index },
                { "name": "opponent", "type": 6, "value": black.user_id.to_string() },
                { "name": "colour", "type": 4, "value": 1 },
            ]),
        );
        let opponent = black.user_id.to_string();
        challenge["data"]["resolved"] = json!({ "users": { opponent: user_json(black.user_id, &black.name, false) } });
        let (answer, _) = self.interact(challenge, guild).await;
        let answer = answer?;
        let accept = custom_ids(&answer.json)
            .into_iter()
            .find(|id| id.starts_with("arb:accept:"))?;
        let id: GameId = accept.split(':').nth(2)?.parse().ok()?;
        let token = answer.path.split('/').nth(5)?.to_string();
        let message = self.fake.response_message_id(&token);
        let click = component_interaction(next_id(), &black, channel, &accept, 2, Vec::new(), message);
        self.interact(click, guild).await.0?;
        // The game is played in a thread started from the challenge (it has the message's id)
        // once the bot has opened it, or in the channel if it could not.
        let thread = if self.calls.thread_opened(message, PATIENCE).await {
            message
        } else {
            channel
        };
        let mut played = Played {
            variant,
            id,
            thread,
            sent: Vec::new(),
        };
        let accepted_by = Instant::now() + PATIENCE;
        loop {
            let row = self.store.game(id).await.ok()??;
            if row.state.outcome().is_some() {
                break;
            }
            let Some(players) = row.players.clone() else {
                // An acceptance answered but never stored (or refused): the game never began.
                if Instant::now() >= accepted_by {
                    return None;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            let to_act = row.state.to_act();
            let Some(&seat) = to_act.get(rng.random_range(0..to_act.len().max(1))) else {
                break;
            };
            let user = &players[seat.index()];
            let invoker = player(discord_id(user)?);
            // Past the limit the player to act resigns, so every game ends.
            let (command, text) = if played.sent.len() >= MOST_ACTIONS {
                if played.sent.len() >= MOST_ACTIONS + 3 {
                    break;
                }
                ("resign", RESIGNED.to_string())
            } else {
                let actions = row.state.noted_actions(seat);
                if actions.is_empty() {
                    break;
                }
                ("move", actions[rng.random_range(0..actions.len())].1.clone())
            };
            let options = if command == "move" {
                json!([{ "name": "action", "type": 3, "value": text }])
            } else {
                json!([])
            };
            let interaction = command_interaction(next_id(), &invoker, played.thread, command, options);
            let token = token_of(&interaction);
            let (answer, sent_at) = self.interact(interaction, guild).await;
            played.sent.push(Sent {
                text,
                answered: answer.is_some(),
                latency: answer.as_ref().map(|a| a.at.saturating_duration_since(sent_at)),
                at: sent_at,
                token,
            });
        }
        Some(played)
    }
}

/// An interaction's token, which its answers carry.
fn token_of(interaction: &Value) -> String {
    interaction["token"].as_str().unwrap_or_default().to_string()
}

/// The Discord user id of a stored player ("discord:123").
fn discord_id(user: &UserId) -> Option<u64> {
    user.as_str().strip_prefix("discord:")?.parse().ok()
}
