//! PGN, the record format chess tools share: tag pairs, then movetext with move numbers,
//! `{comments}` (clocks as `[%clk h:mm:ss]`) and the result. Written for every game: chess as
//! standard PGN (so Lichess and other tools read it), the other games with a `Variant` tag and
//! each game's own notation, as pychess-variants does. Read back leniently: variations, NAGs,
//! annotation marks and `;` comments are skipped; errors name the line.

use arbiter_engine::Seat;

/// The largest record accepted, and the most moves in one.
pub const MAX_BYTES: usize = 1 << 20;
pub const MAX_MOVES: usize = 20_000;

/// One move (or placement, or choice) as written in a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    pub seat: Seat,
    /// The move in the game's notation; none for a secret the reader may not know.
    pub text: Option<String>,
    /// What stands in a hidden move's place, as a comment.
    pub hidden_as: String,
    /// The mover's clock after the move, in timed games.
    pub clock_ms: Option<i64>,
    /// False for a step of a game's protocol (an answer to a proposal): it gets no move number.
    pub is_move: bool,
    /// The entry of the game's record it writes.
    pub entry: usize,
    /// An analysis's judgement of it (`?!`, `?`, `??`).
    pub mark: Option<&'static str>,
    /// An analysis's evaluation after it, as `[%eval ...]` writes it (`0.35`, `#-3`).
    pub eval: Option<String>,
}

/// Writes a record: tags in order, then the moves numbered from `first_number` (a pair per
/// number, a block of one seat's moves under one), then the result.
pub fn write(tags: &[(String, String)], moves: &[WrittenMove], first_number: u32, result: &str) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    let mut numbering = Numbering::from(first_number);
    let mut after_comment = false;
    for written in moves {
        if let Some(number) = numbering.next(written, after_comment) {
            tokens.push(number);
        }
        match &written.text {
            Some(text) => tokens.push(format!("{text}{}", written.mark.unwrap_or(""))),
            None => tokens.push(format!("{{{}}}", comment_text(&written.hidden_as))),
        }
        after_comment = written.text.is_none();
        let mut notes: Vec<String> = Vec::new();
        if let Some(eval) = &written.eval {
            notes.push(format!("[%eval {eval}]"));
        }
        if let Some(ms) = written.clock_ms {
            notes.push(format!("[%clk {}]", clock(ms)));
        }
        if !notes.is_empty() {
            tokens.push(format!("{{{}}}", notes.join(" ")));
            after_comment = true;
        }
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens, 79));
    out.push('\n');
    out
}

/// Each move's label as a reader finds it in the record: its number where the record gives one
/// (`3. e4`, `3... Nf6`), else the move alone.
pub fn labels(moves: &[WrittenMove]) -> Vec<String> {
    let mut numbering = Numbering::from(1);
    let mut last_number = 0;
    moves
        .iter()
        .map(|written| {
            let text = written.text.as_deref().unwrap_or(&written.hidden_as);
            // Said again before each move the label names, as after a comment.
            match numbering.next(written, true) {
                Some(number) => {
                    last_number = numbering.number;
                    format!("{number} {text}")
                }
                None if written.is_move && written.seat == Seat::Second && last_number > 0 => {
                    format!("{last_number}... {text}")
                }
                None => text.to_string(),
            }
        })
        .collect()
}

/// How moves are numbered. A turn is what a seat writes up to its move: in Rejection Chess a
/// proposal, the answer and the move (`e4 reject d4`), then perhaps the opponent's answer to it
/// (`e5 accept`). Each turn of the first seat is numbered, before its first entry.
struct Numbering {
    first_number: u32,
    number: u32,
    is_turn_open: bool,
    /// The seat whose move ended the last turn: the other seat's protocol steps right after it
    /// answer that move.
    answered: Option<Seat>,
}

impl Numbering {
    fn from(first_number: u32) -> Numbering {
        Numbering {
            first_number: first_number.max(1),
            number: first_number.max(1) - 1,
            is_turn_open: false,
            answered: None,
        }
    }

