//! The game model end to end with games written only in this file, as a new game would be: a
//! variant as data plus rules hooks (royalty per colour, symbols longer than a letter, a hooked
//! extra move and attack), and a game of two boards whose seats play White on one and Black on
//! the other. Each goes through FEN, notation, perft, a view and a PNG.

use arbiter::render::{Decor, Renderer, Scene};
use arbiter_engine::chess_move::Move;
use arbiter_engine::game::check_turn;
use arbiter_engine::geometry::Square;
use arbiter_engine::piece::{Color, Piece};
use arbiter_engine::position::Position;
use arbiter_engine::record::Record;
use arbiter_engine::rules::{Rules, Standard};
use arbiter_engine::variant_file::Variant;
use arbiter_engine::variants::chess::{ChessCore, ChessGame};
use arbiter_engine::view::View;
use arbiter_engine::{Action, ActionError, Game, Outcome, Phase, Seat, ViewCell, Viewer, movegen};
use std::sync::Arc;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// A PNG decoded to its size.
fn png_size(png_bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    (info.width, info.height)
}

// ---------------------------------------------------------------------------------------------
// A variant as data plus hooks

/// White's royal is a Royal knight (`RN`); Black's king is an ordinary piece that may be captured
/// and may stand attacked. Camels (`CA`) leap (1,3) by their Betza movement.
const ROYAL_KNIGHTS: &str = r#"
id = "royal-knights"
name = "Royal knights"
start = "k6(ca)/8/8/8/8/8/8/(RN)7 w - - 0 1"
pieces = [
    { id = "royal-knight", name = "Royal knight", symbol = "RN", betza = "N", royal = "white" },
    { id = "camel", name = "Camel", symbol = "CA", betza = "C" },
    { catalogue = "king", royal = false },
]
"#;

/// The hook: a camel also steps one square orthogonally, moving or capturing, and so attacks the
/// four squares around it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CamelSteps;

impl CamelSteps {
    fn is_camel(variant: &Variant, piece: Piece) -> bool {
        variant.piece(piece.kind).def.id == "camel"
    }
}

impl Rules for CamelSteps {
    fn extra_moves(&self, variant: &Variant, position: &Position, from: Square, piece: Piece, out: &mut Vec<Move>) {
        if !Self::is_camel(variant, piece) {
            return;
        }
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let Some(to) = variant.size.offset(from, df, dr) else {
                continue;
            };
            let cell = position.board.get(to);
            if cell.is_empty() || cell.as_piece().is_some_and(|p| p.color != piece.color) {
                movegen::push_move(self, variant, position, piece, Move::new(from, to), out);
            }
        }
    }

    fn extra_attack(&self, variant: &Variant, position: &Position, target: Square, by: Color) -> bool {
        [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|&(df, dr)| {
            variant
                .size
                .offset(target, df, dr)
                .and_then(|from| position.board.piece_at(from))
                .is_some_and(|p| p.color == by && Self::is_camel(variant, p))
        })
    }
}

fn royal_knights() -> Arc<Variant> {
    Arc::new(Variant::from_toml(ROYAL_KNIGHTS).expect("the toy variant compiles"))
}

fn toy(fen: Option<&str>) -> ChessGame<CamelSteps> {
    match fen {
        Some(fen) => ChessGame::from_fen(royal_knights(), fen).unwrap_or_else(|e| panic!("{fen}: {e}")),
        None => ChessGame::new(royal_knights()),
    }
}

fn noted(game: &impl Game, seat: Seat) -> Vec<String> {
    let mut texts: Vec<String> = game.noted_actions(seat).into_iter().map(|(_, text)| text).collect();
    texts.sort();
    texts
}

#[test]
fn a_variant_with_long_symbols_reads_and_writes_its_fen() {
    let game = toy(None);
    assert_eq!(game.core.public_fen(), "k6(ca)/8/8/8/8/8/8/(RN)7 w - - 0 1");
    let fen = "k7/8/3(ca)4/8/8/1(RN)6/8/8 b - - 3 7";
    assert_eq!(toy(Some(fen)).core.public_fen(), fen);
    let variant = royal_knights();
    for bad in [
        "k7/8/3(Ca)4/8/8/8/8/(RN)7",
        "k7/8/3(cx)4/8/8/8/8/(RN)7",
        "k7/8/8/8/8/8/8/(RN7",
    ] {
        assert!(variant.position_from_fen(bad).is_err(), "{bad}");
    }
}

