//! An action's notation in words ("Bxg4+" reads "bishop takes g4, check"), for every notation the
//! games write: SAN with its additions (a portal's `>b5`, a rebirth's `(a5)`), placements and
//! picks (`CN@c1`), Blockade's move and statue (`Qa1-e5@e2`), and the words of protocols (`bomb:`,
//! `base:`, `detonate`, `list:`). What does not read as any of these is given as written.

use arbiter_engine::View;
use arbiter_engine::geometry::Square;

/// What an action did, in words, without who did it ("placed queen on d1"): the verb is part of
/// the words, since a placement, a choice and a move are told apart by it.
pub fn action_words(view: &View, text: &str) -> String {
    let text = text.trim();
    if let Some(words) = protocol_words(text) {
        return words;
    }
    if let Some(words) = statue_move_words(view, text) {
        return words;
    }
    if let Some((symbol, square)) = text.split_once('@')
        && let (Some(name), Some(square)) = (piece_name(view, symbol.trim()), Square::parse(square.trim()))
    {
        return format!("placed {name} on {square}");
    }
    match move_words(view, text) {
        Some(words) => format!("played {words}"),
        None => format!("played {text}"),
    }
}

/// The words of a game's protocol steps: choices of a square, a detonation, a list, an answer.
fn protocol_words(text: &str) -> Option<String> {
    if let Some(square) = text.strip_prefix("bomb:").and_then(Square::parse) {
        return Some(format!("chose the bomb carrier on {square}"));
    }
    if let Some(square) = text.strip_prefix("base:").and_then(Square::parse) {
        return Some(format!("chose the base {square}"));
    }
    if text.starts_with("list:") {
        return Some("submitted a list of pieces".into());
    }
    Some(
        match text {
            "detonate" => "detonated the bomb",
            "accept" => "accepted the proposal",
            "reject" => "rejected the proposal",
            _ => return None,
        }
        .into(),
    )
}

/// Blockade's move with its statue, `Qa1-e5@e2`.
fn statue_move_words(view: &View, text: &str) -> Option<String> {
    let (journey, statue) = text.split_once('@')?;
    let (from, to) = journey.split_once('-')?;
    let symbol_end = from.find(|c: char| c.is_ascii_lowercase())?;
    let name = piece_name(view, &from[..symbol_end])?;
    let from = Square::parse(&from[symbol_end..])?;
    let (to, statue) = (Square::parse(to)?, Square::parse(statue)?);
    Some(format!("moved {name} {from} to {to}, statue on {statue}"))
}

/// A move in SAN with the games' additions, or `None` when `text` is not one.
fn move_words(view: &View, text: &str) -> Option<String> {
    let (body, ending) = match text.strip_suffix('#') {
        Some(body) => (body, ", checkmate"),
        None => match text.strip_suffix('+') {
            Some(body) => (body, ", check"),
            None => (text, ""),
        },
    };
    let (body, choice) = split_choice(body)?;
    let (body, arrival) = match body.split_once('>') {
        Some((body, arrival)) => (body, Some(Square::parse(arrival)?)),
        None => (body, None),
    };
    let mut words = match body {
        "O-O" | "0-0" => "castles kingside".to_string(),
        "O-O-O" | "0-0-0" => "castles queenside".to_string(),
        _ => piece_move_words(view, body)?,
    };
    if let Some(arrival) = arrival {
        words.push_str(&format!(", through the portal to {arrival}"));
    }
    if let Some(choice) = choice {
        words.push_str(&format!(", the captured piece reborn on {choice}"));
    }
    words.push_str(ending);
    Some(words)
}

/// A move without its additions split from the square chosen with it in brackets, if any.
fn split_choice(body: &str) -> Option<(&str, Option<Square>)> {
    match body.strip_suffix(')') {
        Some(inner) => {
            let (body, square) = inner.split_once('(')?;
            Some((body, Some(Square::parse(square)?)))
        }
        None => Some((body, None)),
    }
}

/// `Nbxd2=Q` and the like: the piece, where it came from when that is written, capture, the
/// square, promotion.
fn piece_move_words(view: &View, body: &str) -> Option<String> {
    let (body, promotion) = match body.split_once('=') {
        Some((body, symbol)) => (body, Some(piece_name(view, symbol)?)),
        None => (body, None),
    };
    let symbol_end = body.find(|c: char| !c.is_ascii_uppercase()).unwrap_or(body.len());
    let name = match &body[..symbol_end] {
        "" => pawn_name(view),
        symbol => piece_name(view, symbol)?,
    };
    let rest = &body[symbol_end..];
    let square_start = rest.rfind(|c: char| c.is_ascii_lowercase())?;
    let to = Square::parse(&rest[square_start..])?;
    let (from, is_capture) = match rest[..square_start].strip_suffix('x') {
        Some(from) => (from, true),
        None => (&rest[..square_start], false),
    };
    if !from.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        return None;
    }
    let mut words = name;
    if !from.is_empty() {
        words.push_str(&format!(" from {from}"));
    }
    words.push_str(if is_capture { " takes " } else { " to " });
    words.push_str(&to.to_string());
    if let Some(promotion) = promotion {
        words.push_str(&format!(", promoting to {promotion}"));
    }
    Some(words)
}

/// The name of the piece type written `symbol` in this game, as the description names it.
fn piece_name(view: &View, symbol: &str) -> Option<String> {
    view.pieces
        .iter()
        .find(|piece| piece.symbol.as_str().eq_ignore_ascii_case(symbol))
        .map(|piece| super::piece_word(&piece.name))
}

/// The piece a move written without a symbol moves: the game's pawn, or "pawn" where it has
/// several kinds.
fn pawn_name(view: &View) -> String {
    let mut pawns = view
        .pieces
        .iter()
        .filter(|piece| piece.is_pawn)
        .map(|piece| &piece.name);
    match pawns.next() {
        Some(first) if pawns.all(|name| name == first) => super::piece_word(first),
        _ => "pawn".into(),
    }
}
