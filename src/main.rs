//! The `arbiter` command: the bot, local play, and tools over the rules engine.

mod cli;

use arbiter::arena::Arena;
use arbiter::clock::SystemClock;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser)]
#[command(name = "arbiter", version, about = "Arbiter: a host for unusual chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where games are stored.
#[derive(clap::Args)]
struct StorageArgs {
    /// A PostgreSQL (`postgres://...`) or SQLite (`sqlite://...`) database. Without one, games are
    /// kept in the embedded SQLite file arbiter.db in the data directory.
    #[arg(long, env = "DATABASE_URL")]
    database_url: Option<String>,
    /// Directory for the embedded database.
    #[arg(long, env = "ARBITER_DATA_DIR", default_value = "data")]
    data_dir: PathBuf,
}

/// Where the computer opponent thinks.
#[derive(clap::Args)]
struct ComputerArgs {
    /// How many games the computer may think about at once, each on a thread of its own (its
    /// thinking never runs on the threads that answer players).
    #[arg(long, env = "ARBITER_AI_THREADS", default_value_t = 1)]
    ai_threads: usize,
    /// How many of one server's games the computer may think about at once; the others wait
    /// their turn, in order.
    #[arg(long, env = "ARBITER_AI_PER_SERVER", default_value_t = 2)]
    ai_per_server: usize,
    /// How many positions the computer searches at each move of a finished game it analyses
    /// (`/analyse`): more is slower and surer.
    #[arg(long, env = "ARBITER_ANALYSIS_NODES", default_value_t = arbiter::arena::DEFAULT_ANALYSIS_NODES)]
    analysis_nodes: u64,
}

impl ComputerArgs {
    fn arena(&self, store: Arc<dyn arbiter::store::Store>) -> Arena {
        Arena::new(arbiter::store::with_deliberate_defects(store), Arc::new(SystemClock)).with_thinkers(
            arbiter::arena::Thinkers::new(self.ai_threads, self.ai_per_server).analysing_with(self.analysis_nodes),
        )
    }
}

/// Where each game's live page and stream overlay are served.
#[derive(clap::Args)]
struct WebArgs {
    /// Serve the games' live pages and stream overlays on this address (such as
    /// 127.0.0.1:8080); off when not given.
    #[arg(long = "web", env = "ARBITER_WEB_ADDR")]
    web_addr: Option<std::net::SocketAddr>,
    /// How links to the pages start when people reach them by another address (a name in front
    /// of the bot, such as https://arbiter.example.org); default: the address served.
    #[arg(long, env = "ARBITER_WEB_URL")]
    web_url: Option<String>,
    /// How many live pages' event streams may be open at once, in all; past it a page is
    /// answered 503 and tries again by itself.
    #[arg(long, env = "ARBITER_WEB_MAX_STREAMS", default_value_t = arbiter::web::DEFAULT_MAX_STREAMS,
          value_parser = at_least_one)]
    web_max_streams: usize,
    /// How many event streams one client address may hold open; past it, 429.
    #[arg(long, env = "ARBITER_WEB_MAX_STREAMS_PER_ADDR",
          default_value_t = arbiter::web::DEFAULT_MAX_STREAMS_PER_ADDR, value_parser = at_least_one)]
    web_max_streams_per_addr: usize,
    /// How long an event stream lasts, in seconds, before the server closes it and the page
    /// opens another (at most a week).
    #[arg(long, env = "ARBITER_WEB_STREAM_LIFETIME_SECS",
          default_value_t = arbiter::web::DEFAULT_STREAM_LIFETIME.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=7 * 24 * 3600))]
    web_stream_lifetime_secs: u64,
    /// Requests a second one client address may make to the pages, once its burst is spent;
    /// past it, 429 with Retry-After.
    #[arg(long, env = "ARBITER_WEB_RATE", default_value_t = arbiter::web::DEFAULT_RATE,
          value_parser = clap::value_parser!(u32).range(1..))]
    web_rate: u32,
    /// Requests one client address may make to the pages at once.
    #[arg(long, env = "ARBITER_WEB_BURST", default_value_t = arbiter::web::DEFAULT_BURST,
          value_parser = clap::value_parser!(u32).range(1..))]
    web_burst: u32,
    /// The reverse proxies in front of the pages, by IP address, comma-separated (such as
    /// 127.0.0.1,::1): only a request from one of them has its client read from
    /// X-Forwarded-For. Without it every connection's own address is its client.
    #[arg(long, env = "ARBITER_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_proxy)]
    trusted_proxies: Vec<std::net::IpAddr>,
}