#[test]
fn royalty_is_per_colour_the_royal_knight_is_checked_the_black_king_is_not() {
    // White's royal knight stands next to a black camel: check, by the hooked attack only.
    let checked = toy(Some("k7/8/8/8/8/8/8/(RN)(ca)6 w - - 0 1"));
    assert!(checked.core.is_in_check(Color::White));
    assert_eq!(checked.view(Viewer::Spectator).board().check, Some(sq("a1")));
    let plain = ChessGame::<Standard>::from_fen(royal_knights(), "k7/8/8/8/8/8/8/(RN)(ca)6 w - - 0 1").unwrap();
    assert!(
        !plain.core.is_in_check(Color::White),
        "without the hook a camel does not attack a1"
    );
    // The royal knight may not step where the camel's step reaches.
    let fenced = toy(Some("k7/8/8/8/8/8/8/(RN)1(ca)5 w - - 0 1"));
    assert_eq!(noted(&fenced, Seat::First), ["RNb3"], "c2 is next to the camel on c1");

    // Black's king is not royal: it may be captured, and Black may leave it attacked.
    let mut hunt = toy(Some("k7/2(RN)5/8/8/8/8/8/7(ca) w - - 0 1"));
    assert!(
        !hunt.core.is_in_check(Color::Black),
        "a non-royal king is never in check"
    );
    let capture = hunt.parse_action(Seat::First, "RNxa8").unwrap();
    hunt.apply(Seat::First, &capture).unwrap();
    assert!(hunt.outcome().is_none(), "losing a non-royal king ends nothing");
    let black = noted(&hunt, Seat::Second);
    assert!(
        black.contains(&"CAh2".to_string()) && black.contains(&"CAg1".to_string()),
        "{black:?}"
    );
}

#[test]
fn notation_writes_long_symbols_and_reads_them_in_any_case() {
    let game = toy(None);
    assert_eq!(noted(&game, Seat::First), ["RNb3", "RNc2"]);
    for text in ["RNb3", "rnb3", "RNa1b3", "RN-b3", "a1b3"] {
        let action = game
            .parse_action(Seat::First, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.notation(Seat::First, &action), "RNb3", "{text}");
    }
    assert!(matches!(
        game.parse_action(Seat::First, "CAb3"),
        Err(ActionError::Illegal(_))
    ));
    // The hooked step is a move like any other.
    let mut game = toy(None);
    game.apply(Seat::First, &game.parse_action(Seat::First, "RNc2").unwrap())
        .unwrap();
    let black = noted(&game, Seat::Second);
    assert_eq!(black, ["CAe7", "CAg5", "CAg8", "CAh7", "Ka7", "Kb7", "Kb8"]);
}

#[test]
fn perft_counts_the_hooked_moves() {
    // From the start: White's royal knight has b3 and c2; Black answers with the king's three
    // steps and the camel's two leaps and two hooked steps.
    let game = toy(None);
    assert_eq!(game.perft(1), 2);
    assert_eq!(game.perft(2), 2 * 7);
    let plain = ChessGame::<Standard>::new(royal_knights());
    assert_eq!(plain.perft(2), 2 * 5, "without the hook the camel only leaps");
    // Counted by hand one ply further: after RNb3 and RNc2 and each black reply, the royal
    // knight's moves that no black piece attacks (camels attack their leap squares and their
    // four neighbours, the king its neighbours).
    let by_hand: u64 = [("RNb3", "b3"), ("RNc2", "c2")]
        .iter()
        .map(|(text, _)| {
            let mut after = game.clone();
            after
                .apply(Seat::First, &after.parse_action(Seat::First, text).unwrap())
                .unwrap();
            after
                .legal_actions(Seat::Second)
                .iter()
                .map(|reply| {
                    let mut next = after.clone();
                    next.apply(Seat::Second, reply).unwrap();
                    let position = &next.core.position;
                    let from = position.royals[0].unwrap();
                    next.core
                        .variant
                        .size
                        .squares()
                        .filter(|&to| {
                            let (df, dr) = (
                                (to.file() as i32 - from.file() as i32).abs(),
                                (to.rank() as i32 - from.rank() as i32).abs(),
                            );
                            (df, dr) == (1, 2) || (df, dr) == (2, 1)
                        })
                        .filter(|&to| !position.board.get(to).has_color(Color::White))
                        .filter(|&to| {
                            let mut moved = position.clone();
                            let piece = moved.board.get(from);
                            moved.board.set(from, arbiter_engine::piece::Cell::EMPTY);
                            moved.board.set(to, piece);
                            !CamelSteps.is_attacked(&next.core.variant, &moved, to, Color::Black)
                        })
                        .count() as u64
                })
                .sum::<u64>()
        })
        .sum();
    assert_eq!(game.perft(3), by_hand);
}

