//! What a piece is worth, from how it moves: the computer opponent has never seen most of these
//! pieces (a list's own pieces least of all), so it values each by the squares it reaches.

use crate::betza::{self, MoveRule, Travel};
use crate::view::PieceView;

/// A pawn's worth, the unit the rest are measured in (centipawns).
pub const PAWN: i32 = 100;

/// A piece's worth in centipawns. Royal pieces are worth nothing here: losing one ends the game,
/// which the search sees for itself. Others are worth what they reach: the average number of
/// squares they attack from each square of an empty board of this size (a move that cannot
/// capture counts half), a little less for a piece that keeps to one colour of squares, as a
/// bishop does. On 8x8 this gives about 290 for a knight, 330 a bishop, 640 a rook, 990 a queen.
pub fn worth(piece: &PieceView, files: u8, ranks: u8) -> i32 {
    if piece.is_royal {
        return 0;
    }
    if piece.is_pawn {
        return PAWN;
    }
    let Ok(rules) = betza::parse(&piece.betza) else {
        return 3 * PAWN;
    };
    let squares = i32::from(files) * i32::from(ranks);
    if squares == 0 {
        return 3 * PAWN;
    }
    let mut reach = 0;
    for rank in 0..ranks as i8 {
        for file in 0..files as i8 {
            for rule in &rules {
                let count = empty_board_reach(rule, file, rank, files as i8, ranks as i8);
                reach += match (rule.can_capture, rule.can_move) {
                    (true, _) => 2 * count,
                    (false, true) => count,
                    (false, false) => 0,
                };
            }
        }
    }
    // Half-squares per square of the board, so: 40 cp a square reached, and a base of 80.
    let mut value = 20 * reach / squares + 80;
    if keeps_to_one_colour(&rules) {
        value = value * 4 / 5;
    }
    value.max(PAWN)
}

/// How many squares `rule` reaches from (file, rank) on an empty board. A hopper needs a screen
/// and a grasshopper a piece to jump, so alone they reach nothing; they are counted as though a
/// board of pieces gave them one line in two.
fn empty_board_reach(rule: &MoveRule, file: i8, rank: i8, files: i8, ranks: i8) -> i32 {
    let inside = |f: i8, r: i8| (0..files).contains(&f) && (0..ranks).contains(&r);
    let (df, dr) = (rule.step.df, rule.step.dr);
    let line = |limit: u8| {
        let mut count = 0;
        let (mut f, mut r) = (file + df, rank + dr);
        while inside(f, r) && (limit == 0 || count < i32::from(limit)) {
            count += 1;
            f += df;
            r += dr;
        }
        count
    };
    match rule.travel {
        Travel::Leap => i32::from(inside(file + df, rank + dr)),
        Travel::Ride { range } => line(range),
        Travel::Hop | Travel::Grasshop => line(0) / 2,
    }
}

/// Whether every step keeps the piece on squares of one colour (files plus ranks moved is even).
fn keeps_to_one_colour(rules: &[MoveRule]) -> bool {
    !rules.is_empty() && rules.iter().all(|rule| (rule.step.df + rule.step.dr) % 2 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Symbol;

    fn piece(betza: &str) -> PieceView {
        PieceView {
            id: betza.into(),
            symbol: Symbol::new("X").unwrap(),
            name: betza.into(),
            is_royal: false,
            is_pawn: false,
            betza: betza.into(),
            is_uncapturable: false,
        }
    }

    #[test]
    fn the_fide_pieces_come_out_in_their_usual_order() {
        let [knight, bishop, rook, queen] = ["N", "B", "R", "Q"].map(|b| worth(&piece(b), 8, 8));
        assert!((250..350).contains(&knight), "knight {knight}");
        assert!((250..380).contains(&bishop), "bishop {bishop}");
        assert!(rook > bishop + 150 && rook < queen - 200, "rook {rook}, queen {queen}");
        assert!((850..1100).contains(&queen), "queen {queen}");
    }

    #[test]
    fn a_piece_is_worth_more_the_more_it_reaches() {
        let wazir = worth(&piece("W"), 8, 8);
        let man = worth(&piece("K"), 8, 8);
        let chancellor = worth(&piece("RN"), 8, 8);
        assert!(wazir < man && man < chancellor, "{wazir} {man} {chancellor}");
        // A move that cannot capture counts for less than one that can.
        assert!(worth(&piece("mR"), 8, 8) < worth(&piece("R"), 8, 8));
    }
}
