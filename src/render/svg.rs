//! A scene as SVG text. The layout is fixed arithmetic, so the same scene always gives the same
//! text (the golden tests rely on it) and nothing depends on the host's fonts or locale.

use super::marks::{write_badge, write_badge_disc, write_marker, write_ring, write_tint};
use super::pieces::{Picture, TokenShape, statue_fragment};
use super::scene::{BoardScene, Marker, Occupant, PieceColors, PlayerStrip, Rgba, Sample, Scene};
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

const MARGIN: f32 = 22.0;
const RIGHT_MARGIN: f32 = 10.0;
/// Where the notes (pool, lines, key, legend) go beside the boards: the gap, and their width.
const NOTES_GAP: f32 = 24.0;
const NOTES_BESIDE_WIDTH: f32 = 440.0;
/// The notes' left edge under the boards.
const NOTES_LEFT: f32 = 8.0;
const BOARD_GAP: f32 = 24.0;
const STRIP_HEIGHT: f32 = 34.0;
/// Pieces in hand, and the row they take under a strip. Like the pool's, big enough that a
/// token's letters stand at least 12 px tall (a phone shows the image at about 400 px wide).
const HAND_PIECE: f32 = 44.0;
const HAND_ROW: f32 = HAND_PIECE + 4.0;
/// Each pool piece's cell, and the heading above the pool.
const POOL_CELL: f32 = 46.0;
const POOL_HEADING: f32 = 22.0;
const CAPTION_HEIGHT: f32 = 22.0;
const COORDS_HEIGHT: f32 = 18.0;
const LINE_HEIGHT: f32 = 20.0;
/// The side of a key's sample square.
const SAMPLE: f32 = 18.0;
/// An average glyph width of DejaVu Sans as a fraction of the font size, for wrapping.
const GLYPH_WIDTH: f32 = 0.6;

/// Pixels per square: boards about 450 px wide on their own, smaller side by side.
pub fn square_size(scene: &Scene) -> f32 {
    let widest = scene.boards.iter().map(|b| b.files.max(b.ranks)).max().unwrap_or(8) as f32;
    let budget = match scene.boards.len().min(boards_per_row(scene)) {
        1 => 460.0,
        2..=SHEET_BOARDS_PER_ROW => 340.0,
        _ => 300.0,
    };
    (budget / widest).floor().clamp(24.0, 56.0)
}

/// The most boards side by side on a sheet of piece diagrams; more go on further rows.
const SHEET_BOARDS_PER_ROW: usize = 4;

/// How many boards stand side by side. A game's boards are stacked: side by side, Assault's two
/// boards shrank to about 20 px a square on a phone; stacked, each keeps a single board's size.
/// On a wide screen (a stream overlay) they stand side by side, the image then wider than tall.
fn boards_per_row(scene: &Scene) -> usize {
    match (scene.shows_players, scene.wide) {
        (true, false) => 1,
        (true, true) => WIDE_BOARDS_PER_ROW,
        (false, _) => SHEET_BOARDS_PER_ROW,
    }
}

/// A game's boards side by side on a wide screen.
const WIDE_BOARDS_PER_ROW: usize = 2;

/// Where the `index`th board of a scene goes: its left edge and its top, from the layout.
fn board_origin(scene: &Scene, layout: &Layout, index: usize) -> (f32, f32) {
    let per_row = boards_per_row(scene);
    let row = index / per_row;
    let left: f32 = scene.boards[row * per_row..index]
        .iter()
        .map(|b| MARGIN + f32::from(b.files) * layout.square + BOARD_GAP)
        .sum::<f32>()
        + MARGIN;
    (left, layout.board_top + row as f32 * layout.row_step)
}

/// Where things go.
struct Layout {
    square: f32,
    width: f32,
    board_top: f32,
    /// From one row of boards to the next.
    row_step: f32,
    /// The scene's lines, wrapped to the image's width.
    text_lines: Vec<String>,
    /// Each key entry's meaning, wrapped beside its sample.
    key_lines: Vec<Vec<String>>,
    legend_lines: Vec<String>,
    strip_heights: [f32; 2],
    /// Where the lower strip starts: under the boards' coordinates, or under the notes beside
    /// them when those reach lower.
    lower_strip_top: f32,
    /// The notes' left edge and top: under the boards, or in a column beside them.
    notes_left: f32,
    notes_top: f32,
    /// Pool pieces per row, and the pool's height (0 without a pool).
    pool_per_row: usize,
    pool_height: f32,
    height: f32,
}

