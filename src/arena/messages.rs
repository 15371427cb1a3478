//! The words and boards the arena sends. Everything public is built from a spectator's view, and
//! everything private from the recipient's own view, so secrets cannot leak through a message.

use super::effects::{DirectMessage, Post};
use crate::render::{BoardImage, Decor};
use crate::store::{GameRow, UserId};
use arbiter_engine::{Game, Outcome, Phase, Seat, View, Viewer};

/// How a user is named in messages: as their transport writes a mention.
pub fn name(user: &UserId) -> String {
    user.mention()
}

/// The name the game gives a seat ("White", "Red", ...).
pub fn seat_name(view: &View, seat: Seat) -> &str {
    &view.seat_names[seat.index()]
}

/// "alice (White)".
pub fn player_label(game: &GameRow, view: &View, seat: Seat) -> String {
    match game.player(seat) {
        Some(user) => format!("{} ({})", name(user), seat_name(view, seat)),
        None => seat_name(view, seat).to_string(),
    }
}

/// The board image of `game` as `viewer` may see it, with the players' names.
pub fn board_image(game: &GameRow, viewer: Viewer) -> BoardImage {
    board_image_of(game, game.state.view(viewer))
}

/// The board image of a view already taken of `game`.
pub fn board_image_of(game: &GameRow, view: View) -> BoardImage {
    let player_names = [Seat::White, Seat::Black].map(|seat| game.player(seat).map(|u| u.display_name().to_string()));
    BoardImage {
        view,
        decor: Decor {
            player_names,
            ..Decor::default()
        },
    }
}

/// Whose turn it is, or how the game ended.
pub fn status_line(game: &GameRow, view: &View) -> String {
    if let Some(outcome) = &view.outcome {
        return result_line(game, view, outcome);
    }
    let labels: Vec<String> = view.to_act.iter().map(|&s| player_label(game, view, s)).collect();
    match view.phase {
        Phase::SealedChoice if labels.len() > 1 => format!("Waiting for secret choices from {}.", labels.join(" and ")),
        Phase::SealedChoice => format!("Waiting for {}'s secret choice.", labels.join(", ")),
        Phase::Setup => format!("{} to place.", labels.join(", ")),
        _ => format!("{} to move.", labels.join(", ")),
    }
}

/// "1-0 · alice (White) wins by checkmate."
pub fn result_line(game: &GameRow, view: &View, outcome: &Outcome) -> String {
    let how = outcome.reason.describe();
    match outcome.winner {
        _ if outcome.reason == arbiter_engine::EndReason::Aborted => "The game was aborted.".to_string(),
        Some(seat) => format!(
            "{} · {} wins by {how}.",
            outcome.result_text(),
            player_label(game, view, seat)
        ),
        None => format!("{} · drawn by {how}.", outcome.result_text()),
    }
}

/// A post to the game's place with the public board and a ping for the players to act.
pub fn board_post(game: &GameRow, text: String) -> Post {
    let view = game.state.view(Viewer::Spectator);
    let mentions = view.to_act.iter().filter_map(|&s| game.player(s).cloned()).collect();
    let mut text = format!(
        "Game #{} · {}\n{text}\n{}",
        game.id,
        game.setup.variant.name(),
        status_line(game, &view)
    );
    for note in &view.notes {
        text.push('\n');
        text.push_str(note);
    }
    // Anyone with a secret choice to make can open it here too (their DMs may be closed).
    let buttons = if view.phase == Phase::SealedChoice {
        vec![super::Button::ChoosePrivately]
    } else {
        Vec::new()
    };
    let post = Post {
        game: game.id,
        location: game.location.clone(),
        text,
        board: Some(board_image_of(game, view)),
        mentions,
        buttons,
        countdown: None,
    };
    super::deathmatch::with_clocks(post, game, game.updated_at)
}

/// Private prompts for the seats that must make a secret choice now.
pub fn sealed_prompts(game: &GameRow) -> Vec<DirectMessage> {
    if game.state.phase() != Phase::SealedChoice {
        return Vec::new();
    }
    game.state
        .to_act()
        .into_iter()
        .filter_map(|seat| {
            let to = game.player(seat)?.clone();
            let choices: Vec<String> = game
                .state
                .legal_actions(seat)
                .iter()
                .map(|a| game.state.notation(seat, a))
                .collect();
            let text = format!(
                "Game #{} · {}: make your secret choice (for example `{}`). Only you can see this.",
                game.id,
                game.setup.variant.name(),
                choices.first().map_or("", String::as_str)
            );
            Some(DirectMessage {
                to,
                game: game.id,
                text,
                board: Some(board_image(game, Viewer::Seat(seat))),
                choices,
            })
        })
        .collect()
}
