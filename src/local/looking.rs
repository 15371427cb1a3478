//! The terminal's commands for looking things up and keeping things: your games, a board, the
//! rules and pieces, records out and in, ratings, settings, and saved piece lists.

use super::{COMPUTER, ImageFiles, asked, caller, computer_user, game_argument, games_list, here, typed_user, usage};
use crate::arena::{Arena, ArenaError, Effects, ImportRequest, ListSource};
use crate::commands::picking;
use crate::ids::UserId;
use arbiter_engine::VariantId;

/// Runs a command of looking up or keeping things; `None` when `verb` is not one.
pub async fn execute(
    arena: &Arena,
    user: &UserId,
    verb: &str,
    args: &str,
    files: Option<&ImageFiles>,
) -> Option<Result<Effects, ArenaError>> {
    let result = match verb {
        "games" => games(arena, user).await.map(Effects::reply),
        "export" => export(arena, user, args, files).await,
        "replay" => replay(arena, user, args).await,
        "analyse" | "analyze" => analyse(arena, user, args).await,
        "import" => import(arena, user, args).await,
        "piece" => crate::arena::piece_card(args),
        "rules" => rules(arena, user, args).await,
        "list" => {
            let (named, text) = match game_argument(args) {
                Ok(parts) => parts,
                Err(error) => return Some(Err(error)),
            };
            match list_source(&text) {
                Ok(source) => arena.lists().submit(named, user, source).await,
                Err(error) => Err(error),
            }
        }
        "lists" => lists(arena, user, args).await,
        _ => return None,
    };
    Some(result)
}

/// `replay` of the game meant: named, the only open one, or the last ended.
async fn replay(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick_to_look_at(arena, asked(&caller), named).await?;
    arena.records().replay(id, &caller).await
}

/// `analyse` of the game meant: named, the only open one, or the last ended.
async fn analyse(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (named, _) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick_to_look_at(arena, asked(&caller), named).await?;
    arena.records().analyse(id, &caller).await
}

/// `export [#id] [path]`: the game's record (PGN) written to a file, `path` or the terminal's
/// folder for files, whose path is printed; without a folder (images off) and a path, the record
/// itself is printed.
async fn export(arena: &Arena, user: &UserId, args: &str, files: Option<&ImageFiles>) -> Result<Effects, ArenaError> {
    let (named, path) = game_argument(args)?;
    let caller = caller(user);
    let id = picking::pick_to_look_at(arena, asked(&caller), named).await?;
    let mut effects = arena.records().export(id, &caller, &Default::default()).await?;
    let Some(reply) = effects.reply.as_mut() else {
        return Ok(effects);
    };
    let written = match (path.trim(), files) {
        ("", None) => return Ok(effects),
        ("", Some(files)) => files.write_record(id, &reply.text),
        (path, _) => std::fs::write(path, &reply.text).map(|()| std::path::PathBuf::from(path)),
    }
    .map_err(|error| usage(&format!("the record could not be written: {error}")))?;
    reply.text = format!(
        "Game #{id} as PGN: {} (chess tools such as Lichess read chess records; `import` reads any of them back)",
        written.display()
    );
    Ok(effects)
}

/// `rules`: the games; `rules <game>`: a game's page; `rules #id`: the rules of that game.
async fn rules(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    match game_argument(args)? {
        (Some(id), _) => arena.game_rules(id, &caller(user), true).await,
        (None, name) if name.trim().is_empty() => Ok(Effects::reply(format!("The games: {}.", games_list()))),
        (None, name) => {
            let variant = VariantId::parse(&name).ok_or_else(|| {
                ArenaError::Rejected(format!(
                    "there is no game called \"{}\"; the games are {}",
                    name.trim(),
                    games_list()
                ))
            })?;
            Ok(arena.rules(variant))
        }
    }
}

