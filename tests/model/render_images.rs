//! Board images, checked by decoding the PNG and reading its pixels, and by golden SVG text for
//! one position of each game. A test run only compares: after a deliberate change to the drawing,
//! The golden boards are insta snapshots in tests/golden/: a change shows as a line-by-line
//! difference, and a deliberate one is accepted with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test --test model`). The piece diagrams in docs/images/pieces/ are
//! rewritten by `UPDATE_DIAGRAMS=1 cargo test --test model write_piece_diagrams -- --ignored`.

use arbiter::render::{Decor, Renderer, Scene, move_dots, pool_box, square_box, to_svg};
use arbiter_engine::geometry::Square;
use arbiter_engine::variant_file::Variant;
use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use std::sync::{Arc, OnceLock};

pub(crate) const LIGHT_SQUARE: [u8; 3] = [0xee, 0xee, 0xd2];
pub(crate) const DARK_SQUARE: [u8; 3] = [0x76, 0x96, 0x56];
pub(crate) const WHITE_BODY: [u8; 3] = [0xf2, 0xef, 0xe6];
pub(crate) const BLACK_BODY: [u8; 3] = [0x2b, 0x2b, 0x2b];
pub(crate) const BOMB_RED: [u8; 3] = [200, 30, 30];

pub(crate) fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::new)
}

/// A decoded image: width, height and RGB pixels.
pub(crate) struct Image {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) rgb: Vec<u8>,
}

impl Image {
    pub(crate) fn decode(png_bytes: &[u8]) -> Image {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).expect("one frame");
        assert_eq!(info.color_type, png::ColorType::Rgb, "palette expands to RGB");
        buffer.truncate(info.buffer_size());
        Image {
            width: info.width,
            height: info.height,
            rgb: buffer,
        }
    }

    pub(crate) fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = ((y * self.width + x) * 3) as usize;
        [self.rgb[at], self.rgb[at + 1], self.rgb[at + 2]]
    }

    /// How many pixels of the box close to `color` (within a small tolerance).
    pub(crate) fn count(&self, (x, y, size): (f32, f32, f32), color: [u8; 3]) -> usize {
        let (x0, y0) = (x.ceil() as u32, y.ceil() as u32);
        let side = size.floor() as u32;
        let mut count = 0;
        for py in y0..(y0 + side).min(self.height) {
            for px in x0..(x0 + side).min(self.width) {
                if is_close(self.pixel(px, py), color, 6) {
                    count += 1;
                }
            }
        }
        count
    }
}

pub(crate) fn is_close(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tolerance)
}

/// `top` with opacity `alpha` over `bottom`.
pub(crate) fn blend(top: [u8; 3], alpha: f32, bottom: [u8; 3]) -> [u8; 3] {
    [0, 1, 2].map(|i| (f32::from(top[i]) * alpha + f32::from(bottom[i]) * (1.0 - alpha)).round() as u8)
}

pub(crate) fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

pub(crate) fn played(variant: VariantId, moves: &str) -> AnyGame {
    let mut game = AnyGame::new(variant);
    play(&mut game, moves);
    game
}

pub(crate) fn play(game: &mut AnyGame, moves: &str) {
    for text in moves.split_whitespace() {
        let seat = game.to_act()[0];
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap();
    }
}

pub(crate) fn draw(game: &AnyGame, viewer: Viewer, decor: &Decor) -> (Scene, Image) {
    let scene = Scene::from_view(&game.view(viewer), decor);
    let png = renderer().png(&scene).unwrap();
    (scene, Image::decode(&png))
}

/// The box of a square without its outer pixels, so anti-aliased edges do not count.
pub(crate) fn inner_box(scene: &Scene, square: Square) -> (f32, f32, f32) {
    let (x, y, size) = square_box(scene, 0, square).unwrap();
    (x + 2.0, y + 2.0, size - 4.0)
}

/// A few pixels into a square's bottom-right corner, clear of pieces and of a label (top left),
/// inside a near-white tint's frame.
pub(crate) fn lower_corner(image: &Image, scene: &Scene, square: Square) -> [u8; 3] {
    let (x, y, side) = square_box(scene, 0, square).unwrap();
    image.pixel((x + side) as u32 - 7, (y + side) as u32 - 7)
}

/// A few pixels in a square's top-left corner, where no piece art reaches.
pub(crate) fn corner(image: &Image, scene: &Scene, square: Square) -> [u8; 3] {
    let (x, y, _) = square_box(scene, 0, square).unwrap();
    image.pixel(x as u32 + 3, y as u32 + 3)
}

