//! Replays, decoded as a viewer's program decodes them: a frame per change a spectator could
//! see (sealed half-turns and secret choices add none), the delays, and a final frame that is
//! the game's final board image.

use crate::support;
use crate::support::{alice, asking, bob, carol, started};
use arbiter::arena::Effects;
use arbiter::ids::GameId;
use arbiter::render::{MOST_REPLAY_BYTES, Renderer};
use arbiter_engine::{Game, VariantId};

/// A decoded GIF: each frame's delay (hundredths of a second) and the picture after the last.
struct Decoded {
    delays: Vec<u16>,
    width: usize,
    height: usize,
    last: Vec<[u8; 3]>,
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (decoder.width() as usize, decoder.height() as usize);
    let mut canvas = vec![[0u8; 3]; width * height];
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        delays.push(frame.delay);
        // Each frame is a box drawn over what is there; its transparent pixels leave it be.
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let px = &frame.buffer[(y * frame.width as usize + x) * 4..][..4];
                if px[3] > 0 {
                    canvas[(frame.top as usize + y) * width + frame.left as usize + x] = [px[0], px[1], px[2]];
                }
            }
        }
    }
    Decoded {
        delays,
        width,
        height,
        last: canvas,
    }
}

/// The replay the arena gives `carol` (a spectator), drawn.
async fn replay(arena: &support::TestArena, id: GameId) -> (Effects, Decoded) {
    let effects = arena.records().replay(id, &asking(&carol())).await.unwrap();
    let replay = effects.replay.clone().expect("a replay");
    let gif = Renderer::new().gif(&replay.animation, MOST_REPLAY_BYTES).unwrap();
    assert_eq!(
        gif.shown,
        replay.animation.frames.len(),
        "a short game keeps every frame"
    );
    assert!(gif.note().is_none());
    (effects, decode(&gif.bytes))
}

/// The final frame is the board the game's final post shows (a spectator's), pixel for pixel
/// but for the rare anti-aliased shades the shared palette rounds to a neighbour.
async fn assert_final_frame_is_the_board(arena: &support::TestArena, id: GameId, decoded: &Decoded) {
    let shown = arena.show(id, &asking(&carol())).await.unwrap();
    let board = shown.reply.unwrap().board.unwrap();
    let pixels = Renderer::new().pixels(&board.scene()).unwrap();
    let (width, height) = (pixels.width() as usize, pixels.height() as usize);
    assert!(width <= decoded.width && height <= decoded.height);
    let (mut exact, mut far) = (0, 0);
    for y in 0..height {
        for x in 0..width {
            let px = &pixels.data()[(y * width + x) * 4..][..3];
            let got = decoded.last[y * decoded.width + x];
            if got == [px[0], px[1], px[2]] {
                exact += 1;
            } else if got.iter().zip(px).any(|(a, b)| a.abs_diff(*b) > 40) {
                far += 1;
            }
        }
    }
    let total = width * height;
    assert!(exact * 1000 >= total * 995, "{exact} of {total} pixels exact");
    assert_eq!(far, 0, "no pixel strays far from the board image");
}

#[tokio::test]
async fn a_chess_replay_has_a_frame_a_move_and_ends_on_the_final_board() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Chess).await;
    support::play_alternately(&arena, id, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#").await;
    let (effects, decoded) = replay(&arena, id).await;
    let caption = arbiter::arena::text::plain(&effects.replay.unwrap().caption);
    assert!(caption.contains("finished, 8 positions"), "{caption}");
    // The start, seven moves; the start held 1.5 s, each move 0.9 s, the mate 4 s.
    assert_eq!(decoded.delays, vec![150, 90, 90, 90, 90, 90, 90, 400]);
    assert_final_frame_is_the_board(&arena, id, &decoded).await;
}

#[tokio::test]
async fn an_assault_replay_shows_each_step_once_both_sealed_moves_are_in() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::Assault).await;
    // A sealed half-turn alone changes nothing a spectator sees: no frame, no hint.
    arena.play().act(id, &alice(), "e4").await.unwrap();
    let (_, sealed) = replay(&arena, id).await;
    assert_eq!(sealed.delays, vec![400], "only the start, held as the last frame");
    arena.play().act(id, &bob(), "d4").await.unwrap();
    arena.play().act(id, &bob(), "e5").await.unwrap();
    arena.play().act(id, &alice(), "d5").await.unwrap();
    let (_, decoded) = replay(&arena, id).await;
    assert_eq!(decoded.delays, vec![150, 90, 400], "the start and two steps");
    assert_final_frame_is_the_board(&arena, id, &decoded).await;
}

#[tokio::test]
async fn a_pick_the_team_replay_shows_every_pick() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let id = started(&arena, VariantId::PickTheTeam).await;
    for _ in 0..6 {
        let game = arena.store().game(id).await.unwrap().unwrap();
        let seat = game.state.to_act()[0];
        let user = game.player(seat).unwrap().clone();
        let offered = arena.play().legal_actions(id, &user).await.unwrap();
        arena.play().act(id, &user, &offered[0]).await.unwrap();
    }
    arena.play().resign(id, &bob()).await.unwrap();
    let (_, decoded) = replay(&arena, id).await;
    // The start, six picks; the resignation changes the last picture (its result line).
    assert_eq!(decoded.delays, vec![150, 90, 90, 90, 90, 90, 90, 400]);
    assert_final_frame_is_the_board(&arena, id, &decoded).await;
}

#[tokio::test]
async fn a_challenge_has_nothing_to_replay() {
    let (_db, arena, _) = support::sqlite_arena().await;
    let setup = arbiter::model::GameSetup::new(VariantId::Chess);
    let request = support::to_bob(setup, arbiter::model::WhitePlayer::Challenger);
    let id = support::challenged(&arena, &alice(), request).await;
    support::refused(arena.records().replay(id, &asking(&carol())).await, "never started");
}
