//! Assault Chess (rules page docs/rules/assault.md): two boards in
//! lock-step. Player A (the first seat) is White on board 1 and Black on board 2, player B the
//! reverse. In a White half-turn both players make their White move, secretly, and the two are
//! revealed together; likewise for Black. Black has no rooks; White's king is not royal. The first
//! to mate wins the match; a board that can no longer be won goes dead and play goes on on the
//! other.

use crate::chess_move::{LastMove, Move};
use crate::fen::FenError;
use crate::game::{Action, ActionError, EndReason, Game, Outcome, Phase, PieceId, Seat, Viewer, check_turn};
use crate::movegen;
use crate::piece::Color;
use crate::position::Position;
use crate::record::Record;
use crate::start::StartRefusal;
use crate::variant_file::Variant;
use crate::variants::chess::{ChessCore, piece_views};
use crate::view::{Mark, MarkKind, RecordEntry, Tone, View};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Why a board can no longer be won (checked in this order after each half-move, a mate first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeadReason {
    Stalemate,
    /// Every White piece has been captured.
    WhiteEliminated,
    /// White can no longer mate with what it has left.
    InsufficientMaterial,
    Repetition,
    FiftyMoves,
}

impl DeadReason {
    pub fn describe(self) -> &'static str {
        match self {
            DeadReason::Stalemate => "stalemate",
            DeadReason::WhiteEliminated => "every White piece captured",
            DeadReason::InsufficientMaterial => "White can no longer mate",
            DeadReason::Repetition => "threefold repetition",
            DeadReason::FiftyMoves => "the 50-move rule",
        }
    }
}

/// How a board ended, if it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardEnd {
    /// Black was checkmated: the board's White player has won.
    Mated,
    Dead(DeadReason),
}

/// A move submitted in the current step, not yet revealed.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Sealed {
    board: usize,
    from: crate::geometry::Square,
    to: crate::geometry::Square,
    promotion: Option<PieceId>,
    /// The move as written on its board (SAN).
    text: String,
}

// A secret stays out of logs: Debug says only which board a move was submitted for.
impl std::fmt::Debug for Sealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "(a move on board {})", self.board + 1)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssaultGame {
    /// Boxed: two chess cores would make every stored game of any variant as big.
    boards: Box<[ChessCore; 2]>,
    ended: [Option<BoardEnd>; 2],
    /// The moves submitted in the current step, by seat.
    sealed: [Option<Sealed>; 2],
    /// Every half-move of each board as shown once revealed: SAN, or `(pass)`.
    history: [Vec<String>; 2],
    /// How many actions each completed step took (1 or 2): a takeback undoes the last step.
    steps: Vec<u8>,
    /// Where the current step's record entries start (they are revealed together).
    step_start: usize,
    record: Record,
    outcome: Option<Outcome>,
}

/// The FENs of board 1 and board 2: one FEN for both, or two separated by `|`.
fn board_fens(fen: &str) -> Result<(&str, &str), FenError> {
    let parts: Vec<&str> = fen.split('|').map(str::trim).collect();
    match parts.as_slice() {
        [both] => Ok((*both, *both)),
        [one, two] => Ok((*one, *two)),
        _ => Err(FenError::Boards(
            "give one FEN for both boards, or two separated by |".into(),
        )),
    }
}

/// One board's checks of a start: its Black king (the only royal: White's king may be missing,
/// or several), then a chess board's.
fn check_board(core: &ChessCore, position: &Position) -> Result<(), StartRefusal> {
    let has_black_king = position
        .board
        .pieces()
        .any(|(_, piece)| piece.color == Color::Black && core.variant.is_royal(piece.kind, Color::Black));
    if !has_black_king {
        return Err(StartRefusal::new(
            "Black has no king: Black's king is royal, so each board needs exactly one (White's king is not royal and may be missing)",
        ));
    }
    crate::start::check_chess_position(&core.variant, &core.rules, position)
}

/// A refusal of one board's position, saying which board.
fn on_board(board: usize, refusal: StartRefusal) -> StartRefusal {
    StartRefusal::new(format!("board {}: {}", board + 1, refusal.0))
}

