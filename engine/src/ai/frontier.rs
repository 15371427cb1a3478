//! What a node near the horizon can decide from the evaluation alone: that the side to act stands
//! too far beyond the window to come back (reverse futility), or too far short of it for a quiet
//! move to help (futility), and that the late quiet moves of a well-ordered list need no search
//! (late-move pruning).

use crate::game::Action;

/// Within this many plies of the horizon, a side beyond the window by more than a quiet move
/// could change a ply ([`super::evaluate::Evaluator::quiet_swing`]) is taken to stay there
/// (futility pruning), and only this many quiet moves are searched at each depth.
pub const FRONTIER: i32 = 3;
const LATE_QUIET: [usize; FRONTIER as usize + 1] = [0, 8, 12, 18];

/// A node near the horizon, and where it stands: what can be decided from the evaluation alone.
#[derive(Clone, Copy)]
pub struct Frontier {
    pub standing: i32,
    /// How far a position so near the horizon may still move from where it stands.
    pub margin: i32,
    /// Plies to the horizon.
    pub depth: usize,
    pub maximising: bool,
}

impl Frontier {
    /// The node's score if the side to act stands beyond the window by more than the margin
    /// (it would not come back into it; reverse futility).
    pub fn beyond(&self, alpha: i32, beta: i32) -> Option<i32> {
        match self.maximising {
            true if self.standing - self.margin >= beta => Some(self.standing),
            false if self.standing + self.margin <= alpha => Some(self.standing),
            _ => None,
        }
    }

    /// Whether `action`, the `nth` quiet action, is left out: the side to act is so far short of
    /// the window that a quiet action will not bring it back (futility), or it comes too late in
    /// the list. Only plain moves are: other actions (a promotion, a detonation, a drop, an
    /// answer) can change anything.
    pub fn prunes(&self, action: &Action, nth: usize, alpha: i32, beta: i32) -> bool {
        let plain_move = matches!(
            action,
            Action::Move {
                promotion: None,
                choice: None,
                ..
            }
        );
        if !plain_move {
            return false;
        }
        let futile = if self.maximising {
            self.bound() <= alpha
        } else {
            self.bound() >= beta
        };
        futile || nth >= LATE_QUIET[self.depth.min(LATE_QUIET.len() - 1)]
    }

    /// The best the side to act can hope for by a quiet action.
    pub fn bound(&self) -> i32 {
        if self.maximising {
            self.standing + self.margin
        } else {
            self.standing - self.margin
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_the_horizon_the_evaluation_alone_cuts_or_leaves_out_quiet_moves() {
        let frontier = |standing: i32, depth: usize, maximising: bool| Frontier {
            standing,
            margin: 120 * depth as i32,
            depth,
            maximising,
        };
        // The seat stands at 500 two plies from the horizon: beyond a window up to 250 by more
        // than two quiet moves could change, not beyond one up to 300.
        assert_eq!(frontier(500, 2, true).beyond(0, 250), Some(500));
        assert_eq!(frontier(500, 2, true).beyond(0, 300), None);
        // The other side, mirrored: it holds the seat to -500.
        assert_eq!(frontier(-500, 2, false).beyond(-250, 0), Some(-500));
        assert_eq!(frontier(-500, 2, false).beyond(-300, 0), None);
        let square = |name: &str| crate::geometry::Square::parse(name).unwrap();
        let plain = Action::simple_move(square("e2"), square("e4"));
        // At 0 a ply from the horizon, a quiet move cannot reach 200, but can reach 100.
        assert!(frontier(0, 1, true).prunes(&plain, 0, 200, 1_000));
        assert!(!frontier(0, 1, true).prunes(&plain, 0, 100, 1_000));
        assert!(frontier(0, 1, false).prunes(&plain, 0, -1_000, -200));
        // In the window, only the late quiet moves are left out.
        assert!(!frontier(0, 2, true).prunes(&plain, LATE_QUIET[2] - 1, -50, 50));
        assert!(frontier(0, 2, true).prunes(&plain, LATE_QUIET[2], -50, 50));
        // A promotion, or any action but a plain move, never is.
        let promotion = Action::Move {
            from: square("e7"),
            to: square("e8"),
            promotion: Some("q".into()),
            choice: None,
            board: 0,
        };
        assert!(!frontier(0, 1, true).prunes(&promotion, 0, 200, 1_000));
        assert!(!frontier(0, 1, true).prunes(&Action::Pass, 0, 200, 1_000));
        assert_eq!(frontier(0, 3, true).bound(), 360);
    }
}
