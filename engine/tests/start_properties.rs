//! No game can get stuck, and no royal can ever be taken (issue 47, RULES.md "Start positions
//! that players give"): properties over generated start positions of every game of the registry
//! (`VariantId::ALL`, but the games of players' own pieces, which never start from a position).
//!
//! A generated position is a random board of the game's own pieces (each side's royal missing,
//! single or doubled; pawns mostly where a pawn can stand, and in one board in eight anywhere,
//! their first and last ranks included), or the game's own start with pieces taken away and
//! others scattered; a random side to move, castling rights, en passant square (often one a pawn
//! could have skipped) and counters (some out of range); and the game's own fields: Beirut's
//! `bombs:`, CTF's `bases:` and `flags:`, Blockade's hands and statues (often a set-up the snake
//! order could have made, or a game in play), Assault's two boards. Each is written as a player
//! writes a FEN and given to `AnyGame::from_players_fen`, which accepts or refuses it.
//!
//! Random play by the rules (a seat of `to_act()`, one of its `legal_actions`, both chosen by
//! generated indices) checks every position reached, the start included:
//! - the game is not stuck: it is over (`outcome()`), or every seat in `to_act()` has a legal
//!   action or a deadline that acts for it (`on_timeout` playing an action, as Rejection accepts
//!   an unanswered proposal; a loss on time does not count: a seat that cannot act must not lose
//!   for it). Every seat, not only one: a sealed choice waits for both;
//! - no royal can be taken: no legal move of a seat to act lands on a square where a royal of the
//!   other side stands (royal for its own colour, per the game's variant file: Assault's White
//!   king is not), Portal's move on to a portal's partner counted. This is judged by the legal
//!   moves, which every game exposes alike, rather than by attacks, which only the chess core
//!   computes, and which the check itself uses. A Beirut detonation that destroys the enemy king
//!   is not a capture but the game's way to win, so it is not counted.
//!
//! The properties:
//! 1. a position the check accepts never gets stuck nor lets a royal be taken in a playout of up
//!    to [`LONG_PLAYOUT`] actions;
//! 2. a position that reads (`AnyGame::from_fen`, unchecked) and gets stuck or lets a royal be
//!    taken within [`SHORT_PLAYOUT`] actions is refused by the check.
//!
//! The runs are seeded (the same positions each run; `PROPTEST_RNG_SEED=<n>` picks others, and
//! `PROPTEST_CASES=<n>` plays more or fewer than [`CASES`] per game and property), a
//! failure in one game does not hide another's (all are reported at the end, each with its
//! smallest failing FEN), and each property prints what its positions came to per game:
//! `cargo test -p arbiter-engine --test start_properties -- --nocapture`.

use arbiter_engine::geometry::Square;
use arbiter_engine::piece::{Color, Kind, Promotion, Symbol};
use arbiter_engine::variant_file::Variant;
use arbiter_engine::variants::portal;
use arbiter_engine::{Action, AnyGame, Game, Seat, Timeout, VariantId, View, ViewCell, Viewer};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{RngSeed, TestCaseError, TestError, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Configuration

/// Positions generated per game and property.
const CASES: u32 = 384;
/// Actions a playout of an accepted position may last.
const LONG_PLAYOUT: usize = 200;
/// Actions within which an unchecked position that gets stuck or exposes a royal must be refused.
const SHORT_PLAYOUT: usize = 8;
/// The runs' seed unless `PROPTEST_RNG_SEED` names another: the same positions, the same counts.
const SEED: u64 = 47;

fn config() -> ProptestConfig {
    let from_environment = ProptestConfig::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        from_environment.cases
    } else {
        CASES
    };
    ProptestConfig {
        cases,
        failure_persistence: None,
        max_shrink_iters: 512,
        // Shrinking replays playouts; a bound keeps a failing run within minutes.
        max_shrink_time: 20_000,
        rng_seed: match from_environment.rng_seed {
            RngSeed::Random => RngSeed::Fixed(SEED),
            chosen => chosen,
        },
        ..from_environment
    }
}

/// The games that start from a position: all but those of players' own pieces.
fn games() -> Vec<VariantId> {
    VariantId::ALL
        .iter()
        .copied()
        .filter(|&id| AnyGame::new(id).list_kind().is_none())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// What a game's positions are made of

/// The fields a game's FEN carries beyond the chess ones (docs/fen.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extra {
    None,
    /// Beirut: `bombs:W,B`, each side's carrier; without it the game starts with the choice.
    Bombs,
    /// CTF: `bases:W,B`, without which the game starts with the choice; then `flags:W,B`.
    Bases,
    /// Blockade and Garden: the pieces still in hand, in brackets after the board; no castling,
    /// en passant or counters.
    Hands,
    /// Assault: two boards, `one | two`, with the same side to move.
    TwoBoards,
}

/// A game's pieces and board, as its variant file gives them.
struct Design {
    id: VariantId,
    variant: Arc<Variant>,
    extra: Extra,
}

impl Design {
    fn of(id: VariantId) -> Arc<Design> {
        let variant = id
            .variant_file()
            .unwrap_or_else(|| panic!("{id} starts from a position, so it has a variant file"));
        let extra = match id {
            VariantId::Beirut => Extra::Bombs,
            VariantId::Ctf => Extra::Bases,
            VariantId::Blockade | VariantId::Garden => Extra::Hands,
            VariantId::Assault => Extra::TwoBoards,
            _ => Extra::None,
        };
        Arc::new(Design { id, variant, extra })
    }

    fn files(&self) -> u8 {
        self.variant.size.files
    }

    fn ranks(&self) -> u8 {
        self.variant.size.ranks
    }

    fn kinds(&self) -> Vec<Kind> {
        self.variant.table.iter().map(|(kind, _)| kind).collect()
    }

    /// The kinds an army has one of: its royals, or (where the king is not royal, as in CTF and
    /// for Assault's White) its king all the same, so that a side has one as in a real game.
    fn leaders(&self) -> Vec<Kind> {
        self.kinds()
            .into_iter()
            .filter(|&kind| {
                Color::BOTH.iter().any(|&color| self.variant.is_royal(kind, color))
                    || self.variant.piece(kind).def.id == "king"
            })
            .collect()
    }

    fn others(&self) -> Vec<Kind> {
        let leaders = self.leaders();
        self.kinds()
            .into_iter()
            .filter(|kind| !leaders.contains(kind))
            .collect()
    }

