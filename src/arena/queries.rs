//! Requests that only look: a user's games, one game, the legal actions, the rules.

use super::caller::{Caller, may_look_at, require_game_here};
use super::messages::{board_image_of, name, player_label, status_line};
use super::{Arena, ArenaError, DirectMessage, Effects, Play, Players, PrivateText, Reply};
use crate::clock::TimeControl;
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::model::{GameRow, GameStatus, Reminders};
use crate::render::words;
use arbiter_engine::{Game, Seat, VariantId, Viewer};

/// One line of a user's game list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub variant: VariantId,
    pub location: Place,
    pub status: GameStatus,
    pub opponent: UserId,
    pub is_your_turn: bool,
    /// When the current turn (or the challenge) began, in Unix milliseconds.
    pub since: i64,
    /// The game's time control, if timed.
    pub control: Option<TimeControl>,
    /// When the time of the player to act runs out, if it runs.
    pub flag_at: Option<i64>,
}

/// What anyone may know of a game: see [`Arena::facts`].
#[derive(Clone, Debug)]
pub struct GameFacts {
    pub id: GameId,
    pub variant: VariantId,
    pub location: Place,
    pub version: i64,
    pub status: GameStatus,
    /// Whether its players play with pieces of their own (its rules are theirs, not a page's).
    pub brings_own_pieces: bool,
    pub challenger: UserId,
    pub opponent: UserId,
    /// The first and second seat's players once the challenge is accepted.
    pub seated: Option<[UserId; 2]>,
    /// A Death Match's host.
    pub host: Option<UserId>,
    /// The server it belongs to; none for a game of no server.
    pub server: Option<ServerId>,
}

impl GameFacts {
    fn of(game: GameRow) -> GameFacts {
        GameFacts {
            id: game.id,
            variant: game.setup.variant,
            location: game.location,
            version: game.version,
            status: game.status,
            brings_own_pieces: game.state.list_kind().is_some(),
            challenger: game.challenger,
            opponent: game.opponent,
            seated: game.players,
            host: game.deathmatch.map(|deathmatch| deathmatch.host),
            server: game.server,
        }
    }
}

impl GameSummary {
    /// Where the game stands for the user: "your turn", "challenge sent", ...
    pub fn state_text(&self) -> &'static str {
        match (self.status, self.is_your_turn) {
            (GameStatus::Challenge, true) => "challenge waiting for your answer",
            (GameStatus::Challenge, false) => "challenge sent",
            (_, true) => "your turn",
            (_, false) => "their turn",
        }
    }
}

/// The view a user may have of a game: their seat's, or a spectator's (which shows a finished
/// game's secrets as the game reveals them).
pub fn viewer_of(game: &GameRow, user: &UserId) -> Viewer {
    match game.seat_of(user) {
        Some(seat) => Viewer::Seat(seat),
        None => Viewer::Spectator,
    }
}

impl Arena {
    /// The user's open challenges and running games, the ones waiting for them first.
    pub async fn games(&self, user: &UserId) -> Result<Vec<GameSummary>, ArenaError> {
        let rows = self
            .store
            .games_of(user, &[GameStatus::Challenge, GameStatus::Active])
            .await?;
        let mut summaries: Vec<GameSummary> = rows
            .iter()
            .map(|game| {
                let seat = game.seat_of(user);
                let is_your_turn = match (game.status, seat) {
                    (GameStatus::Challenge, _) => &game.opponent == user,
                    (_, Some(seat)) => game.state.to_act().contains(&seat),
                    _ => false,
                };
                let opponent = if &game.challenger == user {
                    game.opponent.clone()
                } else {
                    game.challenger.clone()
                };
                GameSummary {
                    id: game.id,
                    variant: game.setup.variant,
                    location: game.location.clone(),
                    status: game.status,
                    opponent,
                    is_your_turn,
                    since: game.turn_since,
                    control: game.clock.control(Seat::First),
                    flag_at: game
                        .clock
                        .running()
                        .into_iter()
                        .filter_map(|seat| game.clock.flag_at(seat))
                        .min(),
                }
            })
            .collect();
        summaries.sort_by_key(|s| (!s.is_your_turn, s.since));
        Ok(summaries)
    }

    /// The game a command means: the one `named`, else the one open at `here` (a game's own
    /// thread), else the user's only open game that `fits`.
    pub async fn pick_game(
        &self,
        user: &UserId,
        here: Option<&Place>,
        named: Option<GameId>,
        fits: impl Fn(&GameSummary) -> bool,
    ) -> Result<GameId, ArenaError> {
        if let Some(id) = named {
            return Ok(id);
        }
        if let Some(here) = here
            && let Some(id) = self.game_at(here).await?
        {
            return Ok(id);
        }
        let mine: Vec<GameId> = self
            .games(user)
            .await?
            .into_iter()
            .filter(|g| fits(g))
            .map(|g| g.id)
            .collect();
        match mine.as_slice() {
            [id] => Ok(*id),
            [] => Err(ArenaError::NoGameHere),
            several => Err(ArenaError::WhichGame(several.to_vec())),
        }
    }

