//! Buttons and menus. Their custom ids name the game and the version they were posted at; the
//! arena re-checks who clicked and whether the game has moved on, so a stale or foreign click
//! changes nothing and gets a private explanation.

use super::choosing::choose;
use super::delivery::Delivery;
use super::guided::StepAsked;
use super::ids::{self, Answer, Component};
use super::respond::{Outgoing, Responder};
use super::widgets::{choice_components, fit};
use super::{Data, answer};
use crate::arena::{ArenaError, Button, Effects, ListSource, Menu};
use crate::ids::{GameId, Place, UserId};
use serenity::all as discord;
use std::sync::Arc;

/// A click on a button or a menu, as read from Discord's payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Click {
    /// What was clicked; `None` for a component that is not Arbiter's.
    pub component: Option<Component>,
    pub user: UserId,
    /// Where it was clicked (a channel, a thread, a DM).
    pub here: Place,
    /// Where a game it starts is offered: the channel itself, or a thread's parent channel
    /// (threads cannot hold threads of their own).
    pub place: Place,
    /// The option picked in a menu.
    pub choice: Option<String>,
}

pub fn read_click(interaction: &discord::ComponentInteraction) -> Click {
    let choice = match &interaction.data.kind {
        discord::ComponentInteractionDataKind::StringSelect { values } => values.first().cloned(),
        _ => None,
    };
    let parent = interaction
        .channel
        .as_ref()
        .filter(|channel| channel.thread_metadata.is_some() || is_thread(channel.kind))
        .and_then(|channel| channel.parent_id);
    Click {
        component: Component::parse(&interaction.data.custom_id),
        user: ids::user(interaction.user.id),
        here: ids::location(interaction.channel_id),
        place: ids::location(parent.unwrap_or(interaction.channel_id)),
        choice,
    }
}

fn is_thread(kind: discord::ChannelType) -> bool {
    matches!(
        kind,
        discord::ChannelType::PublicThread | discord::ChannelType::PrivateThread | discord::ChannelType::NewsThread
    )
}

/// One click being answered: who clicked, where, and what they picked.
struct Clicked<'a> {
    http: &'a Arc<discord::Http>,
    data: &'a Data,
    interaction: &'a discord::ComponentInteraction,
    user: UserId,
    here: Place,
    place: Place,
    choice: Option<String>,
}

pub async fn on_component(http: &Arc<discord::Http>, data: &Data, interaction: &discord::ComponentInteraction) {
    let mut responder = Responder::for_component(http, interaction);
    let Click {
        component,
        user,
        here,
        place,
        choice,
    } = read_click(interaction);
    let Some(component) = component else {
        let text = "That button is not one of Arbiter's current ones; use the commands instead.";
        if let Err(error) = responder.send_private(Outgoing::text(text)).await {
            tracing::warn!(%error, "could not answer an unknown component");
        }
        return;
    };
    data.names.remember(&interaction.user);
    if let Some(refusal) = data.limits.refusal(&ids::user(interaction.user.id), data.arena.now()) {
        let _ = responder.send_private(Outgoing::text(refusal)).await;
        return;
    }
    // A click is acknowledged before any work, so Discord's 3 seconds cannot run out whatever
    // comes next; only a click that may open a form (which must be the first response) waits.
    let may_open_form = matches!(component, Component::WriteList { .. });
    if !may_open_form {
        responder.acknowledge().await;
    }
    let clicked = Clicked {
        http,
        data,
        interaction,
        user,
        here,
        place,
        choice,
    };
    clicked.answer(component, &mut responder).await;
}

