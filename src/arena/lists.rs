//! Players' own piece lists (Pick-the-team version two, Patch, Easy Patch): submitting one to a
//! game with a line-by-line answer and a sheet of the accepted pieces, saving lists to use again,
//! and showing a game's pieces once the lists are revealed.
//!
//! A list that breaks a rule changes nothing: the player reads why, corrects it and sends it
//! again. The engine checks the list again when it is played, so no other path can slip one in.

use super::caller::Caller;
use super::text::{block, command, plural, strong, user_written};
use super::{ArenaError, Effects, Lists, Reply};
use crate::ids::{GameId, UserId};
use crate::model::{GameRow, GameStatus, SavedList};
use crate::render::{BoardImage, Decor};
use arbiter_engine::diagram;
use arbiter_engine::lists::{self, ListKind, ListPiece, Review};
use arbiter_engine::variants::own_pieces::{self, OwnPiecesGame};
use arbiter_engine::{Game, Phase, Seat, Viewer};

/// The longest list text read (a form holds 4,000 characters; a file may hold a little more).
pub const MOST_LIST_BYTES: usize = 8_000;
/// How many lists a player may keep.
pub const MOST_SAVED_LISTS: usize = 25;
const LONGEST_LIST_NAME: usize = 40;

/// Where a submitted list comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListSource {
    /// Written (in a form, a command, or a file): one piece a line.
    Text(String),
    /// One the player saved under this name.
    Saved(String),
    /// One drawn for the player, from the pieces the computer brings (for a player who would
    /// rather click than write): always a list the game's rules accept.
    Drawn,
}

