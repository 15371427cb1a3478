//! `arbiter doctor`: checks a set-up in the order the bot meets it (the token, Discord, the
//! application and its invite link, the operators' routes, the database, the data folder, the
//! test server, a channel) and says what to fix for each failure. It changes nothing: no migration runs, no command is
//! registered. Never prints the token or a database password.

use arbiter::store::SchemaState;
use base64::Engine;
use serenity::all as discord;
use std::path::PathBuf;
use std::time::Duration;

/// How long one check waits for Discord or the database.
const PATIENCE: Duration = Duration::from_secs(15);

/// Where a token comes from, for every fix that asks for it again.
const NEW_TOKEN: &str = "copy it again from the Developer Portal (https://discord.com/developers/applications) → \
                         your application → Bot → Reset Token, and put it in DISCORD_TOKEN in .env";

/// The settings `arbiter bot` runs with.
pub struct Settings {
    pub token: Option<String>,
    /// DISCORD_GUILD_ID as written, so that a malformed one is reported like any other problem.
    pub guild_id: Option<String>,
    pub api_base: Option<String>,
    /// The channel whose permissions to check (`--channel`).
    pub channel: Option<u64>,
    pub database_url: Option<String>,
    pub data_dir: PathBuf,
    /// Where games are kept, in words that hold no password.
    pub storage: String,
    /// ARBITER_METRICS_ADDR as written.
    pub metrics_addr: Option<String>,
}

/// How one check ended.
enum Outcome {
    Pass(String),
    /// What was found, and what to do about it.
    Fail(String, String),
    /// Not checked, and why.
    Skip(String),
}

/// The checks so far. Each line is printed as its check ends: on a slow network the last line
/// shows where the doctor is.
#[derive(Default)]
struct Report {
    checks: usize,
    failed: usize,
    skipped: usize,
}

impl Report {
    fn line(&mut self, check: &str, outcome: Outcome) {
        self.checks += 1;
        let indent = |text: String| text.replace('\n', "\n      ");
        match outcome {
            Outcome::Pass(found) => println!("ok    {check}: {}", indent(found)),
            Outcome::Fail(found, fix) => {
                self.failed += 1;
                println!("FAIL  {check}: {}", indent(found));
                println!("      fix: {}", indent(fix));
            }
            Outcome::Skip(why) => {
                self.skipped += 1;
                println!("skip  {check}: {why}");
            }
        }
    }
}

/// Runs every check; an error (a non-zero exit) when any fails.
pub async fn run(settings: Settings) -> anyhow::Result<String> {
    let mut report = Report::default();
    let token = token_shape(&mut report, settings.token.as_deref());
    let http = token.map(|token| arbiter::discord::http_client(&token, settings.api_base.as_deref()));
    let me = match &http {
        Some(http) => sign_in(&mut report, http).await,
        None => {
            report.line("Discord", Outcome::Skip("needs a token of the right shape".into()));
            None
        }
    };
    // The other questions to Discord need it to accept the token.
    let signed_in = http.as_ref().zip(me.as_ref());
    let invite = match signed_in {
        Some((http, _)) => application(&mut report, http).await,
        None => {
            report.line("application", Outcome::Skip("needs Discord to accept the token".into()));
            None
        }
    };
    operators_routes(&mut report, settings.metrics_addr.as_deref());
    database(&mut report, &settings).await;
    data_folder(&mut report, &settings.data_dir);
    server(&mut report, signed_in, settings.guild_id.as_deref(), invite.as_deref()).await;
    let outcome = match (settings.channel, signed_in) {
        (None, _) => Outcome::Skip("no --channel given (a channel's id checks the bot's permissions there)".into()),
        (Some(_), None) => Outcome::Skip("needs Discord to accept the token".into()),
        (Some(channel), Some((http, me))) => match channel_permissions(http, me, channel).await {
            Ok(outcome) | Err(outcome) => outcome,
        },
    };
    let label = settings
        .channel
        .map_or_else(|| "channel".to_string(), |id| format!("channel {id}"));
    report.line(&label, outcome);
    if report.failed > 0 {
        anyhow::bail!(
            "{} of {} checks failed: fix them from the first (a later one may pass once an earlier one does), \
             then run `arbiter doctor` again",
            report.failed,
            report.checks
        );
    }
    Ok(match report.skipped {
        0 => format!("All {} checks passed.\n", report.checks),
        skipped => format!("All checks passed ({skipped} skipped).\n"),
    })
}

