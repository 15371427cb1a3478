//! Analysis of finished games: in every game, a decisive blunder whose better action is known is
//! flagged as a blunder with that action, the moves around it are not, and what the end of the
//! game still hides from the viewer is never used.

use arbiter_engine::ai::analysis::{self, Analysis, Judgement, Review};
use arbiter_engine::ai::{Budget, Start};
use arbiter_engine::piece::Color;
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use arbiter_engine::{Action, AnyGame, Game, Phase, Seat, VariantId, ViewCell, Viewer};
use std::time::Duration;

/// A budget that only nodes limit, so the tests judge alike on any machine.
fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: Duration::from_secs(600),
    }
}

/// The game of `id` from `fen` (or its start) after `actions`, each by the seat to act (the
/// first of them, where both may).
fn played(id: VariantId, fen: Option<&str>, actions: &[&str]) -> AnyGame {
    let mut game = match fen {
        Some(fen) => AnyGame::from_fen(id, fen).expect("the position reads"),
        None => AnyGame::new(id),
    };
    for text in actions {
        let seat = game.to_act()[0];
        act(&mut game, seat, text);
    }
    game
}

/// Reads and applies one action of `seat`.
fn act(game: &mut AnyGame, seat: Seat, text: &str) {
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text} does not read: {e}"));
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("{text} is not legal: {e}"));
}

/// The game of `id` from `fen` after `actions`, each by the seat named: where both seats act at
/// once (Assault's sealed half-turns), the order of a step's actions is the test's to choose.
fn played_by(id: VariantId, fen: &str, actions: &[(Seat, &str)]) -> AnyGame {
    let mut game = AnyGame::from_fen(id, fen).expect("the position reads");
    for (seat, text) in actions {
        act(&mut game, *seat, text);
    }
    game
}

/// A game of players' own pieces: both submit the ready-made list (so the pool holds two of each
/// piece), pick `white`'s and `black`'s picks in turn (each side's in its order), then play
/// `moves`. Games of lists have no position to start from, so the picking cannot be skipped.
fn own_lists(id: VariantId, white: &[&str], black: &[&str], moves: &[&str]) -> AnyGame {
    let mut game = AnyGame::new(id);
    let kind = game.list_kind().expect("a game of players' lists");
    for seat in Seat::BOTH {
        let list = Action::SubmitList {
            pieces: OwnPiecesGame::ready_made(kind),
        };
        game.apply(seat, &list).expect("the ready-made list keeps the rules");
    }
    let (mut white, mut black) = (white.iter(), black.iter());
    while game.phase() == Phase::Setup {
        let seat = game.to_act()[0];
        let pick = match seat {
            Seat::First => white.next(),
            Seat::Second => black.next(),
        };
        act(
            &mut game,
            seat,
            pick.unwrap_or_else(|| panic!("{seat:?} has no pick left")),
        );
    }
    for text in moves {
        let seat = game.to_act()[0];
        act(&mut game, seat, text);
    }
    game
}

/// The analysis of `game` as `viewer` sees its end.
fn analysed(id: VariantId, fen: Option<&str>, game: &AnyGame, viewer: Viewer, nodes: u64) -> Analysis {
    let start = Start {
        variant: id,
        fen: fen.map(str::to_string),
    };
    analysis::analyse(&start, &game.view(viewer), budget(nodes), 7).expect("the game replays")
}

/// The review of the record's entry `entry`, which must exist.
fn review(analysis: &Analysis, entry: usize) -> &Review {
    analysis
        .reviews
        .iter()
        .find(|r| r.entry == entry)
        .unwrap_or_else(|| panic!("entry {entry} is not reviewed: {:?}", analysis.reviews))
}

