//! A choice made on a private menu or button (a secret prompt's, a guided move's last step)
//! played, and the menu turned into its confirmation.

use super::respond::{Outgoing, Responder};
use super::widgets::fit;
use super::{Data, answer};
use crate::arena::Menu;
use crate::ids::{GameId, Place, UserId};
use serenity::all as discord;

/// Plays a choice made on a prompt's menu or buttons (`menu`: where they were made): the prompt
/// becomes the confirmation, so it cannot be used twice.
#[allow(clippy::too_many_arguments)]
pub(super) async fn choose(
    http: &discord::Http,
    data: &Data,
    responder: &mut Responder,
    game: GameId,
    menu: Menu,
    user: &UserId,
    here: &Place,
    choice: &str,
) {
    let work = data.arena.play().act_from_menu(game, user, choice, menu);
    match work.await {
        Ok(mut effects) => {
            let confirmation = match effects.reply.take() {
                Some(reply) => reply.text,
                None => format!("Played `{choice}`."),
            };
            // The menu's board showed the position before the choice: it goes with the menu.
            let _ = responder.replace_clicked(Outgoing::text(fit(&confirmation))).await;
            answer(http, data, Ok(effects), here, responder).await;
        }
        Err(error) => answer(http, data, Err(error), here, responder).await,
    }
}
