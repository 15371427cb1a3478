//! Board images as a newcomer reads them on a phone, each checked in the
//! decoded pixels or the drawn geometry: both CTF flags on one square, coordinates large enough to
//! read, the latest statue standing out on any square, Assault's two boards in an image of a
//! reasonable shape, and a Patch replay without the pool's empty band after the picking.

use arbiter::render::{Badge, Decor, Renderer, Scene, palette, square_box, to_svg};
use arbiter_engine::geometry::Square;
use arbiter_engine::lists::ListKind;
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use arbiter_engine::{Action, AnyGame, Game, Phase, Seat, VariantId, View, Viewer};
use std::sync::OnceLock;

/// How wide a phone shows an image (Discord on a small phone).
const PHONE_WIDTH: f32 = 360.0;
const BACKGROUND: [u8; 3] = [0x26, 0x24, 0x21];
const LIGHT_SQUARE: [u8; 3] = [0xee, 0xee, 0xd2];
const DARK_SQUARE: [u8; 3] = [0x76, 0x96, 0x56];

fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::new)
}

/// A decoded image: width, height and RGB pixels.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

impl Image {
    fn decode(png_bytes: &[u8]) -> Image {
        let flat = crate::render_images::Image::decode(png_bytes);
        Image {
            width: flat.width,
            height: flat.height,
            rgb: flat.rgb.chunks_exact(3).map(|px| [px[0], px[1], px[2]]).collect(),
        }
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        self.rgb[(y * self.width + x) as usize]
    }

    /// How many pixels of the box are close to `color`.
    fn count(&self, (x, y, size): (f32, f32, f32), color: [u8; 3]) -> usize {
        let (x0, y0, side) = (x.ceil() as u32, y.ceil() as u32, size.floor() as u32);
        (y0..(y0 + side).min(self.height))
            .flat_map(|py| (x0..(x0 + side).min(self.width)).map(move |px| (px, py)))
            .filter(|&(px, py)| is_close(self.pixel(px, py), color, 6))
            .count()
    }

    /// The box (left, top, right, bottom; inclusive) of the pixels in `x`, `y` that are not the
    /// image's background: the glyphs written there.
    fn ink(&self, x: std::ops::Range<u32>, y: std::ops::Range<u32>) -> Option<(u32, u32, u32, u32)> {
        let mut found: Option<(u32, u32, u32, u32)> = None;
        for py in y {
            for px in x.clone() {
                if !is_close(self.pixel(px, py), BACKGROUND, 12) {
                    found = Some(match found {
                        None => (px, py, px, py),
                        Some((l, t, r, b)) => (l.min(px), t.min(py), r.max(px), b.max(py)),
                    });
                }
            }
        }
        found
    }
}

fn is_close(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tolerance)
}

fn rgb(color: arbiter::render::Rgba) -> [u8; 3] {
    [color.r, color.g, color.b]
}

/// WCAG's relative luminance of an sRGB colour.
fn luminance(color: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(color[0]) + 0.7152 * linear(color[1]) + 0.0722 * linear(color[2])
}

/// WCAG's contrast ratio of two colours (1 to 21); 3 is the least for a mark that must be seen.
fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn played(variant: VariantId, moves: &str) -> AnyGame {
    let mut game = AnyGame::new(variant);
    for text in moves.split_whitespace() {
        let seat = game.to_act()[0];
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap();
    }
    game
}

fn draw_view(view: &View) -> (Scene, Image) {
    let scene = Scene::from_view(view, &Decor::default());
    let image = Image::decode(&renderer().png(&scene).unwrap());
    (scene, image)
}

fn draw(game: &AnyGame, viewer: Viewer) -> (Scene, Image) {
    draw_view(&game.view(viewer))
}

/// The badges' discs drawn in a box of the SVG: centre and radius of each circle with a badge's
/// 1.5 px outline.
fn badge_discs(svg: &str, (x, y, size): (f32, f32, f32)) -> Vec<(f32, f32, f32)> {
    let attribute = |tag: &str, name: &str| -> f32 {
        let value = tag.split(&format!(" {name}=\"")).nth(1).unwrap();
        value.split('"').next().unwrap().parse().unwrap()
    };
    svg.split("<circle")
        .skip(1)
        .map(|rest| &rest[..rest.find("/>").unwrap()])
        .filter(|tag| tag.contains("stroke-width=\"1.5\""))
        .map(|tag| (attribute(tag, "cx"), attribute(tag, "cy"), attribute(tag, "r")))
        .filter(|&(cx, cy, _)| cx > x && cx < x + size && cy > y && cy < y + size)
        .collect()
}

