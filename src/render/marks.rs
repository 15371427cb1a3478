//! The marks drawn on a square (tints, dots, rings, badges), on a board or as a key's sample.

use super::scene::{Badge, Marker, Rgba};
use super::svg_text::{escape, num, rgba_fill};
use std::fmt::Write;

/// A square-sized tint. A near-white tint (White's statue, a square White owns) vanishes on a
/// light square, so it gets a dark inner frame as well.
pub(super) fn write_tint(out: &mut String, x: f32, y: f32, square: f32, color: Rgba) {
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}/>",
        num(x),
        num(y),
        num(square),
        num(square),
        rgba_fill(color)
    );
    if color.is_whitish() {
        let inset = square * 0.04;
        write_outline(out, (x, y, square), inset, FRAME, inset * 1.5);
    }
}

/// An unfilled square's outline `inset` inside the square whose top-left corner is (`x`, `y`).
fn write_outline(out: &mut String, (x, y, square): (f32, f32, f32), inset: f32, stroke: &str, width: f32) {
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
        num(x + inset),
        num(y + inset),
        num(square - 2.0 * inset),
        num(square - 2.0 * inset),
        num(width)
    );
}

/// A band around the edge of the square whose top-left corner is (`x`, `y`), in `color` between
/// two dark lines. The dark lines stand out from any square (5:1 on a dark one, more on a light
/// one) whatever the colour between them (White's white on a light square, Red's or Blue's on a
/// dark one, which a tint alone hardly tells from it), so the mark shows to eyes that do not tell
/// hues apart too. It lies inside the square's rim, which keeps the tint, and under the piece.
pub(super) fn write_frame(out: &mut String, x: f32, y: f32, square: f32, color: Rgba) {
    let inset = square * 0.17;
    for (stroke, width) in [(FRAME_EDGE.to_string(), square * 0.19), (color.hex(), square * 0.08)] {
        write_outline(out, (x, y, square), inset, &stroke, width);
    }
}

/// The dark lines of a band around a square.
const FRAME_EDGE: &str = "#1e1e1e";

/// The frame around a near-white tint.
pub const FRAME: &str = "#3c3c3c";

/// A dot or a ring on the square whose top-left corner is (`x`, `y`).
pub(super) fn write_marker(out: &mut String, x: f32, y: f32, square: f32, marker: &Marker) {
    let (cx, cy) = (x + square / 2.0, y + square / 2.0);
    match marker {
        Marker::Dot(color) => {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
                num(cx),
                num(cy),
                num(square * 0.15),
                rgba_fill(*color)
            );
        }
        // A light ring's dark edge shows about 2 px on either side of it (on a 55 px square), so
        // at least one whole pixel of it stands dark wherever the ring falls between pixels.
        Marker::Ring(color) => write_ring(out, (cx, cy, square * 0.44), (square * 0.14, square * 0.07), *color),
    }
}

/// A ring of `radius` around (`cx`, `cy`), `width` wide; a light ring is laid on a dark edge
/// `edge` wide, so it shows on light squares too.
pub(super) fn write_ring(out: &mut String, (cx, cy, radius): (f32, f32, f32), (edge, width): (f32, f32), color: Rgba) {
    if color.is_light() {
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#1e1e1e\" stroke-width=\"{}\"/>",
            num(cx),
            num(cy),
            num(radius),
            num(edge)
        );
    }
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-opacity=\"{}\" stroke-width=\"{}\"/>",
        num(cx),
        num(cy),
        num(radius),
        color.hex(),
        num(color.a),
        num(width)
    );
}

/// A badge in a corner of the square whose top-left corner is (`x`, `y`): the first badge of a
/// square in its top-right corner, a second in its top-left (two flags on one square, one lying
/// there and one carried by the piece standing on it), further ones in the bottom corners; so no
/// badge hides another.
pub(super) fn write_badge(out: &mut String, (x, y, square): (f32, f32, f32), slot: usize, badge: &Badge) {
    let radius = square * 0.17;
    let (near, far) = (radius + 1.0, square - radius - 1.0);
    let (cx, cy) = match slot % 4 {
        0 => (far, near),
        1 => (near, near),
        2 => (far, far),
        _ => (near, far),
    };
    write_badge_disc(out, x + cx, y + cy, radius, badge);
}

/// A badge's disc centred on (`cx`, `cy`), with its text.
pub(super) fn write_badge_disc(out: &mut String, cx: f32, cy: f32, radius: f32, badge: &Badge) {
    // White writing on a dark badge, dark on a light one (White's flag).
    let ink = if badge.color.is_light() { "#1e1e1e" } else { "#ffffff" };
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{ink}\" stroke-width=\"1.5\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
        num(cx),
        num(cy),
        num(radius),
        badge.color.hex(),
        num(cx),
        num(cy + radius * 0.45),
        num(radius * 1.25),
        escape(&badge.text)
    );
}
