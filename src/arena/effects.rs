//! What the arena asks a transport to do. Effects are data, so every transport and every test
//! uses the same core and performs them its own way.

use crate::render::BoardImage;
use crate::store::{GameId, UserId};

/// A message for everyone in the game's place (its thread or channel).
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    pub game: GameId,
    pub location: String,
    pub text: String,
    /// The board to show with it: always drawn from a spectator's view.
    pub board: Option<BoardImage>,
    /// Users to ping (the players to act).
    pub mentions: Vec<UserId>,
}

/// A private answer to whoever made the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub text: String,
    /// The board as the caller may see it (their own view).
    pub board: Option<BoardImage>,
}

/// A direct message, for secret choices and private boards.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectMessage {
    pub to: UserId,
    pub game: GameId,
    pub text: String,
    /// The board from the recipient's own view.
    pub board: Option<BoardImage>,
    /// The actions to offer as buttons or a menu, in notation.
    pub choices: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effects {
    pub posts: Vec<Post>,
    pub reply: Option<Reply>,
    pub direct_messages: Vec<DirectMessage>,
    /// The game the request created or changed.
    pub game: Option<GameId>,
}

impl Effects {
    pub fn reply(text: impl Into<String>) -> Effects {
        Effects {
            reply: Some(Reply {
                text: text.into(),
                board: None,
            }),
            ..Default::default()
        }
    }
}
