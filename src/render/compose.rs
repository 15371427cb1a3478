//! Pixels laid over pixels directly. tiny-skia draws a pixmap on another through its general
//! pipeline (a pattern shader sampled per pixel in floating point); a piece's sprite at a whole
//! pixel offset needs none of that. This does the same arithmetic the pipeline does for it, so
//! the pixels are the very same, at a fraction of the cost.

use resvg::tiny_skia::{Pixmap, PremultipliedColorU8};

/// tiny-skia's factor from a byte to a unit value.
const UNIT: f32 = 1.0 / 255.0;

/// Lays `sprite` over `target` with its top-left corner at (`x`, `y`) (source-over, both
/// premultiplied): what `target.draw_pixmap(x, y, sprite, &PixmapPaint::default(),
/// Transform::identity(), None)` draws. What falls outside `target` is left out.
pub fn draw_over(target: &mut Pixmap, sprite: &Pixmap, x: i32, y: i32) {
    let (target_width, target_height) = (target.width() as i32, target.height() as i32);
    let (sprite_width, sprite_height) = (sprite.width() as i32, sprite.height() as i32);
    let (left, top) = (x.max(0), y.max(0));
    let (right, bottom) = (
        (x + sprite_width).min(target_width),
        (y + sprite_height).min(target_height),
    );
    if left >= right || top >= bottom {
        return;
    }
    let width = (right - left) as usize;
    let source = sprite.data();
    let destination = target.data_mut();
    for row in top..bottom {
        let from = (((row - y) * sprite_width + (left - x)) * 4) as usize;
        let to = ((row * target_width + left) * 4) as usize;
        let source = &source[from..from + width * 4];
        let destination = &mut destination[to..to + width * 4];
        for (over, under) in source.chunks_exact(4).zip(destination.chunks_exact_mut(4)) {
            match over[3] {
                0 => {}
                255 => under.copy_from_slice(over),
                alpha => {
                    let keep = 1.0 - f32::from(alpha) * UNIT;
                    for channel in 0..4 {
                        let value = f32::from(under[channel]) * UNIT * keep + f32::from(over[channel]) * UNIT;
                        under[channel] = to_byte(value);
                    }
                }
            }
        }
    }
}

/// Fills `rect` (left, top, right and bottom in the drawing's pixels) with one opaque colour, on
/// `target` whose top-left corner is `origin` in the drawing: what filling the rectangle as a
/// path gives where its edges fall on whole pixels (every pixel inside wholly covered, every one
/// outside not at all).
pub fn fill(target: &mut Pixmap, [left, top, right, bottom]: [u32; 4], [r, g, b]: [u8; 3], origin: (i32, i32)) {
    let (width, height) = (target.width() as i64, target.height() as i64);
    let clip = |value: u32, shift: i32, most: i64| (i64::from(value) - i64::from(shift)).clamp(0, most) as usize;
    let (left, right) = (clip(left, origin.0, width), clip(right, origin.0, width));
    let (top, bottom) = (clip(top, origin.1, height), clip(bottom, origin.1, height));
    if left >= right {
        return;
    }
    let Some(color) = PremultipliedColorU8::from_rgba(r, g, b, 255) else {
        return;
    };
    for row in target
        .pixels_mut()
        .chunks_exact_mut(width as usize)
        .take(bottom)
        .skip(top)
    {
        row[left..right].fill(color);
    }
}

/// A unit value as a byte the way tiny-skia stores it: clamped, scaled, rounded half to even.
fn to_byte(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::{PixmapPaint, Transform};

    /// A pixmap of premultiplied pixels from a simple generator (every alpha, soft edges too).
    fn pixmap(width: u32, height: u32, seed: u32) -> Pixmap {
        let mut pixmap = Pixmap::new(width, height).unwrap();
        let mut state = seed.wrapping_mul(2_654_435_761).max(1);
        for pixel in pixmap.pixels_mut() {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let [a, r, g, b] = state.to_be_bytes();
            // A quarter each transparent and opaque, the rest in between.
            let alpha = match a % 4 {
                0 => 0,
                1 => 255,
                _ => a,
            };
            let scale = |c: u8| ((u16::from(c) * u16::from(alpha)) / 255) as u8;
            *pixel = PremultipliedColorU8::from_rgba(scale(r), scale(g), scale(b), alpha).unwrap();
        }
        pixmap
    }

    #[test]
    fn a_sprite_drawn_over_gives_the_pixels_tiny_skia_gives() {
        let sprite = pixmap(23, 17, 7);
        // Inside, and cut by each edge and corner.
        for (x, y) in [(5, 6), (-4, 3), (30, -5), (-10, -8), (35, 20), (2, 30), (60, 0)] {
            let under = pixmap(48, 40, 3);
            let mut expected = under.clone();
            expected.draw_pixmap(
                x,
                y,
                sprite.as_ref(),
                &PixmapPaint::default(),
                Transform::identity(),
                None,
            );
            let mut drawn = under.clone();
            draw_over(&mut drawn, &sprite, x, y);
            assert!(drawn.data() == expected.data(), "at ({x}, {y})");
        }
    }
}