    /// The seat a player means by `word`: `first` or `second`, or the name the game gives it
    /// ("white", "red", "a"), in any case.
    pub async fn seat_named(&self, id: GameId, word: &str) -> Result<Option<Seat>, ArenaError> {
        let game = self.load(id).await?;
        let names = game.state.view(Viewer::Spectator).seat_names;
        let word = word.trim().to_ascii_lowercase();
        Ok(Seat::BOTH.into_iter().find(|seat| {
            let ordinal = if *seat == Seat::First { "first" } else { "second" };
            word == ordinal || word == names[seat.index()].to_ascii_lowercase()
        }))
    }

    /// The game being played at `location` (a game's own thread), when exactly one is open there
    /// (several, started in a channel, need the game named); in a thread whose game has ended,
    /// that game, so it can still be looked at and exported there.
    pub async fn game_at(&self, location: &Place) -> Result<Option<GameId>, ArenaError> {
        let open = self
            .store
            .games_at(location, &[GameStatus::Active, GameStatus::Challenge])
            .await?;
        Ok(match open.as_slice() {
            [only] => Some(only.id),
            [] => {
                let ended = self.store.games_at(location, &[GameStatus::Finished]).await?;
                match ended.as_slice() {
                    [only] => Some(only.id),
                    _ => None,
                }
            }
            _ => None,
        })
    }

    /// What anyone may know of a game (none for a game that does not exist): who plays it,
    /// where, and the version its latest posts were made at. Nothing of its secret state.
    pub async fn facts(&self, id: GameId) -> Result<Option<GameFacts>, ArenaError> {
        Ok(self.store.game(id).await?.map(GameFacts::of))
    }

    /// What `caller` may know of game `id`, for a transport about to show something of it (its
    /// rules, its record's names): refused as a game not here (`UnknownGame`) whether it is
    /// another server's, which only its players may look at from elsewhere, or nobody's.
    pub async fn facts_for(&self, id: GameId, caller: &Caller) -> Result<GameFacts, ArenaError> {
        let game = self.store.game(id).await?.ok_or(ArenaError::UnknownGame(id))?;
        may_look_at(&game, caller)?;
        Ok(GameFacts::of(game))
    }

    /// Refuses game `id` unless it is of `caller`'s server (or of none), whoever asks, its
    /// players too: for requests that act on it as the server's, such as a host's. Another
    /// server's game is refused as a game not here (`UnknownGame`), as one that exists nowhere.
    pub async fn require_game_on_server(&self, id: GameId, caller: &Caller) -> Result<(), ArenaError> {
        let game = self.store.game(id).await?.ok_or(ArenaError::UnknownGame(id))?;
        require_game_here(&game, caller)
    }

    /// The games at a place that are not over yet (challenges and games in play).
    pub async fn games_in_progress_at(&self, place: &Place) -> Result<Vec<GameId>, ArenaError> {
        let games = self
            .store
            .games_at(place, &[GameStatus::Challenge, GameStatus::Active])
            .await?;
        Ok(games.into_iter().map(|game| game.id).collect())
    }

    /// The user's most recently created game that has ended, for commands that look back
    /// (show, export) when no game is named and none is open.
    pub async fn last_finished_game(&self, user: &UserId) -> Result<Option<GameId>, ArenaError> {
        let finished = self.store.games_of(user, &[GameStatus::Finished]).await?;
        Ok(finished.first().map(|g| g.id))
    }

    /// The board, move list and state of a game, as the asker may see it.
    pub async fn show(&self, id: GameId, caller: &Caller) -> Result<Effects, ArenaError> {
        self.show_as(id, caller, false).await
    }

