//! The arena's domains, in the spirit of lila's modules: each is a view of the one arena with a
//! public surface of its own, reached by a method that names it (`arena.play().act(...)`,
//! `arena.matches().pause(...)`). A domain reaches the arena's shared parts (the store, the clock,
//! saving a change) as the arena's own, through `Deref`; what is left on `Arena` itself wires the
//! domains together (buttons, `press`) and looks things up.

use super::Arena;

/// Declares each domain: its view type and the arena's method that hands it out.
macro_rules! domains {
    ($($(#[$doc:meta])* $name:ident => $method:ident;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy)]
            pub struct $name<'a>(&'a Arena);

            impl std::ops::Deref for $name<'_> {
                type Target = Arena;

                fn deref(&self) -> &Arena {
                    self.0
                }
            }
        )*

        impl Arena {
            $(
                $(#[$doc])*
                pub fn $method(&self) -> $name<'_> {
                    $name(self)
                }
            )*
        }
    };
}

domains! {
    /// Playing a game: moves and secret choices (and what a player may write now), draw and
    /// takeback offers, and what ends the play (resigning, aborting, claiming a game left).
    Play => play;
    /// Starting games: challenges, their answers, and rematches.
    Challenges => challenges;
    /// Death Matches as their host runs them: the start, the colours, the clocks, the result,
    /// and the players' consent to a rated match.
    Matches => matches;
    /// Club tournaments: creation, entries, rounds, rulings, and their posts.
    Tournaments => tournaments;
    /// Players' lists of their own pieces: sent to a game, saved for later.
    Lists => lists;
    /// Game records out and in (PGN), and animated replays.
    Records => records;
    /// Watching games: the live pages' news and tokens, and whether each change's news was shown.
    Watching => watching;
    /// The clocks as a scheduler runs them: resumed after a stop, each due deadline claimed and
    /// fired, a heartbeat that tells how long nobody served.
    Clocks => clocks;
    /// Players and their servers: names, ratings on each server's ladder, reminders, host roles.
    Players => players;
}
