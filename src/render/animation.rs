//! Animated replays: a game's board images, one frame per change, encoded as a GIF.
//!
//! Every frame shares one palette (a board's colours hardly change from move to move) and only
//! the box of pixels that changed since the frame before is stored, so a move costs the bytes of
//! two squares and a strip rather than a whole board.

use super::scene::{BoardImage, Scene};
use super::{Palette, RenderError, Renderer, svg, tiny_skia};

/// At most this many frames go into one replay; a longer game shows every second action (or
/// third...), and says so.
pub const MOST_FRAMES: usize = 300;

/// Frames drawn at a time: enough to keep two cores busy, few enough to keep memory small.
const BATCH: usize = 8;

/// The largest replay made: Discord takes attachments of up to 10 MiB on any server; this
/// leaves room for the message around it.
pub const MOST_REPLAY_BYTES: usize = 8 * 1024 * 1024;

/// The palette index of a pixel as the frame before left it (transparent).
const UNCHANGED: u8 = 255;

/// A game's replay: the images in order, each with how long it stays.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    pub frames: Vec<AnimationFrame>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnimationFrame {
    pub image: BoardImage,
    pub delay_ms: u32,
}

/// An encoded replay, and how many of the animation's frames it holds.
#[derive(Clone, Debug)]
pub struct Gif {
    pub bytes: Vec<u8>,
    pub shown: usize,
    pub of: usize,
}

impl Gif {
    /// What a reader should know when frames were left out ("every 2nd action shown").
    pub fn note(&self) -> Option<String> {
        (self.shown < self.of).then(|| {
            format!(
                "This game is long, so the replay shows {} of its {} positions (the first and the last among them).",
                self.shown, self.of
            )
        })
    }
}

impl Renderer {
    /// The animation as a GIF of at most `max_bytes`: every frame when they fit, otherwise every
    /// second (third...) frame, always with the first and the last.
    pub fn gif(&self, animation: &Animation, max_bytes: usize) -> Result<Gif, RenderError> {
        let of = animation.frames.len();
        if of == 0 {
            return Err(RenderError::Size(0, 0));
        }
        let mut stride = of.div_ceil(MOST_FRAMES).max(1);
        loop {
            let picked = pick(&animation.frames, stride);
            let bytes = self.encode_gif(&picked)?;
            if bytes.len() <= max_bytes || picked.len() <= 2 {
                return Ok(Gif {
                    bytes,
                    shown: picked.len(),
                    of,
                });
            }
            // Bytes grow with the frames kept: aim a little under the limit in one more try.
            let ratio = bytes.len() as f64 / max_bytes as f64;
            stride = ((stride as f64 * ratio * 1.1).ceil() as usize).max(stride + 1);
        }
    }