/// The seat playing `color` on `board`: A is White on board 1 (index 0), B on board 2.
pub fn seat_of(board: usize, color: Color) -> Seat {
    let white = if board == 0 { Seat::First } else { Seat::Second };
    if color == Color::White { white } else { white.other() }
}

/// The board on which `seat` plays `color`.
pub fn board_of(seat: Seat, color: Color) -> usize {
    (0..2)
        .find(|&b| seat_of(b, color) == seat)
        .expect("each seat plays each colour once")
}

impl AssaultGame {
    /// Whether a game can start from this position (`crate::start`): each board as given
    /// (before any half-turn of passes the reading already resolved) has exactly one Black king,
    /// White's being no royal, and passes a chess board's checks; the side not to move, the same
    /// on both boards, is Black in a White half-turn and White otherwise, whose king may stand
    /// attacked. A board already dead is named in a note: play goes on on the other alone. (A
    /// match already won or drawn is refused by the caller.)
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
        let fens = board_fens(fen).unwrap_or((fen, fen));
        let mut notes = Vec::new();
        for (board, fen) in [fens.0, fens.1].into_iter().enumerate() {
            let core = &self.boards[board];
            // The boards read from this FEN a moment ago; the current one stands in, in case.
            let given = core
                .variant
                .position_from_fen(fen)
                .unwrap_or_else(|_| core.position.clone());
            check_board(core, &given).map_err(|refusal| on_board(board, refusal))?;
            let dropped = crate::start::dropped_castling(&core.variant, fen, &given);
            notes.extend(dropped.map(|note| format!("Board {}: {note}", board + 1)));
        }
        for board in 0..2 {
            if let Some(BoardEnd::Dead(reason)) = self.ended[board] {
                notes.push(format!(
                    "Board {} is already dead ({}): play goes on on board {} alone.",
                    board + 1,
                    reason.describe(),
                    2 - board
                ));
            }
        }
        Ok(notes)
    }

    pub fn new(variant: Arc<Variant>) -> AssaultGame {
        let start = variant.start_position();
        AssaultGame::with_boards(variant, [start.clone(), start])
    }

    /// A match from two positions, given as one FEN for both boards or `board 1 | board 2`; both
    /// must have the same side to move.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<AssaultGame, FenError> {
        let (one, two) = board_fens(fen)?;
        let positions = [variant.position_from_fen(one)?, variant.position_from_fen(two)?];
        if positions[0].turn != positions[1].turn {
            return Err(FenError::Boards(
                "both boards must have the same side to move (the half-turns are in lock-step)".into(),
            ));
        }
        let mut game = AssaultGame::with_boards(variant, positions);
        for board in 0..2 {
            game.ended[board] = game.board_end(board);
        }
        game.outcome = game.match_outcome(&[false, false]);
        game.settle();
        Ok(game)
    }

    fn with_boards(variant: Arc<Variant>, positions: [Position; 2]) -> AssaultGame {
        let [one, two] = positions;
        AssaultGame {
            boards: Box::new([ChessCore::new(variant.clone(), one), ChessCore::new(variant, two)]),
            ended: [None, None],
            sealed: [None, None],
            history: [Vec::new(), Vec::new()],
            steps: Vec::new(),
            step_start: 0,
            record: Record::default(),
            outcome: None,
        }
    }

    /// How board `board` (0 or 1) has ended, if it has.
    pub fn ended(&self, board: usize) -> Option<BoardEnd> {
        self.ended[board]
    }

    fn is_live(&self, board: usize) -> bool {
        self.ended[board].is_none()
    }

    /// Whose half-turn it is: the side to move on the live boards (always the same on both).
    pub fn half_turn(&self) -> Color {
        (0..2)
            .find(|&b| self.is_live(b))
            .map_or(Color::White, |b| self.boards[b].position.turn)
    }

    /// The board `seat` must move on in this half-turn, if it has one that is still live.
    pub fn board_for(&self, seat: Seat) -> Option<usize> {
        let board = board_of(seat, self.half_turn());
        self.is_live(board).then_some(board)
    }

    /// The seats that have a move to make in this step (White without a legal move passes).
    fn movers(&self) -> Vec<Seat> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        Seat::BOTH
            .into_iter()
            .filter(|&seat| self.board_for(seat).is_some_and(|board| self.boards[board].can_move()))
            .collect()
    }

    /// Boards whose White must pass when the current step resolves.
    pub fn pending_passes(&self) -> Vec<usize> {
        if self.outcome.is_some() || self.half_turn() != Color::White {
            return Vec::new();
        }
        (0..2)
            .filter(|&b| self.is_live(b) && !self.boards[b].can_move())
            .collect()
    }

    /// How board `board` stands after a half-move on it.
    fn board_end(&self, board: usize) -> Option<BoardEnd> {
        let core = &self.boards[board];
        let position = &core.position;
        let has_moves = core.can_move();
        if position.turn == Color::Black && !has_moves {
            return Some(if core.is_in_check(Color::Black) {
                BoardEnd::Mated
            } else {
                BoardEnd::Dead(DeadReason::Stalemate)
            });
        }
        let white: Vec<&str> = position
            .board
            .pieces()
            .filter(|(_, piece)| piece.color == Color::White)
            .map(|(_, piece)| core.variant.piece(piece.kind).def.id.as_str())
            .collect();
        let black_has_more_than_its_king = position
            .board
            .pieces()
            .any(|(_, piece)| piece.color == Color::Black && !core.variant.is_royal(piece.kind, piece.color));
        let dead = if white.is_empty() {
            Some(DeadReason::WhiteEliminated)
        } else if !can_mate(&white, black_has_more_than_its_king) {
            Some(DeadReason::InsufficientMaterial)
        } else if core.repetitions() >= 3 {
            Some(DeadReason::Repetition)
        } else if position.halfmove_clock >= 100 {
            Some(DeadReason::FiftyMoves)
        } else {
            None
        };
        dead.map(BoardEnd::Dead)
    }

    /// The match result once the boards stand as they do; `mated_now` says which boards were
    /// mated in the step just resolved (mates in one step draw).
    fn match_outcome(&self, mated_now: &[bool; 2]) -> Option<Outcome> {
        match (mated_now[0], mated_now[1]) {
            (true, true) => return Some(Outcome::draw(EndReason::MatesOnBothBoards)),
            (true, false) => return Some(Outcome::win(seat_of(0, Color::White), EndReason::Checkmate)),
            (false, true) => return Some(Outcome::win(seat_of(1, Color::White), EndReason::Checkmate)),
            (false, false) => {}
        }
        if let Some(board) = (0..2).find(|&b| self.ended[b] == Some(BoardEnd::Mated)) {
            return Some(Outcome::win(seat_of(board, Color::White), EndReason::Checkmate));
        }
        (self.ended.iter().all(Option::is_some)).then(|| Outcome::draw(EndReason::BothBoardsDead))
    }

    /// Plays the step: each live board's sealed move, or White's pass; reveals the moves; ends
    /// boards and perhaps the match. Then any step in which nobody has a move resolves at once.
    fn resolve(&mut self) {
        let mut mated_now = [false, false];
        let kind = self.half_turn();
        for (board, mated) in mated_now.iter_mut().enumerate() {
            if !self.is_live(board) {
                continue;
            }
            let seat = seat_of(board, kind);
            match self.sealed[seat.index()].take() {
                Some(sealed) => {
                    let core = &mut self.boards[board];
                    let legal = core.legal_moves();
                    let mv = find_move(core, &legal, &sealed).expect("a sealed move was legal when submitted");
                    movegen::make_move(&core.rules, &core.variant, &mut core.position, mv);
                    core.finish_action(Some(LastMove::of(&mv)));
                    self.history[board].push(sealed.text);
                }
                None => {
                    self.boards[board].pass();
                    self.history[board].push("(pass)".into());
                }
            }
            self.ended[board] = self.board_end(board);
            *mated = self.ended[board] == Some(BoardEnd::Mated);
        }
        self.record.reveal_from(self.step_start);
        self.steps.push((self.record.len() - self.step_start) as u8);
        self.step_start = self.record.len();
        self.outcome = self.match_outcome(&mated_now);
        self.settle();
    }

    /// Resolves at once every step in which nobody has a move (only passes).
    fn settle(&mut self) {
        while self.outcome.is_none() && self.movers().is_empty() {
            self.resolve();
        }
    }

    /// The legal moves of `seat` on its board now, with their SAN (no board prefix).
    fn noted_moves(&self, seat: Seat) -> Vec<(Action, String)> {
        if check_turn(self, seat).is_err() {
            return Vec::new();
        }
        let Some(board) = self.board_for(seat) else {
            return Vec::new();
        };
        let core = &self.boards[board];
        let legal = core.legal_moves();
        let texts = core.noted_moves(&legal);
        legal
            .iter()
            .zip(texts)
            .map(|(&mv, text)| (action_on(core, board, mv), text))
            .collect()
    }

    /// Counts the leaf nodes of the tree of steps to `depth`: a step (every acting seat's move)
    /// is one ply, its leaves the product of the seats' move counts.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let seats = self.to_act();
        let Some(&seat) = seats.first() else {
            return 0;
        };
        let moves = self.legal_actions(seat);
        let completes_step = seats.len() == 1;
        if depth == 1 {
            let others: u64 = seats[1..].iter().map(|&s| self.legal_actions(s).len() as u64).product();
            return moves.len() as u64 * others;
        }
        moves
            .iter()
            .map(|action| {
                let mut next = self.clone();
                next.apply(seat, action).expect("legal actions apply");
                next.perft(if completes_step { depth - 1 } else { depth })
            })
            .sum()
    }

    fn seat_name(seat: Seat) -> &'static str {
        if seat == Seat::First { "A" } else { "B" }
    }

    /// "Board 1: A White, B Black" and how the board stands.
    fn board_label(&self, board: usize) -> String {
        let white = AssaultGame::seat_name(seat_of(board, Color::White));
        let black = AssaultGame::seat_name(seat_of(board, Color::Black));
        let state = match self.ended[board] {
            None => String::new(),
            Some(BoardEnd::Mated) => format!(" · Black mated, {white} wins"),
            Some(BoardEnd::Dead(reason)) => format!(" · dead ({})", reason.describe()),
        };
        format!("Board {}: {white} White, {black} Black{state}", board + 1)
    }

    /// "White half-turn 3: A moves on board 1, B on board 2."
    fn half_turn_note(&self) -> Option<String> {
        if self.outcome.is_some() {
            return None;
        }
        let kind = self.half_turn();
        let number = (0..2)
            .find(|&b| self.is_live(b))
            .map_or(1, |b| self.boards[b].position.fullmove_number);
        let who: Vec<String> = Seat::BOTH
            .into_iter()
            .filter_map(|seat| {
                let board = self.board_for(seat)?;
                let what = if !self.boards[board].can_move() {
                    "passes"
                } else {
                    "moves"
                };
                Some(format!(
                    "{} {what} on board {}",
                    AssaultGame::seat_name(seat),
                    board + 1
                ))
            })
            .collect();
        Some(format!("{} half-turn {number}: {}.", kind.name(), who.join(", ")))
    }

    /// "Board 1: 1. e4 e5 2. Nf3" (revealed half-moves only).
    fn move_list(&self, board: usize) -> String {
        let mut out = format!("Board {}:", board + 1);
        for (index, text) in self.history[board].iter().enumerate() {
            if index % 2 == 0 {
                out.push_str(&format!(" {}.", index / 2 + 1));
            }
            out.push(' ');
            out.push_str(text);
        }
        if self.history[board].is_empty() {
            out.push_str(" no moves yet");
        }
        out
    }
}

