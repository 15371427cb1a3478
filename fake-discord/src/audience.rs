//! Who could see what the bot sent: a check that a secret never reached the public reads every
//! call through [`public_calls`], so tests and the soak draw the line in one place.

use crate::{Call, FakeDiscord};
use std::collections::HashSet;

/// Discord's flag for a message only its reader sees.
const EPHEMERAL: u64 = 64;

/// The calls that made something others could read: posts in guild channels and threads, thread
/// names, and interaction answers that are not ephemeral. Left out: DMs; autocomplete
/// suggestions and forms (shown to the typist alone); ephemeral answers and the edits of an
/// ephemeral answer; and everything answering an interaction of `private` (clicks in a DM or on
/// an ephemeral message, whose updates stay where they were).
pub fn public_calls<'a>(calls: &'a [Call], private: &HashSet<u64>) -> Vec<&'a Call> {
    let flagged = |body: &serde_json::Value| body["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0;
    // Interactions first answered privately: their original answer stays private when edited.
    let ephemeral: HashSet<u64> = calls
        .iter()
        .filter_map(|call| {
            let id = callback_of(&call.path)?;
            flagged(&call.json["data"]).then_some(id)
        })
        .collect();
    calls
        .iter()
        .filter(|call| call.method == "POST" || call.method == "PATCH")
        .filter(|call| {
            let parts: Vec<&str> = call.path.split('/').collect();
            if let Some(id) = callback_of(&call.path) {
                // 8: autocomplete suggestions; 9: a form.
                let kind = call.json["type"].as_u64().unwrap_or(0);
                return !private.contains(&id) && kind != 8 && kind != 9 && !flagged(&call.json["data"]);
            }
            match parts.get(3) {
                // /api/v10/webhooks/{application}/{token}[/messages/{message}]
                Some(&"webhooks") => {
                    let id = parts.get(5).and_then(|token| interaction_of_token(token));
                    let original = parts.get(7) == Some(&"@original");
                    let private_here =
                        id.is_some_and(|id| private.contains(&id) || original && ephemeral.contains(&id));
                    !private_here && !flagged(&call.json)
                }
                // /api/v10/channels/{channel}/...
                Some(&"channels") => !parts
                    .get(4)
                    .and_then(|c| c.parse().ok())
                    .is_some_and(FakeDiscord::is_dm_channel),
                _ => true,
            }
        })
        .collect()
}

/// The interaction a callback path answers: /api/v10/interactions/{id}/{token}/callback.
fn callback_of(path: &str) -> Option<u64> {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() == 7 && parts[3] == "interactions" && parts[6] == "callback" {
        parts[4].parse().ok()
    } else {
        None
    }
}

/// The interaction a token of the fake's payloads belongs to ("token{id}").
fn interaction_of_token(token: &str) -> Option<u64> {
    token.strip_prefix("token")?.parse().ok()
}
