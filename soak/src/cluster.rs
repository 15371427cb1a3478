//! A PostgreSQL cluster of the soak's own (`--own-postgres`): made with `initdb` in a temporary
//! folder, served on a free port, restarted mid-run as a crash would (`pg_ctl stop -m immediate`,
//! then start, which replays its write-ahead log), and removed at the end. No other test sees it.
//! Run as root, the server's tools run as the `postgres` user, as PostgreSQL requires.

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
}

impl Cluster {
    /// Makes and starts a cluster; its URL for the database `postgres` is [`Cluster::url`].
    pub fn start() -> anyhow::Result<Cluster> {
        let bin = bin_dir()?;
        let as_postgres = is_root();
        let data = std::env::temp_dir().join(format!("arbiter-soak-pg-{}", std::process::id()));
        std::fs::create_dir_all(&data)?;
        if as_postgres {
            run(Command::new("chown").args(["postgres:postgres", &data.to_string_lossy()]))?;
        }
        let port = free_port()?;
        let cluster = Cluster {
            bin,
            data,
            port,
            as_postgres,
        };
        let data = cluster.data.to_string_lossy().into_owned();
        cluster.tool("initdb", &["-D", &data, "-A", "trust", "-U", "postgres", "--no-sync"])?;
        cluster.start_server()?;
        Ok(cluster)
    }

    /// The URL of its database `postgres`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server at once, as a crash would, and starts it again.
    pub fn restart(&self) -> anyhow::Result<()> {
        let data = self.data.to_string_lossy().into_owned();
        self.tool("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])?;
        self.start_server()
    }

    fn start_server(&self) -> anyhow::Result<()> {
        let data = self.data.to_string_lossy().into_owned();
        let options = format!(
            "-p {} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port
        );
        let log = self.data.join("server.log").to_string_lossy().into_owned();
        self.tool("pg_ctl", &["-D", &data, "-o", &options, "-l", &log, "-w", "start"])
    }

    /// Runs one of the server's tools (as `postgres` when the soak runs as root).
    fn tool(&self, name: &str, args: &[&str]) -> anyhow::Result<()> {
        let program = self.bin.join(name);
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&program);
            command
        } else {
            Command::new(&program)
        };
        command.args(args);
        run(&mut command)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data.to_string_lossy().into_owned();
        let _ = self.tool("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

fn run(command: &mut Command) -> anyhow::Result<()> {
    let output = command.output().with_context(|| format!("running {command:?}"))?;
    if !output.status.success() {
        bail!(
            "{command:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

/// Where the server's tools are: `pg_config --bindir`, else the newest under
/// /usr/lib/postgresql (Debian's packages keep them off the PATH).
fn bin_dir() -> anyhow::Result<PathBuf> {
    if let Ok(output) = Command::new("pg_config").arg("--bindir").output()
        && output.status.success()
    {
        let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if dir.join("initdb").exists() {
            return Ok(dir);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    versions.sort();
    versions
        .into_iter()
        .rev()
        .find(|dir| Path::new(dir).join("initdb").exists())
        .context("no PostgreSQL server tools (initdb, pg_ctl) on this machine")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// A port nobody listens on now.
fn free_port() -> anyhow::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}
