//! A move chosen by menus: the **Move** button under a board post opens, for the player to act
//! alone, their own board and a menu of what can act; each choice shows the next step (where it
//! goes, then what else the turn holds) on the same private message, its board dotted where the
//! choices stand; the last plays the action through the same path as `/move`. Every step is the
//! arena's (`arena::guide`), at the version it was shown: a step of an older position is refused
//! as out of date.

use super::delivery::Delivery;
use super::ids::Component;
use super::respond::{Outgoing, Responder};
use super::widgets::{MenuOption, fit, paged_menus};
use super::{Data, refuse};
use crate::arena::Menu;
use crate::arena::guide::{Guide, Next, Step};
use crate::ids::{GameId, Place, UserId};
use serenity::all as discord;

/// One step asked for: whose, where, and which.
pub(super) struct StepAsked<'a> {
    pub http: &'a discord::Http,
    pub data: &'a Data,
    pub user: &'a UserId,
    pub here: &'a Place,
    pub game: GameId,
    /// The version the step was shown at; none for the Move button (the game as it is now).
    pub version: Option<i64>,
    pub path: Vec<String>,
    pub page: usize,
}

impl StepAsked<'_> {
    /// Shows the step, or plays the action its path names. The Move button's first step is a
    /// private message of its own; later steps replace the message they were chosen on.
    pub async fn answer(self, responder: &mut Responder) {
        let guide = match self.data.arena.play().guide(self.game, self.user, self.version).await {
            Ok(guide) => guide,
            Err(error) => return refuse(error, responder).await,
        };
        let next = guide.next(&self.path);
        let options = match next {
            Next::Play(action) => return self.play(responder, &guide, action.text.clone()).await,
            Next::Nowhere => {
                let text = "That is not one of the menu's choices now; press **Move** under the board again.";
                let _ = responder.send_private(Outgoing::text(text)).await;
                return;
            }
            Next::Choose(options) => options,
        };
        let message = match self.message(&guide, &options).await {
            Ok(message) => message,
            Err(error) => {
                tracing::error!(game = %self.game, error = %crate::logging::Quiet(error.as_ref()), "could not draw a move's menu");
                let text = "Your board could not be drawn just now; try again, or type the move with `/move`.";
                let _ = responder.send_private(Outgoing::text(text)).await;
                return;
            }
        };
        let shown = if self.version.is_none() {
            responder.send_private(message).await
        } else {
            responder.replace_clicked(message).await
        };
        if let Err(error) = shown {
            tracing::warn!(game = %self.game, %error, "could not show a move's menu");
        }
    }

    async fn play(&self, responder: &mut Responder, guide: &Guide, text: String) {
        let menu = Menu {
            version: guide.version,
            prompt_key: None,
        };
        super::choosing::choose(
            self.http, self.data, responder, self.game, menu, self.user, self.here, &text,
        )
        .await;
    }

    /// The step's message: what was chosen so far, the board dotted where this step's choices
    /// stand, the menus, and Back once something is chosen.
    async fn message(&self, guide: &Guide, options: &[(&Step, usize)]) -> anyhow::Result<Outgoing> {
        let chosen = guide.chosen(&self.path);
        let mut text = format!("Game #{} · your move.", self.game);
        if !chosen.is_empty() {
            let so_far: Vec<&str> = chosen.iter().map(|step| step.label.as_str()).collect();
            text.push_str(&format!(" So far: **{}**.", so_far.join(" → ")));
        }
        let hint = hint(self.path.len(), options);
        text.push_str(&format!(" {hint}:"));
        let mut board = guide.board.clone();
        board.decor.dots = options
            .iter()
            .filter_map(|(step, _)| step.at.map(|at| at.square))
            .collect();
        if self.path.is_empty() {
            board.decor.dots.clear();
        }
        let mut message = Outgoing::text(fit(&text));
        message.files.push(
            Delivery {
                http: self.http,
                data: self.data,
            }
            .board_file(&board)
            .await?,
        );
        // What acts says how many moves it has; a later step, how many ways it goes on.
        let ways = if self.path.is_empty() { "moves" } else { "ways" };
        let menu_options: Vec<MenuOption> = options
            .iter()
            .map(|(step, count)| MenuOption {
                label: step.label.clone(),
                value: step.key.clone(),
                description: step
                    .detail
                    .clone()
                    .or_else(|| (*count > 1).then(|| format!("{count} {ways}"))),
            })
            .collect();
        let at = |page: usize, path: Vec<String>| Component::Guide {
            game: guide.game,
            version: guide.version,
            page: page as u8,
            path,
        };
        let mut buttons = Vec::new();
        if let Some((_, before)) = self.path.split_last() {
            let back = at(0, before.to_vec());
            buttons.push(
                discord::CreateButton::new(back.custom_id())
                    .label("◀ Back")
                    .style(discord::ButtonStyle::Secondary),
            );
        }
        let menu = at(self.page, self.path.clone());
        let turn = |page: usize| at(page, self.path.clone());
        message.components = paged_menus(&menu_options, &menu, hint, self.page, turn, buttons);
        Ok(message)
    }
}

/// What a step asks: what acts first, then where, then the rest of the turn.
fn hint(depth: usize, options: &[(&Step, usize)]) -> &'static str {
    let on_squares = options.iter().all(|(step, _)| step.at.is_some());
    match depth {
        0 if on_squares => "pick the square you choose",
        0 => "pick what moves or is placed",
        1 => "pick where it goes",
        _ => "pick the rest of your turn",
    }
}