    /// One side's pieces but its leaders, as a game gives them: the start's army (FIDE's queen,
    /// rooks, bishops, knights and pawns: White's, as Assault's Black has no rooks), Blockade's
    /// queen, two rooks and two bishops, or Pick-the-team's pool, each type once.
    fn set(&self) -> Vec<Kind> {
        if self.extra == Extra::Hands {
            return ["Q", "R", "R", "B", "B"]
                .iter()
                .filter_map(|symbol| Symbol::new(symbol).and_then(|s| self.variant.kind_by_symbol(s)))
                .collect();
        }
        let leaders = self.leaders();
        let start: Vec<Kind> = self
            .variant
            .start_position()
            .board
            .pieces()
            .filter(|(_, piece)| piece.color == Color::White && !leaders.contains(&piece.kind))
            .map(|(_, piece)| piece.kind)
            .collect();
        if start.is_empty() { self.others() } else { start }
    }

    /// Whether a `kind` of `color` may stand on `square` at the start: a pawn only between its
    /// first rank and the rank it promotes on.
    fn may_stand(&self, kind: Kind, color: Color, square: Square) -> bool {
        let def = &self.variant.piece(kind).def;
        if !def.is_pawn {
            return true;
        }
        let relative = match color {
            Color::White => square.rank() + 1,
            Color::Black => self.ranks() - square.rank(),
        };
        let promotes_on = match def.promotion {
            Promotion::Never => self.ranks() + 1,
            Promotion::LastRank => self.ranks(),
            Promotion::RelativeRank(rank) => rank,
        };
        relative > 1 && relative < promotes_on
    }

    fn is_pawn(&self, kind: Kind) -> bool {
        self.variant.piece(kind).def.is_pawn
    }

    fn is_royal(&self, kind: Kind, color: Color) -> bool {
        self.variant.is_royal(kind, color)
    }

    fn squares(&self) -> Vec<Square> {
        self.variant.size.squares().collect()
    }

    fn index(&self, square: Square) -> usize {
        usize::from(square.rank()) * usize::from(self.files()) + usize::from(square.file())
    }
}

// ---------------------------------------------------------------------------------------------
// Generated boards

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    Empty,
    /// Blockade's neutral blocker.
    Statue,
    Piece(Kind, Color),
}

/// A board, square by square from a1, rank by rank.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Grid(Vec<Spot>);

impl Grid {
    fn at(&self, design: &Design, square: Square) -> Spot {
        self.0[design.index(square)]
    }

    fn pieces<'a>(&'a self, design: &'a Design) -> impl Iterator<Item = (Square, Kind, Color)> + 'a {
        design
            .squares()
            .into_iter()
            .filter_map(|square| match self.at(design, square) {
                Spot::Piece(kind, color) => Some((square, kind, color)),
                _ => None,
            })
    }

