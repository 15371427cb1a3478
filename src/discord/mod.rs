//! The Discord transport: slash commands, buttons and menus turned into arena requests, and the
//! arena's effects turned into Discord messages. It holds no game state of its own: a button or
//! menu carries its game and version in its custom id, so everything works after a restart.

mod announce;
pub mod attachments;
mod autocomplete;
mod choices;
mod choosing;
mod commands;
mod components;
mod counted;
mod delivery;
mod guided;
mod hosts;
mod ids;
mod invite;
mod markdown;
mod names;
mod pace;
mod refusals;
mod respond;
mod startup;
mod threads;
mod widgets;

pub use announce::COUNTS as ANNOUNCEMENTS;
pub use attachments::FetchTimeouts;
pub use autocomplete::best_matches;
pub use components::{Click, read_click};
pub use ids::Component;
pub use invite::{channel_permissions, invite_link};
pub use startup::{Shards, with_causes};

use crate::arena::{Arena, ArenaError, Effects};
use crate::ids::Place;
use crate::render::Renderer;
use delivery::Delivery;
use names::Names;
use respond::{Outgoing, Responder};
use serenity::all as discord;
use std::future::Future;

/// Every slash command, as registered with Discord, described in the words of the catalog.
fn all_commands() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        commands::challenge(),
        commands::practice(),
        commands::games(),
        commands::rules(),
        commands::list(),
        commands::lists(),
        commands::piece(),
        commands::export(),
        commands::import(),
        commands::replay(),
        commands::analyse(),
        commands::watch(),
        commands::settings(),
        commands::deathmatch(),
        commands::tournament(),
        commands::help(),
    ];
    commands::describe(&mut commands);
    commands::add_declared(&mut commands);
    commands
}

/// What the bot needs to run.
#[derive(Clone)]
pub struct Config {
    pub token: String,
    /// Register the commands on this server only (they appear at once; global registration can
    /// take up to an hour), for testing.
    pub guild_id: Option<u64>,
    /// Another address for Discord's API and gateway, such as a fake Discord in tests
    /// (`http://127.0.0.1:PORT`).
    pub api_base: Option<String>,
    /// Members with this role may host Death Matches (as may those who can manage the server).
    pub host_role: Option<u64>,
    /// Which shards this process runs.
    pub shards: Shards,
    /// Where the live pages are served, when they are on.
    pub web: Option<crate::web::WebListener>,
    /// Where `/metrics`, `/healthz` and `/readyz` are served (`ARBITER_METRICS_ADDR`); without
    /// it, nowhere (never beside the live pages, which are public).
    pub metrics: Option<crate::web::WebListener>,
    /// How long fetching a file players attach may take (`FetchTimeouts::default()`: 5 s to
    /// connect, 20 s in all).
    pub attachments: FetchTimeouts,
}

/// The token never reaches a log.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("token", &"(hidden)")
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .field("host_role", &self.host_role)
            .field("shards", &self.shards)
            .field("web", &self.web.as_ref().map(|web| &web.base))
            .field("attachments", &self.attachments)
            .finish()
    }
}

/// Shared by every command and event.
pub struct Data {
    pub arena: Arena,
    pub renderer: Renderer,
    pub names: std::sync::Arc<Names>,
    pub host_role: Option<u64>,
    pub limits: std::sync::Arc<crate::rate_limits::RateLimits>,
    /// Discord's rate limits, shared by everything this bot sends.
    pub pace: std::sync::Arc<pace::Pace>,
    /// Users' DM channels, and whose DMs are closed.
    pub direct: std::sync::Arc<delivery::DirectChannels>,
    /// The bot's own user: the computer, in the games it plays.
    pub me: crate::ids::UserId,
    /// The live pages, when they are served.
    pub web: Option<std::sync::Arc<crate::web::Web>>,
    /// Whether the bot is ready, as `/readyz` tells: the gateway's events feed it.
    pub health: std::sync::Arc<crate::health::Health>,
    /// Fetches the files players attach, with one client for the bot's life.
    pub attachments: std::sync::Arc<attachments::Attachments>,
}