#[test]
fn a_board_image_has_its_size_and_pieces_only_where_the_view_has_them() {
    let (scene, image) = draw(&AnyGame::new(VariantId::Chess), Viewer::Spectator, &Decor::default());
    assert_eq!((image.width, image.height), (480, 550));
    // Empty squares are plain square colour; occupied ones are mostly not.
    for (square, colour) in [("e4", LIGHT_SQUARE), ("d4", DARK_SQUARE), ("a3", DARK_SQUARE)] {
        let b = inner_box(&scene, sq(square));
        let all = (b.2.floor() as usize).pow(2);
        assert_eq!(image.count(b, colour), all, "{square} is empty");
    }
    let e1 = inner_box(&scene, sq("e1"));
    assert!(image.count(e1, WHITE_BODY) > 300, "a white king on e1");
    // (A white piece's dark outline blends into a few near-black pixels, no more.)
    assert!(image.count(e1, BLACK_BODY) < 40);
    let d8 = inner_box(&scene, sq("d8"));
    assert!(image.count(d8, BLACK_BODY) > 300, "a black queen on d8");
    // Squares alternate, a1 dark.
    assert_eq!(corner(&image, &scene, sq("a1")), DARK_SQUARE);
    assert_eq!(corner(&image, &scene, sq("h1")), LIGHT_SQUARE);
}

#[test]
fn the_viewers_side_is_at_the_bottom() {
    let game = AnyGame::new(VariantId::Chess);
    let (spectator_scene, spectator) = draw(&game, Viewer::Spectator, &Decor::default());
    let (black_scene, black) = draw(&game, Viewer::Seat(Seat::Second), &Decor::default());
    // The same pixel box, the board's top-left square: Black's rook for spectators (a8), White's
    // for Black's own image (h1).
    let top_left = inner_box(&spectator_scene, sq("a8"));
    assert_eq!(inner_box(&black_scene, sq("h1")), top_left);
    // (Black pieces have light outlines, so only their dark body tells them apart.)
    assert!(spectator.count(top_left, BLACK_BODY) > 200);
    assert!(black.count(top_left, WHITE_BODY) > 200);
    assert!(black.count(top_left, BLACK_BODY) < 40);
    // a1 is dark whichever way the board is turned; in Black's image it is the top-right square.
    let (x, _, _) = square_box(&black_scene, 0, sq("a1")).unwrap();
    assert!(x > 400.0);
    assert_eq!(corner(&black, &black_scene, sq("a1")), DARK_SQUARE);
}

