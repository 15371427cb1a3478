//! A scene as SVG text. The layout is fixed arithmetic, so the same scene always gives the same
//! text (the golden tests rely on it) and nothing depends on the host's fonts or locale.

use super::layout::{
    BOARD_GAP, GLYPH_WIDTH, HAND_PIECE, KEY_TEXT_LEFT, LINE_HEIGHT, Layout, NOTES_LEFT, RIGHT_MARGIN, SAMPLE,
    STRIP_HEIGHT, board_origin, boards_per_row, pool_cell, square_origin, top_seat,
};
use super::marks::{write_badge, write_badge_disc, write_frame, write_marker, write_ring, write_tint};
use super::pieces::{Picture, TokenShape, statue_fragment};
use super::scene::{BoardScene, Marker, Occupant, PieceColors, Sample, Scene};
use super::svg_text::{escape, num};
use arbiter_engine::Seat;
use arbiter_engine::geometry::Square;
use arbiter_engine::piece::Color;
use std::collections::BTreeMap;
use std::fmt::Write;

pub const FONT: &str = "DejaVu Sans";
const BACKGROUND: &str = "#262421";
/// [`BACKGROUND`] as RGB, for what is drawn around an image (a replay's larger frames).
pub const BACKGROUND_RGB: [u8; 3] = [0x26, 0x24, 0x21];
const TEXT: &str = "#e8e6e3";
const DIM_TEXT: &str = "#a9a5a0";
const LIGHT_SQUARE: &str = "#eeeed2";
const DARK_SQUARE: &str = "#769656";
const STRIP: &str = "#312e2b";
const STRIP_TO_ACT: &str = "#4b6b38";

/// `#rrggbb` as bytes.
fn hex_rgb(color: &str) -> [u8; 3] {
    let channel = |at: usize| u8::from_str_radix(color.get(at..at + 2).unwrap_or("00"), 16).unwrap_or(0);
    [channel(1), channel(3), channel(5)]
}

fn side_name(side: Color) -> &'static str {
    if side.is_black() { "black" } else { "white" }
}

/// The id under which a picture is defined once and used on every square it stands on.
fn def_id(side: Color, picture: &Picture) -> String {
    match picture {
        Picture::Art(art) => format!("{}-{}", side_name(side), art.id()),
        Picture::Token { label, .. } => {
            let safe: String = label
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            format!("{}-token-{safe}", side_name(side))
        }
    }
}

