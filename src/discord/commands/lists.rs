//! Lists of pieces: sent to a game (Pick-the-team 2, Patch, Easy Patch), and saved under a name
//! to send later.

use super::run;
use crate::arena::{ArenaError, ListSource, MOST_LIST_BYTES};
use crate::discord::attachments::Attachments;
use crate::discord::{Context, Error};
use crate::ids::GameId;
use serenity::all as discord;

/// Where a list comes from in a command: exactly one of the options.
async fn list_text(
    attachments: &Attachments,
    text: Option<String>,
    file: Option<discord::Attachment>,
    saved: Option<String>,
) -> Result<ListSource, ArenaError> {
    const WHAT: &str = "a list is a text file with one piece a line";
    match (text, file, saved) {
        (Some(text), None, None) => Ok(ListSource::Text(text.replace(';', "\n"))),
        (None, Some(file), None) => Ok(ListSource::Text(
            attachments.text_file(&file, MOST_LIST_BYTES, WHAT).await?,
        )),
        (None, None, Some(name)) => Ok(ListSource::Saved(name)),
        (None, None, None) => Err(ArenaError::Rejected(
            "give your list: `text` (pieces separated by `;`), a text `file` (one piece a line), or a `saved` list's name"
                .into(),
        )),
        _ => Err(ArenaError::Rejected("give your list one way only: text, file or saved".into())),
    }
}

#[poise::command(slash_command)]
pub async fn list(
    ctx: Context<'_>,
    #[max_length = 4000] text: Option<String>,
    file: Option<discord::Attachment>,
    #[max_length = 60] saved: Option<String>,
    game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let source = list_text(&data.attachments, text, file, saved).await?;
        data.arena
            .lists()
            .submit(game.map(GameId::new), &caller.user, source)
            .await
    })
    .await
}

#[poise::command(slash_command, subcommands("lists_save", "lists_show", "lists_delete"))]
pub async fn lists(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

#[poise::command(slash_command, rename = "save")]
pub async fn lists_save(
    ctx: Context<'_>,
    #[max_length = 60] name: String,
    #[max_length = 4000] text: Option<String>,
    file: Option<discord::Attachment>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let ListSource::Text(text) = list_text(&data.attachments, text, file, None).await? else {
            return Err(ArenaError::Rejected("give the list as text or a file".into()));
        };
        data.arena.lists().save(&caller.user, &name, &text).await
    })
    .await
}

#[poise::command(slash_command, rename = "show")]
pub async fn lists_show(ctx: Context<'_>, #[max_length = 60] name: Option<String>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena.lists().show(&caller.user, name.as_deref()).await
    })
    .await
}

#[poise::command(slash_command, rename = "delete")]
pub async fn lists_delete(ctx: Context<'_>, #[max_length = 60] name: String) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena.lists().delete(&caller.user, &name).await
    })
    .await
}