/// Whether White can still mate with `white` (its pieces' ids) on a board: with a pawn, a rook
/// or a queen, with two minor pieces, or with one minor piece when Black has more than its king
/// there (a king boxed in by its own pieces can be mated by a lone knight or bishop). White's
/// king, capturable, adds nothing.
fn can_mate(white: &[&str], black_has_more_than_its_king: bool) -> bool {
    let minors = white.iter().filter(|id| matches!(**id, "knight" | "bishop")).count();
    minors >= 2
        || (minors == 1 && black_has_more_than_its_king)
        || white.iter().any(|id| matches!(*id, "pawn" | "rook" | "queen"))
}

/// The action that plays `mv` on `board`.
fn action_on(core: &ChessCore, board: usize, mv: Move) -> Action {
    match core.action_of(mv) {
        Action::Move {
            from,
            to,
            promotion,
            choice,
            ..
        } => Action::Move {
            from,
            to,
            promotion,
            choice,
            board: board as u8,
        },
        other => other,
    }
}

fn find_move(core: &ChessCore, legal: &[Move], sealed: &Sealed) -> Option<Move> {
    let action = Action::Move {
        from: sealed.from,
        to: sealed.to,
        promotion: sealed.promotion.clone(),
        choice: None,
        board: 0,
    };
    core.move_of(&action, legal)
}

