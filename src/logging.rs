//! The log. Whatever `ARBITER_LOG` asks for, what the libraries under the bot would say below a
//! warning stays out: serenity, poise, reqwest and the HTTP and websocket crates log requests,
//! gateway payloads and URLs at their debug and trace levels, and those carry interaction
//! tokens, DM text and secret choices. Arbiter's own lines name games and users by id and never
//! hold what a player sent.

use tracing::Level;
use tracing_subscriber::filter::{EnvFilter, Targets};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// An error as the log may show it: what went wrong, never the address it went to (the URLs
/// of Discord's interaction and webhook endpoints carry their tokens) nor what was sent. Discord's
/// own answers are shown by their status, code and message.
pub struct Quiet<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Quiet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut cause = Some(self.0);
        let mut first = true;
        while let Some(error) = cause {
            if !first {
                f.write_str(": ")?;
            }
            first = false;
            match error.downcast_ref::<serenity::Error>() {
                Some(serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(answer))) => {
                    write!(
                        f,
                        "Discord answered {} (code {}): {}",
                        answer.status_code.as_u16(),
                        answer.error.code,
                        without_urls(&answer.error.message)
                    )?;
                    return Ok(());
                }
                _ => f.write_str(&without_urls(&error.to_string()))?,
            }
            cause = error.source();
        }
        Ok(())
    }
}

/// `text` with every URL in it replaced by "(an address)".
pub fn without_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = ["http://", "https://", "ws://", "wss://"]
        .iter()
        .filter_map(|scheme| rest.find(scheme))
        .min()
    {
        out.push_str(&rest[..start]);
        out.push_str("(an address)");
        let after = &rest[start..];
        let end = after
            .find(|c: char| c.is_whitespace() || c == ')' || c == '"')
            .unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The libraries held to warnings and errors, however verbose the log is set.
pub const QUIET_LIBRARIES: [&str; 11] = [
    "serenity",
    "poise",
    "reqwest",
    "hyper",
    "hyper_util",
    "h2",
    "tungstenite",
    "tokio_tungstenite",
    "async_tungstenite",
    "rustls",
    "sqlx",
];

/// What the log shows when `ARBITER_LOG` is not set.
pub fn default_filter(is_bot: bool) -> &'static str {
    // The bot says what it is doing as it starts (info); other commands only warn.
    if is_bot { "warn,arbiter=info" } else { "warn" }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Lines for people (coloured in a terminal).
    Plain { ansi: bool },
    /// A JSON object a line, its fields (game, user, server ids) as keys: for log collectors.
    Json,
}

/// The log's layer: `spec` (a tracing filter, such as `ARBITER_LOG`'s) within the caps, writing
/// lines of `format` to `writer`.
pub fn layer<S, W>(spec: &str, writer: W, format: Format) -> impl Layer<S>
where
    S: tracing::Subscriber + for<'span> LookupSpan<'span>,
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let wanted = EnvFilter::try_new(spec).unwrap_or_else(|error| {
        eprintln!("ARBITER_LOG \"{spec}\" is not a filter ({error}); logging warnings");
        EnvFilter::new("warn")
    });
    let caps = QUIET_LIBRARIES
        .iter()
        .fold(Targets::new().with_default(Level::TRACE), |caps, library| {
            caps.with_target(*library, Level::WARN)
        })
        // serenity warns with the whole gateway payload (interaction tokens and all) when one
        // does not parse: only its errors are kept.
        .with_target("serenity::gateway::ws", Level::ERROR);
    let lines: Box<dyn Layer<S> + Send + Sync> = match format {
        Format::Plain { ansi } => tracing_subscriber::fmt::layer()
            .with_ansi(ansi)
            .with_writer(writer)
            .boxed(),
        Format::Json => tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .with_writer(writer)
            .boxed(),
    };
    lines.with_filter(wanted).with_filter(caps)
}

/// Sends the process's log to standard error: `ARBITER_LOG`, else `default`; as JSON lines when
/// `ARBITER_LOG_FORMAT` is `json`.
pub fn init(default: &str) {
    let spec = std::env::var("ARBITER_LOG").unwrap_or_else(|_| default.to_string());
    let format = match std::env::var("ARBITER_LOG_FORMAT").as_deref() {
        Ok("json") => Format::Json,
        Ok("plain" | "") | Err(_) => Format::Plain {
            ansi: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        },
        Ok(other) => {
            eprintln!("ARBITER_LOG_FORMAT \"{other}\" is neither json nor plain; writing plain lines");
            Format::Plain { ansi: false }
        }
    };
    let subscriber = tracing_subscriber::registry().with(layer(&spec, std::io::stderr, format));
    if tracing::subscriber::set_global_default(subscriber).is_err() {
        eprintln!("a log was already set up");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn logged_errors_never_show_an_address_or_its_token() {
        assert_eq!(
            without_urls(
                "error sending request for url (http://127.0.0.1:9/api/v10/webhooks/1/tok3n/messages/@original)"
            ),
            "error sending request for url ((an address))"
        );
        #[derive(Debug)]
        struct Outer(std::io::Error);
        impl std::fmt::Display for Outer {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("could not answer")
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let inner = std::io::Error::other("refused at https://discord.com/api/v10/interactions/5/secret/callback");
        let shown = Quiet(&Outer(inner)).to_string();
        assert_eq!(shown, "could not answer: refused at (an address)");
    }

    #[test]
    fn libraries_stay_below_debug_whatever_the_log_asks() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::registry().with(layer(
            "trace,serenity=trace",
            move || writer.clone(),
            Format::Plain { ansi: false },
        ));
        tracing::subscriber::with_default(subscriber, || {
            tracing::debug!(target: "serenity::http", "POST /interactions/1/secret-token/callback");
            tracing::trace!(target: "reqwest::connect", "a body");
            tracing::warn!(target: "serenity::gateway", "a reconnect");
            tracing::warn!(target: "serenity::gateway::ws", "Err deserializing text: x; text: {{\"token\":\"t0k\"}}");
            tracing::debug!(target: "arbiter::arena", game = 7, "a move was saved");
        });
        let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert!(
            !log.contains("secret-token") && !log.contains("a body") && !log.contains("t0k"),
            "{log}"
        );
        assert!(log.contains("a reconnect") && log.contains("a move was saved"), "{log}");
    }
}
