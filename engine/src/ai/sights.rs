//! The search's sights of the positions it visits, one kept per ply: the next position at a ply
//! is seen over the last one's view ([`Game::sight_into`]), so a search of hundreds of thousands
//! of positions a second does not build and drop a view at each.

use crate::game::{Game, Seat, Viewer};
use crate::variants::AnyGame;
use crate::view::View;

#[derive(Default)]
pub struct Sights {
    /// Per ply, the last view taken there, while it is not in use.
    kept: Vec<Option<View>>,
}

impl Sights {
    /// `seat`'s sight of `game`, visited at `ply`. Give it back when done with it.
    pub fn take(&mut self, game: &AnyGame, seat: Seat, ply: usize) -> View {
        if self.kept.len() <= ply {
            self.kept.resize_with(ply + 1, || None);
        }
        match self.kept[ply].take() {
            Some(mut view) => {
                game.sight_into(Viewer::Seat(seat), &mut view);
                view
            }
            None => game.sight(Viewer::Seat(seat)),
        }
    }

    /// Keeps the view taken at `ply` for the next position there.
    pub fn give_back(&mut self, ply: usize, view: View) {
        self.kept[ply] = Some(view);
    }
}
