//! Who hosts on a server: its members with the Manage Server permission, and its members with the
//! server's host role (chosen with `/settings host-role`; the bot's `DISCORD_HOST_ROLE_ID` where a
//! server chose none). Read from each interaction's own member data, for that server alone: being
//! a host on one's own server makes nobody a host anywhere else.

use super::Data;
use super::ids;
use crate::arena::Caller;
use serenity::all as discord;

/// The commands only hosts use to act on the matches and tournaments already open, by their full
/// names: a server's hosts are not rate-limited in these, on their own server (a host
/// adjudicates a whole round at once). Creating a match or a tournament (`deathmatch start`,
/// `tournament create`) is not among them: each draws on the request budget every server
/// shares, so it counts like any command (and the arena caps how many a server keeps open).
pub const HOST_COMMANDS: [&str; 9] = [
    "deathmatch pause",
    "deathmatch resume",
    "deathmatch addtime",
    "deathmatch abort",
    "deathmatch adjudicate",
    "tournament start",
    "tournament pair",
    "tournament close-round",
    "tournament adjudicate",
];

/// Whether a command is one a server's hosts may send without a rate limit, on that server.
pub fn is_host_command(qualified_name: &str) -> bool {
    HOST_COMMANDS.contains(&qualified_name)
}

/// Whether a member manages the server (from the interaction's permissions for them).
pub fn manages_server(member: Option<&discord::Member>) -> bool {
    member.and_then(|m| m.permissions).is_some_and(|p| p.manage_guild())
}

/// Whether a member hosts: manages the server, or holds its host role.
pub fn is_host(member: Option<&discord::Member>, host_role: Option<u64>) -> bool {
    let Some(member) = member else {
        return false;
    };
    let has_role = host_role.is_some_and(|role| member.roles.iter().any(|r| r.get() == role));
    manages_server(Some(member)) || has_role
}

/// The host role of a server: its own, or the bot's default.
pub async fn host_role(data: &Data, guild: discord::GuildId) -> Option<u64> {
    match data.arena.players().host_role(&ids::server(guild)).await {
        Ok(Some(role)) => role.parse().ok(),
        Ok(None) => data.host_role,
        Err(error) => {
            // Without its setting, nobody is taken for a host by role (Manage Server still counts).
            tracing::error!(error = %crate::logging::Quiet(&error), "could not read a server's host role");
            None
        }
    }
}

/// The member behind an interaction as the arena knows them: on the interaction's server, a host
/// there or not. The server's host role is looked up only for a member who does not manage it.
pub async fn caller(
    data: &Data,
    user: discord::UserId,
    guild: Option<discord::GuildId>,
    member: Option<&discord::Member>,
) -> Caller {
    let user = ids::user(user);
    let Some(guild) = guild else {
        return Caller::player(&user, None);
    };
    let server = ids::server(guild);
    let hosts = manages_server(member) || is_host(member, host_role(data, guild).await);
    if hosts {
        Caller::host(&user, Some(&server))
    } else {
        Caller::player(&user, Some(&server))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_commands_are_commands_the_bot_registers() {
        let mut commands = super::super::all_commands();
        // As the framework names them when it starts.
        poise::set_qualified_names(&mut commands);
        let mut names = Vec::new();
        for command in &commands {
            names.extend(command.subcommands.iter().map(|sub| sub.qualified_name.to_string()));
            names.push(command.qualified_name.to_string());
        }
        for host_command in HOST_COMMANDS {
            assert!(names.iter().any(|n| n == host_command), "{host_command} in {names:?}");
        }
        // Every command the command layer asks as a host's is one of them.
        for declared in crate::commands::catalog::all().filter(|c| c.run.is_some_and(|run| run.hosts)) {
            assert!(is_host_command(declared.name), "{} is a host's command", declared.name);
        }
        assert!(!is_host_command("tournament join"));
        assert!(!is_host_command("move"));
        assert!(!is_host_command("deathmatch start"), "creating counts like any command");
        assert!(
            !is_host_command("tournament create"),
            "creating counts like any command"
        );
    }

    fn member(json: serde_json::Value) -> discord::Member {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn hosts_are_members_who_manage_the_server_or_hold_the_host_role() {
        let base = serde_json::json!({
            "user": { "id": "5", "username": "h", "discriminator": "0", "avatar": null },
            "roles": ["77"], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": false, "mute": false,
            "flags": 0, "guild_id": "1", "permissions": "0"
        });
        assert!(!is_host(Some(&member(base.clone())), None));
        assert!(is_host(Some(&member(base.clone())), Some(77)));
        assert!(!is_host(Some(&member(base.clone())), Some(78)));
        let mut manager = base;
        manager["permissions"] = serde_json::json!("32");
        assert!(is_host(Some(&member(manager.clone())), None));
        assert!(manages_server(Some(&member(manager))));
        assert!(!is_host(None, Some(77)));
    }
}