/// A picture's elements in a 100x100 box.
fn picture_elements(colors: PieceColors, picture: &Picture) -> String {
    let PieceColors { body, outline, details } = colors;
    match picture {
        Picture::Art(art) => format!(
            "<g fill=\"{body}\" stroke=\"{outline}\" color=\"{details}\" stroke-width=\"3.5\" \
             stroke-linejoin=\"round\" stroke-linecap=\"round\">{}</g>",
            art.fragment()
        ),
        Picture::Token { shape, label, .. } => {
            let (center_y, radius) = token_disc(*shape);
            let mut out = String::new();
            if *shape == TokenShape::Royal {
                // Three crown points above the disc.
                let _ = write!(
                    out,
                    "<path d=\"M26 26 L32 6 L42 20 L50 4 L58 20 L68 6 L74 26 Z\" fill=\"{body}\" \
                     stroke=\"{outline}\" stroke-width=\"4\" stroke-linejoin=\"round\"/>"
                );
            }
            let _ = write!(
                out,
                "<circle cx=\"50\" cy=\"{}\" r=\"{}\" fill=\"{body}\" stroke=\"{outline}\" stroke-width=\"4.5\"/>",
                num(center_y),
                num(radius)
            );
            let size = token_font_size(*shape, label);
            // Letters wider than the disc are narrowed to fit it, never made smaller.
            let room = radius * 1.7;
            let fit = if label_width(label) * size > room {
                format!(" textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"", num(room))
            } else {
                String::new()
            };
            let _ = write!(
                out,
                "<text x=\"50\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\"{fit} \
                 fill=\"{details}\">{}</text>",
                num(center_y + size * 0.36),
                num(size),
                escape(label)
            );
            out
        }
    }
}

/// A token's disc in its 100x100 box: the centre's height and the radius. Pawn-like tokens are
/// smaller; royal ones sit lower, under their crown.
pub fn token_disc(shape: TokenShape) -> (f32, f32) {
    match shape {
        TokenShape::Pawn => (52.0, 33.0),
        TokenShape::Piece => (52.0, 38.0),
        TokenShape::Royal => (56.0, 38.0),
    }
}

/// The font size of a token's letters in its 100x100 box. DejaVu Sans Bold's capitals stand 0.73
/// of the size tall, so the smallest (42) gives 12 px letters on a 40 px square, the least any
/// image gives a token (a pool or hand piece, a 10x10 board's square).
fn token_font_size(shape: TokenShape, label: &str) -> f32 {
    match (label.chars().count(), shape) {
        (1, TokenShape::Pawn) => 46.0,
        (1, _) => 52.0,
        _ => 42.0,
    }
}

/// About how wide a label is set in DejaVu Sans Bold, in ems (for fitting it in its disc).
fn label_width(label: &str) -> f32 {
    label
        .chars()
        .map(|c| match c {
            'I' | 'J' | 'i' | 'j' | 'l' | '1' => 0.4,
            'M' | 'W' | 'm' | 'w' => 1.0,
            c if c.is_ascii_lowercase() => 0.66,
            _ => 0.78,
        })
        .sum()
}

/// A piece picture placed in the image: a picture id of [`Drawing::pictures`], where, how big.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub id: String,
    pub x: f32,
    pub y: f32,
    pub size: f32,
}

/// A scene laid out in three layers: everything under the pieces, the pieces, and the marks over
/// them. The SVG document is the three in order; the rasteriser draws the pieces from cached
/// sprites instead, which is where most of the drawing time would otherwise go.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    pub width: f32,
    pub height: f32,
    /// Pixels per unit of the layout: the document is drawn this many times its layout's size.
    pub scale: f32,
    /// Each picture used, by id: its elements in a 100x100 box.
    pub pictures: BTreeMap<String, String>,
    pub under: String,
    /// The elements of `under` that are rectangles of one opaque colour: where their edges fall on
    /// whole pixels, the rasteriser fills them straight into the pixels (the same pixels, for
    /// almost nothing) and draws the rest of `under` over them.
    pub fills: Vec<Fill>,
    /// The words under the pieces (names, coordinates, lines), above everything else `under`
    /// holds and overlapping none of it: drawn on their own, their shaping (the costly part of
    /// text) is done once for all the images that share them.
    pub text: String,
    pub placed: Vec<Placed>,
    pub over: String,
}

/// An element of [`Drawing::under`] that fills rectangles with one opaque colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Fill {
    /// Where the element's text is in `under`.
    pub element: std::ops::Range<usize>,
    /// Left, top, width and height of each rectangle, in units of the layout.
    pub rects: Vec<[f32; 4]>,
    pub rgb: [u8; 3],
}

/// Pixels to fill with one opaque colour: left, top, right and bottom (exclusive) in pixels.
pub type PixelFill = ([u32; 4], [u8; 3]);

impl Drawing {
    /// Writes a rectangle element of one opaque colour (`#rrggbb`) into `under`, remembered as a
    /// [`Fill`] of `rects`.
    fn write_fill(&mut self, element: std::fmt::Arguments, rects: Vec<[f32; 4]>, color: &str) {
        let start = self.under.len();
        let _ = writeln!(self.under, "{element}");
        self.fills.push(Fill {
            element: start..self.under.len(),
            rects,
            rgb: hex_rgb(color),
        });
    }