impl Data {
    /// What a process running `share` of the bot's shards needs (its share of Discord's budget).
    fn new(
        arena: Arena,
        host_role: Option<u64>,
        share: f64,
        me: crate::ids::UserId,
        health: std::sync::Arc<crate::health::Health>,
        attachments: std::sync::Arc<attachments::Attachments>,
    ) -> Data {
        let pace = std::sync::Arc::new(pace::Pace::for_share(share));
        Data {
            names: std::sync::Arc::new(Names::new(arena.clone(), pace.clone())),
            arena,
            renderer: Renderer::new(),
            host_role,
            limits: std::sync::Arc::default(),
            pace,
            direct: std::sync::Arc::default(),
            me,
            web: None,
            health,
            attachments,
        }
    }

    fn share(&self) -> Data {
        Data {
            arena: self.arena.clone(),
            renderer: self.renderer.clone(),
            names: self.names.clone(),
            host_role: self.host_role,
            limits: self.limits.clone(),
            pace: self.pace.clone(),
            direct: self.direct.clone(),
            me: self.me.clone(),
            web: self.web.clone(),
            health: self.health.clone(),
            attachments: self.attachments.clone(),
        }
    }
}

pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What users are told when something fails on our side (the details go to the log).
const APOLOGY: &str = "Sorry, something went wrong on our side. Please try again in a moment.";

/// Runs the bot until `shutdown` completes, or until something retrying cannot fix (a refused
/// token, commands Discord refuses) ends it with an error that says what to change. Shutdown is
/// prompt whatever the bot is doing: waiting for Discord, registering, or running.
pub async fn run(
    config: Config,
    arena: Arena,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let (stop, stopping) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        stop.send_replace(true);
    });
    let stopped = || {
        let mut stopping = stopping.clone();
        async move {
            // An error means the sender is gone, which only happens once it has sent.
            let _ = stopping.wait_for(|stop| *stop).await;
        }
    };
    let health = crate::health::Health::new(arena.vitals());
    if let startup::Shards::Range { first, last, .. } = config.shards {
        health.expect_shards(last - first + 1);
    }
    // /metrics, /healthz and /readyz, served from the start (alive, and why not ready while
    // Discord is not reached yet), only on the address the operator gave them.
    let _sampling = serve_operations(config.metrics, &health, stopped())?;
    let http = http_client(&config.token, config.api_base.as_deref());
    let attachments = std::sync::Arc::new(attachments::Attachments::new(config.attachments)?);
    tracing::info!("connecting to Discord, running {}", config.shards.describe());
    let user = tokio::select! {
        user = startup::sign_in(&http) => user?,
        () = stopped() => return Ok(()),
    };
    tracing::info!("signed in to Discord as {}", user.name);
    let guild = config.guild_id.map(discord::GuildId::new);
    if config.shards.runs_first() {
        tokio::select! {
            registered = register_commands(&http, guild) => registered?,
            () = stopped() => return Ok(()),
        }
    }
    let host_role = config.host_role;
    let web_listener = config.web;
    let web_stop = stopped();
    let cleans_up = guild.is_none() && config.shards.runs_first();
    let shows_news = config.shards.runs_first();
    let share = config.shards.share();
    let (announce, announcements) = tokio::sync::mpsc::channel(256);
    // What players do on their own pages is announced as the clocks' news is.
    let pages_announce = announce.clone();
    // The announcer's task, once the bot is connected: a stop waits for what it has queued.
    let announcer_task: std::sync::Arc<std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>> = Default::default();
    let announcer_slot = announcer_task.clone();
    // Every process runs a scheduler: they share the deadlines through the database, each
    // claimed by one of them.
    let scheduler = tokio::spawn(
        crate::scheduler::Scheduler::new(arena.clone(), crate::ids::Places::starting_with("discord:"))
            .with_health(health.clone())
            .run(announce, std::future::pending()),
    );
    let framework = poise::Framework::builder()
        .options(framework_options())
        .setup(move |ctx, ready, _framework| {
            Box::pin(async move {
                tracing::info!(guilds = ready.guilds.len(), "connected to Discord; ready for players");
                if cleans_up {
                    let guilds: Vec<discord::GuildId> = ready.guilds.iter().map(|g| g.id).collect();
                    let http = ctx.http.clone();
                    tokio::spawn(async move { startup::remove_server_commands(&http, &guilds).await });
                }
                if let Some(shard) = ready.shard {
                    health.expect_shards(shard.total);
                }
                health.shard(ctx.shard_id.0, true);
                let mut data = Data::new(arena, host_role, share, ids::user(ready.user.id), health, attachments);
                if let Some(listening) = web_listener {
                    data.web = Some(serve_pages(&ctx.http, &data, &listening, web_stop, pages_announce)?);
                }
                let announcing = tokio::spawn(announce_deadlines(
                    ctx.http.clone(),
                    data.share(),
                    announcements,
                    shows_news,
                ));
                *announcer_task.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(announcing);
                Ok(data)
            })
        })
        .build();
    let intents = discord::GatewayIntents::GUILDS;
    let mut client = discord::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    let shards = client.shard_manager.clone();
    let connected = async {
        match config.shards {
            startup::Shards::Automatic => client.start_autosharded().await,
            // serenity's range runs from `start` to `end` inclusive.
            startup::Shards::Range { first, last, total } => client.start_shard_range(first..last, total).await,
        }
    };
    let ended = tokio::select! {
        result = connected => result.map_err(|error| anyhow::anyhow!(startup::explain_gateway_error(&error))),
        () = stopped() => {
            tracing::info!("shutting down");
            if tokio::time::timeout(std::time::Duration::from_secs(5), shards.shutdown_all()).await.is_err() {
                tracing::warn!("the gateway connections did not close within 5 s; leaving anyway");
            }
            Ok(())
        }
    };
    scheduler.abort();
    let announcing = announcer_slot
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    deliver_queued(announcing).await;
    ended
}