    fn encode_gif(&self, frames: &[&AnimationFrame]) -> Result<Vec<u8>, RenderError> {
        let scenes: Vec<_> = frames.iter().map(|f| f.image.scene()).collect();
        let (width, height) = scenes
            .iter()
            .map(svg::pixel_size)
            .fold((1, 1), |(w, h), (fw, fh)| (w.max(fw), h.max(fh)));
        let too_large = || RenderError::Size(width, height);
        let (gif_width, gif_height) = (
            u16::try_from(width).map_err(|_| too_large())?,
            u16::try_from(height).map_err(|_| too_large())?,
        );
        let canvas = Canvas { width, height };
        let first = canvas.place(&self.pixels(&scenes[0])?);
        let last = canvas.place(&self.pixels(&scenes[scenes.len() - 1])?);
        // The first and last positions hold the colours of the board, the pieces that are
        // left and the marks of a move: the palette every frame shares, less one index that
        // stands for "as before" (transparent over the frame underneath).
        let mut palette = Palette::of_at_most(&[first.as_slice(), last.as_slice()].concat(), UNCHANGED as usize);
        let mut colors = palette.rgb_bytes();
        colors.resize(256 * 3, 0);
        let mut out = Vec::new();
        {
            let mut encoder = gif::Encoder::new(&mut out, gif_width, gif_height, &colors)?;
            encoder.set_repeat(gif::Repeat::Infinite)?;
            let mut pending: Option<gif::Frame<'static>> = None;
            let mut previous: Option<Vec<u32>> = None;
            let mut drawn = Vec::new().into_iter();
            for (index, frame) in frames.iter().enumerate() {
                if index % BATCH == 0 {
                    let batch = &scenes[index..(index + BATCH).min(scenes.len())];
                    drawn = self.draw_batch(&canvas, batch)?.into_iter();
                }
                let pixels = drawn.next().ok_or(RenderError::Size(width, height))?;
                let delay = u16::try_from(frame.delay_ms / 10).unwrap_or(u16::MAX);
                let changed = match &previous {
                    None => Some(Rect {
                        left: 0,
                        top: 0,
                        right: width,
                        bottom: height,
                    }),
                    Some(before) => canvas.changed(before, &pixels),
                };
                match (changed, pending.as_mut()) {
                    // Nothing to see changed: the frame before simply stays longer.
                    (None, Some(held)) => held.delay = held.delay.saturating_add(delay),
                    (Some(rect), _) => {
                        if let Some(held) = pending.take() {
                            encoder.write_frame(&held)?;
                        }
                        let before = previous.as_deref();
                        pending = Some(canvas.frame(&pixels, before, rect, delay, &mut palette));
                    }
                    (None, None) => {}
                }
                previous = Some(pixels);
            }
            if let Some(held) = pending {
                encoder.write_frame(&held)?;
            }
        }
        Ok(out)
    }
}

impl Renderer {
    /// Draws frames on two threads where the machine has two cores: half the batch here, half
    /// beside it.
    fn draw_batch(&self, canvas: &Canvas, scenes: &[Scene]) -> Result<Vec<Vec<u32>>, RenderError> {
        let draw = |scenes: &[Scene]| -> Result<Vec<Vec<u32>>, RenderError> {
            scenes
                .iter()
                .map(|scene| Ok(canvas.place(&self.pixels(scene)?)))
                .collect()
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores < 2 || scenes.len() < 2 {
            return draw(scenes);
        }
        let (mine, theirs) = scenes.split_at(scenes.len() / 2);
        std::thread::scope(|scope| {
            let helper = scope.spawn(|| draw(theirs));
            let mut drawn = draw(mine)?;
            let rest = helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            drawn.extend(rest);
            Ok(drawn)
        })
    }
}

/// Every `stride`-th frame, and always the last.
fn pick(frames: &[AnimationFrame], stride: usize) -> Vec<&AnimationFrame> {
    let last = frames.len() - 1;
    frames
        .iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0 || *i == last)
        .map(|(_, f)| f)
        .collect()
}

/// The replay's picture area: every frame is drawn from its top left corner on the background,
/// the area being as large as the largest frame (a pool shrinks, a result line appears).
struct Canvas {
    width: u32,
    height: u32,
}

/// A box of pixels, right and bottom exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    left: u32,
    top: u32,
    right: u32,
    bottom: u32,
}

impl Canvas {
    /// The image's pixels (as 0RGB) on the canvas.
    fn place(&self, pixmap: &tiny_skia::Pixmap) -> Vec<u32> {
        let [r, g, b] = svg::BACKGROUND_RGB;
        let mut pixels = vec![u32::from_be_bytes([0, r, g, b]); (self.width * self.height) as usize];
        let row_width = pixmap.width().min(self.width) as usize;
        for (y, row) in pixmap
            .data()
            .chunks_exact(pixmap.width() as usize * 4)
            .take(self.height as usize)
            .enumerate()
        {
            let start = y * self.width as usize;
            for (pixel, px) in pixels[start..start + row_width].iter_mut().zip(row.chunks_exact(4)) {
                *pixel = u32::from_be_bytes([0, px[0], px[1], px[2]]);
            }
        }
        pixels
    }

