//! Words drawn once and then copied. Rasterising glyph outlines is the costly part of a board
//! image's words, and an image's words are nearly all the ones the image before it had, in the
//! same place, on the same pixels (names on their strips, coordinates beside the board, a
//! legend under it). A text element remembers the pixels under it and what drawing it made of
//! them; when the pixels under it are those again, the result is copied instead of drawn. The
//! pixels are compared whole, so a copy is always the very pixels drawing would give.

use resvg::{tiny_skia, usvg};
use std::sync::Mutex;

/// A text element laid out, and the pixels of its last drawing.
pub struct TextElement {
    tree: usvg::Tree,
    /// The box (left, top, right, bottom, in the drawing's pixels) holding every pixel drawing
    /// the element may touch; `None` when it holds no glyph.
    bounds: Option<[i32; 4]>,
    /// The box's pixels before and after the last drawing.
    last: Mutex<Option<(Vec<u8>, Vec<u8>)>>,
}

/// Pixels around a glyph's outline its soft edge may touch.
const EDGE: f32 = 2.0;

impl TextElement {
    pub fn new(tree: usvg::Tree) -> TextElement {
        let bounds = tree.root().abs_stroke_bounding_box();
        let bounds = (bounds.width() > 0.0 && bounds.height() > 0.0).then(|| {
            [
                (bounds.left() - EDGE).floor() as i32,
                (bounds.top() - EDGE).floor() as i32,
                (bounds.right() + EDGE).ceil() as i32,
                (bounds.bottom() + EDGE).ceil() as i32,
            ]
        });
        TextElement {
            tree,
            bounds,
            last: Mutex::new(None),
        }
    }

    /// Draws the element on `pixmap`, whose top-left corner is `origin` in the drawing.
    pub fn draw(&self, pixmap: &mut tiny_skia::Pixmap, (left, top): (i32, i32)) {
        let shift = tiny_skia::Transform::from_translate(-left as f32, -top as f32);
        let Some([x0, y0, x1, y1]) = self.bounds else {
            return;
        };
        let (x0, y0, x1, y1) = (x0 - left, y0 - top, x1 - left, y1 - top);
        let (width, height) = (pixmap.width() as i32, pixmap.height() as i32);
        if x1 <= 0 || y1 <= 0 || x0 >= width || y0 >= height {
            return;
        }
        // Cut by the pixmap's edge (a replay's patch): drawn, as drawing cut there differs.
        if x0 < 0 || y0 < 0 || x1 > width || y1 > height {
            resvg::render(&self.tree, shift, &mut pixmap.as_mut());
            return;
        }
        let area = Area {
            left: x0 as usize,
            top: y0 as usize,
            width: (x1 - x0) as usize,
            height: (y1 - y0) as usize,
        };
        let before = area.read(pixmap);
        let mut last = self.last.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((was, drawn)) = last.as_ref()
            && *was == before
        {
            area.write(pixmap, drawn);
            return;
        }
        resvg::render(&self.tree, shift, &mut pixmap.as_mut());
        *last = Some((before, area.read(pixmap)));
    }
}

/// A box of a pixmap's pixels.
struct Area {
    left: usize,
    top: usize,
    width: usize,
    height: usize,
}

impl Area {
    fn rows<'a>(&self, data: &'a [u8], stride: usize) -> impl Iterator<Item = &'a [u8]> {
        let (from, to) = (self.left * 4, (self.left + self.width) * 4);
        data.chunks_exact(stride)
            .skip(self.top)
            .take(self.height)
            .map(move |row| &row[from..to])
    }

    fn read(&self, pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
        let stride = pixmap.width() as usize * 4;
        let mut out = Vec::with_capacity(self.width * self.height * 4);
        for row in self.rows(pixmap.data(), stride) {
            out.extend_from_slice(row);
        }
        out
    }

    fn write(&self, pixmap: &mut tiny_skia::Pixmap, pixels: &[u8]) {
        let stride = pixmap.width() as usize * 4;
        let (from, to) = (self.left * 4, (self.left + self.width) * 4);
        let rows = pixmap
            .data_mut()
            .chunks_exact_mut(stride)
            .skip(self.top)
            .take(self.height);
        for (row, source) in rows.zip(pixels.chunks_exact(self.width * 4)) {
            row[from..to].copy_from_slice(source);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Renderer;

    /// Drawn again on the same pixels, the words are copied; on other pixels they are drawn
    /// anew. Either way the pixels are those drawing gives.
    #[test]
    fn words_copied_or_drawn_are_the_pixels_drawing_gives() {
        let document = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"40\" \
                        font-family=\"DejaVu Sans\"><text x=\"6\" y=\"26\" font-size=\"16\" \
                        fill=\"#e8e6e3\">alice · 0:42</text></svg>";
        let tree = Renderer::new().tree(document).unwrap();
        let element = TextElement::new(Renderer::new().tree(document).unwrap());
        let background = |rgb: [u8; 3]| {
            let mut pixmap = tiny_skia::Pixmap::new(120, 40).unwrap();
            pixmap.fill(tiny_skia::Color::from_rgba8(rgb[0], rgb[1], rgb[2], 255));
            pixmap
        };
        let drawn_on = |rgb| {
            let mut pixmap = background(rgb);
            resvg::render(&tree, tiny_skia::Transform::identity(), &mut pixmap.as_mut());
            pixmap
        };
        for rgb in [
            [0x31, 0x2e, 0x2b],
            [0x31, 0x2e, 0x2b],
            [0x4b, 0x6b, 0x38],
            [0x31, 0x2e, 0x2b],
        ] {
            let mut pixmap = background(rgb);
            element.draw(&mut pixmap, (0, 0));
            assert!(pixmap.data() == drawn_on(rgb).data(), "on {rgb:?}");
            assert!(pixmap.data() != background(rgb).data(), "the words are there");
        }
        // Cut by the pixmap's edge (a replay's patch), drawn as drawing cut there gives.
        let mut patch = tiny_skia::Pixmap::new(50, 40).unwrap();
        element.draw(&mut patch, (30, 0));
        let mut expected = tiny_skia::Pixmap::new(50, 40).unwrap();
        let shift = tiny_skia::Transform::from_translate(-30.0, 0.0);
        resvg::render(&tree, shift, &mut expected.as_mut());
        assert!(patch.data() == expected.data());
    }
}
