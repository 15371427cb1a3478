//! What an action does to a game and what everyone is told: the one path every action takes,
//! whoever plays it (a player, or the game's ruling when time runs out).

use super::messages::{board_image_of, board_post, name, private_notice, private_prompts};
use super::turns::follow_turn;
use super::{ArenaError, Change, Effects, Reply};
use crate::ids::UserId;
use crate::store::{GameRow, GameStatus, LogEntry, NewEntry};
use arbiter_engine::view::RecordEntry;
use arbiter_engine::{Action, Game, Seat, Viewer};

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
    let public_before = game.state.view(Viewer::Spectator).record;
    let prompted_before: Vec<Seat> = prompted(game);
    let notices_before = Seat::BOTH.map(|s| game.state.view(Viewer::Seat(s)).notice);
    game.state.apply(seat, &action)?;
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
    let spectator = game.state.view(Viewer::Spectator);
    let public_after = spectator.record;
    let name_of = |seat: Seat| match game.player(seat) {
        Some(player) => name(player),
        None => spectator.seat_names[seat.index()].clone(),
    };
    let news = news(&public_before, &public_after, name_of);
    let own = game.state.view(Viewer::Seat(seat));
    let is_hidden =
        own.record.len() > public_before.len() && public_after.get(public_before.len()).is_some_and(|e| e.is_hidden);
    let mut effects = Effects::default();
    let text = match public_after.get(public_before.len()) {
        // What others read of a hidden action ("(chose a bomb carrier)") says what happened.
        Some(placeholder) if is_hidden => format!("{actor} {}.", placeholder.text.trim_matches(['(', ')'])),
        // The game words some actions itself ("accepted White's e4").
        Some(RecordEntry { said: Some(said), .. }) => format!("{actor} {said}."),
        _ => format!("{actor} played {}", news.join(" ")),
    };
    let mut post = board_post(game, text);
    if is_hidden {
        // Nothing anyone may see has changed on the board.
        post.board = None;
    }
    effects.posts.push(post);
    if is_hidden && user.is_some() {
        // Who else may read it: nobody yet (a sealed choice), or the opponent (a proposal).
        let opponent_reads = game
            .state
            .view(Viewer::Seat(seat.other()))
            .record
            .get(public_before.len())
            .is_some_and(|entry| !entry.is_hidden);
        let readers = if opponent_reads {
            "Only your opponent can see it."
        } else {
            "Nobody else can see it yet."
        };
        // The seat's own notes that others do not read ("your move on board 2 is in").
        let mut text = format!("Recorded: `{notation}`. {readers}");
        for note in own.notes.iter().filter(|note| !spectator.notes.contains(note)) {
            text.push('\n');
            text.push_str(note);
        }
        effects.reply = Some(Reply {
            text,
            board: Some(board_image_of(game, own)),
        });
    }
    // Prompt only the seats whose private prompt this action opened: the others were prompted
    // when theirs began.
    effects.direct_messages = private_prompts(game)
        .into_iter()
        .filter(|dm| game.seat_of(&dm.to).is_some_and(|s| !prompted_before.contains(&s)))
        .collect();
    // And tell each other seat the news the game has for it alone ("Black accepted your e4").
    for other in Seat::BOTH.into_iter().filter(|s| *s != seat) {
        let notice = game.state.view(Viewer::Seat(other)).notice;
        if let Some(text) = notice.filter(|text| notices_before[other.index()].as_ref() != Some(text)) {
            effects.direct_messages.extend(private_notice(game, other, text));
        }
    }
    Ok(Change {
        entries: vec![entry],
        effects,
    })
}

/// The seats that have a private prompt now.
fn prompted(game: &GameRow) -> Vec<Seat> {
    game.state
        .to_act()
        .into_iter()
        .filter(|&seat| game.state.view(Viewer::Seat(seat)).prompt.is_some())
        .collect()
}

/// What a spectator reads now that they could not before: new entries, and entries revealed
/// since ("(chose a bomb carrier)" becoming "bomb:d2"), each revealed one with whose it is
/// (`name_of` a seat).
fn news(before: &[RecordEntry], after: &[RecordEntry], name_of: impl Fn(Seat) -> String) -> Vec<String> {
    let mut news: Vec<String> = Vec::new();
    for (index, entry) in after.iter().enumerate() {
        match before.get(index) {
            Some(old) if old == entry => {}
            Some(_) => news.push(format!("(revealed: {}'s {})", name_of(entry.seat), entry.text)),
            None => news.push(entry.text.clone()),
        }
    }
    // The action itself comes first, what it revealed after it.
    news.sort_by_key(|text| text.starts_with("(revealed"));
    news
}