/// Item 1: White's base is e2; White's queen catches Black's flag on g6 and brings it home to e2,
/// where White's flag lies: both flags are on e2, one lying there and one carried by the queen.
/// Both badges show whole, apart, each in its owner's colour, and the key says which is carried.
#[test]
fn two_flags_on_one_square_are_two_whole_badges_apart() {
    let game = played(VariantId::Ctf, "base:e2 base:g6 e4 a6 Qg4 a5 Qg6 a4 Qg4 a3 Qe2");
    let (scene, image) = draw(&game, Viewer::Spectator);
    let e2_badges: Vec<&Badge> = scene.boards[0]
        .badges
        .iter()
        .filter(|(square, _)| *square == sq("e2"))
        .map(|(_, badge)| badge)
        .collect();
    assert_eq!(e2_badges.len(), 2, "both flags are on e2");
    let e2 = square_box(&scene, 0, sq("e2")).unwrap();
    // The badges' fills: White's (white, dark letter) and Black's (near black, white letter). A
    // badge hidden under the other leaves only the other's letter in its colour.
    let (white, black) = (
        image.count(e2, rgb(palette::WHITE_SIDE)),
        image.count(e2, rgb(palette::BLACK_SIDE)),
    );
    assert!(white > 80, "White's flag shows on e2 ({white} px of its white)");
    assert!(black > 80, "Black's flag shows on e2 ({black} px of its black)");
    let discs = badge_discs(&to_svg(&scene), e2);
    assert_eq!(discs.len(), 2, "{discs:?}");
    let [(x1, y1, r1), (x2, y2, r2)] = [discs[0], discs[1]];
    let apart = ((x1 - x2).powi(2) + (y1 - y2).powi(2)).sqrt();
    assert!(
        apart >= r1 + r2,
        "the discs do not overlap: {apart} apart, radii {r1} and {r2}"
    );
    for (cx, cy, r) in &discs {
        let inside = *cx - r >= e2.0 && *cx + r <= e2.0 + e2.2 && *cy - r >= e2.1 && *cy + r <= e2.1 + e2.2;
        assert!(inside, "each badge lies within e2: {discs:?} in {e2:?}");
    }
    // Which flag lies there and which is carried: the key, by the badges' colours.
    let key: Vec<(&str, Option<[u8; 3]>)> = scene
        .key
        .iter()
        .map(|entry| {
            let color = match &entry.sample {
                arbiter::render::Sample::Badge(badge) => Some(rgb(badge.color)),
                _ => None,
            };
            (entry.meaning.as_str(), color)
        })
        .collect();
    assert!(
        key.contains(&("White's flag", Some(rgb(palette::WHITE_SIDE)))),
        "{key:?}"
    );
    assert!(
        key.contains(&("Black's flag, carried", Some(rgb(palette::BLACK_SIDE)))),
        "{key:?}"
    );
}

/// Item 2: The file letters and rank numbers stand at least 10 px tall on a phone showing the image
/// 360 px wide (they stood under 8), beside and under the board, clear of its squares and of the
/// image's edge: on an 8x8 board, and on a 10x10 one with its two-digit ranks.
#[test]
fn coordinates_are_readable_on_a_phone_and_stay_off_the_board() {
    for (variant, files, ranks) in [(VariantId::Chess, 8, 8), (VariantId::PickTheTeam, 10, 10)] {
        let (scene, image) = draw(&AnyGame::new(variant), Viewer::Spectator);
        let on_phone = PHONE_WIDTH / image.width as f32;
        let (left, top, side) = square_box(&scene, 0, Square::new(0, ranks - 1)).unwrap();
        let (left, top, side) = (left as u32, top as u32, side as u32);
        let (right, bottom) = (left + files as u32 * side, top + ranks as u32 * side);
        // The top rank's number ("8", "10") in the margin left of the board.
        let (l, t, r, b) = image.ink(0..left, top..top + side).expect("a rank number");
        let tall = (b - t + 1) as f32 * on_phone;
        assert!(
            tall >= 10.0,
            "{variant}: rank {ranks} stands {tall:.1} px tall on a phone"
        );
        assert!(
            l >= 1,
            "{variant}: rank {ranks} is not cut by the image's edge (from x {l})"
        );
        assert!(
            r + 3 <= left,
            "{variant}: rank {ranks} ends at x {r}, the board starts at {left}"
        );
        // Under the board, down to the lower strip (the first row that is not background).
        let strip = (bottom..image.height)
            .find(|&y| !is_close(image.pixel(1, y), BACKGROUND, 2))
            .expect("the lower strip");
        // The last file's letter, under its square.
        let last_file = (right - side)..right;
        let (_, t, _, b) = image.ink(last_file, bottom..strip).expect("a file letter");
        let letter = (b - t + 1) as f32 * on_phone;
        assert!(
            letter >= 10.0,
            "{variant}: the file letter stands {letter:.1} px tall on a phone"
        );
        assert!(
            t >= bottom + 2,
            "{variant}: the letters start at y {t}, the board ends at {bottom}"
        );
        assert!(
            b + 2 <= strip,
            "{variant}: the letters end at y {b}, the strip starts at {strip}"
        );
    }
}