    /// The fills whose every edge falls on a whole pixel (up to the first that does not), in
    /// pixels and in the order drawn, and `under` without them. Drawing those fills first and the rest of `under` over them gives
    /// the pixels of `under` whole: the fills are the background, the strips, the squares and
    /// the key's samples, and nothing drawn before one of them in `under` lies where it does.
    pub fn split_fills(&self) -> (Vec<PixelFill>, String) {
        let mut direct = Vec::new();
        let mut rest = String::with_capacity(self.under.len());
        let mut from = 0;
        // Once a fill is left to the SVG, so are all after it: no fill drawn directly (first)
        // may then lie over one that comes before it.
        for fill in &self.fills {
            let pixels: Option<Vec<[u32; 4]>> = fill.rects.iter().map(|rect| self.whole_pixels(rect)).collect();
            let Some(pixels) = pixels else { break };
            rest.push_str(&self.under[from..fill.element.start]);
            from = fill.element.end;
            direct.extend(pixels.into_iter().map(|rect| (rect, fill.rgb)));
        }
        rest.push_str(&self.under[from..]);
        (direct, rest)
    }

    /// A rectangle of the layout in pixels, if each of its edges falls on a whole pixel.
    fn whole_pixels(&self, &[x, y, width, height]: &[f32; 4]) -> Option<[u32; 4]> {
        let edges = [x, y, x + width, y + height].map(|v| v * self.scale);
        edges
            .iter()
            .all(|v| v.fract() == 0.0 && *v >= 0.0 && *v <= u32::MAX as f32)
            .then(|| edges.map(|v| v as u32))
    }

    /// An SVG document of the drawing's size (in pixels: its layout's size times its scale)
    /// holding `defs` and `body`.
    pub fn document(&self, defs: &str, body: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{}\" height=\"{}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">\n{defs}{body}</svg>\n",
            num(self.width * self.scale),
            num(self.height * self.scale),
            w = num(self.width),
            h = num(self.height)
        )
    }

    /// The whole drawing as one SVG document.
    pub fn to_svg(&self) -> String {
        let mut defs = String::from("<defs>\n");
        for (id, elements) in &self.pictures {
            let _ = writeln!(defs, "<g id=\"{id}\">{elements}</g>");
        }
        defs.push_str("</defs>\n");
        let mut body = self.under.clone();
        body.push_str(&self.text);
        for placed in &self.placed {
            let _ = writeln!(
                body,
                "<use xlink:href=\"#{}\" transform=\"translate({} {}) scale({})\"/>",
                placed.id,
                num(placed.x),
                num(placed.y),
                num(placed.size / 100.0)
            );
        }
        body.push_str(&self.over);
        self.document(&defs, &body)
    }
}

/// The elements of a layer, one per line: each element is written on a line of its own, and a
/// line break inside one (in escaped words) is never followed by `<`.
pub fn elements(layer: &str) -> impl Iterator<Item = &str> {
    let mut rest = layer;
    std::iter::from_fn(move || {
        let rest_now = rest.trim_start_matches('\n');
        if rest_now.is_empty() {
            return None;
        }
        let end = rest_now.find("\n<").map_or(rest_now.len(), |at| at + 1);
        let (element, after) = rest_now.split_at(end);
        rest = after;
        Some(element)
    })
}

/// A picture on its own, `size` pixels square: the sprite the rasteriser draws pieces from.
pub fn picture_document(elements: &str, size: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 100 100\" \
         font-family=\"{FONT}\">{elements}</svg>"
    )
}

/// The scene as an SVG document.
pub fn to_svg(scene: &Scene) -> String {
    drawing(scene).to_svg()
}

