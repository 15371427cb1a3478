//! The colours of an image in a palette of at most 256, and images encoded with it: a board as
//! an indexed PNG, a replay's frames as GIF indices.
//!
//! A board has a few hundred colours at most (flat squares and pieces, plus the shades of
//! anti-aliased edges), so the most frequent colours are kept exactly and the rare edge shades
//! take their nearest palette colour: about a quarter of the size of an RGB PNG, with no visible
//! change.

use super::RenderError;
use resvg::tiny_skia::Pixmap;

/// Encodes an opaque pixmap as an indexed PNG.
pub fn encode_indexed(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let pixels = pixmap.data().chunks_exact(4).map(rgb);
    let runs = Runs::of(pixels, pixmap.data().len() / 4);
    let (palette, index_of_id) = Palette::of_runs(&runs, 256);
    let mut indices = Vec::with_capacity(pixmap.data().len() / 4);
    for &(id, length) in &runs.runs {
        indices.resize(indices.len() + length as usize, index_of_id[id as usize]);
    }
    let mut out = Vec::with_capacity(indices.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.rgb_bytes());
    // fdeflate's fast mode over Paeth-filtered rows: measured on a board, both faster and
    // smaller than the adaptive filter (`arbiter bench render`).
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Paeth);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&indices)?;
    writer.finish()?;
    Ok(out)
}

/// An opaque pixmap's pixel (RGBA bytes) as a colour, 0RGB, in a form the compiler turns into
/// a few instructions for many pixels at once.
pub(super) fn rgb(px: &[u8]) -> u32 {
    u32::from_be_bytes([px[0], px[1], px[2], px[3]]) >> 8
}

/// Colours are spread over the table by one multiplication: the default hasher, made to resist
/// hostile keys, costs more than all the rest of the palette work, and pixels are not hostile.
#[derive(Default)]
struct ColorHasher(u64);

