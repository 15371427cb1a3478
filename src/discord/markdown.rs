//! What users wrote, shown on Discord as they wrote it: never as Discord's markdown (headings,
//! masked links, spoilers, code), never as a mention of a user, role or channel, never as
//! `@everyone`. The arena marks such text (`arena::text`); here it is made inert.

use crate::arena::text::Style;
use crate::ids::{Place, UserId};

/// Makes `text` inert in Discord's markdown: every punctuation mark Discord may read as markup
/// is escaped (Discord shows an escaped mark as the mark itself), `@everyone` and `@here` are
/// broken with an invisible space, and line breaks become spaces (a line of its own could be a
/// heading or a quote).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '@' => out.push_str("@\u{200B}"),
            c if c.is_ascii_punctuation() && c != '\'' && c != '.' && c != ',' && c != '!' && c != '?' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// How Discord words the arena's messages: markdown, mentions, channel links, `/commands` and
/// timestamps that each reader's client shows in their own time.
struct Discord;

impl Style for Discord {
    fn user_written(&self, text: &str) -> String {
        escape(text)
    }

    fn strong(&self, text: &str) -> String {
        format!("**{text}**")
    }

    fn user(&self, user: &UserId) -> String {
        match super::ids::discord_user(user) {
            Some(id) => format!("<@{id}>"),
            None => escape(&crate::visible_text::name_or(user.display_name(), user.as_str())),
        }
    }

    fn command(&self, words: &str, options: &[(&str, &str)]) -> String {
        let mut text = format!("/{words}");
        for (name, value) in options {
            text.push_str(&format!(" {name}:{value}"));
        }
        format!("`{text}`")
    }

    fn where_played(&self, place: &Place) -> String {
        match super::ids::channel(place) {
            Some(channel) => format!(" in <#{channel}>"),
            None => String::new(),
        }
    }

    fn time(&self, at_ms: i64) -> String {
        format!("<t:{}:R>", at_ms.div_euclid(1000))
    }

    /// A code block, which Discord shows as it is; only a run of backticks could end it early.
    fn block(&self, text: &str) -> String {
        format!("\n```\n{}\n```", text.replace('`', "\u{2035}"))
    }
}

/// An arena message as Discord shows it.
pub fn render(text: &str) -> String {
    crate::arena::text::render(text, &Discord)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::text::user_written;

    #[test]
    fn markup_links_and_mentions_written_by_users_stay_text() {
        let hostile =
            "# Big [free nitro](https://evil.example) <@123> <@&9> <#5> @everyone ||x|| `code` *b* _i_ ~s~ > q";
        let shown = render(&format!("**Tournament** {}", user_written(hostile)));
        assert!(shown.starts_with("**Tournament** "), "our own markup stays: {shown}");
        // What Discord reads as markup: the text without its escaped marks.
        let mut live = String::new();
        let mut chars = shown.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                chars.next();
            } else {
                live.push(c);
            }
        }
        for markup in ["](", "<@", "<#", "@everyone", "||", "`", "*b", "_i", "~s", "# ", "> q"] {
            assert!(!live.contains(markup), "{markup} is live in {shown}");
        }
        assert!(shown.contains("\\[free nitro\\]\\(https\\:"), "{shown}");
        assert!(shown.contains("@\u{200B}everyone"), "{shown}");
        assert_eq!(escape("line\n# heading"), "line \\# heading");
        assert_eq!(escape("O'Neil, Jr."), "O'Neil, Jr.", "plain names are untouched");
    }
}
