//! Ratings: a Glicko-2 rating (skillratings' implementation) per player per variant on each
//! server's own ladder, with the player's record beside it. Provisional until
//! [`PROVISIONAL_GAMES`] games. The arena computes a result's new ratings and the store saves
//! them in the transaction that saves the game, only over the ratings they were computed from,
//! so a result moves ratings exactly once. A game moves only the ladder of the server it belongs
//! to: nobody on one server can move a rating on another.

use crate::ids::{ServerId, UserId};
use arbiter_engine::{EndReason, Outcome, Seat, VariantId};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::collections::BTreeMap;

/// Games before a rating is established (shown with a `?` until then).
pub const PROVISIONAL_GAMES: i64 = 10;

#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The server whose ladder it is on; none: games that belong to no server (those stored
    /// before games recorded their server), a ladder no server shows.
    pub server: Option<ServerId>,
    pub user: UserId,
    pub variant: VariantId,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub updated_at: i64,
}

impl Rating {
    /// A player's rating before their first game of a variant on a server's ladder.
    pub fn initial(server: Option<ServerId>, user: UserId, variant: VariantId) -> Rating {
        let start = Glicko2Rating::new();
        Rating {
            server,
            user,
            variant,
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            updated_at: 0,
        }
    }

    pub fn is_provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }

    /// "1523", or "1480?" while provisional.
    pub fn shown(&self) -> String {
        let mark = if self.is_provisional() { "?" } else { "" };
        format!("{:.0}{mark}", self.rating)
    }

    /// "12 games: 7 won, 1 drawn, 4 lost".
    pub fn record(&self) -> String {
        format!(
            "{} game{}: {} won, {} drawn, {} lost",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.wins,
            self.draws,
            self.losses
        )
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// A finished game's result as ratings see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedResult {
    /// The server whose ladder the result moves.
    pub server: Option<ServerId>,
    pub variant: VariantId,
    /// The first and second seat's players.
    pub players: [UserId; 2],
    pub winner: Option<Seat>,
}

impl RatedResult {
    /// The result a game's outcome gives its players, unless it does not count (an abort, or
    /// a game between one player and themselves).
    pub fn of(
        server: Option<&ServerId>,
        variant: VariantId,
        players: &[UserId; 2],
        outcome: &Outcome,
    ) -> Option<RatedResult> {
        if !counts(outcome) || players[0] == players[1] {
            return None;
        }
        Some(RatedResult {
            server: server.cloned(),
            variant,
            players: players.clone(),
            winner: outcome.winner,
        })
    }
}

/// Whether an outcome moves ratings: every finished game but an aborted one (an abort by a
/// player, a host, or an abandoned game claimed before it really began) or one forfeited by a
/// player who withdrew from its tournament (nobody played it).
pub fn counts(outcome: &Outcome) -> bool {
    !matches!(outcome.reason, EndReason::Aborted | EndReason::Forfeit)
}