/// The token as the bot sends it, when it is shaped like a bot token: three parts joined by
/// dots, the first the bot's user id in base64. Checked before asking Discord, whose 401 says
/// nothing of what is wrong with it.
fn token_shape(report: &mut Report, token: Option<&str>) -> Option<String> {
    let Some(token) = token.map(str::trim).filter(|token| !token.is_empty()) else {
        let fix = "copy it from the Developer Portal (https://discord.com/developers/applications) → your \
                   application → Bot → Reset Token, and put it in DISCORD_TOKEN in .env";
        report.line("token", Outcome::Fail("DISCORD_TOKEN is not set".into(), fix.into()));
        return None;
    };
    // serenity adds the prefix itself and keeps one already there: harmless, but not the token.
    let (token, prefixed) = match token.strip_prefix("Bot ") {
        Some(rest) => (rest.trim(), true),
        None => (token, false),
    };
    let Some(user) = user_id_of(token) else {
        let found = "DISCORD_TOKEN is not shaped like a bot token (three parts joined by dots, the first \
                     the bot's id in base64)";
        let fix = format!(
            "{NEW_TOKEN}. The Client Secret and the Public Key (the application's OAuth2 and General \
             Information pages) are not the token"
        );
        report.line("token", Outcome::Fail(found.into(), fix));
        return None;
    };
    let mut found = format!("shaped like a bot token (of user {user})");
    if prefixed {
        found.push_str("; drop the \"Bot \" in front of it in DISCORD_TOKEN: Arbiter adds it itself");
    }
    report.line("token", Outcome::Pass(found));
    Some(token.to_string())
}

/// The user id a bot token starts with, if it is shaped like one.
fn user_id_of(token: &str) -> Option<u64> {
    let parts: Vec<&str> = token.split('.').collect();
    let [id, _, _] = parts[..] else {
        return None;
    };
    if parts.iter().any(|part| part.is_empty())
        || !token.chars().all(|c| c.is_ascii_alphanumeric() || "._-=".contains(c))
    {
        return None;
    }
    // Discord writes it in the URL-safe alphabet, without padding; older tokens in the standard one.
    let lenient = base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent);
    let decoded = [base64::alphabet::URL_SAFE, base64::alphabet::STANDARD]
        .iter()
        .find_map(|alphabet| base64::engine::GeneralPurpose::new(alphabet, lenient).decode(id).ok())?;
    let digits = String::from_utf8(decoded).ok()?;
    digits.parse().ok().filter(|&id: &u64| id != 0)
}

/// What stopped a request to Discord.
enum Trouble {
    /// Discord answered no: its status, error code and message.
    Refused(u16, isize, String),
    /// No answer worth the name: no connection, a timeout, Discord's own trouble.
    Unreachable(String),
}

impl Trouble {
    /// A failure that is none of the cases a check knows: what Discord said, as it said it.
    fn outcome(self, asking: &str) -> Outcome {
        match self {
            Trouble::Refused(401, ..) => {
                Outcome::Fail("Discord refused the token (401 Unauthorized)".into(), NEW_TOKEN.into())
            }
            Trouble::Refused(status, code, message) => Outcome::Fail(
                format!("Discord refused {asking} ({status}, code {code}): {message}"),
                "see what Discord's message says; if it names a permission, give it to the bot's role".into(),
            ),
            Trouble::Unreachable(why) => Outcome::Fail(
                format!("cannot reach Discord while {asking}: {why}"),
                "check this machine's connection to discord.com (a firewall or a proxy in the way?) and \
                 Discord's status at https://discordstatus.com, then run the doctor again"
                    .into(),
            ),
        }
    }
}

