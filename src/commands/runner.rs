//! Commands the command layer answers by itself, whatever the transport: a transport reads what
//! the player wrote into [`Args`] by the command's options (Discord from the interaction, the
//! terminal from the words of the line) and hands them to the command's [`Run`]. A command
//! declared this way is in Discord and the terminal, and in the help of both, with nothing
//! written for either.

use super::Ask;
use super::catalog::{Kind, Opt};
use crate::arena::{ArenaError, Effects};
use crate::ids::{GameId, TournamentId, UserId};
use arbiter_engine::VariantId;
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

/// One option's value, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Number(i64),
    Flag(bool),
    /// A choice of a [`Kind::OneOf`] option, by its word.
    Word(&'static str),
    Variant(VariantId),
    User(UserId),
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

    pub fn variant(&self, name: &str) -> Option<VariantId> {
        match self.get(name) {
            Some(Value::Variant(variant)) => Some(*variant),
            _ => None,
        }
    }

    pub fn user(&self, name: &str) -> Option<&UserId> {
        match self.get(name) {
            Some(Value::User(user)) => Some(user),
            _ => None,
        }
    }

    /// The game named with the `game` option.
    pub fn game(&self) -> Option<GameId> {
        self.number("game").map(GameId::new)
    }

    /// The tournament named with the `tournament` option.
    pub fn tournament(&self) -> Option<TournamentId> {
        self.number("tournament").map(TournamentId::new)
    }

    pub fn number(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(Value::Number(number)) => Some(*number),
            _ => None,
        }
    }

    /// The first required option missing, if any.
    pub fn missing<'o>(&self, options: &'o [Opt]) -> Option<&'o Opt> {
        options.iter().find(|opt| opt.required && self.get(opt.name).is_none())
    }

    /// Reads the words of a terminal line by a command's `options`: `#12` names the game, `t3`
    /// the tournament; a flag's name sets it; a one-of option takes one of its words, a variant
    /// option a game's name, a user option a name (the user `user_named` says), a number option a
    /// number; a text option takes the words that are left, in order.
    pub fn from_words(options: &'static [Opt], line: &str, user_named: fn(&str) -> UserId) -> Result<Args, String> {
        let mut args = Args::default();
        let mut text: Vec<&str> = Vec::new();
        for word in line.split_whitespace() {
            if let Some(value) = numbered(options, word) {
                let (name, id) = value?;
                args.set(name, Value::Number(id));
                continue;
            }
            if let Some(value) = options.iter().find_map(|opt| word_for(opt, word, &args, user_named)) {
                args.set(value.0, value.1);
                continue;
            }
            text.push(word);
        }
        if !text.is_empty() {
            let Some(opt) = options.iter().find(|opt| opt.kind == Kind::Text) else {
                let words = text.join(" ");
                if options
                    .iter()
                    .any(|opt| opt.kind == Kind::Variant && args.get(opt.name).is_none())
                {
                    return Err(format!("there is no game called \"{words}\" (`rules` lists them)"));
                }
                return Err(format!("\"{words}\" is not understood here"));
            };
            args.set(opt.name, Value::Text(text.join(" ")));
        }
        Ok(args)
    }
}

/// The game (`#12`) or tournament (`t3`) a word names, when the command takes one: the option's
/// name and the number, or what is wrong with the number.
fn numbered(options: &'static [Opt], word: &str) -> Option<Result<(&'static str, i64), String>> {
    options.iter().find_map(|opt| {
        let (number, what) = match opt.kind {
            Kind::Game => (word.strip_prefix('#')?, "game"),
            Kind::Tournament => (
                word.strip_prefix('t')
                    .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()))?,
                "tournament",
            ),
            _ => return None,
        };
        Some(match number.parse() {
            Ok(id) => Ok((opt.name, id)),
            Err(_) => Err(format!("\"{word}\" is not a {what} number")),
        })
    })
}

/// The value one word gives `opt`, when it is the kind of word that option takes and the option
/// has none yet.
fn word_for(
    opt: &'static Opt,
    word: &str,
    args: &Args,
    user_named: fn(&str) -> UserId,
) -> Option<(&'static str, Value)> {
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
        Kind::Number => Value::Number(word.parse().ok()?),
        Kind::Variant => Value::Variant(VariantId::parse(word)?),
        Kind::User => Value::User(user_named(word)),
        _ => return None,
    };
    Some((opt.name, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::catalog::{Choice, flag, game, one_of, text, user, variant};

    const ANSWERS: &[Choice] = &[Choice::new("offer", "Offer"), Choice::new("accept", "Accept")];
    const OPTIONS: &[Opt] = &[
        one_of("answer", "Offer or accept", ANSWERS).required(),
        text("action", "A move"),
        flag("words", "In words"),
        game("Game number"),
    ];

    fn named(name: &str) -> UserId {
        UserId::new(name)
    }

    #[test]
    fn a_line_is_read_by_the_options_kinds() {
        let args = Args::from_words(OPTIONS, "ACCEPT #12 Nf3 words", named).unwrap();
        assert_eq!(args.word("answer"), Some("accept"));
        assert_eq!(args.game(), Some(GameId::new(12)));
        assert_eq!(args.text("action"), "Nf3");
        assert!(args.flag("words"));
        assert!(args.missing(OPTIONS).is_none());
    }

    #[test]
    fn the_text_option_takes_the_words_left_over_in_order() {
        let args = Args::from_words(OPTIONS, "bomb d2 offer", named).unwrap();
        assert_eq!(args.text("action"), "bomb d2");
        assert_eq!(args.word("answer"), Some("offer"));
    }

    #[test]
    fn a_missing_option_and_a_bad_game_number_are_named() {
        let args = Args::from_words(OPTIONS, "e4", named).unwrap();
        assert_eq!(args.missing(OPTIONS).map(|opt| opt.name), Some("answer"));
        assert!(!args.flag("words"));
        assert_eq!(args.game(), None);
        let error = Args::from_words(OPTIONS, "#x offer", named).unwrap_err();
        assert_eq!(error, "\"#x\" is not a game number");
    }

    #[test]
    fn a_game_and_a_user_are_read_by_name() {
        const OPTIONS: &[Opt] = &[variant("variant", "The game").required(), user("user", "Whose")];
        let args = Args::from_words(OPTIONS, "Bob beirut", |name| UserId::new(format!("local:{name}"))).unwrap();
        assert_eq!(args.variant("variant"), Some(VariantId::Beirut));
        assert_eq!(args.user("user"), Some(&UserId::new("local:Bob")));
        let error = Args::from_words(&OPTIONS[..1], "nochess", named).unwrap_err();
        assert_eq!(error, "there is no game called \"nochess\" (`rules` lists them)");
    }

    #[test]
    fn words_no_option_takes_are_refused() {
        const ONLY_GAME: &[Opt] = &[game("Game number")];
        let error = Args::from_words(ONLY_GAME, "#3 now please", named).unwrap_err();
        assert_eq!(error, "\"now please\" is not understood here");
    }
}
