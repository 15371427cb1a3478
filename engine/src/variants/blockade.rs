//! Blockade Chess and Garden of Statues (rules page docs/rules/blockade.md).
//!
//! Set-up in snake order, then turns of a non-capturing move plus a statue placed along the moved
//! piece's lines. A player without a complete turn loses.

use crate::chess_move::Move;
use crate::fen::{FenError, format_placement, parse_placement};
use crate::game::{Action, ActionError, EndReason, Game, Outcome, PieceId, Seat, Viewer};
use crate::geometry::Square;
use crate::movegen;
use crate::piece::{Cell, Color, Kind, Piece, Symbol};
use crate::position::{Board, Position};
use crate::record::Record;
use crate::rules::Standard;
use crate::start::StartRefusal;
use crate::variant_file::Variant;
use crate::variants::chess::{board_view, piece_views};
use crate::variants::chess_based::{self, ChessBased, Stage};
use crate::view::{Mark, MarkKind, SideStyle, Tone, View};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Who places in each of the ten set-up placements: White 1, Black 2, White 2, Black 2, White 2,
/// Black 1.
const SETUP_ORDER: [Color; 10] = [
    Color::White,
    Color::Black,
    Color::Black,
    Color::White,
    Color::White,
    Color::Black,
    Color::Black,
    Color::White,
    Color::White,
    Color::Black,
];

/// The two games differ only in names and colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    Blockade,
    Garden,
}

impl Style {
    pub fn id(self) -> &'static str {
        match self {
            Style::Blockade => "blockade",
            Style::Garden => "garden",
        }
    }
    pub fn seat_names(self) -> [&'static str; 2] {
        match self {
            Style::Blockade => ["White", "Black"],
            Style::Garden => ["Red", "Blue"],
        }
    }
    fn sides(self) -> [SideStyle; 2] {
        match self {
            Style::Blockade => [SideStyle::White, SideStyle::Black],
            Style::Garden => [SideStyle::Red, SideStyle::Blue],
        }
    }
}

/// A Blockade Chess or Garden of Statues game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockadeGame {
    style: Style,
    /// The pieces (stored so that a change to them is noticed: boards and hands name kinds).
    #[serde(with = "crate::variants::stored_variant")]
    variant: Arc<Variant>,
    board: Board,
    turn: Color,
    /// Pieces each side has still to place.
    hands: [Vec<Kind>; 2],
    placements_done: usize,
    last_move: Option<(Square, Square)>,
    last_statue: Option<(Square, Color)>,
    record: Record,
    outcome: Option<Outcome>,
}

/// A complete play turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    from: Square,
    to: Square,
    statue: Square,
}

/// Each side's army, on the board or still in hand: its symbol, how many, and its name in the
/// singular and the plural. Pieces never capture, so an army never shrinks.
const ARMY: [(&str, usize, &str, &str); 3] = [
    ("Q", 1, "queen", "queens"),
    ("R", 2, "rook", "rooks"),
    ("B", 2, "bishop", "bishops"),
];

/// "1 placement", "3 placements".
fn placements(count: usize) -> String {
    if count == 1 {
        "1 placement".into()
    } else {
        format!("{count} placements")
    }
}