impl WebArgs {
    /// The listening socket and the links' start, when the pages are on. A port in use stops
    /// the start-up with a message that names it.
    fn listen(&self) -> anyhow::Result<Option<arbiter::web::WebListener>> {
        let Some(addr) = self.web_addr else {
            return Ok(None);
        };
        let listener = arbiter::web::WebListener::bind(addr, self.web_url.as_deref())
            .map_err(|e| anyhow::anyhow!("cannot serve the live pages on {addr} (ARBITER_WEB_ADDR): {e}"))?;
        Ok(Some(listener.with_limits(self.limits())))
    }

    fn limits(&self) -> arbiter::web::WebLimits {
        let defaults = arbiter::web::WebLimits::default();
        arbiter::web::WebLimits {
            max_streams: self.web_max_streams,
            max_streams_per_addr: self.web_max_streams_per_addr,
            stream_lifetime: std::time::Duration::from_secs(self.web_stream_lifetime_secs),
            rate: std::num::NonZeroU32::new(self.web_rate).unwrap_or(defaults.rate),
            burst: std::num::NonZeroU32::new(self.web_burst).unwrap_or(defaults.burst),
            trusted_proxies: self.trusted_proxies.clone(),
        }
    }
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(count) if count >= 1 => Ok(count),
        _ => Err(format!("\"{text}\" is not a count of 1 or more")),
    }
}