    /// The board field of a FEN: ranks from the top, runs of empty squares as numbers.
    fn placement(&self, design: &Design) -> String {
        let symbols = |spot: Spot| match spot {
            Spot::Empty => None,
            Spot::Statue => Some("*".to_string()),
            Spot::Piece(kind, color) => Some(design.variant.table.symbol(kind).fen(color)),
        };
        let rank_text = |rank: u8| {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..design.files() {
                match symbols(self.at(design, Square::new(file, rank))) {
                    None => empty += 1,
                    Some(symbol) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text += &symbol;
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        };
        (0..design.ranks()).rev().map(rank_text).collect::<Vec<_>>().join("/")
    }
}

/// One side's pieces: its leaders (none, one, or two: "kings missing or doubled"), some of its
/// set, and now and then a piece or two of any kind (a promoted one, or one too many).
fn army(design: &Arc<Design>) -> BoxedStrategy<Vec<Kind>> {
    let leaders = design.leaders();
    let set = design.set();
    let others = design.others();
    let leader_count = prop_oneof![1 => Just(0usize), 18 => Just(1usize), 1 => Just(2usize)];
    let chosen_leaders = if leaders.is_empty() {
        Just(Vec::new()).boxed()
    } else {
        leader_count
            .prop_flat_map(move |count| vec(proptest::sample::select(leaders.clone()), count))
            .boxed()
    };
    // Each piece of the set is kept with a probability drawn per army: armies thin and full.
    let kept = (0..=100u8, vec(0..100u8, set.len())).prop_map(move |(density, draws)| {
        set.iter()
            .zip(draws)
            .filter_map(|(&kind, draw)| (draw < density).then_some(kind))
            .collect::<Vec<Kind>>()
    });
    let extras = if others.is_empty() {
        Just(Vec::new()).boxed()
    } else {
        prop_oneof![
            4 => Just(Vec::new()),
            1 => vec(proptest::sample::select(others), 1..=2),
        ]
        .boxed()
    };
    (chosen_leaders, kept, extras)
        .prop_map(|(mut army, kept, extras)| {
            army.extend(kept);
            army.extend(extras);
            army
        })
        .boxed()
}

/// Puts `spots` on the first free squares of `squares` (a shuffled board) where each may stand,
/// pawns first (they have the fewest squares); a spot with no square left is dropped. Unless
/// `anywhere`, a pawn stands only between its first rank and its promotion rank, so that not
/// every position with pawns is refused for one.
fn place(design: &Design, spots: Vec<Spot>, squares: &[Square], anywhere: bool) -> Grid {
    let mut grid = Grid(vec![Spot::Empty; design.squares().len()]);
    let is_pawn = |spot: &Spot| matches!(spot, Spot::Piece(kind, _) if design.is_pawn(*kind));
    let (pawns, rest): (Vec<Spot>, Vec<Spot>) = spots.into_iter().partition(is_pawn);
    for spot in pawns.into_iter().chain(rest) {
        let fits = |square: Square| match spot {
            Spot::Piece(kind, color) if !anywhere => design.may_stand(kind, color, square),
            _ => true,
        };
        if let Some(&square) = squares
            .iter()
            .find(|&&square| grid.at(design, square) == Spot::Empty && fits(square))
        {
            grid.0[design.index(square)] = spot;
        }
    }
    grid
}

/// Both armies on random squares of an empty board (and, in Blockade, statues).
fn scattered(design: &Arc<Design>) -> BoxedStrategy<Grid> {
    let statues = if design.extra == Extra::Hands {
        // Now and then a board too crowded to finish the set-up or to move on.
        prop_oneof![3 => 0..=24usize, 1 => 25..=60usize].boxed()
    } else {
        Just(0usize).boxed()
    };
    let anywhere = prop_oneof![7 => Just(false), 1 => Just(true)];
    let design = design.clone();
    (
        army(&design),
        army(&design),
        statues,
        Just(design.squares()).prop_shuffle(),
        anywhere,
    )
        .prop_map(move |(white, black, statues, squares, anywhere)| {
            let mut spots: Vec<Spot> = white.iter().map(|&kind| Spot::Piece(kind, Color::White)).collect();
            spots.extend(black.iter().map(|&kind| Spot::Piece(kind, Color::Black)));
            spots.extend(std::iter::repeat_n(Spot::Statue, statues));
            place(&design, spots, &squares, anywhere)
        })
        .boxed()
}

/// Who places in each of Blockade's ten set-up placements (RULES.md: White 1, Black 2, White 2,
/// Black 2, White 2, Black 1).
const SNAKE_ORDER: [Color; 10] = [
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

/// A Blockade game in play: both sets on the board among statues.
fn blockade_in_play(design: &Arc<Design>) -> BoxedStrategy<Grid> {
    let design = design.clone();
    (0..=40usize, Just(design.squares()).prop_shuffle())
        .prop_map(move |(statues, squares)| {
            let mut spots: Vec<Spot> = Color::BOTH
                .iter()
                .flat_map(|&color| design.set().into_iter().map(move |kind| Spot::Piece(kind, color)))
                .collect();
            spots.extend(std::iter::repeat_n(Spot::Statue, statues));
            place(&design, spots, &squares, true)
        })
        .boxed()
}

/// A Blockade set-up after some placements of the snake order: each side's placed pieces (any of
/// its set) on the board, and how many placements were made.
fn blockade_setup(design: &Arc<Design>) -> BoxedStrategy<(Grid, usize)> {
    let design = design.clone();
    let set = design.set();
    (
        0..=SNAKE_ORDER.len(),
        Just(set.clone()).prop_shuffle(),
        Just(set).prop_shuffle(),
        Just(design.squares()).prop_shuffle(),
    )
        .prop_map(move |(placed, white_set, black_set, squares)| {
            let count = |color: Color| SNAKE_ORDER[..placed].iter().filter(|&&c| c == color).count();
            let mut spots: Vec<Spot> = white_set[..count(Color::White)]
                .iter()
                .map(|&kind| Spot::Piece(kind, Color::White))
                .collect();
            spots.extend(
                black_set[..count(Color::Black)]
                    .iter()
                    .map(|&kind| Spot::Piece(kind, Color::Black)),
            );
            (place(&design, spots, &squares, true), placed)
        })
        .boxed()
}

/// The game's own start with some pieces taken away and a few others scattered on free squares:
/// positions with castling rights that hold and pawns that may just have moved.
fn thinned_start(design: &Arc<Design>) -> BoxedStrategy<Grid> {
    let start = design.variant.start_position();
    let mut grid = Grid(vec![Spot::Empty; design.squares().len()]);
    for (square, piece) in start.board.pieces() {
        grid.0[design.index(square)] = Spot::Piece(piece.kind, piece.color);
    }
    let occupied = grid.pieces(design).count();
    // (Leaders are not added: a doubled king is the scattered boards' business.)
    let kinds = design.others();
    let design = design.clone();
    // A leader is kept nearly always, another piece three times in four.
    let kept = (
        vec(prop_oneof![19 => Just(true), 1 => Just(false)], occupied),
        vec(prop_oneof![3 => Just(true), 1 => Just(false)], occupied),
    );
    (
        kept,
        vec((proptest::sample::select(kinds), any::<bool>()), 0..=4),
        Just(design.squares()).prop_shuffle(),
    )
        .prop_map(move |((leaders_kept, others_kept), added, squares)| {
            let mut grid = grid.clone();
            let leaders = design.leaders();
            let occupied: Vec<(Square, Kind)> = grid.pieces(&design).map(|(square, kind, _)| (square, kind)).collect();
            for (((square, kind), leader_kept), other_kept) in occupied.into_iter().zip(leaders_kept).zip(others_kept) {
                let keep = if leaders.contains(&kind) {
                    leader_kept
                } else {
                    other_kept
                };
                if !keep {
                    grid.0[design.index(square)] = Spot::Empty;
                }
            }
            let free = squares
                .into_iter()
                .filter(|&square| grid.at(&design, square) == Spot::Empty);
            for ((kind, is_white), square) in added.into_iter().zip(free.collect::<Vec<_>>()) {
                let color = if is_white { Color::White } else { Color::Black };
                grid.0[design.index(square)] = Spot::Piece(kind, color);
            }
            grid
        })
        .boxed()
}

fn grid(design: &Arc<Design>) -> BoxedStrategy<Grid> {
    if design.variant.start_position().board.pieces().next().is_none() {
        // (An empty start, as Pick-the-team's and Blockade's, thins to nothing.)
        return scattered(design);
    }
    prop_oneof![scattered(design), thinned_start(design)].boxed()
}

// ---------------------------------------------------------------------------------------------
// Generated fields

/// The en passant field: none, the square behind a pawn that may just have made a double step,
/// or any square.
#[derive(Clone, Copy, Debug)]
enum EnPassant {
    None,
    Plausible(Index),
    Any(Square),
}

/// One side's choice in a `bombs:` or `bases:` field.
#[derive(Clone, Copy, Debug)]
enum Pick {
    /// Beirut: one of the side's units other than its royal. CTF: a square of the side's half.
    Fitting(Index),
    /// `-`: a carrier already gone (Beirut).
    Gone,
    /// Any square of the board.
    Any(Square),
}

/// Where one flag is in CTF's `flags:` field.
#[derive(Clone, Copy, Debug)]
enum FlagPick {
    /// `-`: at its base.
    AtBase,
    /// On a piece of the other side, which carries it.
    Carried(Index),
    /// Any square: lying there, or carried by an enemy piece standing there.
    Any(Square),
}

/// Blockade's hands.
#[derive(Clone, Debug)]
enum Hands {
    /// Empty: the game is in play.
    Empty,
    /// What each side's set (a queen, two rooks, two bishops) lacks on the board.
    Rest,
    /// The same, in a set-up where the snake order placed what is on the board: the side field
    /// names who places next, as the snake order does.
    Snake { placed: usize },
    /// Any pieces.
    Random(Vec<(Kind, bool)>),
}

/// A generated position of one game, before it is written as a FEN.
#[derive(Clone, Debug)]
struct Sketch {
    boards: Vec<Grid>,
    white_to_move: bool,
    /// Assault: the second board's side to move differs (a FEN that must not read).
    turns_differ: bool,
    castling: String,
    en_passant: EnPassant,
    halfmoves: u32,
    moves: u32,
    picks: Option<(Pick, Pick)>,
    /// CTF: where each flag is (`flags:W,B`, after the bases).
    flags: Option<(FlagPick, FlagPick)>,
    hands: Hands,
}

fn square(design: &Design) -> impl Strategy<Value = Square> + use<> {
    (0..design.files(), 0..design.ranks()).prop_map(|(file, rank)| Square::new(file, rank))
}

fn castling() -> impl Strategy<Value = String> {
    vec(any::<bool>(), 4).prop_map(|rights| {
        let letters: String = "KQkq"
            .chars()
            .zip(rights)
            .filter_map(|(letter, on)| on.then_some(letter))
            .collect();
        if letters.is_empty() { "-".to_string() } else { letters }
    })
}

fn en_passant(design: &Design) -> impl Strategy<Value = EnPassant> + use<> {
    prop_oneof![
        5 => Just(EnPassant::None),
        4 => any::<Index>().prop_map(EnPassant::Plausible),
        1 => square(design).prop_map(EnPassant::Any),
    ]
}

/// Counters mostly as games have them, sometimes out of any game's range.
fn counters() -> impl Strategy<Value = (u32, u32)> {
    let halfmoves = prop_oneof![8 => 0..=20u32, 2 => 0..=100u32, 1 => 95..=140u32];
    let moves = prop_oneof![8 => 1..=40u32, 1 => 1..=12_000u32, 1 => Just(0u32)];
    (halfmoves, moves)
}

fn pick(design: &Design) -> BoxedStrategy<Pick> {
    let fitting = any::<Index>().prop_map(Pick::Fitting);
    let any_square = square(design).prop_map(Pick::Any);
    if design.extra == Extra::Bombs {
        prop_oneof![6 => fitting, 1 => Just(Pick::Gone), 1 => any_square].boxed()
    } else {
        // (A base is never gone: `-` is for a Beirut carrier.)
        prop_oneof![6 => fitting, 1 => any_square].boxed()
    }
}

fn picks(design: &Design) -> BoxedStrategy<Option<(Pick, Pick)>> {
    match design.extra {
        Extra::Bombs | Extra::Bases => prop_oneof![
            1 => Just(None),
            2 => (pick(design), pick(design)).prop_map(Some),
        ]
        .boxed(),
        _ => Just(None).boxed(),
    }
}

fn flags(design: &Design) -> BoxedStrategy<Option<(FlagPick, FlagPick)>> {
    if design.extra != Extra::Bases {
        return Just(None).boxed();
    }
    let flag = prop_oneof![
        2 => Just(FlagPick::AtBase),
        2 => any::<Index>().prop_map(FlagPick::Carried),
        1 => square(design).prop_map(FlagPick::Any),
    ];
    prop_oneof![2 => Just(None), 1 => (flag.clone(), flag).prop_map(Some)].boxed()
}

fn hands(design: &Design) -> BoxedStrategy<Hands> {
    if design.extra != Extra::Hands {
        return Just(Hands::Empty).boxed();
    }
    let kinds = design.kinds();
    prop_oneof![
        3 => Just(Hands::Empty),
        2 => Just(Hands::Rest),
        1 => vec((proptest::sample::select(kinds), any::<bool>()), 0..=10).prop_map(Hands::Random),
    ]
    .boxed()
}

/// The boards of a sketch with Blockade's hands: one board, or Assault's two (or one FEN for
/// both); Blockade's in play, in a set-up the snake order could have made, or anyhow.
fn boards_and_hands(design: &Arc<Design>) -> BoxedStrategy<(Vec<Grid>, Hands)> {
    match design.extra {
        Extra::TwoBoards => prop_oneof![
            3 => (grid(design), grid(design)).prop_map(|(one, two)| (vec![one, two], Hands::Empty)),
            1 => grid(design).prop_map(|one| (vec![one], Hands::Empty)),
        ]
        .boxed(),
        Extra::Hands => prop_oneof![
            2 => blockade_in_play(design).prop_map(|grid| (vec![grid], Hands::Empty)),
            2 => blockade_setup(design).prop_map(|(grid, placed)| (vec![grid], Hands::Snake { placed })),
            1 => (grid(design), hands(design)).prop_map(|(grid, hands)| (vec![grid], hands)),
        ]
        .boxed(),
        _ => grid(design).prop_map(|one| (vec![one], Hands::Empty)).boxed(),
    }
}

fn sketch(design: &Arc<Design>) -> BoxedStrategy<Sketch> {
    let turns = (any::<bool>(), prop_oneof![19 => Just(false), 1 => Just(true)]);
    (
        boards_and_hands(design),
        turns,
        castling(),
        en_passant(design),
        counters(),
        picks(design),
        flags(design),
    )
        .prop_map(
            |(
                (boards, hands),
                (white_to_move, turns_differ),
                castling,
                en_passant,
                (halfmoves, moves),
                picks,
                flags,
            )| {
                Sketch {
                    boards,
                    white_to_move,
                    turns_differ,
                    castling,
                    en_passant,
                    halfmoves,
                    moves,
                    picks,
                    flags,
                    hands,
                }
            },
        )
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// Writing a sketch as a player's FEN

fn side_field(white_to_move: bool) -> &'static str {
    if white_to_move { "w" } else { "b" }
}

/// The square a pawn of the side that just moved skipped, when one stands where a double step
/// would have left it; `-` when none does.
fn plausible_en_passant(design: &Design, grid: &Grid, mover: Color, index: Index) -> String {
    let (landing_rank, behind): (u8, i8) = match mover {
        Color::White => (3, -1),
        Color::Black => (design.ranks().saturating_sub(4), 1),
    };
    let candidates: Vec<Square> = grid
        .pieces(design)
        .filter(|&(square, kind, color)| color == mover && design.is_pawn(kind) && square.rank() == landing_rank)
        .filter_map(|(square, _, _)| design.variant.size.offset(square, 0, behind))
        .collect();
    if candidates.is_empty() {
        return "-".to_string();
    }
    candidates[index.index(candidates.len())].to_string()
}

fn en_passant_field(design: &Design, sketch: &Sketch, grid: &Grid) -> String {
    let mover = if sketch.white_to_move {
        Color::Black
    } else {
        Color::White
    };
    match sketch.en_passant {
        EnPassant::None => "-".to_string(),
        EnPassant::Plausible(index) => plausible_en_passant(design, grid, mover, index),
        EnPassant::Any(square) => square.to_string(),
    }
}

/// The six fields of a chess FEN for one board.
fn chess_fen(design: &Design, sketch: &Sketch, grid: &Grid, white_to_move: bool) -> String {
    format!(
        "{} {} {} {} {} {}",
        grid.placement(design),
        side_field(white_to_move),
        sketch.castling,
        en_passant_field(design, sketch, grid),
        sketch.halfmoves,
        sketch.moves
    )
}

/// Beirut's carrier for `color`: one of its units other than its royal.
fn carrier(design: &Design, grid: &Grid, color: Color, index: Index) -> String {
    let units: Vec<Square> = grid
        .pieces(design)
        .filter(|&(_, kind, owner)| owner == color && !design.is_royal(kind, color))
        .map(|(square, _, _)| square)
        .collect();
    if units.is_empty() {
        return "-".to_string();
    }
    units[index.index(units.len())].to_string()
}

/// CTF's base for `color`: a square of its half.
fn base(design: &Design, color: Color, index: Index) -> String {
    let half = design.ranks() / 2;
    let own: Vec<Square> = design
        .squares()
        .into_iter()
        .filter(|square| (square.rank() < half) == (color == Color::White))
        .collect();
    own[index.index(own.len())].to_string()
}

fn picks_field(design: &Design, sketch: &Sketch, grid: &Grid) -> Option<String> {
    let (white, black) = sketch.picks?;
    let write = |pick: Pick, color: Color| match (pick, design.extra) {
        (Pick::Fitting(index), Extra::Bombs) => carrier(design, grid, color, index),
        (Pick::Fitting(index), _) => base(design, color, index),
        (Pick::Gone, _) => "-".to_string(),
        (Pick::Any(square), _) => square.to_string(),
    };
    let name = if design.extra == Extra::Bombs { "bombs" } else { "bases" };
    Some(format!(
        "{name}:{},{}",
        write(white, Color::White),
        write(black, Color::Black)
    ))
}

/// CTF's `flags:` field: for each flag `-` (at its base), the square of a piece of the other side
/// (which carries it), or any square.
fn flags_field(design: &Design, sketch: &Sketch, grid: &Grid) -> Option<String> {
    let (white, black) = sketch.flags?;
    let write = |pick: FlagPick, owner: Color| match pick {
        FlagPick::AtBase => "-".to_string(),
        FlagPick::Carried(index) => {
            let carriers: Vec<Square> = grid
                .pieces(design)
                .filter(|&(_, _, color)| color != owner)
                .map(|(square, _, _)| square)
                .collect();
            if carriers.is_empty() {
                "-".to_string()
            } else {
                carriers[index.index(carriers.len())].to_string()
            }
        }
        FlagPick::Any(square) => square.to_string(),
    };
    Some(format!(
        "flags:{},{}",
        write(white, Color::White),
        write(black, Color::Black)
    ))
}

/// The symbols of a hand, upper case for White's.
fn hand_text(design: &Design, pieces: &[(Kind, Color)]) -> String {
    let mut pieces = pieces.to_vec();
    pieces.sort_by_key(|&(kind, color)| (color == Color::Black, kind));
    pieces
        .into_iter()
        .map(|(kind, color)| design.variant.table.symbol(kind).fen(color))
        .collect()
}

/// Each side's set of Blockade (a queen, two rooks, two bishops) less what it has on the board.
fn rest_of_sets(design: &Design, grid: &Grid) -> Vec<(Kind, Color)> {
    let set: Vec<Kind> = ["Q", "R", "R", "B", "B"]
        .iter()
        .filter_map(|symbol| Symbol::new(symbol).and_then(|s| design.variant.kind_by_symbol(s)))
        .collect();
    let mut rest = Vec::new();
    for color in Color::BOTH {
        let mut hand = set.clone();
        for (_, kind, _) in grid.pieces(design).filter(|&(_, _, owner)| owner == color) {
            if let Some(i) = hand.iter().position(|&k| k == kind) {
                hand.remove(i);
            }
        }
        rest.extend(hand.into_iter().map(|kind| (kind, color)));
    }
    rest
}

/// Blockade's FEN: the board, the hands in brackets when any, and who places or moves.
fn blockade_fen(design: &Design, sketch: &Sketch, grid: &Grid) -> String {
    let hand: Vec<(Kind, Color)> = match &sketch.hands {
        Hands::Empty => Vec::new(),
        Hands::Rest | Hands::Snake { .. } => rest_of_sets(design, grid),
        Hands::Random(pieces) => pieces
            .iter()
            .map(|&(kind, white)| (kind, if white { Color::White } else { Color::Black }))
            .collect(),
    };
    let hands = if hand.is_empty() {
        String::new()
    } else {
        format!("[{}]", hand_text(design, &hand))
    };
    let white_to_move = match sketch.hands {
        Hands::Snake { placed } if placed < SNAKE_ORDER.len() => SNAKE_ORDER[placed] == Color::White,
        _ => sketch.white_to_move,
    };
    format!("{}{hands} {}", grid.placement(design), side_field(white_to_move))
}

/// The FEN a player would give for this sketch.
fn fen(design: &Design, sketch: &Sketch) -> String {
    let first = &sketch.boards[0];
    match design.extra {
        Extra::Hands => blockade_fen(design, sketch, first),
        Extra::TwoBoards => {
            let mut boards = vec![chess_fen(design, sketch, first, sketch.white_to_move)];
            if let Some(second) = sketch.boards.get(1) {
                let turn = sketch.white_to_move != sketch.turns_differ;
                boards.push(chess_fen(design, sketch, second, turn));
            }
            boards.join(" | ")
        }
        _ => {
            let mut text = chess_fen(design, sketch, first, sketch.white_to_move);
            for field in [picks_field(design, sketch, first), flags_field(design, sketch, first)]
                .into_iter()
                .flatten()
            {
                text = format!("{text} {field}");
            }
            text
        }
    }
}

/// A generated case: the position as a player writes it (and the sketch it was written from),
/// and the choices of its playout.
#[derive(Clone)]
struct Case {
    fen: String,
    sketch: Sketch,
    choices: Vec<(Index, Index)>,
}

/// Proptest prints the FEN: a failure's message says what was played from it.
impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.fen)
    }
}

