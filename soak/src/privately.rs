//! What a player answers in private, as they would on Discord: a secret choice or an answer
//! from the buttons or menus of the bot's DM, or, when their DMs are closed (or the DM never
//! came, sent by a process killed first), from the **Choose privately** button in the game's
//! thread; a list of pieces written in the form the **Write your list** button opens.

use crate::calls::Sent;
use crate::calls::{Offer, Post};
use crate::table::{Table, next_id, player};
use arbiter::ids::GameId;
use fake_discord::{
    FakeDiscord, component_interaction, custom_ids, dm_component_interaction, dm_modal_submit_interaction,
    modal_submit_interaction,
};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::Value;
use std::time::Duration;

/// How long a player waits for a DM before looking for the private button instead.
const DM_PATIENCE: Duration = Duration::from_secs(4);

/// Where a message with the player's choices is: the player's DM, or an ephemeral answer in
/// the game's thread.
#[derive(Clone, Copy)]
enum Place {
    Direct,
    Thread(u64),
}

/// A message showing the player's choices for one game.
struct Shown {
    place: Place,
    message: u64,
    offers: Vec<Offer>,
}

/// The game and player a private answer is for.
pub struct Answering<'a> {
    pub game: GameId,
    pub thread: u64,
    pub guild: u64,
    pub user: u64,
    /// The game's version now: a prompt made at it is the one to answer.
    pub version: i64,
    /// DM messages of this player already answered (a prompt is answered once).
    pub used: &'a mut Vec<u64>,
}

impl Answering<'_> {
    fn belongs(&self, offer: &Offer) -> bool {
        offer.custom_id.contains(&format!(":{}:", self.game.get()))
    }
}

impl Table {
    /// Answers the player's private prompt with one of the choices it shows, picked at random;
    /// a list prompt with `list` (the game's notation, "list:Queen,Q,Q/…") written in its form.
    /// `None` when no prompt could be found: the caller types the choice instead.
    pub async fn answer_privately(
        &self,
        who: &mut Answering<'_>,
        list: Option<&str>,
        rng: &mut StdRng,
    ) -> Option<Sent> {
        let shown = self.find_prompt(who).await?;
        if let Some(list) = list {
            return self.write_list(who, &shown, list).await;
        }
        // The answers it offers: each option of a menu, each answer button.
        let mut choices: Vec<(&Offer, Option<&String>)> = Vec::new();
        for offer in shown.offers.iter().filter(|o| who.belongs(o)) {
            if offer.is_menu() {
                choices.extend(offer.values.iter().map(|value| (offer, Some(value))));
            } else if offer.custom_id.starts_with("arb:answer:") {
                choices.push((offer, None));
            }
        }
        if choices.is_empty() {
            return None;
        }
        let (offer, value) = choices[rng.random_range(0..choices.len())];
        // A button's answer is the last part of its id ("arb:answer:12:7:key:accept").
        let text = match value {
            Some(value) => value.clone(),
            None => offer.custom_id.rsplit(':').next().unwrap_or_default().to_string(),
        };
        let (kind, values) = match value {
            Some(value) => (3, vec![value.clone()]),
            None => (2, Vec::new()),
        };
        let interaction = self.click(who, shown.place, &offer.custom_id, kind, values, shown.message);
        Some(self.send_noted(interaction, shown.place.guild(who), text).await)
    }