/// One request to Discord, given `PATIENCE`.
async fn ask<T>(request: impl Future<Output = serenity::Result<T>>) -> Result<T, Trouble> {
    let Ok(answer) = tokio::time::timeout(PATIENCE, request).await else {
        return Err(Trouble::Unreachable(format!(
            "no answer within {} s",
            PATIENCE.as_secs()
        )));
    };
    answer.map_err(|error| match error {
        serenity::Error::Http(discord::HttpError::UnsuccessfulRequest(response))
            if response.status_code.as_u16() < 500 =>
        {
            Trouble::Refused(
                response.status_code.as_u16(),
                response.error.code,
                response.error.message,
            )
        }
        other => Trouble::Unreachable(arbiter::discord::with_causes(&other)),
    })
}

async fn sign_in(report: &mut Report, http: &discord::Http) -> Option<discord::CurrentUser> {
    match ask(http.get_current_user()).await {
        Ok(user) if !user.bot => {
            let found = format!("the token is the user {}'s, not a bot's", user.name);
            report.line("Discord", Outcome::Fail(found, NEW_TOKEN.into()));
            None
        }
        Ok(user) => {
            let found = format!("accepts the token: signed in as {} (user {})", user.name, user.id);
            report.line("Discord", Outcome::Pass(found));
            Some(user)
        }
        Err(trouble) => {
            report.line("Discord", trouble.outcome("signing in"));
            None
        }
    }
}

/// The application's id and the invite link made from it.
async fn application(report: &mut Report, http: &discord::Http) -> Option<String> {
    let app = match ask(http.get_current_application_info()).await {
        Ok(app) => app,
        Err(trouble) => {
            report.line("application", trouble.outcome("reading the application"));
            return None;
        }
    };
    let link = arbiter::discord::invite_link(app.id.get());
    let outcome = if app.bot_require_code_grant {
        Outcome::Fail(
            format!(
                "application {}: its bot requires an OAuth2 code grant, which an invite link cannot give",
                app.id
            ),
            "turn off \"Requires OAuth2 Code Grant\" on the Developer Portal's Bot page".into(),
        )
    } else {
        Outcome::Pass(format!(
            "{} (application {})\ninvite link (bot and commands, with the permissions games use): {link}",
            app.name, app.id
        ))
    };
    report.line("application", outcome);
    Some(link)
}

/// Whether `/metrics`, `/healthz` and `/readyz` are served, and where: off is a choice, not a
/// failure, so the line says how to turn them on. They are never on the public pages' address.
fn operators_routes(report: &mut Report, metrics_addr: Option<&str>) {
    const CHECK: &str = "operators' routes";
    let Some(written) = metrics_addr.map(str::trim).filter(|addr| !addr.is_empty()) else {
        let found = "off: /metrics, /healthz and /readyz are not served (ARBITER_METRICS_ADDR is not set); to \
                     watch the bot, set ARBITER_METRICS_ADDR=127.0.0.1:9100, kept off the public internet";
        report.line(CHECK, Outcome::Pass(found.into()));
        return;
    };
    let outcome = match written.parse::<std::net::SocketAddr>() {
        Ok(addr) => {
            let mut found = format!("/metrics, /healthz and /readyz served on {addr} (ARBITER_METRICS_ADDR)");
            if !addr.ip().is_loopback() {
                found.push_str(
                    "; that address is reachable from other machines: keep it off the public internet (a \
                     firewall, or 127.0.0.1)",
                );
            }
            Outcome::Pass(found)
        }
        Err(_) => Outcome::Fail(
            format!("ARBITER_METRICS_ADDR \"{written}\" is not an address and port, and the bot would not start"),
            "write it as 127.0.0.1:9100 (kept off the public internet), or unset it to serve no operators' routes"
                .into(),
        ),
    };
    report.line(CHECK, outcome);
}

