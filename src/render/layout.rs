//! Where everything in a scene's image goes: the size of a square, the boards, the players'
//! strips, and the notes (pool, lines, key, legend) under the boards or beside them. Fixed
//! arithmetic, so the same scene always gets the same layout.

use super::scene::{BoardScene, PlayerStrip, Scene};
use arbiter_engine::Seat;
use arbiter_engine::geometry::Square;
use arbiter_engine::piece::Color;

pub(super) const RIGHT_MARGIN: f32 = 10.0;
/// Where the notes (pool, lines, key, legend) go beside the boards: the gap, and their width.
pub(super) const NOTES_GAP: f32 = 24.0;
pub(super) const NOTES_BESIDE_WIDTH: f32 = 440.0;
/// The notes' left edge under the boards.
pub(super) const NOTES_LEFT: f32 = 8.0;
pub(super) const BOARD_GAP: f32 = 24.0;
pub(super) const STRIP_HEIGHT: f32 = 34.0;
/// Pieces in hand, and the row they take under a strip. Like the pool's, big enough that a
/// token's letters stand at least 12 px tall (a phone shows the image at about 400 px wide).
pub(super) const HAND_PIECE: f32 = 44.0;
pub(super) const HAND_ROW: f32 = HAND_PIECE + 4.0;
/// Each pool piece's cell, and the heading above the pool.
pub(super) const POOL_CELL: f32 = 46.0;
pub(super) const POOL_HEADING: f32 = 22.0;
pub(super) const CAPTION_HEIGHT: f32 = 22.0;
pub(super) const LINE_HEIGHT: f32 = 20.0;
/// The side of a key's sample square.
pub(super) const SAMPLE: f32 = 18.0;
/// An average glyph width of DejaVu Sans as a fraction of the font size, for wrapping.
pub(super) const GLYPH_WIDTH: f32 = 0.6;

/// Where a key's words start: right of its sample.
pub(super) const KEY_TEXT_LEFT: f32 = NOTES_LEFT + SAMPLE + 8.0;

/// How a board's coordinates are written: the margin left of the board holding the rank numbers,
/// the band under it holding the file letters, their font size, the file letters' baseline under
/// the board and how far below a square's middle a rank number's baseline lies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Coordinates {
    pub(super) margin: f32,
    pub(super) band: f32,
    pub(super) font_size: f32,
    pub(super) files_baseline: f32,
    pub(super) ranks_drop: f32,
}

/// A game's coordinates: 20 px, so a phone showing the image about 360 px wide still shows them
/// about 15 px tall; the margin holds a two-digit rank ("10") and the band a descending `g`.
pub(super) const GAME_COORDINATES: Coordinates = Coordinates {
    margin: 30.0,
    band: 26.0,
    font_size: 20.0,
    files_baseline: 19.0,
    ranks_drop: 7.0,
};

/// The coordinates of an image without players' strips: a diagram (a piece's card, a sheet of a
/// list's pieces, as the rules pages' diagrams draw them) or a live page's board, which the page
/// draws as large as it has room for.
pub(super) const DIAGRAM_COORDINATES: Coordinates = Coordinates {
    margin: 22.0,
    band: 18.0,
    font_size: 14.0,
    files_baseline: 14.0,
    ranks_drop: 5.0,
};

/// How the coordinates of a scene's boards are written: a game's image, with its players'
/// strips, is what a phone shows.
pub(super) fn coordinates(scene: &Scene) -> Coordinates {
    if scene.shows_players {
        GAME_COORDINATES
    } else {
        DIAGRAM_COORDINATES
    }
}

/// The most lines of notes (key, legend, lines) a wide screen's image keeps under its board
/// rather than in a column beside it.
const NOTES_UNDER_A_WIDE_BOARD: usize = 6;

/// How wide a game's image is with one board: a phone shows it about 360 to 400 px wide.
pub(super) const GAME_WIDTH: f32 = 480.0;
/// How wide a game's image of two boards side by side (Assault) is laid out: a little wider
/// than one board's, so its words stay readable on a phone; its squares are 28 units (42 px).
pub(super) const SIDE_BY_SIDE_WIDTH: f32 = 550.0;

/// Pixels per unit of the layout in the image of two boards side by side in a game (Assault): laid
/// out like an image a phone shows whole (its words as large beside its boards as a single
/// board's), drawn half as large again, so its squares get 42 px, as crisp as one board's where
/// the image is shown larger (a desktop), and its edges few beside the squares (a replay's
/// palette of 255 colours keeps nearly every pixel exact).
pub(super) const SIDE_BY_SIDE_SCALE: f32 = 1.5;

/// Pixels per unit of a scene's layout.
pub(super) fn pixel_scale(scene: &Scene) -> f32 {
    let side_by_side = scene.boards.len().min(boards_per_row(scene)) > 1;
    if scene.shows_players && !scene.wide && side_by_side {
        SIDE_BY_SIDE_SCALE
    } else {
        1.0
    }
}