/// The review of entry `entry`, which must be `seat`'s action `played`, judged a blunder with a
/// better action named among `better`; that better action.
fn blunder<'a>(analysis: &'a Analysis, entry: usize, seat: Seat, played: &str, better: &[&str]) -> &'a str {
    let review = review(analysis, entry);
    assert_eq!((review.seat, review.played.as_str()), (seat, played), "{review:?}");
    assert_eq!(review.judgement, Some(Judgement::Blunder), "{review:?}");
    let best = review.best.as_deref().expect("a better action is named");
    assert!(
        better.contains(&best),
        "the better action is one of {better:?}: {review:?}"
    );
    best
}

/// The entries `entries` are reviewed and judged no worse than inaccuracies.
fn fine(analysis: &Analysis, entries: impl IntoIterator<Item = usize>) {
    for entry in entries {
        let review = review(analysis, entry);
        assert!(
            review.judgement <= Some(Judgement::Inaccuracy),
            "no mistake: {review:?}"
        );
    }
}

/// `game` after the action `text` of the seat to act.
fn after(game: &AnyGame, text: &str) -> AnyGame {
    let mut next = game.clone();
    let seat = next.to_act()[0];
    act(&mut next, seat, text);
    next
}

/// Whether `color` has a piece written `symbol` on the board.
fn has_piece(game: &AnyGame, color: Color, symbol: &str) -> bool {
    let view = game.view(Viewer::Spectator);
    let board = view.board();
    board.cells.iter().any(|cell| {
        matches!(*cell, ViewCell::Piece { color: c, piece } if c == color && view.piece(piece).symbol.as_str() == symbol)
    })
}

/// Whether every reply of the seat to act leaves `color`'s piece `symbol` on the board.
fn survives_every_reply(game: &AnyGame, color: Color, symbol: &str) -> bool {
    let seat = game.to_act()[0];
    game.legal_actions(seat).iter().all(|reply| {
        let mut next = game.clone();
        next.apply(seat, reply).expect("a legal action applies");
        has_piece(&next, color, symbol)
    })
}

#[test]
fn in_chess_a_move_that_allows_mate_is_a_blunder_with_the_defence_named() {
    let game = played(
        VariantId::Chess,
        None,
        &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
    );
    let analysis = analysed(VariantId::Chess, None, &game, Viewer::Spectator, 20_000);
    assert_eq!(
        analysis.positions.len(),
        8,
        "a position before each move and after the last"
    );
    let nf6 = review(&analysis, 5);
    assert_eq!(nf6.seat, Seat::Second);
    assert_eq!(nf6.judgement, Some(Judgement::Blunder), "{nf6:?}");
    let best = nf6.best.as_deref().expect("a better move is named");
    assert!(
        ["g6", "Qe7", "Qf6", "Nh6"].contains(&best),
        "the better move defends f7: {best}"
    );
    assert_eq!(analysis.positions[7].chance, 1.0, "mate is a win");
    for entry in 0..5 {
        assert!(
            review(&analysis, entry).judgement <= Some(Judgement::Inaccuracy),
            "the opening moves are no mistakes: {:?}",
            review(&analysis, entry)
        );
    }
    let summary = analysis.summary(Seat::Second);
    assert_eq!((summary.blunders, summary.actions), (1, 3));
}

#[test]
fn in_ctf_leaving_the_flag_undefended_is_a_blunder() {
    // White's flag lies on its base h1, on the long diagonal of Black's bishop, whose own base
    // d5 lies on the same diagonal: only the rook on a1, along the first rank, stops the bishop
    // from catching the flag on h1 and carrying it straight home. Black's a6 offers a pawn; the
    // rook takes it and leaves the first rank, and the bishop catches the flag and wins.
    let fen = "4k3/pb6/8/8/8/2K5/8/R7 b - - 0 1 bases:h1,d5";
    let game = played(VariantId::Ctf, Some(fen), &["a6", "Rxa6", "Bh1", "Rh6", "Bd5"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::Second));
    let analysis = analysed(VariantId::Ctf, Some(fen), &game, Viewer::Spectator, 20_000);
    // Any move that keeps the rook on the first rank (a king move, or the rook along the rank
    // short of h1, where the bishop would take it and the flag at once) keeps h1 guarded.
    let guarding = [
        "Rb1", "Rc1", "Rd1", "Re1", "Rf1", "Rg1", "Kb2", "Kc2", "Kd2", "Kb3", "Kd3", "Kb4", "Kc4", "Kd4",
    ];
    blunder(&analysis, 1, Seat::First, "Rxa6", &guarding);
    // The bait, the catch and the carrier's way home are Black's best.
    fine(&analysis, [0, 2, 4]);
    assert_eq!(analysis.positions[5].chance, 0.0, "a flag home is a win");
}

