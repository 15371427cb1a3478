//! A piece's card: what `/piece` (and `piece` in the terminal) shows of any catalogue piece, in
//! any game: its name, symbol, game, Betza notation, what it does, and a diagram of its moves.

use super::{ArenaError, Effects, Reply};
use crate::render::{BoardImage, Decor};
use arbiter_engine::catalogue;
use arbiter_engine::diagram::piece_diagram;
use arbiter_engine::piece::{PieceDef, Promotion, Royalty};

/// The card of the piece `query` names (an id, a name, a symbol, or part of a name).
pub fn piece_card(query: &str) -> Result<Effects, ArenaError> {
    let found = catalogue::lookup(query);
    let Some(piece) = found.first() else {
        return Err(ArenaError::Rejected(format!(
            "no piece is called \"{}\"; try a name like \"Chinese nightrider\" or a symbol like CN",
            query.trim()
        )));
    };
    let mut text = card_text(piece);
    if found.len() > 1 {
        let others: Vec<String> = found[1..].iter().map(|p| format!("`{}`", p.id)).collect();
        text.push_str(&format!(
            "\nOther pieces called that: {} (ask for one by its id).",
            others.join(", ")
        ));
    }
    let diagram =
        piece_diagram(piece).map_err(|e| ArenaError::Rejected(format!("{} cannot be drawn: {e}", piece.name)))?;
    Ok(Effects {
        reply: Some(Reply {
            text,
            board: Some(BoardImage {
                view: diagram.view,
                decor: Decor {
                    without_players: true,
                    ..Decor::default()
                },
            }),
        }),
        ..Default::default()
    })
}

/// "**Chinese nightrider** (`CN`) · Pick-the-team · Betza `nNN`", what it does, and its
/// particulars (royal, promotion, immunity).
pub fn card_text(piece: &PieceDef) -> String {
    let section = catalogue::section_of(&piece.id).unwrap_or("its variant");
    let mut lines = vec![format!(
        "{} (`{}`) · {section} · Betza `{}`",
        super::text::strong(&piece.name),
        piece.symbol,
        piece.betza
    )];
    if !piece.description.is_empty() {
        lines.push(piece.description.clone());
    }
    match piece.royal {
        Royalty::None => {}
        Royalty::Both => lines.push("Royal: the game is lost when it is checkmated.".into()),
        Royalty::Only(color) => lines.push(format!(
            "Royal for {} only: that side loses when it is checkmated.",
            color.name()
        )),
    }
    if piece.is_pawn {
        lines.push(match piece.promotion {
            Promotion::Never => "A pawn that never promotes.".to_string(),
            Promotion::LastRank => "A pawn: it promotes on arrival on the last row.".to_string(),
            Promotion::RelativeRank(row) => format!("A pawn: it promotes on arrival on its own {row}th row."),
        });
    }
    if piece.multi_step.is_some() {
        lines.push(
            "From its first two rows it may make a double or triple step in its moving direction, from its \
             third row a double step (never capturing, every crossed square empty)."
                .into(),
        );
    }
    if piece.is_uncapturable {
        lines.push("It can never be captured.".into());
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_names_the_piece_and_draws_its_diagram() {
        let effects = piece_card("lion").unwrap();
        let reply = effects.reply.unwrap();
        let text = crate::arena::text::plain(&reply.text);
        assert!(
            text.starts_with("Murray lion (`ML`) · Pick-the-team · Betza `ADcK`"),
            "{text}"
        );
        let board = reply.board.unwrap();
        assert!(board.decor.without_players);
        assert_eq!(board.view.board().files, 9);
    }

    #[test]
    fn shared_names_list_the_others_and_unknown_names_are_refused() {
        let text = crate::arena::text::plain(&piece_card("N").unwrap().reply.unwrap().text);
        assert!(
            text.contains("Knight (`N`) · FIDE chess") && text.contains("`ubc-knight`"),
            "{text}"
        );
        let error = piece_card("dragon").unwrap_err().to_string();
        assert!(error.contains("no piece is called \"dragon\""), "{error}");
    }

    #[test]
    fn particulars_are_spelled_out() {
        let card = |id: &str| card_text(&catalogue::find(id).unwrap());
        assert!(card("ptt-blocking-prince").contains("never be captured"));
        assert!(card("ptt-mecklenberg-pawn").contains("its own 8th row"));
        assert!(card("ptt-royal-knight").contains("Royal"));
        assert!(card("ptt-berolina-pawn").contains("double or triple step"));
    }
}
