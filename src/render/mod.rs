//! Board images: a view becomes a [`Scene`], the scene SVG text, and resvg turns that into a PNG.
//! Fonts are bundled (assets/fonts), so an image never depends on the host.

mod animation;
mod compose;
mod graph;
mod indexed;
mod layout;
mod lzw;
mod marks;
mod pieces;
mod scene;
mod svg;
mod svg_text;
mod table;
mod text_pixels;
pub mod words;

pub use animation::{Animation, AnimationFrame, Gif, MOST_FRAMES, MOST_REPLAY_BYTES};
pub use graph::{EvalGraph, GraphMark, judgement_color};
pub use indexed::encode_indexed;
pub use layout::{key_box, pool_box, square_box, square_spots};
pub use marks::FRAME;
pub use pieces::{Art, Picture, TokenShape, picture};
pub use scene::{
    Badge, BoardImage, BoardScene, Decor, KeyEntry, LegendEntry, Marker, Occupant, PieceColors, PlayerStrip, Rgba,
    Sample, Scene, move_dots, palette, side_color,
};
pub use svg::{to_svg, token_disc};
pub use table::Table;

use indexed::Palette;
use resvg::{tiny_skia, usvg};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RenderError {
    #[error("the board image could not be drawn: {0}")]
    Svg(#[from] usvg::Error),
    #[error("the board image is too large ({0}x{1})")]
    Size(u32, u32),
    #[error("the board image could not be encoded: {0}")]
    Png(#[from] png::EncodingError),
    #[error("the replay could not be encoded: {0}")]
    Gif(#[from] gif::EncodingError),
}

/// How many piece sprites the cache keeps before it starts afresh (each is a few KB; a server
/// sees a few hundred kinds, colours and sizes at most).
const SPRITE_CACHE_LIMIT: usize = 2048;

/// Piece sprites by picture elements and size in pixels.
type Sprites = HashMap<(String, u32), Arc<tiny_skia::Pixmap>>;

/// How many text elements the cache keeps before it starts afresh: an image has a dozen or so
/// (names, clocks, coordinates, lines of notes), and the images of a game or the frames of a
/// replay share most of them.
const TEXT_CACHE_LIMIT: usize = 512;

/// The words of images, laid out (shaped into outlines), by the SVG text of their element.
type TextLayers = HashMap<String, Arc<text_pixels::TextElement>>;

/// Draws scenes. Building one loads the fonts; share it (clones share the fonts and sprites).
#[derive(Clone)]
pub struct Renderer {
    fonts: Arc<usvg::fontdb::Database>,
    /// Pieces drawn once per picture and size, then copied onto every board that shows them.
    sprites: Arc<Mutex<Sprites>>,
    /// Words laid out once, and copied where they are drawn again on the same pixels.
    texts: Arc<Mutex<TextLayers>>,
}

impl Default for Renderer {
    fn default() -> Renderer {
        Renderer::new()
    }
}

impl Renderer {
    pub fn new() -> Renderer {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(include_bytes!("../../assets/fonts/DejaVuSans.ttf").to_vec());
        fonts.load_font_data(include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf").to_vec());
        fonts.set_sans_serif_family(svg::FONT);
        Renderer {
            fonts: Arc::new(fonts),
            sprites: Arc::default(),
            texts: Arc::default(),
        }
    }

    /// The PNG of a board image.
    pub fn image(&self, image: &BoardImage) -> Result<Vec<u8>, RenderError> {
        self.png(&image.scene())
    }

    /// The PNG of an analysed game's evaluation graph.
    pub fn graph(&self, graph: &EvalGraph) -> Result<Vec<u8>, RenderError> {
        self.svg_to_png(&graph.to_svg())
    }

    /// The PNG of a table (standings).
    pub fn table(&self, table: &Table) -> Result<Vec<u8>, RenderError> {
        self.svg_to_png(&table.to_svg())
    }

    /// The PNG of a scene.
    pub fn png(&self, scene: &Scene) -> Result<Vec<u8>, RenderError> {
        encode_indexed(&self.pixels(scene)?)
    }

    /// The pixels of a scene: the layer under the pieces, the pieces from sprites, the marks
    /// over them. The same picture as rasterising [`to_svg`] in one go, in a fraction of the time.
    pub fn pixels(&self, scene: &Scene) -> Result<tiny_skia::Pixmap, RenderError> {
        let drawing = svg::drawing(scene);
        let (fills, rest) = drawing.split_fills();
        let under = self.tree(&drawing.document("", &rest))?;
        let size = under.size().to_int_size();
        let (width, height) = (size.width(), size.height());
        let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(RenderError::Size(width, height))?;
        self.paint(&drawing, (&fills, &under), (0, 0), &mut pixmap)?;
        Ok(pixmap)
    }

    /// The `width` x `height` box of a scene's pixels whose top-left corner is (`left`, `top`):
    /// the very pixels [`Renderer::pixels`] puts there, for the cost of the box alone (a replay
    /// redraws only the squares a move changed).
    fn pixels_within(
        &self,
        scene: &Scene,
        (left, top): (u32, u32),
        (width, height): (u32, u32),
    ) -> Result<tiny_skia::Pixmap, RenderError> {
        let drawing = svg::drawing(scene);
        let (fills, rest) = drawing.split_fills();
        let under = self.tree(&drawing.document("", &rest))?;
        let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(RenderError::Size(width, height))?;
        let origin = (
            i32::try_from(left).map_err(|_| RenderError::Size(left, top))?,
            i32::try_from(top).map_err(|_| RenderError::Size(left, top))?,
        );
        self.paint(&drawing, (&fills, &under), origin, &mut pixmap)?;
        Ok(pixmap)
    }

    /// Paints the drawing's layers on `pixmap`, whose top-left corner is `origin` in the drawing
    /// (whole pixels, so every edge falls on the pixels it falls on in the whole image).
    fn paint(
        &self,
        drawing: &svg::Drawing,
        (fills, under): (&[svg::PixelFill], &usvg::Tree),
        (left, top): (i32, i32),
        pixmap: &mut tiny_skia::Pixmap,
    ) -> Result<(), RenderError> {
        let shift = tiny_skia::Transform::from_translate(-left as f32, -top as f32);
        for &(rect, rgb) in fills {
            compose::fill(pixmap, rect, rgb, (left, top));
        }
        resvg::render(under, shift, &mut pixmap.as_mut());
        for element in svg::elements(&drawing.text) {
            self.text_element(drawing, element)?.draw(pixmap, (left, top));
        }
        for placed in &drawing.placed {
            let Some(elements) = drawing.pictures.get(&placed.id) else {
                continue;
            };
            let scale = drawing.scale;
            let size = (placed.size * scale).round() as u32;
            let (x, y) = (
                (placed.x * scale).round() as i32 - left,
                (placed.y * scale).round() as i32 - top,
            );
            let outside = x >= pixmap.width() as i32
                || y >= pixmap.height() as i32
                || x + size as i32 <= 0
                || y + size as i32 <= 0;
            if outside {
                continue;
            }
            compose::draw_over(pixmap, &*self.sprite(elements, size)?, x, y);
        }
        if !drawing.over.is_empty() {
            let tree = self.tree(&drawing.document("", &drawing.over))?;
            resvg::render(&tree, shift, &mut pixmap.as_mut());
        }
        Ok(())
    }

    /// A picture drawn at `size` pixels, from the cache when it was drawn before.
    fn sprite(&self, elements: &str, size: u32) -> Result<Arc<tiny_skia::Pixmap>, RenderError> {
        let key = (elements.to_string(), size);
        if let Some(sprite) = lock(&self.sprites).get(&key) {
            return Ok(sprite.clone());
        }
        let sprite = Arc::new(self.rasterise(&svg::picture_document(elements, size))?);
        let mut sprites = lock(&self.sprites);
        if sprites.len() >= SPRITE_CACHE_LIMIT {
            sprites.clear();
        }
        sprites.insert(key, sprite.clone());
        Ok(sprite)
    }

    /// A text element laid out on its own, from the cache when the same element (the same words
    /// in the same place) was drawn before: an image's words change a line at a time (a clock,
    /// whose turn it is, a replay's pool), and laying words out is the costly part of them.
    fn text_element(
        &self,
        drawing: &svg::Drawing,
        element: &str,
    ) -> Result<Arc<text_pixels::TextElement>, RenderError> {
        let document = drawing.document("", element);
        if let Some(tree) = lock(&self.texts).get(&document) {
            return Ok(tree.clone());
        }
        let tree = Arc::new(text_pixels::TextElement::new(self.tree(&document)?));
        let mut texts = lock(&self.texts);
        if texts.len() >= TEXT_CACHE_LIMIT {
            texts.clear();
        }
        texts.insert(document, tree.clone());
        Ok(tree)
    }

    /// Rasterises a whole SVG document (such as [`to_svg`]'s) and encodes it as PNG.
    pub fn svg_to_png(&self, svg: &str) -> Result<Vec<u8>, RenderError> {
        encode_indexed(&self.rasterise(svg)?)
    }

    fn tree(&self, svg: &str) -> Result<usvg::Tree, RenderError> {
        let options = usvg::Options {
            font_family: svg::FONT.to_string(),
            fontdb: self.fonts.clone(),
            ..usvg::Options::default()
        };
        Ok(usvg::Tree::from_str(svg, &options)?)
    }

    /// Draws an SVG document into fresh pixels of its size.
    fn rasterise(&self, svg: &str) -> Result<tiny_skia::Pixmap, RenderError> {
        let tree = self.tree(svg)?;
        let size = tree.size().to_int_size();
        let (width, height) = (size.width(), size.height());
        let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(RenderError::Size(width, height))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Ok(pixmap)
    }
}

/// The caches survive a panic elsewhere: their entries are complete or absent.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