/// Pixels of a square whose colour stands out (contrast 3:1 or more) from what the same image
/// shows there without the square's marks.
fn standing_out(marked: &Image, bare: &Image, (x, y, size): (f32, f32, f32)) -> usize {
    let (x0, y0, side) = (x.ceil() as u32, y.ceil() as u32, size.floor() as u32);
    (y0..y0 + side)
        .flat_map(|py| (x0..x0 + side).map(move |px| (px, py)))
        .filter(|&(px, py)| contrast(marked.pixel(px, py), bare.pixel(px, py)) >= 3.0)
        .count()
}

/// Where along a square's sides (each side's middle half, pixel by pixel) nothing within the
/// outer third of the square stands out (3:1) from the square unmarked: the outline's gaps.
fn outline_gaps(marked: &Image, bare: &Image, (x, y, size): (f32, f32, f32)) -> Vec<(char, u32)> {
    let (x0, y0, side) = (x.ceil() as u32, y.ceil() as u32, size.floor() as u32);
    let stands_out = |px: u32, py: u32| contrast(marked.pixel(px, py), bare.pixel(px, py)) >= 3.0;
    let mut gaps = Vec::new();
    for along in side / 4..side * 3 / 4 {
        let sides = [
            ('t', (0..side / 3).any(|depth| stands_out(x0 + along, y0 + depth))),
            (
                'b',
                (0..side / 3).any(|depth| stands_out(x0 + along, y0 + side - 1 - depth)),
            ),
            ('l', (0..side / 3).any(|depth| stands_out(x0 + depth, y0 + along))),
            (
                'r',
                (0..side / 3).any(|depth| stands_out(x0 + side - 1 - depth, y0 + along)),
            ),
        ];
        gaps.extend(sides.iter().filter(|(_, found)| !found).map(|(name, _)| (*name, along)));
    }
    gaps
}

/// Item 3: The latest statue's mark stands out from the square under it, light or dark, in each
/// side's colour (Blockade's White and Black, Garden of Statues' Red and Blue): an outline in 3:1
/// contrast (WCAG's least for a mark that must be seen) to the same square unmarked runs along all
/// four sides, and an eighth of the square or more stands out so (Red's and Blue's tints alone had
/// 1.5:1 on a dark square, and nothing of them stood out). And it is not the last move's tint: the
/// square the last move left is a flat wash, with nothing drawn on it.
#[test]
fn the_latest_statue_stands_out_on_light_and_dark_squares_unlike_the_last_move() {
    let setup = "R@f8 Q@h8 R@g8 B@f6 Q@a1 R@d7 B@g7 R@a3 B@a4 B@h6";
    // The statue's square, whether it is light, and the square the last move left.
    let cases = [
        ("Qa1-c1@c2", "c2", true, "a1"),
        ("Qa1-c1@e3", "e3", false, "a1"),
        ("Qa1-c1@e3 Rd7-d6@d5", "d5", true, "d7"),
        ("Qa1-c1@e3 Bh6-f4@g5", "g5", false, "h6"),
    ];
    let mut said = Vec::new();
    for variant in [VariantId::Blockade, VariantId::Garden] {
        for (moves, statue, light, left) in cases {
            let game = played(variant, &format!("{setup} {moves}"));
            let view = game.view(Viewer::Spectator);
            let mut unmarked = view.clone();
            unmarked.boards[0].marks.retain(|mark| mark.square != sq(statue));
            assert_ne!(unmarked, view, "{variant} {moves}: the latest statue is marked");
            let ((scene, marked), (_, bare)) = (draw_view(&view), draw_view(&unmarked));
            let square = square_box(&scene, 0, sq(statue)).unwrap();
            let plain = if light { LIGHT_SQUARE } else { DARK_SQUARE };
            assert!(
                is_close(bare.pixel(square.0 as u32 + 1, square.1 as u32 + 1), plain, 2),
                "{variant}: {statue} is a {} square",
                if light { "light" } else { "dark" }
            );
            let share = standing_out(&marked, &bare, square) as f32 / (square.2 * square.2);
            said.push((format!("{variant} {statue}"), share));
            // Around all four sides: an outline that stands out from the square, so the eye
            // finds the square on a glance, and a reader who does not tell red from green too.
            let gaps = outline_gaps(&marked, &bare, square);
            assert!(gaps.is_empty(), "{variant}: no outline on {statue} at {gaps:?}");
            // The last move's square: its tint alone, the same all over.
            let from = square_box(&scene, 0, sq(left)).unwrap();
            let wash = marked.pixel(from.0 as u32 + 2, from.1 as u32 + 2);
            let inner = (from.0 + 1.0, from.1 + 1.0, from.2 - 2.0);
            let flat = marked.count(inner, wash);
            assert_eq!(
                flat,
                ((inner.2.floor()) as usize).pow(2),
                "{variant}: {left} is a flat wash"
            );
        }
    }
    for (statue, share) in &said {
        assert!(
            *share >= 0.125,
            "the latest statue stands out over {:.0}% of {statue} ({said:?})",
            share * 100.0
        );
    }
}

