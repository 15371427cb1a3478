//! A game's state as its page reads it (JSON): names as the transport shows them, words without
//! markup, clocks as of the server's time for the page to count down.

use super::Web;
use super::opened::Opened;
use crate::arena::text::{Plain, Style, render};
use crate::arena::{PageRole, WatchClock, WatchState};
use crate::ids::{Place, UserId};
use crate::render::BoardImage;
use crate::render::words;
use crate::visible_text;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Words for a page: users by their names, the rest as plain text.
struct PageWords<'a> {
    names: &'a HashMap<UserId, String>,
    plain: Plain,
}

impl Style for PageWords<'_> {
    fn user_written(&self, text: &str) -> String {
        self.plain.user_written(text)
    }
    fn strong(&self, text: &str) -> String {
        self.plain.strong(text)
    }
    fn user(&self, user: &UserId) -> String {
        self.names
            .get(user)
            .cloned()
            .unwrap_or_else(|| visible_text::name_or(user.display_name(), user.as_str()))
    }
    fn command(&self, words: &str, _options: &[(&str, &str)]) -> String {
        format!("/{words}")
    }
    fn where_played(&self, place: &Place) -> String {
        self.plain.where_played(place)
    }
    fn time(&self, at_ms: i64) -> String {
        self.plain.time(at_ms)
    }
    fn block(&self, text: &str) -> String {
        self.plain.block(text)
    }
}

impl Web {
    /// The players' names as the transport shows them, with only what a reader can see (the
    /// page's board and overlay draw them too).
    pub(super) async fn player_names(&self, state: &WatchState) -> HashMap<UserId, String> {
        let mut names = HashMap::new();
        for user in state.players.iter().filter_map(|p| p.user.as_ref()) {
            if !names.contains_key(user) {
                let name = visible_text::name_or(&self.names.name(user).await, user.display_name());
                names.insert(user.clone(), name);
            }
        }
        names
    }

    /// The spectators' board image with the players' names as the transport shows them (the
    /// page's board and its words read the same names).
    pub(super) fn named_board(state: &WatchState, names: &HashMap<UserId, String>) -> BoardImage {
        let mut image = state.board.clone();
        for (name, player) in image.decor.player_names.iter_mut().zip(&state.players) {
            if let Some(user) = &player.user {
                *name = names.get(user).cloned();
            }
        }
        image
    }

    /// The state as a page's script reads it: a private page's adds what its holder may do.
    pub(super) async fn page_json(&self, opened: &Opened, state: &WatchState) -> Value {
        let mut json = self.state_json(&opened.base, state).await;
        match opened.role {
            Some(PageRole::Seat(seat)) => super::play::add_what_to_play(self, opened, state, seat, &mut json).await,
            Some(PageRole::Host) => super::play::add_what_to_host(state, &mut json),
            None => {}
        }
        json
    }

    /// The state as the page's script reads it (`base`: the page's address).
    pub(super) async fn state_json(&self, base: &str, state: &WatchState) -> Value {
        let names = self.player_names(state).await;
        let words = |text: &str| {
            render(
                text,
                &PageWords {
                    names: &names,
                    plain: Plain { now: Some(state.now) },
                },
            )
        };
        let players: Vec<Value> = state
            .players
            .iter()
            .map(|player| {
                json!({
                    "name": player.user.as_ref().and_then(|u| names.get(u)).cloned().unwrap_or_else(|| words(&player.label)),
                    "side": player.seat_name,
                    "to_act": player.to_act,
                    "clock": player.clock.map(clock_json),
                })
            })
            .collect();
        json!({
            "game": state.game.get(),
            "version": state.version,
            "variant": state.variant,
            "players": players,
            "status": words(&state.status),
            "moves": state.moves,
            "notes": state.notes.iter().map(|n| words(n)).collect::<Vec<_>>(),
            "recent": state.recent.iter().map(|n| words(n)).collect::<Vec<_>>(),
            "finished": state.finished,
            "is_match": state.is_match,
            "now": state.now,
            "board": format!("{base}/board.svg?v={}", state.version),
            // The board in words, for screen readers: from the spectators' image, as drawn.
            "board_words": words::describe(&Web::named_board(state, &names)),
        })
    }

    /// What was said in the game's place, as a page shows it (its first line, the game's
    /// number and name, left out: the page says that already).
    pub(super) async fn news_lines(&self, state: &WatchState, said: &[String]) -> Vec<String> {
        let names = self.player_names(state).await;
        said.iter()
            .map(|text| {
                let text = render(
                    text,
                    &PageWords {
                        names: &names,
                        plain: Plain { now: Some(state.now) },
                    },
                );
                let body = match text.split_once('\n') {
                    Some((first, rest)) if first.starts_with("Game #") => rest.to_string(),
                    _ => text,
                };
                body.trim().to_string()
            })
            .filter(|line| !line.is_empty())
            .collect()
    }
}

fn clock_json(clock: WatchClock) -> Value {
    json!({
        "normal_ms": clock.normal_ms,
        "reserve_ms": clock.reserve_ms,
        "has_reserve": clock.has_reserve,
        "running": clock.running,
    })
}
