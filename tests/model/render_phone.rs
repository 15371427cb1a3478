//! Board images as a phone shows them (Discord draws an image about 400 px wide there): square
//! sizes, token lettering measured from the rendered glyphs, and the marks a newcomer must be
//! able to read, each checked in the decoded PNG's pixels.

use super::render_images::{
    DARK_SQUARE, Image, LIGHT_SQUARE, WHITE_BODY, blend, corner, draw, is_close, play, played, renderer, sq,
};
use arbiter::render::{
    Art, Decor, FRAME, Occupant, Picture, Sample, Scene, TokenShape, key_box, palette, pool_box, square_box, token_disc,
};
use arbiter_engine::lists::ListKind;
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};

/// How wide Discord shows an image on a phone.
const PHONE_WIDTH: f32 = 400.0;

fn hex(color: &str) -> [u8; 3] {
    let value = u32::from_str_radix(color.trim_start_matches('#'), 16).unwrap();
    let [_, r, g, b] = value.to_be_bytes();
    [r, g, b]
}

fn luminance([r, g, b]: [u8; 3]) -> f32 {
    0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b)
}

/// How many rows of pixels the letters of the token drawn in `bounds` span: the dark pixels
/// inside its disc (a White token: dark letters on a light body), away from the outline.
fn letter_height(image: &Image, (x, y, size): (f32, f32, f32), shape: TokenShape) -> u32 {
    let (center_y, radius) = token_disc(shape);
    let scale = size / 100.0;
    let (cx, cy) = (x + 50.0 * scale, y + center_y * scale);
    let inner = (radius - 6.0) * scale;
    let mut rows = Vec::new();
    for py in (cy - inner).floor() as u32..=(cy + inner).ceil() as u32 {
        for px in (cx - inner).floor() as u32..=(cx + inner).ceil() as u32 {
            let (dx, dy) = (px as f32 + 0.5 - cx, py as f32 + 0.5 - cy);
            if dx * dx + dy * dy <= inner * inner && luminance(image.pixel(px, py)) < 110.0 {
                rows.push(py);
                break;
            }
        }
    }
    match (rows.iter().min(), rows.iter().max()) {
        (Some(top), Some(bottom)) => bottom - top + 1,
        _ => 0,
    }
}

/// A pixel just inside a square's bottom-right corner, where a frame runs and no piece reaches.
fn far_corner(image: &Image, scene: &Scene, square: arbiter_engine::geometry::Square) -> [u8; 3] {
    let (x, y, side) = square_box(scene, 0, square).unwrap();
    image.pixel((x + side) as u32 - 4, (y + side) as u32 - 4)
}

fn token_shape(picture: &Picture) -> Option<TokenShape> {
    match picture {
        Picture::Token { shape, .. } => Some(*shape),
        Picture::Art(_) => None,
    }
}

/// An Easy Patch or Patch game whose lists are both the ready-made one, in the picking.
fn listed(variant: VariantId, kind: ListKind) -> AnyGame {
    let list = OwnPiecesGame::list_notation(&OwnPiecesGame::ready_made(kind));
    let mut game = AnyGame::new(variant);
    for seat in Seat::BOTH {
        let action = game.parse_action(seat, &list).unwrap();
        game.apply(seat, &action).unwrap();
    }
    game
}