    /// The number to write before `written` (`12.`, `12...`), if any; `after_comment`: the
    /// token before it was a comment, after which the number is said again, as PGN writers do.
    fn next(&mut self, written: &WrittenMove, after_comment: bool) -> Option<String> {
        let is_answer =
            !self.is_turn_open && !written.is_move && self.answered.is_some_and(|seat| seat != written.seat);
        // A seat's move right after its own (placements and picks in blocks) is the same turn.
        let goes_on = !self.is_turn_open && written.is_move && self.answered == Some(written.seat);
        let mut token = None;
        if is_answer || goes_on {
            // One answer to a move; what follows begins a turn.
            self.answered = None;
        } else if !self.is_turn_open {
            self.is_turn_open = true;
            self.answered = None;
            if written.seat == Seat::First || self.number < self.first_number {
                self.number += 1;
                let dots = if written.seat == Seat::Second { "..." } else { "." };
                token = Some(format!("{}{dots}", self.number));
            } else if after_comment {
                token = Some(format!("{}...", self.number));
            }
        }
        if written.is_move {
            self.is_turn_open = false;
            self.answered = Some(written.seat);
        }
        token
    }
}

/// `h:mm:ss`, hours counting on past a day (as Lichess writes long clocks).
pub fn clock(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

/// A tag's value as PGN writes it: on one line, only what a reader can see (`visible_text`),
/// its quotes and backslashes escaped.
fn escape(value: &str) -> String {
    crate::visible_text::one_line(value)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// A comment's text may not close the comment.
fn comment_text(text: &str) -> String {
    text.replace(['{', '}'], "")
}

/// Joins tokens into lines of at most `width` characters.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out
}

/// A record as read: its tags, its moves in order, and its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadRecord {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<ReadMove>,
    pub result: Option<String>,
}

impl ReadRecord {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadMove {
    pub text: String,
    /// The line it is on, for messages.
    pub line: usize,
    /// The seat a record names for it (Arbiter's earlier `white: e4` records do).
    pub seat_name: Option<String>,
}

/// Reads one game's record: PGN, or the `seat: action` lines Arbiter wrote before it wrote PGN.
pub fn read(text: &str) -> Result<ReadRecord, String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "the record is {} KB; records of at most {} KB are read",
            text.len() / 1024,
            MAX_BYTES / 1024
        ));
    }
    let lines: Vec<&str> = text.trim_start_matches('\u{feff}').lines().collect();
    let mut record = ReadRecord::default();
    let mut index = 0;
    while let Some(line) = lines.get(index).map(|l| l.trim()) {
        if line.is_empty() || line.starts_with('%') {
            index += 1;
            continue;
        }
        if !line.starts_with('[') {
            break;
        }
        let tag = read_tag(line).ok_or_else(|| format!("line {}: a tag is written [Name \"value\"]", index + 1))?;
        record.tags.push(tag);
        index += 1;
    }
    let body = &lines[index..];
    let mut filled = body.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).peekable();
    if filled.peek().is_some() && filled.all(is_seat_line) {
        // An earlier Arbiter record: one `seat: action` per line.
        for (offset, line) in body.iter().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let (seat, action) = line.trim().split_once(':').unwrap_or_default();
            record.moves.push(ReadMove {
                text: action.trim().to_string(),
                line: index + offset + 1,
                seat_name: Some(seat.trim().to_ascii_lowercase()),
            });
        }
        return Ok(record);
    }
    let ended_at = movetext(body, index + 1, &mut record)?;
    if let Some(ended_at) = ended_at
        && let Some(next) = lines
            .iter()
            .skip(ended_at)
            .position(|l| l.trim_start().starts_with('['))
    {
        return Err(format!(
            "line {}: a second game starts here; import one game at a time",
            ended_at + next + 1
        ));
    }
    Ok(record)
}

fn read_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            c => value.push(c),
        }
    }
    let valid_name = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid_name.then(|| (name.to_string(), value))
}

/// `white: e4` (an earlier Arbiter record), not PGN movetext.
fn is_seat_line(line: &str) -> bool {
    line.split_once(':').is_some_and(|(seat, action)| {
        !seat.is_empty()
            && seat.chars().all(|c| c.is_ascii_alphabetic())
            && !action.trim().is_empty()
            && !["bomb", "base"].contains(&seat.to_ascii_lowercase().as_str())
            && action.starts_with(' ')
    })
}