pub fn drawing(scene: &Scene) -> Drawing {
    let layout = Layout::of(scene);
    let mut drawing = Drawing {
        width: layout.width,
        height: layout.height,
        scale: layout.scale,
        pictures: pictures(scene),
        under: String::with_capacity(8 * 1024),
        fills: Vec::new(),
        text: String::new(),
        placed: Vec::with_capacity(64),
        over: String::new(),
    };
    drawing.write_fill(
        format_args!(
            "<rect width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
            num(layout.width),
            num(layout.height)
        ),
        vec![[0.0, 0.0, layout.width, layout.height]],
        BACKGROUND,
    );
    let top = top_seat(scene);
    write_strip(&mut drawing, &layout, scene, top, 0.0, layout.strip_heights[0]);
    for (index, board) in scene.boards.iter().enumerate() {
        let (left, board_top) = board_origin(scene, &layout, index);
        // A caption may run on over the gap to the next board (whose caption starts a margin
        // further), or to the image's right margin after the last board of a row.
        let ends_row = (index + 1) % boards_per_row(scene) == 0 || index + 1 == scene.boards.len();
        let after = if ends_row { RIGHT_MARGIN } else { BOARD_GAP };
        let room = f32::from(board.files) * layout.square + after;
        write_board(&mut drawing, &layout, board, (left, board_top), room);
    }
    let below = layout.lower_strip_top;
    write_strip(
        &mut drawing,
        &layout,
        scene,
        top.other(),
        below,
        layout.strip_heights[1],
    );
    let pool_top = layout.pool_top();
    write_pool(&mut drawing, &layout, scene, pool_top);
    let mut y = pool_top + layout.pool_height + 6.0;
    for line in &layout.text_lines {
        let _ = writeln!(
            drawing.text,
            "<text x=\"{}\" y=\"{}\" font-size=\"15\" fill=\"{TEXT}\">{}</text>",
            num(layout.notes_left),
            num(y + 15.0),
            escape(line)
        );
        y += LINE_HEIGHT;
    }
    y = write_key(&mut drawing, &layout, scene, y);
    for entries in &layout.legend_lines {
        let pairs: Vec<String> = entries
            .iter()
            .map(|&index| {
                let entry = &scene.legend[index];
                format!(
                    "<tspan font-weight=\"bold\" fill=\"{TEXT}\">{}</tspan> {}",
                    escape(&entry.label),
                    escape(&entry.name)
                )
            })
            .collect();
        let line = pairs.join(" · ");
        let _ = writeln!(
            drawing.text,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"{DIM_TEXT}\">{line}</text>",
            num(layout.notes_left),
            num(y + 14.0)
        );
        y += LINE_HEIGHT;
    }
    drawing
}

/// Each picture used, by id.
fn pictures(scene: &Scene) -> BTreeMap<String, String> {
    let mut used: BTreeMap<String, (Color, &Picture)> = BTreeMap::new();
    let mut has_statue = false;
    for board in &scene.boards {
        for occupant in board.occupants.iter().flatten() {
            match occupant {
                Occupant::Piece { side, picture } => {
                    used.insert(def_id(*side, picture), (*side, picture));
                }
                Occupant::Statue => has_statue = true,
            }
        }
    }
    for player in &scene.players {
        for picture in &player.hand {
            used.insert(def_id(player.color, picture), (player.color, picture));
        }
    }
    for picture in &scene.pool {
        used.insert(def_id(POOL_COLOR, picture), (POOL_COLOR, picture));
    }
    let mut pictures: BTreeMap<String, String> = used
        .into_iter()
        .map(|(id, (side, picture))| (id, picture_elements(scene.piece_colors[side.index()], picture)))
        .collect();
    if has_statue {
        pictures.insert(
            "statue".into(),
            format!(
                "<g stroke-width=\"3.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\">{}</g>",
                statue_fragment()
            ),
        );
    }
    pictures
}