#[test]
fn the_last_move_and_a_check_are_tinted() {
    let game = played(VariantId::Chess, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    let last_move = [246, 214, 70];
    // h5 (from) is a light square, f7 (to) a light square too.
    assert!(is_close(
        corner(&image, &scene, sq("h5")),
        blend(last_move, 0.55, LIGHT_SQUARE),
        4
    ));
    assert!(is_close(
        corner(&image, &scene, sq("f7")),
        blend(last_move, 0.55, LIGHT_SQUARE),
        4
    ));
    let e8 = corner(&image, &scene, sq("e8"));
    assert!(is_close(e8, blend([226, 40, 40], 0.75, LIGHT_SQUARE), 4), "{e8:?}");
    // Squares the move did not touch keep their colour.
    assert_eq!(corner(&image, &scene, sq("e4")), LIGHT_SQUARE);
}

#[test]
fn legal_move_dots_mark_the_pieces_destinations_when_asked() {
    let game = AnyGame::new(VariantId::Chess);
    let decor = Decor {
        dots: move_dots(&game.legal_actions(Seat::First), sq("g1")),
        ..Decor::default()
    };
    assert_eq!(decor.dots, vec![sq("f3"), sq("h3")]);
    let (scene, image) = draw(&game, Viewer::Seat(Seat::First), &decor);
    let dot_over_light = blend([30, 60, 30], 0.45, LIGHT_SQUARE);
    for square in ["f3", "h3"] {
        let (x, y, size) = square_box(&scene, 0, sq(square)).unwrap();
        let centre = image.pixel((x + size / 2.0) as u32, (y + size / 2.0) as u32);
        assert!(is_close(centre, dot_over_light, 4), "{square}: {centre:?}");
    }
    let (x, y, size) = square_box(&scene, 0, sq("g3")).unwrap();
    assert_eq!(
        image.pixel((x + size / 2.0) as u32, (y + size / 2.0) as u32),
        DARK_SQUARE
    );
    let (_, plain) = draw(&game, Viewer::Seat(Seat::First), &Decor::default());
    let (x, y, size) = square_box(&scene, 0, sq("f3")).unwrap();
    assert_eq!(
        plain.pixel((x + size / 2.0) as u32, (y + size / 2.0) as u32),
        LIGHT_SQUARE
    );
}

#[test]
fn the_bomb_carrier_is_marked_only_in_its_owners_image() {
    let game = played(VariantId::Beirut, "bomb:d2 bomb:e7 e4");
    let mut reds = Vec::new();
    for viewer in [Viewer::Seat(Seat::First), Viewer::Seat(Seat::Second), Viewer::Spectator] {
        let (scene, image) = draw(&game, viewer, &Decor::default());
        let d2 = image.count(square_box(&scene, 0, sq("d2")).unwrap(), BOMB_RED);
        let e7 = image.count(square_box(&scene, 0, sq("e7")).unwrap(), BOMB_RED);
        let elsewhere: usize = ["e2", "c2", "d7", "f7"]
            .iter()
            .map(|s| image.count(square_box(&scene, 0, sq(s)).unwrap(), BOMB_RED))
            .sum();
        assert_eq!(elsewhere, 0);
        reds.push((d2, e7));
        let svg = to_svg(&scene);
        // The carrier's badge, and its sample in the key.
        let badges = svg.matches("fill=\"#c81e1e\"").count();
        assert_eq!(badges, 2 * usize::from(viewer != Viewer::Spectator), "{viewer:?}");
    }
    let [(white_d2, white_e7), (black_d2, black_e7), (spectator_d2, spectator_e7)] = reds[..] else {
        unreachable!()
    };
    assert!(white_d2 > 40 && white_e7 == 0, "White sees only its own carrier");
    assert!(black_e7 > 40 && black_d2 == 0, "Black sees only its own carrier");
    assert_eq!((spectator_d2, spectator_e7), (0, 0), "spectators see no carrier");
}

#[test]
fn each_flag_is_a_badge_in_its_owners_colour_readable_on_any_square_and_bases_are_ringed() {
    let game = played(VariantId::Ctf, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 drop");
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    let svg = to_svg(&scene);
    // White's flag lies at home on f3 (a light square): a white badge with dark writing.
    // (Each badge is drawn twice: on its square and beside its meaning in the key.)
    assert_eq!(
        svg.matches("stroke=\"#1e1e1e\" stroke-width=\"1.5\"").count(),
        2,
        "White's badge, dark ink"
    );
    assert_eq!(
        svg.matches("stroke=\"#ffffff\" stroke-width=\"1.5\"").count(),
        2,
        "Black's badge, white ink"
    );
    let dark_ink = [0x1e, 0x1e, 0x1e];
    assert!(
        image.count(square_box(&scene, 0, sq("f3")).unwrap(), dark_ink) > 20,
        "the white base's ring and badge show"
    );
    // Black's flag lies on c4 under White's knight: a black badge.
    assert!(image.count(square_box(&scene, 0, sq("c4")).unwrap(), dark_ink) > 20);
    // Before both bases are chosen, only the chooser sees their own.
    let choosing = played(VariantId::Ctf, "base:f3");
    let (own, own_image) = draw(&choosing, Viewer::Seat(Seat::First), &Decor::default());
    let (public, public_image) = draw(&choosing, Viewer::Spectator, &Decor::default());
    let f3 = |scene: &Scene, image: &Image| image.count(square_box(scene, 0, sq("f3")).unwrap(), dark_ink);
    assert!(f3(&own, &own_image) > 20, "White sees its base");
    assert_eq!(f3(&public, &public_image), 0, "nobody else does");
}

#[test]
fn a_proposal_is_drawn_on_the_players_images_only() {
    let game = played(VariantId::Rejection, "e4 accept e5 accept Nf3");
    let highlight = |viewer| {
        let (scene, _) = draw(&game, viewer, &Decor::default());
        to_svg(&scene).matches("White's proposal: Nf3").count()
    };
    assert_eq!(
        highlight(Viewer::Seat(Seat::Second)),
        1,
        "the answering player's legend names it"
    );
    assert_eq!(highlight(Viewer::Seat(Seat::First)), 1, "and the proposer's");
    assert_eq!(highlight(Viewer::Spectator), 0, "spectators see no proposal");
}

#[test]
fn statues_are_drawn_and_only_the_latest_is_tinted_with_its_placers_colour() {
    let setup = "R@f8 Q@h8 R@g8 B@f6 Q@a1 R@h7 B@g7 R@a3 B@a4 B@h6";
    let game = played(VariantId::Garden, &format!("{setup} Qa1-c1@e3 Bh6-f4@g5"));
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    let statue_grey = [0x8a, 0x8a, 0x8a];
    for square in ["e3", "g5"] {
        assert!(
            image.count(inner_box(&scene, sq(square)), statue_grey) > 300,
            "a statue on {square}"
        );
    }
    // g5 (dark) holds Blue's statue, the latest: tinted blue; e3 (dark) keeps its colour.
    assert!(is_close(
        corner(&image, &scene, sq("g5")),
        blend([38, 96, 214], 0.75, DARK_SQUARE),
        4
    ));
    assert_eq!(corner(&image, &scene, sq("e3")), DARK_SQUARE);
    let red_turn = played(VariantId::Garden, &format!("{setup} Qa1-c1@e3"));
    let (scene, image) = draw(&red_turn, Viewer::Spectator, &Decor::default());
    assert!(is_close(
        corner(&image, &scene, sq("e3")),
        blend([214, 48, 49], 0.75, DARK_SQUARE),
        4
    ));
}

#[test]
fn images_stay_small_enough_for_phones() {
    for (name, game) in sample_games() {
        let view = game.view(Viewer::Spectator);
        let png = renderer().png(&Scene::from_view(&view, &Decor::default())).unwrap();
        let image = Image::decode(&png);
        assert!(png.len() < 64 * 1024, "{name}: {} bytes", png.len());
        // One board's image is 480 px wide (the 10x10 ones too); Assault's two boards stand side
        // by side, laid out 542 wide and drawn half as large again.
        let widths = if name == "assault" { 700..=840 } else { 400..=560 };
        assert!(widths.contains(&image.width), "{name}: {} px wide", image.width);
    }
}

/// One position of each game, and a 10x10 board of fairy pieces.
pub(crate) fn sample_games() -> Vec<(&'static str, AnyGame)> {
    let ten = Variant::from_toml(include_str!("../../docs/images/ten-by-ten.toml")).unwrap();
    let mut ten = AnyGame::custom(Arc::new(ten), None).unwrap();
    play(&mut ten, "CAd4 CAd7");
    vec![
        ("chess", played(VariantId::Chess, "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O")),
        (
            "blockade",
            played(VariantId::Blockade, "R@f8 Q@h8 R@g8 B@f6 Q@a1 R@h7 B@g7 R@a3 B@a4"),
        ),
        (
            "garden",
            played(
                VariantId::Garden,
                "R@f8 Q@h8 R@g8 B@f6 Q@a1 R@h7 B@g7 R@a3 B@a4 B@h6 Qa1-c1@e3 Bh6-f4@g5",
            ),
        ),
        ("beirut", played(VariantId::Beirut, "bomb:d2 bomb:e7 e4 d5 exd5")),
        ("circe", played(VariantId::Circe, "e4 d5 exd5(a4)")),
        (
            "portal",
            played(VariantId::Portal, "f3 a6 bxa6 e5 axb7 f6 Kf2 Qh4+ Kf3"),
        ),
        ("knights-are-god", played(VariantId::KnightsAreGod, "e2d4 g8h5")),
        ("domination", played(VariantId::Domination, "e3 d5 e4 dxe4 Nc3 Nf6")),
        ("ten-by-ten", ten),
        ("ultimate-battle", played(VariantId::UltimateBattle, "e4 d5 exd5 Qe6")),
        (
            "pick-the-team",
            played(VariantId::PickTheTeam, "K@e1 RN@f10 CN@a10 Q@b1 PA@a1 W@b10 ML@c10"),
        ),
        ("assault", played(VariantId::Assault, "e4 d4 d5 d5 exd5 Nf3")),
        (
            "ctf",
            played(VariantId::Ctf, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 drop"),
        ),
        ("rejection", played(VariantId::Rejection, "e4 accept e5 accept Nf3")),
    ]
}

/// The golden board of each game: its name and the SVG the renderer draws now.
fn golden_boards() -> Vec<(&'static str, String)> {
    let decor = Decor {
        player_names: [Some("alice".into()), Some("bob".into())],
        clocks: [Some("0:42 · reserve 4:12".into()), None],
        ..Decor::default()
    };
    sample_games()
        .into_iter()
        .map(|(name, game)| {
            // Beirut from White's seat, so the golden file also shows the carrier's badge; Knights
            // are God from the side to move's, which sees its units that may move as knights.
            let viewer = if name == "beirut" || name == "knights-are-god" {
                Viewer::Seat(Seat::First)
            } else if name == "rejection" {
                // The answering player's image, which shows the proposal.
                Viewer::Seat(Seat::Second)
            } else {
                Viewer::Spectator
            };
            let svg = to_svg(&Scene::from_view(&game.view(viewer), &decor));
            (name, svg)
        })
        .collect()
}

/// The piece diagrams in docs/images/pieces/ (the rules pages show them): each catalogue piece's
/// file and what the renderer draws of it now.
fn piece_diagrams() -> Vec<(std::path::PathBuf, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/images/pieces");
    let decor = Decor {
        without_players: true,
        ..Decor::default()
    };
    arbiter_engine::catalogue::all()
        .into_iter()
        .map(|piece| {
            let diagram = arbiter_engine::diagram::piece_diagram(&piece).unwrap();
            let svg = to_svg(&Scene::from_view(&diagram.view, &decor));
            (dir.join(format!("{}.svg", piece.id)), svg)
        })
        .collect()
}

/// Each piece diagram equals its file in the docs; a test run never writes one.
fn assert_committed(drawings: &[(std::path::PathBuf, String)]) {
    for (path, svg) in drawings {
        let committed = std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (`UPDATE_DIAGRAMS=1 cargo test --test model write_piece_diagrams -- --ignored` writes it)",
                path.display()
            )
        });
        assert!(
            *svg == committed,
            "{} differs from what the renderer draws now (after a deliberate change, \
             `UPDATE_DIAGRAMS=1 cargo test --test model write_piece_diagrams -- --ignored` rewrites it)",
            path.display()
        );
    }
}