/// Assault's boards stand side by side, in an image wider than tall (stacked, it was 480x1060,
/// which a phone shows small or cut): its squares stand 20 px on a phone.
#[test]
fn assaults_boards_stand_side_by_side_with_squares_of_20_px_at_a_phones_width() {
    let game = played(VariantId::Assault, "e4 d4 d5 d5 exd5 Nf3");
    let (scene, image) = draw(&game, Viewer::Seat(Seat::First), &Decor::default());
    let (x1, y1, side) = square_box(&scene, 0, sq("a1")).unwrap();
    let (x2, y2, _) = square_box(&scene, 1, sq("h1")).unwrap();
    let on_phone = side * PHONE_WIDTH / image.width as f32;
    assert!(on_phone >= 20.0, "{on_phone:.1} px a square on a phone");
    assert!(image.height < image.width, "{}x{}", image.width, image.height);
    // Side by side, both the viewer's side down: A plays White on board 1 (a1 at the bottom
    // left) and Black on board 2 (h1 at the top left).
    assert_eq!(y1, y2 + 7.0 * side, "the boards stand at the same height");
    assert!(x2 > x1 + 8.0 * side, "board 2 is right of board 1");
    assert!(image.count(square_box(&scene, 1, sq("h1")).unwrap(), WHITE_BODY) > 200);
    // Each player's strip shows a swatch of their colour on each board, in board order: B (on
    // top) plays Black on board 1 and White on board 2; A (at the bottom) the other way round.
    let (black, white) = ([20, 20, 20], [255, 255, 255]);
    let swatches = |rows: std::ops::Range<u32>| -> Vec<[u8; 3]> {
        rows.map(|y| {
            let mut seen: Vec<[u8; 3]> = Vec::new();
            for x in 0..image.width / 4 {
                let px = image.pixel(x, y);
                if (px == black || px == white) && seen.last() != Some(&px) {
                    seen.push(px);
                }
            }
            seen
        })
        .find(|seen| seen.len() == 2)
        .unwrap_or_default()
    };
    assert_eq!(swatches(0..y2 as u32), [black, white], "B's swatches");
    assert_eq!(
        swatches((y1 + side) as u32..image.height),
        [white, black],
        "A's swatches"
    );
}

#[test]
fn no_tokens_letters_stand_under_12_px_on_10x10_or_8x8() {
    let mut measured = Vec::new();
    // Pick-the-team's whole pool of 40 (10x10), and a picked token on a 10x10 square.
    let pick_the_team = played(VariantId::PickTheTeam, "K@e1 RN@f10 CN@a10 Q@b1 PA@a1");
    for (name, game) in [
        ("pick-the-team", &pick_the_team),
        ("patch", &listed(VariantId::Patch, ListKind::Patch)),
        ("easy patch", &listed(VariantId::EasyPatch, ListKind::EasyPatch)),
    ] {
        let (scene, image) = draw(game, Viewer::Spectator, &Decor::default());
        for (index, picture) in scene.pool.iter().enumerate() {
            if let Some(shape) = token_shape(picture) {
                let height = letter_height(&image, pool_box(&scene, index).unwrap(), shape);
                measured.push((format!("{name}: pool {picture:?}"), height));
            }
        }
    }
    let (scene, image) = draw(&pick_the_team, Viewer::Spectator, &Decor::default());
    let Some(Occupant::Piece { picture, .. }) = scene.boards[0].occupant(sq("a1")) else {
        panic!("the pao stands on a1");
    };
    let shape = token_shape(picture).expect("the pao is a token");
    measured.push((
        "pao on a 10x10 square".into(),
        letter_height(&image, square_box(&scene, 0, sq("a1")).unwrap(), shape),
    ));
    assert!(measured.len() > 40, "{} tokens measured", measured.len());
    let smallest = measured.iter().min_by_key(|(_, h)| *h).unwrap();
    assert!(smallest.1 >= 12, "{} has letters {} px tall", smallest.0, smallest.1);
}

#[test]
fn the_last_placement_is_tinted_like_a_last_move() {
    let tinted = |color: [u8; 3]| blend([246, 214, 70], 0.55, color);
    // Blockade's set-up: Black's rook placed on f8 (a dark square).
    let blockade = played(VariantId::Blockade, "R@f8");
    let (scene, image) = draw(&blockade, Viewer::Spectator, &Decor::default());
    let f8 = corner(&image, &scene, sq("f8"));
    assert!(is_close(f8, tinted(DARK_SQUARE), 3), "{f8:?}");
    assert_eq!(corner(&image, &scene, sq("g8")), LIGHT_SQUARE);
    // Pick-the-team: the King picked onto e1 (dark); the next pick moves the mark.
    let mut picks = played(VariantId::PickTheTeam, "K@e1");
    let (scene, image) = draw(&picks, Viewer::Spectator, &Decor::default());
    assert!(is_close(corner(&image, &scene, sq("e1")), tinted(DARK_SQUARE), 3));
    play(&mut picks, "RN@f10");
    let (scene, image) = draw(&picks, Viewer::Spectator, &Decor::default());
    assert_eq!(corner(&image, &scene, sq("e1")), DARK_SQUARE);
    assert!(is_close(corner(&image, &scene, sq("f10")), tinted(DARK_SQUARE), 3));
}

