//! Answering one interaction. Discord wants an answer within 3 seconds and then allows follow-ups
//! for 15 minutes; a `Responder` keeps track of which of the two the next message must be, and a
//! guard beside it defers the interaction when nothing has answered it in time, whatever the
//! work in between (the arena, drawing, Discord calls) is doing.

use super::counted::counted;
use serenity::all as discord;
use serenity::all::Builder;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Mutex;

/// After this long without an answer, the interaction is deferred so Discord's 3 seconds never
/// run out (the arena and the renderer normally answer in milliseconds).
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The routes an interaction is answered by, as the metrics name them.
const CALLBACK: &str = "POST /interactions/{id}/{token}/callback";
const FOLLOW_UP: &str = "POST /webhooks/{app}/{token}";
const EDIT_ORIGINAL: &str = "PATCH /webhooks/{app}/{token}/messages/@original";

/// A message for Discord: text, files, components and whom it may ping.
#[derive(Clone, Default)]
pub struct Outgoing {
    pub content: String,
    pub files: Vec<discord::CreateAttachment>,
    pub components: Vec<discord::CreateActionRow>,
    pub embeds: Vec<discord::CreateEmbed>,
    /// The only users the message pings; everyone else it names is shown without a ping.
    pub pings: Vec<discord::UserId>,
}

impl Outgoing {
    /// A message of the arena's text (or the bot's own words): what users wrote in it made
    /// inert, cut to Discord's length.
    pub fn text(content: impl AsRef<str>) -> Outgoing {
        Outgoing {
            content: super::widgets::fit(&super::markdown::render(content.as_ref())),
            ..Outgoing::default()
        }
    }

    pub fn allowed_mentions(&self) -> discord::CreateAllowedMentions {
        discord::CreateAllowedMentions::new().users(self.pings.clone())
    }

    pub fn into_message(self) -> discord::CreateMessage {
        let mentions = self.allowed_mentions();
        discord::CreateMessage::new()
            .content(self.content)
            .add_files(self.files)
            .components(self.components)
            .embeds(self.embeds)
            .allowed_mentions(mentions)
    }

    fn into_response(self, ephemeral: bool) -> discord::CreateInteractionResponseMessage {
        let mentions = self.allowed_mentions();
        discord::CreateInteractionResponseMessage::new()
            .content(self.content)
            .add_files(self.files)
            .components(self.components)
            .embeds(self.embeds)
            .allowed_mentions(mentions)
            .ephemeral(ephemeral)
    }

    fn into_followup(self, ephemeral: bool) -> discord::CreateInteractionResponseFollowup {
        let mentions = self.allowed_mentions();
        discord::CreateInteractionResponseFollowup::new()
            .content(self.content)
            .add_files(self.files)
            .components(self.components)
            .embeds(self.embeds)
            .allowed_mentions(mentions)
            .ephemeral(ephemeral)
    }
}

/// A message for a place everyone there can read: a channel, a thread, a public answer. It is
/// made only from the arena's public posts (`Delivery::post_message`) and the bot's own notices,
/// never from words meant for one reader (`arena::PrivateText`): nothing private reaches a
/// channel through it.
#[derive(Clone)]
pub struct Public(Outgoing);

impl Public {
    /// A public post, as `Delivery::post_message` draws it.
    pub(super) fn post(message: Outgoing) -> Public {
        Public(message)
    }

    /// The bot's own words for a place (never a player's private words), pinging `pings`.
    pub fn notice(text: impl AsRef<str>, pings: Vec<discord::UserId>) -> Public {
        Public(Outgoing {
            pings,
            ..Outgoing::text(text)
        })
    }

    /// Its buttons and menus, made again (for the game's version after it moved).
    pub fn set_components(&mut self, components: Vec<discord::CreateActionRow>) {
        self.0.components = components;
    }

    pub fn with_components(mut self, components: Vec<discord::CreateActionRow>) -> Public {
        self.0.components = components;
        self
    }

    /// The message: what is public may also be shown to anyone privately.
    pub fn message(self) -> Outgoing {
        self.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Fresh,
    /// A command's "thinking..." placeholder, public or not.
    DeferredCommand {
        is_ephemeral: bool,
    },
    /// A component click acknowledged without a message.
    DeferredComponent,
    Answered,
}

/// Where an interaction's responses go.
#[derive(Clone)]
struct Target {
    http: Arc<discord::Http>,
    id: discord::InteractionId,
    token: String,
    is_component: bool,
    /// For the metrics: what was asked (a command's name, "component", "form"), when it
    /// arrived, and whether it has had a first answer yet.
    asked: &'static str,
    received: std::time::Instant,
    answered: Arc<AtomicBool>,
}

impl Target {
    /// Counts the time to the interaction's first answer, once.
    fn first_answer(&self) {
        if !self.answered.swap(true, Ordering::Relaxed) {
            crate::telemetry::interaction_answered(self.asked, self.received.elapsed());
        }
    }

