//! One game as its two players play it through Discord: begun (`begin`: a challenge, some
//! timed, and its Accept button), then a random legal action for whoever is to act (read from the database, as a player
//! reads the board): `/move` in the thread, or the buttons, menus and forms of a private prompt
//! (`privately`); now and then a draw or takeback offer, answered by its buttons. A game ends by
//! the rules, by agreement, by a resignation once it runs long, or on time when a player of a
//! timed game walks away. After it, now and then, a rematch, or the record a player exported
//! part-way brought back in (`records`); a Death Match begins and is hosted in `hosting`.

use crate::calls::{Offer, Sent};
use crate::privately::Answering;
use crate::table::{
    FORFEIT_SLACK, OFFERED, PATIENCE, Played, RESIGNED, Shares, TIME_CONTROL, Table, discord_id, lock, next_id, player,
    token_of,
};
use arbiter::ids::GameId;
use arbiter_engine::view::PromptKind;
use arbiter_engine::{Game, VariantId, Viewer};
use fake_discord::{command_interaction, component_interaction};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::json;
use std::time::{Duration, Instant};

/// Actions past this many, the player to act resigns.
const MOST_ACTIONS: usize = 40;

/// How often a finished game's players ask for a rematch, and how many rematches in a row at
/// most.
const REMATCH_SHARE: f64 = 0.2;
const MOST_REMATCHES: usize = 2;

/// How often a player of a game whose record can be brought back in exports it part-way.
const EXPORT_SHARE: f64 = 0.3;

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
    /// Plays game number `number` of `variant` between two players of its own, in a channel of
    /// its own in `guild`: a challenge, or (for the games that have them, one time in two) a
    /// Death Match its host runs; then, now and then, a rematch or two. Empty when the game never
    /// started (its challenge or acceptance went unanswered, as when a process was killed then).
    pub async fn play(
        &self,
        number: u64,
        variant: VariantId,
        guild: u64,
        shares: Shares,
        rng: &mut StdRng,
    ) -> Vec<Played> {
        let (white, black) = (player(10_000 + 2 * number), player(10_001 + 2 * number));
        let channel = 500_000 + number;
        // Some players never take DMs; some close them mid-game (`play_out`).
        if rng.random_bool(0.2) {
            self.close_dms(black.user_id);
        }
        let hosted = variant.info().has_death_matches && rng.random_bool(0.5);
        let mut next = if hosted {
            self.host_match(variant, (&white, &black), (channel, guild), rng).await
        } else {
            // One game in four is timed; in some of those a player walks away (`play_out`).
            let timed = rng.random_bool(shares.timed);
            self.challenge(variant, (&white, &black), (channel, guild), timed).await
        };
        let mut series = Vec::new();
        while let Some(begun) = next.take() {
            let thread = begun.thread;
            if thread != channel {
                lock(&self.threads).in_play.push(thread);
            }
            let walks_away = begun.timed && rng.random_bool(shares.walk_away);
            let played = self.play_out(begun, walks_away, rng).await;
            lock(&self.threads).in_play.retain(|&t| t != thread);
            let Some(played) = played else {
                break;
            };
            let asks = played.host.is_none()
                && played.walked_away.is_none()
                && series.len() < MOST_REMATCHES
                && rng.random_bool(REMATCH_SHARE);
            // A record exported part-way is brought back in to play on; or, now and then, the
            // players ask for a rematch.
            if let Some(record) = played.record.clone()
                && played.walked_away.is_none()
            {
                let opponent = played.players.into_iter().find(|&p| p != record.by);
                if let Some(opponent) = opponent {
                    next = self.import(&played, &record, opponent).await;
                }
            } else if asks {
                next = self.rematch(&played, rng).await;
            }
            series.push(played);
        }
        series
    }

    /// The game as stored; the database may be restarting, so errors are tried again for a
    /// while. `None` when there is no such game, or the database stays away.
    pub async fn game_row(&self, id: GameId) -> Option<arbiter::model::GameRow> {
        for _ in 0..60 {
            match self.store.game(id).await {
                Ok(row) => return row,
                Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
            }
        }
        None
    }

    /// Plays the game to its end once accepted.
    pub async fn play_out(&self, mut played: Played, walks_away: bool, rng: &mut StdRng) -> Option<Played> {
        let (id, guild) = (played.id, played.guild);
        let walks_away_after = walks_away.then(|| rng.random_range(2..20));
        let exports_at = (crate::records::IMPORTABLE.contains(&played.variant)
            && played.imported_from.is_none()
            && rng.random_bool(EXPORT_SHARE))
        .then(|| rng.random_range(3..15));
        let closes_dms_after = rng.random_bool(0.1).then(|| rng.random_range(1..20));
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
            if lock(&self.threads).deleted.contains(&played.thread) {
                // The bot carries the game on in its channel.
                played.deleted_thread = Some(played.thread);
                played.thread = played.channel;
            }
            let count = played.sent.len();
            if walks_away_after == Some(count) {
                played.walked_away = Some(Instant::now());
                played.forfeited_in_time = self.waits_for_forfeit(&played).await;
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
            played.players = [discord_id(&players[0])?, discord_id(&players[1])?];
            if exports_at == Some(count) {
                played.record = self.keep_record(&played, user, &row).await;
            }
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
            if played.host.is_some() && count > 2 && rng.random_bool(crate::hosting::HOST_ACTS) {
                let ids = [discord_id(&players[0])?, discord_id(&players[1])?];
                self.host_acts(&mut played, ids, rng).await;
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

    /// Waits for the game to end once its player walked away; whether it ended within the time
    /// control and [`FORFEIT_SLACK`].
    async fn waits_for_forfeit(&self, played: &Played) -> bool {
        let id = played.id;
        let control = arbiter::clock::TimeControl::parse(TIME_CONTROL).expect("the soak's time control reads");
        // In Rejection a proposal left unanswered counts as accepted when the answering
        // player's time runs out, and then they must move: one more turn of normal time
        // (docs/rules/rejection.md, "Time").
        let extra_turn = if played.variant == VariantId::Rejection {
            control.normal_ms
        } else {
            0
        };
        let allowed = control.normal_ms + control.reserve_ms + extra_turn + played.added_ms;
        let most = Duration::from_millis(allowed.max(0) as u64) + FORFEIT_SLACK;
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
