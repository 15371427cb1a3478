//! The arena's messages carry their structure, not any transport's markup: what is emphasised,
//! which user is named, which command is meant, where a game is played, when something falls
//! due, a block of preformatted lines, and text that users wrote. Each is a span between marks
//! (characters of Unicode's private use area, which no message of Arbiter's holds otherwise),
//! and each transport words the spans its own way through a [`Style`]: Discord as markdown,
//! mentions and `/commands` (escaping what users wrote), the terminal as plain text with its own
//! command names. Nobody can type the marks: they are taken out of what users write, and so is
//! whatever of it a reader could not see (`visible_text`): direction controls, zero-width and
//! control characters.

use crate::clock::duration_words;
use crate::ids::{Place, UserId};
use crate::visible_text;

/// The kinds of span, each with its opening and closing mark.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Span {
    UserWritten,
    Strong,
    User,
    Command,
    Place,
    Time,
    Block,
}

const SPANS: [(Span, char, char); 7] = [
    (Span::UserWritten, '\u{E000}', '\u{E001}'),
    (Span::Strong, '\u{E002}', '\u{E003}'),
    (Span::User, '\u{E004}', '\u{E005}'),
    (Span::Command, '\u{E006}', '\u{E007}'),
    (Span::Place, '\u{E008}', '\u{E009}'),
    (Span::Time, '\u{E00A}', '\u{E00B}'),
    (Span::Block, '\u{E00C}', '\u{E00D}'),
];

/// Separates a command's options inside its span: `words`, then `name=value` per option.
const OPTION: char = '\u{E00E}';

fn marks(kind: Span) -> (char, char) {
    SPANS
        .iter()
        .find(|(span, _, _)| *span == kind)
        .map(|(_, open, close)| (*open, *close))
        .unwrap_or(('\u{E000}', '\u{E001}'))
}

fn is_mark(c: char) -> bool {
    ('\u{E000}'..='\u{E00E}').contains(&c)
}

fn span(kind: Span, inner: &str) -> String {
    let (open, close) = marks(kind);
    format!("{open}{inner}{close}")
}

/// Text a user wrote (a tournament's name, the names in a game record): shown as written, on
/// one line, never as a transport's markup, and without what a reader could not see.
pub fn user_written(text: &str) -> String {
    let inner: String = text.chars().filter(|c| !is_mark(*c)).collect();
    span(Span::UserWritten, &visible_text::one_line(&inner))
}

/// Emphasis: a title, a name in a list.
pub fn strong(text: &str) -> String {
    span(Span::Strong, text)
}

/// A user, as their transport names them (on Discord, a mention).
pub fn user(user: &UserId) -> String {
    let id: String = user.as_str().chars().filter(|c| !is_mark(*c)).collect();
    span(Span::User, &id)
}

/// A command by its words (`tournament join`) and options (`saved` = a list's name): each
/// transport writes it the way its users type it.
pub fn command(words: &str, options: &[(&str, &str)]) -> String {
    let mut inner = words.to_string();
    for (name, value) in options {
        let value: String = value.chars().filter(|c| !is_mark(*c)).collect();
        let value = visible_text::one_line(&value);
        inner.push(OPTION);
        inner.push_str(&format!("{name}={value}"));
    }
    span(Span::Command, &inner)
}

/// Where a game is played, as a phrase (" in #thread") for transports that can link to it;
/// nothing for those that cannot.
pub fn where_played(place: &Place) -> String {
    span(Span::Place, place.as_str())
}

/// A moment (Unix milliseconds), as each transport shows one to come: relative where it can.
pub fn time(at_ms: i64) -> String {
    span(Span::Time, &at_ms.to_string())
}

/// Preformatted lines (a list of pieces), kept as they are: users may have written them, so
/// nothing in them is read as a span, and only what a reader can see is kept.
pub fn block(text: &str) -> String {
    let inner: String = text.chars().filter(|c| !is_mark(*c)).collect();
    span(Span::Block, &visible_text::lines(&inner))
}

/// How a transport words each kind of span. `strong` gets its contents already worded; a
/// `block` gets its lines as they are, which the transport must keep from being read as markup.
pub trait Style {
    fn user_written(&self, text: &str) -> String;
    fn strong(&self, text: &str) -> String;
    fn user(&self, user: &UserId) -> String;
    fn command(&self, words: &str, options: &[(&str, &str)]) -> String;
    fn where_played(&self, place: &Place) -> String;
    fn time(&self, at_ms: i64) -> String;
    fn block(&self, text: &str) -> String;
}

/// A message as `style` words it, every mark gone.
pub fn render(text: &str, style: &impl Style) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(is_mark) {
        out.push_str(&rest[..start]);
        let mark = rest[start..].chars().next().unwrap_or_default();
        let after = &rest[start + mark.len_utf8()..];
        let Some(&(kind, _, close)) = SPANS.iter().find(|(_, open, _)| *open == mark) else {
            // A stray closing mark (a message cut short): dropped.
            rest = after;
            continue;
        };
        let (inner, next) = match matching_close(after, mark, close) {
            Some(end) => (&after[..end], &after[end + close.len_utf8()..]),
            // Cut short (a message trimmed to a length): the rest is the span's.
            None => (after, ""),
        };
        out.push_str(&word(kind, inner, style));
        rest = next;
    }
    out.push_str(rest);
    out
}

/// Where the span opened by `open` closes in `text`, spans of the same kind nesting.
fn matching_close(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return Some(at);
            }
            depth -= 1;
        }
    }
    None
}