    /// Defers the interaction: a click is acknowledged (its message stays as it is), a command
    /// shows a placeholder of the given visibility.
    async fn defer(&self, state: &mut State, is_ephemeral: bool) -> serenity::Result<()> {
        if *state != State::Fresh {
            return Ok(());
        }
        let response = if self.is_component {
            discord::CreateInteractionResponse::Acknowledge
        } else {
            discord::CreateInteractionResponse::Defer(
                discord::CreateInteractionResponseMessage::new().ephemeral(is_ephemeral),
            )
        };
        counted(CALLBACK, response.execute(&self.http, (self.id, &self.token))).await?;
        self.first_answer();
        *state = if self.is_component {
            State::DeferredComponent
        } else {
            State::DeferredCommand { is_ephemeral }
        };
        Ok(())
    }
}

/// One interaction to answer: a slash command, a component click or a form sent back.
pub struct Responder {
    target: Target,
    /// Shared with the guard; locked for the whole of each response, so the guard's deferral
    /// and an answer never both count as the first response.
    state: Arc<Mutex<State>>,
    /// Defers the interaction at [`DEFER_AFTER`] if it is still unanswered; stopped on drop.
    guard: tokio::task::JoinHandle<()>,
    /// Whether the answer is expected to be private, so that a deferral shows the placeholder
    /// to the right people (a wrong guess still ends well, see `send`).
    is_private: Arc<AtomicBool>,
    /// The command's name (or "component", "form"), for the metrics.
    command: String,
    /// Whether an answer could not be sent.
    failed: bool,
}

/// The interaction is counted when its responder goes, by how it ended.
impl Drop for Responder {
    fn drop(&mut self) {
        self.guard.abort();
        let outcome = if self.failed {
            crate::telemetry::Outcome::Failed
        } else if self.target.answered.load(Ordering::Relaxed) {
            crate::telemetry::Outcome::Answered
        } else {
            crate::telemetry::Outcome::Unanswered
        };
        crate::telemetry::interaction(&self.command, outcome);
    }
}

impl Responder {
    fn new(
        http: &Arc<discord::Http>,
        id: discord::InteractionId,
        token: &str,
        asked: &'static str,
        command: String,
        is_private: bool,
    ) -> Responder {
        let target = Target {
            http: Arc::clone(http),
            id,
            token: token.to_string(),
            is_component: asked == "component",
            asked,
            received: std::time::Instant::now(),
            answered: Arc::default(),
        };
        let state = Arc::new(Mutex::new(State::Fresh));
        let is_private = Arc::new(AtomicBool::new(is_private));
        let guard = tokio::spawn({
            let target = target.clone();
            let state = Arc::clone(&state);
            let is_private = Arc::clone(&is_private);
            async move {
                tokio::time::sleep(DEFER_AFTER).await;
                let mut state = state.lock().await;
                if let Err(error) = target.defer(&mut state, is_private.load(Ordering::Relaxed)).await {
                    tracing::warn!(%error, "could not defer a slow interaction");
                }
            }
        });
        Responder {
            target,
            state,
            guard,
            is_private,
            command,
            failed: false,
        }
    }

    /// Corrects the expected visibility of the answer once the work knows it.
    pub fn expect_private(&self, is_private: bool) {
        self.is_private.store(is_private, Ordering::Relaxed);
    }

    pub fn for_command(
        http: &Arc<discord::Http>,
        interaction: &discord::CommandInteraction,
        is_private: bool,
    ) -> Responder {
        let command = interaction.data.name.clone();
        Responder::new(http, interaction.id, &interaction.token, "command", command, is_private)
    }

    pub fn for_component(http: &Arc<discord::Http>, interaction: &discord::ComponentInteraction) -> Responder {
        Responder::new(
            http,
            interaction.id,
            &interaction.token,
            "component",
            "component".into(),
            true,
        )
    }

    /// For a form sent back (a modal submit), answered like a command, privately.
    pub fn for_modal(http: &Arc<discord::Http>, interaction: &discord::ModalInteraction) -> Responder {
        Responder::new(http, interaction.id, &interaction.token, "form", "form".into(), true)
    }

    fn http(&self) -> &discord::Http {
        &self.target.http
    }

    /// Acknowledges a click now, before any slow work: its message stays as it is, and every
    /// answer after this is an edit of it or a follow-up.
    pub async fn acknowledge(&mut self) {
        let mut state = self.state.lock().await;
        if let Err(error) = self.target.defer(&mut state, true).await {
            tracing::warn!(%error, "could not acknowledge a click");
        }
    }

    /// Opens a form (a modal) in answer: only as the interaction's first response. False when
    /// it was answered already (the caller then offers the form's button instead).
    pub async fn open_form(&mut self, form: discord::CreateModal) -> serenity::Result<bool> {
        let mut state = self.state.lock().await;
        if *state != State::Fresh {
            return Ok(false);
        }
        let form = discord::CreateInteractionResponse::Modal(form);
        let opened = counted(
            CALLBACK,
            form.execute(self.http(), (self.target.id, &self.target.token)),
        )
        .await;
        self.failed |= opened.is_err();
        opened?;
        self.target.first_answer();
        *state = State::Answered;
        Ok(true)
    }