/// The commands, and what runs around each: the log line, the rate limit, the error answer.
fn framework_options() -> poise::FrameworkOptions<Data, Error> {
    poise::FrameworkOptions {
        commands: all_commands(),
        event_handler: |framework, event| Box::pin(on_event(framework.serenity_context, event, framework.user_data)),
        on_error: |error| Box::pin(on_error(error)),
        pre_command: |ctx| {
            Box::pin(async move {
                tracing::debug!(
                    command = %ctx.command().qualified_name,
                    user = %ctx.author().id,
                    server = ?ctx.guild_id().map(|id| id.get()),
                    "a command"
                );
            })
        },
        // Commands only: suggestions as you type are not counted. A server's hosts, who may
        // adjudicate a whole round at once, are not limited in its host commands (and only
        // in those, on that server).
        command_check: Some(|ctx| {
            Box::pin(async move {
                if ctx.invocation_data::<Counted>().await.is_some() {
                    return Ok(true);
                }
                ctx.set_invocation_data(Counted).await;
                if hosts::is_host_command(&ctx.command().qualified_name)
                    && commands::Caller::of(ctx)
                        .with_host_status(ctx.data())
                        .await
                        .hosts_server
                {
                    return Ok(true);
                }
                match ctx
                    .data()
                    .limits
                    .refusal(&ids::user(ctx.author().id), ctx.data().arena.now())
                {
                    Some(refusal) => Err(anyhow::anyhow!(refusal)),
                    None => Ok(true),
                }
            })
        }),
        initialize_owners: false,
        ..Default::default()
    }
}

/// Registers the commands with Discord: on one server when `guild` is given (they appear at
/// once), else globally.
async fn register_commands(http: &discord::Http, guild: Option<discord::GuildId>) -> anyhow::Result<()> {
    let commands = poise::builtins::create_application_commands(&all_commands());
    startup::register(http, commands, guild).await?;
    match guild {
        Some(guild) => tracing::info!("commands registered on server {guild} (DISCORD_GUILD_ID)"),
        None => tracing::info!("commands registered globally (Discord may take up to an hour to show them)"),
    }
    Ok(())
}