fn case(design: &Arc<Design>, plies: usize) -> BoxedStrategy<Case> {
    let writer = design.clone();
    (sketch(design), vec(any::<(Index, Index)>(), plies))
        .prop_map(move |(sketch, choices)| Case {
            fen: fen(&writer, &sketch),
            sketch,
            choices,
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// Playouts, and what can go wrong in them

/// What a position reached in play must never be.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Trouble {
    /// Not over, and a seat to act has nothing to do (or no seat is to act).
    Stuck(String),
    /// A seat to act has a legal move that takes the other side's royal.
    RoyalCapturable(String),
    /// A listed legal action is refused.
    Refused(String),
}

impl fmt::Display for Trouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trouble::Stuck(what) => write!(f, "stuck: {what}"),
            Trouble::RoyalCapturable(what) => write!(f, "a royal can be taken: {what}"),
            Trouble::Refused(what) => write!(f, "a legal action is refused: {what}"),
        }
    }
}

/// Whether a deadline acts for `seat` (a loss on time is no action).
fn deadline_action(game: &AnyGame, seat: Seat) -> Option<Action> {
    match game.on_timeout(seat) {
        Timeout::Plays(action) => {
            let mut copy = game.clone();
            copy.apply(seat, &action).ok().map(|()| action)
        }
        Timeout::Ends(_) => None,
    }
}

