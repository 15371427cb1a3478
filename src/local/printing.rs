//! What the terminal prints of an answer: posts, replies, direct messages (marked with whom
//! they are for), boards as text beside the images drawn of them, tables in columns; and that the
//! news was shown, as a transport records once its players have it.

use super::image_files::ImageFiles;
use super::text_board;
use crate::arena::text::{Plain, render};
use crate::arena::{Arena, Effects};
use crate::ids::{GameId, UserId};
use crate::render::BoardImage;
use std::io::Write;

/// A table in columns of text.
fn print_table(out: &mut impl Write, table: &crate::render::Table) -> anyhow::Result<()> {
    let rows: Vec<&Vec<String>> = std::iter::once(&table.header).chain(&table.rows).collect();
    let widths: Vec<usize> = (0..table.header.len())
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|t| t.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    writeln!(out, "    {}", table.title)?;
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(text, width)| format!("{text:<width$}"))
            .collect();
        writeln!(out, "    {}", cells.join("  ").trim_end())?;
    }
    writeln!(out, "    {}", table.legend)?;
    Ok(())
}

/// Prints effects; `now` is the arena's time, for countdowns.
/// Prints what a change says (as `user` reads it) and records that its news was shown, as a
/// transport does once its players have it (the computer waits for that before it answers).
pub async fn show(
    arena: &Arena,
    out: &mut impl Write,
    user: &UserId,
    effects: &Effects,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    print_effects(out, user, effects, images, arena.now())?;
    if let (Some(game), Some(version)) = (effects.game, effects.version)
        && let Err(error) = arena.watching().mark_shown(game, version).await
    {
        tracing::warn!(game = %game, error = %crate::logging::Quiet(&error), "could not record a game's news as shown");
    }
    Ok(())
}

fn print_effects(
    out: &mut impl Write,
    user: &UserId,
    effects: &Effects,
    images: Option<&ImageFiles>,
    now: i64,
) -> anyhow::Result<()> {
    let game = effects.game;
    let plain = |text: &str| render(text, &Plain { now: Some(now) });
    for post in &effects.posts {
        writeln!(out, "[{}] {}", post.location, plain(&post.text))?;
        if let Some(countdown) = &post.countdown {
            let left = crate::clock::duration(countdown.at - now);
            writeln!(out, "    {} in {left}", plain(&countdown.what))?;
        }
        print_board(out, post.game, post.board.as_ref(), None, images)?;
        if let Some(table) = &post.table {
            print_table(out, table)?;
        }
    }
    if let Some(reply) = &effects.reply {
        writeln!(out, "(to {}) {}", user.display_name(), plain(&reply.text))?;
        print_board(out, game, reply.board.as_ref(), Some(user), images)?;
    }
    if let Some(replay) = &effects.replay {
        writeln!(out, "(to {}) {}", user.display_name(), plain(&replay.caption))?;
        match images {
            Some(images) => {
                let (path, gif) = images.write_replay(replay)?;
                if let Some(note) = gif.note() {
                    writeln!(out, "    {note}")?;
                }
                writeln!(out, "    replay: {}", path.display())?;
            }
            None => writeln!(
                out,
                "    Replays are drawn as GIF images: start `arbiter local` without --no-images to get one."
            )?,
        }
    }
    if let Some(report) = &effects.analysis {
        let private_to = report.private.then_some(user);
        match private_to {
            Some(user) => writeln!(out, "(to {}) {}", user.display_name(), plain(&report.text))?,
            None => writeln!(out, "{}", plain(&report.text))?,
        }
        if let Some(images) = images {
            writeln!(out, "    graph: {}", images.write_graph(report, private_to)?.display())?;
        }
        for (caption, board) in &report.boards {
            writeln!(out, "{caption}")?;
            print_board(out, Some(report.game), Some(board), private_to, images)?;
        }
    }
    for dm in &effects.direct_messages {
        writeln!(out, "[DM to {}] {}", dm.to.display_name(), plain(dm.text.reveal()))?;
        if dm.asks_for_list {
            writeln!(
                out,
                "Send it with `list #{} <piece>; <piece>; ...`, `list #{} file <path>` (one piece a line) or \
                 `list #{} saved <name>`; you can send it again until your opponent's is in.",
                dm.game, dm.game, dm.game
            )?;
        }
        print_board(out, Some(dm.game), dm.board.as_ref(), Some(&dm.to), images)?;
    }
    Ok(())
}

/// Prints a board as text and, when images are on, names the PNG drawn of it.
fn print_board(
    out: &mut impl Write,
    game: Option<GameId>,
    board: Option<&BoardImage>,
    private_to: Option<&UserId>,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    let Some(board) = board else { return Ok(()) };
    write!(out, "{}", text_board(&board.view))?;
    if let Some(images) = images {
        let path = images.write(game, board, private_to)?;
        writeln!(out, "    image: {}", path.display())?;
    }
    Ok(())
}
