//! Images in words: what a board image, a replay or a table shows, as text a screen reader reads
//! (an attachment's description on Discord, the live page's text equivalent, `/board words`).
//! Built from the very view the image is drawn from, so it holds exactly the secrets that viewer
//! may see, and fitted within Discord's limit for a description.
//!
//! Like the image, the words know no game: they read the view's general vocabulary (seat names,
//! piece names, marks with their meanings, hands, a pool, scores), so every game reads the same
//! way, in its own names.

mod notation;

use super::{BoardImage, Decor, Table};
use crate::visible_text;
use arbiter_engine::geometry::Square;
use arbiter_engine::piece::Color;
use arbiter_engine::view::{BoardView, Mark, MarkKind, PieceRef, RecordEntry, Tone};
use arbiter_engine::{EndReason, Phase, Seat, VariantId, View, ViewCell, Viewer};

pub use notation::action_words;

/// The most an attachment's description may hold (Discord's limit, in characters).
pub const MOST_DESCRIPTION_CHARS: usize = 1024;

/// A board image in words, within [`MOST_DESCRIPTION_CHARS`]: the game and whose turn it is, the
/// last action, check, the position piece by piece by side, the game's marks, hands and clocks.
pub fn describe(image: &BoardImage) -> String {
    describe_within(image, MOST_DESCRIPTION_CHARS)
}

/// [`describe`] within `most` characters: a longer position is shortened (counts per kind first,
/// then squares), never cut mid-word.
pub fn describe_within(image: &BoardImage, most: usize) -> String {
    let mut briefest = String::new();
    for detail in Detail::fullest_first(&image.view) {
        briefest = compose(image, detail);
        if fits(&briefest, most) {
            return briefest;
        }
    }
    cut_at_word(&briefest, most)
}

/// The moves of a game in words, numbered ("1. White played pawn to e4, Black played pawn to e5.
/// 2. ..."), as the view's viewer may read them, within `most` characters: a long game keeps its
/// latest moves and says how many earlier ones it leaves out.
pub fn moves_in_words(view: &View, most: usize) -> String {
    let numbered = numbered_moves(view);
    if numbered.is_empty() {
        return cut_at_word("No moves yet.", most);
    }
    for skipped in 0..numbered.len() {
        let kept = numbered[skipped..].join(" ");
        let text = match skipped {
            0 => format!("Moves: {kept}"),
            _ => format!("Moves, the first {skipped} left out: {kept}"),
        };
        if fits(&text, most) {
            return text;
        }
    }
    cut_at_word(&format!("Moves: {}", numbered.join(" ")), most)
}

/// A table (standings) in words, within [`MOST_DESCRIPTION_CHARS`].
pub fn describe_table(table: &Table) -> String {
    describe_table_within(table, MOST_DESCRIPTION_CHARS)
}

/// [`describe_table`] within `most` characters: the legend goes first, then the last rows (said
/// to be left out), never a word cut.
pub fn describe_table_within(table: &Table, most: usize) -> String {
    let rows: Vec<String> = table.rows.iter().map(|row| row_words(row)).collect();
    let heading = sentence(&visible_text::one_line(&table.title));
    let columns = match table.header.is_empty() {
        true => String::new(),
        false => format!(" Columns: {}.", row_words(&table.header)),
    };
    let legend = visible_text::one_line(&table.legend);
    let legend = match legend.is_empty() {
        true => String::new(),
        false => format!(" {}", sentence(&legend)),
    };
    let with_rows = |kept: usize, legend: &str| {
        let mut text = format!("{heading}{legend}{columns}");
        for row in &rows[..kept] {
            text.push(' ');
            text.push_str(&sentence(row));
        }
        if kept < rows.len() {
            text.push_str(&format!(" And {} more rows.", rows.len() - kept));
        }
        text
    };
    for legend in [legend.as_str(), ""] {
        for kept in (0..=rows.len()).rev() {
            let text = with_rows(kept, legend);
            if fits(&text, most) {
                return text;
            }
        }
    }
    cut_at_word(&with_rows(0, ""), most)
}

