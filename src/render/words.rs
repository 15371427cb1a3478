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
mod tests {
    use super::*;
    use arbiter_engine::{AnyGame, Game};

    fn played(id: VariantId, texts: &str) -> AnyGame {
        let mut game = AnyGame::new(id);
        for text in texts.split_whitespace() {
            let seat = game.to_act()[0];
            let action = game.parse_action(seat, text).unwrap();
            game.apply(seat, &action).unwrap();
        }
        game
    }

    fn image(game: &AnyGame, viewer: Viewer) -> BoardImage {
        BoardImage {
            view: game.view(viewer),
            decor: Decor::default(),
        }
    }

    fn words_of(game: &AnyGame, viewer: Viewer) -> String {
        describe(&image(game, viewer))
    }

    fn assert_holds(text: &str, parts: &[&str]) {
        for part in parts {
            assert!(text.contains(part), "`{part}` missing from: {text}");
        }
    }

    #[test]
    fn chess_reads_the_game_whose_turn_the_last_move_check_every_piece_names_and_clocks() {
        let game = played(VariantId::Chess, "e4 f5 Qh5+");
        let mut shown = image(&game, Viewer::Spectator);
        shown.decor.player_names = [Some("alice".into()), Some("bob".into())];
        shown.decor.clocks = [Some("4:12".into()), Some("3:59".into())];
        let text = describe(&shown);
        assert_holds(
            &text,
            &[
                "Chess. Players: alice as White, bob as Black. Black to move.",
                "Last: White played queen to h5, check.",
                "Check: Black's king on e8.",
                "White: king e1, queen h5, rooks a1 h1, bishops c1 f1, knights b1 g1, pawns a2 b2 c2 d2 f2 g2 h2 e4.",
                "Black: king e8, queen d8, rooks a8 h8, bishops c8 f8, knights b8 g8, pawns f5 a7 b7 c7 d7 e7 g7 h7.",
                "Clocks: White 4:12, Black 3:59.",
            ],
        );
    }

    #[test]
    fn a_result_replaces_whose_turn_and_a_player_reads_their_own_turn() {
        let mated = played(VariantId::Chess, "f3 e5 g4 Qh4#");
        assert_holds(
            &words_of(&mated, Viewer::Spectator),
            &[
                "0-1: Black wins by checkmate.",
                "Last: Black played queen to h4, checkmate.",
            ],
        );
        let fresh = AnyGame::new(VariantId::Chess);
        let text = words_of(&fresh, Viewer::Seat(Seat::First));
        assert_holds(
            &text,
            &["Chess, as White sees it.", "White (you) to move.", "No moves yet."],
        );
    }

    #[test]
    fn a_description_too_long_counts_the_largest_kinds_first_then_every_kind() {
        let shown = image(&AnyGame::new(VariantId::Chess), Viewer::Spectator);
        let full = describe(&shown);
        let counted = describe_within(&shown, full.chars().count() - 1);
        assert_holds(&counted, &["8 pawns", "king e1", "rooks a1 h1"]);
        assert!(!counted.contains("pawns a2"), "{counted}");
        let briefest = describe_within(&shown, 150);
        assert!(briefest.chars().count() <= 150, "{briefest}");
        assert_holds(&briefest, &["White: king, queen, 2 rooks"]);
    }

    /// A 10x10 board full of pieces of many kinds: every level of shortening is needed, and the
    /// words never exceed the limit nor end in the middle of a word.
    #[test]
    fn a_crowded_ten_by_ten_position_stays_within_the_limit_and_ends_on_a_whole_word() {
        let fen = "k(cn)(pa)(ca)(nc)(cd)(ch)qrb/nbrqfw(ml)(al)(na)(da)/pppppppppp/pppppppppp/pppppppppp/\
                   PPPPPPPPPP/PPPPPPPPPP/PPPPPPPPPP/NBRQFW(ML)(AL)(NA)(DA)/K(CN)(PA)(CA)(NC)(CD)(CH)QRB w - - 0 1";
        let game = AnyGame::from_fen(VariantId::PickTheTeam, fen).unwrap();
        let shown = image(&game, Viewer::Spectator);
        let text = describe(&shown);
        assert!(
            text.chars().count() <= MOST_DESCRIPTION_CHARS,
            "{} chars: {text}",
            text.chars().count()
        );
        let briefest = compose(&shown, *Detail::fullest_first(&shown.view).last().unwrap());
        assert_holds(
            &text,
            &[
                "Pick-the-team Chess.",
                "White: king a1, queens h1 d2",
                "Black: king a10",
            ],
        );
        assert_holds(&describe_within(&shown, 700), &["White: ", "30 pawns", "Black: "]);
        for most in [0, 1, 40, 150, 333, 700] {
            let short = describe_within(&shown, most);
            assert!(short.chars().count() <= most, "{most}: {short}");
            let ends_whole = short.is_empty() || short.ends_with('.') || short.ends_with('…');
            assert!(ends_whole, "{most}: {short}");
            if let Some(cut) = short.strip_suffix('…').filter(|cut| !cut.is_empty()) {
                let after = briefest
                    .strip_prefix(cut)
                    .expect("a cut keeps the briefest words' start");
                assert!(
                    after.starts_with([' ', ',', ';', ':', '.']),
                    "cut mid-word at {most}: {short}"
                );
            }
        }
    }