async fn lists(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (what, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    match what {
        "save" => {
            let (name, text) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
            let text = match list_source(text)? {
                ListSource::Text(text) => text,
                ListSource::Saved(_) | ListSource::Drawn => return Err(usage("save a list from its text or a file")),
            };
            arena.lists().save(user, name, &text).await
        }
        "show" | "" => arena.lists().show(user, Some(rest)).await,
        "delete" => arena.lists().delete(user, rest).await,
        _ => Err(usage("say lists save, lists show or lists delete")),
    }
}

/// Where a typed list comes from: `file <path>` (one piece a line), `saved <name>`, or the
/// pieces themselves separated by `;`.
fn list_source(text: &str) -> Result<ListSource, ArenaError> {
    let text = text.trim();
    if let Some(path) = text.strip_prefix("file ") {
        let path = path.trim();
        let metadata = std::fs::metadata(path).map_err(|e| usage(&format!("cannot read {path}: {e}")))?;
        if metadata.len() > crate::arena::MOST_LIST_BYTES as u64 {
            return Err(usage(&format!("{path} is too big for a list of pieces")));
        }
        let body = std::fs::read_to_string(path).map_err(|e| usage(&format!("cannot read {path}: {e}")))?;
        return Ok(ListSource::Text(body));
    }
    if text == "drawn" {
        return Ok(ListSource::Drawn);
    }
    if let Some(name) = text.strip_prefix("saved ") {
        return Ok(ListSource::Saved(name.trim().to_string()));
    }
    if text.is_empty() {
        return Err(usage(
            "give the pieces, like `list King, K, K, royal; Camel, CA, C; ...`",
        ));
    }
    Ok(ListSource::Text(text.replace(';', "\n")))
}

/// `import <file> as white|black [vs <user>]`.
async fn import(arena: &Arena, user: &UserId, args: &str) -> Result<Effects, ArenaError> {
    let (path, request) = import_request(args)?;
    let text =
        std::fs::read_to_string(&path).map_err(|e| ArenaError::Rejected(format!("cannot read \"{path}\": {e}")))?;
    arena.records().import(&caller(user), request, &text).await
}

fn import_request(args: &str) -> Result<(String, ImportRequest), ArenaError> {
    const USAGE: &str = "say `import <file> as white` (or `as black`), and `vs <user>` to play the rest with them";
    let words: Vec<&str> = args.split_whitespace().collect();
    let Some(as_at) = words.iter().rposition(|w| *w == "as") else {
        return Err(usage(USAGE));
    };
    let path = words[..as_at].join(" ");
    let (side, rest) = match &words[as_at + 1..] {
        [side, rest @ ..] => (*side, rest),
        [] => return Err(usage(USAGE)),
    };
    let side = match side.to_ascii_lowercase().as_str() {
        "white" | "first" => arbiter_engine::Seat::First,
        "black" | "second" => arbiter_engine::Seat::Second,
        other => return Err(usage(&format!("\"{other}\" is not white or black; {USAGE}"))),
    };
    let opponent = match rest {
        [] => None,
        ["vs", name] => Some(typed_user(name)?),
        _ => return Err(usage(USAGE)),
    };
    if path.is_empty() {
        return Err(usage(USAGE));
    }
    if opponent.as_ref() == Some(&computer_user()) {
        return Err(usage(&format!(
            "the computer does not take up imported games; play it from the record's position with \
             `challenge {COMPUTER} <variant> fen <FEN>`"
        )));
    }
    let request = ImportRequest {
        side,
        opponent,
        location: here(),
    };
    Ok((path, request))
}

/// `games`: the player's open games, a line each.
async fn games(arena: &Arena, user: &UserId) -> Result<String, ArenaError> {
    let games = arena.games(user).await?;
    if games.is_empty() {
        return Ok("you have no open games".into());
    }
    let now = arena.now();
    let lines: Vec<String> = games
        .iter()
        .map(|g| {
            let state = g.state_text();
            let control = g.control.map_or(String::new(), |c| format!(" ({})", c.describe()));
            let left = g.flag_at.map_or(String::new(), |at| {
                format!(" · {} left", crate::clock::duration(at - now))
            });
            format!(
                "#{} {}{control} vs {}: {state}{left}",
                g.id,
                g.variant.name(),
                g.opponent.display_name()
            )
        })
        .collect();
    Ok(lines.join("\n"))
}
