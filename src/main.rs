//! The `arbiter` command: the bot, local play, and tools over the rules engine.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "arbiter", version, about = "Arbiter: a host for unusual chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    /// List the legal actions of a seat, one per line, in notation that --moves accepts.
    Legal {
        #[command(flatten)]
        game: cli::GameArgs,
        /// Whose actions to list (default: the seat to act; the first one during a simultaneous choice).
        #[arg(long, value_enum)]
        seat: Option<cli::SeatArg>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft { game, divide, depth } => cli::perft(&game, depth, divide),
        Command::Legal { game, seat } => cli::legal(&game, seat),
    };
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
