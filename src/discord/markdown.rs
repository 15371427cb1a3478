//! What users wrote, shown on Discord as they wrote it: never as Discord's markdown (headings,
//! masked links, spoilers, code), never as a mention of a user, role or channel, never as
//! `@everyone`. The arena marks such text (`arena::text`); here it is made inert.

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

/// An arena message as Discord shows it: its user-written parts made inert.
pub fn render(text: &str) -> String {
    crate::arena::text::render(text, escape)
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
