//! `arbiter bench ...`: the benchmarks, each printing its numbers and asserting nothing.

use crate::runtime;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Arena throughput and per-move latency (no images): concurrent chess games, every move a
    /// full request. Runs on a scratch SQLite file, and on PostgreSQL when given one.
    Arena {
        /// How many games play at once (each plays 40 moves).
        #[arg(long, default_value_t = 50)]
        games: usize,
        /// A PostgreSQL server to measure too; the benchmark works in a schema of its own and
        /// drops it afterwards.
        #[arg(long)]
        postgres: Option<String>,
        /// Record the metrics as the bot does (off: no recorder, as in a process that serves
        /// none): run once each way to see what they cost.
        #[arg(long)]
        metrics: bool,
    },
    /// Death Match clocks: many matches whose reserves run out spread over a span; how late each
    /// forfeit fires, and the CPU the schedulers use. SQLite, and PostgreSQL when given.
    Clocks {
        #[arg(long, default_value_t = 1000)]
        matches: usize,
        /// The span the deadlines are spread over, in seconds.
        #[arg(long, default_value_t = 60)]
        spread: u64,
        /// Schedulers running at once on PostgreSQL (each claims with SKIP LOCKED).
        #[arg(long, default_value_t = 2)]
        schedulers: usize,
        #[arg(long)]
        postgres: Option<String>,
    },
    /// The scheduler under a correspondence load: many games on one day per move, their
    /// reminders and forfeits falling due as a real day brings them; how late each fires and
    /// what serving them costs. On PostgreSQL when given one, else on a scratch SQLite file.
    Correspondence {
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// How long to serve the load, in seconds.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// Events already due this many minutes at the start (a backlog, as after downtime).
        #[arg(long, default_value_t = 10)]
        backlog: i64,
        #[arg(long)]
        postgres: Option<String>,
    },
    /// How long a player waits for the verdict on a 20-piece list of their own pieces, and for
    /// its sheet of diagrams.
    Lists {
        #[arg(long, default_value_t = 20)]
        iterations: usize,
    },
    /// The computer opponent's search: positions visited in a time from a position, one thread.
    Search {
        #[command(flatten)]
        game: super::GameArgs,
        /// How long to search, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        millis: u64,
        /// Also search the same position, for as long, with a UCI engine (uci:PROGRAM, as in
        /// ai-match), and print its figures on the next line.
        #[arg(long)]
        vs: Option<super::ai::Player>,
    },
    /// Replays: drawing time and size of a 93-frame chess replay and a 200-action 10x10 one.
    Replay {
        #[arg(long, default_value_t = 10)]
        iterations: usize,
    },
    /// The live pages: how soon a move reaches a page's event stream, and the memory of many
    /// open streams (on a scratch SQLite file).
    Web {
        #[arg(long, default_value_t = 100)]
        moves: usize,
        #[arg(long, default_value_t = 1000)]
        streams: usize,
    },
    /// Playing by clicks: from a click on a player's page (its request) to the thread's post
    /// (its text and board image ready to send) and to the spectators' page, p50 and p99.
    Clicks {
        #[arg(long, default_value_t = 200)]
        moves: usize,
    },
    /// Board image speed and size (an 8x8 and a 10x10 position, view to PNG bytes), then the
    /// memory the image caches take: resident memory before and after many images of each game.
    Render {
        #[arg(long, default_value_t = 200)]
        iterations: usize,
        /// Images of each game drawn for the memory figure (0 leaves it out).
        #[arg(long, default_value_t = 1000)]
        images_per_game: usize,
    },
}

/// `arbiter bench ...`: one benchmark, and its report.
pub fn run(command: BenchCommand) -> anyhow::Result<String> {
    match command {
        BenchCommand::Search { game, millis, vs } => super::ai::bench_search(&game, millis, vs.as_ref()),
        BenchCommand::Render {
            iterations,
            images_per_game,
        } => arbiter::bench::render(iterations, images_per_game),
        BenchCommand::Replay { iterations } => arbiter::bench::web::replay(iterations),
        BenchCommand::Web { moves, streams } => {
            runtime().and_then(|rt| rt.block_on(arbiter::bench::web::streams(moves, streams)))
        }
        BenchCommand::Clicks { moves } => runtime().and_then(|rt| rt.block_on(arbiter::bench::web::clicks(moves))),
        BenchCommand::Lists { iterations } => arbiter::bench::lists::run(iterations),
        BenchCommand::Clocks {
            matches,
            spread,
            schedulers,
            postgres,
        } => runtime().and_then(|rt| {
            rt.block_on(arbiter::bench::clocks_everywhere(
                postgres.as_deref(),
                matches,
                std::time::Duration::from_secs(spread),
                schedulers,
            ))
        }),
        BenchCommand::Correspondence {
            games,
            seconds,
            backlog,
            postgres,
        } => runtime().and_then(|rt| {
            let load = arbiter::bench::correspondence::Load {
                games,
                seconds,
                backlog_minutes: backlog,
            };
            rt.block_on(arbiter::bench::correspondence_everywhere(postgres.as_deref(), load))
        }),
        BenchCommand::Arena {
            games,
            postgres,
            metrics,
        } => runtime().and_then(|rt| rt.block_on(arbiter::bench::arena(postgres.as_deref(), games, metrics))),
    }
}
