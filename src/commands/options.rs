//! What a command takes: its options (name, words, kind, whether required), the values a
//! player gave them ([`Args`]), and how the terminal's words are read into those values. Every
//! transport reads what a player wrote into the same `Args`.

use crate::ids::{GameId, TournamentId, UserId};
use arbiter_engine::VariantId;

/// An option: its name, what it is, the kind of value it takes, and whether it must be given.
pub struct Opt {
    pub name: &'static str,
    pub about: &'static str,
    pub kind: Kind,
    pub required: bool,
}

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Words (Discord: a string).
    Text,
    /// A whole number.
    Number,
    /// A game's number (the terminal writes `#12`).
    Game,
    /// A tournament's number (the terminal writes `t3`).
    Tournament,
    /// Yes or no; in the terminal, the option's name sets it.
    Flag,
    /// One of a few words.
    OneOf(&'static [Choice]),
    /// One of the games Arbiter hosts (Discord lists them from the engine's registry).
    Variant,
    /// A user (Discord: a member of the server; the terminal: a name).
    User,
    /// A server role (Discord only).
    Role,
    /// A file (Discord: an attachment; the terminal: a path).
    File,
}

/// One choice of a [`Kind::OneOf`] option: the word the terminal and the command layer use, and
/// the words Discord shows for it.
#[derive(Debug, PartialEq, Eq)]
pub struct Choice {
    pub word: &'static str,
    pub shown: &'static str,
}

impl Choice {
    pub const fn new(word: &'static str, shown: &'static str) -> Choice {
        Choice { word, shown }
    }
}

const fn opt(name: &'static str, about: &'static str, kind: Kind) -> Opt {
    Opt {
        name,
        about,
        kind,
        required: false,
    }
}

pub const fn text(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::Text)
}

pub const fn number(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::Number)
}

pub const fn game(about: &'static str) -> Opt {
    opt("game", about, Kind::Game)
}

pub const fn tournament(about: &'static str) -> Opt {
    opt("tournament", about, Kind::Tournament)
}

pub const fn flag(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::Flag)
}

pub const fn one_of(name: &'static str, about: &'static str, choices: &'static [Choice]) -> Opt {
    opt(name, about, Kind::OneOf(choices))
}

pub const fn variant(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::Variant)
}

pub const fn user(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::User)
}

pub const fn role(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::Role)
}

pub const fn file(name: &'static str, about: &'static str) -> Opt {
    opt(name, about, Kind::File)
}

impl Opt {
    /// The same option, which must be given.
    pub const fn required(self) -> Opt {
        Opt { required: true, ..self }
    }
}

/// The options most commands share: the game, match or tournament they mean.
pub const GAME: Opt = game("Game number (default: the game of this thread)");
pub const MATCH: Opt = game("Match number (default: the match in this channel)");
pub const TOURNAMENT: Opt = tournament("Tournament number (default: this channel's)");
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
    use super::{flag, game, one_of, text, user, variant};

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