/// The database's address, whether it answers, and whether its schema is this binary's.
async fn database(report: &mut Report, settings: &Settings) {
    let url = settings.database_url.as_deref();
    let postgres = url.is_some_and(arbiter::store::is_postgres);
    match url {
        None => report.line("database URL", Outcome::Pass(format!("not set: {}", settings.storage))),
        Some(_) if postgres => report.line("database URL", Outcome::Pass(settings.storage.clone())),
        Some(url) if url.starts_with("sqlite:") => report.line("database URL", Outcome::Pass(settings.storage.clone())),
        Some(_) => {
            // Not shown: it may hold a password where it was not expected.
            let fix = "write it as postgres://USER:PASSWORD@HOST:5432/DATABASE or sqlite://FILE?mode=rwc, or \
                       unset it to keep games in the embedded SQLite file in ARBITER_DATA_DIR";
            let found = "DATABASE_URL starts with neither postgres:// nor sqlite://";
            report.line("database URL", Outcome::Fail(found.into(), fix.into()));
            report.line(
                "database",
                Outcome::Skip("needs a database URL Arbiter can read".into()),
            );
            return;
        }
    }
    let asked = tokio::time::timeout(PATIENCE, arbiter::store::schema_state(url, &settings.data_dir)).await;
    let outcome = match asked {
        Err(_) => Outcome::Fail(
            format!("no answer within {} s", PATIENCE.as_secs()),
            "is the database server running, and reachable from here at the host and port DATABASE_URL names?".into(),
        ),
        Ok(Err(error)) => {
            let fix = if postgres {
                "check the host, port, user, password and database name in DATABASE_URL, and that the server runs"
            } else {
                "check that the file's folder exists and that this user may write in it (a sqlite:// URL needs \
                 ?mode=rwc to create the file)"
            };
            Outcome::Fail(
                format!("does not open: {}", without_password(&error.to_string(), url)),
                fix.into(),
            )
        }
        Ok(Ok(state)) => schema(&state, postgres),
    };
    report.line("database", outcome);
}

/// Whether the schema is this binary's: a new database is fine (the bot sets it up), an older
/// one must be backed up before the bot upgrades it, a newer one cannot be used.
fn schema(state: &SchemaState, postgres: bool) -> Outcome {
    if state.is_newer() {
        let needs = state.needs();
        return Outcome::Fail(
            format!(
                "the database is at schema version {}, written by {needs}; this Arbiter ({}) knows versions up to {}, \
                 and the bot refuses to start on it",
                state.applied,
                env!("CARGO_PKG_VERSION"),
                state.known
            ),
            format!("run {needs}, or restore the backup taken before the upgrade"),
        );
    }
    if state.is_behind() {
        let backup = if postgres {
            "pg_dump --format=custom --file FILE \"$DATABASE_URL\""
        } else {
            "`arbiter backup FILE`"
        };
        return Outcome::Fail(
            format!(
                "the database is at schema version {}; this Arbiter brings it to {} when it starts",
                state.applied, state.known
            ),
            format!("back it up first ({backup}), then start the bot: it upgrades the schema itself"),
        );
    }
    if state.applied == 0 {
        return Outcome::Pass("new and empty: the bot sets it up when it starts".into());
    }
    Outcome::Pass(format!("answers; its schema is current (version {})", state.known))
}

/// An error message with the URL's password, if any, blanked out (a driver may quote the URL).
fn without_password(text: &str, url: Option<&str>) -> String {
    let password = url
        .and_then(|url| url.split_once("://"))
        .and_then(|(_, rest)| rest.rsplit_once('@'))
        .and_then(|(credentials, _)| credentials.split_once(':'))
        .map(|(_, password)| password)
        .filter(|password| !password.is_empty());
    match password {
        Some(password) => text.replace(password, "…"),
        None => text.to_string(),
    }
}

/// The data folder: created if missing, and written to.
fn data_folder(report: &mut Report, dir: &std::path::Path) {
    let probe = dir.join(".arbiter-doctor-probe");
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&probe, b"a probe of arbiter doctor; safe to delete"))
        .and_then(|()| std::fs::remove_file(&probe));
    let outcome = match written {
        Ok(()) => Outcome::Pass(format!("{} is writable", dir.display())),
        Err(error) => Outcome::Fail(
            format!("cannot write in {} (ARBITER_DATA_DIR): {error}", dir.display()),
            "let the user running Arbiter write there (chown or chmod), or set ARBITER_DATA_DIR to a folder it may"
                .into(),
        ),
    };
    report.line("data folder", outcome);
}