impl Layout {
    fn of(scene: &Scene) -> Layout {
        let square = square_size(scene);
        let boards_width: f32 = scene
            .boards
            .chunks(boards_per_row(scene))
            .map(|row| {
                row.iter().map(|b| MARGIN + f32::from(b.files) * square).sum::<f32>()
                    + BOARD_GAP * row.len().saturating_sub(1) as f32
            })
            .fold(0.0, f32::max);
        let has_notes =
            !(scene.pool.is_empty() && scene.lines.is_empty() && scene.key.is_empty() && scene.legend.is_empty());
        let beside = scene.wide && has_notes;
        let (width, notes_left) = if beside {
            let left = boards_width + NOTES_GAP;
            ((left + NOTES_BESIDE_WIDTH + RIGHT_MARGIN).ceil(), left)
        } else {
            ((boards_width + RIGHT_MARGIN).ceil(), NOTES_LEFT)
        };
        let notes_width = width - notes_left - NOTES_LEFT;
        let ranks = scene.boards.iter().map(|b| b.ranks).max().unwrap_or(8);
        let has_captions = scene.boards.iter().any(|b| b.caption.is_some());
        let strip_height = |p: &PlayerStrip| match (scene.shows_players, p.hand.is_empty()) {
            (false, _) => 0.0,
            (true, true) => STRIP_HEIGHT,
            (true, false) => STRIP_HEIGHT + HAND_ROW,
        };
        let top_seat = top_seat(scene);
        let strip_heights = [
            strip_height(&scene.players[top_seat.index()]),
            strip_height(&scene.players[top_seat.other().index()]),
        ];
        let board_top = strip_heights[0] + 6.0 + if has_captions { CAPTION_HEIGHT } else { 0.0 };
        let rows = scene.boards.len().div_ceil(boards_per_row(scene)).max(1);
        let row_step = f32::from(ranks) * square + COORDS_HEIGHT + if has_captions { CAPTION_HEIGHT } else { 0.0 };
        let board_height = f32::from(ranks) * square + (rows - 1) as f32 * row_step;
        let text_lines: Vec<String> = scene
            .lines
            .iter()
            .flat_map(|line| wrap_words(line, notes_width, 15.0))
            .collect();
        let key_lines: Vec<Vec<String>> = scene
            .key
            .iter()
            .map(|entry| wrap_words(&entry.meaning, notes_width + NOTES_LEFT - KEY_TEXT_LEFT, 15.0))
            .collect();
        let legend_lines = wrap_legend(scene, notes_width, 13.0);
        let pool_per_row = ((notes_width / POOL_CELL).floor() as usize).max(1);
        let pool_height = if scene.pool.is_empty() {
            0.0
        } else {
            POOL_HEADING + scene.pool.len().div_ceil(pool_per_row) as f32 * POOL_CELL + 4.0
        };
        let notes_height = pool_height
            + 6.0
            + LINE_HEIGHT
                * (text_lines.len() + key_lines.iter().map(Vec::len).sum::<usize>() + legend_lines.len()) as f32
            + 4.0;
        let boards_bottom = board_top + board_height + COORDS_HEIGHT;
        let (notes_top, lower_strip_top, height) = if beside {
            let lower_strip_top = boards_bottom.max(board_top + notes_height);
            (board_top, lower_strip_top, lower_strip_top + strip_heights[1] + 10.0)
        } else {
            let notes_top = boards_bottom + strip_heights[1];
            (notes_top, boards_bottom, notes_top + notes_height)
        };
        Layout {
            square,
            width,
            board_top,
            row_step,
            text_lines,
            key_lines,
            legend_lines,
            strip_heights,
            lower_strip_top,
            notes_left,
            notes_top,
            pool_per_row,
            pool_height,
            height: height.ceil(),
        }
    }
}

impl Layout {
    /// Where the pool starts: at the top of the notes.
    fn pool_top(&self) -> f32 {
        self.notes_top
    }

    /// Where the key starts: under the pool and the text lines.
    fn key_top(&self) -> f32 {
        self.pool_top() + self.pool_height + 6.0 + LINE_HEIGHT * self.text_lines.len() as f32
    }
}

