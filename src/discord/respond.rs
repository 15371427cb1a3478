//! Answering one interaction. Discord wants an answer within 3 seconds and then allows follow-ups
//! for 15 minutes; a `Responder` keeps track of which of the two the next message must be.

use serenity::all as discord;
use serenity::all::Builder;
use std::future::Future;
use std::time::Duration;

/// After this long without a result, the interaction is deferred so Discord's 3 seconds never run
/// out (the arena and the renderer normally answer in milliseconds).
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// A message for Discord: text, files, components and whom it may ping.
#[derive(Default)]
pub struct Outgoing {
    pub content: String,
    pub files: Vec<discord::CreateAttachment>,
    pub components: Vec<discord::CreateActionRow>,
    pub embeds: Vec<discord::CreateEmbed>,
    /// The only users the message pings; everyone else it names is shown without a ping.
    pub pings: Vec<discord::UserId>,
}

impl Outgoing {
    pub fn text(content: impl Into<String>) -> Outgoing {
        Outgoing {
            content: content.into(),
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

/// One interaction to answer: a slash command or a component click.
pub struct Responder<'a> {
    http: &'a discord::Http,
    id: discord::InteractionId,
    token: String,
    is_component: bool,
    state: State,
    /// When the interaction arrived (as near as the bot can tell).
    started: std::time::Instant,
}

impl<'a> Responder<'a> {
    fn new(http: &'a discord::Http, id: discord::InteractionId, token: &str, is_component: bool) -> Responder<'a> {
        Responder {
            http,
            id,
            token: token.to_string(),
            is_component,
            state: State::Fresh,
            started: std::time::Instant::now(),
        }
    }

    pub fn for_command(http: &'a discord::Http, interaction: &discord::CommandInteraction) -> Responder<'a> {
        Responder::new(http, interaction.id, &interaction.token, false)
    }

    pub fn for_component(http: &'a discord::Http, interaction: &discord::ComponentInteraction) -> Responder<'a> {
        Responder::new(http, interaction.id, &interaction.token, true)
    }

    /// For a form sent back (a modal submit), answered like a command.
    pub fn for_modal(http: &'a discord::Http, interaction: &discord::ModalInteraction) -> Responder<'a> {
        Responder::new(http, interaction.id, &interaction.token, false)
    }

    /// Opens a form (a modal) in answer: only as the interaction's first response. False when
    /// it was answered already (the caller then offers the form's button instead).
    pub async fn open_form(&mut self, form: discord::CreateModal) -> serenity::Result<bool> {
        if self.state != State::Fresh {
            return Ok(false);
        }
        discord::CreateInteractionResponse::Modal(form)
            .execute(self.http, (self.id, &self.token))
            .await?;
        self.state = State::Answered;
        Ok(true)
    }

    /// Runs `work`, deferring the interaction if it takes longer than [`DEFER_AFTER`], so the
    /// answer is never late however slow the database is.
    pub async fn within_deadline<T>(&mut self, work: impl Future<Output = T>, is_ephemeral: bool) -> T {
        tokio::pin!(work);
        tokio::select! {
            done = &mut work => done,
            () = tokio::time::sleep(DEFER_AFTER) => {
                if let Err(error) = self.defer(is_ephemeral).await {
                    tracing::warn!(%error, "could not defer a slow interaction");
                }
                work.await
            }
        }
    }

    async fn defer(&mut self, is_ephemeral: bool) -> serenity::Result<()> {
        if self.state != State::Fresh {
            return Ok(());
        }
        let response = if self.is_component {
            discord::CreateInteractionResponse::Acknowledge
        } else {
            discord::CreateInteractionResponse::Defer(
                discord::CreateInteractionResponseMessage::new().ephemeral(is_ephemeral),
            )
        };
        response.execute(self.http, (self.id, &self.token)).await?;
        self.state = if self.is_component {
            State::DeferredComponent
        } else {
            State::DeferredCommand { is_ephemeral }
        };
        Ok(())
    }

    /// Sends a message in answer: the interaction's response if none was sent yet, the deferred
    /// placeholder's content if it has the same visibility, a follow-up otherwise.
    pub async fn send(&mut self, message: Outgoing, is_ephemeral: bool) -> serenity::Result<()> {
        match self.state {
            State::Fresh => {
                discord::CreateInteractionResponse::Message(message.into_response(is_ephemeral))
                    .execute(self.http, (self.id, &self.token))
                    .await?;
            }
            State::DeferredCommand { is_ephemeral: deferred } if deferred == is_ephemeral => {
                let pings = message.pings.clone();
                self.edit_original(message).await?;
                // An edited message notifies nobody: the players to act get a ping of its own.
                if !is_ephemeral && !pings.is_empty() {
                    let mentions: Vec<String> = pings.iter().map(|id| format!("<@{id}>")).collect();
                    let ping = Outgoing {
                        content: format!("{} ↑", mentions.join(" ")),
                        pings,
                        ..Outgoing::default()
                    };
                    ping.into_followup(false)
                        .execute(self.http, (None, &self.token))
                        .await?;
                }
            }
            State::DeferredCommand { .. } => {
                // The placeholder has the wrong visibility. Discord makes the first follow-up
                // after a deferral the placeholder itself (ignoring its visibility), so the
                // placeholder is settled with neutral words first, then the answer goes beside
                // it, then the placeholder goes.
                self.edit_original(Outgoing::text("…")).await?;
                message
                    .into_followup(is_ephemeral)
                    .execute(self.http, (None, &self.token))
                    .await?;
                self.http.delete_original_interaction_response(&self.token).await?;
            }
            State::DeferredComponent | State::Answered => {
                message
                    .into_followup(is_ephemeral)
                    .execute(self.http, (None, &self.token))
                    .await?;
            }
        }
        self.state = State::Answered;
        Ok(())
    }

    /// Edits the interaction's original response: a command's placeholder, or after a deferred
    /// click the message the clicked component is on.
    async fn edit_original(&self, message: Outgoing) -> serenity::Result<()> {
        let mentions = message.allowed_mentions();
        let mut edit = discord::EditInteractionResponse::new()
            .content(message.content)
            .components(message.components)
            .embeds(message.embeds)
            .allowed_mentions(mentions);
        for file in message.files {
            edit = edit.new_attachment(file);
        }
        edit.execute(self.http, &self.token).await?;
        Ok(())
    }

    /// Defers now if the interaction is close to Discord's 3 seconds and still unanswered (work
    /// after the arena's, such as drawing or Discord calls, can take time too).
    pub async fn defer_if_late(&mut self, is_ephemeral: bool) {
        if self.state == State::Fresh
            && self.started.elapsed() >= DEFER_AFTER
            && let Err(error) = self.defer(is_ephemeral).await
        {
            tracing::warn!(%error, "could not defer a slow interaction");
        }
    }

    /// Replaces the message whose component was clicked (removing its buttons, say), as the
    /// answer to the click; a follow-up if the click was answered already.
    pub async fn update_clicked(&mut self, message: Outgoing) -> serenity::Result<()> {
        if self.state == State::DeferredComponent {
            self.edit_original(message).await?;
            self.state = State::Answered;
            return Ok(());
        }
        if self.state != State::Fresh || !self.is_component {
            return self.send(message, true).await;
        }
        discord::CreateInteractionResponse::UpdateMessage(message.into_response(false))
            .execute(self.http, (self.id, &self.token))
            .await?;
        self.state = State::Answered;
        Ok(())
    }

    /// Like [`Responder::update_clicked`], for a message with files to keep (a board image):
    /// an interaction's update replaces every attachment, so the click is acknowledged first
    /// and the message edited, which leaves its files as they are.
    pub async fn update_clicked_keeping_files(&mut self, message: Outgoing) -> serenity::Result<()> {
        if self.state == State::Fresh && self.is_component {
            self.defer(true).await?;
        }
        self.update_clicked(message).await
    }

    pub fn has_answered(&self) -> bool {
        self.state == State::Answered
    }
}
