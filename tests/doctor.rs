//! `arbiter doctor` against the fake Discord, run as its users run it: a good set-up passes every
//! check; a wrong token, a server the bot is not on, a channel without Attach Files, a stale
//! database and one newer than the binary are each named with their fix, and fail the run.

#[path = "support/mod.rs"]
mod support;

use base64::Engine;
use fake_discord::FakeDiscord;
use fake_discord::permissions::{ATTACH_FILES, DEFAULT};
use std::path::{Path, PathBuf};

/// A channel of the fake's server.
const CHANNEL: u64 = 5_000;

/// A token shaped as Discord makes them, for the fake's bot: its user id in base64, a
/// timestamp, a signature.
fn token(signature: &str) -> String {
    let id = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(FakeDiscord::BOT_USER_ID.to_string());
    format!("{id}.GhIjKl.{signature}")
}

fn good_token() -> String {
    token("abcdefghijklmnopqrstuvwxyz0123456789AB")
}

/// A fresh data folder, removed afterwards however the test ends.
struct DataDir(tempfile::TempDir);

impl DataDir {
    fn new() -> DataDir {
        DataDir(tempfile::Builder::new().prefix("arbiter-doctor-").tempdir().unwrap())
    }

    fn path(&self) -> &std::path::Path {
        self.0.path()
    }

    fn database(&self) -> PathBuf {
        self.path().join("arbiter.db")
    }
}

