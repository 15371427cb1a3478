//! A command as every transport knows it: its words, its options, how the terminal writes it,
//! and, for a command the command layer answers itself, how ([`Run`]): a transport reads what
//! the player wrote into its options and hands them to the answer. A command declared this way
//! is in Discord and the terminal, and in the help of both, with nothing written for either.

use super::Ask;
use super::options::{Args, Opt};
use crate::arena::{ArenaError, Effects};
use std::future::Future;
use std::pin::Pin;

/// One command.
pub struct Command {
    /// Discord's `/name` (a subcommand is `"group sub"`), or the terminal's word for a command
    /// only the terminal has.
    pub name: &'static str,
    /// What it does, in a line on every transport (Discord's description: at most 100 characters).
    pub summary: &'static str,
    /// Its options as Discord names, describes and types them (each at most 100 characters).
    pub options: &'static [Opt],
    /// Whether Discord has it as a slash command (others are buttons there, or the terminal's own).
    pub in_discord: bool,
    /// How the terminal writes it, when it has it.
    pub terminal: Option<Terminal>,
    /// How the command layer answers it on every transport, when it does (see [`Run`]); a
    /// command without one is read by each transport itself.
    pub run: Option<Run>,
}

/// A command in the terminal: the words that call it, how it is written, and what more there is
/// to know there beyond its summary.
pub struct Terminal {
    pub words: &'static [&'static str],
    pub usage: &'static str,
    pub more: &'static str,
}

/// Commands grouped as a player meets them.
pub struct Section {
    pub heading: &'static str,
    pub commands: &'static [Command],
}

/// A command on every transport.
pub const fn everywhere(
    name: &'static str,
    summary: &'static str,
    options: &'static [Opt],
    terminal: Terminal,
) -> Command {
    Command {
        name,
        summary,
        options,
        in_discord: true,
        terminal: Some(terminal),
        run: None,
    }
}

/// A slash command with no terminal form of its own: a setting of a Discord server, or a
/// subcommand, which the terminal writes after its group's word when the command layer answers
/// it (`tournament join t3`).
pub const fn discord_only(name: &'static str, summary: &'static str, options: &'static [Opt]) -> Command {
    Command {
        name,
        summary,
        options,
        in_discord: true,
        terminal: None,
        run: None,
    }
}

/// A command only the terminal types (Discord has a button for it, or no need of it).
pub const fn terminal_only(summary: &'static str, options: &'static [Opt], terminal: Terminal) -> Command {
    Command {
        name: terminal.words[0],
        summary,
        options,
        in_discord: false,
        terminal: Some(terminal),
        run: None,
    }
}

impl Command {
    /// The option of this command named `name`: what it is.
    pub fn option(&self, name: &str) -> Option<&'static str> {
        self.options.iter().find(|opt| opt.name == name).map(|opt| opt.about)
    }

    /// The same command, answered by the command layer on every transport.
    pub const fn answered_by(self, run: Run) -> Command {
        Command { run: Some(run), ..self }
    }
}

pub const fn written(words: &'static [&'static str], usage: &'static str, more: &'static str) -> Terminal {
    Terminal { words, usage, more }
}

/// What a command answers: its effects, or why nothing happened.
pub type Answer<'a> = Pin<Box<dyn Future<Output = Result<Effects, ArenaError>> + Send + 'a>>;

/// Suggestions for what a player is typing into an option, best first.
pub type Suggestions<'a> = Pin<Box<dyn Future<Output = Vec<String>> + Send + 'a>>;

/// How the command layer answers a command.
#[derive(Clone, Copy)]
pub struct Run {
    /// Asks the arena, with the options as written.
    pub answer: for<'a> fn(Ask<'a>, Args) -> Answer<'a>,
    /// Whether only the asker sees the answer (a board with their own secrets, their moves).
    pub private: bool,
    /// What to suggest for its text option as the player types (the text typed so far is in
    /// `Args`, under that option's name).
    pub suggest: Option<for<'a> fn(Ask<'a>, Args) -> Suggestions<'a>>,
    /// Whether the asker is asked as a possible host of the server (a host's command: the
    /// transport finds out whether they host there) rather than as a player.
    pub hosts: bool,
    /// Whether it only has a meaning on a server (Discord refuses it in a direct message; the
    /// terminal is a server of its own).
    pub on_a_server: bool,
}

impl Run {
    /// A command whose answer everyone in the place sees.
    pub const fn public(answer: for<'a> fn(Ask<'a>, Args) -> Answer<'a>) -> Run {
        Run {
            answer,
            private: false,
            suggest: None,
            hosts: false,
            on_a_server: false,
        }
    }

    /// A command whose answer only the asker sees.
    pub const fn private(answer: for<'a> fn(Ask<'a>, Args) -> Answer<'a>) -> Run {
        Run {
            private: true,
            ..Run::public(answer)
        }
    }

    /// The same command, on a server only.
    pub const fn on_a_server(self) -> Run {
        Run {
            on_a_server: true,
            ..self
        }
    }

    /// The same command, asked by a possible host (and on a server only).
    pub const fn for_hosts(self) -> Run {
        Run {
            hosts: true,
            on_a_server: true,
            ..self
        }
    }

    /// The same command, suggesting what to write as the player types.
    pub const fn suggesting(self, suggest: for<'a> fn(Ask<'a>, Args) -> Suggestions<'a>) -> Run {
        Run {
            suggest: Some(suggest),
            ..self
        }
    }
}
