//! `arbiter local --web 127.0.0.1:0` as a child process: commands written to it, its answers
//! read back, the pages' address from its start-up line.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub struct Terminal {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// http://127.0.0.1:PORT
    pub base: String,
}

impl Terminal {
    /// The terminal on the embedded database in `data`, serving pages at `addr`.
    pub fn start(data: &Path, addr: &str) -> Terminal {
        Terminal::start_with(data, addr, &[])
    }

    /// The same, with these settings (`ARBITER_WEB_MAX_STREAMS` and the like) in its environment.
    pub fn start_with(data: &Path, addr: &str, settings: &[(&str, &str)]) -> Terminal {
        let mut child = crate::support::arbiter_binary()
            .args(["local", "--no-images", "--web", addr, "--data-dir"])
            .arg(data)
            .envs(settings.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbiter starts");
        let stdin = child.stdin.take().unwrap();
        let (send, lines) = channel();
        let stdout = child.stdout.take().unwrap();
        let out = send.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = out.send(line);
            }
        });
        let stderr = child.stderr.take().unwrap();
        let (send_base, base) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("Serving the live pages at ") {
                    let _ = send_base.send(rest.split_whitespace().next().unwrap_or_default().to_string());
                }
            }
        });
        let base = base.recv_timeout(Duration::from_secs(30)).expect("the pages' address");
        Terminal {
            child,
            stdin,
            lines,
            base,
        }
    }

    /// Types a line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the terminal reads");
        self.stdin.flush().unwrap();
    }

    /// Reads printed lines until one satisfies `wanted`; every line read, that one last.
    pub fn read_until(&mut self, wanted: impl Fn(&str) -> bool) -> Vec<String> {
        let start = Instant::now();
        let mut read = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => {
                    let done = wanted(&line);
                    read.push(line);
                    if done {
                        return read;
                    }
                }
                Err(RecvTimeoutError::Timeout) if start.elapsed() < Duration::from_secs(30) => {}
                Err(error) => panic!("waited for a line ({error}); read:\n{}", read.join("\n")),
            }
        }
    }

    /// `watch #id`: the page and overlay links, each alone on its line.
    pub fn links(&mut self, user: &str, game: u32) -> (String, String) {
        self.send(&format!("{user}: watch #{game}"));
        let read = self.read_until(|line| line.starts_with("http") && line.contains("/overlay/"));
        let urls: Vec<&String> = read.iter().filter(|line| line.starts_with("http")).collect();
        assert_eq!(urls.len(), 2, "{read:?}");
        assert!(urls[0].contains("/watch/"), "{read:?}");
        (urls[0].clone(), urls[1].clone())
    }

    /// Stops it as a crash would.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