    /// Answers with a message only the caller sees.
    pub async fn send_private(&mut self, message: Outgoing) -> serenity::Result<()> {
        self.send(message, true).await
    }

    /// Answers with a message everyone in the channel sees.
    pub async fn send_public(&mut self, message: Public) -> serenity::Result<()> {
        self.send(message.0, false).await
    }

    /// Sends a message in answer: the interaction's response if none was sent yet, the deferred
    /// placeholder's content if it has the same visibility, a follow-up otherwise.
    async fn send(&mut self, message: Outgoing, is_ephemeral: bool) -> serenity::Result<()> {
        let sent = self.answer(message, is_ephemeral).await;
        match &sent {
            Ok(()) => self.target.first_answer(),
            Err(_) => self.failed = true,
        }
        sent
    }

    async fn answer(&self, message: Outgoing, is_ephemeral: bool) -> serenity::Result<()> {
        let mut state = self.state.lock().await;
        let token = &self.target.token;
        match *state {
            State::Fresh => {
                let answer = discord::CreateInteractionResponse::Message(message.into_response(is_ephemeral));
                counted(CALLBACK, answer.execute(self.http(), (self.target.id, token))).await?;
            }
            State::DeferredCommand { is_ephemeral: deferred } if deferred == is_ephemeral => {
                let pings = message.pings.clone();
                self.edit_original(message, Files::Kept).await?;
                // An edited message notifies nobody: the players to act get a ping of its own.
                if !is_ephemeral && !pings.is_empty() {
                    let mentions: Vec<String> = pings.iter().map(|id| format!("<@{id}>")).collect();
                    let ping = Outgoing {
                        content: format!("{} ↑", mentions.join(" ")),
                        pings,
                        ..Outgoing::default()
                    };
                    counted(FOLLOW_UP, ping.into_followup(false).execute(self.http(), (None, token))).await?;
                }
            }
            State::DeferredCommand { .. } => {
                // The placeholder has the wrong visibility. Discord makes the first follow-up
                // after a deferral the placeholder itself (ignoring its visibility), so the
                // placeholder is settled with neutral words first, then the answer goes beside
                // it, then the placeholder goes.
                self.edit_original(Outgoing::text("…"), Files::Kept).await?;
                let follow_up = message.into_followup(is_ephemeral);
                counted(FOLLOW_UP, follow_up.execute(self.http(), (None, token))).await?;
                counted(
                    "DELETE /webhooks/{app}/{token}/messages/@original",
                    self.http().delete_original_interaction_response(token),
                )
                .await?;
            }
            State::DeferredComponent | State::Answered => {
                let follow_up = message.into_followup(is_ephemeral);
                counted(FOLLOW_UP, follow_up.execute(self.http(), (None, token))).await?;
            }
        }
        *state = State::Answered;
        Ok(())
    }

    /// Edits the interaction's original response: a command's placeholder, or after a deferred
    /// click the message the clicked component is on.
    async fn edit_original(&self, message: Outgoing, files: Files) -> serenity::Result<()> {
        let mentions = message.allowed_mentions();
        let mut edit = discord::EditInteractionResponse::new();
        if files == Files::Replaced {
            edit = edit.clear_attachments();
        }
        let mut edit = edit
            .content(message.content)
            .components(message.components)
            .embeds(message.embeds)
            .allowed_mentions(mentions);
        for file in message.files {
            edit = edit.new_attachment(file);
        }
        counted(EDIT_ORIGINAL, edit.execute(self.http(), &self.target.token)).await?;
        Ok(())
    }

    /// Replaces the message whose component was clicked (removing its buttons, say), keeping
    /// its files; a private follow-up when there is no such message to edit.
    pub async fn update_clicked(&mut self, message: Outgoing) -> serenity::Result<()> {
        self.edit_clicked(message, Files::Kept).await
    }

    /// Replaces the message whose component was clicked, its files with the message's own (a
    /// board image drawn anew); a private follow-up when there is no such message to edit.
    pub async fn replace_clicked(&mut self, message: Outgoing) -> serenity::Result<()> {
        self.edit_clicked(message, Files::Replaced).await
    }

    async fn edit_clicked(&mut self, message: Outgoing, files: Files) -> serenity::Result<()> {
        if self.target.is_component {
            // An update in the first response would replace every attachment (a board image);
            // an edit after an acknowledgement leaves them as they are.
            self.acknowledge().await;
        }
        let mut state = self.state.lock().await;
        if *state == State::DeferredComponent {
            self.edit_original(message, files).await?;
            *state = State::Answered;
            return Ok(());
        }
        drop(state);
        self.send_private(message).await
    }

    pub async fn has_answered(&self) -> bool {
        *self.state.lock().await == State::Answered
    }
}

/// What an edit does with the files the message had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Files {
    /// They stay; the edit's own are added.
    Kept,
    /// They go; the edit's own take their place.
    Replaced,
}