impl BlockadeGame {
    /// Whether a game can start from this position (`crate::start`): each side's army whole (a
    /// queen, two rooks and two bishops, on the board or in hand), and during the set-up the
    /// hands where the snake order has them, the side field (if given) naming the side it has
    /// place next, and a free square for every piece still in hand. A side to move without a
    /// complete turn has lost: [`crate::AnyGame::from_players_fen`] refuses that as already over.
    pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
        for color in Color::BOTH {
            self.check_army(color)?;
        }
        if self.is_setup() {
            self.check_snake_order(fen)?;
            self.check_room_to_place()?;
        }
        Ok(Vec::new())
    }

    /// A side's name in this game (White or Red, Black or Blue).
    fn side_name(&self, color: Color) -> &'static str {
        self.style.seat_names()[color.index()]
    }

    /// `color`'s pieces of `kind`, on the board and in hand.
    fn count_of(&self, color: Color, kind: Kind) -> usize {
        let on_board = self
            .board
            .pieces()
            .filter(|(_, piece)| piece.color == color && piece.kind == kind)
            .count();
        on_board + self.hands[color.index()].iter().filter(|&&k| k == kind).count()
    }

    fn check_army(&self, color: Color) -> Result<(), StartRefusal> {
        for (symbol, wanted, one, several) in ARMY {
            let Some(kind) = Symbol::new(symbol).and_then(|s| self.variant.kind_by_symbol(s)) else {
                continue;
            };
            let count = self.count_of(color, kind);
            if count != wanted {
                let noun = if count == 1 { one } else { several };
                return Err(StartRefusal::new(format!(
                    "{} has {count} {noun} on the board and in hand: each side's army is one queen, two rooks and \
                     two bishops, all of them placed or still to place (pieces are never captured)",
                    self.side_name(color)
                )));
            }
        }
        Ok(())
    }

    /// The snake order in this game's names: "White 1, Black 2, White 2, Black 2, White 2, Black 1".
    fn snake_words(&self) -> String {
        let [first, second] = Color::BOTH.map(|color| self.side_name(color));
        format!("{first} 1, {second} 2, {first} 2, {second} 2, {first} 2, {second} 1")
    }

    /// How many pieces each side has placed in the set-up's first `done` placements.
    fn snake_placed(done: usize) -> [usize; 2] {
        Color::BOTH.map(|color| SETUP_ORDER[..done].iter().filter(|&&c| c == color).count())
    }

    /// The hands fit the snake order after as many placements as are made, and a side field
    /// given names the side the snake order has place next.
    fn check_snake_order(&self, fen: &str) -> Result<(), StartRefusal> {
        let done = self.placements_done;
        let expected = BlockadeGame::snake_placed(done);
        let army: usize = ARMY.iter().map(|(_, count, _, _)| count).sum();
        let placed = Color::BOTH.map(|color| army.saturating_sub(self.hands[color.index()].len()));
        let [first, second] = Color::BOTH.map(|color| self.side_name(color));
        let order = self.snake_words();
        if placed != expected {
            return Err(StartRefusal::new(format!(
                "after {} the snake order ({order}) gives {first} {} and {second} {}, but here {first} \
                 has placed {} and {second} {}",
                placements(done),
                expected[0],
                expected[1],
                placed[0],
                placed[1]
            )));
        }
        let given = match fen.split_whitespace().nth(1) {
            Some("w") => Some(Color::White),
            Some("b") => Some(Color::Black),
            _ => None,
        };
        if let Some(given) = given.filter(|&given| given != self.turn) {
            return Err(StartRefusal::new(format!(
                "after {} the snake order ({order}) has {} place next, not {}",
                placements(done),
                self.side_name(self.turn),
                self.side_name(given)
            )));
        }
        Ok(())
    }

    /// Every piece still in hand has an empty square to go to (statues may fill the board).
    fn check_room_to_place(&self) -> Result<(), StartRefusal> {
        let empty = self
            .board
            .size()
            .squares()
            .filter(|&square| self.board.get(square).is_empty())
            .count();
        let in_hand = self.hands[0].len() + self.hands[1].len();
        if empty < in_hand {
            return Err(StartRefusal::new(format!(
                "{in_hand} pieces are still to be placed but only {empty} squares are empty: the set-up could not \
                 be finished"
            )));
        }
        Ok(())
    }

    /// A new game of `variant`'s pieces (Blockade's variant file): empty board, full hands, White
    /// to place.
    pub fn new(style: Style, variant: Arc<Variant>) -> BlockadeGame {
        let hand: Vec<Kind> = ["Q", "R", "R", "B", "B"]
            .iter()
            .map(|symbol| {
                Symbol::new(symbol)
                    .and_then(|s| variant.kind_by_symbol(s))
                    .expect("blockade pieces")
            })
            .collect();
        BlockadeGame {
            style,
            board: Board::empty(variant.size),
            variant,
            turn: Color::White,
            hands: [hand.clone(), hand],
            placements_done: 0,
            last_move: None,
            last_statue: None,
            record: Record::default(),
            outcome: None,
        }
    }

    /// Reads a position: the board (`*` for statues), optionally followed by the pieces still in
    /// hand in brackets (`8/8/8/8/8/8/8/8[QRRBBqrrbb]`), then the side to act.
    pub fn from_fen(style: Style, variant: Arc<Variant>, fen: &str) -> Result<BlockadeGame, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let (board_text, hand_text) = match placement.split_once('[') {
            Some((board, rest)) => (
                board,
                rest.strip_suffix(']')
                    .ok_or_else(|| FenError::Extra(rest.to_string()))?,
            ),
            None => (placement, ""),
        };
        let board = parse_placement(&variant.table, variant.size, board_text)?;
        let mut hands: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
        for c in hand_text.chars() {
            let kind = Symbol::from_char(c)
                .and_then(|s| variant.kind_by_symbol(s))
                .ok_or_else(|| FenError::UnknownPiece(c.to_string()))?;
            hands[usize::from(c.is_ascii_lowercase())].push(kind);
        }
        let turn = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => return Err(FenError::Turn(other.to_string())),
        };
        let in_hand = hands[0].len() + hands[1].len();
        let placements_done = SETUP_ORDER.len().saturating_sub(in_hand);
        let mut game = BlockadeGame {
            style,
            variant,
            board,
            turn,
            hands,
            placements_done,
            last_move: None,
            last_statue: None,
            record: Record::default(),
            outcome: None,
        };
        if in_hand > 0 {
            game.turn = SETUP_ORDER[placements_done.min(SETUP_ORDER.len() - 1)];
        }
        game.outcome = game.evaluate();
        Ok(game)
    }

    pub fn style(&self) -> Style {
        self.style
    }

    fn is_setup(&self) -> bool {
        self.placements_done < SETUP_ORDER.len()
    }

    /// A position of the shared chess core, to use its move generator on this board.
    fn as_position(&self, board: Board) -> Position {
        Position::new(board, self.turn)
    }

    fn piece_destinations(&self, board: &Board, from: Square) -> Vec<Square> {
        let mut moves: Vec<Move> = Vec::new();
        movegen::piece_moves(
            &Standard,
            &self.variant,
            &self.as_position(board.clone()),
            from,
            &mut moves,
        );
        moves.into_iter().map(|m| m.to).collect()
    }

    /// The board after moving `from` to `to` (a statue not yet placed).
    fn moved(&self, from: Square, to: Square) -> Board {
        let mut board = self.board.clone();
        let cell = board.get(from);
        board.set(from, Cell::EMPTY);
        board.set(to, cell);
        board
    }

    fn turns(&self) -> Vec<Turn> {
        let mut turns = Vec::new();
        for (from, piece) in self.board.pieces() {
            if piece.color != self.turn {
                continue;
            }
            for to in self.piece_destinations(&self.board, from) {
                let after = self.moved(from, to);
                for statue in self.piece_destinations(&after, to) {
                    turns.push(Turn { from, to, statue });
                }
            }
        }
        turns
    }

    fn has_complete_turn(&self) -> bool {
        self.board.pieces().any(|(from, piece)| {
            piece.color == self.turn
                && self.piece_destinations(&self.board, from).into_iter().any(|to| {
                    let after = self.moved(from, to);
                    !self.piece_destinations(&after, to).is_empty()
                })
        })
    }

    fn placements(&self, seat: Seat) -> Vec<Action> {
        let mut kinds = self.hands[seat.index()].clone();
        kinds.sort();
        kinds.dedup();
        let empty: Vec<Square> = self
            .board
            .size()
            .squares()
            .filter(|&sq| self.board.get(sq).is_empty())
            .collect();
        kinds
            .iter()
            .flat_map(|&kind| {
                let piece = self.piece_id(kind);
                empty.iter().map(move |&to| Action::Place {
                    piece: piece.clone(),
                    to,
                })
            })
            .collect()
    }

    fn piece_id(&self, kind: Kind) -> PieceId {
        PieceId(self.variant.piece(kind).def.id.clone())
    }

    /// The kind an action names, if this game has it.
    fn kind_of(&self, piece: &PieceId) -> Option<Kind> {
        self.variant.kind_by_id(piece.as_str())
    }

    /// Counts complete turns to `depth` (each set-up placement and each play turn is one ply).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome.is_some() {
            return 0;
        }
        let actions = self.legal_actions(Seat::of_color(self.turn));
        if depth == 1 {
            return actions.len() as u64;
        }
        actions
            .iter()
            .map(|action| {
                let mut next = self.clone();
                next.apply_unchecked(action);
                next.outcome = next.evaluate();
                next.perft(depth - 1)
            })
            .sum()
    }

    /// The symbol of a piece kind (a kind of this game's own: kinds from outside come as ids).
    fn symbol(&self, kind: Kind) -> Symbol {
        self.variant.piece(kind).def.symbol
    }

    fn apply_unchecked(&mut self, action: &Action) {
        let color = self.turn;
        match action {
            Action::Place { piece, to } => {
                let Some(kind) = self.kind_of(piece) else {
                    return;
                };
                let hand = &mut self.hands[color.index()];
                if let Some(i) = hand.iter().position(|&k| k == kind) {
                    hand.remove(i);
                }
                self.board.set(*to, Cell::piece(Piece::new(kind, color)));
                self.placements_done += 1;
                self.turn = SETUP_ORDER.get(self.placements_done).copied().unwrap_or(Color::White);
                // The placement is shown like a last move, on its one square.
                self.last_move = Some((*to, *to));
            }
            Action::MoveAndStatue { from, to, statue } => {
                self.board = self.moved(*from, *to);
                self.board.set(*statue, Cell::STATUE);
                self.last_move = Some((*from, *to));
                self.last_statue = Some((*statue, color));
                self.turn = color.other();
            }
            _ => {}
        }
    }

    fn fen(&self) -> String {
        let mut placement = format_placement(&self.variant.table, &self.board);
        if self.is_setup() {
            let mut hand = String::new();
            for color in Color::BOTH {
                for &kind in &self.hands[color.index()] {
                    hand.push_str(&self.symbol(kind).fen(color));
                }
            }
            placement = format!("{placement}[{hand}]");
        }
        format!("{placement} {}", if self.turn == Color::White { 'w' } else { 'b' })
    }

    /// Reads `Q@d4` (placement) or `Qd1-d5@d7` (turn); the letter, `-` and `@` may be left out
    /// of a turn (`d1d5d7`).
    fn read_text(&self, text: &str) -> Result<Action, ActionError> {
        let text = text.trim();
        let unreadable = || {
            ActionError::unreadable(
                text,
                if self.is_setup() {
                    "a placement is written like Q@d4"
                } else {
                    "a turn is written like Qd1-d5@d7 (move, then statue square)"
                },
            )
        };
        let mut chars = text.char_indices().peekable();
        let mut letter = None;
        let mut squares = Vec::new();
        while let Some((i, c)) = chars.next() {
            if matches!(c, '-' | '@' | ',' | ' ' | 'x' | '/') {
                continue;
            }
            if c.is_ascii_alphabetic() {
                let digits: String = text[i + 1..].chars().take_while(|d| d.is_ascii_digit()).collect();
                if digits.is_empty() {
                    if letter.is_some() || !squares.is_empty() {
                        return Err(unreadable());
                    }
                    letter = Some(c.to_ascii_uppercase());
                    continue;
                }
                let square = self
                    .board
                    .size()
                    .parse_square(&text[i..i + 1 + digits.len()])
                    .ok_or_else(unreadable)?;
                squares.push(square);
                for _ in 0..digits.len() {
                    chars.next();
                }
                continue;
            }
            return Err(unreadable());
        }
        match (self.is_setup(), squares.as_slice()) {
            (true, [to]) => {
                let letter = letter.ok_or_else(unreadable)?;
                let kind = Symbol::from_char(letter)
                    .and_then(|s| self.variant.kind_by_symbol(s))
                    .ok_or_else(|| {
                        ActionError::unreadable(text, format!("{letter} is not a Blockade piece: use Q, R or B"))
                    })?;
                Ok(Action::Place {
                    piece: self.piece_id(kind),
                    to: *to,
                })
            }
            (false, [from, to, statue]) => {
                if let Some(letter) = letter {
                    let actual = self.board.piece_at(*from).map(|p| self.symbol(p.kind).first());
                    if actual != Some(letter) {
                        return Err(ActionError::Illegal(format!("there is no {letter} of yours on {from}")));
                    }
                }
                Ok(Action::MoveAndStatue {
                    from: *from,
                    to: *to,
                    statue: *statue,
                })
            }
            _ => Err(unreadable()),
        }
    }

    /// Explains why a readable action is not legal.
    fn explain_illegal(&self, seat: Seat, action: &Action) -> ActionError {
        let color = seat.color();
        let message = match *action {
            Action::Place { ref piece, to } => match self.kind_of(piece) {
                Some(kind) if self.hands[color.index()].contains(&kind) => format!("{to} is not empty"),
                Some(kind) => format!("you have no {} left to place", self.symbol(kind)),
                None => format!("{piece} is not a piece of this game"),
            },
            Action::MoveAndStatue { from, to, statue } => match self.board.piece_at(from) {
                Some(p) if p.color == color => {
                    if !self.piece_destinations(&self.board, from).contains(&to) {
                        format!(
                            "the piece on {from} cannot move to {to}: pieces move along their lines to an empty square, crossing nothing"
                        )
                    } else {
                        format!(
                            "from {to} the piece cannot place a statue on {statue}: statues go on an empty square along the moved piece's lines"
                        )
                    }
                }
                _ => format!("there is no piece of yours on {from}"),
            },
            _ => "only placements and turns are played in this game".into(),
        };
        ActionError::Illegal(message)
    }
}

