//! A headless Chromium driven through the DevTools protocol: open a page, run a script in it,
//! take a screenshot. Chromium is Debian's package (`.ci/run` installs it); outside CI a machine
//! without it skips these tests with a message, in CI they fail.

use base64::Engine;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub struct Browser {
    child: Child,
    /// ws://127.0.0.1:PORT/devtools/browser/...: where pages are opened.
    endpoint: String,
    _profile: tempdir::Dir,
}

impl Browser {
    /// A fresh headless Chromium, or none (with a message) where it is not installed outside CI.
    pub fn start() -> Option<Browser> {
        let Some(program) = ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .find(|name| {
                Command::new(name)
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
            })
        else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI runs the browser tests: install Chromium (apt-get install chromium)"
            );
            eprintln!("skipped: no Chromium on this machine (apt-get install chromium)");
            return None;
        };
        let profile = tempdir::new();
        let mut child = Command::new(program)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--window-size=1920,1080",
                "--no-first-run",
                "--no-default-browser-check",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("Chromium starts");
        let stderr = child.stderr.take().expect("its stderr");
        let mut endpoint = None;
        for line in BufReader::new(stderr).lines() {
            let line = line.expect("Chromium's output");
            if let Some(at) = line.strip_prefix("DevTools listening on ") {
                endpoint = Some(at.trim().to_string());
                break;
            }
        }
        Some(Browser {
            child,
            endpoint: endpoint.expect("Chromium says where DevTools listen"),
            _profile: profile,
        })
    }

    /// A new tab showing `url`, 1920x1080, loaded.
    pub async fn open(&self, url: &str) -> Page {
        self.open_sized(url, 1920, 1080).await
    }

    /// A new 1920x1080 tab showing an overlay at `url` as OBS shows it: over a transparent
    /// background, so whatever the page leaves unpainted stays see-through.
    pub async fn open_overlay(&self, url: &str) -> Page {
        let mut overlay = self.open(url).await;
        overlay
            .call(
                "Emulation.setDefaultBackgroundColorOverride",
                json!({ "color": { "r": 0, "g": 0, "b": 0, "a": 0 } }),
            )
            .await;
        overlay
    }

    /// A new tab of `width` x `height` showing `url`, loaded.
    pub async fn open_sized(&self, url: &str, width: u32, height: u32) -> Page {
        let (socket, _) = tokio_tungstenite::connect_async(&self.endpoint)
            .await
            .expect("DevTools");
        let mut browser = Page { socket, next: 0 };
        let target = browser
            .call("Target.createTarget", json!({ "url": "about:blank" }))
            .await;
        let target = target["targetId"].as_str().expect("a target").to_string();
        let page_endpoint = self.endpoint.replace(
            &self.endpoint[self.endpoint.find("/devtools/").unwrap()..],
            &format!("/devtools/page/{target}"),
        );
        let (socket, _) = tokio_tungstenite::connect_async(&page_endpoint)
            .await
            .expect("the page's DevTools");
        let mut page = Page { socket, next: 0 };
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        )
        .await;
        page.call("Page.enable", json!({})).await;
        page.call("Page.navigate", json!({ "url": url })).await;
        page.wait_for("document.readyState === 'complete'", Duration::from_secs(10))
            .await;
        page
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Page {
    socket: Socket,
    next: u64,
}

impl Page {
    /// Calls a DevTools method and waits for its answer (events on the way are skipped).
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let request = json!({ "id": id, "method": method, "params": params }).to_string();
        self.socket
            .send(Message::text(request))
            .await
            .expect("DevTools takes a call");
        loop {
            let message = self.socket.next().await.expect("DevTools answers").expect("a message");
            let Message::Text(text) = message else { continue };
            let answer: Value = serde_json::from_str(&text).expect("JSON");
            if answer["id"] == json!(id) {
                assert!(answer.get("error").is_none(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// The value of a script run in the page.
    pub async fn eval(&mut self, script: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({ "expression": script, "returnByValue": true, "awaitPromise": true }),
            )
            .await;
        result["result"]["value"].clone()
    }

    /// Waits until `condition` (a script) is true; how long that took.
    pub async fn wait_for(&mut self, condition: &str, patience: Duration) -> Duration {
        let start = Instant::now();
        loop {
            if self.eval(condition).await == json!(true) {
                return start.elapsed();
            }
            assert!(start.elapsed() < patience, "waited {patience:?} for `{condition}`");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// A screenshot of the viewport as PNG.
    pub async fn screenshot_png(&mut self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" })).await;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("image data"))
            .expect("base64")
    }

    /// A screenshot of the viewport, decoded: width, height and RGBA pixels.
    pub async fn screenshot(&mut self) -> (u32, u32, Vec<u8>) {
        let png = self.screenshot_png().await;
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut pixels).expect("its pixels");
        pixels.truncate(info.buffer_size());
        let rgba = match info.color_type {
            png::ColorType::Rgba => pixels,
            png::ColorType::Rgb => pixels.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
            other => panic!("a screenshot in {other:?}"),
        };
        (info.width, info.height, rgba)
    }
}

/// A scratch directory removed when dropped, however the test ends.
pub mod tempdir {
    pub type Dir = tempfile::TempDir;

    /// A new, empty scratch directory.
    pub fn new() -> Dir {
        tempfile::Builder::new()
            .prefix("arbiter-web-")
            .tempdir()
            .expect("a scratch directory")
    }
}
