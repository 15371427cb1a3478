//! What Discord's refusals mean for the bot: wait and try again, reopen a thread, move a game
//! whose place is lost, or give up.

use serenity::all as discord;
use std::time::Duration;

/// "Cannot send messages to this user" (closed DMs).
const CLOSED_DMS: isize = 50007;
/// "Unknown Member" (not, or no longer, on the server).
const UNKNOWN_MEMBER: isize = 10007;
/// "Unknown Channel": the channel or thread was deleted.
const UNKNOWN_CHANNEL: isize = 10003;
/// "Missing Access": the bot can no longer see the channel.
const MISSING_ACCESS: isize = 50001;
/// "Missing Permissions": the bot may not post (or attach files) there any more.
const MISSING_PERMISSIONS: isize = 50013;
/// "Thread is archived" (or locked).
const ARCHIVED_THREAD: isize = 50083;
/// "You are opening direct messages too fast."
pub const OPENING_DMS_TOO_FAST: isize = 40003;

/// What a failed request means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Worth trying again after a while: rate limited, Discord's own trouble, the network.
    Transient,
    /// The thread is archived: reopen it, then try again.
    ArchivedThread,
    /// The place is gone or closed to the bot (deleted, no access, no permission to post).
    PlaceLost,
    /// A request Discord will never take as it is.
    Permanent,
}

impl Refusal {
    pub fn of(error: &serenity::Error) -> Refusal {
        let serenity::Error::Http(error) = error else {
            return Refusal::Permanent;
        };
        let discord::HttpError::UnsuccessfulRequest(response) = error else {
            // The request never got an answer (a connection refused, reset or timed out).
            return match error {
                discord::HttpError::Request(_) => Refusal::Transient,
                _ => Refusal::Permanent,
            };
        };
        Refusal::of_answer(response.status_code.as_u16(), response.error.code)
    }

    /// What Discord meant by answering with an HTTP `status` and its own error `code`.
    fn of_answer(status: u16, code: isize) -> Refusal {
        match code {
            _ if status == 429 || status >= 500 => Refusal::Transient,
            ARCHIVED_THREAD => Refusal::ArchivedThread,
            UNKNOWN_CHANNEL | MISSING_ACCESS | MISSING_PERMISSIONS => Refusal::PlaceLost,
            _ => Refusal::Permanent,
        }
    }
}

/// How long to wait before the `attempt`th retry (from 0): half a second, doubling, at most
/// 30 s. Discord's rate-limit windows are a second (global) and a few seconds (a channel), so
/// the first retries land just after a window reopens.
pub fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(500u64.saturating_mul(1 << attempt.min(6))).min(Duration::from_secs(30))
}

pub fn is_closed_dms(error: &serenity::Error) -> bool {
    error_code(error) == Some(CLOSED_DMS)
}

/// Whether Discord answered that the user is not a member of the server (any more).
pub fn is_unknown_member(error: &serenity::Error) -> bool {
    error_code(error) == Some(UNKNOWN_MEMBER)
}

/// The code of an error Discord answered with.
pub fn error_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(discord::HttpError::UnsuccessfulRequest(response)) => Some(response.error.code),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discords_answers_are_read_as_discord_documents_them() {
        assert_eq!(Refusal::of_answer(429, 0), Refusal::Transient);
        assert_eq!(Refusal::of_answer(502, 0), Refusal::Transient);
        assert_eq!(Refusal::of_answer(400, 50083), Refusal::ArchivedThread);
        assert_eq!(Refusal::of_answer(404, 10003), Refusal::PlaceLost);
        assert_eq!(Refusal::of_answer(403, 50013), Refusal::PlaceLost);
        assert_eq!(Refusal::of_answer(403, 50001), Refusal::PlaceLost);
        assert_eq!(Refusal::of_answer(400, 50035), Refusal::Permanent);
        assert_eq!(Refusal::of_answer(403, 50007), Refusal::Permanent);
    }

    #[test]
    fn retries_wait_longer_each_time_up_to_half_a_minute() {
        assert_eq!(backoff(0), Duration::from_millis(500));
        assert_eq!(backoff(1), Duration::from_secs(1));
        assert_eq!(backoff(3), Duration::from_secs(4));
        assert_eq!(backoff(40), Duration::from_secs(30));
    }
}