/// The seats to act with what each may do (its legal actions, or its deadline's), or why the
/// game is stuck: not over, and no seat to act, or a seat to act that can do nothing.
fn options(game: &AnyGame) -> Result<Vec<(Seat, Vec<Action>)>, Trouble> {
    let to_act = game.to_act();
    let position = || game.view(Viewer::Arbiter).fen();
    if to_act.is_empty() {
        return Err(Trouble::Stuck(format!("no seat is to act in {}", position())));
    }
    let mut options = Vec::new();
    for seat in to_act {
        let mut actions = game.legal_actions(seat);
        if actions.is_empty() {
            actions.extend(deadline_action(game, seat));
        }
        if actions.is_empty() {
            return Err(Trouble::Stuck(format!(
                "{seat:?} is to act and has no action in {}",
                position()
            )));
        }
        options.push((seat, actions));
    }
    Ok(options)
}

/// The squares a move to `to` takes on: `to`, and in Portal the portal's partner too.
fn landings(id: VariantId, to: Square) -> Vec<Square> {
    let mut squares = vec![to];
    if id == VariantId::Portal {
        squares.extend(portal::partner(to));
    }
    squares
}

/// The royal of the side other than `mover` that a move landing on `square` of `board` would take.
fn royal_on(design: &Design, view: &View, board: usize, mover: Color, square: Square) -> Option<String> {
    let board = view.boards.get(board)?;
    if square.file() >= board.files || square.rank() >= board.ranks {
        return None;
    }
    let ViewCell::Piece { color, piece } = board.cell(square) else {
        return None;
    };
    let piece = view.pieces.get(piece)?;
    let kind = design.variant.kind_by_id(&piece.id)?;
    (color != mover && design.is_royal(kind, color)).then(|| format!("{}'s {} on {square}", color.name(), piece.name))
}