    /// The newest prompt for the game: in the player's DM (one not yet answered), else behind
    /// the private button of the thread.
    async fn find_prompt(&self, who: &mut Answering<'_>) -> Option<Shown> {
        let dm = FakeDiscord::dm_channel_id(who.user);
        let game = format!(":{}:", who.game.get());
        let now = format!(":{}:{}", who.game.get(), who.version);
        let fresh =
            |post: &Post| !who.used.contains(&post.message) && post.offers.iter().any(|o| o.custom_id.contains(&game));
        let current = |post: &Post| fresh(post) && post.offers.iter().any(|o| o.custom_id.contains(&now));
        // The prompt made at the game's version now; else (a choice both players make at once,
        // whose prompt outlives the other's choice) the newest not answered yet.
        let found = if self.dms_closed(who.user) {
            None
        } else {
            match self.calls.newest_post(dm, DM_PATIENCE, current).await {
                Some(post) => Some(post),
                None => self.calls.newest_post(dm, Duration::ZERO, fresh).await,
            }
        };
        if let Some(post) = found {
            who.used.push(post.message);
            return Some(Shown {
                place: Place::Direct,
                message: post.message,
                offers: post.offers,
            });
        }
        // The private button of the thread opens the prompt for its presser alone.
        let private = format!("arb:private{game}");
        let post = self
            .calls
            .newest_post(who.thread, Duration::ZERO, |post| {
                post.offers.iter().any(|o| o.custom_id.starts_with(&private))
            })
            .await?;
        let button = post.offers.iter().find(|o| o.custom_id.starts_with(&private))?;
        let click = self.click(
            who,
            Place::Thread(who.thread),
            &button.custom_id,
            2,
            Vec::new(),
            post.message,
        );
        let token = crate::table::token_of(&click);
        let (answer, _) = self.interact(click, Some(who.guild)).await;
        let answer = answer?;
        Some(Shown {
            place: Place::Thread(who.thread),
            message: self.fake.response_message_id(&token),
            offers: fake_discord::controls(&answer.json),
        })
    }

    /// Opens the form of the **Write your list** button and sends `list` in it, one piece a line.
    async fn write_list(&self, who: &Answering<'_>, shown: &Shown, list: &str) -> Option<Sent> {
        let button = shown
            .offers
            .iter()
            .find(|o| o.custom_id.starts_with("arb:writelist:") && who.belongs(o))?;
        let click = self.click(who, shown.place, &button.custom_id, 2, Vec::new(), shown.message);
        let (opened, _) = self.interact(click, shown.place.guild(who)).await;
        let opened = opened?;
        let form = opened.json["data"]["custom_id"].as_str()?.to_string();
        let field = custom_ids(&opened.json["data"]["components"]).into_iter().next()?;
        let lines = list_lines(list);
        let invoker = player(who.user);
        let submit = match shown.place {
            Place::Direct => dm_modal_submit_interaction(
                next_id(),
                &invoker,
                FakeDiscord::dm_channel_id(who.user),
                &form,
                &[(&field, &lines)],
            ),
            Place::Thread(thread) => modal_submit_interaction(next_id(), &invoker, thread, &form, &[(&field, &lines)]),
        };
        self.remember_private(&submit);
        Some(self.send_noted(submit, shown.place.guild(who), list.to_string()).await)
    }

    /// A click by the player on a message of theirs; what answers it stays private.
    fn click(
        &self,
        who: &Answering<'_>,
        place: Place,
        custom_id: &str,
        kind: u8,
        values: Vec<String>,
        message: u64,
    ) -> Value {
        let invoker = player(who.user);
        let click = match place {
            Place::Direct => dm_component_interaction(
                next_id(),
                &invoker,
                FakeDiscord::dm_channel_id(who.user),
                custom_id,
                kind,
                values,
                message,
            ),
            Place::Thread(thread) => {
                component_interaction(next_id(), &invoker, thread, custom_id, kind, values, message)
            }
        };
        self.remember_private(&click);
        click
    }
}

impl Place {
    /// The guild an interaction here comes from (none in a DM).
    fn guild(self, who: &Answering<'_>) -> Option<u64> {
        match self {
            Place::Direct => None,
            Place::Thread(_) => Some(who.guild),
        }
    }
}

/// A list in the game's notation ("list:Queen,Q,Q/Rook,R,R") as a player writes it in the form:
/// one piece a line ("Queen, Q, Q").
fn list_lines(list: &str) -> String {
    list.trim_start_matches("list:")
        .split('/')
        .map(|line| line.replace(',', ", ").replace('_', " "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::list_lines;

    #[test]
    fn a_list_in_notation_is_written_one_piece_a_line() {
        assert_eq!(
            list_lines("list:King,K,K,royal/Knight-alfil,NA,NA/Great_general,GG,QN"),
            "King, K, K, royal\nKnight-alfil, NA, NA\nGreat general, GG, QN"
        );
    }
}
