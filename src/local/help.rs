//! The terminal's help, read from the commands' one description (`commands::catalog`): every
//! command the terminal has, grouped as a player meets them, and `help <command>` explaining one.

use crate::commands::catalog::{SECTIONS, in_terminal};
use crate::commands::describe::{Command, Terminal};

/// The commands the terminal has, with their forms.
fn terminal_commands(commands: &'static [Command]) -> impl Iterator<Item = (&'static Command, &'static Terminal)> {
    commands
        .iter()
        .filter_map(|command| command.terminal.as_ref().map(|terminal| (command, terminal)))
}

/// Every command, grouped, and how to learn more.
pub fn overview(variants: &str) -> String {
    let mut text = String::from(
        "Lines look like `alice: <command>`; the name before the colon is who acts. \
         `help <command>` explains one.\n",
    );
    for section in SECTIONS {
        text.push_str(&format!("{}:\n", section.heading));
        for (_, terminal) in terminal_commands(section.commands) {
            text.push_str(&format!("  {}\n", terminal.usage));
        }
    }
    text.push_str("Without #id a command picks your only game that fits. Lines starting with # are comments.\n");
    text.push_str(&format!("Games: {variants}."));
    text
}

/// `help <command>`: how it is written and what it does; `None` for no such command.
pub fn explain(word: &str) -> Option<String> {
    let word = word.trim().trim_start_matches('/').to_lowercase();
    let command = in_terminal(&word)?;
    let terminal = command.terminal.as_ref()?;
    let more = if terminal.more.is_empty() {
        String::new()
    } else {
        format!(" {}", terminal.more)
    };
    Some(format!("{}\n{}{more}", terminal.usage, command.summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_terminal_command_is_explained_once_from_its_description() {
        let mut seen = std::collections::HashSet::new();
        for section in SECTIONS {
            for (command, terminal) in terminal_commands(section.commands) {
                for word in terminal.words {
                    assert!(seen.insert(*word), "{word} is explained twice");
                    let text = explain(word).unwrap();
                    assert!(text.starts_with(terminal.usage), "{text}");
                    assert!(text.contains(command.summary) && text.contains(terminal.more), "{text}");
                }
            }
        }
        assert_eq!(explain("nonsense"), None);
    }
}