fn word(kind: Span, inner: &str, style: &impl Style) -> String {
    let bare = || inner.chars().filter(|c| !is_mark(*c)).collect::<String>();
    match kind {
        Span::UserWritten => style.user_written(&bare()),
        Span::Strong => style.strong(&render(inner, style)),
        Span::Block => style.block(&bare()),
        Span::User => style.user(&UserId::new(bare())),
        Span::Place => style.where_played(&Place::new(bare())),
        Span::Time => style.time(bare().parse().unwrap_or_default()),
        Span::Command => {
            let text = bare_command(inner);
            let mut parts = text.split(OPTION);
            let words = parts.next().unwrap_or_default();
            let options: Vec<(&str, &str)> = parts.filter_map(|option| option.split_once('=')).collect();
            style.command(words, &options)
        }
    }
}

/// A command span's text with any marks but its option separators taken out.
fn bare_command(inner: &str) -> String {
    inner.chars().filter(|c| *c == OPTION || !is_mark(*c)).collect()
}

/// The terminal's wording, and any plain-text reader's: names as users go by, commands as the
/// terminal takes them, moments relative to `now` when it is known.
pub struct Plain {
    pub now: Option<i64>,
}

impl Style for Plain {
    fn user_written(&self, text: &str) -> String {
        text.to_string()
    }

    fn strong(&self, text: &str) -> String {
        text.to_string()
    }

    /// The name in the user's id (the terminal's users typed theirs), as names are shown.
    fn user(&self, user: &UserId) -> String {
        visible_text::name_or(user.display_name(), user.as_str())
    }

    fn command(&self, words: &str, options: &[(&str, &str)]) -> String {
        let mut text = words.to_string();
        for (name, value) in options {
            text.push_str(&format!(" {name} {value}"));
        }
        format!("`{text}`")
    }

    fn where_played(&self, _place: &Place) -> String {
        String::new()
    }

    fn time(&self, at_ms: i64) -> String {
        match self.now {
            Some(now) if at_ms > now => format!("in {}", duration_words(at_ms - now)),
            Some(_) => "now".to_string(),
            None => "later".to_string(),
        }
    }

    fn block(&self, text: &str) -> String {
        let lines: Vec<String> = text.lines().map(|line| format!("  {line}")).collect();
        format!("\n{}\n", lines.join("\n"))
    }
}

/// A message as plain text: what the terminal prints, and what tests read.
pub fn plain(text: &str) -> String {
    render(text, &Plain { now: None })
}

/// The ending a noun takes for `n` of it: "1 piece", "2 pieces".
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words every span visibly, to see what went where.
    struct Brackets;

    impl Style for Brackets {
        fn user_written(&self, text: &str) -> String {
            format!("<{text}>")
        }
        fn strong(&self, text: &str) -> String {
            format!("*{text}*")
        }
        fn user(&self, user: &UserId) -> String {
            format!("@{}", user.as_str())
        }
        fn command(&self, words: &str, options: &[(&str, &str)]) -> String {
            let options: Vec<String> = options.iter().map(|(n, v)| format!("{n}:{v}")).collect();
            format!("/{words}[{}]", options.join(","))
        }
        fn where_played(&self, place: &Place) -> String {
            format!(" in #{}", place.as_str())
        }
        fn time(&self, at_ms: i64) -> String {
            format!("t{at_ms}")
        }
        fn block(&self, text: &str) -> String {
            format!("[{text}]")
        }
    }

    #[test]
    fn each_span_is_worded_by_the_style_and_the_marks_disappear() {
        let alice = UserId::new("discord:42");
        let text = format!(
            "{} by {}{}: {} at {}{}",
            strong(&format!("Tournament {}", user_written("[club](x) night"))),
            user(&alice),
            where_played(&Place::new("discord:7")),
            command("list", &[("saved", "weak")]),
            time(5_000),
            block("K\nQ"),
        );
        assert_eq!(
            render(&text, &Brackets),
            "*Tournament <[club](x) night>* by @discord:42 in #discord:7: /list[saved:weak] at t5000[K\nQ]"
        );
        assert_eq!(
            plain(&text),
            "Tournament [club](x) night by 42: `list saved weak` at later\n  K\n  Q\n"
        );
        assert_eq!(render(&time(70_000), &Plain { now: Some(10_000) }), "in 1 minute");
    }

    #[test]
    fn what_users_wrote_keeps_only_what_can_be_seen() {
        let hidden = "\u{202E}ecila\u{2066}\u{200B} \u{1B}[2J\nnight";
        assert_eq!(render(&user_written(hidden), &Brackets), "<ecila [2J night>");
        assert_eq!(plain(&block("K\u{202E}\r\nQ\u{1B}")), "\n  K\n  Q\n");
        let named = command("list", &[("saved", "we\u{200B}ak\u{202E}")]);
        assert_eq!(render(&named, &Brackets), "/list[saved:weak]");
        assert_eq!(plain(&user(&UserId::new("local:bo\u{202E}b\u{1B}"))), "bob");
    }

    #[test]
    fn nobody_can_close_or_open_a_span_by_writing_marks() {
        let sneaky = "a\u{E001}\u{E002}bold\u{E003}\u{E004}b";
        let text = user_written(sneaky);
        assert_eq!(render(&text, &Brackets), "<aboldb>");
        assert_eq!(plain(&format!("cut {}", &strong("short")[..6])), "cut sho");
        let named = command("lists show", &[("name", "x\u{E007}y")]);
        assert_eq!(render(&named, &Brackets), "/lists show[name:xy]");
    }
}
