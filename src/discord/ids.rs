//! How Discord's identities map to the arena's, and the custom ids of buttons and menus. Custom ids
//! carry everything a click needs (the game and the version it was posted at), so a click works
//! after a restart and a stale one is recognised.

use crate::arena::Button;
use crate::ids::{GameId, Place, ServerId, UserId};
use serenity::all as discord;

const PREFIX: &str = "arb";
/// Discord refuses custom ids longer than this.
pub const CUSTOM_ID_LIMIT: usize = 100;

pub fn user(id: discord::UserId) -> UserId {
    UserId::new(format!("discord:{id}"))
}

/// The Discord user behind an arena user, if it is one.
pub fn discord_user(user: &UserId) -> Option<discord::UserId> {
    let id: u64 = user.as_str().strip_prefix("discord:")?.parse().ok()?;
    (id != 0).then(|| discord::UserId::new(id))
}

/// How a message names a user: Discord users as a mention (Discord shows it as their name),
/// anyone else by name.
pub fn mention(user: &UserId) -> String {
    match discord_user(user) {
        Some(id) => format!("<@{id}>"),
        None => user.display_name().to_string(),
    }
}

/// Where a game is played: a channel or thread.
pub fn location(channel: discord::ChannelId) -> Place {
    Place::new(format!("discord:{channel}"))
}

/// The server (guild) a game belongs to, as the store keeps it.
pub fn server(guild: discord::GuildId) -> ServerId {
    ServerId::new(format!("discord-guild:{guild}"))
}

pub fn channel(location: &Place) -> Option<discord::ChannelId> {
    let id: u64 = location.as_str().strip_prefix("discord:")?.parse().ok()?;
    (id != 0).then(|| discord::ChannelId::new(id))
}

/// What a component (a button or a select menu) stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Component {
    Button {
        button: Button,
        game: GameId,
        version: i64,
    },
    /// A menu of choices from a private prompt; the chosen value is the action in notation.
    /// A secret prompt's menu carries the prompt's key (`arena::prompt_key`).
    Choose {
        game: GameId,
        version: i64,
        prompt_key: Option<String>,
    },
    /// A menu of pieces to place; the chosen value is the piece type's id.
    Piece {
        game: GameId,
        version: i64,
    },
    /// One answer of a private prompt with few answers, as a button.
    Pick {
        game: GameId,
        version: i64,
        prompt_key: Option<String>,
        answer: Answer,
    },
    /// Another page of a private prompt's choices (when there are more than its menus hold).
    Page {
        game: GameId,
        version: i64,
        page: u8,
    },
    /// Opens the form to write a list of pieces in.
    WriteList {
        game: GameId,
        version: i64,
    },
    /// Sends a list drawn for the player (`ListSource::Drawn`).
    DrawList {
        game: GameId,
        version: i64,
    },
    /// The form itself (a modal), sent back with the list written in it.
    ListForm {
        game: GameId,
        version: i64,
    },
    /// A step of a move chosen by menus (`arena::guide`): the keys chosen so far, and the page
    /// of the next step's choices. A menu's chosen value is the next key; a button (Back, another
    /// page) shows the step it names.
    Guide {
        game: GameId,
        version: i64,
        page: u8,
        path: Vec<String>,
    },
}

/// The answer a button of a private prompt gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The action itself, in notation (`accept`, `bomb:d2`).
    Value(String),
    /// Buttons posted before answers carried their value name it by its place in the prompt's
    /// answers (the same at the same version).
    Index(u8),
}

/// How an id writes "no prompt key".
const NO_KEY: &str = "-";
/// Between the keys of a guided move's path (keys never hold it, nor `:`).
const PATH_SEPARATOR: &str = "/";

