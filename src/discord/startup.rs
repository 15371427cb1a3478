//! Getting the bot onto Discord: which shards this process runs, checking the token and reaching
//! Discord (retrying while it cannot be reached), and registering the commands. Failures that
//! retrying cannot fix end the process with a message that says what to change.

use serenity::all as discord;
use std::time::Duration;

/// How many times a transient failure (Discord's own trouble, a rate limit, no connection) is
/// retried while registering the commands before the bot gives up.
const REGISTRATION_ATTEMPTS: u32 = 5;
/// The longest wait between two attempts to reach Discord.
const LONGEST_RETRY: Duration = Duration::from_secs(30);

/// Which of the bot's shards this process runs. Discord sends each server's interactions to one
/// shard only (server id >> 22, modulo the total; DMs to shard 0), so several processes split
/// the servers between them and each interaction is answered once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shards {
    /// As many as Discord recommends, all in this process.
    Automatic,
    /// `total` shards, of which this process runs `first` to `last` (inclusive).
    Range { first: u32, last: u32, total: u32 },
}

impl Shards {
    /// The part of the bot's shards this process runs (all: 1).
    pub fn share(&self) -> f64 {
        match *self {
            Shards::Automatic => 1.0,
            Shards::Range { first, last, total } => f64::from(last - first + 1) / f64::from(total.max(1)),
        }
    }

    /// Reads `DISCORD_SHARDS` (a number, or `auto`; default `auto`) and `DISCORD_SHARD_RANGE`
    /// (`2` or `0-3`; default all of them).
    pub fn parse(total: Option<&str>, range: Option<&str>) -> Result<Shards, String> {
        let total = match total.map(str::trim) {
            None | Some("" | "auto") => None,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    return Err(format!(
                        "DISCORD_SHARDS is `{text}`: give a number of shards (1 or more) or `auto`"
                    ));
                }
            },
        };
        let range = match range.map(str::trim).filter(|r| !r.is_empty()) {
            None => None,
            Some(text) => {
                let (first, last) = text.split_once('-').unwrap_or((text, text));
                match (first.trim().parse::<u32>(), last.trim().parse::<u32>()) {
                    (Ok(first), Ok(last)) if first <= last => Some((first, last)),
                    _ => {
                        return Err(format!(
                            "DISCORD_SHARD_RANGE is `{text}`: give the shards this process runs, as `0-1` or `2`"
                        ));
                    }
                }
            }
        };
        match (total, range) {
            (None, None) => Ok(Shards::Automatic),
            (Some(total), None) => Ok(Shards::Range {
                first: 0,
                last: total - 1,
                total,
            }),
            (None, Some(_)) => Err(
                "DISCORD_SHARD_RANGE needs DISCORD_SHARDS set to the total number of shards, the same in every process"
                    .into(),
            ),
            (Some(total), Some((first, last))) if last < total => Ok(Shards::Range { first, last, total }),
            (Some(total), Some((_, last))) => Err(format!(
                "DISCORD_SHARD_RANGE goes up to shard {last}, but there are only {total} (numbered from 0)"
            )),
        }
    }

    /// Whether this process runs shard 0, which registers the commands and gets the DMs.
    pub fn runs_first(self) -> bool {
        match self {
            Shards::Automatic => true,
            Shards::Range { first, .. } => first == 0,
        }
    }

    /// Words for the start-up log.
    pub fn describe(self) -> String {
        match self {
            Shards::Automatic => "as many shards as Discord recommends".into(),
            Shards::Range { first, last, total } if first == last => format!("shard {first} of {total}"),
            Shards::Range { first, last, total } => format!("shards {first} to {last} of {total}"),
        }
    }
}

/// What went wrong talking to Discord, as far as deciding what to do goes.
enum Trouble {
    /// Worth trying again: no connection, Discord's own errors, a rate limit.
    Transient,
    /// Discord refused the token.
    BadToken,
    /// Discord refused the request for good (its status, code and message).
    Refused(u16, isize, String),
}

fn trouble(error: &serenity::Error) -> Trouble {
    match error {
        serenity::Error::Http(discord::HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            match status {
                401 => Trouble::BadToken,
                429 | 500.. => Trouble::Transient,
                _ => Trouble::Refused(status, response.error.code, response.error.message.clone()),
            }
        }
        serenity::Error::Http(discord::HttpError::Request(_)) | serenity::Error::Io(_) => Trouble::Transient,
        _ => Trouble::Refused(0, 0, error.to_string()),
    }
}

const BAD_TOKEN: &str = "Discord refused the bot's token (401 Unauthorized). Copy the token from the \
                         developer portal (your application, Bot, Reset Token) into DISCORD_TOKEN";

/// An error with what caused it ("error sending request: connection refused"): a request that
/// could not be sent says little by itself.
pub fn with_causes(error: &serenity::Error) -> String {
    let mut text = error.to_string();
    let mut cause: Option<&dyn std::error::Error> = match error {
        serenity::Error::Http(discord::HttpError::Request(request)) => std::error::Error::source(request),
        other => std::error::Error::source(other),
    };
    while let Some(next) = cause {
        let words = next.to_string();
        if !text.contains(&words) {
            text = format!("{}: {words}", text.trim_end_matches('.'));
        }
        cause = next.source();
    }
    text
}

