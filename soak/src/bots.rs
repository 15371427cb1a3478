//! The real `arbiter bot` binary as two processes splitting two shards on one PostgreSQL
//! database, against the fake Discord; either may be killed outright (SIGKILL) and started again.

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The bot binary built alongside this one (same profile), built first when it is missing.
pub fn binary() -> anyhow::Result<PathBuf> {
    let dir = std::env::current_exe()?
        .parent()
        .context("the soak binary has a folder")?
        .to_path_buf();
    let bot = dir.join("arbiter");
    if !bot.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "-p", "arbiter", "--bin", "arbiter"]);
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        if !build.status()?.success() {
            bail!("building the arbiter binary failed");
        }
    }
    Ok(bot)
}

/// One bot process: the shard it runs, and the process while it runs.
pub struct BotProcess {
    shard: u32,
    child: Option<Child>,
    log: PathBuf,
}

/// The two processes.
pub struct Bots {
    binary: PathBuf,
    api_base: String,
    database: String,
    broken: Option<String>,
    pub processes: Vec<BotProcess>,
}

impl Bots {
    /// Starts one process per shard of two, logging to `logs`.
    /// With `broken`, each process is asked to have those defects (`ARBITER_BROKEN`).
    pub fn start(
        binary: PathBuf,
        api_base: String,
        database: String,
        broken: Option<String>,
        logs: &Path,
    ) -> anyhow::Result<Bots> {
        let mut bots = Bots {
            binary,
            api_base,
            database,
            broken,
            processes: (0..2)
                .map(|shard| BotProcess {
                    shard,
                    child: None,
                    log: logs.join(format!("bot-{shard}.log")),
                })
                .collect(),
        };
        for index in 0..bots.processes.len() {
            bots.spawn(index)?;
        }
        Ok(bots)
    }

    fn spawn(&mut self, index: usize) -> anyhow::Result<()> {
        let process = &mut self.processes[index];
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&process.log)?;
        let mut command = Command::new(&self.binary);
        if let Some(broken) = &self.broken {
            command.env("ARBITER_BROKEN", broken);
        }
        let child = command
            .arg("bot")
            .env("ARBITER_NO_DOTENV", "1")
            .env("DISCORD_TOKEN", format!("soak-token-{}", process.shard))
            .env("DISCORD_API_BASE", &self.api_base)
            .env("DISCORD_GUILD_ID", fake_discord::FakeDiscord::GUILD_ID.to_string())
            .env("DISCORD_SHARDS", "2")
            .env("DISCORD_SHARD_RANGE", process.shard.to_string())
            .env("DATABASE_URL", &self.database)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .context("the bot binary starts")?;
        process.child = Some(child);
        Ok(())
    }

    /// Kills process `index` outright, as a crash or an OOM kill would.
    pub fn kill(&mut self, index: usize) {
        if let Some(mut child) = self.processes[index].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts process `index` again if it is not running.
    pub fn restart(&mut self, index: usize) -> anyhow::Result<()> {
        if self.processes[index].child.is_none() {
            self.spawn(index)?;
        }
        Ok(())
    }

    /// Stops every process as an operator would (SIGTERM), waiting for each to finish.
    pub fn stop(&mut self) {
        for process in &mut self.processes {
            if let Some(mut child) = process.child.take() {
                let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
                let _ = child.wait();
            }
        }
    }
}

impl Drop for Bots {
    fn drop(&mut self) {
        for index in 0..self.processes.len() {
            self.kill(index);
        }
    }
}
