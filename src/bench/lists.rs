//! How long a player waits for a list's verdict: reading and checking a 20-piece list (each
//! rule, and every pair compared for twins), and drawing the sheet of its diagrams.

use crate::render::{Renderer, Scene};
use anyhow::Result;
use arbiter_engine::lists::{self, ListKind};
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use std::fmt::Write;
use std::time::{Duration, Instant};

/// A list that makes the checks work hardest: a royal hopper to search, riders, lame and
/// multi-leg pieces, and pairs alike on an empty board that only differ with pieces about.
const HARD_LIST: &str = "Royal grasshopper, RG, gQ, royal
Queen, Q, Q
Rook-bishop, RB, RB
Pao, PA, mRcpR
Vao, VA, mBcpB
Nightrider, NN, NN
Lame knight, LK, nN
Mao, MA, afsW
Moa, MO, afsF
Camel, CA, C
Wazir, W, W
Ferz, F, F
Alfil, AL, A
Dabbabah, DA, D
Pawn, P, fmWfcF, pawn
Chinese pawn, CP, fW, pawn
Fish pawn, FI, fmWfcFbW, pawn
Threeleaper, H, H
Tripper, TR, G
Side mover, SM, sW";

pub fn run(iterations: usize) -> Result<String> {
    let ready: Vec<String> = OwnPiecesGame::ready_made(ListKind::PickTheTeam2)
        .iter()
        .map(ToString::to_string)
        .collect();
    let ready = ready.join("\n");
    let mut out = String::new();
    for (name, text) in [("ready-made list", ready.as_str()), ("hard list", HARD_LIST)] {
        let mut times = Vec::new();
        let mut review = lists::review(text, ListKind::PickTheTeam2);
        for _ in 0..iterations.max(1) {
            let start = Instant::now();
            review = lists::review(text, ListKind::PickTheTeam2);
            times.push(start.elapsed());
        }
        times.sort();
        let _ = writeln!(
            out,
            "{name} (20 pieces, 10x10): verdict in p50 {:.1} ms, max {:.1} ms; accepted: {}",
            ms(super::percentile(&times, 50)),
            ms(*times.last().expect("one run at least")),
            review.is_accepted()
        );
        let image = crate::arena::lists::sheet_image(&review, ListKind::PickTheTeam2);
        if let Some(image) = image {
            let renderer = Renderer::new();
            let start = Instant::now();
            let png = renderer.png(&Scene::from_view(&image.view, &image.decor))?;
            let _ = writeln!(
                out,
                "  its sheet of {} diagrams: {:.0} ms to draw, {} KB",
                image.view.boards.len(),
                ms(start.elapsed()),
                png.len() / 1024
            );
        }
    }
    Ok(out)
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
