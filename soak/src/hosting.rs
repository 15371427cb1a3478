//! Death Matches as a show's host runs them: `/deathmatch start` naming the player with the
//! Advantage; the players accept (or not) that it is rated, and the Advantage holder takes a side
//! by its button; then, during the match, the host pauses and resumes the clocks, gives a player
//! more reserve, and now and then rules on the result.

use crate::table::{HOSTED, Played, TIME_CONTROL, Table, next_id, player};
use arbiter::ids::GameId;
use arbiter_engine::VariantId;
use fake_discord::{Invoker, command_interaction, component_interaction, custom_ids, permissions, user_json};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

/// How often, on a turn of a Death Match, its host steps in.
pub const HOST_ACTS: f64 = 0.06;

/// The host: a member who manages the server.
const HOST: u64 = 9_000;

/// The reserve a host adds at a time.
const ADDED: (&str, i64) = ("5s", 5_000);

impl Table {
    /// The host starts a Death Match of `variant` between `one` and `other` in `channel`, with
    /// the soak's time control, one of them holding the Advantage, who takes a side: the match
    /// as begun (it is played in the channel).
    pub async fn host_match(
        &self,
        variant: VariantId,
        (one, other): (&Invoker, &Invoker),
        (channel, guild): (u64, u64),
        rng: &mut StdRng,
    ) -> Option<Played> {
        // The order of `/deathmatch start`'s games.
        let game = [VariantId::Blockade, VariantId::Garden]
            .iter()
            .position(|&v| v == variant)?;
        let advantage = if rng.random_bool(0.5) { one } else { other };
        let (normal, reserve) = TIME_CONTROL.split_once('+')?;
        let options = json!([{ "name": "start", "type": 1, "options": [
            { "name": "game", "type": 4, "value": game },
            { "name": "player1", "type": 6, "value": one.user_id.to_string() },
            { "name": "player2", "type": 6, "value": other.user_id.to_string() },
            { "name": "advantage", "type": 6, "value": advantage.user_id.to_string() },
            { "name": "normal_time", "type": 3, "value": normal },
            { "name": "reserve", "type": 3, "value": reserve },
        ] }]);
        let mut start = host_command("deathmatch", channel, options);
        start["data"]["resolved"] = resolved(&[one, other]);
        let token = crate::table::token_of(&start);
        let answer = self.interact(start, Some(guild)).await.0?;
        let message = self.fake.response_message_id(&token);
        // The consent step: a match is rated only if both players accept before the first
        // placement. Both do in half the matches, one or neither in the rest, so rated and
        // unrated results both reach the ladders' check.
        if let Some(rated) = custom_ids(&answer.json)
            .into_iter()
            .find(|id| id.starts_with("arb:rated:"))
        {
            let accepting: &[&Invoker] = match rng.random_range(0..4) {
                0 | 1 => &[one, other],
                2 => &[one],
                _ => &[],
            };
            for player in accepting {
                let click = component_interaction(next_id(), player, channel, &rated, 2, Vec::new(), message);
                // An answer lost to a fault leaves the match unrated or rated: the check reads which.
                let _ = self.interact(click, Some(guild)).await;
            }
        }
        let side = if rng.random_bool(0.5) {
            "arb:first:"
        } else {
            "arb:second:"
        };
        let button = custom_ids(&answer.json).into_iter().find(|id| id.starts_with(side))?;
        let id: GameId = button.split(':').nth(2)?.parse().ok()?;
        let click = component_interaction(next_id(), advantage, channel, &button, 2, Vec::new(), message);
        self.interact(click, Some(guild)).await.0?;
        let mut played = Played::begun(id, variant, (channel, channel), guild, true);
        played.host = Some(HOST);
        Some(played)
    }

    /// The host steps in: pauses the clocks and resumes them, adds reserve for one of the
    /// `players`, or (less often) rules a win or a draw, which ends the match.
    pub async fn host_acts(&self, played: &mut Played, players: [u64; 2], rng: &mut StdRng) {
        let someone = players[rng.random_range(0..2)];
        match rng.random_range(0..5) {
            0 | 1 => {
                self.host_says(played, json!({ "name": "pause", "type": 1, "options": [] }), &[])
                    .await;
                let refused = played.sent.last().is_some_and(|sent| self.calls.refused(sent));
                // Resumed at once (even when the pause went unanswered: a killed process may
                // have paused it all the same), sent again while no answer comes: a match left
                // paused would wait for its host for ever.
                if !refused {
                    for _ in 0..3 {
                        let resume = json!({ "name": "resume", "type": 1, "options": [] });
                        self.host_says(played, resume, &[]).await;
                        if played.sent.last().is_some_and(|sent| sent.answered) {
                            break;
                        }
                    }
                }
            }
            2 | 3 => {
                let options = json!({ "name": "addtime", "type": 1, "options": [
                    { "name": "player", "type": 6, "value": someone.to_string() },
                    { "name": "time", "type": 3, "value": ADDED.0 },
                ] });
                self.host_says(played, options, &[someone]).await;
                // Counted unless refused: an answer lost at a kill may still have added it.
                let refused = played.sent.last().is_some_and(|sent| self.calls.refused(sent));
                if !refused {
                    played.added_ms += ADDED.1;
                }
            }
            _ => {
                let ruling = if rng.random_bool(0.7) {
                    json!([
                        { "name": "result", "type": 4, "value": 0 },
                        { "name": "winner", "type": 6, "value": someone.to_string() },
                    ])
                } else {
                    json!([{ "name": "result", "type": 4, "value": 1 }])
                };
                let options = json!({ "name": "adjudicate", "type": 1, "options": ruling });
                self.host_says(played, options, &[someone]).await;
            }
        }
    }

    /// Sends `/deathmatch` with `subcommand` in the match's channel, naming `users`, noted
    /// among the match's interactions.
    async fn host_says(&self, played: &mut Played, subcommand: Value, users: &[u64]) {
        let noted = format!("{HOSTED} {}", subcommand["name"].as_str().unwrap_or_default());
        let mut command = host_command("deathmatch", played.thread, json!([subcommand]));
        let named: Vec<Invoker> = users.iter().map(|&u| player(u)).collect();
        command["data"]["resolved"] = resolved(&named.iter().collect::<Vec<_>>());
        let sent = self.send_noted(command, Some(played.guild), noted).await;
        played.sent.push(sent);
    }
}

/// `/{name}` with `options`, by the host, in `channel`.
pub fn host_command(name: &str, channel: u64, options: Value) -> Value {
    let mut command = command_interaction(next_id(), &player(HOST), channel, name, options);
    command["member"]["permissions"] = json!((permissions::DEFAULT | permissions::MANAGE_GUILD).to_string());
    command
}

/// A command's `resolved` users (what Discord sends for each user option).
pub fn resolved(users: &[&Invoker]) -> Value {
    let users: serde_json::Map<String, Value> = users
        .iter()
        .map(|u| (u.user_id.to_string(), user_json(u.user_id, &u.name, false)))
        .collect();
    json!({ "users": users })
}
