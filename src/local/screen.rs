//! What the terminal prints passes through here last: only what a reader can see reaches the
//! screen (`visible_text::lines`). Whatever users typed (their names, a move quoted back in a
//! refusal, a list's lines, a record's names) may hold escape sequences that would recolour,
//! clear or retitle the terminal, a carriage return that prints over a line, or direction
//! overrides that reverse what follows; none of it is printed.

use crate::visible_text;
use std::io::{self, Write};

/// A writer that prints only what a reader can see, line breaks kept.
pub struct Screen<W: Write> {
    inner: W,
    /// The start of a character cut off at the end of the last write, until its rest comes.
    pending: Vec<u8>,
}

impl<W: Write> Screen<W> {
    pub fn new(inner: W) -> Screen<W> {
        Screen {
            inner,
            pending: Vec::new(),
        }
    }
}

impl<W: Write> Write for Screen<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        let mut text = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(whole) => {
                    text.push_str(whole);
                    self.pending.clear();
                    break;
                }
                Err(error) => {
                    let valid = error.valid_up_to();
                    text.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match error.error_len() {
                        // Bytes that are no character: shown as one that says so.
                        Some(bad) => {
                            text.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                        // A character cut in two: its rest comes with the next write.
                        None => {
                            self.pending.drain(..valid);
                            break;
                        }
                    }
                }
            }
        }
        self.inner.write_all(visible_text::lines(&text).as_bytes())?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_overrides_and_carriage_returns_never_reach_the_screen() {
        let mut printed = Vec::new();
        let mut screen = Screen::new(&mut printed);
        write!(
            screen,
            "(to \u{1B}]0;owned\u{7}al\u{202E}ice) error: \"e4\u{1B}[2J\"\r\n"
        )
        .unwrap();
        // A character split between two writes is printed whole.
        let heart = "\u{2764}".as_bytes();
        screen.write_all(&heart[..1]).unwrap();
        screen.write_all(&heart[1..]).unwrap();
        screen.write_all(b" \xff\n").unwrap();
        let printed = String::from_utf8(printed).unwrap();
        assert_eq!(printed, "(to ]0;ownedalice) error: \"e4[2J\"\n\u{2764} \u{FFFD}\n");
    }
}