impl Lists<'_> {
    /// Submits `user`'s list to game `id` (or to their one game waiting for a list): each line's
    /// verdict and a sheet of the accepted pieces, privately; the list is recorded only when it
    /// keeps every rule.
    pub async fn submit(self, id: Option<GameId>, user: &UserId, source: ListSource) -> Result<Effects, ArenaError> {
        let id = self.list_game(id, user).await?;
        let game = self.load(id).await?;
        super::require_active(&game)?;
        let seat = game.seat_of(user).ok_or(ArenaError::NotAPlayer(id))?;
        let Some(kind) = game.state.list_kind() else {
            return Err(ArenaError::Rejected(format!(
                "game #{id} is {}: its players bring no lists",
                game.setup.variant.name()
            )));
        };
        if !awaits_list(&game, seat) {
            return Err(ArenaError::Rejected(format!(
                "the lists of game #{id} are locked: both are in"
            )));
        }
        let text = match source {
            ListSource::Text(text) => text,
            ListSource::Saved(name) => self.saved_list(user, &name).await?.body,
            ListSource::Drawn => drawn_list(kind),
        };
        if text.len() > MOST_LIST_BYTES {
            return Err(ArenaError::Rejected(format!(
                "that list is {} characters long; a list of {} fits in far less (at most {MOST_LIST_BYTES})",
                text.len(),
                kind.length()
            )));
        }
        let review = lists::review(&text, kind);
        let sheet = sheet_image(&review, kind);
        let Some(pieces) = review.pieces() else {
            return Ok(Effects {
                reply: Some(Reply {
                    text: format!(
                        "Your list for game #{id} is not accepted; nothing was recorded. Correct the lines \
                         marked ✗ and send it again.\n{}",
                        review.explain()
                    ),
                    board: sheet,
                }),
                game: Some(id),
                ..Default::default()
            });
        };
        // While the lists are written, a seat is to act until its list is in.
        let is_last = !game.state.to_act().contains(&seat.other());
        let mut effects = self
            .play()
            .act(id, user, &OwnPiecesGame::list_notation(&pieces))
            .await?;
        let status = if is_last {
            "Both lists are in: they are locked and shown to everyone."
        } else {
            "Only you can see it until both lists are in, and you can change it until then."
        };
        effects.reply = Some(Reply {
            text: format!("Your list for game #{id} is in. {status}\n{}", review.explain()),
            board: sheet,
        });
        Ok(effects)
    }

    /// The game a list is for: the one named, or the user's one game waiting for their list.
    async fn list_game(self, id: Option<GameId>, user: &UserId) -> Result<GameId, ArenaError> {
        if let Some(id) = id {
            return Ok(id);
        }
        let games = self.store.games_of(user, &[GameStatus::Active]).await?;
        let waiting: Vec<GameId> = games
            .iter()
            .filter(|game| game.seat_of(user).is_some_and(|seat| awaits_list(game, seat)))
            .map(|game| game.id)
            .collect();
        let locked: Vec<String> = games
            .iter()
            .filter(|game| game.state.list_kind().is_some() && !waiting.contains(&game.id))
            .map(|game| format!("#{}", game.id))
            .collect();
        match waiting.as_slice() {
            [] if !locked.is_empty() => Err(ArenaError::Rejected(format!(
                "the lists of your game {} are locked: both are in",
                locked.join(", ")
            ))),
            [] => Err(ArenaError::Rejected(
                "you have no game waiting for a list of pieces; challenge someone to pick-the-team-2, patch or easy-patch"
                    .into(),
            )),
            [one] => Ok(*one),
            several => Err(ArenaError::WhichGame(several.to_vec())),
        }
    }

    /// Saves a list under a name, once every line reads as a piece (the rules of a game are
    /// checked when it is submitted to one).
    pub async fn save(self, user: &UserId, name: &str, text: &str) -> Result<Effects, ArenaError> {
        let name = name.trim();
        if name.is_empty()
            || name.chars().count() > LONGEST_LIST_NAME
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || " -_".contains(c))
        {
            return Err(ArenaError::Rejected(format!(
                "a list's name is 1 to {LONGEST_LIST_NAME} letters, digits, spaces, `-` or `_`"
            )));
        }
        if text.len() > MOST_LIST_BYTES {
            return Err(ArenaError::Rejected(format!(
                "that list is {} characters long; at most {MOST_LIST_BYTES}",
                text.len()
            )));
        }
        let lines = lists::read_list(text).map_err(ArenaError::Rejected)?;
        let unread: Vec<String> = lines
            .iter()
            .filter_map(|line| line.piece.as_ref().err().map(|why| format!("{}. ✗ {why}", line.number)))
            .collect();
        if lines.is_empty() || !unread.is_empty() {
            return Err(ArenaError::Rejected(format!(
                "nothing was saved: every line must be a piece.\n{}",
                if lines.is_empty() {
                    "The list is empty.".to_string()
                } else {
                    unread.join("\n")
                }
            )));
        }
        let saved = self.store.saved_lists(user).await?;
        // Names are found whatever their case, so a name in another case replaces the list.
        let existing = saved.iter().find(|list| list.name.eq_ignore_ascii_case(name));
        let name = existing.map_or(name, |list| list.name.as_str());
        if saved.len() >= MOST_SAVED_LISTS && existing.is_none() {
            return Err(ArenaError::Rejected(format!(
                "you have {MOST_SAVED_LISTS} saved lists already; delete one first"
            )));
        }
        let pieces: Vec<ListPiece> = lines.into_iter().filter_map(|line| line.piece.ok()).collect();
        let body: Vec<String> = pieces.iter().map(ListPiece::to_string).collect();
        self.store
            .save_list(
                user,
                &SavedList {
                    name: name.to_string(),
                    body: body.join("\n"),
                    saved_at: self.now(),
                },
            )
            .await?;
        Ok(Effects::reply(format!(
            "Saved your list {} ({} piece{}). Send it to a game with {}.",
            strong(&user_written(name)),
            pieces.len(),
            plural(pieces.len()),
            command("list", &[("saved", name)])
        )))
    }

    async fn saved_list(self, user: &UserId, name: &str) -> Result<SavedList, ArenaError> {
        let saved = self.store.saved_lists(user).await?;
        let names: Vec<String> = saved.iter().map(|list| list.name.clone()).collect();
        saved
            .into_iter()
            .find(|list| list.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                ArenaError::Rejected(if names.is_empty() {
                    format!("you have no saved lists; save one with {}", command("lists save", &[]))
                } else {
                    format!(
                        "you have no list called \"{}\"; yours: {}",
                        user_written(name.trim()),
                        user_written(&names.join(", "))
                    )
                })
            })
    }

    /// A user's saved lists by name, or one of them in full.
    pub async fn show(self, user: &UserId, name: Option<&str>) -> Result<Effects, ArenaError> {
        if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
            let list = self.saved_list(user, name).await?;
            return Ok(Effects::reply(format!(
                "{} ({} piece{}):{}",
                strong(&user_written(&list.name)),
                list.body.lines().count(),
                plural(list.body.lines().count()),
                block(&list.body)
            )));
        }
        let saved = self.store.saved_lists(user).await?;
        if saved.is_empty() {
            return Ok(Effects::reply(format!(
                "You have no saved lists. Save one with {}, giving it a name and its pieces.",
                command("lists save", &[])
            )));
        }
        let lines: Vec<String> = saved
            .iter()
            .map(|list| {
                let count = list.body.lines().count();
                format!("{}: {count} piece{}", strong(&user_written(&list.name)), plural(count))
            })
            .collect();
        Ok(Effects::reply(format!("Your saved lists:\n{}", lines.join("\n"))))
    }

    pub async fn delete(self, user: &UserId, name: &str) -> Result<Effects, ArenaError> {
        let list = self.saved_list(user, name).await?;
        self.store.delete_list(user, &list.name).await?;
        Ok(Effects::reply(format!(
            "Deleted your list {}.",
            strong(&user_written(&list.name))
        )))
    }
}