/// A legal move of a seat to act that takes the other side's royal, if there is one.
fn capturable_royal(design: &Design, game: &AnyGame, options: &[(Seat, Vec<Action>)]) -> Option<Trouble> {
    let view = game.sight(Viewer::Arbiter);
    for (seat, actions) in options {
        for action in actions {
            let Action::Move { from, to, board, .. } = action else {
                continue;
            };
            let Some(board_view) = view.boards.get(usize::from(*board)) else {
                continue;
            };
            let mover = board_view.color_of(*seat);
            for square in landings(design.id, *to) {
                if let Some(royal) = royal_on(design, &view, usize::from(*board), mover, square) {
                    return Some(Trouble::RoyalCapturable(format!(
                        "{seat:?} ({}) may play {} ({from}-{to}, board {board}), taking {royal}, in {}",
                        mover.name(),
                        game.notation(*seat, action),
                        view.fen()
                    )));
                }
            }
        }
    }
    None
}

/// What a playout came to.
#[derive(Debug, Default)]
struct Playout {
    /// The actions played, as their actors wrote them.
    history: Vec<String>,
    is_over: bool,
    trouble: Option<Trouble>,
}

/// Plays from `game` by the rules, one action per choice (a seat to act, then one of its actions),
/// checking every position reached, the start included, until the game ends, something goes
/// wrong, or the choices run out.
fn play_out(design: &Design, mut game: AnyGame, choices: &[(Index, Index)]) -> Playout {
    let mut playout = Playout::default();
    for step in 0..=choices.len() {
        if game.outcome().is_some() {
            playout.is_over = true;
            return playout;
        }
        let options = match options(&game) {
            Ok(options) => options,
            Err(trouble) => {
                playout.trouble = Some(trouble);
                return playout;
            }
        };
        if let Some(trouble) = capturable_royal(design, &game, &options) {
            playout.trouble = Some(trouble);
            return playout;
        }
        let Some(&(seat_choice, action_choice)) = choices.get(step) else {
            break;
        };
        let (seat, actions) = &options[seat_choice.index(options.len())];
        let action = &actions[action_choice.index(actions.len())];
        let text = game.notation(*seat, action);
        if let Err(e) = game.apply(*seat, action) {
            playout.trouble = Some(Trouble::Refused(format!("{text} by {seat:?}: {e}")));
            return playout;
        }
        playout.history.push(text);
    }
    playout
}

// ---------------------------------------------------------------------------------------------
// Counting, and running a property over every game