impl Game for AssaultGame {
    fn variant_id(&self) -> &str {
        &self.boards[0].variant.def.id
    }
    fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            Phase::Finished
        } else {
            Phase::Play
        }
    }
    fn to_act(&self) -> Vec<Seat> {
        self.movers()
            .into_iter()
            .filter(|seat| self.sealed[seat.index()].is_none())
            .collect()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.noted_moves(seat).into_iter().map(|(action, _)| action).collect()
    }
    fn noted_actions(&self, seat: Seat) -> Vec<(Action, String)> {
        self.noted_moves(seat)
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        if self.outcome.is_none() && self.sealed[seat.index()].is_some() {
            return Err(ActionError::AlreadyChosen);
        }
        check_turn(self, seat)?;
        let board = self.board_for(seat).ok_or(ActionError::NotYourTurn)?;
        let text = text.trim();
        let san = match text.split_once(':') {
            Some((prefix, rest)) => {
                let named: usize = match prefix.trim() {
                    "1" => 0,
                    "2" => 1,
                    _ => {
                        return Err(ActionError::unreadable(
                            text,
                            "a move is SAN on your board, optionally after its number: e4 or 1:e4",
                        ));
                    }
                };
                if named != board {
                    return Err(ActionError::Illegal(format!(
                        "you move on board {} in this half-turn, not board {}",
                        board + 1,
                        named + 1
                    )));
                }
                rest.trim()
            }
            None => text,
        };
        let core = &self.boards[board];
        core.parse_move(san).map(|mv| action_on(core, board, mv))
    }
    fn notation(&self, seat: Seat, action: &Action) -> String {
        self.noted_moves(seat)
            .into_iter()
            .find(|(legal, _)| legal == action)
            .map_or_else(|| format!("{action:?}"), |(_, text)| text)
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        if self.outcome.is_none() && self.sealed[seat.index()].is_some() {
            return Err(ActionError::AlreadyChosen);
        }
        check_turn(self, seat)?;
        let Some((
            Action::Move {
                from,
                to,
                promotion,
                board,
                ..
            },
            text,
        )) = self.noted_moves(seat).into_iter().find(|(legal, _)| legal == action)
        else {
            return Err(ActionError::Illegal(
                "that is not a legal move on your board now".into(),
            ));
        };
        let board = board as usize;
        let plain = text.trim_end_matches(['+', '#']).to_string();
        // The record holds the move as its player wrote it; until the step is revealed others
        // read only which board it is for.
        self.record.push_secret(
            seat,
            text.clone(),
            &format!("(submitted a move on board {})", board + 1),
        );
        self.sealed[seat.index()] = Some(Sealed {
            board,
            from,
            to,
            promotion,
            text: plain,
        });
        if self.to_act().is_empty() {
            self.resolve();
        }
        Ok(())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    fn conclude(&mut self, outcome: Outcome) {
        self.outcome.get_or_insert(outcome);
    }
    fn takeback_plies(&self, _asker: Seat, _history: &[(Seat, Action)]) -> Result<usize, ActionError> {
        // The whole last half-turn, and any move already submitted in the one under way.
        let submitted = self.record.len() - self.step_start;
        match self.steps.last() {
            Some(&last) => Ok(submitted + last as usize),
            None => Err(ActionError::Illegal("no half-turn has been played yet".into())),
        }
    }
    fn view(&self, viewer: Viewer) -> View {
        View {
            record: self.record(viewer),
            notes: self.notes(viewer),
            ..self.sight(viewer)
        }
    }
    fn sight(&self, viewer: Viewer) -> View {
        let mut boards: Vec<crate::view::BoardView> = (0..2)
            .map(|board| {
                let mut view = self.boards[board].board_view(viewer, Vec::new());
                view.label = Some(self.board_label(board));
                view.seats = [seat_of(board, Color::White), seat_of(board, Color::Black)];
                view
            })
            .collect();
        // A player sees their own submitted move until it is revealed.
        if let Viewer::Seat(seat) = viewer
            && let Some(sealed) = &self.sealed[seat.index()]
        {
            let meaning = format!(
                "Your move on board {}, not revealed yet: {}",
                sealed.board + 1,
                sealed.text
            );
            for square in [sealed.from, sealed.to] {
                boards[sealed.board].marks.push(Mark {
                    square,
                    kind: MarkKind::Tint(Tone::Highlight),
                    meaning: meaning.clone(),
                });
            }
        }
        View {
            seat_names: ["A".into(), "B".into()],
            ..View::new(
                self.variant_id().to_string(),
                viewer,
                piece_views(&self.boards[0].variant),
                boards,
                self.phase(),
                self.to_act(),
                self.outcome.clone(),
            )
        }
    }
    fn record(&self, viewer: Viewer) -> Vec<RecordEntry> {
        self.record.visible(viewer, self.outcome.is_some())
    }
    fn notes(&self, viewer: Viewer) -> Vec<String> {
        let mut notes: Vec<String> = self.half_turn_note().into_iter().collect();
        notes.extend((0..2).map(|board| self.move_list(board)));
        if let Viewer::Seat(seat) = viewer
            && let Some(sealed) = &self.sealed[seat.index()]
        {
            let waiting: Vec<&str> = self.to_act().into_iter().map(AssaultGame::seat_name).collect();
            notes.push(format!(
                "Your move on board {} ({}) is in; waiting for {}.",
                sealed.board + 1,
                sealed.text,
                waiting.join(" and ")
            ));
        }
        let passes = self.pending_passes();
        if !passes.is_empty() {
            let boards: Vec<String> = passes.iter().map(|b| (b + 1).to_string()).collect();
            notes.push(format!(
                "White has no legal move on board {}: it passes this half-turn.",
                boards.join(" and ")
            ));
        }
        notes
    }
    /// Assault asks nothing privately: moves are submitted like any other.
    fn has_prompt(&self, _seat: Seat) -> bool {
        false
    }
    fn notice(&self, _seat: Seat) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_seat_plays_each_colour_on_one_board() {
        assert_eq!(seat_of(0, Color::White), Seat::First);
        assert_eq!(seat_of(0, Color::Black), Seat::Second);
        assert_eq!(seat_of(1, Color::White), Seat::Second);
        assert_eq!(seat_of(1, Color::Black), Seat::First);
        assert_eq!(board_of(Seat::First, Color::Black), 1);
    }

    #[test]
    fn white_can_mate_with_a_pawn_a_rook_a_queen_or_two_minor_pieces() {
        for black_has_more in [false, true] {
            assert!(!can_mate(&["king"], black_has_more));
            assert!(can_mate(&["knight", "bishop"], black_has_more));
            assert!(can_mate(&["pawn"], black_has_more));
            assert!(can_mate(&["king", "rook"], black_has_more));
        }
        // One minor piece mates only a king boxed in by its own pieces.
        assert!(!can_mate(&["king", "knight"], false));
        assert!(!can_mate(&["bishop"], false));
        assert!(can_mate(&["king", "knight"], true));
        assert!(can_mate(&["bishop"], true));
    }
}