fn parse_proxy(text: &str) -> Result<std::net::IpAddr, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("\"{text}\" is not an IP address (list the proxies' addresses, such as 127.0.0.1,::1)"))
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot until ctrl-c or SIGTERM.
    Bot {
        #[command(flatten)]
        storage: StorageArgs,
        #[command(flatten)]
        computer: ComputerArgs,
        #[command(flatten)]
        web: WebArgs,
        /// The bot's token (Discord developer portal, Bot page).
        #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
        token: String,
        /// Register the commands on this server only (they appear at once), for testing.
        #[arg(long, env = "DISCORD_GUILD_ID")]
        guild_id: Option<u64>,
        /// Members with this role (its id) may host Death Matches, besides those who can manage
        /// the server.
        #[arg(long, env = "DISCORD_HOST_ROLE_ID")]
        host_role: Option<u64>,
        /// Another address for Discord's API (a fake Discord for tests).
        #[arg(long, env = "DISCORD_API_BASE", hide = true)]
        api_base: Option<String>,
        /// How many shards the bot has in all, the same in every process (default `auto`: as
        /// many as Discord recommends, all in this process).
        #[arg(long, env = "DISCORD_SHARDS")]
        shards: Option<String>,
        /// The shards this process runs, as `0-1` or `2` (needs --shards); several processes
        /// on one PostgreSQL database split the shards between them.
        #[arg(long, env = "DISCORD_SHARD_RANGE")]
        shard_range: Option<String>,
        /// Serve /metrics (Prometheus), /healthz and /readyz on this address (such as
        /// 127.0.0.1:9100, kept off the public internet); without it they are not served at all.
        #[arg(long = "metrics", env = "ARBITER_METRICS_ADDR")]
        metrics_addr: Option<std::net::SocketAddr>,
    },
    /// Play in the terminal: commands from standard input, as any named user (type `help`).
    Local {
        #[command(flatten)]
        storage: StorageArgs,
        #[command(flatten)]
        computer: ComputerArgs,
        #[command(flatten)]
        web: WebArgs,
        /// Where board images are written (default: the `images` folder in the data directory).
        #[arg(long)]
        images: Option<PathBuf>,
        /// Print boards as text only, without writing images.
        #[arg(long)]
        no_images: bool,
    },
    /// Write a consistent copy of the embedded database to FILE, while the bot goes on running
    /// (PostgreSQL: use pg_dump, as the README shows).
    Backup {
        #[command(flatten)]
        storage: StorageArgs,
        /// The copy to write (it must not exist yet).
        file: PathBuf,
    },
    /// Check the set-up `bot` would run with and say what to fix: the token, Discord, the invite
    /// link, the database, the data folder, DISCORD_GUILD_ID and a channel's permissions. Exits
    /// 0 only when every check passes; changes nothing.
    Doctor {
        #[command(flatten)]
        storage: StorageArgs,
        /// The bot's token (Discord developer portal, Bot page).
        #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// The server the bot registers its commands on when testing: it must be on it.
        #[arg(long, env = "DISCORD_GUILD_ID")]
        guild_id: Option<String>,
        /// Another address for Discord's API (a fake Discord for tests).
        #[arg(long, env = "DISCORD_API_BASE", hide = true)]
        api_base: Option<String>,
        /// A channel (its id) to check the bot's permissions in.
        #[arg(long)]
        channel: Option<u64>,
        /// Where the bot would serve /metrics, /healthz and /readyz, as written (so that a
        /// malformed one is reported like any other problem).
        #[arg(long = "metrics", env = "ARBITER_METRICS_ADDR")]
        metrics_addr: Option<String>,
    },
    /// Count the leaf nodes of the legal move tree (perft); the count is the last line printed.
    Perft {
        #[command(flatten)]
        game: cli::GameArgs,
        /// Also print the count below each legal action of the root position.
        #[arg(long)]
        divide: bool,
        /// How many plies deep to count.
        depth: u32,
    },
    /// Draw a game record's animated replay (GIF), as its audience saw the game.
    Replay {
        /// The record: a PGN file of one game (what `/export` writes).
        record: PathBuf,
        /// The GIF file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Go through a game record with the computer, as `/analyse` does: each side's summary and
    /// the turning points with the better move.
    Analyse {
        /// The record: a PGN file of one game (what `/export` writes, or any chess PGN).
        record: PathBuf,
        /// How many positions to search at each move.
        #[arg(long, default_value_t = arbiter::arena::DEFAULT_ANALYSIS_NODES)]
        nodes: u64,
        /// Write the record with its evaluations (`[%eval]`) and judgements (`?!`, `?`, `??`) here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Draw the evaluation graph (PNG) here.
        #[arg(long)]
        graph: Option<PathBuf>,
    },
    /// Draw the board image (PNG) of a position as one viewer sees it.
    Render {
        #[command(flatten)]
        game: cli::GameArgs,
        /// Whose view: a player's (their side at the bottom, their secrets shown) or a spectator's.
        #[arg(long, value_enum, default_value = "spectator")]
        viewer: cli::ViewerArg,
        /// Show the legal moves of the piece on this square as dots.
        #[arg(long)]
        dots: Option<String>,
        /// Also write the SVG text to this file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// The PNG file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Measure speed: prints the numbers, asserts nothing.
    #[command(subcommand)]
    Bench(cli::bench::BenchCommand),
    /// List the legal actions of a seat, one per line, in notation that --moves accepts.
    Legal {
        #[command(flatten)]
        game: cli::GameArgs,
        /// Whose actions to list (default: the seat to act; the first one during a simultaneous choice).
        #[arg(long, value_enum)]
        seat: Option<cli::SeatArg>,
    },
    /// The one action the computer opponent would take now for a seat, from that seat's view,
    /// written as `legal` writes it; nothing when that seat has nothing to do.
    Ai {
        #[command(flatten)]
        game: cli::GameArgs,
        /// Whose action (default: the seat to act; the first one during a simultaneous choice).
        #[arg(long, value_enum)]
        seat: Option<cli::SeatArg>,
        /// easy, normal or hard.
        #[arg(long, default_value = "normal", value_parser = parse_level)]
        level: arbiter_engine::ai::Level,
        /// What tells one game from another (its lists, easy's whims): the same seed, the same action.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Games between players of given strengths: a line per game (result, actions), then
    /// `white W, draws D, black B`.
    AiMatch {
        /// A hosted variant, by its id.
        #[arg(long)]
        variant: String,
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// The first seat's player: ai:easy, ai:normal, ai:hard, random, greedy, or a UCI engine
        /// as uci:PROGRAM (with its arguments: "uci:arbiter uci").
        #[arg(long)]
        white: cli::ai::Player,
        /// The second seat's player.
        #[arg(long)]
        black: cli::ai::Player,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also print each game's actions (a line after its result), to replay with --moves.
        #[arg(long)]
        show_moves: bool,
        /// Write each game's record (PGN) into this folder, as game-1.pgn, game-2.pgn, ... (to
        /// replay, import or analyse).
        #[arg(long)]
        records: Option<PathBuf>,
        /// The time a UCI player is given for each move (`go movetime`), in milliseconds.
        #[arg(long, default_value_t = 100)]
        uci_movetime: u64,
        /// An option set on the UCI players before the first game, NAME=VALUE (repeatable):
        /// `--uci-option "Skill Level=5"`.
        #[arg(long, value_parser = parse_uci_option)]
        uci_option: Vec<(String, String)>,
    },
    /// Serve the computer opponent as a UCI engine on standard input and output (docs/uci.md),
    /// for GUIs, cutechess-cli and lichess-bot. Each game UCI can play is a UCI_Variant.
    Uci,
}

fn parse_uci_option(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("\"{text}\" is not NAME=VALUE"))?;
    if name.trim().is_empty() {
        return Err(format!("\"{text}\" names no option"));
    }
    Ok((name.trim().to_string(), value.trim().to_string()))
}

fn parse_level(text: &str) -> Result<arbiter_engine::ai::Level, String> {
    arbiter_engine::ai::Level::parse(text).ok_or_else(|| format!("\"{text}\" is not a level: easy, normal or hard"))
}

fn main() -> ExitCode {
    // Settings may come from a .env file; a missing file is fine. `ARBITER_NO_DOTENV` turns the
    // file off, so a program that starts this one (the tests) decides every setting itself.
    if std::env::var_os("ARBITER_NO_DOTENV").is_none_or(|value| value.is_empty()) {
        let _ = dotenvy::dotenv();
    }
    let cli = Cli::parse();
    arbiter::logging::init(arbiter::logging::default_filter(matches!(
        cli.command,
        Command::Bot { .. }
    )));
    let result = run(cli.command);
    match result {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("arbiter: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one command of the command line; what it prints when it succeeds.
fn run(command: Command) -> anyhow::Result<String> {
    match command {
        Command::Bot {
            storage,
            computer,
            web,
            token,
            guild_id,
            host_role,
            api_base,
            shards,
            shard_range,
            metrics_addr,
        } => arbiter::discord::Shards::parse(shards.as_deref(), shard_range.as_deref())
            .map_err(anyhow::Error::msg)
            .and_then(|shards| {
                let config = arbiter::discord::Config {
                    token,
                    guild_id,
                    api_base,
                    host_role,
                    shards,
                    web: None,
                    metrics: None,
                    attachments: arbiter::discord::FetchTimeouts::default(),
                };
                run_bot(&storage, &computer, &web, metrics_addr, config)
            })
            .map(|()| String::new()),
        Command::Local {
            storage,
            computer,
            web,
            images,
            no_images,
        } => {
            let images = (!no_images).then(|| images.unwrap_or_else(|| storage.data_dir.join("images")));
            run_local(&storage, &computer, &web, images).map(|()| String::new())
        }
        Command::Backup { storage, file } => back_up(&storage, &file),
        Command::Doctor {
            storage,
            token,
            guild_id,
            api_base,
            channel,
            metrics_addr,
        } => runtime().and_then(|rt| {
            rt.block_on(cli::doctor::run(cli::doctor::Settings {
                storage: describe_storage(&storage),
                database_url: storage.database_url,
                data_dir: storage.data_dir,
                token,
                guild_id,
                api_base,
                channel,
                metrics_addr,
            }))
        }),
        Command::Perft { game, divide, depth } => cli::perft(&game, depth, divide),
        Command::Legal { game, seat } => cli::legal(&game, seat),
        Command::Replay { record, out } => cli::replay::replay(&record, &out),
        Command::Analyse {
            record,
            nodes,
            out,
            graph,
        } => cli::analyse::analyse(&record, nodes, out.as_deref(), graph.as_deref()),
        Command::Ai {
            game,
            seat,
            level,
            seed,
        } => cli::ai::choose(&game, seat, level, seed),
        Command::AiMatch {
            variant,
            games,
            white,
            black,
            seed,
            show_moves,
            records,
            uci_movetime,
            uci_option,
        } => {
            let uci = cli::ai::UciSettings {
                movetime: std::time::Duration::from_millis(uci_movetime),
                options: uci_option,
            };
            cli::ai::ai_match(
                &variant,
                games,
                [white, black],
                seed,
                show_moves,
                records.as_deref(),
                &uci,
                &mut std::io::stdout(),
            )
            .map(|()| String::new())
        }
        Command::Uci => {
            let out: arbiter::uci::engine::Output = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
            arbiter::uci::engine::serve(std::io::stdin().lock(), out)?;
            Ok(String::new())
        }
        Command::Render {
            game,
            viewer,
            dots,
            svg,
            out,
        } => cli::render(&game, viewer, dots.as_deref(), &out, svg.as_deref()),
        Command::Bench(command) => cli::bench::run(command),
    }
}

/// `arbiter backup FILE`: a copy of the database, and how to put it back.
fn back_up(storage: &StorageArgs, file: &std::path::Path) -> anyhow::Result<String> {
    runtime().and_then(|rt| {
        let games = rt.block_on(arbiter::store::back_up(
            storage.database_url.as_deref(),
            &storage.data_dir,
            file,
        ))?;
        let bytes = std::fs::metadata(file).map_or(0, |m| m.len());
        let database = storage.database_url.as_deref().map_or_else(
            || arbiter::store::embedded_file(&storage.data_dir).display().to_string(),
            |_| "the database file".to_string(),
        );
        Ok(format!(
            "Backed up {games} game{} to {} ({:.1} MiB).\nTo restore it: stop the bot, put the copy in place of \
                 {database} (removing any -wal and -shm files beside it), start the bot.\n",
            if games == 1 { "" } else { "s" },
            file.display(),
            bytes as f64 / (1024.0 * 1024.0),
        ))
    })
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    // Two workers at least, even on one core: serenity's shard runner can spin on one while it
    // waits for a close frame from a gateway connection already gone, and the other must still
    // run the timers that bound the stop.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()?)
}

fn run_bot(
    storage: &StorageArgs,
    computer: &ComputerArgs,
    web: &WebArgs,
    metrics_addr: Option<std::net::SocketAddr>,
    mut config: arbiter::discord::Config,
) -> anyhow::Result<()> {
    raise_open_file_limit();
    let runtime = runtime()?;
    let result = runtime.block_on(async {
        config.web = web.listen()?;
        config.metrics = match metrics_addr {
            Some(addr) => Some(
                arbiter::web::WebListener::bind(addr, None)
                    .map_err(|e| anyhow::anyhow!("cannot serve the metrics on {addr} (ARBITER_METRICS_ADDR): {e}"))?,
            ),
            None => None,
        };
        // ctrl-c and SIGTERM stop the bot in every state, opening the database included.
        let (stop, stopping) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown_signal().await;
            tracing::info!("asked to stop");
            stop.send_replace(true);
        });
        let stopped = move || {
            let mut stopping = stopping.clone();
            async move {
                let _ = stopping.wait_for(|stop| *stop).await;
            }
        };
        tracing::info!("opening the database: {}", describe_storage(storage));
        let store = tokio::select! {
            store = arbiter::store::open(storage.database_url.as_deref(), &storage.data_dir) => store?,
            () = stopped() => return Ok(()),
        };
        tracing::info!("database ready, its migrations applied");
        let arena = computer.arena(store);
        arbiter::discord::run(config, arena, stopped()).await
    });
    // Work still running (a request to Discord, a drawing) gets a moment to end, no more.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    result
}

/// Where games are kept, for the start-up log: never a password (neither before the host nor in
/// the parameters after it).
fn describe_storage(storage: &StorageArgs) -> String {
    match storage
        .database_url
        .as_deref()
        .map(|url| url.split('?').next().unwrap_or(url))
    {
        Some(url) => match (url.split_once("://"), url.rsplit_once('@')) {
            (Some((scheme, _)), Some((_, place))) => format!("{scheme}://…@{place}"),
            _ => url.to_string(),
        },
        None => format!(
            "the embedded SQLite file {}",
            storage.data_dir.join("arbiter.db").display()
        ),
    }
}

/// Raises this process's soft limit on open files to its hard limit, and says so once: every
/// live page's event stream, like every connection, holds a file, and the usual soft limit
/// (1,024) would stop the pages accepting anyone long before their caps refuse a flood.
#[cfg(unix)]
fn raise_open_file_limit() {
    let before = rlimit::Resource::NOFILE.get();
    match (before, rlimit::increase_nofile_limit(u64::MAX)) {
        (Ok((soft, hard)), Ok(now)) if now > soft => {
            tracing::info!("open files: soft limit raised from {soft} to {now} (hard limit {hard})");
        }
        (Ok((soft, hard)), Ok(_)) => tracing::info!("open files: soft limit {soft} (hard limit {hard})"),
        (Err(error), _) | (_, Err(error)) => {
            tracing::warn!(%error, "could not raise the open-file limit; the live pages may run out of files under load");
        }
    }
}

/// Elsewhere there is no such limit to raise.
#[cfg(not(unix))]
fn raise_open_file_limit() {}

/// Completes on ctrl-c or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; only ctrl-c stops the bot");
                let _ = interrupt.await;
                return;
            }
        };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