/// What one run of the doctor said.
struct Run {
    passed: bool,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The line of a check (its name, after the verdict), with the lines under it (the fix,
    /// the invite link), which are indented.
    fn check(&self, name: &str) -> String {
        let mut lines = self
            .stdout
            .lines()
            .skip_while(|line| line.get(6..).is_none_or(|rest| !rest.starts_with(&format!("{name}:"))));
        let first = lines
            .next()
            .unwrap_or_else(|| panic!("no line for {name}:\n{}", self.stdout));
        let under = lines.take_while(|line| line.starts_with("      "));
        std::iter::once(first).chain(under).collect::<Vec<_>>().join("\n")
    }
}

/// The fake Discord, accepting the good token only, with the channel on its server.
async fn fake() -> FakeDiscord {
    let fake = FakeDiscord::start().await;
    fake.accept_only_token(&good_token());
    fake.add_channel(CHANNEL, FakeDiscord::GUILD_ID);
    fake
}

/// What most tests start from: the fake Discord (see [`fake`]) and a fresh data folder.
async fn set_up() -> (FakeDiscord, DataDir) {
    (fake().await, DataDir::new())
}

/// Runs `arbiter doctor` with only these settings; prints what it said (the test's record).
async fn doctor(fake: &FakeDiscord, data: &DataDir, settings: &[(&str, &str)], args: &[&str]) -> Run {
    let mut command = support::arbiter_binary();
    command
        .arg("doctor")
        .args(args)
        .env("DISCORD_API_BASE", fake.api_base())
        .env("ARBITER_DATA_DIR", data.path());
    for (name, value) in settings {
        command.env(name, value);
    }
    let output = tokio::task::spawn_blocking(move || command.output().expect("the arbiter binary runs"))
        .await
        .unwrap();
    let run = Run {
        passed: output.status.success(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    println!(
        "$ arbiter doctor {}\n{}{}(exit {:?})\n",
        args.join(" "),
        run.stdout,
        run.stderr,
        output.status.code()
    );
    run
}

/// Runs `arbiter doctor` with the good token and these other settings (see [`doctor`]).
async fn doctor_with_good_token(fake: &FakeDiscord, data: &DataDir, settings: &[(&str, &str)], args: &[&str]) -> Run {
    let token = good_token();
    let mut all = vec![("DISCORD_TOKEN", token.as_str())];
    all.extend_from_slice(settings);
    doctor(fake, data, &all, args).await
}

fn invite_link() -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={}&scope=bot+applications.commands&permissions=",
        FakeDiscord::APPLICATION_ID
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_set_up_passes_every_check_and_gives_the_invite_link() {
    let (fake, data) = set_up().await;
    let guild = FakeDiscord::GUILD_ID.to_string();
    let settings = [("DISCORD_GUILD_ID", guild.as_str())];
    let run = doctor_with_good_token(&fake, &data, &settings, &["--channel", &CHANNEL.to_string()]).await;
    assert!(run.passed, "{}{}", run.stdout, run.stderr);
    let verdicts: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let checks = [
        "token",
        "Discord",
        "application",
        "operators' routes",
        "database URL",
        "database",
        "data folder",
        "server",
        "channel 5000",
    ];
    for check in checks {
        assert!(run.check(check).starts_with("ok    "), "{}", run.stdout);
    }
    assert!(
        !verdicts.contains(&"FAIL") && !verdicts.contains(&"skip"),
        "{}",
        run.stdout
    );
    // Every needed permission, and no more: View Channel, Send Messages, Attach Files, Create
    // Public Threads, Send Messages in Threads.
    let permissions = (1u64 << 10) | (1 << 11) | (1 << 15) | (1 << 35) | (1 << 38);
    assert!(
        run.check("application")
            .contains(&format!("{}{permissions}", invite_link())),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("All 9 checks passed."), "{}", run.stdout);
    // Off is a choice, not a failure: the line says how to turn them on, and where not to.
    let routes = run.check("operators' routes");
    assert!(
        routes.contains("off: /metrics, /healthz and /readyz are not served")
            && routes.contains("set ARBITER_METRICS_ADDR=127.0.0.1:9100, kept off the public internet"),
        "{routes}"
    );
    assert!(!run.stdout.contains(&good_token()), "the token is never printed");
    assert!(!data.database().exists(), "the doctor creates no database");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_is_named_with_its_fix_and_the_checks_that_need_it_are_skipped() {
    let (fake, data) = set_up().await;
    let wrong = token("zyxwvutsrqponmlkjihgfedcba9876543210ZY");
    let guild = FakeDiscord::GUILD_ID.to_string();
    let channel = CHANNEL.to_string();
    let run = doctor(
        &fake,
        &data,
        &[("DISCORD_TOKEN", &wrong), ("DISCORD_GUILD_ID", &guild)],
        &["--channel", &channel],
    )
    .await;
    assert!(!run.passed);
    assert!(run.check("token").starts_with("ok"), "{}", run.stdout);
    let refused = run.check("Discord");
    assert!(
        refused.starts_with("FAIL") && refused.contains("refused the token (401") && refused.contains("Reset Token"),
        "{refused}"
    );
    for later in ["application", "server", "channel 5000"] {
        assert!(run.check(later).starts_with("skip"), "{}", run.stdout);
    }
    // What needs no Discord is still checked.
    assert!(run.check("data folder").starts_with("ok"), "{}", run.stdout);
    assert!(run.stderr.contains("1 of 9 checks failed"), "{}", run.stderr);
    assert!(!run.stdout.contains(&wrong));

    // A token of the wrong shape is not sent at all; a missing one is named.
    let run = doctor(&fake, &data, &[("DISCORD_TOKEN", "test-token")], &[]).await;
    let shape = run.check("token");
    assert!(
        shape.starts_with("FAIL") && shape.contains("not shaped like a bot token"),
        "{shape}"
    );
    assert!(run.check("Discord").starts_with("skip"), "{}", run.stdout);
    let run = doctor(&fake, &data, &[], &[]).await;
    assert!(
        run.check("token").contains("DISCORD_TOKEN is not set"),
        "{}",
        run.stdout
    );
    assert!(!run.passed);
    assert_eq!(fake.calls().len(), 1, "only the first run asked Discord, once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_the_bot_is_not_on_is_named_with_the_invite_link() {
    let (fake, data) = set_up().await;
    let run = doctor_with_good_token(&fake, &data, &[("DISCORD_GUILD_ID", "42")], &[]).await;
    assert!(!run.passed);
    let server = run.check("server");
    assert!(
        server.starts_with("FAIL") && server.contains("not on server 42") && server.contains(&invite_link()),
        "{server}"
    );
    assert!(run.check("application").starts_with("ok"), "{}", run.stdout);

    let run = doctor_with_good_token(&fake, &data, &[("DISCORD_GUILD_ID", "my server")], &[]).await;
    assert!(run.check("server").contains("not a server's id"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_without_attach_files_is_named_with_where_to_give_it() {
    let (fake, data) = set_up().await;
    fake.set_bot_permissions(CHANNEL, DEFAULT & !ATTACH_FILES);
    let guild = FakeDiscord::GUILD_ID.to_string();
    let settings = [("DISCORD_GUILD_ID", guild.as_str())];
    let run = doctor_with_good_token(&fake, &data, &settings, &["--channel", &CHANNEL.to_string()]).await;
    assert!(!run.passed);
    let channel = run.check("channel 5000");
    assert!(
        channel.starts_with("FAIL")
            && channel.contains("lacks Attach Files in #channel5000")
            && channel.contains("Edit Channel → Permissions"),
        "{channel}"
    );
    assert!(!channel.contains("Send Messages"), "only what is missing: {channel}");
    for check in ["token", "Discord", "application", "database", "data folder", "server"] {
        assert!(run.check(check).starts_with("ok"), "{}", run.stdout);
    }

    // In a thread, its channel's permissions hold.
    let http = serenity::all::HttpBuilder::new(good_token())
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let thread = serenity::all::ChannelId::new(CHANNEL)
        .create_thread(
            &http,
            serenity::all::CreateThread::new("game 1").kind(serenity::all::ChannelType::PublicThread),
        )
        .await
        .expect("a thread");
    let run = doctor_with_good_token(&fake, &data, &[], &["--channel", &thread.id.to_string()]).await;
    let in_thread = run.check(&format!("channel {}", thread.id));
    assert!(
        in_thread.contains("lacks Attach Files in thread #game 1 (its channel #channel5000's permissions)")
            && in_thread.contains("Attach Files in #channel5000: Edit Channel → Permissions → Arbiter → allow it"),
        "{in_thread}"
    );

    // A channel the bot cannot see.
    let run = doctor_with_good_token(&fake, &data, &[], &["--channel", "6000"]).await;
    assert!(
        run.check("channel 6000").contains("cannot see channel 6000"),
        "{}",
        run.stdout
    );
}

/// An embedded database with only the first of the binary's migrations applied, as sqlx
/// applies them.
async fn stale_database(path: &Path) {
    let first_only = path.with_extension("migrations");
    std::fs::create_dir_all(&first_only).unwrap();
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    for entry in std::fs::read_dir(migrations).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name().to_string_lossy().starts_with("0001_") {
            std::fs::copy(entry.path(), first_only.join(entry.file_name())).unwrap();
        }
    }
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap();
    let migrator = sqlx::migrate::Migrator::new(first_only.as_path()).await.unwrap();
    migrator.run(&pool).await.unwrap();
    pool.close().await;
    std::fs::remove_dir_all(first_only).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_database_asks_for_a_backup_and_a_newer_one_is_refused() {
    let (fake, data) = set_up().await;
    stale_database(&data.database()).await;
    let run = doctor_with_good_token(&fake, &data, &[], &[]).await;
    assert!(!run.passed);
    let stale = run.check("database");
    assert!(
        stale.starts_with("FAIL")
            && stale.contains("at schema version 1;")
            && stale.contains("brings it to")
            && stale.contains("arbiter backup FILE"),
        "{stale}"
    );
    assert!(run.check("data folder").starts_with("ok"), "{}", run.stdout);

    // Brought up to date, then moved on by a newer Arbiter.
    let data = DataDir::new();
    drop(
        arbiter::store::open(None, data.path())
            .await
            .expect("the embedded database opens"),
    );
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", data.database().display()))
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99, 'from the future', TRUE, X'00', 0)",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query("INSERT INTO schema_versions (version, arbiter_version) VALUES (99, '9.9.0')")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let run = doctor_with_good_token(&fake, &data, &[], &[]).await;
    assert!(!run.passed);
    let newer = run.check("database");
    assert!(
        newer.starts_with("FAIL")
            && newer.contains("schema version 99")
            && newer.contains("Arbiter 9.9.0 or newer")
            && newer.contains("restore the backup"),
        "{newer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_does_not_answer_is_named_without_its_password() {
    let (fake, data) = set_up().await;
    // Nothing listens on port 1.
    let url = "postgres://arbiter:s3cret-word@127.0.0.1:1/arbiter";
    let run = doctor_with_good_token(&fake, &data, &[("DATABASE_URL", url)], &[]).await;
    assert!(!run.passed);
    let database = run.check("database");
    assert!(
        database.starts_with("FAIL") && database.contains("DATABASE_URL"),
        "{database}"
    );
    assert!(
        run.check("database URL").contains("postgres://…@127.0.0.1:1/arbiter"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("s3cret") && !run.stderr.contains("s3cret"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operators_routes_are_named_where_they_are_served_and_a_malformed_address_fails() {
    let (fake, data) = set_up().await;
    let run_at = async |address| doctor_with_good_token(&fake, &data, &[("ARBITER_METRICS_ADDR", address)], &[]).await;
    let routes = run_at("127.0.0.1:9100").await.check("operators' routes");
    assert!(
        routes.starts_with("ok") && routes.contains("served on 127.0.0.1:9100 (ARBITER_METRICS_ADDR)"),
        "{routes}"
    );
    assert!(!routes.contains("reachable from other machines"), "{routes}");
    let routes = run_at("0.0.0.0:9100").await.check("operators' routes");
    assert!(
        routes.starts_with("ok") && routes.contains("reachable from other machines: keep it off the public internet"),
        "{routes}"
    );
    let run = run_at("9100").await;
    let routes = run.check("operators' routes");
    assert!(
        routes.starts_with("FAIL")
            && routes.contains("\"9100\" is not an address and port")
            && routes.contains("127.0.0.1:9100"),
        "{routes}"
    );
    assert!(!run.passed);
}
