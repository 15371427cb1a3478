//! What every part of the soak's play shares: the table (the fake Discord, the calls read so far,
//! the database), a game as it was played, the players, and sending an interaction and noting
//! what came back. The parts that play (`begin`, `play`, `privately`, `hosting`, `records`,
//! `tournament`) stand on it; nothing here knows how a game is played.

use crate::calls::{Calls, Sent};
use arbiter::ids::{GameId, UserId};
use arbiter::store::Store;
use arbiter_engine::VariantId;
use fake_discord::{FakeDiscord, Invoker, in_guild};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a player waits for an answer before taking the bot for gone (Discord itself gives
/// up after 3 s; a killed process never answers).
pub const PATIENCE: Duration = Duration::from_secs(10);

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
/// What a host's command in a Death Match is noted as among the actions sent, with its
/// subcommand's name after it.
pub const HOSTED: &str = "/deathmatch";

/// How the bot asks a player going too fast to wait a second.
pub const SLOW_DOWN: &str = "⏳";

/// How long a player waits for an answer.
pub fn patience() -> Duration {
    PATIENCE
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1_000_000);

/// A fresh interaction id.
pub fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// A game the soak played.
#[derive(Debug)]
pub struct Played {
    pub variant: VariantId,
    pub id: GameId,
    /// Where it is played: its thread, or its channel (a Death Match's, or once a moderator
    /// deleted its thread).
    pub thread: u64,
    /// The thread a moderator deleted under it, whose posts still count.
    pub deleted_thread: Option<u64>,
    /// The channel the challenge was made in, where a game whose thread is lost goes back to.
    pub channel: u64,
    pub guild: u64,
    /// Its players' Discord ids, once seated.
    pub players: [u64; 2],
    pub sent: Vec<Sent>,
    /// A timed game's player walked away: when, and when their time ran out at the latest.
    pub walked_away: Option<Instant>,
    pub timed: bool,
    /// The game ended on time after its player walked away, within [`FORFEIT_SLACK`].
    pub forfeited_in_time: bool,
    /// A Death Match's host (who pauses, resumes, adds time and adjudicates).
    pub host: Option<u64>,
    /// The reserve its host added, in all.
    pub added_ms: i64,
    /// The game this one is a rematch of.
    pub rematch_of: Option<GameId>,
    /// A record a player exported part-way, to bring back in once the game is over.
    pub record: Option<Record>,
    /// The game whose record this one was imported from, and whether it began where the
    /// record left off.
    pub imported_from: Option<(GameId, bool)>,
    /// The actions its record brought (the first of its log, which no player sent here).
    pub imported: usize,
}

impl Played {
    /// A game just begun in `thread` (its channel's, or its own).
    pub fn begun(id: GameId, variant: VariantId, (thread, channel): (u64, u64), guild: u64, timed: bool) -> Played {
        Played {
            variant,
            id,
            thread,
            deleted_thread: None,
            channel,
            guild,
            players: [0, 0],
            sent: Vec::new(),
            walked_away: None,
            timed,
            forfeited_in_time: false,
            host: None,
            added_ms: 0,
            rematch_of: None,
            record: None,
            imported_from: None,
            imported: 0,
        }
    }

    /// Every place its posts went: its thread (or the one deleted under it) and its channel.
    pub fn places(&self) -> Vec<u64> {
        let mut places = vec![self.thread];
        places.extend(self.deleted_thread);
        if !places.contains(&self.channel) {
            places.push(self.channel);
        }
        places
    }
}

/// The threads of the games in play, for a moderator to pick from, and those a moderator
/// deleted.
#[derive(Default)]
pub struct Threads {
    pub in_play: Vec<u64>,
    pub deleted: HashSet<u64>,
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
    pub threads: Arc<Mutex<Threads>>,
    /// What went wrong outside any one game's checks (a record that would not come back in).
    pub troubles: Arc<Mutex<Vec<String>>>,
}

/// The player with Discord id `user_id`.
pub fn player(user_id: u64) -> Invoker {
    Invoker {
        user_id,
        name: format!("player{user_id}"),
    }
}

/// A record a player exported part-way through a game.
#[derive(Clone, Debug)]
pub struct Record {
    pub text: String,
    /// The position it was exported at, as its spectators' FEN.
    pub fen: String,
    /// Its player's Discord id.
    pub by: u64,
}

/// How often games are timed, and how often a player of a timed game walks away.
#[derive(Clone, Copy)]
pub struct Shares {
    pub timed: f64,
    pub walk_away: f64,
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
        let by = sender_of(&interaction);
        let (answer, sent_at) = self.interact(interaction, guild).await;
        // A player told to slow down waits as asked before doing anything more.
        if self
            .calls
            .answered_with(&token)
            .iter()
            .any(|t| t.starts_with(SLOW_DOWN))
        {
            tokio::time::sleep(Duration::from_millis(1_100)).await;
        }
        Sent {
            text,
            answered: answer.is_some(),
            latency: answer.as_ref().map(|a| a.at.saturating_duration_since(sent_at)),
            at: sent_at,
            token,
            by,
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

    pub fn close_dms(&self, user: u64) {
        lock(&self.closed_dms).insert(user);
        self.fake.close_dms_of(user);
    }
}

/// An interaction's token, which its answers carry.
pub fn token_of(interaction: &Value) -> String {
    interaction["token"].as_str().unwrap_or_default().to_string()
}

/// Who sent an interaction: its member's user in a server, its user in a DM.
fn sender_of(interaction: &Value) -> String {
    let user = if interaction["member"].is_object() {
        &interaction["member"]["user"]
    } else {
        &interaction["user"]
    };
    user["id"].as_str().unwrap_or_default().to_string()
}

/// The Discord user id of a stored player ("discord:123").
pub fn discord_id(user: &UserId) -> Option<u64> {
    user.as_str().strip_prefix("discord:")?.parse().ok()
}

pub fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