#[test]
fn a_detonation_rings_the_nine_squares_it_cleared_until_the_next_move() {
    let mut game = played(VariantId::Beirut, "bomb:g1 bomb:e7 Nf3 d5 Ne5 f6 detonate");
    let red = hex(&palette::BOMB.hex());
    let reds = |game: &AnyGame| -> Vec<(String, usize)> {
        let (scene, image) = draw(game, Viewer::Spectator, &Decor::default());
        [
            "d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6", "c5", "g5", "e3", "e7",
        ]
        .iter()
        .map(|name| {
            (
                name.to_string(),
                image.count(square_box(&scene, 0, sq(name)).unwrap(), red),
            )
        })
        .collect()
    };
    for (square, count) in reds(&game) {
        let in_blast = !["c5", "g5", "e3", "e7"].contains(&square.as_str());
        assert_eq!(count > 50, in_blast, "{square}: {count} red pixels");
    }
    // The news names what the blast took.
    let said = game
        .view(Viewer::Spectator)
        .record
        .last()
        .unwrap()
        .said
        .clone()
        .unwrap();
    assert_eq!(
        said,
        "detonated the bomb carried by White's knight on e5, destroying the carrier, Black's pawn on d5 and \
         Black's pawn on f6"
    );
    play(&mut game, "e6");
    assert!(reds(&game).iter().all(|(_, count)| *count == 0));
}

#[test]
fn a_near_white_tint_is_framed_so_it_shows_on_a_light_square() {
    // White's statue on c2, a light square: the tint alone would be white on cream.
    let setup = "R@f8 Q@h8 R@g8 B@f6 Q@a1 R@h7 B@g7 R@a3 B@a4 B@h6";
    let game = played(VariantId::Blockade, &format!("{setup} Qa1-c1@c2"));
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    assert!(is_close(far_corner(&image, &scene, sq("c2")), hex(FRAME), 12), "framed");
    // Black's statue tint is dark enough alone: no frame.
    let mut black_turn = game.clone();
    play(&mut black_turn, "Bh6-f4@g5");
    let (scene, image) = draw(&black_turn, Viewer::Spectator, &Decor::default());
    assert!(!is_close(far_corner(&image, &scene, sq("g5")), hex(FRAME), 12));
    // A domination square White owns, on a light square, is framed too.
    let domination = played(VariantId::Domination, "e3 d5 e4 dxe4 Nc3 Nf6 Nxe4");
    let (scene, image) = draw(&domination, Viewer::Spectator, &Decor::default());
    assert!(is_close(far_corner(&image, &scene, sq("e4")), hex(FRAME), 12));
    assert!(
        !is_close(far_corner(&image, &scene, sq("d5")), hex(FRAME), 12),
        "Black's d5 needs none"
    );
}

