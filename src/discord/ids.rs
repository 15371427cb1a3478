//! How Discord's identities map to the arena's, and the custom ids of buttons and menus. Custom ids
//! carry everything a click needs (the game and the version it was posted at), so a click works
//! after a restart and a stale one is recognised.

use crate::arena::Button;
use crate::store::{GameId, UserId};
use serenity::all as discord;

const PREFIX: &str = "arb";
/// Discord refuses custom ids longer than this.
pub const CUSTOM_ID_LIMIT: usize = 100;

pub fn user(id: discord::UserId) -> UserId {
    UserId::new(format!("discord:{id}"))
}

/// The Discord user behind an arena user, if it is one.
pub fn discord_user(user: &UserId) -> Option<discord::UserId> {
    let id: u64 = user.0.strip_prefix("discord:")?.parse().ok()?;
    (id != 0).then(|| discord::UserId::new(id))
}

/// Where a game is played: a channel or thread.
pub fn location(channel: discord::ChannelId) -> String {
    format!("discord:{channel}")
}

/// The server (guild) a game belongs to, as the store keeps it.
pub fn server(guild: discord::GuildId) -> String {
    format!("discord-guild:{guild}")
}

pub fn channel(location: &str) -> Option<discord::ChannelId> {
    let id: u64 = location.strip_prefix("discord:")?.parse().ok()?;
    (id != 0).then(|| discord::ChannelId::new(id))
}

/// What a component (a button or a select menu) stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Component {
    Button {
        button: Button,
        game: GameId,
        version: i64,
    },
    /// A menu of secret choices; the chosen value is the action in notation.
    Choose {
        game: GameId,
        version: i64,
    },
    /// A menu of pieces to place; the chosen value is the piece type's id.
    Piece {
        game: GameId,
        version: i64,
    },
    /// One answer of a private prompt with few answers, as a button: the prompt's `index`th.
    Pick {
        game: GameId,
        version: i64,
        index: u8,
    },
    /// Opens the form to write a list of pieces in.
    WriteList {
        game: GameId,
        version: i64,
    },
    /// The form itself (a modal), sent back with the list written in it.
    ListForm {
        game: GameId,
        version: i64,
    },
}

impl Component {
    pub fn custom_id(self) -> String {
        match self {
            Component::Button { button, game, version } => format!("{PREFIX}:{}:{game}:{version}", button.key()),
            Component::Choose { game, version } => format!("{PREFIX}:choose:{game}:{version}"),
            Component::Piece { game, version } => format!("{PREFIX}:piece:{game}:{version}"),
            Component::Pick { game, version, index } => format!("{PREFIX}:pick:{game}:{version}:{index}"),
            Component::WriteList { game, version } => format!("{PREFIX}:writelist:{game}:{version}"),
            Component::ListForm { game, version } => format!("{PREFIX}:listform:{game}:{version}"),
        }
    }

    /// Reads a custom id; anything not made by [`Component::custom_id`] is `None`.
    pub fn parse(custom_id: &str) -> Option<Component> {
        if custom_id.len() > CUSTOM_ID_LIMIT {
            return None;
        }
        let mut parts = custom_id.split(':');
        if parts.next()? != PREFIX {
            return None;
        }
        let kind = parts.next()?;
        let game: GameId = parts.next()?.parse().ok()?;
        let version: i64 = parts.next()?.parse().ok()?;
        // Several menus in one message need distinct ids: a menu's row may follow; a pick's
        // index must.
        let row = parts.next();
        let takes_number = matches!(kind, "choose" | "piece" | "pick");
        if parts.next().is_some() || (row.is_some() && (!takes_number || row?.parse::<u8>().is_err())) {
            return None;
        }
        match kind {
            "pick" => Some(Component::Pick {
                game,
                version,
                index: row?.parse().ok()?,
            }),
            "choose" => Some(Component::Choose { game, version }),
            "piece" => Some(Component::Piece { game, version }),
            "writelist" => Some(Component::WriteList { game, version }),
            "listform" => Some(Component::ListForm { game, version }),
            key => Some(Component::Button {
                button: Button::from_key(key)?,
                game,
                version,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_stay_within_discords_limit() {
        for button in Button::ALL {
            let component = Component::Button {
                button,
                game: i64::MAX,
                version: i64::MAX,
            };
            let id = component.custom_id();
            assert!(id.len() <= CUSTOM_ID_LIMIT, "{id}");
            assert_eq!(Component::parse(&id), Some(component));
        }
        let choose = Component::Choose { game: 12, version: 7 };
        assert_eq!(choose.custom_id(), "arb:choose:12:7");
        assert_eq!(Component::parse("arb:choose:12:7"), Some(choose));
        assert_eq!(
            Component::parse("arb:choose:12:7:2"),
            Some(choose),
            "a second menu's row"
        );
        let pick = Component::Pick {
            game: 5,
            version: 6,
            index: 1,
        };
        assert_eq!(pick.custom_id(), "arb:pick:5:6:1");
        assert_eq!(Component::parse("arb:pick:5:6:1"), Some(pick));
        assert_eq!(Component::parse("arb:pick:5:6"), None, "a pick names its answer");
        let piece = Component::Piece { game: 3, version: 4 };
        assert_eq!(piece.custom_id(), "arb:piece:3:4");
        let form = Component::ListForm { game: 8, version: 2 };
        assert_eq!(form.custom_id(), "arb:listform:8:2");
        assert_eq!(Component::parse("arb:listform:8:2"), Some(form));
        assert_eq!(
            Component::parse("arb:writelist:8:2"),
            Some(Component::WriteList { game: 8, version: 2 })
        );
        assert_eq!(Component::parse("arb:writelist:8:2:1"), None);
        assert_eq!(Component::parse("arb:piece:3:4:1"), Some(piece));
    }

    #[test]
    fn foreign_or_broken_custom_ids_are_not_ours() {
        for id in [
            "",
            "arb",
            "arb:accept",
            "arb:accept:1",
            "arb:accept:x:1",
            "arb:accept:1:2:3",
            "arb:choose:1:2:x",
            "arb:choose:1:2:3:4",
            "arb:piece:1:2:y",
            "arb:explode:1:2",
            "other:accept:1:2",
            &format!("arb:choose:1:{}", "9".repeat(120)),
        ] {
            assert_eq!(Component::parse(id), None, "{id}");
        }
    }

    #[test]
    fn discord_identities_map_both_ways() {
        let alice = user(discord::UserId::new(42));
        assert_eq!(alice.0, "discord:42");
        assert_eq!(discord_user(&alice), Some(discord::UserId::new(42)));
        assert_eq!(discord_user(&UserId::new("local:alice")), None);
        let place = location(discord::ChannelId::new(7));
        assert_eq!(channel(&place), Some(discord::ChannelId::new(7)));
        assert_eq!(channel("local"), None);
        assert_eq!(channel("discord:0"), None);
    }
}