/// Pixels per square. A game's image is [`GAME_WIDTH`] wide with one board, and two boards side
/// by side fill at most [`SIDE_BY_SIDE_WIDTH`]; on a wide screen, and on sheets of diagrams,
/// boards are about 450 px wide on their own, smaller side by side.
pub fn square_size(scene: &Scene) -> f32 {
    let widest = scene.boards.iter().map(|b| b.files.max(b.ranks)).max().unwrap_or(8) as f32;
    let side_by_side = scene.boards.len().min(boards_per_row(scene)).max(1);
    let budget = if scene.shows_players && !scene.wide {
        let boards = side_by_side as f32;
        let most = if side_by_side == 1 {
            GAME_WIDTH
        } else {
            SIDE_BY_SIDE_WIDTH
        };
        (most - RIGHT_MARGIN - boards * coordinates(scene).margin - (boards - 1.0) * BOARD_GAP) / boards
    } else {
        match side_by_side {
            1 => 460.0,
            2..=SHEET_BOARDS_PER_ROW => 340.0,
            _ => 300.0,
        }
    };
    (budget / widest).floor().clamp(24.0, 56.0)
}

/// The most boards side by side on a sheet of piece diagrams; more go on further rows.
pub(super) const SHEET_BOARDS_PER_ROW: usize = 4;

/// How many boards stand side by side. A game's boards stand side by side: stacked, Assault's
/// two boards made an image more than twice as tall as wide (480x1060), which a phone shows
/// small or cut; side by side, the image is wider than tall.
pub(super) fn boards_per_row(scene: &Scene) -> usize {
    if scene.shows_players {
        GAME_BOARDS_PER_ROW
    } else {
        SHEET_BOARDS_PER_ROW
    }
}

/// A game's boards side by side, on a wide screen or not.
pub(super) const GAME_BOARDS_PER_ROW: usize = 2;

/// Where the `index`th board of a scene goes: its left edge and its top, from the layout.
pub(super) fn board_origin(scene: &Scene, layout: &Layout, index: usize) -> (f32, f32) {
    let per_row = boards_per_row(scene);
    let row = index / per_row;
    let margin = layout.coordinates.margin;
    let left: f32 = scene.boards[row * per_row..index]
        .iter()
        .map(|b| margin + f32::from(b.files) * layout.square + BOARD_GAP)
        .sum::<f32>()
        + margin;
    (left, layout.board_top + row as f32 * layout.row_step)
}

/// Where things go.
pub(super) struct Layout {
    /// Pixels per unit: everything else is in units of the layout.
    pub(super) scale: f32,
    pub(super) square: f32,
    /// How the boards' coordinates are written.
    pub(super) coordinates: Coordinates,
    pub(super) width: f32,
    pub(super) board_top: f32,
    /// From one row of boards to the next.
    pub(super) row_step: f32,
    /// The scene's lines, wrapped to the image's width.
    pub(super) text_lines: Vec<String>,
    /// Each key entry's meaning, wrapped beside its sample.
    pub(super) key_lines: Vec<Vec<String>>,
    /// The legend's entries, by index, line by line.
    pub(super) legend_lines: Vec<Vec<usize>>,
    pub(super) strip_heights: [f32; 2],
    /// Where the lower strip starts: under the boards' coordinates, or under the notes beside
    /// them when those reach lower.
    pub(super) lower_strip_top: f32,
    /// The notes' left edge and top: under the boards, or in a column beside them.
    pub(super) notes_left: f32,
    pub(super) notes_top: f32,
    /// Pool pieces per row, and the pool's height (0 without a pool).
    pub(super) pool_per_row: usize,
    pub(super) pool_height: f32,
    pub(super) height: f32,
}

