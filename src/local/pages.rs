//! The live pages from the terminal (`arbiter local --web ADDR`): `watch [#id]`, and the links
//! printed after a Death Match's first post and a round's announcement, each URL alone on its
//! line (a contract outside checks rely on).

use super::{asked, caller, game_argument};
use crate::arena::{Arena, ArenaError, Effects};
use crate::commands::picking;
use crate::ids::UserId;
use crate::web::Web;
use std::io::Write;

/// With the pages on: a Death Match's links after its first post, and each game's page after a
/// round's announcement, each link on a line of its own.
pub(super) async fn print_links(out: &mut impl Write, web: Option<&Web>, effects: &Effects) -> anyhow::Result<()> {
    let Some(web) = web else {
        return Ok(());
    };
    if let Some(game) = effects.watch_links
        && let Some(lines) = web.link_lines(game).await
    {
        writeln!(out, "{lines}")?;
    }
    if let Some(round) = &effects.paired_round {
        writeln!(out, "Watch round {} live:", round.round)?;
        for &game in &round.games {
            if let Ok(links) = web.links(game).await {
                writeln!(out, "Game #{game}:\n{}", links.page)?;
            }
        }
    }
    Ok(())
}

/// `watch [#id]`: the game's live page and overlay, each link on a line of its own.
pub(super) async fn watch(arena: &Arena, web: Option<&Web>, user: &UserId, args: &str) -> Result<String, ArenaError> {
    let Some(web) = web else {
        return Err(ArenaError::Rejected(
            "live pages are off: start `arbiter local --web 127.0.0.1:8080` to serve them".into(),
        ));
    };
    let (named, rest) = game_argument(args)?;
    let reset = match rest.trim() {
        "" => false,
        "reset" => true,
        other => {
            return Err(ArenaError::Rejected(format!(
                "watch takes a game and `reset`, not \"{other}\""
            )));
        }
    };
    let caller = caller(user);
    let id = picking::pick_to_look_at(arena, asked(&caller), named).await?;
    arena.watching().token_for(id, &caller).await?;
    let lines = web
        .link_lines(id)
        .await
        .ok_or_else(|| ArenaError::Rejected(format!("the links of game #{id} could not be made just now")))?;
    // Printed for the one who asked: the terminal is theirs.
    let own = web.private_lines(id, user, reset).await;
    let own = own.map_or_else(String::new, |own| format!("\n{own}"));
    Ok(format!("Game #{id}\n{lines}{own}"))
}
