//! `/help`: every command in the words Discord shows (the catalog's, given to each command as it
//! is registered), or one command with its options. Read from the registered commands, so it
//! never falls behind them.

use super::run;
use crate::arena::Effects;
use crate::discord::{Context, Data, Error};
use serenity::all as discord;

type Command = poise::Command<Data, Error>;

#[poise::command(slash_command)]
pub async fn help(
    ctx: Context<'_>,
    #[max_length = 60]
    #[autocomplete = "command_names"]
    command: Option<String>,
) -> Result<(), Error> {
    let commands = &ctx.framework().options().commands;
    let asked = command.unwrap_or_default();
    let name = asked.trim().trim_start_matches('/');
    let text = if name.is_empty() {
        overview(commands)
    } else {
        explain(commands, name).unwrap_or_else(|| {
            format!(
                "There is no /{name}. The commands are {}; `/help` lists them with what they do.",
                commands
                    .iter()
                    .map(|c| format!("/{}", c.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    };
    run(ctx, true, |_| async move { Ok(Effects::reply(text)) }).await
}

/// Suggestions as you type: the commands and subcommands whose name holds what was typed.
async fn command_names(ctx: Context<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let typed = typed.trim().trim_start_matches('/').to_lowercase();
    let commands = &ctx.framework().options().commands;
    let choices = commands
        .iter()
        .flat_map(|command| std::iter::once(command).chain(&command.subcommands))
        .map(|command| command.qualified_name.to_string())
        .filter(|name| name.contains(&typed))
        .take(25)
        .map(|name| discord::AutocompleteChoice::new(format!("/{name}"), name))
        .collect();
    discord::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Discord's limit on a message's length, in characters.
const MESSAGE_LIMIT: usize = 2000;

/// One line a command: its name (with its subcommands) and what it does; when that does not fit
/// in one message, what it does in its first words (`/help command` has the rest).
pub fn overview(commands: &[Command]) -> String {
    let full = overview_with(commands, description);
    if full.chars().count() <= MESSAGE_LIMIT {
        return full;
    }
    overview_with(commands, |command| first_clause(description(command)))
}

fn overview_with<'a>(commands: &'a [Command], describe: impl Fn(&'a Command) -> &'a str) -> String {
    let mut lines = vec!["**Arbiter's commands** (`/help command` explains one and its options):".to_string()];
    for command in commands {
        let name = if command.subcommands.is_empty() {
            format!("/{}", command.name)
        } else {
            let subs: Vec<&str> = command.subcommands.iter().map(|s| &*s.name).collect();
            format!("/{} {}", command.name, subs.join("|"))
        };
        lines.push(format!("`{name}`: {}", describe(command)));
    }
    lines.join("\n")
}

/// A description up to its first colon, semicolon or bracket.
fn first_clause(text: &str) -> &str {
    let end = [": ", "; ", " ("]
        .iter()
        .filter_map(|stop| text.find(stop))
        .min()
        .unwrap_or(text.len());
    text[..end].trim_end_matches([',', '.'])
}

/// A command (or `group sub`) with what it does and each option; `None` for no such command.
pub fn explain(commands: &[Command], asked: &str) -> Option<String> {
    let mut words = asked.split_whitespace().map(str::to_lowercase);
    let first = words.next()?;
    let command = commands.iter().find(|c| c.name == first)?;
    let command = match words.next() {
        Some(sub) => command.subcommands.iter().find(|c| c.name == sub)?,
        None => command,
    };
    let mut lines = vec![format!("`/{}`: {}", command.qualified_name, description(command))];
    for sub in &command.subcommands {
        lines.push(format!("`/{}`: {}", sub.qualified_name, description(sub)));
        lines.extend(options(sub));
    }
    lines.extend(options(command));
    Some(lines.join("\n"))
}

fn description(command: &Command) -> &str {
    command.description.as_deref().unwrap_or("")
}

/// A command's options, required ones marked.
fn options(command: &Command) -> Vec<String> {
    command
        .parameters
        .iter()
        .map(|option| {
            let required = if option.required { " (required)" } else { "" };
            format!(
                "  • `{}`{required}: {}",
                option.name,
                option.description.as_deref().unwrap_or("")
            )
        })
        .collect()
}
