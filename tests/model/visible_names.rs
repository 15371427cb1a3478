//! Names in board images hold only what a reader can see: a name written with direction
//! overrides, isolates, zero-width spaces and escape codes draws the very pixels of the same name
//! without them, and a long name is cut to fit its strip.

use crate::render_images::{Image, renderer};
use arbiter::render::{Decor, Scene, to_svg};
use arbiter::visible_text;
use arbiter_engine::{AnyGame, Game, VariantId, Viewer};

/// The PNG of a new chess game's board with these players' names.
fn board_with_names(white: &str, black: &str) -> Image {
    let decor = Decor {
        player_names: [Some(white.into()), Some(black.into())],
        ..Decor::default()
    };
    let scene = Scene::from_view(&AnyGame::new(VariantId::Chess).view(Viewer::Spectator), &decor);
    Image::decode(&renderer().png(&scene).unwrap())
}

fn same_pixels(a: &Image, b: &Image) -> bool {
    (a.width, a.height) == (b.width, b.height)
        && (0..a.height).all(|y| (0..a.width).all(|x| a.pixel(x, y) == b.pixel(x, y)))
}

#[test]
fn a_name_with_invisible_characters_draws_the_pixels_of_the_name_without_them() {
    // Reversed by the override, it would read "alice" in red on a terminal that took the code.
    let hidden = "\u{202E}ecila\u{2066}\u{200B} \u{1B}[31mx\u{202C}";
    let cleaned = visible_text::name(hidden).unwrap();
    assert_eq!(cleaned, "ecila [31mx");
    let drawn = board_with_names(hidden, "bob\u{200B}\u{FEFF}");
    assert!(
        same_pixels(&drawn, &board_with_names(&cleaned, "bob")),
        "the image of the hidden names differs from the image of the names as shown"
    );
    // The strip draws the name at all: another name gives other pixels.
    assert!(!same_pixels(&drawn, &board_with_names("ecilb [31mx", "bob")));
}

#[test]
fn a_long_name_is_cut_to_its_strip_with_an_ellipsis() {
    let long = "Bartholomew Featherstonehaugh-Cholmondeley";
    let decor = Decor {
        player_names: [Some(long.into()), Some("\u{200B}\u{202E}".into())],
        ..Decor::default()
    };
    let scene = Scene::from_view(&AnyGame::new(VariantId::Chess).view(Viewer::Spectator), &decor);
    let svg = to_svg(&scene);
    assert!(svg.contains("Bartholomew Featherston… (White)"), "{svg}");
    assert!(!svg.contains(long));
    // A name with nothing visible is no name: the strip names the side alone.
    assert!(svg.contains(">Black</text>"), "{svg}");
}
