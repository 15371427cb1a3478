//! The fake's gateway: a websocket per shard, READY and RESUME, and dispatches written in order.

use super::*;

pub(crate) async fn gateway_upgrade(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| run_gateway(shared, socket))
}

/// Serves one bot connection until it closes, a newer connection replaces it, or the fake stops.
pub(crate) async fn run_gateway(shared: Arc<Shared>, mut socket: WebSocket) {
    let (connection_id, mut frames) = shared.connect();
    let shutdown = shared.shutdown.clone();
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41250 } });
    if send_text(&mut socket, hello.to_string()).await.is_ok() {
        loop {
            tokio::select! {
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(text))) => {
                        if answer_op(&shared, connection_id, &mut socket, text.as_str()).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => {} // pings are answered by the library; binary is never sent
                },
                frame = frames.recv() => {
                    // None: a newer connection replaced this one.
                    // None: the connection was replaced or dropped.
                    let Some(Outbound { text, sent }) = frame else {
                        let frame = axum::extract::ws::CloseFrame { code: CLOSE_RECONNECT, reason: "reconnect".into() };
                        let _ = socket.send(Message::Close(Some(frame))).await;
                        break;
                    };
                    if send_text(&mut socket, text).await.is_err() {
                        break;
                    }
                    let _ = sent.send(Instant::now());
                }
                _ = wait_for_shutdown(shutdown.clone()) => break,
            }
        }
    }
    let _ = socket.send(Message::Close(None)).await;
    shared.disconnect(connection_id);
}

/// Answers one frame from the bot. Unparseable frames and unknown ops are ignored.
pub(crate) async fn answer_op(
    shared: &Shared,
    connection_id: u64,
    socket: &mut WebSocket,
    text: &str,
) -> Result<(), axum::Error> {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    match frame["op"].as_u64() {
        Some(1) => send_text(socket, json!({ "op": 11 }).to_string()).await,
        Some(2) => {
            let number = |i: usize| frame["d"]["shard"][i].as_u64().and_then(|n| u32::try_from(n).ok());
            let (shard, total) = (number(0).unwrap_or(0), number(1).unwrap_or(1).max(1));
            if shared.begin_session(connection_id, shard, total) {
                let session = shared.session_id(shard).unwrap_or_default();
                send_text(socket, ready_frame(shared.port, shard, total, &session)).await?;
                shared.shard_ready(shard);
            }
            Ok(())
        }
        // RESUME: the session goes on where the bot left it, if the fake still keeps it;
        // otherwise the bot must IDENTIFY afresh (op 9, not resumable).
        Some(6) => {
            let session_id = frame["d"]["session_id"].as_str().unwrap_or_default();
            let seq = frame["d"]["seq"].as_u64().unwrap_or(0);
            let Some(frames) = shared.resume_session(connection_id, session_id, seq) else {
                return send_text(socket, json!({ "op": 9, "d": false }).to_string()).await;
            };
            let shard = shared
                .gateway
                .lock()
                .unwrap()
                .iter()
                .find(|connection| connection.id == connection_id)
                .and_then(|connection| connection.shard);
            for (text, sent) in frames {
                send_text(socket, text).await?;
                if let Some(sent) = sent {
                    let _ = sent.send(Instant::now());
                }
            }
            if let Some(shard) = shard {
                shared.shard_ready(shard);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

pub(crate) async fn send_text(socket: &mut WebSocket, text: String) -> Result<(), axum::Error> {
    socket.send(Message::text(text)).await
}

/// READY for `shard` of `total`: the servers that shard serves.
pub(crate) fn ready_frame(port: u16, shard: u32, total: u32, session_id: &str) -> String {
    let guilds: Vec<Value> = [FakeDiscord::GUILD_ID, FakeDiscord::OTHER_GUILD_ID]
        .into_iter()
        .filter(|guild| (guild >> 22) % u64::from(total) == u64::from(shard))
        .map(|guild| json!({ "id": guild.to_string(), "unavailable": true }))
        .collect();
    let ready = json!({
        "v": 10,
        "user": {
            "id": FakeDiscord::BOT_USER_ID.to_string(),
            "username": "Arbiter",
            "discriminator": "0000",
            "avatar": null,
            "bot": true,
        },
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": format!("ws://127.0.0.1:{port}/ws"),
        "shard": [shard, total],
        "application": { "id": FakeDiscord::APPLICATION_ID.to_string(), "flags": 0 },
    });
    json!({ "op": 0, "t": "READY", "s": 1, "d": ready }).to_string()
}