/// What one game's generated positions came to in one property.
#[derive(Clone, Debug, Default)]
struct Tally {
    generated: usize,
    /// Not a position of the game at all (two royals of a side, an unknown field, ...).
    unreadable: usize,
    /// Read, and refused by the game's check.
    refused: usize,
    accepted: usize,
    /// Positions played out (accepted ones in property 1; every readable one in property 2).
    played: usize,
    actions: usize,
    /// Playouts that reached the game's end.
    ended: usize,
    /// Playouts that got stuck or exposed a royal (property 2: all of them must be refused).
    troubled: usize,
    /// How often each reason of a refusal was given (an unreadable position's too), its squares
    /// and numbers left out.
    reasons: BTreeMap<String, usize>,
}

impl Tally {
    fn record_start(&mut self, start: &Result<AnyGame, String>, readable: bool) {
        self.generated += 1;
        match (readable, start) {
            (false, Err(reason)) => {
                self.unreadable += 1;
                *self
                    .reasons
                    .entry(format!("(unreadable) {}", reason_kind(reason)))
                    .or_default() += 1;
            }
            (false, Ok(_)) => self.unreadable += 1,
            (true, Err(reason)) => {
                self.refused += 1;
                *self.reasons.entry(reason_kind(reason)).or_default() += 1;
            }
            (true, Ok(_)) => self.accepted += 1,
        }
    }

    fn record_playout(&mut self, playout: &Playout) {
        self.played += 1;
        self.actions += playout.history.len();
        self.ended += usize::from(playout.is_over);
        self.troubled += usize::from(playout.trouble.is_some());
    }
}

/// A refusal's reason without its squares and numbers, to count reasons alike together.
fn reason_kind(reason: &str) -> String {
    let mut kind = String::new();
    let mut chars = reason.chars().peekable();
    while let Some(c) = chars.next() {
        let starts_square = ('a'..='p').contains(&c)
            && !kind.ends_with(|before: char| before.is_ascii_alphanumeric())
            && chars.peek().is_some_and(char::is_ascii_digit);
        if starts_square || c.is_ascii_digit() {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            kind.push(if starts_square { '@' } else { '#' });
        } else {
            kind.push(c);
        }
    }
    kind
}

fn print_table(title: &str, tallies: &[(VariantId, Tally)]) {
    eprintln!("{title}");
    eprintln!(
        "{:<16} {:>9} {:>10} {:>7} {:>8} {:>6} {:>7} {:>5} {:>8}",
        "game", "generated", "unreadable", "refused", "accepted", "played", "actions", "ended", "troubled"
    );
    for (id, t) in tallies {
        eprintln!(
            "{:<16} {:>9} {:>10} {:>7} {:>8} {:>6} {:>7} {:>5} {:>8}",
            id.as_str(),
            t.generated,
            t.unreadable,
            t.refused,
            t.accepted,
            t.played,
            t.actions,
            t.ended,
            t.troubled
        );
    }
    if std::env::var_os("START_PROPERTY_REASONS").is_some() {
        for (id, t) in tallies {
            eprintln!("{id}: reasons of refusal");
            for (reason, count) in &t.reasons {
                eprintln!("{count:>6}  {reason}");
            }
        }
    }
}

/// The game a player's FEN starts, or the refusal's words.
fn players_start(id: VariantId, fen: &str) -> Result<AnyGame, String> {
    AnyGame::from_players_fen(id, fen)
        .map(|start| start.game)
        .map_err(|e| e.to_string())
}

/// Runs `property` on [`CASES`] generated cases of every game, counting into a tally per game,
/// prints the table, and then fails naming every game that failed, each with its smallest case.
fn for_every_game(
    title: &str,
    plies: usize,
    property: impl Fn(&Design, &Case, &mut Tally) -> Result<(), TestCaseError>,
) {
    let mut tallies = Vec::new();
    let mut failures = Vec::new();
    for id in games() {
        let design = Design::of(id);
        let tally = RefCell::new(Tally::default());
        let mut runner = TestRunner::new(config());
        let result = runner.run(&case(&design, plies), |case| {
            property(&design, &case, &mut tally.borrow_mut())
        });
        match result {
            Ok(()) => {}
            Err(TestError::Fail(reason, case)) => {
                let simplest = simplified(&design, &case, &property);
                let why = match property(&design, &simplest, &mut Tally::default()) {
                    Err(TestCaseError::Fail(why)) => why.message().to_string(),
                    _ => String::new(),
                };
                failures.push(format!(
                    "{id}: {}\n  smallest position found failing: {:?}: {why}",
                    reason.message(),
                    simplest.fen,
                ));
            }
            Err(abort) => failures.push(format!("{id}: {abort}")),
        }
        tallies.push((id, tally.into_inner()));
    }
    print_table(title, &tallies);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for (id, tally) in &tallies {
        // The generator is for nothing if a game's positions are all refused or all accepted.
        assert!(
            tally.accepted > 0 && tally.refused > 0,
            "{id}: the generated positions are one-sided: {tally:?}"
        );
    }
}