/// DISCORD_GUILD_ID, when set, must be a server the bot is on: its commands are registered there.
async fn server(
    report: &mut Report,
    signed_in: Option<(&discord::Http, &discord::CurrentUser)>,
    guild_id: Option<&str>,
    invite: Option<&str>,
) {
    let Some(text) = guild_id.map(str::trim).filter(|text| !text.is_empty()) else {
        let found = "DISCORD_GUILD_ID is not set: the commands are registered for every server (they may take \
                     up to an hour to show)";
        report.line("server", Outcome::Pass(found.into()));
        return;
    };
    let Some(guild) = text.parse::<std::num::NonZeroU64>().ok().map(discord::GuildId::from) else {
        let fix = "copy the server's id: turn on Developer Mode (Discord's settings → Advanced), right-click the \
                   server's icon → Copy Server ID; or unset DISCORD_GUILD_ID";
        report.line(
            "server",
            Outcome::Fail(format!("DISCORD_GUILD_ID is `{text}`, not a server's id"), fix.into()),
        );
        return;
    };
    let Some((http, _)) = signed_in else {
        report.line("server", Outcome::Skip("needs Discord to accept the token".into()));
        return;
    };
    let outcome = match ask(http.get_guild(guild)).await {
        Ok(server) => Outcome::Pass(format!(
            "the bot is on \"{}\" ({guild}, DISCORD_GUILD_ID), where its commands are registered",
            server.name
        )),
        // Missing Access, Unknown Guild: Discord does not tell a server the bot is not on from
        // one that does not exist.
        Err(Trouble::Refused(403 | 404, ..)) => {
            let invite = match invite {
                Some(link) => format!("invite it with {link}"),
                None => "invite it with the link the application check gives once it passes".into(),
            };
            Outcome::Fail(
                format!("the bot is not on server {guild} (DISCORD_GUILD_ID)"),
                format!(
                    "{invite}; or, if the id is wrong, copy it again (right-click the server's icon → Copy Server ID)"
                ),
            )
        }
        Err(trouble) => trouble.outcome("reading the server"),
    };
    report.line("server", outcome);
}

