//! Performing the arena's effects on Discord: public posts with the board image and buttons,
//! private answers, and secret prompts by DM, with a fallback in the game's thread when a player
//! has closed their DMs.

use super::Delivery;
use super::direct::NotSent;
use super::posting::Patience;
use crate::arena::{Button, DirectMessage, Effects, Post, text};
use crate::discord::counted::counted;
use crate::discord::ids;
use crate::discord::respond::{Outgoing, Public, Responder};
use crate::discord::widgets::{button_row, choice_components, fit, post_components, write_list_button};
use crate::ids::Place;
use crate::logging::Quiet;
use serenity::all as discord;

impl Delivery<'_> {
    /// A tournament round just paired: each game gets a thread of its own in its channel and
    /// moves there (a game whose thread Discord refuses stays in the channel), then the round's
    /// announcement, which links the threads, joins the posts.
    pub async fn open_round(&self, effects: &mut Effects) -> anyhow::Result<()> {
        let Some(round) = effects.paired_round.clone() else {
            return Ok(());
        };
        let arena = &self.data.arena;
        for &game in &round.games {
            let Some(facts) = arena.facts(game).await? else {
                continue;
            };
            let mut location = facts.location.clone();
            if let Some(channel) = ids::channel(&facts.location) {
                let names = self.names_of(facts.seated.iter().flatten()).await;
                let name = format!(
                    "#{game} round {} · {}: {}",
                    round.round,
                    facts.variant.name(),
                    names.join(" vs ")
                );
                match self.new_thread(channel, &name).await {
                    Ok(thread) => location = thread,
                    Err(error) => tracing::warn!(game = %game, %error, "could not open a thread for a tournament game"),
                }
            }
            // Every game of the round moves (if only to where it is), so all stay at one version
            // and the buttons under their first posts work.
            let moved = arena.relocate(game, &location).await?;
            effects.version = moved.version;
            for post in effects.posts.iter_mut().filter(|p| p.game == Some(game)) {
                post.location = location.clone();
            }
        }
        let announcement = arena
            .tournaments()
            .round_announcement(round.tournament, round.round)
            .await?;
        if let (Some(web), Some(first)) = (&self.data.web, announcement.posts.first()) {
            // The audience's links, in a post of their own beside the announcement (a long
            // round's would not fit in it).
            let mut lines = Vec::new();
            for &game in &round.games {
                if let Ok(links) = web.links(game).await {
                    lines.push(format!("#{game}: {}", links.page));
                }
            }
            if !lines.is_empty() {
                let mut links = first.clone();
                links.text = format!("Watch round {} live:\n{}", round.round, lines.join("\n"));
                links.game = None;
                links.board = None;
                links.mentions = Vec::new();
                links.buttons = Vec::new();
                links.table = None;
                links.countdown = None;
                effects.posts.extend(announcement.posts);
                effects.posts.push(links);
                return Ok(());
            }
        }
        effects.posts.extend(announcement.posts);
        Ok(())
    }

    /// A Death Match's first post carries its live page's links when the pages are on.
    async fn add_watch_links(&self, effects: &mut Effects) {
        let (Some(web), Some(game)) = (&self.data.web, effects.watch_links) else {
            return;
        };
        let Some(lines) = web.link_lines(game).await else {
            return;
        };
        if let Some(post) = effects.posts.iter_mut().find(|post| post.game == Some(game)) {
            post.text = format!("{}\n{lines}", post.text);
        }
    }

    /// A game that began at once (against the computer) gets a thread of its own in its channel
    /// and moves there, and the channel hears where it is played; a game whose thread Discord
    /// refuses (asked for inside a thread, say) stays where it is.
    pub async fn open_own_place(&self, effects: &mut Effects) -> anyhow::Result<()> {
        let Some(game) = effects.own_place else {
            return Ok(());
        };
        let arena = &self.data.arena;
        let Some(facts) = arena.facts(game).await? else {
            return Ok(());
        };
        let Some(channel) = ids::channel(&facts.location) else {
            return Ok(());
        };
        let names = self.names_of([&facts.challenger, &facts.opponent]).await;
        let name = format!("#{game} {}: {}", facts.variant.name(), names.join(" vs "));
        let thread = match self.new_thread(channel, &name).await {
            Ok(thread) => thread,
            Err(error) => {
                tracing::warn!(game = %game, %error, "could not open a thread for a game against the computer");
                return Ok(());
            }
        };
        let moved = arena.relocate(game, &thread).await?;
        effects.version = moved.version;
        for post in effects.posts.iter_mut().filter(|p| p.game == Some(game)) {
            post.location = thread.clone();
        }
        let text = format!(
            "Game #{game} · {}: {} plays {} in {}.",
            facts.variant.name(),
            text::user(&facts.challenger),
            text::user(&facts.opponent),
            text::where_played(&thread)
        );
        effects.posts.insert(0, Post::plain(Some(game), &facts.location, text));
        Ok(())
    }

    /// Players by the names Discord shows.
    async fn names_of(&self, players: impl IntoIterator<Item = &crate::ids::UserId>) -> Vec<String> {
        let mut names = Vec::new();
        for player in players {
            names.push(match ids::discord_user(player) {
                Some(id) => self.data.names.name_of(self.http, id).await,
                None => player.display_name().to_string(),
            });
        }
        names
    }

    /// A public thread of its own in `channel` for a game, named `name` (cut to Discord's 100
    /// characters), archived after a week of silence.
    async fn new_thread(&self, channel: discord::ChannelId, name: &str) -> serenity::Result<Place> {
        let builder = discord::CreateThread::new(name.chars().take(100).collect::<String>())
            .kind(discord::ChannelType::PublicThread)
            .auto_archive_duration(discord::AutoArchiveDuration::OneWeek);
        let thread = counted("POST /channels/{id}/threads", channel.create_thread(self.http, builder)).await?;
        Ok(ids::location(thread.id))
    }

    /// A public post as a message: text, board image, buttons, and pings for the players to act.
    pub async fn post_message(&self, post: &Post, version: Option<i64>) -> anyhow::Result<Public> {
        let mut message = Outgoing::text(&post.text);
        if let Some(board) = &post.board {
            message.files.push(self.board_file(board).await?);
        }
        if let Some(table) = &post.table {
            message.files.push(self.table_file(table).await?);
        }
        if let Some(version) = version {
            message.components = post_components(post, version);
        }
        message.pings = post.mentions.iter().filter_map(ids::discord_user).collect();
        if let Some(countdown) = &post.countdown {
            // Discord shows a relative timestamp counting down by itself.
            message.content = fit(&format!(
                "{}\n{} <t:{}:R>.",
                message.content,
                crate::discord::markdown::render(&countdown.what),
                countdown.at / 1000
            ));
        }
        Ok(Public::post(message))
    }

    /// Performs `effects`: the post made where the interaction happened becomes its public
    /// answer, other posts go to their channels, the private reply is ephemeral, prompts go by
    /// DM. The responder always ends up answered.
    pub async fn perform(&self, effects: &Effects, here: &Place, responder: &mut Responder) -> anyhow::Result<()> {
        let mut effects = effects.clone();
        self.add_watch_links(&mut effects).await;
        self.open_round(&mut effects).await?;
        self.open_own_place(&mut effects).await?;
        let effects = &effects;
        let public_analysis = effects.analysis.as_ref().is_some_and(|report| !report.private);
        let answers_publicly =
            effects.replay.is_some() || public_analysis || effects.posts.iter().any(|p| p.location == *here);
        responder.expect_private(!answers_publicly);
        if let Some(report) = &effects.analysis {
            // Built from the spectators' view unless it is private: then for its asker alone.
            let message = self.analysis_message(report).await?;
            if report.private {
                responder.send_private(message).await?;
            } else {
                responder.send_public(Public::post(message)).await?;
            }
        }
        if let Some(replay) = &effects.replay {
            // Built from the spectators' view: anyone where it was asked may watch it.
            let message = self.replay_message(replay).await?;
            responder.send_public(Public::post(message)).await?;
        }
        for post in &effects.posts {
            if post.location == *here && !responder.has_answered().await {
                let message = self.post_message(post, effects.version).await?;
                responder.send_public(message).await?;
                // Posts sent elsewhere record this themselves.
                if let (Some(game), Some(version)) = (post.game, effects.version) {
                    self.shown(game, version).await;
                }
            } else if let Err(error) = self.post_to_game(post, effects.version, Patience::Brief).await {
                // The change is saved and the player is answered; the other posts and the DMs
                // still go.
                tracing::error!(game = ?post.game, error = %crate::logging::Quiet(error.as_ref()), "could not post in a game's place");
            }
        }
        if let Some(reply) = &effects.reply {
            let mut message = Outgoing::text(&reply.text);
            if let Some(board) = &reply.board {
                message.files.push(self.reply_board_file(board, &reply.text).await?);
            }
            responder.send_private(message).await?;
        }
        self.direct_messages(effects).await;
        if !responder.has_answered().await {
            responder.send_private(Outgoing::text("Done.")).await?;
        }
        Ok(())
    }

    /// Sends each secret prompt by DM; a player whose DMs are closed is told in the game's place
    /// (without a word about the choice) to use the "Choose privately" button instead. One that
    /// cannot go is logged, not fatal: the change is saved, the player acting is still answered,
    /// and the player prompted can still make the choice with `/move` (answered privately).
    pub async fn direct_messages(&self, effects: &Effects) {
        let Some(version) = effects.version else {
            return;
        };
        for prompt in &effects.direct_messages {
            if let Err(error) = self.send_prompt(prompt, version).await {
                tracing::error!(game = %prompt.game, error = %Quiet(error.as_ref()), "could not send a private prompt");
            }
        }
    }

    /// Sends one prompt, private news or reminder (made at the game's `version`) by DM. When the
    /// player's DMs are closed, the game's place says so without a word of what it was, and its
    /// **Choose privately** button shows it to them alone.
    pub async fn send_prompt(&self, prompt: &DirectMessage, version: i64) -> anyhow::Result<()> {
        let Some(user) = ids::discord_user(&prompt.to) else {
            return Ok(());
        };
        let message = self.prompt_message(prompt, version).await?;
        match self.send_dm(user, message).await {
            Ok(()) => Ok(()),
            Err(failure) => {
                if let NotSent::Failed(error) = &failure {
                    tracing::warn!(game = %prompt.game, %user, error = %Quiet(error), "a DM could not be sent");
                }
                self.dm_fallback(prompt, user, version).await
            }
        }
    }

    /// A prompt or private news: its text, the player's own board, and its choices (buttons when
    /// there are a few short ones, like accept and reject; menus otherwise). For its reader alone.
    pub async fn prompt_message(&self, prompt: &DirectMessage, version: i64) -> anyhow::Result<Outgoing> {
        self.prompt_page(prompt, version, 0).await
    }

    /// `prompt_message`, showing the `page`th page of its choices where they take several.
    pub async fn prompt_page(&self, prompt: &DirectMessage, version: i64, page: usize) -> anyhow::Result<Outgoing> {
        let text = prompt.text.reveal();
        let mut message = if prompt.asks_for_list {
            Outgoing::text(format!(
                "{text}\nUse the **Write your list** button below (one piece a line), **Draw a list for me** for \
                 a list the rules accept, or `/list` with the text, a text file or a saved list's name. You can \
                 send it again until your opponent's is in."
            ))
        } else {
            Outgoing::text(text)
        };
        if let Some(board) = &prompt.board {
            message.files.push(self.board_file(board).await?);
        }
        message.components = if prompt.asks_for_list {
            write_list_button(prompt.game, version)
        } else {
            choice_components(prompt, version, page)
        };
        Ok(message)
    }

    /// Tells a player whose DMs are closed, in the game's place, that something waits for them
    /// there, behind the **Choose privately** button (never what it is). A reminder, whose line
    /// is public in the game's place already, becomes a ping there instead.
    async fn dm_fallback(&self, prompt: &DirectMessage, user: discord::UserId, version: i64) -> anyhow::Result<()> {
        let Some(location) = self.data.arena.facts(prompt.game).await?.map(|facts| facts.location) else {
            return Ok(());
        };
        let Some(channel) = ids::channel(&location) else {
            return Ok(());
        };
        if prompt.is_reminder {
            let text = format!(
                "<@{user}>, I could not send you a direct message: {}",
                prompt.text.reveal()
            );
            return Ok(self.send_briefly(channel, Public::notice(text, vec![user])).await?);
        }
        let what = if prompt.choices.is_empty() && !prompt.asks_for_list {
            "you have private news in game #{game}: the **Choose privately** button below shows it to you alone"
        } else {
            "use the **Choose privately** button below to make your secret choice in game #{game}: only you will see it"
        };
        let text = format!(
            "<@{user}>, I could not send you a direct message; {}.",
            what.replace("{game}", &prompt.game.to_string())
        );
        let notice = Public::notice(text, vec![user]).with_components(button_row(
            &[Button::ChoosePrivately],
            prompt.game,
            version,
        ));
        Ok(self.send_briefly(channel, notice).await?)
    }
}
