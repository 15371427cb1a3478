//! A sight taken over an earlier one ([`Game::sight_into`], how the search sees each position it
//! visits) is the sight taken afresh, in every game, for every viewer, whether the game writes
//! its record or, as in a search, does not.

mod common;

use arbiter_engine::{AnyGame, Game, Seat, VariantId, Viewer};
use common::playout;

#[test]
fn a_sight_taken_over_an_earlier_one_is_the_sight_taken_afresh() {
    let viewers = [Viewer::Seat(Seat::First), Viewer::Seat(Seat::Second), Viewer::Spectator];
    for &id in VariantId::ALL {
        for seed in 0..6 {
            let written = playout(id, seed, 120);
            let unwritten: Vec<AnyGame> = written
                .iter()
                .map(|state| {
                    let mut state = state.clone();
                    state.stop_writing();
                    state
                })
                .collect();
            for states in [&written, &unwritten] {
                for viewer in viewers {
                    // Forwards, then backwards: a ply's view is refreshed from whatever position
                    // the search saw there last.
                    let mut view = states[0].sight(viewer);
                    let order = (0..states.len()).chain((0..states.len()).rev());
                    for (step, index) in order.enumerate() {
                        states[index].sight_into(viewer, &mut view);
                        assert_eq!(
                            view,
                            states[index].sight(viewer),
                            "{id:?}, seed {seed}, step {step} (state {index}), {viewer:?}"
                        );
                    }
                }
            }
        }
    }
}