/// Reads movetext lines (the first is line `first_line`) into `record`; returns the line the
/// result was on, if the movetext has one.
fn movetext(lines: &[&str], first_line: usize, record: &mut ReadRecord) -> Result<Option<usize>, String> {
    let mut comment_from: Option<usize> = None;
    let mut variations = 0usize;
    for (offset, raw) in lines.iter().enumerate() {
        let line = first_line + offset;
        let chars: Vec<char> = raw.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if comment_from.is_some() {
                if c == '}' {
                    comment_from = None;
                }
                i += 1;
                continue;
            }
            match c {
                '{' => comment_from = Some(line),
                ';' => break,
                '(' => variations += 1,
                ')' if variations > 0 => variations -= 1,
                ')' => return Err(format!("line {line}: a ')' closes no variation")),
                '$' => {
                    while i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
                        i += 1;
                    }
                }
                c if c.is_whitespace() => {}
                _ => {
                    let start = i;
                    i = token_end(&chars, i);
                    let token: String = chars[start..=i].iter().collect();
                    if variations == 0 {
                        take_token(&token, line, record)?;
                        if record.result.is_some() {
                            return Ok(Some(line));
                        }
                    }
                }
            }
            i += 1;
        }
    }
    if let Some(line) = comment_from {
        return Err(format!("line {line}: a comment '{{' is never closed"));
    }
    if variations > 0 {
        return Err("a variation '(' is never closed".into());
    }
    Ok(None)
}

/// The index of a symbol's last character, the symbol starting at `start`. A bracket right
/// after a move that holds a square is part of the move (Circe's rebirth, `Bxd5(a4)`), not a
/// variation.
fn token_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i + 1 < chars.len() {
        match chars[i + 1] {
            c if c.is_whitespace() => break,
            '{' | '}' | ';' | ')' | '$' => break,
            '(' => {
                let inside: String = chars[i + 2..].iter().take_while(|c| **c != ')').take(4).collect();
                let is_square = (2..=3).contains(&inside.len())
                    && inside.starts_with(|c: char| c.is_ascii_lowercase())
                    && inside[1..].chars().all(|c| c.is_ascii_digit())
                    && chars.get(i + 2 + inside.len()) == Some(&')');
                if !is_square {
                    break;
                }
                i += inside.len() + 2;
            }
            _ => i += 1,
        }
    }
    i
}