    /// The smallest box holding every pixel that differs, if any does.
    fn changed(&self, before: &[u32], after: &[u32]) -> Option<Rect> {
        let width = self.width as usize;
        let mut rect: Option<Rect> = None;
        for (y, (old, new)) in before.chunks_exact(width).zip(after.chunks_exact(width)).enumerate() {
            let Some(first) = old.iter().zip(new).position(|(a, b)| a != b) else {
                continue;
            };
            let last = width
                - 1
                - old
                    .iter()
                    .rev()
                    .zip(new.iter().rev())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
            let (y, first, last) = (y as u32, first as u32, last as u32);
            rect = Some(match rect {
                None => Rect {
                    left: first,
                    top: y,
                    right: last + 1,
                    bottom: y + 1,
                },
                Some(r) => Rect {
                    left: r.left.min(first),
                    top: r.top,
                    right: r.right.max(last + 1),
                    bottom: y + 1,
                },
            });
        }
        rect
    }

    /// The box `rect` of `pixels` as a GIF frame in the shared palette, kept on screen under
    /// the frames after it. Inside the box, what is as it was `before` is left transparent: a
    /// move changes two squares and the players' strips, and long runs of "unchanged" cost
    /// almost nothing once compressed.
    fn frame(
        &self,
        pixels: &[u32],
        before: Option<&[u32]>,
        rect: Rect,
        delay: u16,
        palette: &mut Palette,
    ) -> gif::Frame<'static> {
        let mut indices = Vec::with_capacity(((rect.right - rect.left) * (rect.bottom - rect.top)) as usize);
        for y in rect.top..rect.bottom {
            let row = (y * self.width) as usize;
            let span = row + rect.left as usize..row + rect.right as usize;
            match before {
                Some(before) => {
                    for (&pixel, &was) in pixels[span.clone()].iter().zip(&before[span]) {
                        indices.push(if pixel == was {
                            UNCHANGED
                        } else {
                            palette.index_or_nearest(pixel)
                        });
                    }
                }
                None => indices.extend(pixels[span].iter().map(|&pixel| palette.index_or_nearest(pixel))),
            }
        }
        gif::Frame {
            delay,
            transparent: before.map(|_| UNCHANGED),
            dispose: gif::DisposalMethod::Keep,
            left: rect.left as u16,
            top: rect.top as u16,
            width: (rect.right - rect.left) as u16,
            height: (rect.bottom - rect.top) as u16,
            buffer: indices.into(),
            ..gif::Frame::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::Game;

    #[test]
    fn the_changed_box_holds_exactly_the_pixels_that_differ() {
        let canvas = Canvas { width: 5, height: 4 };
        let before = vec![0u32; 20];
        let mut after = before.clone();
        assert_eq!(canvas.changed(&before, &after), None);
        after[5 + 1] = 7; // (1, 1)
        after[2 * 5 + 3] = 9; // (3, 2)
        assert_eq!(
            canvas.changed(&before, &after),
            Some(Rect {
                left: 1,
                top: 1,
                right: 4,
                bottom: 3
            })
        );
    }

    #[test]
    fn picking_keeps_the_first_and_the_last_frame() {
        let frame = |delay_ms| AnimationFrame {
            image: BoardImage {
                view: arbiter_engine::AnyGame::new(arbiter_engine::VariantId::Chess)
                    .view(arbiter_engine::Viewer::Spectator),
                decor: Default::default(),
            },
            delay_ms,
        };
        let frames: Vec<AnimationFrame> = (0..10).map(frame).collect();
        let delays = |stride| pick(&frames, stride).iter().map(|f| f.delay_ms).collect::<Vec<_>>();
        assert_eq!(delays(1).len(), 10);
        assert_eq!(delays(3), vec![0, 3, 6, 9]);
        assert_eq!(delays(4), vec![0, 4, 8, 9]);
    }
}