    #[test]
    fn blockade_and_garden_read_their_seats_statues_placements_and_hands() {
        let start = AnyGame::new(VariantId::Garden);
        let text = words_of(&start, Viewer::Spectator);
        assert_holds(&text, &["Garden of Statues.", "Red to place.", "No moves yet."]);
        let game = played(
            VariantId::Garden,
            "Q@a1 Q@a2 R@a3 R@a4 R@a5 R@a6 B@a7 B@a8 B@b1 B@d2 Qa1-e5@e2",
        );
        let text = words_of(&game, Viewer::Spectator);
        assert_holds(
            &text,
            &[
                "Blue to move.",
                "Last: Red moved queen (never captures) a1 to e5, statue on e2.",
                "Red: queen (never captures) e5, rooks (never captures) a4 a5, bishops (never captures) b1 a8.",
                "Blue: queen (never captures) a2,",
                "Statues: e2.",
            ],
        );
    }

    #[test]
    fn beirut_reads_a_carrier_to_its_owner_alone() {
        let game = played(VariantId::Beirut, "bomb:d2 bomb:e7 e4");
        let spectator = words_of(&game, Viewer::Spectator);
        let white = words_of(&game, Viewer::Seat(Seat::First));
        let black = words_of(&game, Viewer::Seat(Seat::Second));
        assert!(
            !spectator.contains("carrier:") && !spectator.contains("Marks"),
            "{spectator}"
        );
        assert_holds(
            &white,
            &["Marks: your secret bomb carrier (only you see this mark): d2."],
        );
        assert_holds(
            &black,
            &["Marks: your secret bomb carrier (only you see this mark): e7."],
        );
        assert!(!white.contains("e7.") && !black.contains(": d2"), "{white}\n{black}");
        let moves = moves_in_words(&game.view(Viewer::Seat(Seat::First)), 500);
        assert_holds(
            &moves,
            &["1. White chose the bomb carrier on d2. Black chose a bomb carrier. 2. White played pawn to e4."],
        );
        assert!(!moves_in_words(&game.view(Viewer::Spectator), 500).contains("d2"));
    }

    #[test]
    fn ctf_reads_a_base_to_its_owner_alone_until_both_are_chosen() {
        let game = played(VariantId::Ctf, "base:a1");
        let spectator = words_of(&game, Viewer::Spectator);
        let white = words_of(&game, Viewer::Seat(Seat::First));
        assert!(
            !spectator.contains("Marks") && !spectator.contains("base a1"),
            "{spectator}"
        );
        assert_holds(&spectator, &["Waiting for a secret choice from Black."]);
        assert_holds(&white, &["your base (only you see it until both bases are chosen): a1"]);
        let both = played(VariantId::Ctf, "base:a1 base:h8");
        assert_holds(
            &words_of(&both, Viewer::Spectator),
            &["White's base: a1; White's flag: a1; Black's base: h8; Black's flag: h8."],
        );
    }

    #[test]
    fn rejection_reads_a_proposal_to_its_players_and_its_stand_in_to_others() {
        let game = played(VariantId::Rejection, "e4");
        assert_holds(&words_of(&game, Viewer::Spectator), &["Last: White proposed a move."]);
        assert_holds(
            &words_of(&game, Viewer::Seat(Seat::First)),
            &[
                "Last: White played pawn to e4.",
                "White's proposal: e4, on e2 e4",
                "Your proposal e4 is waiting",
            ],
        );
        let rejected = played(VariantId::Rejection, "e4 reject d4");
        assert_holds(
            &moves_in_words(&rejected.view(Viewer::Spectator), 500),
            &["1. White played d4 in place of the rejected proposal."],
        );
    }

    #[test]
    fn marks_read_their_meaning_without_how_they_are_drawn_and_with_their_labels() {
        let portal = words_of(&AnyGame::new(VariantId::Portal), Viewer::Spectator);
        assert_holds(
            &portal,
            &["Marks: a portal; a move ending on one goes on to the other of its number"],
        );
        assert_holds(&portal, &["f3 (1) b5 (1) f6 (2) b4 (2)."]);
        let domination = played(VariantId::Domination, "c4 d5 cxd5");
        let text = words_of(&domination, Viewer::Spectator);
        assert_holds(
            &text,
            &[
                "a domination square and its owner: d5 (White)",
                "Score: White ",
                "Turn 1 of 30.",
            ],
        );
        assert!(!text.contains("Ringed") && !text.contains("Tinted"), "{text}");
    }

