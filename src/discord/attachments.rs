//! Files players attach (a record to `/import`, a list to `/list` or `/lists save`), fetched from
//! Discord's CDN with one HTTP client for the bot's whole life. The client gives up on a
//! connection that does not open in time and on a fetch that does not finish in time, so a
//! stalled CDN answers the player with a clear message instead of holding their interaction (which
//! the responder has deferred meanwhile, within Discord's 3 seconds).

use crate::arena::ArenaError;
use serenity::all as discord;
use std::time::Duration;

/// How long a fetch may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchTimeouts {
    /// To open the connection (Discord's CDN answers in milliseconds).
    pub connect: Duration,
    /// For the whole fetch, from connecting to the file's last byte (files are at most a
    /// megabyte).
    pub total: Duration,
}

impl Default for FetchTimeouts {
    fn default() -> FetchTimeouts {
        FetchTimeouts {
            connect: Duration::from_secs(5),
            total: Duration::from_secs(20),
        }
    }
}

/// What players are told when the CDN did not hand the file over in time.
pub const TOO_SLOW: &str = "the file could not be fetched from Discord in time: try again";

/// The attached files' fetcher, shared by every command.
pub struct Attachments {
    client: reqwest::Client,
}

/// Why a fetch failed: for the log (never the file's address, which is the uploader's), and
/// whether it ran out of time.
struct Failure {
    problem: String,
    timed_out: bool,
}

impl From<reqwest::Error> for Failure {
    fn from(error: reqwest::Error) -> Failure {
        Failure {
            timed_out: error.is_timeout(),
            problem: error.without_url().to_string(),
        }
    }
}

impl Attachments {
    /// The fetcher, its client built once with these timeouts.
    pub fn new(timeouts: FetchTimeouts) -> anyhow::Result<Attachments> {
        let client = reqwest::Client::builder()
            .connect_timeout(timeouts.connect)
            .timeout(timeouts.total)
            .build()
            .map_err(|error| anyhow::anyhow!("cannot make the client that fetches attached files: {error}"))?;
        Ok(Attachments { client })
    }

    /// An attached text file's contents, refused (with `what` it should be) when too big, not
    /// text, or not fetched (in time).
    pub async fn text_file(
        &self,
        file: &discord::Attachment,
        most_bytes: usize,
        what: &str,
    ) -> Result<String, ArenaError> {
        if file.size as usize > most_bytes {
            return Err(ArenaError::Rejected(format!(
                "that file is {} KB; at most {} KB: {what}",
                file.size.div_ceil(1024),
                most_bytes.div_ceil(1024)
            )));
        }
        let bytes = self.download(&file.url, most_bytes).await.map_err(|failure| {
            tracing::warn!(problem = %failure.problem, "an attached file could not be fetched from Discord");
            ArenaError::Rejected(if failure.timed_out {
                TOO_SLOW.to_string()
            } else {
                "I could not fetch that file from Discord just now; attach it again in a moment".to_string()
            })
        })?;
        let Some(bytes) = bytes else {
            return Err(ArenaError::Rejected(format!("that file is too big: {what}")));
        };
        String::from_utf8(bytes).map_err(|_| ArenaError::Rejected(format!("that file is not text; {what}")))
    }

    /// A file from Discord's CDN, read up to `most_bytes` (`None` past that, whatever the
    /// attachment claimed its size was); an answer other than success is a failure, never the
    /// file.
    async fn download(&self, url: &str, most_bytes: usize) -> Result<Option<Vec<u8>>, Failure> {
        let mut response = self.client.get(url).send().await?;
        if !response.status().is_success() {
            return Err(Failure {
                problem: format!("Discord answered {}", response.status()),
                timed_out: false,
            });
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > most_bytes {
                return Ok(None);
            }
        }
        Ok(Some(bytes))
    }
}