    /// [`Arena::show`], or `in_words`: the board described in words instead of drawn (what a
    /// screen reader reads), with the moves in words, from the same view (the asker's own
    /// secrets included: the answer is theirs alone).
    pub async fn show_as(&self, id: GameId, caller: &Caller, in_words: bool) -> Result<Effects, ArenaError> {
        let user = &caller.user;
        let game = self.load(id).await?;
        may_look_at(&game, caller)?;
        let view = game.state.view(viewer_of(&game, user));
        let mut text = format!("Game #{} · {}\n", game.id, game.setup.variant.name());
        if game.players.is_some() {
            text.push_str(&format!(
                "{} vs {}\n",
                player_label(&game, &view, Seat::First),
                player_label(&game, &view, Seat::Second)
            ));
        } else {
            text.push_str(&format!(
                "{} challenged {}\n",
                name(&game.challenger),
                name(&game.opponent)
            ));
        }
        if in_words {
            let mut board = board_image_of(&game, view);
            super::clock_posts::show_clocks(&game, self.now(), &mut String::new(), Some(&mut board));
            text.push_str(&board_in_words(board));
            return Ok(Effects {
                reply: Some(Reply { text, board: None }),
                game: Some(id),
                ..Default::default()
            });
        }
        // Games of several boards list each board's moves in their notes.
        if !view.record.is_empty() && view.boards.len() == 1 {
            text.push_str(&move_list(&view));
            text.push('\n');
        }
        text.push_str(&status_line(&game, &view));
        for note in &view.notes {
            text.push('\n');
            text.push_str(note);
        }
        let mut board = board_image_of(&game, view);
        super::clock_posts::show_clocks(&game, self.now(), &mut text, Some(&mut board));
        Ok(Effects {
            reply: Some(Reply {
                text,
                board: Some(board),
            }),
            game: Some(id),
            ..Default::default()
        })
    }

    pub fn rules(&self, variant: VariantId) -> Effects {
        Effects::reply(variant.rules_page())
    }
}

impl Players<'_> {
    /// How `user` is reminded of games waiting for them; `choice` changes it.
    pub async fn reminders(self, user: &UserId, choice: Option<Reminders>) -> Result<Effects, ArenaError> {
        let mut settings = self.store.settings(user).await?;
        let text = match choice {
            Some(choice) => {
                settings.reminders = choice;
                self.store.save_settings(user, &settings).await?;
                format!(
                    "Done: games waiting for you will remind you with {}.",
                    choice.describe()
                )
            }
            None => format!(
                "Games waiting for you remind you with {} (after a day, then every two days; timed games at half your time and near its end). Choose thread, dm or off.",
                settings.reminders.describe()
            ),
        };
        Ok(Effects::reply(text))
    }

    /// The role whose members host on `server` (its transport's id for it), if the server chose
    /// one.
    pub async fn host_role(self, server: &ServerId) -> Result<Option<String>, ArenaError> {
        Ok(self.store.server_settings(server).await?.host_role)
    }

    /// Chooses the role whose members host on `server` (none: back to the bot's default). The
    /// transport lets only those who manage the server do it; `role_name` is how it shows it.
    pub async fn set_host_role(
        self,
        server: &ServerId,
        role: Option<String>,
        role_name: &str,
    ) -> Result<Effects, ArenaError> {
        let mut settings = self.store.server_settings(server).await?;
        settings.host_role = role.clone();
        self.store.save_server_settings(server, &settings).await?;
        Ok(Effects::reply(match role {
            Some(_) => format!(
                "Done: members with {role_name} now host Death Matches and tournaments on this server \
                 (as do members who can manage it)."
            ),
            None => "Done: this server's host role is cleared; members who can manage it host (and the bot's \
                     default role, if it has one)."
                .to_string(),
        }))
    }
}

