//! The smallest pieces of SVG text: escaped words, short numbers, fills. Both the board's drawing
//! (`svg.rs`) and its marks (`marks.rs`) write with them.

use super::scene::Rgba;

/// Escapes text for SVG content and attributes.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Nothing is drawn that a reader could not see (a direction override would reverse
            // the words after it; a selector or joiner alone draws a missing glyph).
            c if crate::visible_text::is_invisible(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// Numbers with at most two decimals, without trailing zeros, so the text stays short and stable.
pub(super) fn num(value: f32) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A fill attribute for `color`, with its opacity only where it is not opaque.
pub(super) fn rgba_fill(color: Rgba) -> String {
    if color.a >= 1.0 {
        format!("fill=\"{}\"", color.hex())
    } else {
        format!("fill=\"{}\" fill-opacity=\"{}\"", color.hex(), num(color.a))
    }
}