#[test]
fn the_toy_variant_has_a_view_and_an_image_with_its_pieces_named() {
    let game = toy(Some("k7/8/8/8/8/8/8/(RN)(ca)6 w - - 0 1"));
    let view = game.view(Viewer::Seat(Seat::First));
    let names: Vec<&str> = view.pieces.iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["Royal knight", "Camel", "King"]);
    assert!(view.pieces[0].is_royal, "the royal knight is royal (for White)");
    let ViewCell::Piece { color, piece } = view.board().cell(sq("a1")) else {
        panic!("the royal knight is on a1");
    };
    assert_eq!((color, view.piece(piece).symbol.as_str()), (Color::White, "RN"));
    let scene = Scene::from_view(&view, &Decor::default());
    let legend: Vec<(String, String)> = scene.legend.iter().map(|e| (e.label.clone(), e.name.clone())).collect();
    assert!(legend.contains(&("RN".into(), "Royal knight".into())), "{legend:?}");
    assert!(legend.contains(&("CA".into(), "Camel".into())), "{legend:?}");
    let png = Renderer::new().png(&scene).unwrap();
    let (width, height) = png_size(&png);
    assert!(width >= 400 && height >= 400, "{width}x{height}");
}

// ---------------------------------------------------------------------------------------------
// Two boards, each seat White on one and Black on the other

/// Two chess boards: the first seat plays White on board 1 and Black on board 2, the second seat
/// the reverse. A seat moves on any board where its colour is to move, so both may act at once.
#[derive(Clone, Debug)]
struct TwoBoards {
    boards: [ChessCore; 2],
    record: Record,
    outcome: Option<Outcome>,
}

impl TwoBoards {
    fn new() -> TwoBoards {
        let variant = arbiter_engine::variants::fide();
        let core = || ChessCore::new(variant.clone(), variant.start_position());
        TwoBoards {
            boards: [core(), core()],
            record: Record::default(),
            outcome: None,
        }
    }

    /// The colour `seat` plays on `board`.
    fn color_of(seat: Seat, board: usize) -> Color {
        if board == 0 { seat.color() } else { seat.other().color() }
    }

    /// The boards on which `seat` is to move.
    fn boards_of(&self, seat: Seat) -> Vec<usize> {
        (0..2)
            .filter(|&b| self.boards[b].position.turn == Self::color_of(seat, b))
            .collect()
    }

    fn board_action(&self, board: usize, mv: Move) -> Action {
        with_board(&self.boards[board].action_of(mv), board as u8)
    }

    /// The board an action is played on and the move it names there, if it is legal.
    fn move_of(&self, action: &Action) -> Option<(usize, Move)> {
        let Action::Move { board, .. } = action else {
            return None;
        };
        let b = *board as usize;
        let core = self.boards.get(b)?;
        core.move_of(&with_board(action, 0), &core.legal_moves())
            .map(|mv| (b, mv))
    }
}

/// The same action on another board.
fn with_board(action: &Action, board: u8) -> Action {
    match action.clone() {
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
            board,
        },
        other => other,
    }
}

impl Game for TwoBoards {
    fn variant_id(&self) -> &str {
        "two-boards"
    }
    fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            Phase::Finished
        } else {
            Phase::Play
        }
    }
    fn to_act(&self) -> Vec<Seat> {
        Seat::BOTH
            .into_iter()
            .filter(|&s| !self.boards_of(s).is_empty())
            .collect()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if check_turn(self, seat).is_err() {
            return Vec::new();
        }
        self.boards_of(seat)
            .into_iter()
            .flat_map(|b| {
                let legal = self.boards[b].legal_moves();
                (0..legal.len()).map(move |i| self.board_action(b, legal[i]))
            })
            .collect()
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        check_turn(self, seat)?;
        // `2:e4` names the board; without a prefix the move is read on every board the seat is
        // to move on, and must fit exactly one.
        let (boards, move_text) = match text.split_once(':') {
            Some((number, rest)) => {
                let board = number.trim().parse::<usize>().ok().and_then(|n| n.checked_sub(1));
                (
                    board.into_iter().filter(|b| self.boards_of(seat).contains(b)).collect(),
                    rest,
                )
            }
            None => (self.boards_of(seat), text),
        };
        let mut readings = Vec::new();
        let mut refusal = ActionError::Illegal("it is not your move on that board".into());
        for board in boards {
            match self.boards[board].parse_move(move_text) {
                Ok(mv) => readings.push(self.board_action(board, mv)),
                Err(e) => refusal = e,
            }
        }
        match readings.len() {
            1 => Ok(readings.remove(0)),
            0 => Err(refusal),
            _ => Err(ActionError::Ambiguous {
                text: text.to_string(),
                options: readings.iter().map(|a| self.notation(seat, a)).collect(),
            }),
        }
    }
    fn notation(&self, _seat: Seat, action: &Action) -> String {
        match self.move_of(action) {
            Some((b, mv)) => format!("{}:{}", b + 1, self.boards[b].san_body(mv)),
            None => format!("{action:?}"),
        }
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        check_turn(self, seat)?;
        if !self.legal_actions(seat).contains(action) {
            return Err(ActionError::Illegal("that move is not legal here".into()));
        }
        let text = self.notation(seat, action);
        let (b, mv) = self.move_of(action).expect("checked legal above");
        self.boards[b].play(seat, mv, text.clone());
        self.record.push(seat, text);
        Ok(())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    fn conclude(&mut self, outcome: Outcome) {
        self.outcome.get_or_insert(outcome);
    }
    fn view(&self, viewer: Viewer) -> View {
        let mut view = self.boards[0].base_view(viewer, self.phase(), self.to_act(), self.outcome.as_ref());
        view.seat_names = ["A".into(), "B".into()];
        view.boards = (0..2)
            .map(|b| {
                let mut board = self.boards[b].board_view(viewer, Vec::new());
                board.seats = [Seat::First, Seat::Second].map(|s| if b == 0 { s } else { s.other() });
                board.label = Some(format!(
                    "Board {}: A {}, B {}",
                    b + 1,
                    Self::color_of(Seat::First, b).name(),
                    Self::color_of(Seat::Second, b).name()
                ));
                board
            })
            .collect();
        view.record = self.record.visible(viewer, true);
        view
    }
}