impl std::hash::Hasher for ColorHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u32(&mut self, value: u32) {
        self.0 = u64::from(value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type ColorMap<V> = std::collections::HashMap<u32, V, std::hash::BuildHasherDefault<ColorHasher>>;

/// An image's pixels as runs of one colour, each colour numbered in order of first appearance:
/// a colour is looked up once per run, and every later step works on the numbers.
struct Runs {
    /// Each colour, by its number.
    colors: Vec<u32>,
    /// How many pixels have each colour, by its number.
    counts: Vec<usize>,
    /// The colour's number and the length of each run, in order.
    runs: Vec<(u32, u32)>,
}

impl Runs {
    fn of(pixels: impl Iterator<Item = u32>, size_hint: usize) -> Runs {
        let mut numbers = Numbers::default();
        let mut runs = Runs {
            colors: Vec::new(),
            counts: Vec::new(),
            runs: Vec::with_capacity(size_hint / 16),
        };
        let mut current: Option<(u32, u32)> = None;
        for pixel in pixels {
            match current.as_mut() {
                Some((color, length)) if *color == pixel => *length += 1,
                _ => {
                    if let Some((color, length)) = current {
                        runs.push(&mut numbers, color, length);
                    }
                    current = Some((pixel, 1));
                }
            }
        }
        if let Some((color, length)) = current {
            runs.push(&mut numbers, color, length);
        }
        runs
    }

    fn push(&mut self, numbers: &mut Numbers, color: u32, length: u32) {
        let number = numbers.of(color, || {
            self.colors.push(color);
            self.counts.push(0);
            (self.colors.len() - 1) as u32
        });
        self.counts[number as usize] += length as usize;
        self.runs.push((number, length));
    }
}

/// Colour numbers by colour: the last few hundred looked up in a small table first (an edge's
/// shades come back run after run), all of them in a map behind it.
struct Numbers {
    recent: Box<[(u32, u32); Numbers::RECENT]>,
    all: ColorMap<u32>,
}

impl Default for Numbers {
    fn default() -> Numbers {
        Numbers {
            // No colour is 0xffffffff (colours are 0RGB), so every slot starts empty.
            recent: Box::new([(u32::MAX, 0); Numbers::RECENT]),
            all: ColorMap::default(),
        }
    }
}

impl Numbers {
    const RECENT: usize = 512;

    /// The number of `color`, from `new` the first time it is seen.
    fn of(&mut self, color: u32, new: impl FnOnce() -> u32) -> u32 {
        let slot = (color.wrapping_mul(0x9e37_79b1) >> 23) as usize % Numbers::RECENT;
        if self.recent[slot].0 == color {
            return self.recent[slot].1;
        }
        let number = *self.all.entry(color).or_insert_with(new);
        self.recent[slot] = (color, number);
        number
    }
}

/// Up to 256 colours and where every colour of an image goes.
pub(super) struct Palette {
    colors: Vec<u32>,
    lookup: ColorMap<u8>,
}

impl Palette {
    /// The `most` most frequent colours of `pixels` (a GIF keeps one index of 256 for
    /// "unchanged").
    pub(super) fn of_at_most(images: &[&[u32]], most: usize) -> Palette {
        let pixels = images.iter().flat_map(|image| image.iter().copied());
        let size = images.iter().map(|image| image.len()).sum();
        Palette::of_runs(&Runs::of(pixels, size), most).0
    }

    /// The palette of the `most` most frequent colours, and the index each colour number takes.
    fn of_runs(runs: &Runs, most: usize) -> (Palette, Vec<u8>) {
        let mut by_count: Vec<usize> = (0..runs.colors.len()).collect();
        // Most frequent first; ties by colour, so the same image always gets the same palette.
        by_count.sort_unstable_by(|&a, &b| {
            runs.counts[b]
                .cmp(&runs.counts[a])
                .then(runs.colors[a].cmp(&runs.colors[b]))
        });
        let colors: Vec<u32> = by_count.iter().take(most).map(|&number| runs.colors[number]).collect();
        let mut index_of = vec![0u8; runs.colors.len()];
        for (index, &number) in by_count.iter().enumerate() {
            index_of[number] = match u8::try_from(index) {
                Ok(index) if (index as usize) < most => index,
                _ => nearest(&colors, runs.colors[number]),
            };
        }
        let mut lookup = ColorMap::with_capacity_and_hasher(runs.colors.len(), Default::default());
        for (number, &color) in runs.colors.iter().enumerate() {
            lookup.insert(color, index_of[number]);
        }
        (Palette { colors, lookup }, index_of)
    }

    #[cfg(test)]
    fn index_of(&self, color: u32) -> u8 {
        self.lookup.get(&color).copied().unwrap_or(0)
    }

    /// Gives the index of a colour, or of its nearest colour when the palette was made from
    /// other pixels (a replay's later frames). The nearest ones are remembered by the indexer,
    /// and the last colour asked for is kept at hand (neighbouring pixels mostly share one).
    pub(super) fn indexer(&self) -> impl FnMut(u32) -> u8 + '_ {
        let mut nearest_ones: ColorMap<u8> = ColorMap::default();
        let mut last = (u32::MAX, 0u8);
        move |color| {
            if color != last.0 {
                let index = match self.lookup.get(&color) {
                    Some(&index) => index,
                    None => *nearest_ones
                        .entry(color)
                        .or_insert_with(|| nearest(&self.colors, color)),
                };
                last = (color, index);
            }
            last.1
        }
    }

    pub(super) fn rgb_bytes(&self) -> Vec<u8> {
        self.colors
            .iter()
            .flat_map(|c| {
                let [_, r, g, b] = c.to_be_bytes();
                [r, g, b]
            })
            .collect()
    }
}

/// The index of the palette colour closest to `color`.
fn nearest(colors: &[u32], color: u32) -> u8 {
    let distance = |a: u32, b: u32| {
        let [_, ar, ag, ab] = a.to_be_bytes();
        let [_, br, bg, bb] = b.to_be_bytes();
        let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
        d(ar, br) + d(ag, bg) + d(ab, bb)
    };
    colors
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| distance(**c, color))
        .map_or(0, |(i, _)| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_keeps_frequent_colours_exactly_and_maps_rare_ones_to_the_nearest() {
        // 256 colours of 10 pixels each, and 40 rare edge shades one step off some of them.
        let frequent: Vec<u32> = (0..256u32).map(|i| u32::from_be_bytes([0, i as u8, 40, 200])).collect();
        let mut pixels: Vec<u32> = frequent.iter().flat_map(|&c| [c; 10]).collect();
        let rare: Vec<u32> = (0..40u32)
            .map(|i| u32::from_be_bytes([0, (i * 6) as u8, 41, 201]))
            .collect();
        pixels.extend(&rare);
        let palette = Palette::of_at_most(&[&pixels], 256);
        assert_eq!(palette.colors.len(), 256);
        for &color in &frequent {
            assert_eq!(
                palette.colors[palette.index_of(color) as usize],
                color,
                "{color:06x} is kept"
            );
        }
        for &color in &rare {
            let kept = palette.colors[palette.index_of(color) as usize];
            let [_, r, _, _] = color.to_be_bytes();
            assert_eq!(
                kept,
                u32::from_be_bytes([0, r, 40, 200]),
                "{color:06x} goes to its neighbour"
            );
        }
    }

    #[test]
    fn a_png_holds_the_pixels_it_was_given() {
        // 300 colours, in runs and alone: the 256 most frequent come back exactly.
        let mut pixmap = Pixmap::new(40, 30).unwrap();
        for (index, pixel) in pixmap.pixels_mut().iter_mut().enumerate() {
            let shade = if index < 600 {
                (index / 8) as u8
            } else {
                (index % 300) as u8
            };
            *pixel = resvg::tiny_skia::PremultipliedColorU8::from_rgba(shade, 255 - shade, 90, 255).unwrap();
        }
        let png = encode_indexed(&pixmap).unwrap();
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buffer).unwrap();
        let runs = Runs::of(pixmap.data().chunks_exact(4).map(rgb), 1200);
        let (palette, _) = Palette::of_runs(&runs, 256);
        for (pixel, decoded) in pixmap.data().chunks_exact(4).zip(buffer.chunks_exact(3)) {
            let color = rgb(pixel);
            let kept = palette.colors[palette.index_of(color) as usize];
            assert_eq!(u32::from_be_bytes([0, decoded[0], decoded[1], decoded[2]]), kept);
        }
    }
}