/// The seat drawn at the top: the one playing the colour at the top of the first board.
fn top_seat(scene: &Scene) -> Seat {
    match scene.boards.first() {
        Some(board) if board.is_flipped => board.seats[Color::White.index()],
        Some(board) => board.seats[Color::Black.index()],
        None => Seat::Second,
    }
}

/// Escapes text for SVG content and attributes.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => {}
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

/// Top-left corner of a square on a board drawn at `left`.
fn square_origin(board: &BoardScene, left: f32, top: f32, square: f32, at: Square) -> (f32, f32) {
    let (column, row) = if board.is_flipped {
        (board.files - 1 - at.file(), at.rank())
    } else {
        (at.file(), board.ranks - 1 - at.rank())
    };
    (left + f32::from(column) * square, top + f32::from(row) * square)
}

pub(super) fn rgba_fill(color: Rgba) -> String {
    if color.a >= 1.0 {
        format!("fill=\"{}\"", color.hex())
    } else {
        format!("fill=\"{}\" fill-opacity=\"{}\"", color.hex(), num(color.a))
    }
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
    /// Each picture used, by id: its elements in a 100x100 box.
    pub pictures: BTreeMap<String, String>,
    pub under: String,
    /// The words under the pieces (names, coordinates, lines), above everything else `under`
    /// holds and overlapping none of it: drawn on their own, their shaping (the costly part of
    /// text) is done once for all the images that share them.
    pub text: String,
    pub placed: Vec<Placed>,
    pub over: String,
}