fn write_strip(drawing: &mut Drawing, layout: &Layout, scene: &Scene, seat: Seat, y: f32, height: f32) {
    if !scene.shows_players {
        return;
    }
    let player = &scene.players[seat.index()];
    let background = if player.turn.is_some() { STRIP_TO_ACT } else { STRIP };
    drawing.write_fill(
        format_args!(
            "<rect y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{background}\"/>",
            num(y),
            num(layout.width),
            num(height)
        ),
        vec![[0.0, y, layout.width, height]],
        background,
    );
    let out = &mut drawing.under;
    // A swatch of the player's colour on each board, numbered when there are several.
    let numbered = player.side_colors.len() > 1;
    for (index, swatch) in player.side_colors.iter().enumerate() {
        let x = 8.0 + index as f32 * 22.0;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"18\" height=\"18\" rx=\"3\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>",
            num(x),
            num(y + 8.0),
            swatch.hex()
        );
        if numbered {
            let ink = if swatch.is_light() { "#1e1e1e" } else { "#ffffff" };
            let _ = writeln!(
                drawing.text,
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
                num(x + 9.0),
                num(y + 22.0),
                index + 1
            );
        }
    }
    let name_left = 8.0 + player.side_colors.len().max(1) as f32 * 22.0 + 2.0;
    let mut name = escape(&player.name);
    if let Some(turn) = &player.turn {
        name.push_str(" · ");
        name.push_str(&escape(turn));
    }
    let _ = writeln!(
        drawing.text,
        "<text x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" fill=\"{TEXT}\">{name}</text>",
        num(name_left),
        num(y + 23.0)
    );
    if let Some(clock) = &player.clock {
        let _ = writeln!(
            drawing.text,
            "<text x=\"{}\" y=\"{}\" font-size=\"16\" text-anchor=\"end\" fill=\"{TEXT}\">{}</text>",
            num(layout.width - 10.0),
            num(y + 23.0),
            escape(clock)
        );
    }
    for (index, picture) in player.hand.iter().enumerate() {
        drawing.placed.push(Placed {
            id: def_id(player.color, picture),
            x: 30.0 + index as f32 * HAND_PIECE,
            y: y + STRIP_HEIGHT,
            size: HAND_PIECE,
        });
    }
}

/// Pool pieces belong to no side yet; they are drawn in White's colours.
const POOL_COLOR: Color = Color::White;

/// The pool of pieces still to be picked: a heading, then the pieces in rows.
fn write_pool(drawing: &mut Drawing, layout: &Layout, scene: &Scene, top: f32) {
    if scene.pool.is_empty() {
        return;
    }
    let noun = if scene.pool.len() == 1 { "piece" } else { "pieces" };
    let _ = writeln!(
        drawing.text,
        "<text x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\" fill=\"{TEXT}\">Pool: {} {noun} to pick</text>",
        num(layout.notes_left),
        num(top + 16.0),
        scene.pool.len()
    );
    for (index, picture) in scene.pool.iter().enumerate() {
        let (x, y, size) = pool_cell(layout, top, index);
        drawing.placed.push(Placed {
            id: def_id(POOL_COLOR, picture),
            x,
            y,
            size,
        });
    }
}