/// The players' ratings after a game between them (`ratings` in seat order).
pub fn rate(ratings: [Rating; 2], winner: Option<Seat>, now: i64) -> [Rating; 2] {
    let outcome = match winner {
        Some(Seat::First) => Outcomes::WIN,
        Some(Seat::Second) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (first, second) = glicko2(
        &ratings[0].glicko(),
        &ratings[1].glicko(),
        &outcome,
        &Glicko2Config::default(),
    );
    let [mut a, mut b] = ratings;
    for (rating, new, seat) in [(&mut a, first, Seat::First), (&mut b, second, Seat::Second)] {
        rating.rating = new.rating;
        rating.deviation = new.deviation;
        rating.volatility = new.volatility;
        rating.games += 1;
        match winner {
            None => rating.draws += 1,
            Some(w) if w == seat => rating.wins += 1,
            Some(_) => rating.losses += 1,
        }
        rating.updated_at = now;
    }
    [a, b]
}

/// Every ladder as its results make it: `results` (each with the time it was decided) played
/// in the order given, from every player's initial rating. How ratings stored before ladders
/// were per server are rebuilt, each server's from its own rated games.
pub fn ladders(results: impl IntoIterator<Item = (RatedResult, i64)>) -> Vec<Rating> {
    let mut ladders: BTreeMap<(Option<ServerId>, UserId, VariantId), Rating> = BTreeMap::new();
    for (result, at) in results {
        let current = result.players.clone().map(|user| {
            let key = (result.server.clone(), user, result.variant);
            ladders
                .get(&key)
                .cloned()
                .unwrap_or_else(|| Rating::initial(key.0, key.1, key.2))
        });
        for rating in rate(current, result.winner, at) {
            ladders.insert((rating.server.clone(), rating.user.clone(), rating.variant), rating);
        }
    }
    ladders.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(name: &str) -> Rating {
        Rating::initial(None, UserId::new(name), VariantId::Chess)
    }

    #[test]
    fn a_win_moves_both_ratings_by_glicko_2_and_counts_in_the_records() {
        let [winner, loser] = rate([fresh("a"), fresh("b")], Some(Seat::First), 5);
        assert!(winner.rating > 1600.0 && loser.rating < 1400.0, "{winner:?} {loser:?}");
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-6);
        assert!(winner.deviation < 350.0);
        assert_eq!(
            (winner.games, winner.wins, loser.losses, loser.updated_at),
            (1, 1, 1, 5)
        );
        assert!(winner.is_provisional());
        assert!(winner.shown().ends_with('?'));
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating_but_counts() {
        let [a, b] = rate([fresh("a"), fresh("b")], None, 0);
        assert!((a.rating - 1500.0).abs() < 1e-6 && (b.rating - 1500.0).abs() < 1e-6);
        assert_eq!((a.draws, b.draws), (1, 1));
    }

    #[test]
    fn aborted_games_and_games_against_oneself_do_not_count() {
        let players = [UserId::new("a"), UserId::new("b")];
        let aborted = Outcome::draw(EndReason::Aborted);
        assert_eq!(RatedResult::of(None, VariantId::Chess, &players, &aborted), None);
        let mate = Outcome::win(Seat::Second, EndReason::Checkmate);
        let result = RatedResult::of(None, VariantId::Chess, &players, &mate).unwrap();
        assert_eq!(result.winner, Some(Seat::Second));
        let same = [UserId::new("a"), UserId::new("a")];
        assert_eq!(RatedResult::of(None, VariantId::Chess, &same, &mate), None);
    }

    #[test]
    fn a_rating_is_established_after_ten_games() {
        let mut pair = [fresh("a"), fresh("b")];
        for _ in 0..PROVISIONAL_GAMES {
            pair = rate(pair, Some(Seat::First), 0);
        }
        assert!(!pair[0].is_provisional());
        assert!(!pair[0].shown().contains('?'));
        assert_eq!(pair[0].record(), "10 games: 10 won, 0 drawn, 0 lost");
    }

    #[test]
    fn ladders_rebuilt_from_results_keep_each_server_apart_and_replay_in_order() {
        let server = |name: &str| Some(ServerId::new(name));
        let (a, b) = (UserId::new("a"), UserId::new("b"));
        let result = |on: &str, winner| RatedResult {
            server: server(on),
            variant: VariantId::Chess,
            players: [a.clone(), b.clone()],
            winner,
        };
        let rebuilt = ladders([
            (result("one", Some(Seat::First)), 10),
            (result("two", Some(Seat::Second)), 20),
            (result("one", None), 30),
        ]);
        assert_eq!(rebuilt.len(), 4, "{rebuilt:?}");
        let on = |name: &str, user: &UserId| {
            rebuilt
                .iter()
                .find(|r| r.server == server(name) && &r.user == user)
                .unwrap()
                .clone()
        };
        // Server one: a win then a draw, played in that order from the start.
        let first = rate(
            [fresh("a"), fresh("b")].map(|r| Rating {
                server: server("one"),
                ..r
            }),
            Some(Seat::First),
            10,
        );
        let [one_a, one_b] = rate(first, None, 30);
        assert_eq!((on("one", &a), on("one", &b)), (one_a, one_b));
        // Server two saw only b's win: a's loss there moves nothing on server one.
        let [two_a, _] = rate(
            [fresh("a"), fresh("b")].map(|r| Rating {
                server: server("two"),
                ..r
            }),
            Some(Seat::Second),
            20,
        );
        assert_eq!(on("two", &a), two_a);
        assert_eq!((on("one", &a).wins, on("two", &a).losses), (1, 1));
    }
}