impl Drawing {
    /// An SVG document of the drawing's size holding `defs` and `body`.
    pub fn document(&self, defs: &str, body: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">\n{defs}{body}</svg>\n",
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

/// Lays a scene out.
/// The size in pixels a scene's image will have, without drawing it.
pub fn pixel_size(scene: &Scene) -> (u32, u32) {
    let layout = Layout::of(scene);
    (
        layout.width.round().max(1.0) as u32,
        layout.height.round().max(1.0) as u32,
    )
}

pub fn drawing(scene: &Scene) -> Drawing {
    let layout = Layout::of(scene);
    let mut drawing = Drawing {
        width: layout.width,
        height: layout.height,
        pictures: pictures(scene),
        under: String::with_capacity(8 * 1024),
        text: String::new(),
        placed: Vec::with_capacity(64),
        over: String::new(),
    };
    let _ = writeln!(
        drawing.under,
        "<rect width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
        num(layout.width),
        num(layout.height)
    );
    let top = top_seat(scene);
    write_strip(&mut drawing, &layout, scene, top, 0.0, layout.strip_heights[0]);
    for (index, board) in scene.boards.iter().enumerate() {
        let (left, board_top) = board_origin(scene, &layout, index);
        write_board(&mut drawing, &layout, board, left, board_top);
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
    for line in &layout.legend_lines {
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
    let out = &mut drawing.under;
    let background = if player.turn.is_some() { STRIP_TO_ACT } else { STRIP };
    let _ = writeln!(
        out,
        "<rect y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{background}\"/>",
        num(y),
        num(layout.width),
        num(height)
    );
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

/// The box of the `index`th pool piece, for a pool drawn from `top`.
fn pool_cell(layout: &Layout, top: f32, index: usize) -> (f32, f32, f32) {
    let (row, column) = (index / layout.pool_per_row, index % layout.pool_per_row);
    (
        layout.notes_left + column as f32 * POOL_CELL,
        top + POOL_HEADING + row as f32 * POOL_CELL,
        POOL_CELL - 2.0,
    )
}

fn write_board(drawing: &mut Drawing, layout: &Layout, board: &BoardScene, left: f32, top: f32) {
    let out = &mut drawing.under;
    let square = layout.square;
    let width = f32::from(board.files) * square;
    if let Some(caption) = &board.caption {
        // Cut to the board's width, so captions side by side never run into each other.
        let fits = (width / (15.0 * GLYPH_WIDTH)).floor() as usize;
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
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{DARK_SQUARE}\"/>",
        num(left),
        num(top),
        num(width),
        num(f32::from(board.ranks) * square)
    );
    let mut light = String::new();
    for rank in 0..board.ranks {
        for file in 0..board.files {
            if (file + rank) % 2 == 1 {
                let (x, y) = square_origin(board, left, top, square, Square::new(file, rank));
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
    let _ = writeln!(out, "<path d=\"{light}\" fill=\"{LIGHT_SQUARE}\"/>");
    for (at, color) in &board.tints {
        let (x, y) = square_origin(board, left, top, square, *at);
        write_tint(out, x, y, square, *color);
    }
    write_coordinates(&mut drawing.text, board, left, top, square);
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
    for (at, badge) in &board.badges {
        let (x, y) = square_origin(board, left, top, square, *at);
        write_badge(out, x, y, square, badge);
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

/// Where a key's words start: right of its sample.
const KEY_TEXT_LEFT: f32 = NOTES_LEFT + SAMPLE + 8.0;

/// The key: each meaning beside a sample of its mark, drawn on a light square (a badge, which
/// would be too small in a sample's corner, fills the sample).
fn write_key(drawing: &mut Drawing, layout: &Layout, scene: &Scene, mut y: f32) -> f32 {
    let out = &mut drawing.under;
    let left = layout.notes_left;
    for (entry, lines) in scene.key.iter().zip(&layout.key_lines) {
        let top = y + 2.0;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{SAMPLE}\" height=\"{SAMPLE}\" fill=\"{LIGHT_SQUARE}\"/>",
            num(left),
            num(top)
        );
        match &entry.sample {
            Sample::Tint(color) => write_tint(out, left, top, SAMPLE, *color),
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
fn write_coordinates(out: &mut String, board: &BoardScene, left: f32, top: f32, square: f32) {
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
            num(left - 11.0),
            num(y + square / 2.0 + 5.0),
            rank + 1
        );
    }
    let _ = writeln!(
        out,
        "<g font-size=\"14\" text-anchor=\"middle\" fill=\"{DIM_TEXT}\"><text y=\"{}\">{files}</text><text>{ranks}</text></g>",
        num(bottom + 14.0)
    );
}

/// A line of text broken between words into lines that fit `width` at `font_size`.
fn wrap_words(text: &str, width: f32, font_size: f32) -> Vec<String> {
    let fits = (width / (font_size * GLYPH_WIDTH)).floor().max(8.0) as usize;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let extra = if line.is_empty() { 0 } else { 1 };
        if !line.is_empty() && line.chars().count() + extra + word.chars().count() > fits {
            lines.push(std::mem::take(&mut line));
        } else if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// The legend as lines of `label name` pairs that fit `width` at `font_size`.
fn wrap_legend(scene: &Scene, width: f32, font_size: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0.0;
    for entry in &scene.legend {
        let plain = format!("{} {}", entry.label, entry.name);
        let cost = (plain.chars().count() as f32 + 3.0) * font_size * GLYPH_WIDTH;
        if used > 0.0 && used + cost > width {
            lines.push(std::mem::take(&mut line));
            used = 0.0;
        }
        if used > 0.0 {
            line.push_str(" · ");
        }
        let _ = write!(
            line,
            "<tspan font-weight=\"bold\" fill=\"{TEXT}\">{}</tspan> {}",
            escape(&entry.label),
            escape(&entry.name)
        );
        used += cost;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Where the `index`th piece of the scene's pool is drawn: its box's top-left corner and side.
pub fn pool_box(scene: &Scene, index: usize) -> Option<(f32, f32, f32)> {
    let layout = Layout::of(scene);
    (index < scene.pool.len()).then(|| pool_cell(&layout, layout.pool_top(), index))
}

/// Where the sample of the `index`th key entry is drawn: its top-left corner and side.
pub fn key_box(scene: &Scene, index: usize) -> Option<(f32, f32, f32)> {
    let layout = Layout::of(scene);
    if index >= scene.key.len() {
        return None;
    }
    let before: usize = layout.key_lines[..index].iter().map(Vec::len).sum();
    let top = layout.key_top() + before as f32 * LINE_HEIGHT + 2.0;
    Some((layout.notes_left, top, SAMPLE))
}

/// Where a square of one of the scene's boards lies in the image: its top-left corner and side,
/// in pixels (for tests that read pixels, and for anything that points into an image).
pub fn square_box(scene: &Scene, board_index: usize, at: Square) -> Option<(f32, f32, f32)> {
    let layout = Layout::of(scene);
    let board = scene.boards.get(board_index)?;
    if at.file() >= board.files || at.rank() >= board.ranks {
        return None;
    }
    let (left, top) = board_origin(scene, &layout, board_index);
    let (x, y) = square_origin(board, left, top, layout.square, at);
    Some((x, y, layout.square))
}