#[test]
fn in_assault_a_black_move_that_allows_mate_on_its_board_is_a_blunder() {
    // Board 1 (A White, B Black) stands as in the chess test before Black's third move, without
    // Black's rooks; board 2 (B White, A Black) after 1. e4 e5. In the Black half-turn B plays
    // Nf6 on board 1 and A plays Nc6 on board 2, sealed and revealed together; in the next White
    // half-turn A mates on board 1, which wins the match.
    let fen = "2bqkbn1/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b - - 3 3 \
               | 1nbqkbn1/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 2";
    let game = played_by(
        VariantId::Assault,
        fen,
        &[
            (Seat::First, "Nc6"),
            (Seat::Second, "Nf6"),
            (Seat::First, "Qxf7"),
            (Seat::Second, "Nf3"),
        ],
    );
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    let analysis = analysed(VariantId::Assault, Some(fen), &game, Viewer::Spectator, 20_000);
    blunder(&analysis, 1, Seat::Second, "Nf6", &["g6", "Qe7", "Qf6", "Nh6", "d5"]);
    fine(&analysis, [0, 2]);
}

#[test]
fn in_domination_giving_a_square_away_on_the_last_turn_is_a_blunder() {
    // Move 29 of 30, nothing owned yet. White's knight wins by ending a move on e5, which no
    // Black unit can reach; on d4 the c5 pawn takes it, and the square, and the game on points.
    let fen = "7k/8/8/2p5/8/5N2/8/7K w - - 0 29";
    let game = played(VariantId::Domination, Some(fen), &["Kg2", "Kg8", "Nd4", "cxd4"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::Second));
    let analysis = analysed(VariantId::Domination, Some(fen), &game, Viewer::Spectator, 20_000);
    blunder(&analysis, 2, Seat::First, "Nd4", &["Ne5"]);
    // Waiting a turn keeps the win: Ne5 is still there on the last turn.
    fine(&analysis, [0, 1, 3]);
    assert_eq!(analysis.positions[2].chance, 1.0, "the last turn is won");
}

