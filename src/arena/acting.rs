//! What an action does to a game and what everyone is told: the one path every action takes,
//! whoever plays it (a player, or the game's ruling when time runs out).

use super::messages::{board_image_of, board_post, name, private_notice, private_prompts};
use super::turns::follow_turn;
use super::{ArenaError, Change, Effects, Reply};
use crate::ids::UserId;
use crate::model::{GameRow, GameStatus, LogEntry, NewEntry};
use arbiter_engine::view::RecordEntry;
use arbiter_engine::{Action, Applied, Game, Readers, Seat, Viewer};

/// Applies a checked action by `seat` (played by `user`, or by the rules when `None`) and says
/// what happened: publicly what a spectator may now read of the record, privately to the actor
/// what only they may read, and to every seat with a new private prompt, that prompt.
pub(super) fn apply_action(
    game: &mut GameRow,
    user: Option<&UserId>,
    seat: Seat,
    action: Action,
    now: i64,
) -> Result<Change, ArenaError> {
    let notation = game.state.notation(seat, &action);
    // The engine says what the action changed: no views to compare.
    let applied = game.state.play(seat, &action)?;
    game.offer = None; // any move answers a pending offer with "no"
    game.turn_since = now;
    follow_turn(game, Some(seat), now);
    if game.state.outcome().is_some() {
        game.status = GameStatus::Finished;
    }
    let entry = NewEntry {
        entry: LogEntry::Act { seat, action },
        notation: notation.clone(),
        clock_ms: game.clock.total_left(seat, now),
    };
    let actor = match user {
        Some(user) => name(user),
        None => game.player(seat).map(name).unwrap_or_default(),
    };
    let mut effects = Effects::default();
    let is_hidden = applied.hidden.is_some();
    let text = match applied.public.first() {
        // What others read of a hidden action ("(chose a bomb carrier)") says what happened.
        Some(placeholder) if is_hidden => format!("{actor} {}.", placeholder.text.trim_matches(['(', ')'])),
        // The game words some actions itself ("accepted White's e4").
        Some(RecordEntry { said: Some(said), .. }) => format!("{actor} {said}."),
        _ => format!("{actor} played {}", news(game, &applied).join(" ")),
    };
    let text = if is_hidden && crate::broken::has(crate::broken::Defect::LeakedSecret) {
        format!("{text} ({notation})")
    } else {
        text
    };
    let mut post = board_post(game, text);
    if is_hidden {
        // Nothing anyone may see has changed on the board.
        post.board = None;
    }
    effects.posts.push(post);
    if let (Some(readers), Some(_)) = (applied.hidden, user) {
        // Who else may read it: nobody yet (a sealed choice), or the opponent (a proposal).
        let readers = match readers {
            Readers::Opponent => "Only your opponent can see it.",
            Readers::Nobody => "Nobody else can see it yet.",
        };
        // The seat's own notes that others do not read ("your move on board 2 is in").
        let mut text = format!("Recorded: `{notation}`. {readers}");
        for note in &applied.own_notes {
            text.push('\n');
            text.push_str(note);
        }
        effects.reply = Some(Reply {
            text,
            board: Some(board_image_of(game, game.state.view(Viewer::Seat(seat)))),
        });
    }
    // Prompt only the seats whose private prompt this action opened: the others were prompted
    // when theirs began.
    effects.direct_messages = private_prompts(game)
        .into_iter()
        .filter(|dm| game.seat_of(&dm.to).is_some_and(|s| applied.prompted.contains(&s)))
        .collect();
    // And tell each other seat the news the game has for it alone ("Black accepted your e4").
    for (other, notice) in applied.notices {
        effects.direct_messages.extend(private_notice(game, other, notice));
    }
    Ok(Change {
        entries: vec![entry],
        effects,
    })
}

/// What a spectator reads now that they could not before: the new entries, then the entries
/// revealed since ("(chose a bomb carrier)" becoming "bomb:d2"), each with whose it is.
fn news(game: &GameRow, applied: &Applied) -> Vec<String> {
    let mut news: Vec<String> = applied.public.iter().map(|entry| entry.text.clone()).collect();
    if applied.revealed.is_empty() {
        return news;
    }
    let seat_names = game.state.view(Viewer::Spectator).seat_names;
    for entry in &applied.revealed {
        let whose = match game.player(entry.seat) {
            Some(player) => name(player),
            None => seat_names[entry.seat.index()].clone(),
        };
        news.push(format!("(revealed: {whose}'s {})", entry.text));
    }
    news
}