/// Checks the token and learns the bot's application, waiting for as long as Discord cannot be
/// reached (the caller stops waiting on shutdown). An `Err` is final: the token is refused.
pub async fn sign_in(http: &discord::Http) -> anyhow::Result<discord::CurrentUser> {
    let mut wait = Duration::from_secs(1);
    loop {
        let attempt = async {
            let user = http.get_current_user().await?;
            let application = http.get_current_application_info().await?;
            Ok::<_, serenity::Error>((user, application))
        };
        match attempt.await {
            Ok((user, application)) => {
                http.set_application_id(application.id);
                return Ok(user);
            }
            Err(error) => match trouble(&error) {
                Trouble::BadToken => anyhow::bail!(BAD_TOKEN),
                Trouble::Refused(status, code, message) => {
                    anyhow::bail!("Discord refused to sign the bot in ({status}, code {code}): {message}")
                }
                Trouble::Transient => {
                    tracing::warn!(
                        "cannot reach Discord ({}); trying again in {} s (ctrl-c or SIGTERM stops the bot)",
                        with_causes(&error),
                        wait.as_secs()
                    );
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(LONGEST_RETRY);
                }
            },
        }
    }
}

/// Registers the commands on one server (`guild`) or globally; when global, removes the commands
/// an earlier run left on the servers the bot is in (they would show twice). Transient failures
/// are retried a few times; then, or on a refusal, the error says what to fix.
pub async fn register(
    http: &discord::Http,
    commands: Vec<discord::CreateCommand>,
    guild: Option<discord::GuildId>,
) -> anyhow::Result<()> {
    let mut wait = Duration::from_secs(1);
    let mut attempt = 1;
    loop {
        let registered = match guild {
            Some(guild) => guild.set_commands(http, commands.clone()).await.map(|_| ()),
            None => discord::Command::set_global_commands(http, commands.clone())
                .await
                .map(|_| ()),
        };
        let Err(error) = registered else {
            return Ok(());
        };
        match trouble(&error) {
            Trouble::Transient if attempt < REGISTRATION_ATTEMPTS => {
                tracing::warn!(
                    "could not register the commands ({}); trying again in {} s",
                    with_causes(&error),
                    wait.as_secs()
                );
                tokio::time::sleep(wait).await;
                wait *= 2;
                attempt += 1;
            }
            Trouble::Transient => anyhow::bail!(
                "could not register the commands after {REGISTRATION_ATTEMPTS} attempts ({error}); is Discord up? \
                 Try again later"
            ),
            Trouble::BadToken => anyhow::bail!(BAD_TOKEN),
            Trouble::Refused(_, code, message) => match guild {
                // Missing Access: the bot is not on that server (or lacks the commands scope).
                Some(guild) if code == 50001 => anyhow::bail!(
                    "could not register the commands on server {guild} (DISCORD_GUILD_ID): Discord says \
                     \"{message}\". Invite the bot to that server with the bot and applications.commands \
                     scopes, or unset DISCORD_GUILD_ID to register the commands globally"
                ),
                _ => anyhow::bail!("Discord refused the commands (code {code}): {message}"),
            },
        }
    }
}

/// Once global commands are registered, a server the bot was tried out on may still hold the
/// server commands of an earlier run (`DISCORD_GUILD_ID`), which would show every command twice
/// there: they go. Failures are only logged (the bot works regardless).
pub async fn remove_server_commands(http: &discord::Http, guilds: &[discord::GuildId]) {
    for &guild in guilds {
        match guild.get_commands(http).await {
            Ok(commands) if commands.is_empty() => {}
            Ok(commands) => match guild.set_commands(http, Vec::new()).await {
                Ok(_) => tracing::info!(
                    %guild,
                    count = commands.len(),
                    "removed server commands left from a run with DISCORD_GUILD_ID"
                ),
                Err(error) => tracing::warn!(%guild, %error, "could not remove old server commands"),
            },
            Err(error) => tracing::warn!(%guild, %error, "could not list a server's commands"),
        }
    }
}

/// Words for a gateway failure that ends the connection for good.
pub fn explain_gateway_error(error: &serenity::Error) -> String {
    use serenity::gateway::GatewayError;
    match error {
        serenity::Error::Gateway(GatewayError::InvalidAuthentication) => BAD_TOKEN.into(),
        serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents | GatewayError::InvalidGatewayIntents) => {
            "Discord refused the gateway intents the bot asks for; check the Privileged Gateway Intents on \
             the developer portal's Bot page"
                .into()
        }
        serenity::Error::Gateway(GatewayError::InvalidShardData) => {
            "Discord refused the shard settings: DISCORD_SHARDS must be the same in every process, and large \
             bots need at least the number Discord recommends"
                .into()
        }
        other => format!("the connection to Discord ended: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::Shards;

    #[test]
    fn shard_settings_are_read_and_mistakes_explained() {
        assert_eq!(Shards::parse(None, None), Ok(Shards::Automatic));
        assert_eq!(Shards::parse(Some("auto"), None), Ok(Shards::Automatic));
        assert_eq!(
            Shards::parse(Some("4"), None),
            Ok(Shards::Range {
                first: 0,
                last: 3,
                total: 4
            })
        );
        assert_eq!(
            Shards::parse(Some("4"), Some("2-3")),
            Ok(Shards::Range {
                first: 2,
                last: 3,
                total: 4
            })
        );
        assert_eq!(
            Shards::parse(Some("2"), Some("1")),
            Ok(Shards::Range {
                first: 1,
                last: 1,
                total: 2
            })
        );
        assert!(Shards::parse(None, Some("0-1")).unwrap_err().contains("DISCORD_SHARDS"));
        assert!(Shards::parse(Some("2"), Some("1-2")).unwrap_err().contains("only 2"));
        assert!(Shards::parse(Some("0"), None).is_err());
        assert!(Shards::parse(Some("two"), None).is_err());
        assert!(Shards::parse(Some("4"), Some("3-1")).is_err());
        assert!(!Shards::parse(Some("4"), Some("2-3")).unwrap().runs_first());
        assert_eq!(
            Shards::parse(Some("4"), Some("2-3")).unwrap().describe(),
            "shards 2 to 3 of 4"
        );
    }
}
