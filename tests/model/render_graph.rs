//! An analysed game's evaluation graph, checked by its pixels: who was ahead is the colour under
//! and over the line, the turning points are dots of their judgement's colour, and the stages
//! before play are bands.

use super::render_images::{Image, renderer};
use arbiter::render::{EvalGraph, GraphMark, judgement_color};
use arbiter_engine::ai::analysis::Judgement;
use arbiter_engine::view::SideStyle;

const WHITE_AREA: [u8; 3] = [0xe8, 0xe6, 0xe1];
const BLACK_AREA: [u8; 3] = [0x3a, 0x38, 0x35];

fn rgb(hex: &str) -> [u8; 3] {
    let value = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("a colour");
    [(value >> 16) as u8, (value >> 8) as u8, value as u8]
}

fn graph(chances: Vec<f64>, marks: Vec<GraphMark>, stages: Vec<(usize, String)>) -> EvalGraph {
    EvalGraph {
        title: "Game #7 · Chess".into(),
        sides: [("White".into(), SideStyle::White), ("Black".into(), SideStyle::Black)],
        chances,
        stages,
        marks,
        ticks: vec![(0, "1".into()), (10, "6".into())],
        footer: "100,000 positions a move".into(),
    }
}

#[test]
fn the_side_ahead_owns_the_area_on_its_side_of_the_line() {
    // White ahead (80%) for the first half, then Black (20%).
    let chances: Vec<f64> = (0..=20).map(|i| if i <= 10 { 0.8 } else { 0.2 }).collect();
    let drawn = graph(chances, Vec::new(), Vec::new());
    let image = Image::decode(&renderer().graph(&drawn).expect("drawn"));
    assert_eq!((image.width, image.height), (900, 500));
    let (x_early, x_late) = (drawn.x(4) as u32, drawn.x(16) as u32);
    let between = |chance: f64| EvalGraph::y(chance) as u32;
    // Early: under 80% is White's; late, only under 20%.
    assert_eq!(image.pixel(x_early, between(0.6)), WHITE_AREA);
    assert_eq!(image.pixel(x_early, between(0.9)), BLACK_AREA);
    assert_eq!(image.pixel(x_late, between(0.35)), BLACK_AREA);
    assert_eq!(image.pixel(x_late, between(0.1)), WHITE_AREA);
}

#[test]
fn each_turning_point_is_a_dot_of_its_judgements_colour() {
    let chances = vec![0.5, 0.52, 0.45, 0.5, 0.2, 0.22, 0.15, 0.1, 0.12, 0.05, 0.0];
    let marks = vec![
        GraphMark {
            at: 2,
            judgement: Judgement::Inaccuracy,
            label: None,
        },
        GraphMark {
            at: 4,
            judgement: Judgement::Blunder,
            label: Some("2… Qh4??".into()),
        },
    ];
    let drawn = graph(chances.clone(), marks, Vec::new());
    let image = Image::decode(&renderer().graph(&drawn).expect("drawn"));
    let centre = |at: usize| (drawn.x(at) as u32, EvalGraph::y(chances[at]) as u32);
    let (x, y) = centre(2);
    assert_eq!(image.pixel(x, y), rgb(judgement_color(Judgement::Inaccuracy)));
    let (x, y) = centre(4);
    assert_eq!(image.pixel(x, y), rgb(judgement_color(Judgement::Blunder)));
    // The blunder's label is boxed above its dot, outlined in its colour.
    let outlined = (y.saturating_sub(60)..y.saturating_sub(10))
        .filter(|row| image.pixel(x, *row) == rgb(judgement_color(Judgement::Blunder)))
        .count();
    assert!(
        outlined >= 2,
        "the label's box is above the dot ({outlined} pixels of its outline)"
    );
}

#[test]
fn the_stages_before_play_are_bands_and_a_single_stage_is_not() {
    let chances = vec![0.5; 21];
    let banded = graph(
        chances.clone(),
        Vec::new(),
        vec![(0, "placement".into()), (8, "play".into())],
    );
    let plain = graph(chances, Vec::new(), vec![(0, "play".into())]);
    let banded_image = Image::decode(&renderer().graph(&banded).expect("drawn"));
    let plain_image = Image::decode(&renderer().graph(&plain).expect("drawn"));
    let (x, y) = (banded.x(4) as u32, EvalGraph::y(0.8) as u32);
    assert_eq!(plain_image.pixel(x, y), BLACK_AREA);
    assert_ne!(banded_image.pixel(x, y), BLACK_AREA, "placement is tinted");
    let (x, y) = (banded.x(14) as u32, EvalGraph::y(0.8) as u32);
    assert_eq!(banded_image.pixel(x, y), BLACK_AREA, "play is not");
    assert!(banded.to_svg().contains(">placement<"));
}

#[test]
fn the_graph_in_words_names_the_range_and_the_turning_points() {
    let marks = vec![GraphMark {
        at: 1,
        judgement: Judgement::Blunder,
        label: Some("1. f3??".into()),
    }];
    let words = graph(vec![0.5, 0.1, 0.0], marks, Vec::new()).describe();
    assert_eq!(
        words,
        "Game #7 · Chess: White's winning chance over the game, between 0% and 50%, ending at 0%. Turning points: 1. f3??."
    );
}

#[test]
fn labels_of_neighbouring_turning_points_never_cover_each_other() {
    // Three blunders on three positions in a row, then one more far off.
    let chances = vec![0.5, 0.5, 0.2, 0.6, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9, 0.9];
    let marks = [2, 3, 4, 9]
        .into_iter()
        .map(|at| GraphMark {
            at,
            judgement: Judgement::Blunder,
            label: Some(format!("{at}... Qxb7??")),
        })
        .collect();
    let svg = graph(chances, marks, Vec::new()).to_svg();
    // Each label's box: `<rect x=".." y=".." width=".." height="30" rx="5"`.
    let boxes: Vec<[f32; 3]> = svg
        .split("<rect ")
        .filter(|part| part.contains("rx=\"5\""))
        .map(|part| {
            let number = |name: &str| {
                let start = part.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                part[start..].split('"').next().unwrap().parse::<f32>().unwrap()
            };
            [number("x"), number("y"), number("width")]
        })
        .collect();
    assert!(boxes.len() >= 3, "most labels find a place: {boxes:?}");
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart = a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0] || a[1] + 30.0 <= b[1] || b[1] + 30.0 <= a[1];
            assert!(apart, "{a:?} and {b:?} overlap");
        }
    }
}
