//! Text users wrote, made visible-only before it is shown anywhere: names from Discord and from
//! game records, tournament and list names, the terminal's users, whatever a player typed. What a
//! reader cannot see is taken out, so nothing hides, reverses or recolours the words around it:
//! direction controls (U+202A-202E, U+2066-2069, U+200E/F, U+061C), zero-width and other
//! invisible format characters (Unicode's category Cf: U+200B-200D, U+2060-2064, U+FEFF, the soft
//! hyphen, tag characters...), the fillers that show as nothing (Hangul fillers, the combining
//! grapheme joiner), and control characters (ESC, CR, ...). Variation selectors stay when they
//! dress an emoji, and a zero-width joiner when it joins two emoji (a family, a profession);
//! stray ones go. Names are then cut, by characters as a reader counts them, to what fits a
//! board image's name strip.
//!
//! The ground floor, beside `ids`: it imports nothing of the crate, so the renderer, the arena,
//! the store-facing name code and every transport use the same rules.

use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};
use unicode_segmentation::UnicodeSegmentation;

/// The most characters (graphemes: "é" and "👩‍💻" count one each) a name is shown with. A board
/// image's strip holds the name, its side ("(White)") and "· to move" on one line at 16 px bold
/// on a single board's width (about 470 px); 24 characters fit beside those, the same cut as the
/// standings table's cells.
pub const NAME_LIMIT: usize = 24;

/// A name with nothing visible in it, when nothing better is known.
pub const SOMEONE: &str = "someone";

/// What becomes of one character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Shown as it is.
    Visible,
    /// Space of any kind (a tab, a no-break space, an ideographic space).
    Space,
    /// A line break (LF, U+2028/2029, NEL, vertical tab, form feed).
    LineBreak,
    /// A variation selector: kept only right after what it selects.
    Selector,
    /// The zero-width joiner: kept only between two emoji.
    Joiner,
    /// Never shown: control and format characters, and the blanks that show as nothing.
    Invisible,
}

fn kind(c: char) -> Kind {
    match c {
        '\n' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}' => Kind::LineBreak,
        // A carriage return moves a terminal's cursor back over what was printed: never shown.
        '\r' => Kind::Invisible,
        '\u{200D}' => Kind::Joiner,
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => Kind::Selector,
        // Default-ignorable characters outside category Cf: the combining grapheme joiner, the
        // Hangul and Khmer fillers, Mongolian variation selectors, and the unassigned rest of
        // the tag block. They show as nothing, and make a name look blank.
        '\u{034F}'
        | '\u{115F}'
        | '\u{1160}'
        | '\u{17B4}'
        | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{3164}'
        | '\u{FFA0}'
        | '\u{E0000}'..='\u{E0FFF}' => Kind::Invisible,
        // The Braille blank shows as a space, and is used as one to look empty.
        '\u{2800}' => Kind::Space,
        c if c.is_whitespace() => Kind::Space,
        c => match c.general_category() {
            GeneralCategory::Control | GeneralCategory::Format => Kind::Invisible,
            _ => Kind::Visible,
        },
    }
}

/// Whether `c` is an emoji a selector may dress or a joiner may join (not the digits and `#`
/// that are emoji only as keycaps, which are dressed with U+FE0F all the same).
fn is_emoji(c: char) -> bool {
    c.is_emoji_char()
}

/// Whether `c` is never drawn on its own: control characters (line breaks too), format
/// characters, selectors and joiners, fillers. For text drawn in an image, where a selector or
/// joiner would draw a missing glyph and a line break nothing.
pub fn is_invisible(c: char) -> bool {
    c.is_control() || matches!(kind(c), Kind::Invisible | Kind::Selector | Kind::Joiner)
}