/// Serves `/metrics`, `/healthz` and `/readyz` on the operators' address, sampling what metrics
/// need while the returned guard lives. Without an address they are not served, and nothing is
/// recorded or sampled.
fn serve_operations(
    metrics: Option<crate::web::WebListener>,
    health: &std::sync::Arc<crate::health::Health>,
    stopped: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<Option<crate::health::Sampling>> {
    let Some(listening) = metrics else {
        return Ok(None);
    };
    let sampling = health.start_sampling();
    tracing::info!("serving /metrics, /healthz and /readyz at {}", listening.base);
    let operations = crate::health::router(health.clone());
    tokio::spawn(crate::health::serve(operations, listening.listener()?, stopped));
    Ok(Some(sampling))
}

/// Serves the games' live pages, which name players as Discord does.
fn serve_pages(
    http: &std::sync::Arc<discord::Http>,
    data: &Data,
    listening: &crate::web::WebListener,
    stop: impl Future<Output = ()> + Send + 'static,
    announce: tokio::sync::mpsc::Sender<Effects>,
) -> anyhow::Result<std::sync::Arc<crate::web::Web>> {
    let base = listening.base.clone();
    let names = std::sync::Arc::new(names::PageNames {
        http: http.clone(),
        names: data.names.clone(),
    });
    let web = crate::web::Web::new(data.arena.clone(), names, base.clone()).with_rate_limits(data.limits.clone());
    web.announce_to(announce);
    let web = std::sync::Arc::new(web);
    tracing::info!("serving the live pages at {base}");
    tokio::spawn(web.clone().serve(listening, stop)?);
    Ok(web)
}

/// Waits for the announcer (the scheduler is gone, so its queue closes): what it holds still goes
/// out, unless Discord keeps refusing it for longer than a stop should take.
async fn deliver_queued(announcing: Option<tokio::task::JoinHandle<()>>) {
    if let Some(announcing) = announcing
        && tokio::time::timeout(DELIVERY_ON_STOP, announcing).await.is_err()
    {
        tracing::warn!("announcements still queued after {DELIVERY_ON_STOP:?}; leaving them to the next start");
    }
}

/// A client for Discord's API with `token`, at `api_base` when given (a fake Discord in tests).
pub fn http_client(token: &str, api_base: Option<&str>) -> discord::Http {
    let mut http = discord::HttpBuilder::new(token);
    if let Some(base) = api_base {
        // serenity honours a proxy only with its rate limiter off.
        http = http.proxy(base).ratelimiter_disabled(true);
    }
    http.build()
}

/// How long a stopping bot waits for its queued announcements (what is not out by then is shown
/// at the next start, as after a crash).
const DELIVERY_ON_STOP: std::time::Duration = std::time::Duration::from_secs(10);

/// Hands what the clocks announce (warnings, forfeits, resumed matches) to the announcer, which
/// never makes the clocks wait. First, if `shows_news` (one process of several does), shows
/// each game whose latest news a crash kept from its players.
async fn announce_deadlines(
    http: std::sync::Arc<discord::Http>,
    data: Data,
    mut announcements: tokio::sync::mpsc::Receiver<Effects>,
    shows_news: bool,
) {
    let arena = data.arena.clone();
    let announcer = announce::Announcer::new(http, data);
    if shows_news {
        match arena
            .watching()
            .unshown_news(&crate::ids::Places::starting_with("discord:"))
            .await
        {
            Ok(news) => {
                if !news.is_empty() {
                    tracing::info!(
                        games = news.len(),
                        "showing games whose latest change was not posted before a stop"
                    );
                }
                for effects in news {
                    announcer.announce(effects);
                }
            }
            Err(error) => {
                tracing::error!(error = %crate::logging::Quiet(&error), "could not look for games with news not posted")
            }
        }
    }
    while let Some(effects) = announcements.recv().await {
        announcer.announce(effects);
    }
    // The scheduler has stopped: deliver what it announced before returning.
    announcer.delivered().await;
}

/// Buttons, menus and forms arrive as events; commands and autocomplete go through poise.
async fn on_event(ctx: &discord::Context, event: &discord::FullEvent, data: &Data) -> Result<(), Error> {
    match event {
        discord::FullEvent::InteractionCreate {
            interaction: discord::Interaction::Component(component),
        } => {
            tracing::debug!(user = %component.user.id, server = ?component.guild_id.map(|id| id.get()), "a click");
            components::on_component(&ctx.http, data, component).await
        }
        discord::FullEvent::InteractionCreate {
            interaction: discord::Interaction::Modal(form),
        } => components::on_form(&ctx.http, data, form).await,
        discord::FullEvent::Ready { .. } => data.health.shard(ctx.shard_id.0, true),
        discord::FullEvent::ShardStageUpdate { event } => data
            .health
            .shard(event.shard_id.0, event.new == discord::ConnectionStage::Connected),
        // serenity's own rate limiter waited (only with Discord itself: a test's fake Discord
        // turns it off, and its 429s reach the bot's retries, counted there).
        discord::FullEvent::Ratelimit { data: limited } => crate::telemetry::rate_limited(limited.global),
        discord::FullEvent::ThreadUpdate { new, .. } => threads::on_thread_update(&ctx.http, data, new).await,
        discord::FullEvent::ThreadDelete { thread, .. } => threads::on_thread_delete(&ctx.http, data, thread).await,
        _ => {}
    }
    Ok(())
}

/// Errors poise reports: a command's own failures are answered where they happen, so what arrives
/// here is a malformed invocation (answered with a hint) or a fault of ours (logged).
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::ArgumentParse { ctx, error, .. } => {
            crate::telemetry::interaction(&ctx.command().name, crate::telemetry::Outcome::Unreadable);
            let text = format!("I could not read that: {error}. Check the command's options and try again.");
            let reply = poise::CreateReply::default().content(text).ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::warn!(error = %e, "could not answer a malformed command");
            }
        }
        // Discord sent options this version of the command does not have: a client that still
        // shows the command as it was before an update (or a malformed payload).
        poise::FrameworkError::CommandStructureMismatch { ctx, description, .. } => {
            crate::telemetry::interaction(&ctx.command().name, crate::telemetry::Outcome::Unreadable);
            tracing::warn!(command = %ctx.command().name, description, "a command's options did not match it");
            let text = "I could not read that command: Discord may still show it as it was before my last update. \
                        Wait a minute (or restart Discord) and try again.";
            let reply = poise::CreateReply::default().content(text).ephemeral(true);
            if let Err(e) = poise::Context::Application(ctx).send(reply).await {
                tracing::warn!(error = %e, "could not answer a mismatched command");
            }
        }
        poise::FrameworkError::CommandCheckFailed {
            ctx,
            error: Some(error),
            ..
        } => {
            crate::telemetry::interaction(&ctx.command().name, crate::telemetry::Outcome::RateLimited);
            let reply = poise::CreateReply::default().content(error.to_string()).ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::warn!(error = %e, "could not ask a user to slow down");
            }
        }
        poise::FrameworkError::Command { ctx, error, .. } => {
            tracing::error!(command = %ctx.command().name, error = %crate::logging::Quiet(error.as_ref()), "command failed");
            let reply = poise::CreateReply::default().content(APOLOGY).ephemeral(true);
            let _ = ctx.send(reply).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "could not report an error");
            }
        }
    }
}

