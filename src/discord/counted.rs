//! Requests to Discord, counted for the metrics by route and the status of the answer. Routes
//! are written as shapes (`POST /channels/{id}/messages`): ids and interaction tokens never
//! become labels.

use serenity::all as discord;

/// Awaits `request` and counts it under `route`.
pub async fn counted<T>(
    route: &'static str,
    request: impl Future<Output = serenity::Result<T>>,
) -> serenity::Result<T> {
    let answer = request.await;
    crate::telemetry::discord_request(route, status_of(&answer));
    answer
}

/// The HTTP status of an answer: 200 for any success (serenity keeps no other), 0 when none came.
fn status_of<T>(answer: &serenity::Result<T>) -> u16 {
    match answer {
        Ok(_) => 200,
        Err(serenity::Error::Http(discord::HttpError::UnsuccessfulRequest(refusal))) => refusal.status_code.as_u16(),
        Err(_) => 0,
    }
}