    #[test]
    fn assault_labels_each_board_and_names_who_plays_which_side_there() {
        let game = played(VariantId::Assault, "e4 d4");
        let text = words_of(&game, Viewer::Spectator);
        assert_holds(
            &text,
            &[
                "Assault Chess.",
                "Board 1: A White, B Black. A: king e1,",
                "Board 2: B White, A Black. B: king e1,",
            ],
        );
    }

    #[test]
    fn pick_the_team_reads_picks_as_placements_and_the_pool_by_kind() {
        let game = played(VariantId::PickTheTeam, "K@e1 RN@f10 CN@a10");
        let text = words_of(&game, Viewer::Spectator);
        assert_holds(
            &text,
            &[
                "Pick-the-team Chess.",
                "White to place.",
                "Last: Black placed chinese nightrider on a10.",
                "White: king e1.",
                "Black: royal knight f10, chinese nightrider a10.",
                "Pool to pick from: ",
            ],
        );
    }

    #[test]
    fn notation_reads_as_words_in_every_form_the_games_write() {
        let view = AnyGame::new(VariantId::Chess).view(Viewer::Spectator);
        for (text, words) in [
            ("Nbxd2", "played knight from b takes d2"),
            ("exd8=Q#", "played pawn from e takes d8, promoting to queen, checkmate"),
            ("O-O-O+", "played castles queenside, check"),
            ("Nf3>b5", "played knight to f3, through the portal to b5"),
            ("Bxg4(a5)", "played bishop takes g4, the captured piece reborn on a5"),
            ("Q@d4", "placed queen on d4"),
            ("Qa1-e5@e2", "moved queen a1 to e5, statue on e2"),
            ("bomb:d2", "chose the bomb carrier on d2"),
            ("detonate", "detonated the bomb"),
            ("base:a1", "chose the base a1"),
            ("Zz9", "played Zz9"),
        ] {
            assert_eq!(action_words(&view, text), words, "{text}");
        }
    }

    #[test]
    fn every_game_reads_whose_turn_and_the_last_action_within_the_limit() {
        for &id in VariantId::ALL {
            let mut game = AnyGame::new(id);
            for _ in 0..6 {
                let seat = game.to_act()[0];
                let (action, _) = game.noted_actions(seat).into_iter().next().unwrap();
                game.apply(seat, &action).unwrap();
            }
            for viewer in [Viewer::Spectator, Viewer::Seat(Seat::First), Viewer::Seat(Seat::Second)] {
                let text = words_of(&game, viewer);
                assert!(text.chars().count() <= MOST_DESCRIPTION_CHARS, "{id:?}: {text}");
                assert!(text.contains("Last: "), "{id:?}: {text}");
                let says_turn = ["to move.", "to place.", "Waiting for a secret choice"];
                assert!(says_turn.iter().any(|turn| text.contains(turn)), "{id:?}: {text}");
            }
        }
    }

    #[test]
    fn a_long_game_keeps_its_latest_moves_and_says_how_many_it_leaves_out() {
        let game = played(VariantId::Chess, "Nf3 Nf6 Nc3 Nc6 d4 d5 Bf4 Bf5 e4 e5");
        let view = game.view(Viewer::Spectator);
        let all = moves_in_words(&view, 2000);
        assert!(all.starts_with("Moves: 1. White played knight to f3."), "{all}");
        let short = moves_in_words(&view, 120);
        assert!(short.chars().count() <= 120, "{short}");
        assert!(short.starts_with("Moves, the first "), "{short}");
        assert!(
            short.ends_with("5. White played pawn to e4. Black played pawn to e5."),
            "{short}"
        );
    }

    #[test]
    fn a_table_reads_its_title_columns_and_rows_and_leaves_rows_out_by_saying_so() {
        let table = Table {
            title: "Spring open, round 3".into(),
            header: vec!["#".into(), "Player".into(), "Pts".into()],
            rows: (1..=80)
                .map(|n| vec![n.to_string(), format!("player{n}"), "2".into()])
                .collect(),
            name_column: Some(1),
            legend: "Pts: points".into(),
        };
        let text = describe_table(&table);
        assert!(text.chars().count() <= MOST_DESCRIPTION_CHARS, "{text}");
        assert_holds(
            &text,
            &["Spring open, round 3. Pts: points. Columns: #, Player, Pts. 1, player1, 2."],
        );
        assert!(text.ends_with("more rows."), "{text}");
        let few = Table {
            rows: table.rows[..2].to_vec(),
            ..table.clone()
        };
        assert_eq!(
            describe_table(&few),
            "Spring open, round 3. Pts: points. Columns: #, Player, Pts. 1, player1, 2. 2, player2, 2."
        );
    }
}
