//! What a long-running bot's image caches cost in memory: a renderer draws `per_game` board
//! images of every game (positions of games played at random, with names and a clock that
//! changes every image, as a Death Match's do), and the process's resident memory is read
//! before and after.

use super::web::resident_kib;
use crate::render::{BoardImage, Decor, Renderer};
use anyhow::Result;
use arbiter_engine::{AnyGame, Game, VariantId, Viewer};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::fmt::Write;
use std::time::Instant;

pub fn memory(per_game: usize) -> Result<String> {
    let renderer = Renderer::new();
    let before = resident_kib();
    let timer = Instant::now();
    let mut out = String::new();
    let mut bytes = 0usize;
    for (number, &variant) in VariantId::ALL.iter().enumerate() {
        let mut rng = SmallRng::seed_from_u64(number as u64);
        let mut game = AnyGame::new(variant);
        for image in 0..per_game {
            let decor = Decor {
                player_names: [Some("alice".into()), Some("bob".into())],
                clocks: [Some(format!("0:{:02} · reserve 4:12", image % 60)), None],
                ..Decor::default()
            };
            let board = BoardImage {
                view: game.view(Viewer::Spectator),
                decor,
            };
            bytes += renderer.image(&board)?.len();
            if super::play_at_random(&mut game, &mut rng).is_none() {
                game = AnyGame::new(variant);
            }
        }
    }
    let after = resident_kib();
    let images = per_game * VariantId::ALL.len();
    let mib = |kib: Option<u64>| kib.map_or("unknown".to_string(), |kib| format!("{:.1} MiB", kib as f64 / 1024.0));
    let _ = writeln!(
        out,
        "{images} images ({per_game} of each of {} games) in {:.1} s, {:.1} KB each on average; resident memory {} before, {} after",
        VariantId::ALL.len(),
        timer.elapsed().as_secs_f64(),
        bytes as f64 / images.max(1) as f64 / 1024.0,
        mib(before),
        mib(after),
    );
    Ok(out)
}