impl ChessBased for BlockadeGame {
    /// The action's notation.
    type Checked = String;

    fn id(&self) -> &str {
        self.style.id()
    }
    chess_based::fields!(outcome: outcome, record: record, turn: turn);

    fn stage(&self) -> Stage {
        if self.is_setup() { Stage::Setup } else { Stage::Play }
    }
    /// A set-up turn of two placements is one turn.
    fn mid_turn(&self, seat: Seat) -> bool {
        let done = self.placements_done;
        self.is_setup()
            && done > 0
            && SETUP_ORDER[done - 1] == SETUP_ORDER[done]
            && Seat::of_color(SETUP_ORDER[done]) == seat
    }
    fn actions(&self, seat: Seat) -> Vec<(Action, String)> {
        self.bare_actions(seat)
            .into_iter()
            .map(|action| {
                let text = self.write(seat, &action);
                (action, text)
            })
            .collect()
    }
    fn bare_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_setup() {
            return self.placements(seat);
        }
        self.turns()
            .into_iter()
            .map(|t| Action::MoveAndStatue {
                from: t.from,
                to: t.to,
                statue: t.statue,
            })
            .collect()
    }
    fn write(&self, _seat: Seat, action: &Action) -> String {
        match action {
            Action::Place { piece, to } => match self.kind_of(piece) {
                Some(kind) => format!("{}@{to}", self.symbol(kind)),
                None => format!("{piece}@{to}"),
            },
            Action::MoveAndStatue { from, to, statue } => {
                let symbol = self
                    .board
                    .piece_at(*from)
                    .map_or_else(|| "?".to_string(), |p| self.symbol(p.kind).to_string());
                format!("{symbol}{from}-{to}@{statue}")
            }
            other => format!("{other:?}"),
        }
    }
    fn read(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let action = self.read_text(text)?;
        if self.legal_actions(seat).contains(&action) {
            Ok(action)
        } else {
            Err(self.explain_illegal(seat, &action))
        }
    }
    fn check(&self, seat: Seat, action: &Action) -> Result<String, ActionError> {
        let is_legal = match action {
            Action::Place { piece, to } => {
                self.is_setup()
                    && self
                        .kind_of(piece)
                        .is_some_and(|kind| self.hands[seat.index()].contains(&kind))
                    && self.board.size().contains(*to)
                    && self.board.get(*to).is_empty()
            }
            Action::MoveAndStatue { from, to, statue } => {
                !self.is_setup()
                    && self.turns().contains(&Turn {
                        from: *from,
                        to: *to,
                        statue: *statue,
                    })
            }
            _ => false,
        };
        if !is_legal {
            return Err(self.explain_illegal(seat, action));
        }
        Ok(self.write(seat, action))
    }
    fn act(&mut self, seat: Seat, action: &Action, text: String) -> Option<Outcome> {
        self.record.push(seat, text);
        self.apply_unchecked(action);
        None
    }
    fn evaluate(&self) -> Option<Outcome> {
        (!self.is_setup() && !self.has_complete_turn())
            .then(|| Outcome::win(Seat::of_color(self.turn.other()), EndReason::NoCompleteTurn))
    }
    /// Nothing in Blockade's record is secret.
    fn reveals_secrets(&self) -> bool {
        true
    }
    fn show(&self, viewer: Viewer) -> View {
        let names = self.style.seat_names();
        let marks = self
            .last_statue
            .map(|(square, placer)| Mark {
                square,
                kind: MarkKind::Tint(Tone::Side(placer)),
                meaning: String::new(),
            })
            .into_iter()
            .collect();
        let board = board_view(&self.board, marks, self.last_move, None, self.fen());
        // The record, notes, prompt and notice are the hooks' (see `ChessBased::show`).
        View {
            seat_names: names.map(String::from),
            sides: self.style.sides(),
            hands: self
                .hands
                .clone()
                .map(|hand| hand.into_iter().map(|kind| kind as usize).collect()),
            ..View::new(
                self.style.id().into(),
                viewer,
                piece_views(&self.variant),
                vec![board],
                self.phase(),
                self.to_act(),
                self.outcome.clone(),
            )
        }
    }
}