impl Play<'_> {
    /// The secret choice `user` has to make in a game now, as the one direct message of the
    /// effects (the same prompt a DM carries), for transports that show it in place of a DM.
    pub async fn private_prompt(self, id: GameId, user: &UserId) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        super::require_active(&game)?;
        let seat = game.seat_of(user).ok_or(ArenaError::NotAPlayer(id))?;
        // What they have to answer, else the news the game has for them alone.
        let news = || {
            let notice = game.state.view(Viewer::Seat(seat)).notice?;
            let mut news = super::messages::private_notice(&game, seat, notice)?;
            news.board = Some(board_image_of(&game, game.state.view(Viewer::Seat(seat))));
            Some(news)
        };
        let prompt = super::messages::private_prompt(&game, seat)
            .or_else(news)
            .ok_or_else(|| {
                ArenaError::Rejected(format!("you have nothing to answer privately in game #{id} right now"))
            })?;
        Ok(Effects {
            direct_messages: vec![prompt],
            game: Some(id),
            version: Some(game.version),
            ..Default::default()
        })
    }

    /// Where `user` may place a `piece` (a type's id) now, as a private prompt with their own
    /// board dotted on those squares and a menu of the placements: the second step of choosing a
    /// piece from a post's menu. `version` is the post's: a menu from an older post is refused.
    pub async fn placements(self, id: GameId, user: &UserId, piece: &str, version: i64) -> Result<Effects, ArenaError> {
        let game = self.load(id).await?;
        super::require_active(&game)?;
        let seat = game.seat_of(user).ok_or(ArenaError::NotAPlayer(id))?;
        if version != game.version {
            return Err(ArenaError::Stale(id));
        }
        if !game.state.to_act().contains(&seat) {
            return Err(ArenaError::NotYourTurn(id));
        }
        let view = game.state.view(Viewer::Seat(seat));
        let name = view
            .pieces
            .iter()
            .find(|p| *p.id == *piece)
            .map(|p| format!("{} ({})", p.name, p.symbol));
        let squares = super::messages::placements_of(&game, seat, piece);
        let (Some(name), false) = (name, squares.is_empty()) else {
            return Err(ArenaError::Rejected(
                "that piece cannot be placed now; pick another from the menu".into(),
            ));
        };
        let mut board = board_image_of(&game, view);
        board.decor.dots = squares.iter().map(|(square, _)| *square).collect();
        let text = format!(
            "Game #{id} · where does your {name} go? The dots mark the {} square{} it may take.",
            squares.len(),
            if squares.len() == 1 { "" } else { "s" }
        );
        Ok(Effects {
            direct_messages: vec![DirectMessage {
                to: user.clone(),
                game: id,
                text: PrivateText::new(text),
                board: Some(board),
                choices: squares.into_iter().map(|(_, text)| text).collect(),
                menu_hint: "Choose a square".to_string(),
                asks_for_list: false,
                is_reminder: false,
                prompt_key: None,
            }],
            game: Some(id),
            version: Some(game.version),
            ..Default::default()
        })
    }

    /// The actions `user` may take now, in notation (for autocomplete and menus).
    pub async fn legal_actions(self, id: GameId, user: &UserId) -> Result<Vec<String>, ArenaError> {
        let game = self.load(id).await?;
        let Some(seat) = game.seat_of(user).filter(|_| game.status == GameStatus::Active) else {
            return Ok(Vec::new());
        };
        Ok(game
            .state
            .noted_actions(seat)
            .into_iter()
            .map(|(_, text)| text)
            .collect())
    }
}

/// The most the moves in words take of an answer in words: with the board's description, the
/// answer stays within a message Discord takes whole (2,000 characters).
const MOST_MOVES_IN_WORDS_CHARS: usize = 700;

/// A board in words and its moves in words. Shown as written, never as a transport's markup:
/// the names of pieces in games of players' own lists are theirs. Players are named by their
/// seats here, since the answer's first lines name who plays each.
fn board_in_words(mut board: crate::render::BoardImage) -> String {
    board.decor.player_names = [None, None];
    let description = words::describe(&board);
    let moves = words::moves_in_words(&board.view, MOST_MOVES_IN_WORDS_CHARS);
    format!(
        "{}\n{}",
        super::text::user_written(&description),
        super::text::user_written(&moves)
    )
}

/// "1. e4 e5 2. Nf3" for two-seat alternation; a number starts wherever the first seat acts after
/// the second (so a block of picks by one seat stays under one number). Entries are already
/// redacted for the viewer.
pub fn move_list(view: &arbiter_engine::View) -> String {
    let mut out = String::new();
    let mut number = 0;
    // Steps of a game's protocol (answers to proposals) are not moves.
    let moves: Vec<&arbiter_engine::view::RecordEntry> = view.record.iter().filter(|e| e.is_move).collect();
    for (i, entry) in moves.iter().enumerate() {
        let follows_first = i > 0 && moves[i - 1].seat == Seat::First;
        let starts_pair = (entry.seat == Seat::First && !follows_first) || i == 0;
        if starts_pair {
            number += 1;
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("{number}."));
            if entry.seat == Seat::Second {
                out.push_str("..");
            }
        }
        out.push(' ');
        out.push_str(&entry.text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::move_list;
    use arbiter_engine::{AnyGame, Game, VariantId, Viewer};

    fn played(id: VariantId, texts: &str) -> AnyGame {
        let mut game = AnyGame::new(id);
        for text in texts.split_whitespace() {
            let seat = game.to_act()[0];
            let action = game.parse_action(seat, text).unwrap();
            game.apply(seat, &action).unwrap();
        }
        game
    }

    #[test]
    fn moves_are_numbered_in_pairs_and_a_block_of_picks_stays_under_one_number() {
        let chess = played(VariantId::Chess, "e4 e5 Nf3");
        assert_eq!(move_list(&chess.view(Viewer::Spectator)), "1. e4 e5 2. Nf3");
        let picks = played(VariantId::PickTheTeam, "K@e1 RN@f10 CN@a10 Q@b1 PA@a1 W@b10");
        assert_eq!(
            move_list(&picks.view(Viewer::Spectator)),
            "1. K@e1 RN@f10 CN@a10 2. Q@b1 PA@a1 W@b10"
        );
    }
}