/// `text` with what cannot be seen taken out; spaces and line breaks handed to `space` and
/// `line_break` to word (a space, a newline, or nothing).
fn cleaned(text: &str, space: &str, line_break: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The last character kept that a selector could dress, if it is the one just kept.
    let mut base: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match kind(c) {
            Kind::Visible => {
                out.push(c);
                base = Some(c);
            }
            Kind::Space => {
                out.push_str(space);
                base = None;
            }
            Kind::LineBreak => {
                out.push_str(line_break);
                base = None;
            }
            Kind::Selector => {
                let emoji_selector = matches!(c, '\u{FE0E}' | '\u{FE0F}');
                if base.is_some_and(|b| !emoji_selector || is_emoji(b)) {
                    out.push(c);
                }
                // One selector a base.
                base = None;
            }
            Kind::Joiner => {
                let before = out
                    .chars()
                    .rev()
                    .find(|&p| kind(p) != Kind::Selector)
                    .is_some_and(|p| !p.is_ascii() && is_emoji(p));
                let after = chars.peek().is_some_and(|&n| !n.is_ascii() && is_emoji(n));
                if before && after {
                    out.push(c);
                }
                base = None;
            }
            Kind::Invisible => {}
        }
    }
    out
}

/// `text` on one line with only what a reader can see: invisible, format and control characters
/// gone, line breaks and tabs as spaces, runs of space as one, trimmed.
pub fn one_line(text: &str) -> String {
    let spaced = cleaned(text, " ", " ");
    let mut out = String::with_capacity(spaced.len());
    for word in spaced.split(' ').filter(|word| !word.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Text of several lines as a terminal prints it: invisible, format and control characters
/// gone (a carriage return too, which would print over a line), line breaks kept as `\n`, tabs
/// and other spaces as a plain space, nothing collapsed (a text board's columns stay).
pub fn lines(text: &str) -> String {
    cleaned(text, " ", "\n")
}

/// A name as shown: [`one_line`], cut to [`NAME_LIMIT`] characters with "…" when longer; `None`
/// when nothing visible is left.
pub fn name(text: &str) -> Option<String> {
    let line = one_line(text);
    if line.is_empty() {
        return None;
    }
    let mut graphemes = line.graphemes(true);
    let kept: String = graphemes.by_ref().take(NAME_LIMIT).collect();
    if graphemes.next().is_none() {
        return Some(kept);
    }
    let mut cut: String = kept.graphemes(true).take(NAME_LIMIT - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    Some(cut)
}

/// A name as shown, or `fallback` as shown (a user's id, their account name) when nothing of
/// it is visible, or [`SOMEONE`].
pub fn name_or(text: &str, fallback: &str) -> String {
    name(text)
        .or_else(|| name(fallback))
        .unwrap_or_else(|| SOMEONE.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_hidden_character_goes_and_what_shows_stays() {
        let table: &[(&str, &str, &str)] = &[
            ("plain names are untouched", "O'Neil, Jr. 9", "O'Neil, Jr. 9"),
            (
                "letters of any script",
                "Zoë Łukasz 李小龍 أحمد",
                "Zoë Łukasz 李小龍 أحمد",
            ),
            ("direction overrides", "\u{202E}ecila\u{202C}", "ecila"),
            ("direction embeddings", "\u{202A}a\u{202B}b\u{202D}c", "abc"),
            ("direction isolates", "\u{2066}a\u{2067}b\u{2068}c\u{2069}", "abc"),
            ("direction marks", "a\u{200E}b\u{200F}c\u{61C}d", "abcd"),
            ("zero-width space and non-joiner", "a\u{200B}l\u{200C}i", "ali"),
            (
                "word joiner and invisible operators",
                "a\u{2060}b\u{2061}c\u{2062}d\u{2063}e\u{2064}",
                "abcde",
            ),
            ("byte order mark", "\u{FEFF}bob", "bob"),
            ("soft hyphen", "ca\u{AD}rol", "carol"),
            ("Mongolian vowel separator", "a\u{180E}b", "ab"),
            ("tag characters", "flag\u{E0001}\u{E0067}\u{E0062}\u{E007F}", "flag"),
            ("fillers that look blank", "\u{3164}\u{115F}x\u{FFA0}\u{34F}", "x"),
            (
                "escape sequences lose their escape",
                "\u{1B}[31mred\u{1B}[0m",
                "[31mred[0m",
            ),
            ("other controls", "a\u{7}b\u{7F}c\u{9B}d\u{0}e", "abcde"),
            ("a carriage return", "over\rwrite", "overwrite"),
            (
                "newlines and tabs become a space",
                "two\nlines\tand\u{2028}more",
                "two lines and more",
            ),
            ("runs of space collapse, ends trimmed", "  a \u{A0}\u{3000} b  ", "a b"),
            (
                "a selector dressing an emoji stays",
                "\u{2764}\u{FE0F} love",
                "\u{2764}\u{FE0F} love",
            ),
            ("a keycap keeps its selector", "1\u{FE0F}\u{20E3}", "1\u{FE0F}\u{20E3}"),
            ("stray selectors go", "\u{FE0F}a\u{FE0F} \u{FE0F}", "a"),
            ("a second selector goes", "\u{2764}\u{FE0F}\u{FE0F}", "\u{2764}\u{FE0F}"),
            (
                "a joiner between emoji stays",
                "\u{1F469}\u{200D}\u{1F4BB}",
                "\u{1F469}\u{200D}\u{1F4BB}",
            ),
            ("a joiner between letters goes", "a\u{200D}b", "ab"),
            ("skin tones are visible", "\u{1F44B}\u{1F3FD}", "\u{1F44B}\u{1F3FD}"),
            ("combining accents stay", "e\u{301}", "e\u{301}"),
            (
                "the arena's private marks are not this module's",
                "\u{E000}",
                "\u{E000}",
            ),
        ];
        for (what, text, shown) in table {
            assert_eq!(one_line(text), *shown, "{what}");
            assert_eq!(
                one_line(&one_line(text)),
                *shown,
                "{what}: cleaning twice changes nothing"
            );
        }
    }

    #[test]
    fn lines_keep_their_breaks_and_columns() {
        assert_eq!(lines("a  b\r\nc\u{202E}d\u{1B}\te"), "a  b\ncd e");
        assert_eq!(lines("  8 | r n b\n"), "  8 | r n b\n");
    }

    #[test]
    fn names_are_cut_by_characters_as_read_and_never_empty() {
        assert_eq!(name("alice").as_deref(), Some("alice"));
        let exactly = "x".repeat(NAME_LIMIT);
        assert_eq!(name(&exactly).as_deref(), Some(exactly.as_str()));
        let long = "abcdefghij".repeat(4);
        let cut = name(&long).unwrap();
        assert_eq!(cut.chars().count(), NAME_LIMIT);
        assert_eq!(cut, format!("{}…", &long[..NAME_LIMIT - 1]));
        // A family emoji is one character as read: never cut in its middle.
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        let many = format!("{}{}", "a".repeat(NAME_LIMIT - 2), family.repeat(3));
        let cut = name(&many).unwrap();
        assert_eq!(cut, format!("{}{family}…", "a".repeat(NAME_LIMIT - 2)));
        // No space before the ellipsis.
        let spaced = format!("{} tail of it", "b".repeat(NAME_LIMIT - 2));
        assert_eq!(name(&spaced).unwrap(), format!("{}…", "b".repeat(NAME_LIMIT - 2)));
        let again = name(&cut).unwrap();
        assert_eq!(again, cut, "a cut name is kept as it is");
        assert_eq!(name("\u{202E}\u{200B} \u{3164}\u{1B}"), None);
        assert_eq!(name_or("\u{200B}", "bob\u{202E}"), "bob");
        assert_eq!(name_or("\u{200B}", "\u{200B}"), SOMEONE);
    }

    #[test]
    fn images_draw_no_invisible_character() {
        for c in [
            '\u{202E}',
            '\u{2066}',
            '\u{200B}',
            '\u{1B}',
            '\r',
            '\u{FE0F}',
            '\u{200D}',
            '\u{E0067}',
        ] {
            assert!(is_invisible(c), "{:?}", c);
        }
        for c in ['a', ' ', '\u{E9}', '\u{2764}', '\u{301}'] {
            assert!(!is_invisible(c), "{:?}", c);
        }
    }
}