impl Component {
    pub fn custom_id(&self) -> String {
        let key = |key: &Option<String>| key.clone().unwrap_or_else(|| NO_KEY.to_string());
        match self {
            Component::Button { button, game, version } => format!("{PREFIX}:{}:{game}:{version}", button.key()),
            Component::Choose {
                game,
                version,
                prompt_key: None,
            } => format!("{PREFIX}:choose:{game}:{version}"),
            Component::Choose {
                game,
                version,
                prompt_key,
            } => format!("{PREFIX}:menu:{game}:{version}:{}", key(prompt_key)),
            Component::Piece { game, version } => format!("{PREFIX}:piece:{game}:{version}"),
            Component::Pick {
                game,
                version,
                prompt_key,
                answer: Answer::Value(value),
            } => format!("{PREFIX}:answer:{game}:{version}:{}:{value}", key(prompt_key)),
            Component::Pick {
                game,
                version,
                answer: Answer::Index(index),
                ..
            } => format!("{PREFIX}:pick:{game}:{version}:{index}"),
            Component::Page { game, version, page } => format!("{PREFIX}:page:{game}:{version}:{page}"),
            Component::WriteList { game, version } => format!("{PREFIX}:writelist:{game}:{version}"),
            Component::ListForm { game, version } => format!("{PREFIX}:listform:{game}:{version}"),
            Component::DrawList { game, version } => format!("{PREFIX}:drawlist:{game}:{version}"),
            Component::Guide {
                game,
                version,
                page,
                path,
            } => format!("{PREFIX}:go:{game}:{version}:{page}:{}", path.join(PATH_SEPARATOR)),
        }
    }