fn run_local(
    storage: &StorageArgs,
    computer: &ComputerArgs,
    web: &WebArgs,
    images: Option<PathBuf>,
) -> anyhow::Result<()> {
    runtime()?.block_on(async {
        let store = arbiter::store::open(storage.database_url.as_deref(), &storage.data_dir).await?;
        let arena = computer.arena(store);
        let stdin = tokio::io::BufReader::new(tokio::io::stdin());
        let mut stdout = std::io::stdout();
        let images = images.map(arbiter::local::ImageFiles::new);
        // The pages stop when the terminal's input ends.
        let (stop_pages, pages_stopped) = tokio::sync::oneshot::channel::<()>();
        let pages = match web.listen()? {
            Some(listening) => {
                raise_open_file_limit();
                let base = listening.base.clone();
                let pages = Arc::new(arbiter::web::Web::new(
                    arena.clone(),
                    Arc::new(arbiter::web::DisplayNames),
                    base.clone(),
                ));
                eprintln!("Serving the live pages at {base} (type `watch` for a game's links).");
                tokio::spawn(pages.clone().serve(&listening, async {
                    let _ = pages_stopped.await;
                })?);
                Some(pages)
            }
            None => None,
        };
        let played = arbiter::local::run_with_web(&arena, stdin, &mut stdout, images.as_ref(), pages.as_deref()).await;
        let _ = stop_pages.send(());
        played
    })
}