/// The bot's permissions in a channel, by Discord's computation (the server's @everyone and the
/// bot's roles, then the channel's overwrites for @everyone, the roles and the bot itself): each
/// one games need and it lacks, with where to give it. A thread has its channel's.
async fn channel_permissions(
    http: &discord::Http,
    me: &discord::CurrentUser,
    channel_id: u64,
) -> Result<Outcome, Outcome> {
    let unseen = |trouble: Trouble| match trouble {
        Trouble::Refused(403 | 404, ..) => Outcome::Fail(
            format!("the bot cannot see channel {channel_id}"),
            "check the id (with Developer Mode on, right-click the channel → Copy Channel ID); if it is right, let \
             the bot's role View Channel there: Edit Channel → Permissions"
                .into(),
        ),
        other => other.outcome("reading the channel"),
    };
    let Some(id) = std::num::NonZeroU64::new(channel_id).map(discord::ChannelId::from) else {
        return Err(Outcome::Fail(
            "0 is not a channel's id".into(),
            "right-click the channel → Copy Channel ID".into(),
        ));
    };
    let Some(channel) = ask(http.get_channel(id)).await.map_err(unseen)?.guild() else {
        return Err(Outcome::Fail(
            format!("channel {channel_id} is a direct-message channel"),
            "give a channel of a server, where games are played".into(),
        ));
    };
    let in_thread = matches!(
        channel.kind,
        discord::ChannelType::PublicThread | discord::ChannelType::PrivateThread | discord::ChannelType::NewsThread
    );
    let governing = match channel.parent_id.filter(|_| in_thread) {
        Some(parent) => {
            let parent = ask(http.get_channel(parent)).await.map_err(unseen)?;
            parent.guild().unwrap_or_else(|| channel.clone())
        }
        None => channel.clone(),
    };
    let place = format!("#{}", governing.name);
    if !matches!(governing.kind, discord::ChannelType::Text | discord::ChannelType::News) {
        return Err(Outcome::Fail(
            format!(
                "{place} is a {} channel, where games cannot be posted",
                governing.kind.name()
            ),
            "give a text channel, or a thread in one".into(),
        ));
    }
    let server = ask(http.get_guild(channel.guild_id))
        .await
        .map_err(|trouble| trouble.outcome("reading the channel's server"))?;
    let member = ask(http.get_member(channel.guild_id, me.id))
        .await
        .map_err(|trouble| trouble.outcome("reading the bot's roles"))?;
    let needed = arbiter::discord::channel_permissions(in_thread);
    let lacking = needed - server.user_permissions_in(&governing, &member);
    let where_checked = if in_thread {
        format!("thread #{} (its channel {place}'s permissions)", channel.name)
    } else {
        place.clone()
    };
    if lacking.is_empty() {
        return Ok(Outcome::Pass(format!(
            "the bot has {} in {where_checked}",
            names(needed)
        )));
    }
    // Discord gives a bot a role of its own as it joins (named after it); without one, the
    // bot itself can be given the permissions, in the channel.
    let own_role = member
        .roles
        .iter()
        .filter_map(|id| server.roles.get(id))
        .find(|role| role.tags.bot_id == Some(me.id));
    let (whom, entry) = match own_role {
        Some(role) => (format!("the bot's role \"{}\"", role.name), role.name.clone()),
        None => (me.name.clone(), me.name.clone()),
    };
    let mut fix = format!(
        "give {whom} {} in {place}: Edit Channel → Permissions → {entry} → allow {}",
        names(lacking),
        if lacking.iter().count() == 1 { "it" } else { "them" }
    );
    // Missing on the whole server too: one change there serves every channel.
    let nowhere = lacking - server.member_permissions(&member);
    if !nowhere.is_empty() {
        let server_wide = match own_role {
            Some(_) => format!("Server Settings → Roles → {entry} gives them everywhere"),
            None => "a role with them (Server Settings → Roles) gives them everywhere".into(),
        };
        fix.push_str(&format!(
            "; the server does not give it {} anywhere: {server_wide}",
            names(nowhere)
        ));
    }
    Err(Outcome::Fail(
        format!("the bot lacks {} in {where_checked}", names(lacking)),
        fix,
    ))
}

/// Permissions by their names in Discord's settings: "Send Messages, Attach Files and ...".
fn names(permissions: discord::Permissions) -> String {
    let names = permissions.get_permission_names();
    match names.split_last() {
        None => "nothing".into(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_token_names_its_user_and_other_strings_are_not_tokens() {
        // "100000000000000002" in base64url, as Discord writes a token's first part.
        assert_eq!(
            user_id_of("MTAwMDAwMDAwMDAwMDAwMDAy.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789-_"),
            Some(100_000_000_000_000_002)
        );
        for not_a_token in [
            "",
            "test-token",
            "MTAwMDAwMDAwMDAwMDAwMDAy.GhIjKl",
            "MTAwMDAwMDAwMDAwMDAwMDAy..abc",
            "aGVsbG8.GhIjKl.abc",
            "MTAwMDAwMDAwMDAwMDAwMDAy.Gh Kl.abc",
            "MTAwMDAwMDAwMDAwMDAwMDAy.GhIjKl.abc.def",
        ] {
            assert_eq!(user_id_of(not_a_token), None, "{not_a_token}");
        }
    }

    #[test]
    fn a_password_never_shows_in_a_database_error() {
        let url = Some("postgres://arbiter:s3cret@db.example:5432/arbiter");
        assert_eq!(
            without_password("cannot connect to postgres://arbiter:s3cret@db.example", url),
            "cannot connect to postgres://arbiter:…@db.example"
        );
        assert_eq!(without_password("refused", Some("sqlite://data/x.db")), "refused");
    }

    #[test]
    fn permissions_are_named_as_discord_names_them() {
        let attach = discord::Permissions::ATTACH_FILES;
        assert_eq!(names(attach), "Attach Files");
        assert_eq!(
            names(attach | discord::Permissions::VIEW_CHANNEL | discord::Permissions::SEND_MESSAGES),
            "View Channel, Send Messages and Attach Files"
        );
    }
}
