//! What the bot needs on a server: the permissions it uses in a game's channel, and the link
//! that invites it with them.

use serenity::all as discord;

/// What the bot uses in a channel it hosts games in: seeing it, posting (text and board images),
/// opening a game's thread and posting in it; in a thread, posting is the thread's permission
/// rather than the channel's. Nothing more: its embeds are all in answers to commands, which need
/// no permission, and reopening an archived (unlocked) thread needs only posting in it.
pub fn channel_permissions(in_thread: bool) -> discord::Permissions {
    let mut needed = super::commands::game_permissions() | discord::Permissions::VIEW_CHANNEL;
    if in_thread {
        needed.remove(discord::Permissions::SEND_MESSAGES);
    }
    needed
}

/// The link that adds the bot to a server, with its commands and the permissions it uses in
/// every channel (a server's moderators can still take them away channel by channel).
pub fn invite_link(application_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands&permissions={}",
        channel_permissions(false).bits()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invite_asks_for_what_games_use_and_no_more() {
        let link = invite_link(42);
        let wanted = discord::Permissions::VIEW_CHANNEL
            | discord::Permissions::SEND_MESSAGES
            | discord::Permissions::ATTACH_FILES
            | discord::Permissions::CREATE_PUBLIC_THREADS
            | discord::Permissions::SEND_MESSAGES_IN_THREADS;
        assert_eq!(
            link,
            format!(
                "https://discord.com/oauth2/authorize?client_id=42&scope=bot+applications.commands&permissions={}",
                wanted.bits()
            )
        );
        assert!(!channel_permissions(true).contains(discord::Permissions::SEND_MESSAGES));
    }
}
