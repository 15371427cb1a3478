//! Who makes a request, and where. A server's hosts run its Death Matches and tournaments, and
//! nobody else's: what a host may do is decided here, from the server the request was made on
//! and the server the match or tournament belongs to, never from who the host is elsewhere.

use super::ArenaError;
use crate::ids::{ServerId, UserId};
use crate::model::{GameRow, GameStatus, TournamentRow};

/// The user behind a request, the server they made it on (none in a DM), and whether that
/// server makes them a host (the transport vouches: on Discord, the Manage Server permission or
/// the server's host role, read from the request's own member data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub user: UserId,
    pub server: Option<ServerId>,
    pub hosts_server: bool,
}

impl Caller {
    /// A member with no host powers on `server`.
    pub fn player(user: &UserId, server: Option<&ServerId>) -> Caller {
        Caller {
            user: user.clone(),
            server: server.cloned(),
            hosts_server: false,
        }
    }

    /// A member who hosts on `server`.
    pub fn host(user: &UserId, server: Option<&ServerId>) -> Caller {
        Caller {
            hosts_server: true,
            ..Caller::player(user, server)
        }
    }

    /// Whether the request was made on `server`, the server something belongs to. Things stored
    /// before they belonged to a server (`None`) are everyone's, as they always were.
    pub fn is_on(&self, server: Option<&ServerId>) -> bool {
        belongs_to(server, self.server.as_ref())
    }

    /// Whether the caller hosts on `server`: made the request there, as one of its hosts.
    pub fn hosts_on(&self, server: Option<&ServerId>) -> bool {
        self.hosts_server && server.is_some() && self.server.as_ref() == server
    }
}

/// Whether something of `server` is there for a request made on `here` (none: a DM): on the
/// same server, or belonging to none (stored before things belonged to servers: everyone's).
pub(super) fn belongs_to(server: Option<&ServerId>, here: Option<&ServerId>) -> bool {
    server.is_none() || server == here
}

/// Refuses a game of another server as if it did not exist: the answer a number that exists
/// nowhere gets (`UnknownGame`), so the refusal tells a stranger nothing.
pub(super) fn require_game_here(game: &GameRow, caller: &Caller) -> Result<(), ArenaError> {
    if caller.is_on(game.server.as_ref()) {
        Ok(())
    } else {
        Err(ArenaError::UnknownGame(game.id))
    }
}

/// Refuses a tournament of another server as if it did not exist (`UnknownTournament`, as for
/// a number that exists nowhere).
pub(super) fn require_tournament_here(tournament: &TournamentRow, caller: &Caller) -> Result<(), ArenaError> {
    if caller.is_on(tournament.server.as_ref()) {
        Ok(())
    } else {
        Err(ArenaError::UnknownTournament(tournament.id))
    }
}

/// Refuses to show a game of another server to anyone but its players, who may look at their
/// games from anywhere (a DM has no server).
pub(super) fn may_look_at(game: &GameRow, caller: &Caller) -> Result<(), ArenaError> {
    if game.seat_of(&caller.user).is_some() || [&game.challenger, &game.opponent].contains(&&caller.user) {
        return Ok(());
    }
    require_game_here(game, caller)
}

/// Refuses a game that never started (a challenge, declined or cancelled): it has nothing to
/// `what` ("export", "replay").
pub(super) fn require_started(game: &GameRow, what: &str) -> Result<(), ArenaError> {
    if matches!(
        game.status,
        GameStatus::Challenge | GameStatus::Declined | GameStatus::Cancelled
    ) {
        return Err(ArenaError::Rejected(format!(
            "game #{} never started, so there is nothing to {what}",
            game.id
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_host_only_on_the_server_they_asked_on() {
        let user = UserId::new("discord:7");
        let host = Caller::host(&user, Some(&ServerId::new("discord-guild:1")));
        assert!(host.hosts_on(Some(&ServerId::new("discord-guild:1"))));
        assert!(
            !host.hosts_on(Some(&ServerId::new("discord-guild:2"))),
            "another server's matches are not theirs"
        );
        assert!(!host.hosts_on(None), "nor what belongs to no server");
        assert!(
            !Caller::player(&user, Some(&ServerId::new("discord-guild:1")))
                .hosts_on(Some(&ServerId::new("discord-guild:1")))
        );
        let in_dm = Caller::host(&user, None);
        assert!(!in_dm.hosts_on(None), "a DM makes nobody a host");
    }

    #[test]
    fn what_belongs_to_another_server_is_not_there() {
        let user = UserId::new("discord:7");
        let caller = Caller::player(&user, Some(&ServerId::new("discord-guild:1")));
        assert!(caller.is_on(Some(&ServerId::new("discord-guild:1"))));
        assert!(caller.is_on(None));
        assert!(
            belongs_to(None, Some(&ServerId::new("discord-guild:1"))),
            "serverless: everyone's"
        );
        assert!(belongs_to(None, None));
        assert!(
            !belongs_to(Some(&ServerId::new("discord-guild:1")), None),
            "a DM is no server"
        );
    }
}