#[test]
fn the_key_draws_a_sample_of_each_mark_beside_its_meaning() {
    let game = played(VariantId::Ctf, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 drop");
    let (scene, image) = draw(&game, Viewer::Spectator, &Decor::default());
    let meanings: Vec<&str> = scene.key.iter().map(|entry| entry.meaning.as_str()).collect();
    assert_eq!(
        meanings,
        ["White's base", "White's flag", "Black's base", "Black's flag"]
    );
    // A light ring is drawn over a dark edge, so it shows on light squares too.
    let white_ring = blend([255, 255, 255], 0.8, [0x1e, 0x1e, 0x1e]);
    let black_ring = blend([20, 20, 20], 0.7, LIGHT_SQUARE);
    let flag_white = hex(&palette::WHITE_SIDE.hex());
    let sample = |index: usize, color: [u8; 3]| image.count(key_box(&scene, index).unwrap(), color);
    assert!(matches!(scene.key[0].sample, Sample::Marker(_)));
    assert!(sample(0, white_ring) > 15, "a white ring beside White's base");
    assert!(sample(2, black_ring) > 15, "a black ring beside Black's base");
    assert_eq!(sample(2, white_ring), 0, "and no white one");
    assert!(sample(1, flag_white) > 40, "a white badge beside White's flag");
    assert!(sample(3, [20, 20, 20]) > 40, "a black badge beside Black's flag");
    // The key stands below the board, not on it.
    let (_, below, side) = square_box(&scene, 0, sq("a1")).unwrap();
    assert!(key_box(&scene, 0).unwrap().1 > below + side);
}

#[test]
fn square_labels_stand_clear_of_the_pieces_on_them() {
    // Domination: White's knight on e4, a square White owns (labelled W); Portal: numbers on
    // portals with pieces on them.
    let cases = [
        (played(VariantId::Domination, "e3 d5 e4 dxe4 Nc3 Nf6 Nxe4"), "e4"),
        (played(VariantId::Portal, "Nc3 a6 Nb5"), "b5"),
    ];
    for (game, square) in cases {
        let view = game.view(Viewer::Spectator);
        let full = Scene::from_view(&view, &Decor::default());
        let without_labels = Scene {
            boards: vec![arbiter::render::BoardScene {
                labels: Vec::new(),
                ..full.boards[0].clone()
            }],
            ..full.clone()
        };
        let without_piece = Scene {
            boards: vec![arbiter::render::BoardScene {
                occupants: full.boards[0]
                    .occupants
                    .iter()
                    .enumerate()
                    .map(|(index, cell)| {
                        let at = arbiter_engine::geometry::Square::new((index % 8) as u8, (index / 8) as u8);
                        if at == sq(square) { None } else { cell.clone() }
                    })
                    .collect(),
                ..without_labels.boards[0].clone()
            }],
            ..without_labels.clone()
        };
        let pixels = |scene: &Scene| Image::decode(&renderer().png(scene).unwrap());
        let (with, bare, empty) = (pixels(&full), pixels(&without_labels), pixels(&without_piece));
        let (x, y, side) = square_box(&full, 0, sq(square)).unwrap();
        let (mut label, mut overlap) = (0, 0);
        for py in y as u32..(y + side) as u32 {
            for px in x as u32..(x + side) as u32 {
                let is_label = with.pixel(px, py) != bare.pixel(px, py);
                let is_piece = bare.pixel(px, py) != empty.pixel(px, py);
                label += usize::from(is_label);
                overlap += usize::from(is_label && is_piece);
            }
        }
        assert!(label > 20, "{square}: the label is drawn ({label} px)");
        assert!(
            overlap * 10 < label,
            "{square}: {overlap} of the label's {label} pixels lie on the piece"
        );
    }
}

#[test]
fn a_catalogue_queen_is_drawn_alike_in_every_game() {
    let queen_of = |game: &AnyGame, square: &str| -> (Picture, Vec<[u8; 3]>) {
        let (scene, image) = draw(game, Viewer::Spectator, &Decor::default());
        let Some(Occupant::Piece { picture, .. }) = scene.boards[0].occupant(sq(square)) else {
            panic!("a queen on {square}");
        };
        let (x, y, side) = square_box(&scene, 0, sq(square)).unwrap();
        let pixels = (0..side as u32)
            .flat_map(|dy| (0..side as u32).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| image.pixel(x as u32 + dx, y as u32 + dy))
            .collect();
        (picture.clone(), pixels)
    };
    let chess = queen_of(&AnyGame::new(VariantId::Chess), "d1");
    let pick_the_team = queen_of(&played(VariantId::PickTheTeam, "K@e1 RN@f10 CN@a10 Q@d1"), "d1");
    let mut patch = listed(VariantId::Patch, ListKind::Patch);
    // (Another pick follows, so d1 is not tinted as the last placement.)
    play(&mut patch, "K@e1 K@e8 R@a8 Q@d1 R@a1");
    let mut easy_patch = listed(VariantId::EasyPatch, ListKind::EasyPatch);
    play(&mut easy_patch, "Q@d1 Q@d8");
    let (patch, easy_patch) = (queen_of(&patch, "d1"), queen_of(&easy_patch, "d1"));
    for (name, queen) in [
        ("pick-the-team", &pick_the_team),
        ("patch", &patch),
        ("easy patch", &easy_patch),
    ] {
        assert_eq!(queen.0, Picture::Art(Art::Queen), "{name}");
    }
    // On 8x8 boards, the pixels of FIDE chess's queen on the same square (each image keeps its
    // own palette, so an anti-aliased edge may differ by a shade).
    let alike = |a: &[[u8; 3]], b: &[[u8; 3]]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| is_close(*x, *y, 3));
    assert!(alike(&patch.1, &chess.1), "Patch's queen is drawn as chess's");
    assert!(alike(&easy_patch.1, &chess.1), "Easy Patch's queen is drawn as chess's");
}
