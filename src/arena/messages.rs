//! The words and boards the arena sends. Everything public is built from a spectator's view, and
//! everything private from the recipient's own view, so secrets cannot leak through a message.

use super::effects::{DirectMessage, Post, PrivateText};
use crate::ids::UserId;
use crate::model::GameRow;
use crate::render::{BoardImage, Decor};
use arbiter_engine::view::PromptKind;
use arbiter_engine::{Action, Game, Outcome, Phase, Seat, View, Viewer};

/// How a user is named in messages: as their transport names them (on Discord, a mention).
pub fn name(user: &UserId) -> String {
    super::text::user(user)
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

/// The board image of a view already taken of `game`.
pub fn board_image_of(game: &GameRow, view: View) -> BoardImage {
    let player_names = Seat::BOTH.map(|seat| game.player(seat).map(|u| u.display_name().to_string()));
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
        _ if game.state.awaits_answer() => format!("{} to answer.", labels.join(", ")),
        _ => format!("{} to move.", labels.join(", ")),
    }
}

/// "1-0 · alice (White) wins by checkmate."
pub fn result_line(game: &GameRow, view: &View, outcome: &Outcome) -> String {
    let how = outcome.reason.describe();
    let score = outcome.scores.map_or(String::new(), |[first, second]| {
        format!(
            " Score: {} {first}, {} {second}.",
            view.seat_names[0], view.seat_names[1]
        )
    });
    let line = match outcome.winner {
        _ if outcome.reason == arbiter_engine::EndReason::Aborted => return "The game was aborted.".to_string(),
        Some(seat) => format!(
            "{} · {} wins by {how}.{score}",
            outcome.result_text(),
            player_label(game, view, seat)
        ),
        None => format!("{} · drawn by {how}.{score}", outcome.result_text()),
    };
    // A Death Match says whether its result moved ratings: it did only if both players agreed.
    match super::match_rating::rating_note(game) {
        Some(note) => format!("{line} {note}"),
        None => line,
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
    if let (Some([first, second]), None) = (view.scores, &view.outcome) {
        text.push_str(&format!(
            "\nScore: {} {first}, {} {second}",
            view.seat_names[0], view.seat_names[1]
        ));
        if let Some((played, of)) = view.turns {
            text.push_str(&format!(" · turn {played}/{of}"));
        }
    }
    for note in &view.notes {
        text.push('\n');
        text.push_str(note);
    }
    // Anyone with a private prompt to answer can open it here too (their DMs may be closed).
    let has_private_prompt = view
        .to_act
        .iter()
        .any(|&seat| game.state.view(Viewer::Seat(seat)).prompt.is_some());
    let buttons = if game.status == crate::model::GameStatus::Finished {
        vec![super::Button::Rematch]
    } else if has_private_prompt {
        vec![super::Button::ChoosePrivately]
    } else if game.status == crate::model::GameStatus::Active
        && view
            .to_act
            .iter()
            .any(|&seat| game.player(seat).is_some_and(|user| !game.is_computer(user)))
    {
        // For the player to act: the computer needs no button.
        vec![super::Button::Move]
    } else {
        Vec::new()
    };
    Post {
        game: Some(game.id),
        location: game.location.clone(),
        text,
        board: Some(board_image_of(game, view)),
        mentions,
        buttons,
        countdown: None,
        table: None,
        stale_at: None,
    }
}

/// The squares `seat` may place a `piece` on now, each as its action in notation.
pub fn placements_of(game: &GameRow, seat: Seat, piece: &str) -> Vec<(arbiter_engine::geometry::Square, String)> {
    game.state
        .noted_actions(seat)
        .into_iter()
        .filter_map(|(action, text)| match action {
            Action::Place { piece: placed, to } if placed.as_str() == piece => Some((to, text)),
            _ => None,
        })
        .collect()
}

/// The private prompt of each seat that must answer one now, as a direct message with the
/// seat's own board: what the game asks, in its words, and the answers to offer.
pub fn private_prompts(game: &GameRow) -> Vec<DirectMessage> {
    game.state
        .to_act()
        .into_iter()
        .filter_map(|seat| private_prompt(game, seat))
        .collect()
}

/// News for one seat alone, as a direct message with nothing to choose.
pub fn private_notice(game: &GameRow, seat: Seat, notice: String) -> Option<DirectMessage> {
    Some(DirectMessage {
        to: game.player(seat)?.clone(),
        game: game.id,
        text: PrivateText::new(format!("Game #{} · {}: {notice}", game.id, game.setup.variant.name())),
        board: None,
        choices: Vec::new(),
        menu_hint: String::new(),
        asks_for_list: false,
        is_reminder: false,
        prompt_key: None,
    })
}

/// The private prompt of one seat, if it has one now.
pub fn private_prompt(game: &GameRow, seat: Seat) -> Option<DirectMessage> {
    let view = game.state.view(Viewer::Seat(seat));
    let prompt = view.prompt.clone()?;
    let to = game.player(seat)?.clone();
    let asks_for_list = prompt.kind == PromptKind::List;
    let text = format!(
        "Game #{} · {}: {} Only you can see this.",
        game.id,
        game.setup.variant.name(),
        prompt.text
    );
    let menu_hint = match prompt.kind {
        PromptKind::SecretChoice => "Make your secret choice",
        PromptKind::Answer => "Your answer",
        PromptKind::Move => "Your move",
        PromptKind::List => "Write your list",
    };
    // The same words at a later turn are another prompt: the seat's own actions so far count.
    let own_actions = view.record.iter().filter(|entry| entry.seat == seat).count();
    let key = super::effects::prompt_key(&format!("{text}\n{own_actions}"), &prompt.choices);
    Some(DirectMessage {
        to,
        game: game.id,
        text: PrivateText::new(text),
        board: Some(board_image_of(game, view)),
        choices: prompt.choices,
        menu_hint: menu_hint.to_string(),
        asks_for_list,
        is_reminder: false,
        prompt_key: Some(key),
    })
}