/// Answers an interaction with the outcome of an arena request: effects performed, a user's
/// mistake explained privately, a fault of ours logged (never with the request's text, which may
/// hold a secret choice) and apologised for.
async fn answer(
    http: &discord::Http,
    data: &Data,
    result: Result<Effects, ArenaError>,
    here: &Place,
    responder: &mut Responder,
) {
    let delivered = match result {
        Ok(effects) => Delivery { http, data }.perform(&effects, here, responder).await,
        Err(error) => return refuse(error, responder).await,
    };
    if let Err(error) = delivered {
        tracing::error!(error = %crate::logging::Quiet(error.as_ref()), "could not deliver an answer");
        if !responder.has_answered().await {
            let _ = responder.send_private(Outgoing::text(APOLOGY)).await;
        }
    }
}

/// Answers a refused request privately: a user's mistake explained, a fault of ours logged and
/// apologised for.
async fn refuse(error: ArenaError, responder: &mut Responder) {
    let text = if error.is_user_error() {
        format!("⚠️ {error}")
    } else {
        tracing::error!(error = %crate::logging::Quiet(&error), "a request failed");
        APOLOGY.to_string()
    };
    if let Err(error) = responder.send_private(Outgoing::text(text)).await {
        tracing::error!(error = %crate::logging::Quiet(&error), "could not deliver an answer");
    }
}

/// Marks a command's invocation as counted already: poise runs the framework's check once for
/// each level of a subcommand's tree (`deathmatch`, then `deathmatch start`), and a command
/// counts once, whatever its depth.
struct Counted;

#[cfg(test)]
mod tests {
    use super::{Config, all_commands};

    /// Every string option (at any depth of subcommands), as `command/option` with its
    /// `max_length`.
    fn string_options(options: &[serde_json::Value], path: &str, found: &mut Vec<(String, Option<u64>)>) {
        for option in options {
            let name = format!("{path}/{}", option["name"].as_str().unwrap_or("?"));
            match option["type"].as_u64() {
                Some(3) => found.push((name, option["max_length"].as_u64())),
                Some(1 | 2) => string_options(option["options"].as_array().map_or(&[], |o| o), &name, found),
                _ => {}
            }
        }
    }

