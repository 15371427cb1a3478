//! One game as its two players play it through Discord: a challenge (some timed), the Accept
//! button, then a random legal action for whoever is to act (read from the database, as a player
//! reads the board): `/move` in the thread, or the buttons, menus and forms of a private prompt
//! (`privately`); now and then a draw or takeback offer, answered by its buttons. A game ends by
//! the rules, by agreement, by a resignation once it runs long, or on time when a player of a
//! timed game walks away.

use crate::calls::{Calls, Offer};
use crate::privately::Answering;
use arbiter::ids::{GameId, UserId};
use arbiter::store::Store;
use arbiter_engine::view::PromptKind;
use arbiter_engine::{Game, VariantId, Viewer};
use fake_discord::{FakeDiscord, Invoker, command_interaction, component_interaction, custom_ids, in_guild, user_json};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a player waits for an answer before taking the bot for gone (Discord itself gives
/// up after 3 s; a killed process never answers).
const PATIENCE: Duration = Duration::from_secs(10);

/// Actions past this many, the player to act resigns.
const MOST_ACTIONS: usize = 40;

/// The time control of timed games: short enough that a player who walks away loses on time
/// within the run, long enough that a player who keeps playing never does, faults and all.
pub const TIME_CONTROL: &str = "20s+20s";
/// The most a timed game may run past its flag before the forfeit counts as missed: the
/// scheduler's polling, and a process killed and started again.
pub const FORFEIT_SLACK: Duration = Duration::from_secs(20);

/// What a resignation is noted as among the actions sent (it is not an action of the log).
pub const RESIGNED: &str = "/resign";
/// What an offer, or an answer to one, is noted as among the actions sent.
pub const OFFERED: &str = "/offer";

/// How long a player waits for an answer.
pub fn patience() -> Duration {
    PATIENCE
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1_000_000);

/// A fresh interaction id.
pub fn next_id() -> u64 {
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

impl Sent {
    /// Whether this is an action of the game's log (not a resignation or an offer).
    pub fn is_action(&self) -> bool {
        self.text != RESIGNED && self.text != OFFERED
    }
}

/// A game the soak played.
#[derive(Debug)]
pub struct Played {
    pub variant: VariantId,
    pub id: GameId,
    pub thread: u64,
    /// The channel the challenge was made in, where a game whose thread is lost goes back to.
    pub channel: u64,
    pub guild: u64,
    pub sent: Vec<Sent>,
    /// A timed game's player walked away: when, and when their time ran out at the latest.
    pub walked_away: Option<Instant>,
    pub timed: bool,
    /// The game ended on time after its player walked away, within [`FORFEIT_SLACK`].
    pub forfeited_in_time: bool,
}

/// What the games share: the fake, the calls read so far, the database, and what the players
/// did that the checks need (who closed their DMs; which interactions were private).
#[derive(Clone)]
pub struct Table {
    pub fake: Arc<FakeDiscord>,
    pub calls: Calls,
    pub store: Arc<dyn Store>,
    pub closed_dms: Arc<Mutex<HashSet<u64>>>,
    pub private: Arc<Mutex<HashSet<u64>>>,
    /// The threads of the games in play, for a moderator to pick from.
    pub threads: Arc<Mutex<Vec<u64>>>,
}

/// The player with Discord id `user_id`.
pub fn player(user_id: u64) -> Invoker {
    Invoker {
        user_id,
        name: format!("player{user_id}"),
    }
}

/// How often games are timed, and how often a player of a timed game walks away.
#[derive(Clone, Copy)]
pub struct Shares {
    pub timed: f64,
    pub walk_away: f64,
}

/// How a player makes the action chosen for them.
enum Way {
    /// `/move` in the game's thread.
    Command,
    /// From the private prompt's buttons or menus.
    Prompt,
    /// In the list form.
    List,
}

impl Table {
    /// Sends an interaction (from `guild`, or a DM when `None`) and waits for its first answer.
    pub async fn interact(&self, interaction: Value, guild: Option<u64>) -> (Option<fake_discord::Call>, Instant) {
        let interaction = match guild {
            Some(guild) => in_guild(interaction, guild),
            None => interaction,
        };
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

    /// Sends an interaction carrying the action `text` and notes what came back.
    pub async fn send_noted(&self, interaction: Value, guild: Option<u64>, text: String) -> Sent {
        let token = token_of(&interaction);
        let (answer, sent_at) = self.interact(interaction, guild).await;
        Sent {
            text,
            answered: answer.is_some(),
            latency: answer.as_ref().map(|a| a.at.saturating_duration_since(sent_at)),
            at: sent_at,
            token,
        }
    }

    /// Notes that what answers `interaction` is for its sender alone.
    pub fn remember_private(&self, interaction: &Value) {
        if let Some(id) = interaction["id"].as_str().and_then(|id| id.parse().ok()) {
            lock(&self.private).insert(id);
        }
    }

    /// Whether the soak closed `user`'s DMs.
    pub fn dms_closed(&self, user: u64) -> bool {
        lock(&self.closed_dms).contains(&user)
    }

    fn close_dms(&self, user: u64) {
        lock(&self.closed_dms).insert(user);
        self.fake.close_dms_of(user);
    }

    /// Plays game number `number` of `variant` between two players of its own, in a channel of
    /// its own in `guild`. `None` when the game never started (its challenge or acceptance went
    /// unanswered, as when a process was killed then).
    pub async fn play(
        &self,
        number: u64,
        variant: VariantId,
        guild: u64,
        shares: Shares,
        rng: &mut StdRng,
    ) -> Option<Played> {
        let (white, black) = (player(10_000 + 2 * number), player(10_001 + 2 * number));
        let channel = 500_000 + number;
        let index = VariantId::ALL.iter().position(|&v| v == variant)?;
        // One game in four is timed; in some of those a player walks away mid-game (`play_out`).
        let timed = rng.random_bool(shares.timed);
        // Some players never take DMs; some close them mid-game (`play_out`).
        if rng.random_bool(0.2) {
            self.close_dms(black.user_id);
        }
        let mut options = vec![
            json!({ "name": "variant", "type": 4, "value": index }),
            json!({ "name": "opponent", "type": 6, "value": black.user_id.to_string() }),
            json!({ "name": "colour", "type": 4, "value": 1 }),
        ];
        if timed {
            options.push(json!({ "name": "time", "type": 3, "value": TIME_CONTROL }));
        }
        let mut challenge = command_interaction(next_id(), &white, channel, "challenge", json!(options));
        let opponent = black.user_id.to_string();
        challenge["data"]["resolved"] = json!({ "users": { opponent: user_json(black.user_id, &black.name, false) } });
        let (answer, _) = self.interact(challenge, Some(guild)).await;
        let answer = answer?;
        let accept = custom_ids(&answer.json)
            .into_iter()
            .find(|id| id.starts_with("arb:accept:"))?;
        let id: GameId = accept.split(':').nth(2)?.parse().ok()?;
        let token = answer.path.split('/').nth(5)?.to_string();
        let message = self.fake.response_message_id(&token);
        let click = component_interaction(next_id(), &black, channel, &accept, 2, Vec::new(), message);
        self.interact(click, Some(guild)).await.0?;
        // The game is played in a thread started from the challenge (it has the message's id)
        // once the bot has opened it, or in the channel if it could not.
        let opened = self.calls.thread_opened(message, PATIENCE).await;
        let thread = if opened { message } else { channel };
        if opened {
            lock(&self.threads).push(thread);
        }
        let walks_away = timed && rng.random_bool(shares.walk_away);
        let played = self
            .play_out(id, variant, (thread, channel), guild, timed, walks_away, rng)
            .await;
        lock(&self.threads).retain(|&t| t != thread);
        played
    }

    /// The game as stored; the database may be restarting, so errors are tried again for a
    /// while. `None` when there is no such game, or the database stays away.
    async fn game_row(&self, id: GameId) -> Option<arbiter::store::GameRow> {
        for _ in 0..60 {
            match self.store.game(id).await {
                Ok(row) => return row,
                Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
            }
        }
        None
    }

    /// Plays the game to its end once accepted.
    #[allow(clippy::too_many_arguments)]
    async fn play_out(
        &self,
        id: GameId,
        variant: VariantId,
        (thread, channel): (u64, u64),
        guild: u64,
        timed: bool,
        walks_away: bool,
        rng: &mut StdRng,
    ) -> Option<Played> {
        let walks_away_after = walks_away.then(|| rng.random_range(2..20));
        let closes_dms_after = rng.random_bool(0.1).then(|| rng.random_range(1..20));
        let mut played = Played {
            variant,
            id,
            thread,
            channel,
            guild,
            sent: Vec::new(),
            walked_away: None,
            timed,
            forfeited_in_time: false,
        };
        let mut used_prompts = Vec::new();
        let accepted_by = Instant::now() + PATIENCE;
        loop {
            let row = self.game_row(id).await?;
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
            let count = played.sent.len();
            if walks_away_after == Some(count) {
                played.walked_away = Some(Instant::now());
                played.forfeited_in_time = self.waits_for_forfeit(id).await;
                break;
            }
            if closes_dms_after == Some(count) {
                let user = discord_id(&players[rng.random_range(0..2)])?;
                self.close_dms(user);
            }
            let to_act = row.state.to_act();
            let Some(&seat) = to_act.get(rng.random_range(0..to_act.len().max(1))) else {
                break;
            };
            let user = discord_id(&players[seat.index()])?;
            // Past the limit the player to act resigns, so every game ends.
            if count >= MOST_ACTIONS {
                if count >= MOST_ACTIONS + 3 {
                    break;
                }
                let resign = command_interaction(next_id(), &player(user), played.thread, "resign", json!([]));
                played
                    .sent
                    .push(self.send_noted(resign, Some(guild), RESIGNED.to_string()).await);
                continue;
            }
            if to_act.len() == 1 && count > 2 && rng.random_bool(0.04) {
                let other = discord_id(&players[seat.other().index()])?;
                played.sent.extend(self.offer(&played, guild, other, user, rng).await);
                continue;
            }
            let actions = row.state.noted_actions(seat);
            if actions.is_empty() {
                break;
            }
            let text = actions[rng.random_range(0..actions.len())].1.clone();
            let way = match row.state.view(Viewer::Seat(seat)).prompt.map(|p| p.kind) {
                Some(PromptKind::SecretChoice | PromptKind::Answer) => Way::Prompt,
                Some(PromptKind::List) => Way::List,
                Some(PromptKind::Move) | None => Way::Command,
            };
            let mut answering = Answering {
                game: id,
                thread: played.thread,
                guild,
                user,
                version: row.version,
                used: &mut used_prompts,
            };
            let privately = match way {
                Way::Command => None,
                Way::Prompt => self.answer_privately(&mut answering, None, rng).await,
                Way::List => self.answer_privately(&mut answering, Some(&text), rng).await,
            };
            // Without a prompt to answer (a DM lost with a killed process), the player types it.
            let sent = match privately {
                Some(sent) => sent,
                None => {
                    let options = json!([{ "name": "action", "type": 3, "value": text }]);
                    let typed = command_interaction(next_id(), &player(user), played.thread, "move", options);
                    if !matches!(way, Way::Command) {
                        // `/move` answers a secret choice privately.
                        self.remember_private(&typed);
                    }
                    self.send_noted(typed, Some(guild), text).await
                }
            };
            played.sent.push(sent);
        }
        Some(played)
    }

    /// `asker` offers a draw or a takeback; `answerer` answers with the offer's buttons.
    async fn offer(&self, played: &Played, guild: u64, asker: u64, answerer: u64, rng: &mut StdRng) -> Vec<Sent> {
        let command = if rng.random_bool(0.5) { "draw" } else { "takeback" };
        // The first of its answers: "Offer".
        let options = json!([{ "name": "answer", "type": 4, "value": 0 }]);
        let offer = command_interaction(next_id(), &player(asker), played.thread, command, options);
        let token = token_of(&offer);
        let mut sent = vec![self.send_noted(offer, Some(guild), OFFERED.to_string()).await];
        // The offer's buttons: on the answer to the command, or on a post in the thread.
        let key = format!("arb:{command}-");
        let game = format!(":{}:", played.id.get());
        let shows = |offer: &Offer| offer.custom_id.starts_with(&key) && offer.custom_id.contains(&game);
        let answered = self.calls.offered_with(&token);
        let on_answer = answered
            .iter()
            .any(shows)
            .then(|| (self.fake.response_message_id(&token), answered.clone()));
        let on_post = || async {
            self.calls
                .newest_post(played.thread, Duration::from_secs(2), |post| {
                    post.offers.iter().any(shows)
                })
                .await
                .map(|post| (post.message, post.offers))
        };
        let Some((message, offers)) = (match on_answer {
            Some(found) => Some(found),
            None => on_post().await,
        }) else {
            return sent;
        };
        // Mostly declined, so most games play on.
        let answer = if rng.random_bool(0.3) { "yes" } else { "no" };
        let Some(button) = offers
            .iter()
            .find(|o| shows(o) && o.custom_id.starts_with(&format!("{key}{answer}")))
        else {
            return sent;
        };
        let click = component_interaction(
            next_id(),
            &player(answerer),
            played.thread,
            &button.custom_id,
            2,
            Vec::new(),
            message,
        );
        sent.push(self.send_noted(click, Some(guild), OFFERED.to_string()).await);
        sent
    }

    /// The game's record as a spectator exports it (`/export` in its thread): the file's text.
    pub async fn export(&self, game: &Played) -> Option<String> {
        let spectator = player(9_999);
        let export = command_interaction(next_id(), &spectator, game.thread, "export", json!([]));
        let token = token_of(&export);
        self.interact(export, Some(game.guild)).await.0?;
        self.calls.files_with(&token, PATIENCE).await.into_iter().next()
    }

    /// Waits for the game to end once its player walked away; whether it ended within the time
    /// control and [`FORFEIT_SLACK`].
    async fn waits_for_forfeit(&self, id: GameId) -> bool {
        let control = arbiter::clock::TimeControl::parse(TIME_CONTROL).expect("the soak's time control reads");
        let most = Duration::from_millis((control.normal_ms + control.reserve_ms) as u64) + FORFEIT_SLACK;
        let until = Instant::now() + most;
        while Instant::now() < until {
            if let Some(row) = self.game_row(id).await
                && row.state.outcome().is_some()
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        false
    }
}

/// An interaction's token, which its answers carry.
pub fn token_of(interaction: &Value) -> String {
    interaction["token"].as_str().unwrap_or_default().to_string()
}

/// The Discord user id of a stored player ("discord:123").
fn discord_id(user: &UserId) -> Option<u64> {
    user.as_str().strip_prefix("discord:")?.parse().ok()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