impl Clicked<'_> {
    fn guided_step(&self, game: GameId, version: Option<i64>, path: Vec<String>, page: usize) -> StepAsked<'_> {
        StepAsked {
            http: self.http,
            data: self.data,
            user: &self.user,
            here: &self.here,
            game,
            version,
            path,
            page,
        }
    }

    /// Does what the click asks, and answers it.
    async fn answer(&self, component: Component, responder: &mut Responder) {
        let (http, data) = (self.http, self.data);
        match component {
            Component::Button {
                button: Button::AcceptChallenge,
                game,
                ..
            } => accept(http, data, self.interaction, responder, game, &self.user).await,
            Component::Button {
                button: Button::ChoosePrivately,
                game,
                ..
            } => self.open_prompt(responder, game).await,
            Component::WriteList { game, version } => open_list_form(responder, game, version).await,
            Component::DrawList { game, .. } => {
                let work = self
                    .data
                    .arena
                    .lists()
                    .submit(Some(game), &self.user, ListSource::Drawn);
                answer(self.http, self.data, work.await, &self.here, responder).await
            }
            Component::ListForm { .. } => {
                let text = "That form is filled in and sent, not clicked.";
                let _ = responder.send_private(Outgoing::text(text)).await;
            }
            Component::Piece { game, version } => self.piece_picked(responder, game, version).await,
            Component::Button {
                button: Button::Rematch,
                game,
                version,
            } => self.rematch(responder, game, version).await,
            Component::Button {
                button: Button::Move,
                game,
                ..
            } => self.guided_step(game, None, Vec::new(), 0).answer(responder).await,
            Component::Guide {
                game,
                version,
                page,
                mut path,
            } => {
                // A menu's choice is the next step; a button (Back, a page) names its own.
                let page = match &self.choice {
                    Some(key) => {
                        path.push(key.clone());
                        0
                    }
                    None => usize::from(page),
                };
                self.guided_step(game, Some(version), path, page)
                    .answer(responder)
                    .await
            }
            Component::Button { button, game, version } => self.press(responder, button, game, version).await,
            Component::Choose {
                game,
                version,
                prompt_key,
            } => {
                let Some(choice) = &self.choice else {
                    let _ = responder
                        .send_private(Outgoing::text("Pick one of the choices in the menu."))
                        .await;
                    return;
                };
                let menu = Menu { version, prompt_key };
                choose(http, data, responder, game, menu, &self.user, &self.here, choice).await;
            }
            Component::Pick {
                game,
                version,
                prompt_key,
                answer: Answer::Value(choice),
            } => {
                let menu = Menu { version, prompt_key };
                choose(http, data, responder, game, menu, &self.user, &self.here, &choice).await
            }
            Component::Pick {
                game,
                version,
                answer: Answer::Index(index),
                ..
            } => self.pick_by_place(responder, game, version, index).await,
            Component::Page { game, version, page } => self.turn_page(responder, game, version, page).await,
        }
    }

    /// "Choose privately": the player's prompt (for a list, its buttons: the form to write it
    /// in, or a list drawn for them).
    async fn open_prompt(&self, responder: &mut Responder, game: GameId) {
        let prompt = self.data.arena.play().private_prompt(game, &self.user).await;
        let work = async { prompt };
        let nothing = "There is nothing for you to choose.";
        show_prompt(self.http, self.data, responder, game, work, nothing, 0).await
    }

    /// A piece picked from the placement menu: where it may go.
    async fn piece_picked(&self, responder: &mut Responder, game: GameId, version: i64) {
        let Some(piece) = &self.choice else {
            let _ = responder
                .send_private(Outgoing::text("Pick one of the pieces in the menu."))
                .await;
            return;
        };
        let work = self.data.arena.play().placements(game, &self.user, piece, version);
        let refusal = "That piece cannot be placed now.";
        show_prompt(self.http, self.data, responder, game, work, refusal, 0).await
    }

    /// "Rematch": the new game is offered, and the post says where.
    async fn rematch(&self, responder: &mut Responder, game: GameId, version: i64) {
        let (http, data, interaction) = (self.http, self.data, self.interaction);
        let work = async {
            opponents_still_here(http, data, interaction, game, &self.user).await?;
            let caller = clicker(data, interaction, Button::Rematch).await;
            data.arena
                .press(game, &caller, Button::Rematch, version, &self.place)
                .await
        };
        let result = work.await;
        if let Ok(effects) = &result {
            // The button goes; the post says where the rematch is offered.
            let place = ids::channel(&self.place).map_or_else(String::new, |c| format!(" in <#{c}>"));
            let new = effects.game.map_or_else(String::new, |id| format!(" (game #{id})"));
            let text = format!(
                "{}\n**Rematch** asked for by {}{new}{place}.",
                answered(&interaction.message.content),
                ids::mention(&self.user)
            );
            let _ = responder.update_clicked(Outgoing::text(fit(text.trim_start()))).await;
        }
        answer(http, data, result, &self.here, responder).await;
    }

    /// Any other button: pressed, and its question answered.
    async fn press(&self, responder: &mut Responder, button: Button, game: GameId, version: i64) {
        let caller = clicker(self.data, self.interaction, button).await;
        let result = self.data.arena.press(game, &caller, button, version, &self.place).await;
        // The question is answered: its buttons go. (A player accepting a rated match answers
        // only for themselves: the colours and the other player's answer remain.)
        if result.is_ok() && button != Button::RateMatch {
            let _ = responder
                .update_clicked(Outgoing::text(answered(&self.interaction.message.content)))
                .await;
        }
        answer(self.http, self.data, result, &self.here, responder).await;
    }

    /// A button posted before answers carried their value: its place in the prompt's answers,
    /// which are the same while the game is at the same version.
    async fn pick_by_place(&self, responder: &mut Responder, game: GameId, version: i64, index: u8) {
        let (http, data) = (self.http, self.data);
        let prompt = data.arena.play().private_prompt(game, &self.user).await;
        let choice = prompt
            .as_ref()
            .ok()
            .filter(|effects| effects.version == Some(version))
            .and_then(|effects| effects.direct_messages.first())
            .and_then(|dm| dm.choices.get(usize::from(index)).cloned());
        let menu = Menu {
            version,
            prompt_key: None,
        };
        match (choice, prompt) {
            (Some(choice), _) => choose(http, data, responder, game, menu, &self.user, &self.here, &choice).await,
            (None, Err(error)) => answer(http, data, Err(error), &self.here, responder).await,
            (None, Ok(_)) => answer(http, data, Err(ArenaError::Stale(game)), &self.here, responder).await,
        }
    }

    /// Another page of the same prompt: only while the game is where it was.
    async fn turn_page(&self, responder: &mut Responder, game: GameId, version: i64, page: u8) {
        let prompt = self.data.arena.play().private_prompt(game, &self.user).await;
        let work = async {
            match prompt {
                Ok(effects) if effects.version != Some(version) => Err(ArenaError::Stale(game)),
                other => other,
            }
        };
        let nothing = "There is nothing for you to choose.";
        show_prompt(self.http, self.data, responder, game, work, nothing, usize::from(page)).await
    }
}