    #[test]
    fn every_text_option_has_a_length_limit_discord_enforces() {
        let mut found = Vec::new();
        for command in all_commands() {
            let Some(created) = command.create_as_slash_command() else {
                continue;
            };
            let json = serde_json::to_value(created).unwrap();
            string_options(json["options"].as_array().map_or(&[], |o| o), &command.name, &mut found);
        }
        assert!(found.len() >= 15, "the walk finds the text options: {found:?}");
        let unbounded: Vec<&String> = found.iter().filter(|(_, max)| max.is_none()).map(|(n, _)| n).collect();
        assert!(unbounded.is_empty(), "text options without a max_length: {unbounded:?}");
        // Discord's own ceiling for an option is 6,000 characters.
        assert!(found.iter().all(|(_, max)| max.unwrap_or(0) <= 6000), "{found:?}");
    }

    /// Every command, subcommand and option registered is described in the catalog, in Discord's
    /// limits, and every command the catalog gives Discord is registered: one description of each.
    #[test]
    fn every_command_and_option_is_described_by_the_catalog_and_nothing_else() {
        let mut registered = Vec::new();
        for command in all_commands() {
            let group = command.name.to_string();
            let subs = command
                .subcommands
                .iter()
                .map(|sub| (format!("{group} {}", sub.name), sub));
            for (name, command) in std::iter::once((group.clone(), &command)).chain(subs) {
                let described = crate::commands::catalog::in_discord(&name)
                    .unwrap_or_else(|| panic!("/{name} is not in the catalog"));
                assert_eq!(command.description.as_deref(), Some(described.summary), "/{name}");
                assert!(
                    (1..=100).contains(&described.summary.chars().count()),
                    "/{name}'s description"
                );
                let options: Vec<&str> = command.parameters.iter().map(|p| &*p.name).collect();
                let catalogued: Vec<&str> = described.options.iter().map(|o| o.name).collect();
                assert_eq!(options, catalogued, "/{name}'s options, in order");
                for (parameter, opt) in command.parameters.iter().zip(described.options) {
                    let about = parameter.description.as_deref().unwrap_or_default();
                    assert!((1..=100).contains(&about.chars().count()), "/{name} {}", parameter.name);
                    assert_registered_as_described(&name, parameter, opt);
                }
                registered.push(name);
            }
        }
        let unregistered: Vec<&str> = crate::commands::catalog::all()
            .filter(|command| command.in_discord && !registered.iter().any(|name| name == command.name))
            .map(|command| command.name)
            .collect();
        assert!(
            unregistered.is_empty(),
            "in the catalog for Discord, not registered: {unregistered:?}"
        );
    }

    /// The option Discord is told of has the kind, the choices and the need the catalog says.
    fn assert_registered_as_described(
        command: &str,
        parameter: &poise::CommandParameter<super::Data, super::Error>,
        opt: &crate::commands::options::Opt,
    ) {
        use crate::commands::options::Kind;
        let registered = serde_json::to_value(parameter.create_as_slash_command_option().unwrap()).unwrap();
        let kind = match opt.kind {
            Kind::Text => 3,
            Kind::Number | Kind::Game | Kind::Tournament | Kind::OneOf(_) | Kind::Variant => 4,
            Kind::Flag => 5,
            Kind::User => 6,
            Kind::Role => 8,
            Kind::File => 11,
        };
        let what = format!("/{command} {}", opt.name);
        assert_eq!(registered["type"], kind, "{what}: {registered}");
        assert_eq!(registered["required"], opt.required, "{what}");
        let shown: Vec<&str> = registered["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|choice| choice["name"].as_str().unwrap())
            .collect();
        match opt.kind {
            Kind::OneOf(choices) => {
                let described: Vec<&str> = choices.iter().map(|choice| choice.shown).collect();
                assert_eq!(shown, described, "{what}'s choices");
            }
            Kind::Variant => assert!(!shown.is_empty(), "{what} lists the games"),
            _ => assert!(shown.is_empty(), "{what} has no choices"),
        }
    }

    #[test]
    fn the_configuration_never_prints_its_token() {
        let config = Config {
            token: "MTIzNDU2.secret-token".into(),
            web: None,
            guild_id: Some(7),
            api_base: None,
            host_role: None,
            shards: super::Shards::Automatic,
            metrics: None,
            attachments: Default::default(),
        };
        let printed = format!("{config:?}");
        assert!(
            !printed.contains("secret-token") && printed.contains("(hidden)"),
            "{printed}"
        );
    }
}
