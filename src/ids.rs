//! The names everything else speaks of: games, tournaments, users, servers and places. The
//! ground floor of the service: it imports nothing of the crate, and every layer may import it.
//! Each is a type of its own, so a game's number is never taken for a tournament's, nor a
//! thread for a server.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A number the store gives out (a game's, a tournament's): shown and parsed as the number.
macro_rules! numbered {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, sqlx::Type)]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(i64);

        impl $name {
            pub const fn new(number: i64) -> $name {
                $name(number)
            }

            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(text: &str) -> Result<$name, Self::Err> {
                text.parse().map($name)
            }
        }
    };
}

numbered!(
    /// A game, numbered by the store (`#7` in messages).
    GameId
);
numbered!(
    /// A tournament, numbered by the store.
    TournamentId
);

/// A name qualified by the transport it came from (`discord:1234`, `local:alice`).
macro_rules! qualified {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, sqlx::Type)]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(String);

        impl $name {
            pub fn new(name: impl Into<String>) -> $name {
                $name(name.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }


            /// The transport's own id for it: the part after the first `:`.
            pub fn local_part(&self) -> &str {
                self.0.split_once(':').map_or(&self.0, |(_, id)| id)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(name: &str) -> $name {
                $name(name.to_string())
            }
        }

        impl From<String> for $name {
            fn from(name: String) -> $name {
                $name(name)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                self.0 == *other
            }
        }
    };
}

qualified!(
    /// A user, qualified by the transport they came from (`discord:1234`, `local:alice`).
    UserId
);
qualified!(
    /// A server (a Discord guild: `discord-guild:1234`): hosts and settings belong to one.
    ServerId
);
qualified!(
    /// Where a game or a tournament is played and its posts go: a channel, a thread or a DM of a
    /// transport (`discord:1234`), or the terminal (`local`).
    Place
);

impl UserId {
    /// The name to show: the part after the transport prefix.
    pub fn display_name(&self) -> &str {
        self.local_part()
    }
}

/// The places one transport serves, named by the prefix they share (`discord:`, `local`). A
/// scheduler serves its transport's places only.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Places(String);

impl Places {
    /// The places whose names start with `prefix`.
    pub fn starting_with(prefix: impl Into<String>) -> Places {
        Places(prefix.into())
    }

    pub fn prefix(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Places {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_and_show_as_numbers_and_names_keep_their_transport() {
        let game: GameId = "42".parse().unwrap();
        assert_eq!((game, game.to_string()), (GameId::new(42), "42".to_string()));
        assert!("x".parse::<TournamentId>().is_err());
        assert_eq!(serde_json::to_string(&game).unwrap(), "42");
        let user = UserId::new("discord:1234");
        assert_eq!((user.local_part(), user.display_name()), ("1234", "1234"));
        assert_eq!(serde_json::to_string(&user).unwrap(), "\"discord:1234\"");
        assert_eq!(Place::new("discord:77").local_part(), "77");
        assert_eq!(Places::starting_with("discord:").prefix(), "discord:");
    }
}