#[test]
fn each_game_draws_its_golden_svg() {
    let boards = golden_boards();
    assert_eq!(boards.len(), 14, "a golden board for each game");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../golden");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for (name, svg) in &boards {
            insta::assert_snapshot!(*name, svg);
        }
    });
    for (_, svg) in &boards {
        // The golden text also renders.
        renderer().svg_to_png(svg).unwrap();
    }
}

/// Rewrites the piece diagrams in the docs: by hand, after a deliberate change to the drawing
/// (ignored, and a no-op without `UPDATE_DIAGRAMS`, so no test run ever rewrites them).
#[test]
#[ignore = "rewrites the docs' piece diagrams; run by hand after a deliberate change"]
fn write_piece_diagrams() {
    if std::env::var_os("UPDATE_DIAGRAMS").is_none() {
        eprintln!("UPDATE_DIAGRAMS is not set: nothing written");
        return;
    }
    for (path, svg) in piece_diagrams() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, svg).unwrap();
    }
}

#[test]
fn fairy_pieces_are_named_in_the_legend() {
    let (_, ten) = sample_games()
        .into_iter()
        .find(|(name, _)| *name == "ten-by-ten")
        .unwrap();
    let scene = Scene::from_view(&ten.view(Viewer::Spectator), &Decor::default());
    let labels: Vec<&str> = scene.legend.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["AL", "BE", "CA", "CD", "CH", "CN", "DA", "F", "ML", "PA", "W"]);
    let svg = to_svg(&scene);
    assert!(svg.contains(">CA</tspan> Camel") && svg.contains(">ML</tspan> Murray lion"));
    // FIDE-drawn pieces need no legend.
    let chess = Scene::from_view(
        &AnyGame::new(VariantId::Chess).view(Viewer::Spectator),
        &Decor::default(),
    );
    assert!(chess.legend.is_empty());
}