/// A case with fewer pieces that still fails `property`: proptest shrinks boards poorly (their
/// squares come from a shuffle), so each piece is taken away in turn, and the removal kept while
/// the property still fails, until no single removal does.
fn simplified(
    design: &Design,
    case: &Case,
    property: &impl Fn(&Design, &Case, &mut Tally) -> Result<(), TestCaseError>,
) -> Case {
    let fails = |case: &Case| property(design, case, &mut Tally::default()).is_err();
    let mut best = case.clone();
    let mut is_shrinking = true;
    while is_shrinking {
        is_shrinking = false;
        for board in 0..best.sketch.boards.len() {
            for square in design.squares() {
                if best.sketch.boards[board].at(design, square) == Spot::Empty {
                    continue;
                }
                let mut candidate = best.clone();
                candidate.sketch.boards[board].0[design.index(square)] = Spot::Empty;
                candidate.fen = fen(design, &candidate.sketch);
                if fails(&candidate) {
                    best = candidate;
                    is_shrinking = true;
                }
            }
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// The properties

/// What was played before the trouble, for a failure's message.
fn played(playout: &Playout) -> String {
    if playout.history.is_empty() {
        "at the start".to_string()
    } else {
        format!("after {}", playout.history.join(" "))
    }
}

/// 1. Every accepted start plays on by the rules: never stuck, never a royal to take.
fn accepted_start_plays_on(design: &Design, case: &Case, tally: &mut Tally) -> Result<(), TestCaseError> {
    let readable = AnyGame::from_fen(design.id, &case.fen).is_ok();
    let start = players_start(design.id, &case.fen);
    tally.record_start(&start, readable);
    let Ok(game) = start else {
        return Ok(());
    };
    let playout = play_out(design, game, &case.choices);
    tally.record_playout(&playout);
    if let Some(trouble) = &playout.trouble {
        return Err(TestCaseError::fail(format!(
            "accepted {:?}, then {trouble} ({})",
            case.fen,
            played(&playout)
        )));
    }
    Ok(())
}

/// 2. A position that gets stuck or lets a royal be taken within a few actions is refused.
fn troubled_start_is_refused(design: &Design, case: &Case, tally: &mut Tally) -> Result<(), TestCaseError> {
    let unchecked = AnyGame::from_fen(design.id, &case.fen);
    let start = players_start(design.id, &case.fen);
    tally.record_start(&start, unchecked.is_ok());
    let Ok(game) = unchecked else {
        prop_assert!(start.is_err(), "{:?} does not read, but starts a game", case.fen);
        return Ok(());
    };
    let playout = play_out(design, game, &case.choices);
    tally.record_playout(&playout);
    if let (Some(trouble), Ok(_)) = (&playout.trouble, &start) {
        return Err(TestCaseError::fail(format!(
            "{:?} is accepted, but {trouble} ({})",
            case.fen,
            played(&playout)
        )));
    }
    Ok(())
}

#[test]
fn accepted_starts_never_get_stuck_nor_let_a_royal_be_taken() {
    for_every_game(
        "Property 1: accepted starts, played out",
        LONG_PLAYOUT,
        accepted_start_plays_on,
    );
}

#[test]
fn starts_that_get_stuck_or_let_a_royal_be_taken_are_refused() {
    for_every_game(
        "Property 2: every readable start, a few actions played",
        SHORT_PLAYOUT,
        troubled_start_is_refused,
    );
}

// ---------------------------------------------------------------------------------------------
// The playout's own checks, on positions whose trouble is known (the reproductions among
// them), and the check refusing them: what property 2 asserts of every generated position

/// The trouble a playout of no actions finds at the start `fen` of `id`, once it has checked
/// that a player's FEN of it is refused.
fn trouble_at_start(id: VariantId, fen: &str) -> Option<Trouble> {
    let design = Design::of(id);
    let game = AnyGame::from_fen(id, fen).expect("the position reads");
    assert!(players_start(id, fen).is_err(), "{id}: {fen} starts a game");
    play_out(&design, game, &[]).trouble
}

#[test]
fn a_king_in_check_with_the_other_side_to_move_is_found_capturable() {
    let trouble = trouble_at_start(VariantId::Chess, "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1");
    assert!(
        matches!(&trouble, Some(Trouble::RoyalCapturable(what)) if what.contains("e8")),
        "{trouble:?}"
    );
}

#[test]
fn a_king_taken_through_a_portal_is_found_capturable() {
    // White's knight on d2 reaches f3, and goes on to b5, where Black's king stands (the rook
    // keeps the position from being a dead draw).
    let trouble = trouble_at_start(VariantId::Portal, "8/8/8/1k6/8/8/3N4/R3K3 w - - 0 1");
    assert!(
        matches!(&trouble, Some(Trouble::RoyalCapturable(what)) if what.contains("b5")),
        "{trouble:?}"
    );
}

#[test]
fn a_beirut_side_without_a_carrier_to_choose_is_found_stuck() {
    let trouble = trouble_at_start(VariantId::Beirut, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(trouble, Some(Trouble::Stuck(_))), "{trouble:?}");
}

#[test]
fn a_blockade_set_up_without_a_free_square_is_found_stuck() {
    // Six placements made, as the snake order makes them; Black places next, on no square.
    let fen = "****RBQ*/****rbq*/********/********/********/********/********/********[RBrb] b";
    let trouble = trouble_at_start(VariantId::Blockade, fen);
    assert!(matches!(trouble, Some(Trouble::Stuck(_))), "{trouble:?}");
}

#[test]
fn assault_s_white_king_is_no_royal_to_take() {
    // Black's queen may take White's king on e1, which is not royal: nothing to report.
    let design = Design::of(VariantId::Assault);
    let game = AnyGame::from_fen(VariantId::Assault, "4k3/8/8/8/8/8/8/Q3K2q b - - 0 1").expect("reads");
    let e1 = Square::parse("e1").expect("a square");
    let takes_the_king = game
        .to_act()
        .into_iter()
        .flat_map(|seat| game.legal_actions(seat))
        .any(|action| matches!(action, Action::Move { to, .. } if to == e1));
    assert!(takes_the_king, "Black may take White's king");
    let playout = play_out(&design, game, &[]);
    assert_eq!(playout.trouble, None, "{playout:?}");
}

#[test]
fn a_game_over_at_once_is_no_trouble_but_is_refused() {
    // The empty board: drawn by stalemate as it is read, so nothing would be left to play.
    let fen = "8/8/8/8/8/8/8/8 w - - 0 1";
    let design = Design::of(VariantId::Chess);
    let game = AnyGame::from_fen(VariantId::Chess, fen).expect("reads");
    let playout = play_out(&design, game, &[]);
    assert!(playout.is_over && playout.trouble.is_none(), "{playout:?}");
    assert!(players_start(VariantId::Chess, fen).is_err());
}

/// Every game's own start, written as a position (what its records and images show), is a
/// start its check accepts. Pick-the-team's start is its picking, which no position describes (a
/// FEN of it is a game in play, the picking done): it is left out, as are the games of players'
/// own lists, which never start from a position.
#[test]
fn every_games_own_start_is_accepted() {
    for &id in VariantId::ALL.iter() {
        if id.variant_file().is_none() || id == VariantId::PickTheTeam {
            continue;
        }
        // A game of two boards shows one FEN a line, and reads them separated by `|`.
        let start = AnyGame::new(id).view(Viewer::Spectator).fen().replace('\n', " | ");
        if let Err(why) = AnyGame::from_players_fen(id, &start) {
            panic!("{id}'s own start {start} is refused: {why}");
        }
    }
}