/// Who clicked, as the arena knows them: for the buttons a host may press (choosing sides for
/// the Advantage holder, a match's rematch), with their host status on this server.
async fn clicker(data: &Data, interaction: &discord::ComponentInteraction, button: Button) -> crate::arena::Caller {
    if matches!(button, Button::PlayFirst | Button::PlaySecond | Button::Rematch) {
        return super::hosts::caller(
            data,
            interaction.user.id,
            interaction.guild_id,
            interaction.member.as_ref(),
        )
        .await;
    }
    let server = interaction.guild_id.map(ids::server);
    crate::arena::Caller::player(&ids::user(interaction.user.id), server.as_ref())
}

/// Opens the form to write a list in; if the click was answered already, offers its button.
async fn open_list_form(responder: &mut Responder, game: GameId, version: i64) {
    match responder.open_form(super::widgets::list_form(game, version)).await {
        Ok(true) => {}
        Ok(false) => {
            let message = Outgoing {
                content: "Press the button to write your list.".into(),
                components: super::widgets::write_list_button(game, version),
                ..Outgoing::default()
            };
            let _ = responder.send_private(message).await;
        }
        Err(error) => tracing::warn!(game = %game, %error, "could not open the list form"),
    }
}

/// A list sent back in its form: submitted, with each line's verdict and the sheet privately.
pub async fn on_form(http: &Arc<discord::Http>, data: &Data, interaction: &discord::ModalInteraction) {
    let mut responder = Responder::for_modal(http, interaction);
    data.names.remember(&interaction.user);
    if let Some(refusal) = data.limits.refusal(&ids::user(interaction.user.id), data.arena.now()) {
        let _ = responder.send_private(Outgoing::text(refusal)).await;
        return;
    }
    let Some(Component::ListForm { game, .. }) = Component::parse(&interaction.data.custom_id) else {
        let text = "That form is not one of Arbiter's current ones; use `/list` instead.";
        let _ = responder.send_private(Outgoing::text(text)).await;
        return;
    };
    let text: String = interaction
        .data
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|component| match component {
            discord::ActionRowComponent::InputText(input) if input.custom_id == super::widgets::LIST_FIELD => {
                input.value.clone()
            }
            _ => None,
        })
        .unwrap_or_default();
    let user = ids::user(interaction.user.id);
    let here = ids::location(interaction.channel_id);
    let work = data
        .arena
        .lists()
        .submit(Some(game), &user, crate::arena::ListSource::Text(text));
    answer(http, data, work.await, &here, &mut responder).await;
}