    /// Reads a custom id; anything not made by [`Component::custom_id`] is `None`. Ids of
    /// buttons posted by earlier versions (`pick` with an answer's place) still read.
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
        let key_of = |text: &str| (text != NO_KEY).then(|| text.to_string());
        match kind {
            "answer" => {
                // The key, then the answer: the rest, colons and all (`bomb:d2`).
                let prompt_key = key_of(parts.next()?);
                let value = parts.collect::<Vec<_>>().join(":");
                if value.is_empty() {
                    return None;
                }
                return Some(Component::Pick {
                    game,
                    version,
                    prompt_key,
                    answer: Answer::Value(value),
                });
            }
            "pick" => {
                let index = parts.next()?.parse().ok()?;
                return parts.next().is_none().then_some(Component::Pick {
                    game,
                    version,
                    prompt_key: None,
                    answer: Answer::Index(index),
                });
            }
            "go" => {
                let page = parts.next()?.parse().ok()?;
                let path = parts.next()?;
                // Several menus in one message need distinct ids: a menu's row may follow.
                let row = parts.next();
                if parts.next().is_some() || row.is_some_and(|row| row.parse::<u8>().is_err()) {
                    return None;
                }
                let path = path
                    .split(PATH_SEPARATOR)
                    .filter(|key| !key.is_empty())
                    .map(str::to_string)
                    .collect();
                return Some(Component::Guide {
                    game,
                    version,
                    page,
                    path,
                });
            }
            "menu" => {
                let prompt_key = key_of(parts.next()?);
                // Several menus in one message need distinct ids: a menu's row may follow.
                let row = parts.next();
                if parts.next().is_some() || row.is_some_and(|row| row.parse::<u8>().is_err()) {
                    return None;
                }
                return Some(Component::Choose {
                    game,
                    version,
                    prompt_key,
                });
            }
            _ => {}
        }
        let row = parts.next();
        let takes_number = matches!(kind, "choose" | "piece" | "page");
        if parts.next().is_some() || (row.is_some() && (!takes_number || row?.parse::<u8>().is_err())) {
            return None;
        }
        match kind {
            "page" => Some(Component::Page {
                game,
                version,
                page: row?.parse().ok()?,
            }),
            "choose" => Some(Component::Choose {
                game,
                version,
                prompt_key: None,
            }),
            "piece" => Some(Component::Piece { game, version }),
            "writelist" => Some(Component::WriteList { game, version }),
            "listform" => Some(Component::ListForm { game, version }),
            "drawlist" => Some(Component::DrawList { game, version }),
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
                game: GameId::new(i64::MAX),
                version: i64::MAX,
            };
            let id = component.custom_id();
            assert!(id.len() <= CUSTOM_ID_LIMIT, "{id}");
            assert_eq!(Component::parse(&id), Some(component));
        }
        let choose = Component::Choose {
            game: GameId::new(12),
            version: 7,
            prompt_key: None,
        };
        assert_eq!(choose.custom_id(), "arb:choose:12:7");
        assert_eq!(Component::parse("arb:choose:12:7"), Some(choose.clone()));
        assert_eq!(
            Component::parse("arb:choose:12:7:2"),
            Some(choose),
            "a second menu's row"
        );
        let pick = Component::Pick {
            game: GameId::new(5),
            version: 6,
            prompt_key: Some("0badf00d".into()),
            answer: Answer::Value("bomb:d2".into()),
        };
        assert_eq!(pick.custom_id(), "arb:answer:5:6:0badf00d:bomb:d2");
        assert_eq!(Component::parse("arb:answer:5:6:0badf00d:bomb:d2"), Some(pick));
        let square = Component::Pick {
            game: GameId::new(5),
            version: 6,
            prompt_key: None,
            answer: Answer::Value("Q@d4".into()),
        };
        assert_eq!(Component::parse(&square.custom_id()), Some(square));
        let menu = Component::Choose {
            game: GameId::new(5),
            version: 6,
            prompt_key: Some("12345678".into()),
        };
        assert_eq!(menu.custom_id(), "arb:menu:5:6:12345678");
        assert_eq!(
            Component::parse("arb:menu:5:6:12345678:3"),
            Some(menu),
            "a later menu's row"
        );
        let old = Component::Pick {
            game: GameId::new(5),
            version: 6,
            prompt_key: None,
            answer: Answer::Index(1),
        };
        assert_eq!(
            Component::parse("arb:pick:5:6:1"),
            Some(old),
            "buttons posted before still work"
        );
        assert_eq!(Component::parse("arb:pick:5:6"), None, "a pick names its answer");
        let page = Component::Page {
            game: GameId::new(5),
            version: 6,
            page: 2,
        };
        assert_eq!(Component::parse(&page.custom_id()), Some(page));
        let piece = Component::Piece {
            game: GameId::new(3),
            version: 4,
        };
        assert_eq!(piece.custom_id(), "arb:piece:3:4");
        let piece_again = piece.clone();
        let form = Component::ListForm {
            game: GameId::new(8),
            version: 2,
        };
        assert_eq!(form.custom_id(), "arb:listform:8:2");
        assert_eq!(Component::parse("arb:listform:8:2"), Some(form));
        assert_eq!(
            Component::parse("arb:writelist:8:2"),
            Some(Component::WriteList {
                game: GameId::new(8),
                version: 2
            })
        );
        assert_eq!(Component::parse("arb:writelist:8:2:1"), None);
        let drawn = Component::DrawList {
            game: GameId::new(8),
            version: 2,
        };
        assert_eq!(drawn.custom_id(), "arb:drawlist:8:2");
        assert_eq!(Component::parse("arb:drawlist:8:2"), Some(drawn));
        assert_eq!(Component::parse("arb:piece:3:4:1"), Some(piece_again));
    }

    #[test]
    fn a_guided_moves_steps_round_trip() {
        let start = Component::Guide {
            game: GameId::new(9),
            version: 4,
            page: 0,
            path: Vec::new(),
        };
        assert_eq!(start.custom_id(), "arb:go:9:4:0:");
        assert_eq!(Component::parse("arb:go:9:4:0:"), Some(start));
        let deep = Component::Guide {
            game: GameId::new(9),
            version: 4,
            page: 2,
            path: vec!["2.d1".into(), "d5".into(), "=3".into()],
        };
        assert_eq!(deep.custom_id(), "arb:go:9:4:2:2.d1/d5/=3");
        assert_eq!(Component::parse(&deep.custom_id()), Some(deep.clone()));
        assert_eq!(
            Component::parse("arb:go:9:4:2:2.d1/d5/=3:1"),
            Some(deep),
            "a later menu's row"
        );
        for broken in ["arb:go:9:4", "arb:go:9:4:x:", "arb:go:9:4:0:a:b", "arb:go:9:4:0:a:1:2"] {
            assert_eq!(Component::parse(broken), None, "{broken}");
        }
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
        assert_eq!(alice.as_str(), "discord:42");
        assert_eq!(discord_user(&alice), Some(discord::UserId::new(42)));
        assert_eq!(discord_user(&UserId::new("local:alice")), None);
        let place = location(discord::ChannelId::new(7));
        assert_eq!(channel(&place), Some(discord::ChannelId::new(7)));
        assert_eq!(channel(&Place::new("local")), None);
        assert_eq!(channel(&Place::new("discord:0")), None);
    }
}