impl Layout {
    pub(super) fn of(scene: &Scene) -> Layout {
        let square = square_size(scene);
        let coordinates = coordinates(scene);
        let boards_width: f32 = scene
            .boards
            .chunks(boards_per_row(scene))
            .map(|row| {
                row.iter()
                    .map(|b| coordinates.margin + f32::from(b.files) * square)
                    .sum::<f32>()
                    + BOARD_GAP * row.len().saturating_sub(1) as f32
            })
            .fold(0.0, f32::max);
        // On a wide screen, notes long enough to shrink the board go in a column beside it (a
        // pool, a legend of many pieces); a few lines (CTF's key) stay under it, where they
        // leave no empty column.
        let note_lines = scene.lines.len() + scene.key.len() + scene.legend.len();
        let beside = scene.wide && (!scene.pool.is_empty() || note_lines > NOTES_UNDER_A_WIDE_BOARD);
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
        let row_step = f32::from(ranks) * square + coordinates.band + if has_captions { CAPTION_HEIGHT } else { 0.0 };
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
        let boards_bottom = board_top + board_height + coordinates.band;
        let (notes_top, lower_strip_top, height) = if beside {
            let lower_strip_top = boards_bottom.max(board_top + notes_height);
            (board_top, lower_strip_top, lower_strip_top + strip_heights[1] + 10.0)
        } else {
            let notes_top = boards_bottom + strip_heights[1];
            (notes_top, boards_bottom, notes_top + notes_height)
        };
        Layout {
            scale: pixel_scale(scene),
            square,
            coordinates,
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
    pub(super) fn pool_top(&self) -> f32 {
        self.notes_top
    }

    /// Where the key starts: under the pool and the text lines.
    pub(super) fn key_top(&self) -> f32 {
        self.pool_top() + self.pool_height + 6.0 + LINE_HEIGHT * self.text_lines.len() as f32
    }
}

/// The seat drawn at the top: the one playing the colour at the top of the first board.
pub(super) fn top_seat(scene: &Scene) -> Seat {
    match scene.boards.first() {
        Some(board) if board.is_flipped => board.seats[Color::White.index()],
        Some(board) => board.seats[Color::Black.index()],
        None => Seat::Second,
    }
}

/// Top-left corner of a square on a board drawn at `left`.
pub(super) fn square_origin(board: &BoardScene, left: f32, top: f32, square: f32, at: Square) -> (f32, f32) {
    let (column, row) = if board.is_flipped {
        (board.files - 1 - at.file(), at.rank())
    } else {
        (at.file(), board.ranks - 1 - at.rank())
    };
    (left + f32::from(column) * square, top + f32::from(row) * square)
}

/// The size in pixels a scene's image will have, without drawing it.
pub fn pixel_size(scene: &Scene) -> (u32, u32) {
    let layout = Layout::of(scene);
    (
        (layout.width * layout.scale).round().max(1.0) as u32,
        (layout.height * layout.scale).round().max(1.0) as u32,
    )
}

/// A box of the layout (top-left corner and side) in pixels.
fn in_pixels(layout: &Layout, (x, y, side): (f32, f32, f32)) -> (f32, f32, f32) {
    (x * layout.scale, y * layout.scale, side * layout.scale)
}

/// The box of the `index`th pool piece, for a pool drawn from `top`.
pub(super) fn pool_cell(layout: &Layout, top: f32, index: usize) -> (f32, f32, f32) {
    let (row, column) = (index / layout.pool_per_row, index % layout.pool_per_row);
    (
        layout.notes_left + column as f32 * POOL_CELL,
        top + POOL_HEADING + row as f32 * POOL_CELL,
        POOL_CELL - 2.0,
    )
}

/// How many characters of a scene's lines (15 px) fit on one line of its notes.
pub(super) fn line_fits(scene: &Scene) -> usize {
    let layout = Layout::of(scene);
    let width = layout.width - layout.notes_left - NOTES_LEFT;
    (width / (15.0 * GLYPH_WIDTH)).floor() as usize
}

/// A line of text broken between words into lines that fit `width` at `font_size`.
pub(super) fn wrap_words(text: &str, width: f32, font_size: f32) -> Vec<String> {
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

/// The legend's entries (by index) line by line, as many `label name` pairs to a line as fit
/// `width` at `font_size`.
pub(super) fn wrap_legend(scene: &Scene, width: f32, font_size: f32) -> Vec<Vec<usize>> {
    let mut lines: Vec<Vec<usize>> = Vec::new();
    let mut used = 0.0;
    for (index, entry) in scene.legend.iter().enumerate() {
        let cost = (format!("{} {}", entry.label, entry.name).chars().count() as f32 + 3.0) * font_size * GLYPH_WIDTH;
        match lines.last_mut() {
            Some(line) if used + cost <= width => line.push(index),
            _ => {
                lines.push(vec![index]);
                used = 0.0;
            }
        }
        used += cost;
    }
    lines
}

/// Where the `index`th piece of the scene's pool is drawn: its box's top-left corner and side, in
/// pixels.
pub fn pool_box(scene: &Scene, index: usize) -> Option<(f32, f32, f32)> {
    let layout = Layout::of(scene);
    (index < scene.pool.len()).then(|| in_pixels(&layout, pool_cell(&layout, layout.pool_top(), index)))
}

/// Where the sample of the `index`th key entry is drawn: its top-left corner and side, in pixels.
pub fn key_box(scene: &Scene, index: usize) -> Option<(f32, f32, f32)> {
    let layout = Layout::of(scene);
    if index >= scene.key.len() {
        return None;
    }
    let before: usize = layout.key_lines[..index].iter().map(Vec::len).sum();
    let top = layout.key_top() + before as f32 * LINE_HEIGHT + 2.0;
    Some(in_pixels(&layout, (layout.notes_left, top, SAMPLE)))
}

/// Every square of every board of the scene, where it lies in the SVG's own units (its
/// viewBox): its board's index, the square, its top-left corner and side. For a page that
/// lets a player point at squares.
pub fn square_spots(scene: &Scene) -> Vec<(usize, Square, (f32, f32, f32))> {
    let layout = Layout::of(scene);
    let mut spots = Vec::new();
    for (index, board) in scene.boards.iter().enumerate() {
        let (left, top) = board_origin(scene, &layout, index);
        for rank in 0..board.ranks {
            for file in 0..board.files {
                let at = Square::new(file, rank);
                let (x, y) = square_origin(board, left, top, layout.square, at);
                spots.push((index, at, (x, y, layout.square)));
            }
        }
    }
    spots
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
    Some(in_pixels(&layout, (x, y, layout.square)))
}
