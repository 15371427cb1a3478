//! Animated replays: a game's board images, one frame per change, encoded as a GIF.
//!
//! Every frame shares one palette (a board's colours hardly change from move to move) and only
//! the box of pixels that changed since the frame before is stored, so a move costs the bytes of
//! its squares rather than a whole board. Drawing goes the same way: where a move changed only
//! squares, only their box is drawn, over the frame before.

use super::indexed::rgb;
use super::pieces::Picture;
use super::scene::{BoardImage, Scene};
use super::{Palette, RenderError, Renderer, layout, svg, tiny_skia};

/// At most this many frames go into one replay; a longer game shows every second action (or
/// third...), and says so.
pub const MOST_FRAMES: usize = 300;

/// Threads drawing a replay's frames (beside the one compressing them).
const DRAWERS: usize = 2;
/// Frames each may draw ahead: enough to keep the cores busy, few enough to keep memory small.
const AHEAD: usize = 4;

/// The largest replay made: Discord takes attachments of up to 10 MiB on any server; this
/// leaves room for the message around it.
pub const MOST_REPLAY_BYTES: usize = 8 * 1024 * 1024;

/// The palette index of a pixel as the frame before left it (transparent).
const UNCHANGED: u8 = 255;

/// Pixels drawn around a changed square's box, for the soft edges of what is drawn on it.
const SQUARE_MARGIN: f32 = 2.0;
/// Pixels drawn beyond the box that is kept: a shape cut by the edge of what is drawn gets
/// slightly different soft edges near that cut, which must fall outside the box.
const DRAWN_BEYOND: u32 = 12;

/// A frame as drawn: whole, only the box of squares that changed since the frame before, or
/// nothing (the same picture again).
enum Drawn {
    Whole(Vec<u32>),
    /// The box, pixels drawn over more than the box, and where the box starts in them.
    Patch(Rect, tiny_skia::Pixmap, (u32, u32)),
    Same,
}

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
        let mut scenes = on_two_cores(&mut frames.to_vec(), |frame| frame.image.scene());
        pools_in_words(&mut scenes);
        let (width, height) = on_two_cores(&mut scenes.iter().collect::<Vec<_>>(), |scene| {
            layout::pixel_size(scene)
        })
        .into_iter()
        .fold((1, 1), |(w, h), (fw, fh)| (w.max(fw), h.max(fh)));
        let too_large = || RenderError::Size(width, height);
        let (gif_width, gif_height) = (
            u16::try_from(width).map_err(|_| too_large())?,
            u16::try_from(height).map_err(|_| too_large())?,
        );
        let canvas = Canvas { width, height };
        let mut ends = [&scenes[0], &scenes[scenes.len() - 1]];
        let [first, last] = <[_; 2]>::try_from(on_two_cores(&mut ends, |scene| {
            self.pixels(scene).map(|pixels| canvas.place(&pixels))
        }))
        .map_err(|_| too_large())?;
        let (first, last) = (first?, last?);
        // The first and last positions hold the colours of the board, the pieces that are
        // left and the marks of a move: the palette every frame shares, less one index that
        // stands for "as before" (transparent over the frame underneath).
        let palette = Palette::of_at_most(&[&first, &last], UNCHANGED as usize);
        let mut colors = palette.rgb_bytes();
        colors.resize(256 * 3, 0);
        let mut out = Vec::new();
        let mut encoder = gif::Encoder::new(&mut out, gif_width, gif_height, &colors)?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        std::thread::scope(|scope| {
            // Frames are drawn by two threads, a few frames ahead, while this one lays each over
            // the one before and compresses it: every core busy all along.
            let drawn: Vec<_> = (0..DRAWERS)
                .map(|drawer| {
                    let (send, receive) = std::sync::mpsc::sync_channel(AHEAD);
                    let (scenes, canvas) = (&scenes, &canvas);
                    scope.spawn(move || {
                        for index in (1 + drawer..scenes.len()).step_by(DRAWERS) {
                            let frame = self.draw_frame(canvas, Some(&scenes[index - 1]), &scenes[index]);
                            if send.send(frame).is_err() {
                                break;
                            }
                        }
                    });
                    receive
                })
                .collect();
            let mut pending: Option<gif::Frame<'static>> = None;
            // The frame on screen: the first frame whole, then each drawn over the one before.
            let mut current = first;
            for (index, frame) in frames.iter().enumerate() {
                // What the area the frame redrew held before (none for the first frame). A drawer
                // hangs up early only by panicking, which the scope passes on.
                let before = match index {
                    0 => None,
                    _ => Some(match drawn[(index - 1) % DRAWERS].recv().map_err(|_| too_large())?? {
                        Drawn::Whole(pixels) => Before {
                            rect: canvas.whole(),
                            pixels: std::mem::replace(&mut current, pixels),
                        },
                        Drawn::Patch(rect, patch, at) => canvas.patch(&mut current, rect, &patch, at),
                        Drawn::Same => Before {
                            rect: Rect::NONE,
                            pixels: Vec::new(),
                        },
                    }),
                };
                let delay = u16::try_from(frame.delay_ms / 10).unwrap_or(u16::MAX);
                let changed = match &before {
                    None => Some(canvas.whole()),
                    Some(before) => canvas.changed(before, &current),
                };
                match (changed, pending.as_mut()) {
                    // Nothing to see changed: the frame before simply stays longer.
                    (None, Some(held)) => held.delay = held.delay.saturating_add(delay),
                    (Some(rect), _) => {
                        if let Some(held) = pending.take() {
                            encoder.write_lzw_pre_encoded_frame(&held)?;
                        }
                        pending = Some(canvas.frame(&current, before.as_ref(), rect, delay, &palette));
                    }
                    (None, None) => {}
                }
            }
            if let Some(held) = pending {
                encoder.write_lzw_pre_encoded_frame(&held)?;
            }
            Ok::<(), RenderError>(())
        })?;
        drop(encoder);
        Ok(out)
    }
}