#[test]
fn in_ultimate_battle_letting_a_pawn_reach_the_last_rank_uncaptured_is_a_blunder() {
    // White's pawn on d7 arrives on c8 or e8 next (it moves diagonally), and an arrival Black
    // cannot capture at once wins like a mate. Black's rook on a8 covers both squares along the
    // eighth rank; taking White's rook on a2 leaves them, and c8 wins.
    let fen = "r6k/3P4/8/8/8/8/R7/7K b - - 0 1";
    let game = played(VariantId::UltimateBattle, Some(fen), &["Rxa2", "c8"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    let analysis = analysed(VariantId::UltimateBattle, Some(fen), &game, Viewer::Spectator, 20_000);
    // The rook steps aside along the eighth rank, out of the a-file, still covering c8 and e8.
    blunder(&analysis, 0, Seat::Second, "Rxa2", &["Rb8", "Rd8", "Rf8", "Rg8"]);
    fine(&analysis, [1]);
}

#[test]
fn in_pick_the_team_a_pawn_move_that_allows_a_back_row_mate_is_a_blunder() {
    // 10x10, in play: Black's king on j10 behind its pawns; White's chancellor threatens b10,
    // along the tenth row. Black's knights and camel reach neither the b-file nor the tenth row
    // in one move: what saves the king is a flight square (the i or j pawn, by one, two or
    // three) or the camel to h7 or j7, from where it steps in on the tenth row. The h pawn does
    // neither.
    let fen = "9k/7ppp/10/10/10/6n3/6n1(ca)1/10/1(CH)8/K9 b - - 0 1";
    let game = played(VariantId::PickTheTeam, Some(fen), &["h8", "CHb10"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    let analysis = analysed(VariantId::PickTheTeam, Some(fen), &game, Viewer::Spectator, 20_000);
    let saving = ["i8", "i7", "i6", "j8", "j7", "j6", "CAh7", "CAj7"];
    blunder(&analysis, 0, Seat::Second, "h8", &saving);
    fine(&analysis, [1]);
}

#[test]
fn in_pick_the_team_2_a_queen_left_to_a_threeleaper_is_a_blunder() {
    // Both sides pick one of each of the ready-made list's twenty pieces, in the same places.
    // White's queen comes out by e2 and lands on i6, which Black's threeleaper on i9 jumps to.
    let white = [
        "K@f1", "R@a1", "N@b1", "B@c1", "CD@d1", "Q@e1", "CH@g1", "CA@h1", "NA@i1", "G@j1", "P@a2", "CP@b2", "FI@c2",
        "FC@d2", "W@e2", "F@f2", "AL@g2", "DA@h2", "H@i2", "TR@j2",
    ];
    let black = white.map(|pick| pick.replace('1', "10").replace('2', "9"));
    let black: Vec<&str> = black.iter().map(String::as_str).collect();
    let moves = ["We3", "a8", "Qe2", "a7", "Qi6", "Hxi6"];
    // Forty picks make many positions: a small budget sees a queen taken at once.
    queen_hung(VariantId::PickTheTeam2, &white, &black, &moves, 3_000);
}

#[test]
fn in_patch_a_queen_left_to_an_alfil_is_a_blunder() {
    // Both sides pick one of each of the ready-made list's sixteen pieces, in the same places.
    // White's queen comes out by d2 to g5, which Black's alfil on e7 (and camel on f8) jump to.
    let white = [
        "K@e1", "R@a1", "N@b1", "B@c1", "Q@d1", "CA@f1", "F@g1", "W@h1", "P@a2", "CP@b2", "FI@c2", "FC@d2", "AL@e2",
        "DA@f2", "H@g2", "TR@h2",
    ];
    let black = white.map(|pick| pick.replace('1', "8").replace('2', "7"));
    let black: Vec<&str> = black.iter().map(String::as_str).collect();
    let moves = ["FCd3", "a6", "Qd2", "a5", "Qg5", "ALxg5"];
    queen_hung(VariantId::Patch, &white, &black, &moves, 4_000);
}

/// A game of lists, picked and played as [`own_lists`] does, whose last two moves are White's
/// queen left to be taken and Black taking it: the queen's move is a blunder, the better move
/// named keeps the queen whatever Black replies, and the capture is no mistake.
fn queen_hung(id: VariantId, white: &[&str], black: &[&str], moves: &[&str], nodes: u64) {
    let game = own_lists(id, white, black, moves);
    let analysis = analysed(id, None, &game, Viewer::Spectator, nodes);
    let hung = game.view(Viewer::Spectator).record.len() - 2;
    let queen = moves[moves.len() - 2];
    let judged = review(&analysis, hung);
    assert_eq!((judged.seat, judged.played.as_str()), (Seat::First, queen));
    assert_eq!(judged.judgement, Some(Judgement::Blunder), "{judged:?}");
    let best = judged.best.as_deref().expect("a better move is named");
    let before = own_lists(id, white, black, &moves[..moves.len() - 2]);
    assert!(
        survives_every_reply(&after(&before, best), Color::White, "Q"),
        "the better move {best} keeps the queen"
    );
    fine(&analysis, [hung + 1]);
}

#[test]
fn in_easy_patch_a_move_that_allows_mate_on_f7_is_a_blunder() {
    // Both sides pick one of each of the ready-made list's seven pieces: White's queen and
    // bishop where FIDE's stand, Black's queen, bishop and knight too, and nothing else of
    // Black's guarding f7 or h5. Then the scholar's mate, as in chess.
    let white = ["Q@d1", "B@f1", "R@h1", "N@g1", "CD@b1", "CH@c1", "CA@a1"];
    let black = ["Q@d8", "N@g8", "B@f8", "R@h8", "CD@b8", "CH@c8", "CA@a8"];
    let moves = ["e4", "e5", "Qh5", "CDc6", "Bc4", "Nf6", "Qxf7"];
    let game = own_lists(VariantId::EasyPatch, &white, &black, &moves);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    let play = game.view(Viewer::Spectator).record.len() - moves.len();
    let analysis = analysed(VariantId::EasyPatch, None, &game, Viewer::Spectator, 10_000);
    // f7 is defended (by the queen, the knight, the chancellor's knight move from d6 or e7) or
    // the bishop's diagonal to it blocked on d5, or the queen's on g6.
    let defences = ["g6", "Qe7", "Qf6", "Nh6", "d5", "CDd5", "CHd6", "CHe7"];
    blunder(&analysis, play + 5, Seat::Second, "Nf6", &defences);
    fine(&analysis, play..play + 5);
    fine(&analysis, [play + 6]);
}

/// The mates the other side has once `proposal`, a Rejection proposal of the side to move, is
/// accepted.
fn mates_after(game: &AnyGame, proposal: &str) -> Vec<String> {
    let accepted = after(&after(game, proposal), "accept");
    let seat = accepted.to_act()[0];
    accepted
        .noted_actions(seat)
        .into_iter()
        .map(|(_, text)| text)
        .filter(|text| text.ends_with('#'))
        .collect()
}

#[test]
fn in_rejection_allowing_two_mates_is_a_blunder_but_allowing_one_is_not() {
    // White's queen on h6 and bishop on d4 mate on g7 unless Black blocks the diagonal (f6).
    // One mate is no threat in Rejection: Black rejects it and White must play another move. So
    // a6, which allows only Qg7#, is fine; g5, which also allows Qxg5#, loses: Black can reject
    // only one of the two.
    let fen = "q4rk1/p4p1p/6pQ/8/3B4/8/5PPP/6K1 b - - 0 1";
    let actions = [
        "a6", "accept", "Qg7", "reject", "h3", "g5", "accept", "Qg7", "reject", "Qxg5",
    ];
    let game = played(VariantId::Rejection, Some(fen), &actions);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    // Black's view: the players know every proposal; a spectator never learns which was rejected
    // (see the ignored test below).
    let analysis = analysed(
        VariantId::Rejection,
        Some(fen),
        &game,
        Viewer::Seat(Seat::Second),
        20_000,
    );
    let start = AnyGame::from_fen(VariantId::Rejection, fen).expect("the position reads");
    assert_eq!(mates_after(&start, "a6").len(), 1);
    fine(&analysis, [0, 4]);
    let before = played(VariantId::Rejection, Some(fen), &actions[..5]);
    assert_eq!(mates_after(&before, "g5").len(), 2);
    let g5 = review(&analysis, 5);
    assert_eq!((g5.seat, g5.played.as_str()), (Seat::Second, "g5"));
    assert_eq!(g5.judgement, Some(Judgement::Blunder), "{g5:?}");
    let best = g5.best.as_deref().expect("a better move is named");
    assert!(
        mates_after(&before, best).len() <= 1,
        "the better move {best} leaves White a single mate at most"
    );
    // Answers and rejected proposals are steps of the protocol, not moves: none is reviewed.
    assert!(analysis.reviews.iter().all(|r| ![1, 2, 3, 6, 7, 8].contains(&r.entry)));
}

#[test]
fn in_circe_reviving_the_rook_where_it_mates_is_a_blunder() {
    // Black's rook on d5 threatens Rd1#. White's knight takes it, and White chooses where it is
    // reborn: on h8 it is shut in behind h7; on a8 it comes down the open a-file, Ra1#.
    let fen = "6k1/5ppp/8/3r4/1N6/2P5/5PPP/6K1 w - - 0 1";
    let game = played(VariantId::Circe, Some(fen), &["Nxd5(a8)", "Ra1#"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::Second));
    let analysis = analysed(VariantId::Circe, Some(fen), &game, Viewer::Spectator, 20_000);
    // The moves that meet both mates: the rook taken and reborn on h8, a flight square for the
    // king, the first rank covered, or the d-file blocked.
    let defences = ["Nxd5(h8)", "f3", "f4", "g3", "g4", "h3", "h4", "Kf1", "Nc2", "Nd3"];
    blunder(&analysis, 0, Seat::First, "Nxd5(a8)", &defences);
    fine(&analysis, [1]);
}

#[test]
fn in_portal_capturing_on_a_portal_that_carries_the_queen_into_a_pawns_reach_is_a_blunder() {
    // White's bishop goes to f3 and on through the portal to b5, checking Black's king. Black's
    // queen can take it, but a move ending on b5 goes on to f3, where White's g pawn takes it.
    let fen = "1q2k3/5ppp/8/8/8/8/4BPPP/6K1 w - - 0 1";
    let game = played(VariantId::Portal, Some(fen), &["Bf3", "Qxb5", "gxf3"]);
    let analysis = analysed(VariantId::Portal, Some(fen), &game, Viewer::Spectator, 20_000);
    assert_eq!(review(&analysis, 0).played, "Bf3>b5+");
    blunder(&analysis, 1, Seat::Second, "Qxb5>f3", &["Kd8", "Ke7", "Kf8"]);
    fine(&analysis, [0, 2]);
}

#[test]
fn in_beirut_stepping_next_to_the_enemy_carrier_is_a_blunder() {
    // Black's carrier, the knight, checks from d3; of White's king's four squares, d2 and e2
    // stand next to it, and a detonation there blows the king up. The carriers are in the
    // position (the game is over, so the spectator knows them).
    let fen = "4k3/8/8/8/1n6/8/8/4K2R b - - 0 1 bombs:h1,b4";
    let game = played(VariantId::Beirut, Some(fen), &["Nd3", "Ke2", "detonate"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::Second));
    let analysis = analysed(VariantId::Beirut, Some(fen), &game, Viewer::Spectator, 20_000);
    blunder(&analysis, 1, Seat::First, "Ke2", &["Kd1", "Kf1"]);
    fine(&analysis, [0, 2]);
}

#[test]
fn in_knights_are_god_unguarding_the_square_of_a_relayed_knight_check_is_a_blunder() {
    // White's knight on e4 guards f7 by a camel leap, so a rook arriving there may also move as
    // a knight: Rf7 checks the king on h8, smothered by its own rook and pawns. Black's bishop on
    // e8 guards f7; taking the a4 pawn leaves it, and Rf7 mates.
    let fen = "4b1rk/6pp/8/8/P3N3/8/8/K4R2 b - - 0 1";
    let game = played(VariantId::KnightsAreGod, Some(fen), &["Bxa4", "Rf7#"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    let analysis = analysed(VariantId::KnightsAreGod, Some(fen), &game, Viewer::Spectator, 20_000);
    // Keep the bishop on e8 (a pawn move), guard f7 from the other side (g6, h5), or attack
    // the knight (c6): taking it after Rf7 takes the rook's knight move away, and the check.
    let defences = ["g6", "g5", "h6", "h5", "Bc6", "Bg6", "Bh5"];
    blunder(&analysis, 0, Seat::Second, "Bxa4", &defences);
    fine(&analysis, [1]);
}

/// A Blockade position in which each side has one piece that can move: White's rook in the
/// g-file, and Black's bishop on h8, whose only way out is g7. White wins at once by filling
/// g7 (with the rook or its statue); Rg1-g6 with the statue on g5 lets the bishop step to g7
/// and wall the rook in with a statue on f6.
const BLOCKADE: &str = "qrrb***b/******1*/*****2*/****1*1*/***1**1*/**1***1*/******1*/QR*BB*R* w";

/// White's turns that fill g7, each of which wins at once.
const FILLING_G7: [&str; 11] = [
    "Rg1-g2@g7",
    "Rg1-g3@g7",
    "Rg1-g4@g7",
    "Rg1-g5@g7",
    "Rg1-g6@g7",
    "Rg1-g7@g1",
    "Rg1-g7@g2",
    "Rg1-g7@g3",
    "Rg1-g7@g4",
    "Rg1-g7@g5",
    "Rg1-g7@g6",
];

#[test]
fn in_blockade_chess_missing_the_immobilising_statue_is_a_blunder() {
    let game = played(VariantId::Blockade, Some(BLOCKADE), &["Rg1-g6@g5", "Bh8-g7@f6"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::Second));
    let analysis = analysed(VariantId::Blockade, Some(BLOCKADE), &game, Viewer::Spectator, 10_000);
    let best = blunder(&analysis, 0, Seat::First, "Rg1-g6@g5", &FILLING_G7);
    let start = AnyGame::from_fen(VariantId::Blockade, BLOCKADE).expect("the position reads");
    assert_eq!(
        after(&start, best).outcome().and_then(|o| o.winner),
        Some(Seat::First),
        "{best} leaves Black no turn"
    );
    fine(&analysis, [1]);
}

#[test]
fn in_garden_of_statues_a_turn_that_lets_red_wall_blue_in_is_a_blunder() {
    // The Blockade position with the colours swapped: Blue (second) has the rook and the move.
    let swapped: String = BLOCKADE
        .trim_end_matches(" w")
        .chars()
        .map(|c| match c {
            c if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
            c if c.is_ascii_lowercase() => c.to_ascii_uppercase(),
            c => c,
        })
        .collect();
    let fen = format!("{swapped} b");
    let game = played(VariantId::Garden, Some(&fen), &["Rg1-g6@g5", "Bh8-g7@f6"]);
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat::First));
    let analysis = analysed(VariantId::Garden, Some(&fen), &game, Viewer::Spectator, 10_000);
    let best = blunder(&analysis, 0, Seat::Second, "Rg1-g6@g5", &FILLING_G7);
    let start = AnyGame::from_fen(VariantId::Garden, &fen).expect("the position reads");
    assert_eq!(
        after(&start, best).outcome().and_then(|o| o.winner),
        Some(Seat::Second),
        "{best} leaves Red no turn"
    );
    fine(&analysis, [1]);
}

/// Whether any review's action, played or preferred, is the seat's secret choice (`prefix`:
/// `bomb:`, `base:`).
fn mentions_secret(analysis: &Analysis, seat: Seat, prefix: &str) -> bool {
    analysis.reviews.iter().any(|r| {
        r.seat == seat && (r.played.starts_with(prefix) || r.best.as_deref().is_some_and(|b| b.starts_with(prefix)))
    })
}

#[test]
fn in_beirut_a_carrier_never_detonated_neither_shows_in_the_analysis_nor_changes_it() {
    // The same visible game with White's carrier on d2 or on g1 (the knight that goes to f3);
    // neither is detonated, and the game is not over, so the carriers stay secret.
    let game_with = |carrier: &str| {
        played(
            VariantId::Beirut,
            None,
            &[&format!("bomb:{carrier}"), "bomb:e7", "e4", "e5", "Nf3", "Nc6", "Bc4"],
        )
    };
    let (d2, g1) = (game_with("d2"), game_with("g1"));
    assert_eq!(d2.outcome(), None);
    for viewer in [Viewer::Seat(Seat::Second), Viewer::Spectator] {
        let one = analysed(VariantId::Beirut, None, &d2, viewer, 4_000);
        let other = analysed(VariantId::Beirut, None, &g1, viewer, 4_000);
        assert!(
            !mentions_secret(&one, Seat::First, "bomb:"),
            "{viewer:?}: {:?}",
            one.reviews
        );
        assert!(one.reviews.iter().all(|r| r.entry != 0), "White's choice is not judged");
        assert_eq!(one, other, "{viewer:?}: the analysis is the same whichever the carrier");
    }
}

#[test]
fn in_ctf_a_base_not_yet_revealed_neither_shows_in_the_analysis_nor_changes_it() {
    // Bases are revealed together once both are chosen (RULES.md), so White's is a secret only
    // until Black chooses: White has chosen e3 or d4, Black not yet.
    let (e3, d4) = (
        played(VariantId::Ctf, None, &["base:e3"]),
        played(VariantId::Ctf, None, &["base:d4"]),
    );
    for viewer in [Viewer::Seat(Seat::Second), Viewer::Spectator] {
        let one = analysed(VariantId::Ctf, None, &e3, viewer, 4_000);
        let other = analysed(VariantId::Ctf, None, &d4, viewer, 4_000);
        assert!(!mentions_secret(&one, Seat::First, "base:"), "{:?}", one.reviews);
        assert_eq!(one.positions.len(), 2);
        assert_eq!(one, other, "{viewer:?}: the analysis is the same whichever the base");
    }
}

#[test]
fn a_record_that_stops_at_a_forced_reply_is_judged_by_what_follows_not_as_a_draw() {
    // Queen against king: Qh8+ leaves Black one move, Ka7, and mates soon after. A record that
    // stops there (a resignation, a flag fall) must not make the check a blunder.
    let fen = "k7/8/2K5/8/8/8/8/7Q w - - 0 1";
    let game = played(VariantId::Chess, Some(fen), &["Qh8+"]);
    let analysis = analysed(VariantId::Chess, Some(fen), &game, Viewer::Spectator, 20_000);
    assert!(analysis.positions[1].chance > 0.9, "{:?}", analysis.positions);
    fine(&analysis, [0]);
}

#[test]
fn in_rejection_a_spectators_analysis_does_not_blame_the_move_after_a_rejection() {
    // As in the Rejection test: Black rejects Qg7#, and White plays h3 instead. A spectator
    // does not know which proposal was rejected, so nothing says h3 missed a mate.
    let fen = "q4rk1/p4p1p/6pQ/8/3B4/8/5PPP/6K1 b - - 0 1";
    let game = played(
        VariantId::Rejection,
        Some(fen),
        &["a6", "accept", "Qg7", "reject", "h3"],
    );
    let analysis = analysed(VariantId::Rejection, Some(fen), &game, Viewer::Spectator, 20_000);
    assert!(
        analysis.reviews.iter().all(|review| review.entry != 4),
        "a move chosen after a rejection the viewer cannot read is not judged: {:?}",
        analysis.reviews
    );
    assert!(
        analysis.positions[4].chance < 0.9,
        "nor is the position before it a mate the viewer cannot know was refused: {:?}",
        analysis.positions
    );
    // A player, who read the rejected proposal, has h3 judged.
    let white = analysed(
        VariantId::Rejection,
        Some(fen),
        &game,
        Viewer::Seat(Seat::First),
        20_000,
    );
    assert!(
        white.reviews.iter().any(|review| review.entry == 4),
        "{:?}",
        white.reviews
    );
}

#[test]
fn in_chess_a_knight_left_to_a_pawn_in_a_won_game_is_a_mistake() {
    // White is a rook and a knight up; 1. Ne5?? gives the knight to the d6-pawn for nothing.
    // The winning chance hardly moves (the game stays won), yet a piece thrown away is a mistake.
    let fen = "6k1/5pp1/3p3p/8/8/5N2/5PPP/R5K1 w - - 0 1";
    let game = played(VariantId::Chess, Some(fen), &["Ne5", "dxe5"]);
    let analysis = analysed(VariantId::Chess, Some(fen), &game, Viewer::Spectator, 20_000);
    let ne5 = review(&analysis, 0);
    assert_eq!((ne5.seat, ne5.played.as_str()), (Seat::First, "Ne5"));
    assert!(ne5.judgement >= Some(Judgement::Mistake), "{ne5:?}");
    assert_ne!(ne5.best.as_deref(), Some("Ne5"), "{ne5:?}");
}