fn take_token(token: &str, line: usize, record: &mut ReadRecord) -> Result<(), String> {
    if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
        record.result = Some(token.to_string());
        return Ok(());
    }
    // A move number, perhaps with the move stuck to it (`12.e4`, `12...Nf6`).
    let without_number = match token.find('.') {
        Some(dot) if token[..dot].chars().all(|c| c.is_ascii_digit()) && dot > 0 => {
            token[dot..].trim_start_matches('.')
        }
        _ => token,
    };
    // Annotation marks after a move.
    let text = without_number.trim_end_matches(['!', '?']);
    if text.is_empty() {
        return Ok(());
    }
    if text == "--" || text == "Z0" {
        return Err(format!(
            "line {line}: a null move (\"{text}\") is not a move Arbiter can replay"
        ));
    }
    // The longest token is a list of pieces (20 pieces of up to ~80 characters each).
    if text.len() > 2_000 {
        let start: String = text.chars().take(20).collect();
        return Err(format!("line {line}: \"{start}…\" is too long to be a move"));
    }
    if record.moves.len() >= MAX_MOVES {
        return Err(format!(
            "line {line}: more than {MAX_MOVES} moves; this is not a game record"
        ));
    }
    record.moves.push(ReadMove {
        text: text.to_string(),
        line,
        seat_name: None,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(texts: &[&str]) -> Vec<WrittenMove> {
        texts
            .iter()
            .enumerate()
            .map(|(i, text)| WrittenMove {
                seat: if i % 2 == 0 { Seat::First } else { Seat::Second },
                text: Some(text.to_string()),
                hidden_as: String::new(),
                clock_ms: None,
                is_move: true,
                entry: i,
                mark: None,
                eval: None,
            })
            .collect()
    }

    #[test]
    fn a_record_is_tags_numbered_moves_and_the_result() {
        let tags = vec![("White".to_string(), "alice \"the\" great".to_string())];
        let text = write(&tags, &moves(&["e4", "e5", "Nf3"]), 1, "*");
        assert_eq!(text, "[White \"alice \\\"the\\\" great\"]\n\n1. e4 e5 2. Nf3 *\n");
        let read = read(&text).unwrap();
        assert_eq!(read.tag("white"), Some("alice \"the\" great"));
        let texts: Vec<&str> = read.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3"]);
        assert_eq!(read.result.as_deref(), Some("*"));
    }

    #[test]
    fn clocks_are_comments_and_the_number_is_said_again_after_one() {
        let mut timed = moves(&["e4", "e5"]);
        timed[0].clock_ms = Some(3 * 86_400_000 - 1_000);
        timed[1].clock_ms = Some(65_000);
        let text = write(&[], &timed, 1, "1-0");
        assert!(
            text.contains("1. e4 {[%clk 71:59:59]} 1... e5 {[%clk 0:01:05]} 1-0"),
            "{text}"
        );
        let texts: Vec<String> = read(&text).unwrap().moves.into_iter().map(|m| m.text).collect();
        assert_eq!(texts, ["e4", "e5"]);
    }

    #[test]
    fn an_analysis_marks_moves_and_shares_the_comment_with_the_clock() {
        let mut analysed = moves(&["e4", "e5", "Qh5", "Nf6", "Qxf7#"]);
        analysed[0].eval = Some("0.30".into());
        analysed[0].clock_ms = Some(60_000);
        analysed[3].mark = Some("??");
        analysed[3].eval = Some("#1".into());
        let text = write(&[], &analysed, 1, "1-0").replace('\n', " ");
        assert!(
            text.contains("1. e4 {[%eval 0.30] [%clk 0:01:00]} 1... e5 2. Qh5 Nf6?? {[%eval #1]} 3. Qxf7# 1-0"),
            "{text}"
        );
        // Read back, the marks and comments fall away.
        let texts: Vec<String> = read(&write(&[], &analysed, 1, "1-0"))
            .unwrap()
            .moves
            .into_iter()
            .map(|m| m.text)
            .collect();
        assert_eq!(texts, ["e4", "e5", "Qh5", "Nf6", "Qxf7#"]);
    }

    #[test]
    fn labels_number_each_move_as_a_reader_finds_it() {
        let mut played = moves(&["e4", "e5", "Nf3"]);
        played.insert(1, moves(&["", "reject"])[1].clone());
        played[1].is_move = false;
        let labels = labels(&played);
        assert_eq!(labels, ["1. e4", "reject", "1... e5", "2. Nf3"]);
    }

    #[test]
    fn hidden_moves_are_comments_in_their_place() {
        let mut secret = moves(&["bomb:d2", "bomb:e7"]);
        secret[1].text = None;
        secret[1].hidden_as = "chose a bomb carrier {secretly}".into();
        let text = write(&[], &secret, 1, "*");
        assert!(text.contains("1. bomb:d2 {chose a bomb carrier secretly} *"), "{text}");
    }

    #[test]
    fn steps_of_a_protocol_get_no_move_number() {
        let mut steps = moves(&["e4", "accept", "e5", "reject", "d6", "Nf3"]);
        for (index, seat) in [
            (1, Seat::Second),
            (2, Seat::Second),
            (3, Seat::First),
            (4, Seat::Second),
            (5, Seat::First),
        ] {
            steps[index].seat = seat;
        }
        for index in [1, 2, 3] {
            steps[index].is_move = false;
        }
        let text = write(&[], &steps, 1, "*");
        assert!(text.contains("1. e4 accept e5 reject d6 2. Nf3 *"), "{text}");
    }

    #[test]
    fn every_turn_is_numbered_before_its_first_step() {
        // White's e4 rejected, d4 played; Black's e5 accepted; White's Nf3 rejected, e3 played.
        let mut steps = moves(&["e4", "reject", "d4", "e5", "accept", "Nf3", "reject", "e3"]);
        let seats = [0, 1, 0, 1, 0, 0, 1, 0];
        for (step, seat) in steps.iter_mut().zip(seats) {
            step.seat = if seat == 0 { Seat::First } else { Seat::Second };
        }
        for index in [0, 1, 4, 5, 6] {
            steps[index].is_move = false;
        }
        let text = write(&[], &steps, 1, "*");
        assert!(text.contains("1. e4 reject d4 e5 accept 2. Nf3 reject e3 *"), "{text}");
    }

    #[test]
    fn a_block_of_one_seats_placements_is_one_turn() {
        // Patch's order: White one, then blocks of two from Black.
        let mut placed = moves(&["K@e1", "K@e8", "R@a8", "R@a1", "N@b1", "N@b8", "B@c8", "B@c1"]);
        let seats = [0, 1, 1, 0, 0, 1, 1, 0];
        for (step, seat) in placed.iter_mut().zip(seats) {
            step.seat = if seat == 0 { Seat::First } else { Seat::Second };
        }
        let text = write(&[], &placed, 1, "*");
        assert!(
            text.contains("1. K@e1 K@e8 R@a8 2. R@a1 N@b1 N@b8 B@c8 3. B@c1 *"),
            "{text}"
        );
    }

    #[test]
    fn secret_choices_stand_in_the_first_turn_like_a_protocols_steps() {
        let mut chosen = moves(&["bomb:d2", "bomb:e7", "e4", "e5", "Nf3"]);
        chosen[1].text = None;
        chosen[1].hidden_as = "chose a bomb carrier".into();
        for step in &mut chosen[..2] {
            step.is_move = false;
        }
        let text = write(&[], &chosen, 1, "*");
        assert!(
            text.contains("1. bomb:d2 {chose a bomb carrier} e4 e5 2. Nf3 *"),
            "{text}"
        );
    }

    #[test]
    fn long_movetext_is_wrapped_to_eighty_columns() {
        let many: Vec<&str> = std::iter::repeat_n("Nf3", 60).collect();
        let text = write(&[], &moves(&many), 1, "*");
        assert!(text.lines().all(|line| line.len() <= 80), "{text}");
        assert_eq!(read(&text).unwrap().moves.len(), 60);
    }

    #[test]
    fn other_tools_records_read_with_their_variations_nags_and_comments_skipped() {
        let lichess = "[Event \"Rated blitz game\"]\n[Site \"https://lichess.org/abc\"]\n[Result \"1-0\"]\n\n\
            1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5?! (1... c5 2. Nf3) 2. Nf3 $1 Nc6 ; a comment\n\
            3.Bb5 a6!? 4. Ba4 1-0\n";
        let read = read(lichess).unwrap();
        let texts: Vec<&str> = read.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
        assert_eq!(read.moves[4].line, 6);
        assert_eq!(read.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn a_rebirth_in_brackets_stays_part_of_its_move() {
        let read = read("1. e4 d5 2. exd5(d7) (2. d4) Qxd5(f5) *").unwrap();
        let texts: Vec<&str> = read.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "d5", "exd5(d7)", "Qxd5(f5)"]);
    }

    #[test]
    fn earlier_arbiter_records_still_read() {
        let old = "[Variant \"blockade\"]\n[White \"local:a\"]\n\nwhite: Q@d1\nblack: q@d8\n";
        let read = read(old).unwrap();
        assert_eq!(read.moves.len(), 2);
        assert_eq!(read.moves[1].seat_name.as_deref(), Some("black"));
        assert_eq!(read.moves[1].text, "q@d8");
    }

    #[test]
    fn broken_and_hostile_records_say_what_is_wrong() {
        for (text, expected) in [
            ("[White alice]\n1. e4", "line 1: a tag"),
            ("1. e4 { never closed", "never closed"),
            ("1. e4 )", "closes no variation"),
            ("1. e4 -- e5", "null move"),
            ("1. e4 *\n[Event \"two\"]\n1. d4 *", "a second game"),
        ] {
            let error = read(text).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
        let huge = "e4 ".repeat(MAX_BYTES / 3 + 10);
        assert!(read(&huge).unwrap_err().contains("KB"));
        let long = format!("1. {}", "N".repeat(2_100));
        assert!(read(&long).unwrap_err().contains("too long"));
        // Quoted by characters: a cut inside "é" (two bytes) would panic.
        let accented = format!("1. N{}", "é".repeat(1_100));
        let said = read(&accented).unwrap_err();
        assert!(said.contains(&format!("\"N{}…\"", "é".repeat(19))), "{said}");
    }
}
