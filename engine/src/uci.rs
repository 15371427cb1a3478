//! Actions as the UCI protocol writes moves (docs/uci.md), for the games UCI can play: the square
//! left and the square entered (`e2e4`, `a10a9` on 10x10), a promotion's piece after them in lower
//! case (`e7e8q`), a placement as its piece, `@` and the square (`Q@d4`), Blockade's statue after a
//! comma as Fairy-Stockfish writes a wall (`d1d5,d5d7`), a chosen square after a comma (Circe's
//! rebirth, `e4d5,h8`) and a turn without a move as `0000`. Pieces whose symbol is longer than one
//! letter are written as FEN writes them, in parentheses (`(RN)@d1`).

use crate::game::{Action, Game, PieceId, Seat, Viewer};
use crate::piece::Color;
use crate::variants::{AnyGame, VariantId};
use crate::view::PieceView;

/// The games UCI can play: one board, nothing kept secret from the other side (Beirut's carrier,
/// CTF's bases and Rejection's refused proposals are), and no list to write before the first move
/// (Pick-the-team 2, Patch, Easy Patch). Assault is played on several boards at once, which a UCI
/// position cannot hold.
pub const SPOKEN: [VariantId; 9] = [
    VariantId::Chess,
    VariantId::Blockade,
    VariantId::Garden,
    VariantId::Circe,
    VariantId::Portal,
    VariantId::KnightsAreGod,
    VariantId::Domination,
    VariantId::UltimateBattle,
    VariantId::PickTheTeam,
];

/// Whether UCI can play `variant` (see [`SPOKEN`]).
pub fn speaks(variant: VariantId) -> bool {
    SPOKEN.contains(&variant)
}

/// `action` as UCI writes it, its pieces named by `pieces` (a view's); `None` for an action UCI
/// cannot write (a secret choice, a list, another board than the first).
pub fn move_text(pieces: &[PieceView], action: &Action) -> Option<String> {
    let symbol = |piece: &PieceId, color: Color| {
        let view = pieces.iter().find(|p| *p.id == *piece.as_str())?;
        Some(view.symbol.fen(color))
    };
    Some(match action {
        Action::Move {
            from,
            to,
            promotion,
            choice,
            board: 0,
        } => {
            let mut text = format!("{from}{to}");
            if let Some(piece) = promotion {
                text.push_str(&symbol(piece, Color::Black)?);
            }
            if let Some(square) = choice {
                text.push_str(&format!(",{square}"));
            }
            text
        }
        Action::Place { piece, to } => format!("{}@{to}", symbol(piece, Color::White)?),
        Action::MoveAndStatue { from, to, statue } => format!("{from}{to},{to}{statue}"),
        Action::Pass => "0000".to_string(),
        _ => return None,
    })
}

/// Every legal action of `seat` with its UCI text (those UCI can write).
pub fn legal_moves(game: &AnyGame, seat: Seat) -> Vec<(Action, String)> {
    let pieces = game.sight(Viewer::Spectator).pieces;
    game.legal_actions(seat)
        .into_iter()
        .filter_map(|action| {
            let text = move_text(&pieces, &action)?;
            Some((action, text))
        })
        .collect()
}