/// A board whose top-left corner is (`left`, `top`), with its caption cut to `room` wide.
fn write_board(drawing: &mut Drawing, layout: &Layout, board: &BoardScene, (left, top): (f32, f32), room: f32) {
    let square = layout.square;
    let width = f32::from(board.files) * square;
    if let Some(caption) = &board.caption {
        // Cut to its room, so captions side by side never run into each other.
        let fits = (room / (15.0 * GLYPH_WIDTH)).floor() as usize;
        let caption = if caption.chars().count() > fits {
            format!("{}…", caption.chars().take(fits.saturating_sub(1)).collect::<String>())
        } else {
            caption.clone()
        };
        let _ = writeln!(
            drawing.text,
            "<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" fill=\"{TEXT}\">{}</text>",
            num(left),
            num(top - 7.0),
            escape(&caption)
        );
    }
    // The dark colour underneath, light squares on top: half the elements of drawing each.
    let height = f32::from(board.ranks) * square;
    drawing.write_fill(
        format_args!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{DARK_SQUARE}\"/>",
            num(left),
            num(top),
            num(width),
            num(height)
        ),
        vec![[left, top, width, height]],
        DARK_SQUARE,
    );
    let mut light = String::new();
    let mut light_squares = Vec::new();
    for rank in 0..board.ranks {
        for file in 0..board.files {
            if (file + rank) % 2 == 1 {
                let (x, y) = square_origin(board, left, top, square, Square::new(file, rank));
                light_squares.push([x, y, square, square]);
                let _ = write!(
                    light,
                    "M{} {}h{}v{}h-{}z",
                    num(x),
                    num(y),
                    num(square),
                    num(square),
                    num(square)
                );
            }
        }
    }
    drawing.write_fill(
        format_args!("<path d=\"{light}\" fill=\"{LIGHT_SQUARE}\"/>"),
        light_squares,
        LIGHT_SQUARE,
    );
    let out = &mut drawing.under;
    for (at, color) in &board.tints {
        let (x, y) = square_origin(board, left, top, square, *at);
        write_tint(out, x, y, square, *color);
    }
    for (at, color) in &board.frames {
        let (x, y) = square_origin(board, left, top, square, *at);
        write_frame(out, x, y, square, *color);
    }
    write_coordinates(&mut drawing.text, layout, board, left, top);
    for rank in 0..board.ranks {
        for file in 0..board.files {
            let at = Square::new(file, rank);
            let Some(occupant) = board.occupant(at) else { continue };
            let (x, y) = square_origin(board, left, top, square, at);
            let id = match occupant {
                Occupant::Piece { side, picture } => def_id(*side, picture),
                Occupant::Statue => "statue".to_string(),
            };
            drawing.placed.push(Placed { id, x, y, size: square });
        }
    }
    let out = &mut drawing.over;
    for (at, marker) in &board.markers {
        let (x, y) = square_origin(board, left, top, square, *at);
        write_marker(out, x, y, square, marker);
    }
    for (index, (at, badge)) in board.badges.iter().enumerate() {
        let (x, y) = square_origin(board, left, top, square, *at);
        let slot = board.badges[..index].iter().filter(|(other, _)| other == at).count();
        write_badge(out, (x, y, square), slot, badge);
    }
    for (at, label) in &board.labels {
        let (x, y) = square_origin(board, left, top, square, *at);
        // In the top-left corner, clear of the piece's base and of a badge on the right.
        let size = square * 0.24;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"#1e1e1e\" \
             stroke=\"#ffffff\" stroke-width=\"2.5\" paint-order=\"stroke\">{}</text>",
            num(x + 3.0),
            num(y + size * 0.8 + 2.0),
            num(size),
            escape(label)
        );
    }
}

/// The key: each meaning beside a sample of its mark, drawn on a light square (a badge, which
/// would be too small in a sample's corner, fills the sample).
fn write_key(drawing: &mut Drawing, layout: &Layout, scene: &Scene, mut y: f32) -> f32 {
    let left = layout.notes_left;
    for (entry, lines) in scene.key.iter().zip(&layout.key_lines) {
        let top = y + 2.0;
        drawing.write_fill(
            format_args!(
                "<rect x=\"{}\" y=\"{}\" width=\"{SAMPLE}\" height=\"{SAMPLE}\" fill=\"{LIGHT_SQUARE}\"/>",
                num(left),
                num(top)
            ),
            vec![[left, top, SAMPLE, SAMPLE]],
            LIGHT_SQUARE,
        );
        let out = &mut drawing.under;
        match &entry.sample {
            Sample::Tint(color) => write_tint(out, left, top, SAMPLE, *color),
            Sample::Framed(color) => {
                write_tint(out, left, top, SAMPLE, *color);
                write_frame(out, left, top, SAMPLE, *color);
            }
            // A board's ring scaled down to a sample would be a hairline: drawn bolder here.
            Sample::Marker(Marker::Ring(color)) => write_ring(
                out,
                (left + SAMPLE / 2.0, top + SAMPLE / 2.0, SAMPLE / 2.0 - 3.0),
                (5.0, 3.0),
                *color,
            ),
            Sample::Marker(marker) => write_marker(out, left, top, SAMPLE, marker),
            Sample::Badge(badge) => {
                write_badge_disc(out, left + SAMPLE / 2.0, top + SAMPLE / 2.0, SAMPLE / 2.0 - 1.0, badge)
            }
        }
        for line in lines {
            let _ = writeln!(
                drawing.text,
                "<text x=\"{}\" y=\"{}\" font-size=\"15\" fill=\"{TEXT}\">{}</text>",
                num(left - NOTES_LEFT + KEY_TEXT_LEFT),
                num(y + 15.0),
                escape(line)
            );
            y += LINE_HEIGHT;
        }
    }
    y
}

