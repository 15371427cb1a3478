//! Text that users wrote (a tournament's name, the names in a game record) travels inside the
//! arena's messages marked as such, so that each transport shows it exactly as written and never
//! as its own markup: Discord escapes its markdown, links and mentions, the terminal shows it as
//! it is. Nobody can type the marks themselves: they are taken out of what users write.

/// Opens and closes a part a user wrote (characters of Unicode's private use area, which no
/// message of Arbiter's holds otherwise).
const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

/// Marks `text`, written by a user, for a message.
pub fn user_written(text: &str) -> String {
    let inner: String = text.chars().filter(|c| *c != OPEN && *c != CLOSE).collect();
    format!("{OPEN}{inner}{CLOSE}")
}

/// A message as a transport shows it: each part a user wrote passed through `escape`, the marks
/// gone.
pub fn render(text: &str, escape: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(OPEN) {
        out.push_str(&rest[..open]);
        let after = &rest[open + OPEN.len_utf8()..];
        let (inner, next) = match after.find(CLOSE) {
            Some(close) => (&after[..close], &after[close + CLOSE.len_utf8()..]),
            // Cut short (a message trimmed to a length): the rest is the user's.
            None => (after, ""),
        };
        out.push_str(&escape(inner));
        rest = next;
    }
    out.push_str(&rest.replace(CLOSE, ""));
    out
}

/// A message as plain text: what users wrote, as they wrote it.
pub fn plain(text: &str) -> String {
    render(text, str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_written_parts_are_escaped_and_the_marks_disappear() {
        let text = format!("**Tournament** {} starts", user_written("[club](https://x.y) night"));
        assert_eq!(plain(&text), "**Tournament** [club](https://x.y) night starts");
        let shouted = render(&text, |s| s.to_uppercase());
        assert_eq!(shouted, "**Tournament** [CLUB](HTTPS://X.Y) NIGHT starts");
    }

    #[test]
    fn nobody_can_close_the_mark_early() {
        let sneaky = format!("a{CLOSE}**bold**{OPEN}b");
        let text = user_written(&sneaky);
        assert_eq!(render(&text, |s| format!("<{s}>")), "<a**bold**b>");
        assert_eq!(plain(&format!("cut {OPEN}short")), "cut short");
    }
}