/// Item 4: Assault's two boards stand side by side: its image is wider than tall (it was 480x1060),
/// with squares of 18 px or more on a phone showing it 360 px wide, rank numbers 9 px tall or more
/// there, and each board's caption whole.
#[test]
fn assaults_boards_stand_side_by_side_in_an_image_wider_than_tall() {
    let game = played(VariantId::Assault, "e4 d4 d5 d5 exd5 Nf3");
    for viewer in [Viewer::Spectator, Viewer::Seat(Seat::First), Viewer::Seat(Seat::Second)] {
        let (scene, image) = draw(&game, viewer);
        let (width, height) = (image.width, image.height);
        assert!(height * 3 <= width * 4, "{viewer:?}: {width}x{height}, taller than 4:3");
        assert!(height <= width, "{viewer:?}: {width}x{height}");
        // The boards' top-left corners (whichever square stands there): the same height, the
        // second right of the first with room for its rank numbers.
        let corner = |board: usize| {
            let boxes = [sq("a1"), sq("h1"), sq("a8"), sq("h8")].map(|at| square_box(&scene, board, at).unwrap());
            boxes
                .into_iter()
                .fold((f32::MAX, f32::MAX, 0.0), |(x, y, _), (bx, by, side)| {
                    (x.min(bx), y.min(by), side)
                })
        };
        let ((x1, y1, side), (x2, y2, _)) = (corner(0), corner(1));
        assert_eq!(y1, y2, "{viewer:?}: side by side");
        assert!(x2 >= x1 + 8.0 * side + 20.0, "{viewer:?}: board 2 right of board 1");
        let on_phone = side * PHONE_WIDTH / width as f32;
        assert!(on_phone >= 18.0, "{viewer:?}: {on_phone:.1} px a square on a phone");
        // The second board's top rank number, in the margin between the boards.
        let (l, t, _, b) = image
            .ink((x1 + 8.0 * side) as u32 + 2..x2 as u32, y2 as u32..(y2 + side) as u32)
            .expect("a rank number");
        let tall = (b - t + 1) as f32 * PHONE_WIDTH / width as f32;
        assert!(tall >= 9.0, "{viewer:?}: a rank number {tall:.1} px tall on a phone");
        assert!(l > (x1 + 8.0 * side) as u32 + 4, "{viewer:?}: clear of board 1");
        // Each board's caption whole, above it.
        let svg = to_svg(&scene);
        for caption in ["Board 1: A White, B Black", "Board 2: B White, A Black"] {
            assert!(svg.contains(&format!(">{caption}</text>")), "{viewer:?}: {caption}");
        }
    }
}

/// The frames of a GIF as a viewer shows them: each frame's whole picture, and the GIF's size.
fn gif_frames(bytes: &[u8]) -> (usize, usize, Vec<Vec<[u8; 3]>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (decoder.width() as usize, decoder.height() as usize);
    let mut canvas = vec![[0u8; 3]; width * height];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let px = &frame.buffer[(y * frame.width as usize + x) * 4..][..4];
                if px[3] != 0 {
                    canvas[(frame.top as usize + y) * width + frame.left as usize + x] = [px[0], px[1], px[2]];
                }
            }
        }
        frames.push(canvas.clone());
    }
    (width, height, frames)
}