fn row_words(cells: &[String]) -> String {
    cells
        .iter()
        .map(|cell| visible_text::one_line(cell))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How much a description says: the fullest first, then briefer until it fits.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Detail {
    /// The view's notes (long in games that list each board's moves there).
    notes: bool,
    /// Kinds with more pieces than this on a side are counted rather than placed square by square.
    placed_up_to: usize,
    /// Marks, hands, the pool and the rest said in counts, and what the image adds left out.
    brief: bool,
}

impl Detail {
    fn fullest_first(view: &View) -> Vec<Detail> {
        let full = Detail {
            notes: true,
            placed_up_to: usize::MAX,
            brief: false,
        };
        let without_notes = Detail { notes: false, ..full };
        let mut sizes: Vec<usize> = view
            .boards
            .iter()
            .flat_map(|board| [Some(Color::White), Some(Color::Black), None].map(|side| kinds_on(view, board, side)))
            .flatten()
            .map(|kind| kind.squares.len())
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes.dedup();
        let mut details = vec![full, without_notes];
        // The largest kinds (pawns, statues) become counts first, one size at a time.
        details.extend(sizes.into_iter().map(|size| Detail {
            placed_up_to: size - 1,
            ..without_notes
        }));
        details.push(Detail {
            placed_up_to: 0,
            brief: true,
            ..without_notes
        });
        details
    }
}

/// The whole description at one level of detail.
fn compose(image: &BoardImage, detail: Detail) -> String {
    let (view, decor) = (&image.view, &image.decor);
    let mut parts = vec![title(view), players(view, decor), status(view), last_action(view)];
    parts.extend(view.boards.iter().filter_map(|board| check(view, board)));
    let several = view.boards.len() > 1;
    for board in &view.boards {
        parts.push(position(view, board, detail, several));
        parts.push(marks(view, board, detail));
    }
    if !detail.brief {
        parts.push(dots(decor));
    }
    parts.extend([
        hands(view, detail),
        pool(view, detail),
        score(view),
        clocks(view, decor),
    ]);
    if !detail.brief {
        parts.extend(decor.lines.iter().map(|line| sentence(&visible_text::one_line(line))));
        parts.push(private_words(view));
    }
    if detail.notes {
        parts.extend(view.notes.iter().map(|note| sentence(&visible_text::one_line(note))));
    }
    parts.retain(|part| !part.is_empty());
    parts.join(" ")
}

/// "Chess." or, for a player's own view, "Beirut Chess, as White sees it."
fn title(view: &View) -> String {
    let game = VariantId::parse(&view.variant).map_or(view.variant.as_str(), |id| id.info().name);
    match view.viewer {
        Viewer::Seat(seat) => format!("{game}, as {} sees it.", seat_name(view, seat)),
        _ => format!("{game}."),
    }
}

/// "Players: alice as White, bob as Black." (the seats nobody has taken left out).
fn players(view: &View, decor: &Decor) -> String {
    let named: Vec<String> = Seat::BOTH
        .iter()
        .filter_map(|&seat| {
            let name = decor.player_names[seat.index()]
                .as_deref()
                .and_then(visible_text::name)?;
            Some(format!("{name} as {}", seat_name(view, seat)))
        })
        .collect();
    match named.is_empty() {
        true => String::new(),
        false => format!("Players: {}.", named.join(", ")),
    }
}

/// Whose turn it is (the viewer's own said so), or how the game ended.
fn status(view: &View) -> String {
    if let Some(outcome) = &view.outcome {
        let how = outcome.reason.describe();
        return match outcome.winner {
            _ if outcome.reason == EndReason::Aborted => "The game was aborted.".into(),
            Some(seat) => format!("{}: {} wins by {how}.", outcome.result_text(), seat_name(view, seat)),
            None => format!("{}: drawn by {how}.", outcome.result_text()),
        };
    }
    let seats: Vec<String> = view
        .to_act
        .iter()
        .map(|&seat| match view.viewer == Viewer::Seat(seat) {
            true => format!("{} (you)", seat_name(view, seat)),
            false => seat_name(view, seat).to_string(),
        })
        .collect();
    let seats = seats.join(" and ");
    match view.phase {
        _ if seats.is_empty() => String::new(),
        Phase::SealedChoice => format!("Waiting for a secret choice from {seats}."),
        Phase::Setup => format!("{seats} to place."),
        Phase::Play | Phase::Finished => format!("{seats} to move."),
    }
}

/// The last entry of the record as the viewer may read it: a hidden one by its stand-in.
fn last_action(view: &View) -> String {
    match view.record.last() {
        Some(entry) => format!("Last: {}.", entry_words(view, entry)),
        None => "No moves yet.".into(),
    }
}

/// One record entry in words, with who made it: "Black played bishop takes g4".
fn entry_words(view: &View, entry: &RecordEntry) -> String {
    let seat = seat_name(view, entry.seat);
    let text = visible_text::one_line(&entry.text);
    if entry.is_hidden {
        // A stand-in reads "(chose a bomb carrier)": it is the words already.
        return format!("{seat} {}", text.trim_start_matches('(').trim_end_matches(')'));
    }
    match &entry.said {
        Some(said) => format!("{seat} {}", visible_text::one_line(said)),
        // A step that is not a move, read in full only by its players: a proposal.
        None if !entry.is_move => {
            let words = action_words(view, &text);
            format!("{seat} proposed: {}", words.strip_prefix("played ").unwrap_or(&words))
        }
        None => format!("{seat} {}", action_words(view, &text)),
    }
}

/// The moves of the record, each numbered where a pair starts (as the move list numbers them).
fn numbered_moves(view: &View) -> Vec<String> {
    let moves: Vec<&RecordEntry> = view.record.iter().filter(|entry| entry.is_move).collect();
    let mut number = 0;
    let mut out = Vec::with_capacity(moves.len());
    for (i, entry) in moves.iter().enumerate() {
        let follows_first = i > 0 && moves[i - 1].seat == Seat::First;
        let words = entry_words(view, entry);
        if i == 0 || (entry.seat == Seat::First && !follows_first) {
            number += 1;
            out.push(format!("{number}. {words}."));
        } else {
            out.push(format!("{words}."));
        }
    }
    out
}

/// "Check: White's king on e1."
fn check(view: &View, board: &BoardView) -> Option<String> {
    let square = board.check?;
    let piece = match board.cell(square) {
        ViewCell::Piece { color, piece } => format!(
            "{}'s {}",
            side_name(view, board, color),
            piece_word(&view.piece(piece).name)
        ),
        _ => "the royal piece".into(),
    };
    Some(format!("Check: {piece} on {square}."))
}

/// One board's pieces side by side ("White: king g1, rooks a1 f1. Black: ..."), and its statues.
fn position(view: &View, board: &BoardView, detail: Detail, several: bool) -> String {
    let mut sentences = Vec::new();
    if several && let Some(label) = &board.label {
        sentences.push(sentence(label));
    }
    for color in Color::BOTH {
        let kinds = kinds_on(view, board, Some(color));
        let listed = match kinds.is_empty() {
            true => "no pieces".to_string(),
            false => kinds_words(&kinds, detail.placed_up_to),
        };
        sentences.push(format!("{}: {listed}.", side_name(view, board, color)));
    }
    if let Some(statues) = kinds_on(view, board, None).first() {
        let count = statues.squares.len();
        let said = match count > detail.placed_up_to {
            true => count.to_string(),
            false => squares_words(&statues.squares),
        };
        sentences.push(format!("Statues: {said}."));
    }
    sentences.join(" ")
}

/// The pieces of one kind on one side of a board (or its statues), in square order from a1.
struct Kind {
    name: String,
    squares: Vec<Square>,
}

/// The kinds on a board: `side`'s pieces by name, in the order of the view's piece types, or
/// the statues (`None`).
fn kinds_on(view: &View, board: &BoardView, side: Option<Color>) -> Vec<Kind> {
    let mut found: Vec<(PieceRef, Square)> = Vec::new();
    let mut statues = Vec::new();
    for rank in 0..board.ranks {
        for file in 0..board.files {
            let square = Square::new(file, rank);
            match board.cell(square) {
                ViewCell::Piece { color, piece } if Some(color) == side => found.push((piece, square)),
                ViewCell::Statue if side.is_none() => statues.push(square),
                _ => {}
            }
        }
    }
    if side.is_none() {
        return match statues.is_empty() {
            true => Vec::new(),
            false => vec![Kind {
                name: "statue".into(),
                squares: statues,
            }],
        };
    }
    // Stable: each kind's squares stay in order from a1.
    found.sort_by_key(|(piece, _)| *piece);
    let mut kinds: Vec<Kind> = Vec::new();
    for (piece, square) in found {
        let name = piece_word(&view.piece(piece).name);
        match kinds.iter_mut().find(|kind| kind.name == name) {
            Some(kind) => kind.squares.push(square),
            None => kinds.push(Kind {
                name,
                squares: vec![square],
            }),
        }
    }
    kinds
}

/// "king g1, rooks a1 f1, 8 pawns": a kind with more than `placed_up_to` pieces is counted.
fn kinds_words(kinds: &[Kind], placed_up_to: usize) -> String {
    kinds
        .iter()
        .map(|kind| {
            let count = kind.squares.len();
            let name = counted(&kind.name, count);
            if count > placed_up_to {
                return name;
            }
            let name = if count == 1 {
                kind.name.clone()
            } else {
                plural(&kind.name)
            };
            format!("{name} {}", squares_words(&kind.squares))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// "queen", "2 rooks".
fn counted(name: &str, count: usize) -> String {
    match count {
        1 => name.to_string(),
        _ => format!("{count} {}", plural(name)),
    }
}

/// "rooks", "ferzes", "knights (camel)": the plural of a piece's name, its bracketed remark kept.
fn plural(name: &str) -> String {
    let (noun, remark) = match name.find(" (") {
        Some(at) => name.split_at(at),
        None => (name, ""),
    };
    let ending = if ["s", "x", "z", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        "es"
    } else {
        "s"
    };
    format!("{noun}{ending}{remark}")
}

/// A piece type's name as the words say it: as a reader sees it, with a small first letter
/// ("King" reads "king").
fn piece_word(name: &str) -> String {
    let name = visible_text::one_line(name);
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "piece".into(),
    }
}

fn squares_words(squares: &[Square]) -> String {
    squares.iter().map(Square::to_string).collect::<Vec<_>>().join(" ")
}

/// The board's marks by what they mean ("Marks: White's base: a1; your secret bomb carrier: e2"),
/// each square with the label drawn on it, if any ("d5 (Black)", "f3 (1)").
fn marks(view: &View, board: &BoardView, detail: Detail) -> String {
    let mut meanings: Vec<(String, Vec<Square>)> = Vec::new();
    for mark in board.marks.iter().filter(|mark| !mark.meaning.is_empty()) {
        let meaning = meaning_words(mark);
        match meanings.iter_mut().find(|(known, _)| *known == meaning) {
            Some((_, squares)) if squares.contains(&mark.square) => {}
            Some((_, squares)) => squares.push(mark.square),
            None => meanings.push((meaning, vec![mark.square])),
        }
    }
    if meanings.is_empty() {
        return String::new();
    }
    let said: Vec<String> = meanings
        .iter()
        .map(|(meaning, squares)| {
            let squares = match detail.brief && squares.len() > 2 {
                true => format!("{} squares", squares.len()),
                false => squares
                    .iter()
                    .map(|&square| labelled(view, board, square))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            // A meaning that has a colon of its own ("White's proposal: f5") takes "on" instead.
            match meaning.contains(':') {
                true => format!("{meaning}, on {squares}"),
                false => format!("{meaning}: {squares}"),
            }
        })
        .collect();
    format!("Marks: {}.", said.join("; "))
}

/// What a mark means, without the words about how it is drawn ("Ringed: a portal" reads "a
/// portal", "B: your secret bomb carrier" reads "your secret bomb carrier").
fn meaning_words(mark: &Mark) -> String {
    let meaning = visible_text::one_line(&mark.meaning);
    let Some((drawing, what)) = meaning.split_once(": ") else {
        return meaning;
    };
    let first_word = drawing.split(' ').next().unwrap_or("");
    let is_drawing = ["Ringed", "Tinted", "Dotted", "Lettered", "Badged", "Blue", "Red"].contains(&first_word);
    let is_its_badge =
        matches!(&mark.kind, MarkKind::Badge { text, .. } | MarkKind::Label { text, .. } if text == drawing);
    match is_drawing || is_its_badge {
        true => what.to_string(),
        false => meaning,
    }
}

/// A square with the label a mark writes on it: a side's initial as that side's name.
fn labelled(view: &View, board: &BoardView, square: Square) -> String {
    let label = board.marks.iter().find_map(|mark| match &mark.kind {
        MarkKind::Label { text, tone } if mark.square == square && mark.meaning.is_empty() => Some(match tone {
            Tone::Side(color) | Tone::SideLight(color) => side_name(view, board, *color).to_string(),
            _ => visible_text::one_line(text),
        }),
        _ => None,
    });
    match label {
        Some(label) => format!("{square} ({label})"),
        None => square.to_string(),
    }
}

/// The squares the image dots (where a chosen piece may go).
fn dots(decor: &Decor) -> String {
    match decor.dots.is_empty() {
        true => String::new(),
        false => format!("Dotted, where the piece may go: {}.", squares_words(&decor.dots)),
    }
}

/// "To place: White: queen, 2 rooks; Black: bishop."
fn hands(view: &View, detail: Detail) -> String {
    let said: Vec<String> = Seat::BOTH
        .iter()
        .filter(|seat| !view.hands[seat.index()].is_empty())
        .map(|&seat| {
            format!(
                "{}: {}",
                seat_name(view, seat),
                pieces_words(view, &view.hands[seat.index()], detail)
            )
        })
        .collect();
    match said.is_empty() {
        true => String::new(),
        false => format!("To place: {}.", said.join("; ")),
    }
}

/// "Pool to pick from: 2 queens, rook."
fn pool(view: &View, detail: Detail) -> String {
    match view.pool.is_empty() {
        true => String::new(),
        false => format!("Pool to pick from: {}.", pieces_words(view, &view.pool, detail)),
    }
}

/// Pieces off the board counted by name ("queen, 2 rooks"), or, brief, all at once ("3 pieces").
fn pieces_words(view: &View, pieces: &[PieceRef], detail: Detail) -> String {
    if detail.brief {
        return counted("piece", pieces.len());
    }
    let mut names: Vec<(String, usize)> = Vec::new();
    for &piece in pieces {
        let name = piece_word(&view.piece(piece).name);
        match names.iter_mut().find(|(known, _)| *known == name) {
            Some((_, count)) => *count += 1,
            None => names.push((name, 1)),
        }
    }
    names
        .iter()
        .map(|(name, count)| counted(name, *count))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Score: White 0, Black 7. Turn 7 of 30."
fn score(view: &View) -> String {
    let mut said = Vec::new();
    if let Some(scores) = view.scores {
        let each: Vec<String> = Seat::BOTH
            .iter()
            .map(|&seat| format!("{} {}", seat_name(view, seat), scores[seat.index()]))
            .collect();
        said.push(format!("Score: {}.", each.join(", ")));
    }
    if let Some((played, of)) = view.turns {
        said.push(format!("Turn {played} of {of}."));
    }
    said.join(" ")
}

/// "Clocks: White 4:12, Black 3:59."
fn clocks(view: &View, decor: &Decor) -> String {
    let each: Vec<String> = Seat::BOTH
        .iter()
        .filter_map(|&seat| {
            let clock = decor.clocks[seat.index()].as_deref()?;
            Some(format!("{} {}", seat_name(view, seat), visible_text::one_line(clock)))
        })
        .collect();
    match each.is_empty() {
        true => String::new(),
        false => format!("Clocks: {}.", each.join(", ")),
    }
}

/// What the view tells its viewer alone: news of the last action, and what they must answer.
fn private_words(view: &View) -> String {
    let mut said = Vec::new();
    if let Some(notice) = &view.notice {
        said.push(sentence(&visible_text::one_line(notice)));
    }
    if let Some(prompt) = &view.prompt {
        said.push(sentence(&visible_text::one_line(&prompt.text)));
    }
    said.join(" ")
}

fn seat_name(view: &View, seat: Seat) -> &str {
    &view.seat_names[seat.index()]
}

/// The name of the seat that plays `color` on `board` (Assault's A plays Black on its second).
fn side_name<'a>(view: &'a View, board: &BoardView, color: Color) -> &'a str {
    seat_name(view, board.seats[color.index()])
}

/// `text` ending as a sentence does.
fn sentence(text: &str) -> String {
    let text = text.trim();
    match text.ends_with(['.', '!', '?']) || text.is_empty() {
        true => text.to_string(),
        false => format!("{text}."),
    }
}

fn fits(text: &str, most: usize) -> bool {
    text.chars().count() <= most
}

/// `text` within `most` characters, cut after a whole word and ending "…" when it is longer.
fn cut_at_word(text: &str, most: usize) -> String {
    if fits(text, most) {
        return text.to_string();
    }
    if most == 0 {
        return String::new();
    }
    let kept: String = text.chars().take(most - 1).collect();
    // Whole when the next character starts a new word; otherwise back to the last space.
    let ends_a_word = text.chars().nth(most - 1) == Some(' ');
    let kept = match kept.rfind(' ') {
        _ if ends_a_word => kept.as_str(),
        Some(space) => &kept[..space],
        // Not one whole word fits.
        None => "",
    };
    let kept = kept.trim_end_matches([',', ';', ':', ' ']);
    format!("{kept}…")
}

#[cfg(test)]
mod tests;