/// `work` done on each item, in order, on two threads where the machine has two cores: the
/// first half here, the second beside it.
fn on_two_cores<T: Send, R: Send>(items: &mut [T], work: impl Fn(&mut T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 || items.len() < 2 {
        return items.iter_mut().map(&work).collect();
    }
    let middle = items.len() / 2;
    let (mine, theirs) = items.split_at_mut(middle);
    std::thread::scope(|scope| {
        let helper = scope.spawn(|| theirs.iter_mut().map(&work).collect::<Vec<R>>());
        let mut done: Vec<R> = mine.iter_mut().map(&work).collect();
        done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        done
    })
}

impl Renderer {
    /// One frame: only the box of the squares that changed when nothing else did, else whole.
    fn draw_frame(&self, canvas: &Canvas, before: Option<&Scene>, scene: &Scene) -> Result<Drawn, RenderError> {
        let changed = before.and_then(|before| scene.squares_changed_from(before));
        let Some(squares) = changed else {
            return Ok(Drawn::Whole(canvas.place(&self.pixels(scene)?)));
        };
        let Some(rect) = canvas.box_of(scene, &squares) else {
            return Ok(Drawn::Same);
        };
        let drawn = Rect {
            left: rect.left.saturating_sub(DRAWN_BEYOND),
            top: rect.top.saturating_sub(DRAWN_BEYOND),
            right: (rect.right + DRAWN_BEYOND).min(canvas.width),
            bottom: (rect.bottom + DRAWN_BEYOND).min(canvas.height),
        };
        let size = (drawn.right - drawn.left, drawn.bottom - drawn.top);
        let patch = self.pixels_within(scene, (drawn.left, drawn.top), size)?;
        Ok(Drawn::Patch(
            rect,
            patch,
            (rect.left - drawn.left, rect.top - drawn.top),
        ))
    }
}

/// In a replay that goes on past its picking, the frames with a pool still to pick from say the
/// pool in one line of words where its rows of pieces were drawn. Every frame of a GIF has the
/// size of the largest, so drawn, the pool's rows (a Patch pool of 32 took 210 px) stayed an
/// empty band under the board in every frame after the picking; a line is what a finished game's
/// last frame adds anyway (its result). A replay that ends in the picking keeps the pool drawn:
/// its last frame is the board image its game shows.
fn pools_in_words(scenes: &mut [Scene]) {
    if scenes.last().is_none_or(|last| !last.pool.is_empty()) {
        return;
    }
    for scene in scenes.iter_mut().filter(|scene| !scene.pool.is_empty()) {
        let words = pool_words(&scene.pool, layout::line_fits(scene));
        scene.lines.insert(0, words);
        scene.pool.clear();
    }
}

/// "Pool (13 to pick): queen ×2, DA, H ×2, …": each kind once with how many, the drawn pieces by
/// name and the tokens by their letters (which the legend names), as many kinds as fit in `fits`
/// characters.
fn pool_words(pool: &[Picture], fits: usize) -> String {
    let mut kinds: Vec<(&Picture, usize)> = Vec::new();
    for picture in pool {
        match kinds.iter_mut().find(|(known, _)| *known == picture) {
            Some((_, count)) => *count += 1,
            None => kinds.push((picture, 1)),
        }
    }
    let mut line = format!("Pool ({} to pick):", pool.len());
    for (index, (picture, count)) in kinds.iter().enumerate() {
        let name = match picture {
            Picture::Token { label, .. } => label.as_str(),
            Picture::Art(art) => art.id(),
        };
        // A kind and its count are never parted: the space between them does not break.
        let kind = match count {
            1 => name.to_string(),
            _ => format!("{name}\u{a0}×{count}"),
        };
        let last = index + 1 == kinds.len();
        let room = if last { fits } else { fits.saturating_sub(3) };
        if line.chars().count() + 1 + kind.chars().count() + 1 > room {
            line.push_str(" …");
            break;
        }
        line.push(' ');
        line.push_str(&kind);
        if !last {
            line.push(',');
        }
    }
    line
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

/// What an area of the frame on screen held before it was drawn anew: its box and its pixels,
/// row by row.
struct Before {
    rect: Rect,
    pixels: Vec<u32>,
}

impl Before {
    /// The pixels of row `y` between `within`'s left and right (inside the area).
    fn row(&self, y: u32, within: Rect) -> &[u32] {
        let width = self.rect.width();
        let start = (y - self.rect.top) as usize * width + (within.left - self.rect.left) as usize;
        &self.pixels[start..start + within.width()]
    }
}

impl Rect {
    /// How many pixels wide.
    fn width(&self) -> usize {
        self.right.saturating_sub(self.left) as usize
    }

    /// No pixels at all.
    const NONE: Rect = Rect {
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
    };
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
                *pixel = rgb(px);
            }
        }
        pixels
    }

    /// The box of pixels the `squares` of `scene` cover (with a margin), if there are any.
    fn box_of(&self, scene: &Scene, squares: &[(usize, arbiter_engine::geometry::Square)]) -> Option<Rect> {
        let mut rect: Option<Rect> = None;
        for &(board, at) in squares {
            let Some((x, y, side)) = layout::square_box(scene, board, at) else {
                continue;
            };
            let clamp = |value: f32, most: u32| (value.max(0.0) as u32).min(most);
            let square = Rect {
                left: clamp((x - SQUARE_MARGIN).floor(), self.width),
                top: clamp((y - SQUARE_MARGIN).floor(), self.height),
                right: clamp((x + side + SQUARE_MARGIN).ceil(), self.width),
                bottom: clamp((y + side + SQUARE_MARGIN).ceil(), self.height),
            };
            rect = Some(match rect {
                None => square,
                Some(r) => Rect {
                    left: r.left.min(square.left),
                    top: r.top.min(square.top),
                    right: r.right.max(square.right),
                    bottom: r.bottom.max(square.bottom),
                },
            });
        }
        rect.filter(|r| r.right > r.left && r.bottom > r.top)
    }

    /// Draws the box `rect` of `pixels` anew from `patch`, where the box starts at
    /// `(left, top)`; gives what the box held before.
    fn patch(&self, pixels: &mut [u32], rect: Rect, patch: &tiny_skia::Pixmap, (left, top): (u32, u32)) -> Before {
        let before = self.before(pixels, rect);
        let width = (rect.right - rect.left) as usize;
        let rows = patch
            .data()
            .chunks_exact(patch.width() as usize * 4)
            .skip(top as usize)
            .take((rect.bottom - rect.top) as usize);
        for (row, source) in rows.enumerate() {
            let start = (rect.top as usize + row) * self.width as usize + rect.left as usize;
            let source = &source[left as usize * 4..];
            for (pixel, px) in pixels[start..start + width].iter_mut().zip(source.chunks_exact(4)) {
                *pixel = rgb(px);
            }
        }
        before
    }

    /// A copy of the box `rect` of `pixels`.
    fn before(&self, pixels: &[u32], rect: Rect) -> Before {
        let width = (rect.right - rect.left) as usize;
        let mut kept = Vec::with_capacity(width * (rect.bottom - rect.top) as usize);
        for y in rect.top..rect.bottom {
            let start = (y * self.width + rect.left) as usize;
            kept.extend_from_slice(&pixels[start..start + width]);
        }
        Before { rect, pixels: kept }
    }

    /// The whole canvas.
    fn whole(&self) -> Rect {
        Rect {
            left: 0,
            top: 0,
            right: self.width,
            bottom: self.height,
        }
    }

    /// The smallest box holding every pixel of `after` that differs from what it was `before`,
    /// if any does (the pixels outside the area redrawn being the same).
    fn changed(&self, before: &Before, after: &[u32]) -> Option<Rect> {
        let area = before.rect;
        let (left, width) = (area.left as usize, area.width());
        let mut rect: Option<Rect> = None;
        let rows = before
            .pixels
            .chunks_exact(width.max(1))
            .zip(after.chunks_exact(self.width as usize).skip(area.top as usize));
        for (y, (old, new)) in (area.top..area.bottom).zip(rows) {
            let new = &new[left..left + width];
            if old == new {
                continue;
            }
            let Some(first) = old.iter().zip(new).position(|(a, b)| a != b) else {
                continue;
            };
            let last = old.len()
                - 1
                - old
                    .iter()
                    .rev()
                    .zip(new.iter().rev())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
            let (first, last) = ((left + first) as u32, (left + last) as u32);
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

    /// The box `rect` of `pixels` as a GIF frame in the shared palette (compressed), kept on
    /// screen under the frames after it. What is as it was `before` is left transparent: a move
    /// changes a few squares, and long runs of "unchanged" cost almost nothing once compressed.
    fn frame(
        &self,
        pixels: &[u32],
        before: Option<&Before>,
        rect: Rect,
        delay: u16,
        palette: &Palette,
    ) -> gif::Frame<'static> {
        let mut index_of = palette.indexer();
        let mut indices = Vec::with_capacity(rect.width() * (rect.bottom - rect.top) as usize);
        for y in rect.top..rect.bottom {
            let row = (y * self.width) as usize;
            let now = &pixels[row + rect.left as usize..row + rect.right as usize];
            match before {
                Some(before) => indices.extend(
                    now.iter()
                        .zip(before.row(y, rect))
                        .map(|(&pixel, &was)| if pixel == was { UNCHANGED } else { index_of(pixel) }),
                ),
                None => indices.extend(now.iter().map(|&pixel| index_of(pixel))),
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
            buffer: super::lzw::encode(&indices).into(),
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
        let whole = canvas.before(&before, canvas.whole());
        assert_eq!(canvas.changed(&whole, &after), None);
        after[5 + 1] = 7; // (1, 1)
        after[2 * 5 + 3] = 9; // (3, 2)
        assert_eq!(
            canvas.changed(&whole, &after),
            Some(Rect {
                left: 1,
                top: 1,
                right: 4,
                bottom: 3
            })
        );
        // Only the area redrawn is looked at.
        let area = Rect {
            left: 2,
            top: 2,
            right: 5,
            bottom: 4,
        };
        assert_eq!(
            canvas.changed(&canvas.before(&before, area), &after),
            Some(Rect {
                left: 3,
                top: 2,
                right: 4,
                bottom: 3
            })
        );
        assert_eq!(canvas.changed(&canvas.before(&before, Rect::NONE), &after), None);
    }

    /// Drawing only the squares a move changed, over the frame before, gives the very pixels of
    /// drawing the whole position: in chess (the last move's tints), in CTF (flags and bases as
    /// badges and rings) and in Domination (owned squares, labels and a score line that changes).
    #[test]
    fn a_frame_drawn_over_the_one_before_is_the_whole_frame_exactly() {
        use arbiter_engine::{AnyGame, Seat, VariantId, Viewer};
        let renderer = Renderer::new();
        // Each game with how many of its frames are drawn in part at least: every move in chess;
        // in CTF all but the choice of bases (which changes the key under the board); in
        // Domination only moves after which the score line stays as it was.
        let games: [(VariantId, &[&str], usize); 3] = [
            (
                VariantId::Chess,
                &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6"],
                10,
            ),
            (
                VariantId::Ctf,
                &[
                    "base:e3", "base:d6", "e4", "d5", "exd5", "Qxd5", "Nc3", "Qe6", "Ne4", "Qxe4",
                ],
                8,
            ),
            (
                VariantId::Domination,
                &["c4", "e5", "Nc3", "Nf6", "e4", "Bc5", "d4", "exd4", "Nf3", "Ng4"],
                3,
            ),
        ];
        for (variant, actions, in_part) in games {
            let mut game = AnyGame::new(variant);
            let image = |game: &AnyGame| BoardImage {
                view: game.view(Viewer::Spectator),
                decor: super::super::Decor {
                    player_names: [Some("alice".into()), Some("bob".into())],
                    without_turns: true,
                    ..Default::default()
                },
            };
            let mut scenes = vec![image(&game).scene()];
            for text in actions {
                let seat = *game.to_act().first().unwrap_or(&Seat::First);
                let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
                game.apply(seat, &action).unwrap();
                scenes.push(image(&game).scene());
            }
            let (width, height) = layout::pixel_size(&scenes[0]);
            let canvas = Canvas { width, height };
            let mut patches = 0;
            for pair in scenes.windows(2) {
                let before = canvas.place(&renderer.pixels(&pair[0]).unwrap());
                let whole = canvas.place(&renderer.pixels(&pair[1]).unwrap());
                let drawn = match renderer.draw_frame(&canvas, Some(&pair[0]), &pair[1]).unwrap() {
                    Drawn::Whole(pixels) => pixels,
                    Drawn::Patch(rect, patch, at) => {
                        patches += 1;
                        let mut drawn = before.clone();
                        let was = canvas.patch(&mut drawn, rect, &patch, at);
                        assert!(was.pixels == canvas.before(&before, rect).pixels);
                        drawn
                    }
                    Drawn::Same => before.clone(),
                };
                assert!(
                    drawn == whole,
                    "{variant}: a frame drawn in part differs from the whole"
                );
            }
            assert!(
                patches >= in_part,
                "{variant}: {patches} frames of {} drawn in part",
                actions.len()
            );
        }
    }

    #[test]
    fn a_pool_in_words_counts_each_kind_and_stops_where_the_line_is_full() {
        use super::super::pieces::{Art, TokenShape};
        let token = |label: &str| Picture::Token {
            shape: TokenShape::Piece,
            label: label.into(),
            name: format!("{label} piece"),
        };
        let pool = [
            Picture::Art(Art::Queen),
            Picture::Art(Art::Queen),
            token("DA"),
            token("H"),
            token("H"),
            Picture::Art(Art::Pawn),
        ];
        assert_eq!(
            pool_words(&pool, 60),
            "Pool (6 to pick): queen\u{a0}×2, DA, H\u{a0}×2, pawn"
        );
        // What does not fit is left to an ellipsis, a kind never cut in two.
        for (fits, said) in [
            (40, "Pool (6 to pick): queen\u{a0}×2, DA, H\u{a0}×2, …"),
            (30, "Pool (6 to pick): queen\u{a0}×2, …"),
        ] {
            assert_eq!(pool_words(&pool, fits), said);
            assert!(said.chars().count() <= fits);
        }
        assert_eq!(pool_words(&pool[..1], 60), "Pool (1 to pick): queen");
    }

    /// The pool goes into words only in a replay that goes on past its picking: one that ends in
    /// the picking keeps it drawn (its last frame is the game's board image).
    #[test]
    fn a_replay_says_its_pool_in_words_only_when_it_goes_on_past_the_picking() {
        use arbiter_engine::{AnyGame, Seat, VariantId, Viewer};
        let mut game = AnyGame::new(VariantId::PickTheTeam);
        let scene = |game: &AnyGame| Scene::from_view(&game.view(Viewer::Spectator), &Default::default());
        let picking = scene(&game);
        let action = game.legal_actions(Seat::First)[0].clone();
        game.apply(Seat::First, &action).unwrap();
        let still_picking = scene(&game);
        let mut ends_in_the_picking = vec![picking.clone(), still_picking.clone()];
        pools_in_words(&mut ends_in_the_picking);
        assert_eq!(ends_in_the_picking, [picking.clone(), still_picking]);
        let played = Scene {
            pool: Vec::new(),
            ..picking.clone()
        };
        let mut goes_on = vec![picking.clone(), played.clone()];
        pools_in_words(&mut goes_on);
        assert!(goes_on[0].pool.is_empty(), "the pool is not drawn");
        assert!(
            goes_on[0].lines[0].starts_with("Pool (40 to pick): king, "),
            "{:?}",
            goes_on[0].lines
        );
        assert_eq!(goes_on[1], played);
        // One line: the frame is a line taller than the one after it, not the pool's rows.
        let height = |scene: &Scene| layout::pixel_size(scene).1;
        assert_eq!(height(&goes_on[0]), height(&played) + layout::LINE_HEIGHT as u32);
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