/// Refuses a rematch when a player of the game (other than the one asking) has left the
/// server: they could not answer it.
async fn opponents_still_here(
    http: &discord::Http,
    data: &Data,
    interaction: &discord::ComponentInteraction,
    game: GameId,
    asker: &UserId,
) -> Result<(), ArenaError> {
    let Some(guild) = interaction.guild_id else {
        return Ok(());
    };
    let Some(facts) = data.arena.facts(game).await? else {
        return Err(ArenaError::UnknownGame(game));
    };
    for player in [&facts.challenger, &facts.opponent].into_iter().filter(|p| *p != asker) {
        let Some(id) = ids::discord_user(player) else {
            continue;
        };
        // Bounded: the click waits for its answer.
        let member = tokio::time::timeout(std::time::Duration::from_secs(1), guild.member(http, id)).await;
        if let Ok(Err(error)) = member
            && super::refusals::is_unknown_member(&error)
        {
            return Err(ArenaError::Rejected(format!(
                "{} is no longer on this server, so there can be no rematch; challenge someone else with /challenge",
                ids::mention(player)
            )));
        }
    }
    Ok(())
}

/// A question's text once answered: its countdown (to a moment that no longer matters) goes.
fn answered(content: &str) -> String {
    let kept: Vec<&str> = content.lines().filter(|line| !line.contains("<t:")).collect();
    fit(&kept.join("\n"))
}

/// The opponent accepts: the game begins in a thread of its own, opened from the challenge.
async fn accept(
    http: &discord::Http,
    data: &Data,
    interaction: &discord::ComponentInteraction,
    responder: &mut Responder,
    game: GameId,
    user: &UserId,
) {
    let here = ids::location(interaction.channel_id);
    let mut effects = match data.arena.challenges().accept(game, user).await {
        Ok(effects) => effects,
        Err(error) => return answer(http, data, Err(error), &here, responder).await,
    };
    let thread = open_thread(http, data, interaction, game).await;
    let mut place = format!("<#{}>", interaction.channel_id);
    if let Some(thread) = thread {
        let location = ids::location(thread);
        match data.arena.relocate(game, &location).await {
            Ok(moved) => {
                for post in effects.posts.iter_mut().filter(|p| p.location == here) {
                    post.location = location.clone();
                }
                effects.version = moved.version;
                place = format!("<#{thread}>");
            }
            Err(error) => {
                tracing::error!(game = %game, error = %crate::logging::Quiet(&error), "could not move a game to its thread")
            }
        }
    }
    let accepted = format!(
        "{}\n**Accepted.** The game is played in {place}.",
        answered(&interaction.message.content)
    );
    if let Err(error) = responder
        .update_clicked(Outgoing::text(fit(accepted.trim_start())))
        .await
    {
        tracing::warn!(game = %game, %error, "could not update a challenge");
    }
    answer(http, data, Ok(effects), &here, responder).await;
}

