//! The pixels of every kind of image, held to a record: each image's decoded pixels are hashed
//! and compared with tests/golden/pixels.txt. Drawing may be made faster, encoding smaller, but
//! a pixel that changes shows here. A deliberate change to the drawing is accepted with
//! `UPDATE_PIXELS=1 cargo test --test model pixels_are_as_recorded` (and looked at first).

use super::render_images::{Image, renderer, sample_games};
use arbiter::render::{Animation, Decor, Renderer, Scene};
use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use std::fmt::Write;

/// FNV-1a over the bytes: any change of any pixel changes it.
fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The decors an image is drawn with: names and clocks, none at all, and a phone's.
fn decors() -> Vec<(&'static str, Decor)> {
    vec![
        (
            "named",
            Decor {
                player_names: [Some("alice".into()), Some("bob".into())],
                clocks: [Some("0:42 · reserve 4:12".into()), Some("1:00 · reserve 5:00".into())],
                lines: vec!["Score: White 2 · Black 1".into()],
                ..Decor::default()
            },
        ),
        (
            "bare",
            Decor {
                without_players: true,
                ..Decor::default()
            },
        ),
        (
            "phone",
            Decor {
                wide: true,
                bottom: Some(Seat::Second),
                ..Decor::default()
            },
        ),
    ]
}

/// Each frame of a GIF as the viewer sees it: every frame laid over the ones before.
fn gif_frames(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let mut canvas = vec![0u8; width * height * 4];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        for (row, line) in frame.buffer.chunks_exact(usize::from(frame.width) * 4).enumerate() {
            for (column, pixel) in line.chunks_exact(4).enumerate() {
                if pixel[3] != 0 {
                    let at = ((top + row) * width + left + column) * 4;
                    canvas[at..at + 4].copy_from_slice(pixel);
                }
            }
        }
        frames.push(canvas.clone());
    }
    frames
}

/// One line per image: what it is, its size and its pixels' digest.
fn records(renderer: &Renderer) -> String {
    let mut out = String::new();
    for (name, game) in sample_games() {
        for (decor_name, decor) in decors() {
            for (viewer_name, viewer) in [
                ("spectator", Viewer::Spectator),
                ("first", Viewer::Seat(Seat::First)),
                ("second", Viewer::Seat(Seat::Second)),
            ] {
                let scene = Scene::from_view(&game.view(viewer), &decor);
                let image = Image::decode(&renderer.png(&scene).unwrap());
                let _ = writeln!(
                    out,
                    "{name} {decor_name} {viewer_name} {}x{} {:016x}",
                    image.width,
                    image.height,
                    digest(&image.rgb)
                );
            }
        }
    }
    for (name, variant, moves) in REPLAYS {
        let gif = renderer.gif(&replay_of(variant, moves), usize::MAX).unwrap();
        for (index, frame) in gif_frames(&gif.bytes).iter().enumerate() {
            let _ = writeln!(out, "{name} replay frame {index} {:016x}", digest(frame));
        }
    }
    out
}

/// The games replayed: moves and captures, set-ups, statues, bases and flags, owned squares.
const REPLAYS: [(&str, VariantId, &str); 5] = [
    (
        "chess",
        VariantId::Chess,
        "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4 Nxd4 c5 Nb3 Qxd1 Rxd1",
    ),
    (
        "garden",
        VariantId::Garden,
        "R@f8 Q@h8 R@g8 B@f6 Q@a1 R@h7 B@g7 R@a3 B@a4 B@h6 Qa1-c1@e3 Bh6-f4@g5",
    ),
    ("ctf", VariantId::Ctf, "base:f3 base:e5 Nf3 a6 Ne5 a5 Nc4 b6 drop"),
    ("domination", VariantId::Domination, "e3 d5 e4 dxe4 Nc3 Nf6"),
    (
        "pick-the-team",
        VariantId::PickTheTeam,
        "K@e1 RN@f10 CN@a10 Q@b1 PA@a1 W@b10 ML@c10",
    ),
];

/// The replay of a game from its start through `moves`.
fn replay_of(variant: VariantId, moves: &str) -> Animation {
    let start = AnyGame::new(variant);
    let mut game = start.clone();
    let mut actions = Vec::new();
    for text in moves.split_whitespace() {
        let seat = game.to_act()[0];
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap();
        actions.push((seat, action));
    }
    arbiter::arena::animation(&start, &actions, &game, [Some("alice".into()), Some("bob".into())]).unwrap()
}

#[test]
fn pixels_are_as_recorded() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/pixels.txt");
    let now = records(renderer());
    if std::env::var_os("UPDATE_PIXELS").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    let changed: Vec<String> = recorded
        .lines()
        .zip(now.lines())
        .filter(|(was, is)| was != is)
        .map(|(was, is)| format!("was {was}\n is {is}"))
        .collect();
    assert!(
        changed.is_empty() && recorded.lines().count() == now.lines().count(),
        "{} of {} images drew other pixels than recorded:\n{}",
        changed.len(),
        now.lines().count(),
        changed.join("\n")
    );
}
