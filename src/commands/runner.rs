//! Commands the command layer answers by itself, whatever the transport: a transport reads what
//! the player wrote into [`Args`] by the command's options (Discord from the interaction, the
//! terminal from the words of the line) and hands them to the command's [`Run`]. A command
//! declared this way is in Discord and the terminal, and in the help of both, with nothing
//! written for either.

use super::Ask;
use super::catalog::{Kind, Opt};
use crate::arena::{ArenaError, Effects};
use crate::ids::GameId;
use std::future::Future;
use std::pin::Pin;

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
    /// What to suggest for the option marked `suggested` as the player types (the text typed so
    /// far is in `Args`, under that option's name).
    pub suggest: Option<for<'a> fn(Ask<'a>, Args) -> Suggestions<'a>>,
}

impl Run {
    /// A command whose answer everyone in the place sees.
    pub const fn public(answer: for<'a> fn(Ask<'a>, Args) -> Answer<'a>) -> Run {
        Run {
            answer,
            private: false,
            suggest: None,
        }
    }

    /// A command whose answer only the asker sees.
    pub const fn private(answer: for<'a> fn(Ask<'a>, Args) -> Answer<'a>) -> Run {
        Run {
            answer,
            private: true,
            suggest: None,
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

/// One option's value, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Number(i64),
    Flag(bool),
    /// A choice of a [`Kind::OneOf`] option, by its word.
    Word(&'static str),
}

/// The options a player gave a command, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    values: Vec<(&'static str, Value)>,
}

impl Args {
    pub fn set(&mut self, name: &'static str, value: Value) {
        self.values.retain(|(named, _)| *named != name);
        self.values.push((name, value));
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(named, _)| *named == name)
            .map(|(_, value)| value)
    }

    /// A text option; empty when it was not given.
    pub fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Some(Value::Text(text)) => text,
            _ => "",
        }
    }

    /// A flag option; false unless it was given as true.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Flag(true)))
    }

    /// The word chosen for a one-of option.
    pub fn word(&self, name: &str) -> Option<&'static str> {
        match self.get(name) {
            Some(Value::Word(word)) => Some(word),
            _ => None,
        }
    }

    /// The game named with the `game` option.
    pub fn game(&self) -> Option<GameId> {
        match self.get("game") {
            Some(Value::Number(id)) => Some(GameId::new(*id)),
            _ => None,
        }
    }

    /// The first required option missing, if any.
    pub fn missing<'o>(&self, options: &'o [Opt]) -> Option<&'o Opt> {
        options.iter().find(|opt| opt.required && self.get(opt.name).is_none())
    }

    /// Reads the words of a terminal line by a command's `options`: `#12` names the game; a
    /// flag's name sets it; a one-of option takes one of its words; a number option takes a
    /// number; a text option takes the words that are left, in order.
    pub fn from_words(options: &'static [Opt], line: &str) -> Result<Args, String> {
        let mut args = Args::default();
        let mut text: Vec<&str> = Vec::new();
        for word in line.split_whitespace() {
            if let Some(number) = word.strip_prefix('#')
                && options.iter().any(|opt| opt.name == "game")
            {
                let id = number
                    .parse()
                    .map_err(|_| format!("\"#{number}\" is not a game number"))?;
                args.set("game", Value::Number(id));
                continue;
            }
            if let Some(value) = options.iter().find_map(|opt| word_for(opt, word, &args)) {
                args.set(value.0, value.1);
                continue;
            }
            text.push(word);
        }
        if !text.is_empty() {
            let Some(opt) = options.iter().find(|opt| opt.kind == Kind::Text) else {
                return Err(format!("\"{}\" is not understood here", text.join(" ")));
            };
            args.set(opt.name, Value::Text(text.join(" ")));
        }
        Ok(args)
    }
}

/// The value one word gives `opt`, when it is the kind of word that option takes and the option
/// has none yet.
fn word_for(opt: &'static Opt, word: &str, args: &Args) -> Option<(&'static str, Value)> {
    if args.get(opt.name).is_some() {
        return None;
    }
    let value = match opt.kind {
        Kind::Flag if word.eq_ignore_ascii_case(opt.name) => Value::Flag(true),
        Kind::OneOf(choices) => Value::Word(
            choices
                .iter()
                .find(|choice| choice.word.eq_ignore_ascii_case(word))?
                .word,
        ),
        Kind::Number if opt.name != "game" => Value::Number(word.parse().ok()?),
        _ => return None,
    };
    Some((opt.name, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::catalog::{Choice, flag, number, one_of, text};

    const ANSWERS: &[Choice] = &[Choice::new("offer", "Offer"), Choice::new("accept", "Accept")];
    const OPTIONS: &[Opt] = &[
        one_of("answer", "Offer or accept", ANSWERS).required(),
        text("action", "A move"),
        flag("words", "In words"),
        number("game", "Game number"),
    ];

    #[test]
    fn a_line_is_read_by_the_options_kinds() {
        let args = Args::from_words(OPTIONS, "ACCEPT #12 Nf3 words").unwrap();
        assert_eq!(args.word("answer"), Some("accept"));
        assert_eq!(args.game(), Some(GameId::new(12)));
        assert_eq!(args.text("action"), "Nf3");
        assert!(args.flag("words"));
        assert!(args.missing(OPTIONS).is_none());
    }

    #[test]
    fn the_text_option_takes_the_words_left_over_in_order() {
        let args = Args::from_words(OPTIONS, "bomb d2 offer").unwrap();
        assert_eq!(args.text("action"), "bomb d2");
        assert_eq!(args.word("answer"), Some("offer"));
    }

    #[test]
    fn a_missing_option_and_a_bad_game_number_are_named() {
        let args = Args::from_words(OPTIONS, "e4").unwrap();
        assert_eq!(args.missing(OPTIONS).map(|opt| opt.name), Some("answer"));
        assert!(!args.flag("words"));
        assert_eq!(args.game(), None);
        let error = Args::from_words(OPTIONS, "#x offer").unwrap_err();
        assert_eq!(error, "\"#x\" is not a game number");
    }

    #[test]
    fn words_no_option_takes_are_refused() {
        const ONLY_GAME: &[Opt] = &[number("game", "Game number")];
        let error = Args::from_words(ONLY_GAME, "#3 now please").unwrap_err();
        assert_eq!(error, "\"now please\" is not understood here");
    }
}