/// File letters under the board and rank numbers to its left, in the board's orientation. Each
/// set is one text element with a position per glyph run: text is the costly part of rasterising,
/// and one element costs far less than one per coordinate.
fn write_coordinates(out: &mut String, layout: &Layout, board: &BoardScene, left: f32, top: f32) {
    let (square, style) = (layout.square, layout.coordinates);
    let bottom = top + f32::from(board.ranks) * square;
    let mut files = String::new();
    for file in 0..board.files {
        let (x, _) = square_origin(board, left, top, square, Square::new(file, 0));
        let _ = write!(
            files,
            "<tspan x=\"{}\">{}</tspan>",
            num(x + square / 2.0),
            (b'a' + file) as char
        );
    }
    let mut ranks = String::new();
    for rank in 0..board.ranks {
        let (_, y) = square_origin(board, left, top, square, Square::new(0, rank));
        let _ = write!(
            ranks,
            "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
            num(left - style.margin / 2.0),
            num(y + square / 2.0 + style.ranks_drop),
            rank + 1
        );
    }
    let _ = writeln!(
        out,
        "<g font-size=\"{}\" text-anchor=\"middle\" fill=\"{DIM_TEXT}\"><text y=\"{}\">{files}</text><text>{ranks}</text></g>",
        num(style.font_size),
        num(bottom + style.files_baseline)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Decor;
    use arbiter_engine::{AnyGame, Game, VariantId, Viewer};

    #[test]
    fn a_layer_splits_into_its_elements_and_escaped_line_breaks_stay_inside_them() {
        let layer = "<text>a</text>\n<text>two\nlines</text>\n<g><text>c</text></g>\n";
        let elements: Vec<&str> = elements(layer).collect();
        assert_eq!(
            elements,
            [
                "<text>a</text>\n",
                "<text>two\nlines</text>\n",
                "<g><text>c</text></g>\n"
            ]
        );
        assert_eq!(elements.concat(), layer);
        assert_eq!(super::elements("").count(), 0);
    }

    /// A game's image: the background, both strips, the dark board and its 32 light squares are
    /// filled directly; what is left to draw as SVG holds none of them.
    #[test]
    fn the_background_strips_and_squares_are_filled_directly() {
        let view = AnyGame::new(VariantId::Chess).view(Viewer::Spectator);
        let decor = Decor {
            player_names: [Some("alice".into()), Some("bob".into())],
            ..Decor::default()
        };
        let drawing = drawing(&Scene::from_view(&view, &decor));
        let (fills, rest) = drawing.split_fills();
        assert_eq!(fills.len(), 1 + 2 + 1 + 32, "{fills:?}");
        assert_eq!(fills[0], ([0, 0, 480, 550], hex_rgb(BACKGROUND)));
        for color in [BACKGROUND, STRIP, DARK_SQUARE, LIGHT_SQUARE] {
            assert!(!rest.contains(color), "{color} is left in {rest}");
        }
        assert!(drawing.under.contains(LIGHT_SQUARE), "the SVG text is as before");
    }
}