#[test]
fn a_seat_plays_white_on_one_board_and_black_on_the_other() {
    let mut game = TwoBoards::new();
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.boards.len(), 2);
    assert_eq!(view.boards[0].color_of(Seat::First), Color::White);
    assert_eq!(view.boards[1].color_of(Seat::First), Color::Black);
    assert_eq!(view.boards[1].seats, [Seat::Second, Seat::First]);
    // Both seats have a White move to make, each on its own board.
    assert_eq!(game.to_act(), [Seat::First, Seat::Second]);
    let a = game.parse_action(Seat::First, "e4").unwrap();
    assert!(matches!(a, Action::Move { board: 0, .. }));
    assert!(game.parse_action(Seat::First, "2:e4").is_err(), "A is Black on board 2");
    game.apply(Seat::First, &a).unwrap();
    let b = game.parse_action(Seat::Second, "d4").unwrap();
    assert!(matches!(b, Action::Move { board: 1, .. }));
    game.apply(Seat::Second, &b).unwrap();
    // Now A plays Black on board 2, and B Black on board 1.
    let a_black = game.parse_action(Seat::First, "d5").unwrap();
    assert!(matches!(a_black, Action::Move { board: 1, .. }), "{a_black:?}");
    assert_eq!(game.notation(Seat::First, &a_black), "2:d5");
    game.apply(Seat::First, &a_black).unwrap();
    let view = game.view(Viewer::Seat(Seat::First));
    assert_eq!(
        view.boards[0].fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(
        view.boards[1].fen,
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2"
    );
    let record: Vec<(Seat, &str)> = view.record.iter().map(|e| (e.seat, e.text.as_str())).collect();
    assert_eq!(
        record,
        [(Seat::First, "1:e4"), (Seat::Second, "2:d4"), (Seat::First, "2:d5")]
    );
}

#[test]
fn a_view_of_two_boards_is_one_image_with_each_board_from_the_viewers_side() {
    let game = TwoBoards::new();
    let one = toy(None).view(Viewer::Spectator);
    let single = Renderer::new().png(&Scene::from_view(&one, &Decor::default())).unwrap();
    for seat in Seat::BOTH {
        let view = game.view(Viewer::Seat(seat));
        let scene = Scene::from_view(&view, &Decor::default());
        assert_eq!(scene.boards.len(), 2);
        // Each board shows the viewer's own colour at the bottom.
        for (b, board) in scene.boards.iter().enumerate() {
            let own = TwoBoards::color_of(seat, b);
            assert_eq!(board.is_flipped, own == Color::Black, "{seat:?} board {}", b + 1);
            assert_eq!(board.caption.as_deref(), view.boards[b].label.as_deref());
        }
        let png = Renderer::new().png(&scene).unwrap();
        let (width, height) = png_size(&png);
        let (single_width, _) = png_size(&single);
        // Side by side, wider than tall (stacked, two boards made an image more than twice as
        // tall as wide).
        assert!(
            width > single_width,
            "two boards side by side: {width} vs {single_width}"
        );
        assert!(height < width, "two boards side by side: {width}x{height}");
    }
}