#[test]
fn names_clocks_and_whose_turn_appear_in_the_strips() {
    let decor = Decor {
        player_names: [Some("alice <script>".into()), Some("bob".into())],
        clocks: [Some("0:42 · reserve 4:12".into()), Some("1:00 · reserve 5:00".into())],
        ..Decor::default()
    };
    let scene = Scene::from_view(&AnyGame::new(VariantId::Chess).view(Viewer::Spectator), &decor);
    let svg = to_svg(&scene);
    assert!(
        svg.contains("alice &lt;script&gt; (White) · to move"),
        "names are escaped"
    );
    assert!(svg.contains(">bob (Black)</text>"));
    assert!(svg.contains("0:42 · reserve 4:12") && svg.contains("1:00 · reserve 5:00"));
    // The strip of the player to move is green; the other is plain.
    let image = Image::decode(&renderer().png(&scene).unwrap());
    assert_eq!(image.pixel(300, 2), [0x31, 0x2e, 0x2b], "Black's strip on top");
    assert_eq!(
        image.pixel(300, image.height - 40),
        [0x4b, 0x6b, 0x38],
        "White to move, below"
    );
}

#[test]
fn drawing_pieces_from_sprites_matches_drawing_the_whole_svg() {
    for (name, game) in sample_games() {
        let scene = Scene::from_view(&game.view(Viewer::Spectator), &Decor::default());
        let fast = Image::decode(&renderer().png(&scene).unwrap());
        let whole = Image::decode(&renderer().svg_to_png(&to_svg(&scene)).unwrap());
        assert_eq!((fast.width, fast.height), (whole.width, whole.height));
        let differing = (0..fast.height)
            .flat_map(|y| (0..fast.width).map(move |x| (x, y)))
            .filter(|&(x, y)| !is_close(fast.pixel(x, y), whole.pixel(x, y), 24))
            .count();
        let share = differing as f64 / f64::from(fast.width * fast.height);
        assert!(share < 0.002, "{name}: {differing} pixels differ");
    }
}

