//! What the bots sent Discord, read as it arrives: each interaction's first answer and when it
//! came, and each channel's posts. One reader copies only new calls, so a long run stays cheap.

use fake_discord::{Call, FakeDiscord};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How refusals begin: a warning, or the hourglass of a player going faster than the bot
/// lets anyone (both say nothing was done).
pub const REFUSED: [&str; 2] = ["⚠", "⏳"];

/// Whether an answer is a refusal.
pub fn is_refusal(text: &str) -> bool {
    REFUSED.iter().any(|sign| text.starts_with(sign))
}

#[derive(Default)]
struct Seen {
    /// Interaction id → its first answer (the callback).
    answers: HashMap<u64, Call>,
    /// Channel id → each message posted there.
    posts: HashMap<u64, Vec<Post>>,
    /// Interaction token → the texts of the answers and follow-ups sent with it.
    answered_with: HashMap<String, Vec<String>>,
    /// Interaction token → the buttons and menus its answers showed.
    offered_with: HashMap<String, Vec<Offer>>,
    /// Interaction token → the text files (not images) its answers attached: exports.
    files_with: HashMap<String, Vec<String>>,
    /// Messages a thread was started from (the thread has the message's id).
    threads: std::collections::HashSet<u64>,
    read: usize,
}

/// The calls so far, indexed; cheap to clone and share.
#[derive(Clone, Default)]
pub struct Calls {
    seen: Arc<Mutex<Seen>>,
}

impl Calls {
    /// Reads the calls the fake has received since the last read.
    pub fn read_new(&self, fake: &FakeDiscord) {
        let start = self.lock().read;
        let new = fake.calls_from(start);
        let mut seen = self.lock();
        seen.read = start + new.len();
        for call in new {
            let parts: Vec<&str> = call.path.split('/').collect();
            // /api/v10/interactions/{id}/{token}/callback
            let text = call.json["data"]["content"]
                .as_str()
                .or(call.json["content"].as_str())
                .unwrap_or_default()
                .to_string();
            let token = match (parts.get(3), parts.get(5)) {
                (Some(&"interactions") | Some(&"webhooks"), Some(token)) => Some(token.to_string()),
                _ => None,
            };
            for (name, bytes) in &call.files {
                if let (Some(token), false) = (&token, name.ends_with(".png")) {
                    let text = String::from_utf8_lossy(bytes).into_owned();
                    seen.files_with.entry(token.clone()).or_default().push(text);
                }
            }
            if parts.len() == 7 && parts[3] == "interactions" && parts[6] == "callback" {
                seen.answered_with.entry(parts[5].to_string()).or_default().push(text);
                seen.offered_with
                    .entry(parts[5].to_string())
                    .or_default()
                    .extend(fake_discord::controls(&call.json));
                if let Ok(id) = parts[4].parse::<u64>() {
                    seen.answers.entry(id).or_insert(call);
                }
            } else if parts.len() >= 6 && parts[3] == "webhooks" {
                // Follow-ups and edits of an answer: /webhooks/{application}/{token}/...
                seen.answered_with.entry(parts[5].to_string()).or_default().push(text);
            } else if call.method == "POST" && call.status == 200 && parts.len() == 8 && parts[7] == "threads" {
                // /api/v10/channels/{channel}/messages/{message}/threads
                if let Ok(message) = parts[6].parse::<u64>() {
                    seen.threads.insert(message);
                }
            } else if call.method == "POST"
                && call.status == 200
                && parts.len() == 6
                && parts[3] == "channels"
                && parts[5] == "messages"
                && let Ok(channel) = parts[4].parse::<u64>()
            {
                let post = Post {
                    message: FakeDiscord::message_made(&call).unwrap_or_default(),
                    offers: fake_discord::controls(&call.json),
                    text,
                };
                seen.posts.entry(channel).or_default().push(post);
            }
        }
    }

    /// The first answer to interaction `id`, waiting up to `within` for it.
    pub async fn answer(&self, id: u64, within: Duration) -> Option<Call> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(call) = self.lock().answers.get(&id) {
                return Some(call.clone());
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Whether a thread was started from message `message`, waiting up to `within` for it.
    pub async fn thread_opened(&self, message: u64, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while !self.lock().threads.contains(&message) {
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }

    /// The texts of the answers and follow-ups sent with interaction token `token`.
    pub fn answered_with(&self, token: &str) -> Vec<String> {
        self.lock().answered_with.get(token).cloned().unwrap_or_default()
    }

    /// Whether `sent` was answered with a refusal (and why).
    pub fn refused(&self, sent: &Sent) -> bool {
        self.answered_with(&sent.token).iter().any(|text| is_refusal(text))
    }

    /// The buttons and menus the answer to interaction token `token` showed.
    pub fn offered_with(&self, token: &str) -> Vec<Offer> {
        self.lock().offered_with.get(token).cloned().unwrap_or_default()
    }

    /// The text files attached to the answers to interaction token `token`, waiting up to
    /// `within` for one.
    pub async fn files_with(&self, token: &str, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        loop {
            let files = self.lock().files_with.get(token).cloned().unwrap_or_default();
            if !files.is_empty() || Instant::now() >= deadline {
                return files;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The texts posted in `channel`.
    pub fn posts(&self, channel: u64) -> Vec<String> {
        self.lock()
            .posts
            .get(&channel)
            .map(|posts| posts.iter().map(|post| post.text.clone()).collect())
            .unwrap_or_default()
    }

    /// The newest post in `channel` that `wanted` accepts, waiting up to `within` for one.
    pub async fn newest_post(&self, channel: u64, within: Duration, wanted: impl Fn(&Post) -> bool) -> Option<Post> {
        let deadline = Instant::now() + within;
        loop {
            let found = self
                .lock()
                .posts
                .get(&channel)
                .and_then(|posts| posts.iter().rev().find(|post| wanted(post)).cloned());
            if found.is_some() || Instant::now() >= deadline {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A message the bot posted: its id, text, and the buttons and menus it shows.
#[derive(Clone, Debug)]
pub struct Post {
    pub message: u64,
    pub text: String,
    pub offers: Vec<Offer>,
}

/// A button or menu a message shows.
pub use fake_discord::Control as Offer;

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
    /// The Discord id of the player who sent it.
    pub by: String,
}

impl Sent {
    /// Whether this is an action of the game's log (not a resignation or an offer).
    pub fn is_action(&self) -> bool {
        // Commands are noted by name (`/resign`); actions by their notation.
        !self.text.starts_with('/')
    }
}