/// Rows of background at the bottom of a frame.
fn empty_rows_at_the_bottom(width: usize, frame: &[[u8; 3]]) -> usize {
    frame
        .chunks_exact(width)
        .rev()
        .take_while(|row| row.iter().all(|&px| px == BACKGROUND))
        .count()
}

/// A Patch game: both players' lists (the ready-made one), every pick, then six moves.
fn patch_game() -> (AnyGame, Vec<(Seat, Action)>, AnyGame) {
    let list = OwnPiecesGame::list_notation(&OwnPiecesGame::ready_made(ListKind::Patch));
    let start = AnyGame::new(VariantId::Patch);
    let mut game = start.clone();
    let mut actions = Vec::new();
    let mut act = |game: &mut AnyGame, seat: Seat, action: Action| {
        game.apply(seat, &action).unwrap();
        actions.push((seat, action));
    };
    for seat in Seat::BOTH {
        let action = game.parse_action(seat, &list).unwrap();
        act(&mut game, seat, action);
    }
    let mut moves = 0;
    while moves < 6 {
        if game.view(Viewer::Spectator).phase == Phase::Play {
            moves += 1;
        }
        let seat = game.to_act()[0];
        let action = game.legal_actions(seat)[0].clone();
        act(&mut game, seat, action);
    }
    (start, actions, game)
}

/// Item 5: A Patch replay: the frames after the picking carry no empty band where the pool was
/// drawn (210 px of an 820 px GIF): the GIF is at most a line (20 px) taller than the board image
/// of the game as it ends, which its last frame shows. The picking's frames still say the pool, in
/// a line of words under the lower strip.
#[test]
fn a_patch_replay_keeps_no_empty_band_after_the_picking() {
    let (start, actions, end) = patch_game();
    let names = [Some("alice".to_string()), Some("bob".to_string())];
    let animation = arbiter::arena::animation(&start, &actions, &end, names).unwrap();
    let picking = animation
        .frames
        .iter()
        .filter(|f| !f.image.view.pool.is_empty())
        .count();
    assert!(picking > 20, "{picking} frames of picking");
    let last = animation.frames.last().unwrap();
    assert!(last.image.view.pool.is_empty() && last.image.view.phase == Phase::Play);
    let board = renderer().pixels(&last.image.scene()).unwrap();
    let gif = renderer().gif(&animation, arbiter::render::MOST_REPLAY_BYTES).unwrap();
    let (width, height, frames) = gif_frames(&gif.bytes);
    assert_eq!(frames.len(), animation.frames.len(), "a frame for each position");
    assert_eq!(width, board.width() as usize);
    let band = height - board.height() as usize;
    assert!(
        band <= 20,
        "the GIF is {band} px taller than the game's last board image"
    );
    // Every frame after the picking: no more than that band and the image's own bottom margin.
    let own_margin = empty_rows_at_the_bottom(board.width() as usize, &{
        let data = board.data();
        data.chunks_exact(4).map(|px| [px[0], px[1], px[2]]).collect::<Vec<_>>()
    });
    for (index, frame) in frames.iter().enumerate().skip(picking + 1) {
        let empty = empty_rows_at_the_bottom(width, frame);
        assert!(
            empty <= own_margin + 20,
            "frame {index}: {empty} empty rows at the bottom (the image's own: {own_margin})"
        );
    }
    // The second frame (the first pick) says the pool under the lower strip: a line more of
    // words there than the last frame has (its legend).
    let words_under_the_strip = |frame: &[[u8; 3]]| {
        let strip = [[0x31, 0x2e, 0x2b], [0x4b, 0x6b, 0x38]];
        let below = (0..height)
            .rev()
            .find(|&y| strip.contains(&frame[y * width + 1]))
            .expect("the lower strip");
        (below + 1..height)
            .filter(|&y| frame[y * width..(y + 1) * width].iter().any(|&px| px != BACKGROUND))
            .count()
    };
    let (first_pick, last) = (
        words_under_the_strip(&frames[1]),
        words_under_the_strip(&frames[frames.len() - 1]),
    );
    assert!(
        first_pick >= last + 10,
        "rows of words under the strip: {first_pick} while picking, {last} at the end"
    );
}