/// A thread for the game, started from the challenge message; none if Discord refuses (the game
/// is then played in the channel).
async fn open_thread(
    http: &discord::Http,
    data: &Data,
    interaction: &discord::ComponentInteraction,
    game: GameId,
) -> Option<discord::ChannelId> {
    let facts = data.arena.facts(game).await.ok().flatten()?;
    let mut names = Vec::new();
    for player in [&facts.challenger, &facts.opponent] {
        names.push(match ids::discord_user(player) {
            Some(id) => data.names.name_of(http, id).await,
            None => player.display_name().to_string(),
        });
    }
    let name = format!("#{game} {}: {} vs {}", facts.variant.name(), names[0], names[1]);
    let name: String = name.chars().take(100).collect();
    let builder = discord::CreateThread::new(name).auto_archive_duration(discord::AutoArchiveDuration::OneWeek);
    let message = interaction.message.id;
    let opening = interaction
        .channel_id
        .create_thread_from_message(http, message, builder);
    // The click is acknowledged already, so Discord may take its time; past this the game is
    // played in the channel rather than keep the players waiting.
    match tokio::time::timeout(THREAD_PATIENCE, opening).await {
        Ok(Ok(thread)) => return Some(thread.id),
        Ok(Err(error)) => tracing::warn!(game = %game, %error, "could not open a thread for a game"),
        Err(_) => tracing::warn!(game = %game, "Discord took too long to open a thread for a game"),
    }
    // A request that failed or timed out may still have made the thread (Discord says "a thread
    // has already been created for this message" when asked again): a thread started from a
    // message has the message's id, so look for it rather than leave it behind unused.
    let existing = tokio::time::timeout(
        THREAD_PATIENCE,
        http.get_channel(discord::ChannelId::new(message.get())),
    )
    .await;
    match existing {
        Ok(Ok(discord::Channel::Guild(channel))) if channel.thread_metadata.is_some() => Some(channel.id),
        _ => None,
    }
}

/// How long opening a game's thread may take before the game stays in its channel.
const THREAD_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// Shows the clicker a prompt of their own, visible only to them: their secret-choice menu
/// (the way in when a DM could not be delivered, or for anyone who prefers it), or the squares
/// for a piece they chose to place. `work` gives the prompt as the effects' one direct message.
async fn show_prompt(
    http: &discord::Http,
    data: &Data,
    responder: &mut Responder,
    game: GameId,
    work: impl std::future::Future<Output = Result<Effects, ArenaError>>,
    when_none: &str,
    page: usize,
) {
    let effects = match work.await {
        Ok(effects) => effects,
        Err(error) => return super::refuse(error, responder).await,
    };
    let (Some(prompt), Some(version)) = (effects.direct_messages.first(), effects.version) else {
        let _ = responder.send_private(Outgoing::text(when_none)).await;
        return;
    };
    let delivery = Delivery { http, data };
    let message = match delivery.prompt_page(prompt, version, page).await {
        Ok(message) => message,
        Err(error) => {
            tracing::error!(game = %game, error = %crate::logging::Quiet(error.as_ref()), "could not draw a private prompt");
            Outgoing {
                content: Outgoing::text(prompt.text.reveal()).content,
                components: choice_components(prompt, version, page),
                ..Outgoing::default()
            }
        }
    };
    if let Err(error) = responder.send_private(message).await {
        tracing::warn!(game = %game, %error, "could not show a private prompt");
    }
}