impl super::Arena {
    /// The rules of game `id` as `user` may read them: its variant's page (unless `with_page` is
    /// false, for a caller that shows the page itself) and, in games of players' lists once they
    /// are revealed, every piece of the game with its Betza and a sheet of their moves.
    pub async fn game_rules(&self, id: GameId, caller: &Caller, with_page: bool) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        let game = self.load(id).await?;
        super::caller::may_look_at(&game, caller)?;
        let mut effects = if with_page {
            self.rules(game.setup.variant)
        } else {
            Effects::reply(format!(
                "{} (the rules: {})",
                game.setup.variant.name(),
                command("rules", &[])
            ))
        };
        let view = game.state.view(super::viewer_of(&game, user));
        let Some(kind) = game.state.list_kind() else {
            return Ok(effects);
        };
        let listed: Vec<ListPiece> = view
            .pieces
            .iter()
            .filter(|piece| piece.id.starts_with(own_pieces::LISTED_PIECE_ID))
            .map(|piece| ListPiece {
                name: piece.name.to_string(),
                symbol: piece.symbol.to_string(),
                betza: piece.betza.to_string(),
                is_royal: piece.is_royal,
                is_pawn: piece.is_pawn,
            })
            .collect();
        let reply = effects.reply.get_or_insert_with(|| Reply {
            text: String::new(),
            board: None,
        });
        if listed.is_empty() {
            reply
                .text
                .push_str(&format!("\n\nGame #{id}: the lists are not all in yet."));
            return Ok(effects);
        }
        let lines: Vec<String> = listed.iter().map(ListPiece::to_string).collect();
        reply.text.push_str(&format!(
            "\n\n{}{}",
            strong(&format!("The pieces of game #{id}")),
            block(&lines.join("\n"))
        ));
        let review = Review::of(&listed, kind);
        reply.board = sheet_image(&review, kind);
        Ok(effects)
    }
}

/// Whether `seat` may send its list to `game` now: the lists are being written and its own is
/// not locked.
fn awaits_list(game: &GameRow, seat: Seat) -> bool {
    game.state.list_kind().is_some()
        && game.state.phase() == Phase::SealedChoice
        && (game.state.to_act().contains(&seat) || game.state.may_revise(seat))
}

/// The sheet of a list's accepted pieces: each on its own diagram, captioned with its name,
/// symbol and how many squares it reaches on an empty board of the game.
pub(crate) fn sheet_image(review: &Review, kind: ListKind) -> Option<BoardImage> {
    let pieces: Vec<_> = review
        .report
        .pieces
        .iter()
        .filter(|report| report.problems.is_empty())
        .enumerate()
        .map(|(i, report)| {
            let piece = &report.piece;
            let squares = report.empty_board.squares;
            (
                piece.def(&format!("sheet-{i}")),
                format!("{} ({}) · {squares}", piece.name, piece.symbol),
            )
        })
        .collect();
    if pieces.is_empty() {
        return None;
    }
    let mut view = diagram::sheet(&pieces).ok()?;
    view.variant = format!("sheet:{}", kind.id());
    view.viewer = Viewer::Spectator;
    Some(BoardImage {
        view,
        decor: Decor {
            without_players: true,
            lines: vec![format!(
                "Each piece alone on a 9x9 board: dots where it moves, rings where it captures. The number is \
                 its count on an empty {}x{} board.",
                kind.size().files,
                kind.size().ranks
            )],
            ..Decor::default()
        },
    })
}

/// A list for `kind` drawn at random, one piece a line, as a player would write it.
fn drawn_list(kind: ListKind) -> String {
    let pieces = arbiter_engine::ai::lists::compose(kind, rand::random());
    pieces.iter().map(ListPiece::to_string).collect::<Vec<_>>().join("\n")
}
