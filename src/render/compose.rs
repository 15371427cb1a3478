//! Pixels laid over pixels directly. tiny-skia draws a pixmap on another through its general
//! pipeline (a pattern shader sampled per pixel in floating point); a piece's sprite at a whole
//! pixel offset needs none of that. This does the same arithmetic the pipeline does for it, so
//! the pixels are the very same, at a fraction of the cost.

use resvg::tiny_skia::Pixmap;

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

/// A unit value as a byte the way tiny-skia stores it: clamped, scaled, rounded half to even.
fn to_byte(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::{PixmapPaint, PremultipliedColorU8, Transform};

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