/// The legal action of `seat` that `text` writes, if any. A promotion's letter is read in either
/// case, as some programs write it in upper case.
pub fn read_move(game: &AnyGame, seat: Seat, text: &str) -> Option<Action> {
    let text = text.trim();
    let moves = legal_moves(game, seat);
    let exact = moves.iter().find(|(_, written)| written == text);
    let found = exact.or_else(|| moves.iter().find(|(_, written)| written.eq_ignore_ascii_case(text)));
    found.map(|(action, _)| action.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Square;
    use crate::view::PromptKind;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn moves_promotions_placements_and_statues_are_written_as_uci_writes_them() {
        let chess = AnyGame::new(VariantId::Chess);
        let pieces = chess.sight(Viewer::Spectator).pieces;
        assert_eq!(
            move_text(&pieces, &Action::simple_move(sq("e2"), sq("e4"))).as_deref(),
            Some("e2e4")
        );
        let promotion = Action::Move {
            from: sq("e7"),
            to: sq("e8"),
            promotion: Some(PieceId::from("queen")),
            choice: None,
            board: 0,
        };
        assert_eq!(move_text(&pieces, &promotion).as_deref(), Some("e7e8q"));
        let blockade = AnyGame::new(VariantId::Blockade);
        let pieces = blockade.sight(Viewer::Spectator).pieces;
        let statue = Action::MoveAndStatue {
            from: sq("d1"),
            to: sq("d5"),
            statue: sq("d7"),
        };
        assert_eq!(move_text(&pieces, &statue).as_deref(), Some("d1d5,d5d7"));
        let place = Action::Place {
            piece: PieceId::from("blockade-queen"),
            to: sq("d4"),
        };
        assert_eq!(move_text(&pieces, &place).as_deref(), Some("Q@d4"));
        assert_eq!(move_text(&pieces, &Action::Detonate), None);
        let second_board = Action::Move {
            from: sq("e2"),
            to: sq("e4"),
            promotion: None,
            choice: None,
            board: 1,
        };
        assert_eq!(move_text(&pieces, &second_board), None);
    }

    #[test]
    fn ten_by_ten_squares_and_long_symbols_are_written_whole() {
        let game = AnyGame::new(VariantId::PickTheTeam);
        let pieces = game.sight(Viewer::Spectator).pieces;
        let long = pieces
            .iter()
            .find(|p| !p.symbol.is_single())
            .expect("a piece of several letters");
        let place = Action::Place {
            piece: PieceId::from(&*long.id),
            to: sq("j10"),
        };
        assert_eq!(
            move_text(&pieces, &place),
            Some(format!("({})@j10", long.symbol.as_str()))
        );
        assert_eq!(
            move_text(&pieces, &Action::simple_move(sq("a10"), sq("a9"))).as_deref(),
            Some("a10a9")
        );
    }

    /// In every game UCI plays, at every position of random games: each legal action has a text
    /// of its own, which reads back to it; nothing is hidden from a spectator, and no list is
    /// asked for.
    #[test]
    fn every_action_of_the_spoken_games_has_a_text_of_its_own_that_reads_back() {
        let mut rng = SmallRng::seed_from_u64(7);
        for variant in SPOKEN {
            for _ in 0..3 {
                let mut game = AnyGame::new(variant);
                for _ in 0..150 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let view = game.sight(Viewer::Spectator);
                    assert!(view.record.iter().all(|entry| !entry.is_hidden), "{variant:?}");
                    assert!(
                        view.prompt.as_ref().is_none_or(|p| p.kind != PromptKind::List),
                        "{variant:?}"
                    );
                    let seat = game.to_act()[0];
                    let legal = game.legal_actions(seat);
                    let moves = legal_moves(&game, seat);
                    assert_eq!(moves.len(), legal.len(), "{variant:?}: every action is written");
                    let mut texts: Vec<&String> = moves.iter().map(|(_, text)| text).collect();
                    texts.sort();
                    texts.dedup();
                    assert_eq!(texts.len(), moves.len(), "{variant:?}: no two actions alike");
                    let (action, text) = moves.choose(&mut rng).unwrap();
                    assert_eq!(
                        read_move(&game, seat, text).as_ref(),
                        Some(action),
                        "{variant:?} {text}"
                    );
                    game.apply(seat, action).unwrap();
                }
            }
        }
    }

    #[test]
    fn a_text_that_is_no_legal_move_reads_as_nothing() {
        let game = AnyGame::new(VariantId::Chess);
        assert_eq!(read_move(&game, Seat::First, "e2e5"), None);
        assert_eq!(read_move(&game, Seat::First, "e7e5"), None);
        assert_eq!(read_move(&game, Seat::First, "nonsense"), None);
        assert_eq!(
            read_move(&game, Seat::First, " g1f3 "),
            Some(Action::simple_move(sq("g1"), sq("f3")))
        );
    }
}