/// The general marks later games choose from (two boards side by side, square tints, rings,
/// badges, labels, a score line) draw without any game-specific code.
#[test]
fn two_boards_and_the_general_marks_draw_where_they_are_placed() {
    use arbiter::render::{Badge, Marker, Rgba};
    let view = AnyGame::new(VariantId::Chess).view(Viewer::Spectator);
    let decor = Decor {
        lines: vec!["Score: White 2 · Black 1".into()],
        ..Decor::default()
    };
    let mut scene = Scene::from_view(&view, &decor);
    let mut second = scene.boards[0].clone();
    scene.boards[0].caption = Some("Board A".into());
    second.caption = Some("Board B".into());
    let green = Rgba::new(40, 200, 90, 1.0);
    second.tints.push((sq("d4"), green));
    second.markers.push((sq("e4"), Marker::Ring(Rgba::new(0, 0, 255, 1.0))));
    second.badges.push((
        sq("e1"),
        Badge {
            text: "F".into(),
            color: Rgba::new(250, 150, 0, 1.0),
        },
    ));
    second.labels.push((sq("c5"), "base".into()));
    scene.boards.push(second);
    let image = Image::decode(&renderer().png(&scene).unwrap());
    let (a_x, a_y, size) = square_box(&scene, 0, sq("d4")).unwrap();
    let (b_x, b_y, b_size) = square_box(&scene, 1, sq("d4")).unwrap();
    assert_eq!((a_y, size), (b_y, b_size));
    assert!(b_x > a_x + 8.0 * size, "the second board lies right of the first");
    assert!(image.width > image.height, "{}x{}", image.width, image.height);
    // The tint only on the second board's d4.
    assert_eq!(image.pixel(b_x as u32 + 3, b_y as u32 + 3), [40, 200, 90]);
    assert_eq!(image.pixel(a_x as u32 + 3, a_y as u32 + 3), DARK_SQUARE);
    // The ring crosses the middle of e4's left edge; the badge sits in e1's top-right corner.
    let (e4_x, e4_y, _) = square_box(&scene, 1, sq("e4")).unwrap();
    let left_edge = image.pixel(e4_x as u32 + (b_size * 0.06) as u32 + 1, (e4_y + b_size / 2.0) as u32);
    assert!(is_close(left_edge, [0, 0, 255], 40), "{left_edge:?}");
    let e1 = square_box(&scene, 1, sq("e1")).unwrap();
    assert!(image.count(e1, [250, 150, 0]) > 40);
    let svg = to_svg(&scene);
    for text in ["Board A", "Board B", ">base</text>", "Score: White 2 · Black 1"] {
        assert!(svg.contains(text), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// The marks of the games that mark their boards

const NEUTRAL: [u8; 3] = [120, 90, 200];
const HIGHLIGHT: [u8; 3] = [60, 150, 230];
const WHITE_SIDE: [u8; 3] = [255, 255, 255];
const BLACK_SIDE: [u8; 3] = [20, 20, 20];

/// Pixels of `colour` (as drawn at its opacity over the square) around a square's edge: a ring.
fn ring_pixels(image: &Image, scene: &Scene, square: Square, colour: [u8; 3], light: bool) -> usize {
    let base = if light { LIGHT_SQUARE } else { DARK_SQUARE };
    let (x, y, size) = square_box(scene, 0, square).unwrap();
    let mut count = 0;
    for i in 0..size as u32 {
        for (px, py) in [(x as u32 + i, y as u32 + 4), (x as u32 + 4, y as u32 + i)] {
            let pixel = image.pixel(px, py);
            if [0.5, 0.55, 0.45]
                .iter()
                .any(|&a| is_close(pixel, blend(colour, a, base), 12))
            {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn portal_boards_ring_and_number_the_portals_and_tint_the_one_last_gone_through() {
    let game = played(VariantId::Portal, "f3 a6 bxa6 e5 axb7 f6 Kf2 Qh4+ Kf3");
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    let board = &scene.boards[0];
    let mut labelled: Vec<(String, String)> = board.labels.iter().map(|(s, t)| (s.to_string(), t.clone())).collect();
    labelled.sort();
    assert_eq!(
        labelled,
        [("b4", "2"), ("b5", "1"), ("f3", "1"), ("f6", "2")].map(|(a, b)| (a.to_string(), b.to_string()))
    );
    // f6 is empty: its ring shows around the edge.
    assert!(
        ring_pixels(&image, &scene, sq("f6"), NEUTRAL, false) > 20,
        "f6 is ringed"
    );
    // The king went e... f2-f3 entered the f3 portal: f3 is tinted, b5 (where it came to rest)
    // is the last move's end.
    let f3 = lower_corner(&image, &scene, sq("f3"));
    assert!(is_close(f3, blend(HIGHLIGHT, 0.55, LIGHT_SQUARE), 6), "{f3:?}");
    assert!(
        scene.key.iter().any(|k| k.meaning.starts_with("Ringed: a portal")),
        "{:?}",
        scene.key
    );
}

#[test]
fn domination_squares_are_tinted_by_owner_with_the_score_and_turn_under_the_board() {
    let game = played(VariantId::Domination, "e3 d5 e4 dxe4 Nc3 Nf6");
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    // Black owns d5 (light square) and e4 (light square); d4 and e5 are nobody's, ringed.
    for square in ["d5", "e4"] {
        let pixel = lower_corner(&image, &scene, sq(square));
        assert!(
            is_close(pixel, blend(BLACK_SIDE, 0.35, LIGHT_SQUARE), 6),
            "{square}: {pixel:?}"
        );
    }
    assert!(
        ring_pixels(&image, &scene, sq("d4"), NEUTRAL, false) > 20,
        "d4 is ringed"
    );
    assert!(
        scene
            .lines
            .contains(&"Score: White 0 · Black 5 · turn 3/30".to_string()),
        "{:?}",
        scene.lines
    );
    let white_owned = played(VariantId::Domination, "e3 a6 e4 a5");
    let (scene, image) = draw(&white_owned, Viewer::Spectator, &Decor::default());
    let e4 = lower_corner(&image, &scene, sq("e4"));
    assert!(is_close(e4, blend(WHITE_SIDE, 0.6, LIGHT_SQUARE), 6), "{e4:?}");
    let labels: Vec<(String, String)> = scene.boards[0]
        .labels
        .iter()
        .map(|(s, t)| (s.to_string(), t.clone()))
        .collect();
    assert_eq!(
        labels,
        [("e4".to_string(), "W".to_string())],
        "the owner's initial is on the square"
    );
}

#[test]
fn knights_are_god_rings_the_units_that_may_move_as_knights_on_the_movers_own_image() {
    let game = AnyGame::new(VariantId::KnightsAreGod);
    let (own, _) = draw(&game, Viewer::Seat(Seat::First), &Decor::default());
    let mut ringed: Vec<String> = own.boards[0].markers.iter().map(|(s, _)| s.to_string()).collect();
    ringed.sort();
    assert_eq!(ringed, ["d2", "e2"]);
    let (spectator, _) = draw(&game, Viewer::Spectator, &Decor::default());
    assert!(spectator.boards[0].markers.is_empty());
    assert!(
        own.key.iter().any(|k| k.meaning.contains("may also move as a knight")),
        "{:?}",
        own.key
    );
}

#[test]
fn circe_rings_where_the_last_captured_unit_was_reborn() {
    let game = played(VariantId::Circe, "e4 d5 exd5(a4)");
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    assert_eq!(
        scene.boards[0]
            .markers
            .iter()
            .map(|(s, _)| s.to_string())
            .collect::<Vec<_>>(),
        ["a4"]
    );
    assert!(
        ring_pixels(&image, &scene, sq("a4"), HIGHLIGHT, true) > 20,
        "a4 is ringed"
    );
}

/// The piece diagrams in docs/images/pieces/ (the rules pages show them) are what the renderer
/// draws of every catalogue piece.
#[test]
fn the_piece_diagrams_in_the_docs_are_current() {
    let diagrams = piece_diagrams();
    assert_eq!(diagrams.len(), arbiter_engine::catalogue::all().len());
    assert_committed(&diagrams);
}

#[test]
fn a_piece_diagram_shows_its_moves_and_captures_in_their_colours() {
    let lion = arbiter_engine::catalogue::find("ptt-murray-lion").unwrap();
    let diagram = arbiter_engine::diagram::piece_diagram(&lion).unwrap();
    let image = arbiter::render::BoardImage {
        view: diagram.view.clone(),
        decor: Decor {
            without_players: true,
            ..Decor::default()
        },
    };
    let pixels = Image::decode(&renderer().image(&image).unwrap());
    let scene = image.scene();
    let middle = |square: Square| {
        let (x, y, size) = square_box(&scene, 0, square).unwrap();
        (x + size * 0.3, y + size * 0.3, size * 0.4)
    };
    let rim = |square: Square| {
        let (x, y, size) = square_box(&scene, 0, square).unwrap();
        (x + 2.0, y + size * 0.4, size * 0.08)
    };
    // A leap two squares away (c3) carries the move dot; an adjacent square (d4) the capture
    // ring at its rim and no dot; a square out of reach (a1) neither.
    let (c3, d4, a1) = (Square::new(2, 2), Square::new(3, 3), Square::new(0, 0));
    // The marks are translucent: what shows is their hue over the square's colour.
    let blue = |[r, g, b]: [u8; 3]| i32::from(b) > i32::from(r) + 40 && i32::from(b) > i32::from(g);
    let red = |[r, g, b]: [u8; 3]| i32::from(r) > i32::from(g) + 60 && i32::from(r) > i32::from(b) + 60;
    let near = |area, hue: &dyn Fn([u8; 3]) -> bool| {
        let (x, y, size): (f32, f32, f32) = area;
        let mut found = 0;
        for py in y as u32..(y + size) as u32 {
            for px in x as u32..(x + size) as u32 {
                if hue(pixels.pixel(px, py)) {
                    found += 1;
                }
            }
        }
        found
    };
    assert!(near(middle(c3), &blue) > 20, "a move dot on c3");
    assert_eq!(near(middle(d4), &blue), 0, "no dot on d4");
    assert!(near(rim(d4), &red) > 3, "a capture ring on d4");
    assert_eq!(near(middle(a1), &blue) + near(rim(a1), &red), 0, "nothing on a1");
    // No players' strips: the board starts at the top.
    let (_, top, _) = square_box(&scene, 0, Square::new(0, 8)).unwrap();
    assert!(top < 12.0, "{top}");
}

#[test]
fn the_pool_is_drawn_under_the_board_while_pieces_are_picked() {
    let draw = |game: &AnyGame| {
        let view = game.view(Viewer::Spectator);
        let scene = Scene::from_view(&view, &Decor::default());
        let image = arbiter::render::BoardImage {
            view,
            decor: Decor::default(),
        };
        (scene, Image::decode(&renderer().image(&image).unwrap()))
    };
    let mut game = AnyGame::new(VariantId::PickTheTeam);
    let (scene, start) = draw(&game);
    assert_eq!(scene.pool.len(), 40);
    // The first pool piece is the King (drawn art, White's body colour); each box is below the
    // board.
    let first = pool_box(&scene, 0).unwrap();
    let (_, board_bottom, side) = square_box(&scene, 0, Square::new(0, 0)).unwrap();
    assert!(first.1 > board_bottom + side);
    assert!(start.count(first, WHITE_BODY) > 20, "the King in the pool");
    let last = pool_box(&scene, 39).unwrap();
    assert!(start.count(last, WHITE_BODY) > 20, "the fF-fish pawn in the pool");
    assert!(pool_box(&scene, 40).is_none());
    play(&mut game, "K@e1");
    let (scene, after) = draw(&game);
    assert_eq!(scene.pool.len(), 39);
    // The King left the pool: the Royal knight's token is first now, and the King is on e1.
    assert!(after.count(square_box(&scene, 0, Square::new(4, 0)).unwrap(), WHITE_BODY) > 20);
    // Ten to a row, in cells big enough for a token's letters to stand 12 px tall.
    let (tenth, eleventh) = (pool_box(&scene, 9).unwrap(), pool_box(&scene, 10).unwrap());
    assert!(
        eleventh.0 < tenth.0 && eleventh.1 > tenth.1,
        "the 11th piece starts a row"
    );
    assert!(tenth.2 >= 44.0, "{} px a cell", tenth.2);
    assert_eq!(after.height, start.height, "39 pieces take 4 rows, as 40 do");
}

#[test]
fn a_sheet_of_piece_diagrams_wraps_into_rows_with_each_pieces_moves_on_its_own_board() {
    use arbiter_engine::{catalogue, diagram};
    let ids = [
        "knight",
        "ptt-wazir",
        "ptt-ferz",
        "ptt-alfil",
        "ptt-dabbabah",
        "ptt-camel",
    ];
    let pieces: Vec<_> = ids
        .iter()
        .map(|id| (catalogue::find(id).unwrap(), format!("{id} · 8")))
        .collect();
    let view = diagram::sheet(&pieces).unwrap();
    let decor = Decor {
        without_players: true,
        ..Decor::default()
    };
    let scene = Scene::from_view(&view, &decor);
    let image = Image::decode(&renderer().png(&scene).unwrap());
    // Four boards a row: the fifth starts the second row, under the first.
    let first = square_box(&scene, 0, sq("a9")).unwrap();
    let fifth = square_box(&scene, 4, sq("a9")).unwrap();
    let fourth = square_box(&scene, 3, sq("a9")).unwrap();
    assert_eq!(fifth.0, first.0, "the second row starts at the left edge");
    assert!(fifth.1 > first.1 + 9.0 * first.2, "below the first row's boards");
    assert!(fourth.0 > first.0 + 3.0 * 9.0 * first.2, "four side by side");
    assert!(
        image.width < (fourth.0 + 9.0 * first.2 + 60.0) as u32,
        "no fifth column"
    );
    let plain = |board: usize, name: &str| {
        let (x, y, size) = square_box(&scene, board, sq(name)).unwrap();
        let centre = image.pixel((x + size / 2.0) as u32, (y + size / 2.0) as u32);
        centre == LIGHT_SQUARE || centre == DARK_SQUARE
    };
    // Each board marks its own piece's squares: the dabbabah's e7, the camel's f8, the wazir's
    // e6; and not the others'.
    assert!(!plain(4, "e7") && plain(4, "f8") && plain(4, "e6"));
    assert!(!plain(5, "f8") && plain(5, "e7") && plain(5, "e6"));
    assert!(!plain(1, "e6") && plain(1, "f6") && plain(1, "e7"));
    assert!(!plain(0, "f7") && plain(0, "e6"));
}

/// A standings table: a dark header row, every other row shaded, as wide as its longest cells,
/// one row taller for each player.
#[test]
fn a_standings_table_has_a_dark_header_and_shaded_alternate_rows() {
    let table = |players: usize| arbiter::render::Table {
        title: "Club night · after round 2".into(),
        header: ["#", "Player", "Score", "Buchholz", "S-B", "R1", "R2"]
            .map(String::from)
            .to_vec(),
        rows: (1..=players)
            .map(|n| {
                vec![
                    n.to_string(),
                    format!("player{n}"),
                    "1½".into(),
                    "2".into(),
                    "1¼".into(),
                    "1 W2".into(),
                    "½ B3".into(),
                ]
            })
            .collect(),
        name_column: Some(1),
        legend: "Each round: points, colour and the opponent's place".into(),
    };
    let small = Image::decode(&renderer().table(&table(3)).unwrap());
    let large = Image::decode(&renderer().table(&table(7)).unwrap());
    assert_eq!(small.width, large.width, "the same columns");
    assert_eq!(large.height - small.height, 4 * 30, "a row of 30 pixels per player");
    let hex = |text: &str| {
        let v = u32::from_str_radix(text.trim_start_matches('#'), 16).unwrap();
        [(v >> 16) as u8, (v >> 8) as u8, v as u8]
    };
    // Rows start under the title (42 px); sample the left edge of each, clear of the text.
    let row_colour = |image: &Image, row: u32| image.pixel(2, 42 + 30 * row + 3);
    assert!(is_close(row_colour(&large, 0), hex("#2f3e4e"), 6), "the header");
    assert!(is_close(row_colour(&large, 1), hex("#ffffff"), 6), "player 1");
    assert!(is_close(row_colour(&large, 2), hex("#e8edf2"), 6), "player 2, shaded");
    assert!(is_close(row_colour(&large, 3), hex("#ffffff"), 6), "player 3");
    // Text is drawn: the header holds light pixels of its letters, a row dark ones.
    let dark_in_row = (0..large.width)
        .filter(|&x| large.pixel(x, 42 + 30 + 15)[0] < 100)
        .count();
    assert!(dark_in_row > 20, "{dark_in_row}");
}
