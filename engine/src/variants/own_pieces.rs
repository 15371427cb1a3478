//! The games of players' own pieces (rules pages docs/rules/pick-the-team-2.md, patch.md,
//! easy-patch.md): each player
//! submits a list of pieces secretly, and may correct it until the other's is in; both lists are
//! then revealed and become the pool, and picking and play go on as in version one
//! ([`PickTheTeamGame`]).
//!
//! The game's variant is made from the lists when they are revealed and stored spelled out with
//! the game, so a game's pieces never change when the catalogue does.

use crate::catalogue;
use crate::game::{Action, ActionError, Game, Outcome, Phase, Seat, Viewer};
use crate::geometry::Square;
use crate::lists::{self, ListKind, ListPiece};
use crate::piece::{Kind, PieceDef, Symbol};
use crate::record::{Entry, Record, Secrecy};
use crate::variant_file::{DrawRules, PieceSpec, Variant, VariantDef};
use crate::variants::chess::ChessCore;
use crate::variants::pick_the_team::PickTheTeamGame;
use crate::view::{Prompt, PromptKind, RecordEntry, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// How the ids of the players' own pieces begin (`list-w3`, White's third piece): how a view's
/// pieces from the lists are told from Easy Patch's FIDE king and pawns.
pub const LISTED_PIECE_ID: &str = "list-";

/// What others read in place of a list they may not see yet.
pub const HIDDEN_LIST: &str = "(submitted a list)";
/// What others read in place of a corrected list.
pub const HIDDEN_REVISION: &str = "(changed their list)";

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnPiecesGame {
    kind: ListKind,
    /// Each seat's list, by seat, once submitted: secret until both are in.
    lists: [Option<Vec<ListPiece>>; 2],
    /// The submissions, each secret to its seat until both lists are in.
    list_record: Record,
    /// The picking and play, once both lists are in.
    play: Option<PickTheTeamGame>,
    /// How the game ended before the lists were in (a resignation, a time out).
    outcome: Option<Outcome>,
}

// Secrets stay out of logs: Debug shows the lists only once both are revealed.
impl fmt::Debug for OwnPiecesGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnPiecesGame")
            .field("kind", &self.kind)
            .field("submitted", &self.lists.each_ref().map(Option::is_some))
            .field("play", &self.play)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl OwnPiecesGame {
    pub fn new(kind: ListKind) -> OwnPiecesGame {
        OwnPiecesGame {
            kind,
            lists: [None, None],
            list_record: Record::default(),
            play: None,
            outcome: None,
        }
    }

    pub fn kind(&self) -> ListKind {
        self.kind
    }

    fn is_listing(&self) -> bool {
        self.play.is_none() && self.outcome.is_none()
    }

    /// The ready-made list a player may take instead of writing one: catalogue pieces that keep
    /// every rule of the game.
    pub fn ready_made(kind: ListKind) -> Vec<ListPiece> {
        const KING: &str = "King, K, K, royal";
        // Each game takes the first of these it needs.
        const BIG: [&str; 9] = [
            "Queen, Q, Q",
            "Rook, R, R",
            "Bishop, B, B",
            "Knight, N, N",
            "Camel, CA, C",
            "Cardinal, CD, BN",
            "Chancellor, CH, RN",
            "Grasshopper, G, gQ",
            "Knight-alfil, NA, NA",
        ];
        // Ten pieces of at most 4 squares on an empty board.
        const SMALL: [&str; 10] = [
            "Ferz, F, F",
            "Wazir, W, W",
            "Alfil, AL, A",
            "Dabbabah, DA, D",
            "Threeleaper, H, H",
            "Tripper, TR, G",
            "Pawn, P, fmWfcF, pawn",
            "Chinese pawn, CP, fW, pawn",
            "Fish pawn, FI, fmWfcFbW, pawn",
            "Chinese fish pawn, FC, fWbW, pawn",
        ];
        let lines: Vec<&str> = if kind.has_royal() {
            let big = kind.length() - 1 - SMALL.len();
            std::iter::once(KING)
                .chain(BIG[..big].iter().copied())
                .chain(SMALL)
                .collect()
        } else {
            BIG[..kind.length()].to_vec()
        };
        lines
            .into_iter()
            .map(|line| ListPiece::read(line).expect("the ready-made lists read"))
            .collect()
    }

    /// The list in notation, one word so records keep it whole (spaces in names written `_`,
    /// pieces parted by `/`, since `;` starts a comment in PGN):
    /// `list:King,K,K,royal/Chinese_pawn,CP,fW,pawn/...`.
    pub fn list_notation(pieces: &[ListPiece]) -> String {
        let lines: Vec<String> = pieces
            .iter()
            .map(|piece| piece.to_string().replace(", ", ",").replace(' ', "_"))
            .collect();
        format!("list:{}", lines.join("/"))
    }

    /// Reads a list written in notation, or one piece a line after `list`.
    fn read_list_text(&self, text: &str) -> Result<Vec<ListPiece>, ActionError> {
        let body = text.trim();
        let Some(body) = body
            .strip_prefix("list:")
            .or_else(|| body.strip_prefix("list\n"))
            .or_else(|| body.strip_prefix("list "))
        else {
            return Err(ActionError::unreadable(
                &text.chars().take(60).collect::<String>(),
                format!(
                    "a list starts with `list:` and gives one piece a line (or `;` between pieces): \
                     `name, symbol, betza`, then {} if it is one",
                    self.kind.marks()
                ),
            ));
        };
        // Names never hold `_` or `/`: they stand for a space and a new line.
        let review = lists::review(&body.replace([';', '/'], "\n").replace('_', " "), self.kind);
        review
            .pieces()
            .ok_or_else(|| ActionError::Illegal(format!("your list is refused:\n{}", review.explain())))
    }

    /// Checks a seat may submit a list now: the lists are being written and its own is not
    /// locked (it may be changed until the other's is in).
    fn check_may_submit(&self, seat: Seat) -> Result<(), ActionError> {
        if self.outcome().is_some() {
            return Err(ActionError::GameOver);
        }
        if !self.is_listing() {
            return Err(ActionError::Illegal("both lists are in: they are locked".into()));
        }
        if self.lists[seat.index()].is_none() && !self.to_act().contains(&seat) {
            return Err(ActionError::NotYourTurn);
        }
        Ok(())
    }

    /// Records `seat`'s list, and once both are in reveals them and starts the picking.
    fn submit(&mut self, seat: Seat, pieces: Vec<ListPiece>) {
        let is_revision = self.lists[seat.index()].is_some();
        let is_last = self.lists[seat.other().index()].is_some();
        // (A list can only be changed while the other is still to come.)
        let said = if is_last {
            "submitted a list: both lists are in and revealed, and the picking begins"
        } else if is_revision {
            "changed their list"
        } else {
            "submitted a list"
        };
        self.list_record.push_entry(Entry {
            secrecy: Secrecy::Own {
                shown: if is_revision { HIDDEN_REVISION } else { HIDDEN_LIST }.into(),
            },
            said: Some(said.into()),
            is_move: false,
            ..Entry::public(seat, OwnPiecesGame::list_notation(&pieces))
        });
        self.lists[seat.index()] = Some(pieces);
        if let [Some(first), Some(second)] = &self.lists {
            // A player's earlier lists stay theirs: only the final two are revealed.
            let finals: Vec<usize> = Seat::BOTH
                .iter()
                .filter_map(|&s| self.list_record.entries().iter().rposition(|e| e.seat == s))
                .collect();
            let (variant, pool) = game_variant(self.kind, first, second);
            self.play = Some(PickTheTeamGame::with_pool(Arc::new(variant), pool));
            for index in finals {
                self.list_record.reveal_entry(index);
            }
        }
    }

    /// The board while the lists are written: empty, or Easy Patch's kings and pawns.
    fn waiting_core(&self) -> ChessCore {
        let variant = Variant::compile(base_def(self.kind)).expect("the base variants compile");
        let position = variant.start_position();
        ChessCore::new(Arc::new(variant), position)
    }
}

impl Game for OwnPiecesGame {
    fn variant_id(&self) -> &str {
        self.kind.id()
    }
    fn phase(&self) -> Phase {
        match (&self.play, &self.outcome) {
            (_, Some(_)) => Phase::Finished,
            (Some(play), None) => play.phase(),
            (None, None) => Phase::SealedChoice,
        }
    }
    fn to_act(&self) -> Vec<Seat> {
        match &self.play {
            _ if self.outcome.is_some() => Vec::new(),
            Some(play) => play.to_act(),
            None => Seat::BOTH
                .into_iter()
                .filter(|seat| self.lists[seat.index()].is_none())
                .collect(),
        }
    }
    fn may_revise(&self, seat: Seat) -> bool {
        self.is_listing() && self.lists[seat.index()].is_some()
    }
    fn is_mid_turn(&self, seat: Seat) -> bool {
        self.play.as_ref().is_some_and(|play| play.is_mid_turn(seat))
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        match &self.play {
            _ if self.outcome.is_some() => Vec::new(),
            Some(play) => play.legal_actions(seat),
            None if self.to_act().contains(&seat) => vec![Action::SubmitList {
                pieces: OwnPiecesGame::ready_made(self.kind),
            }],
            None => Vec::new(),
        }
    }
    fn noted_actions(&self, seat: Seat) -> Vec<(Action, String)> {
        match &self.play {
            // Once the lists are in, the game's own pass: noting each pick on its own would
            // rebuild every pick each time.
            Some(play) if self.outcome.is_none() => play.noted_actions(seat),
            _ => self
                .legal_actions(seat)
                .into_iter()
                .map(|action| {
                    let text = self.notation(seat, &action);
                    (action, text)
                })
                .collect(),
        }
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        match &self.play {
            Some(play) if self.outcome.is_none() => play.parse_action(seat, text),
            _ => {
                self.check_may_submit(seat)?;
                let body = text.trim();
                if !body.starts_with("list") {
                    // Not a list at all (a move, say): while the lists are written, say where the
                    // game stands rather than how a list is spelt.
                    let now = if self.lists[seat.index()].is_some() {
                        "your list is in; the picking begins once your opponent's is in (until then you may send a \
                         corrected list)"
                    } else {
                        "first each player sends a list of pieces: yours is still to come"
                    };
                    return Err(ActionError::Illegal(format!(
                        "\"{}\" is not a list of pieces, and {now}",
                        body.chars().take(60).collect::<String>()
                    )));
                }
                self.read_list_text(text).map(|pieces| Action::SubmitList { pieces })
            }
        }
    }
    fn notation(&self, seat: Seat, action: &Action) -> String {
        match (action, &self.play) {
            (Action::SubmitList { pieces }, _) => OwnPiecesGame::list_notation(pieces),
            (_, Some(play)) => play.notation(seat, action),
            (other, None) => format!("{other:?}"),
        }
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        if let Some(play) = &mut self.play {
            if self.outcome.is_some() {
                return Err(ActionError::GameOver);
            }
            return play.apply(seat, action);
        }
        self.check_may_submit(seat)?;
        let Action::SubmitList { pieces } = action else {
            return Err(ActionError::Illegal(
                "the lists come first: submit yours before anything else".into(),
            ));
        };
        let report = lists::check_list(pieces, self.kind);
        if !report.is_accepted() {
            return Err(ActionError::Illegal(format!(
                "your list is refused:\n{}",
                report.explain(None)
            )));
        }
        self.submit(seat, pieces.clone());
        Ok(())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome
            .as_ref()
            .or_else(|| self.play.as_ref().and_then(|play| play.outcome()))
    }
    fn conclude(&mut self, outcome: Outcome) {
        match &mut self.play {
            Some(play) if self.outcome.is_none() => play.conclude(outcome),
            _ => {
                self.outcome.get_or_insert(outcome);
            }
        }
    }
    fn can_take_back(&self, action: &Action) -> bool {
        !matches!(action, Action::SubmitList { .. })
    }
    fn view(&self, viewer: Viewer) -> View {
        let mut view = match &self.play {
            Some(play) => play.view(viewer),
            None => {
                let mut view =
                    self.waiting_core()
                        .base_view(viewer, self.phase(), self.to_act(), self.outcome.as_ref());
                view.notes = self.notes(viewer);
                if let Viewer::Seat(seat) = viewer {
                    view.prompt = self.list_prompt(seat);
                }
                view
            }
        };
        view.record = self.record(viewer);
        view
    }
    fn sight(&self, viewer: Viewer) -> View {
        match &self.play {
            Some(play) if self.outcome.is_none() => play.sight(viewer),
            _ => self.view(viewer),
        }
    }
    fn sight_into(&self, viewer: Viewer, view: &mut View) {
        match &self.play {
            Some(play) if self.outcome.is_none() => play.sight_into(viewer, view),
            _ => *view = self.view(viewer),
        }
    }
    // Once the lists are in, they are fixed and the game goes on from its play alone: the
    // search reads the play's key, passes and guards.
    fn search_key(&self) -> Option<u64> {
        self.in_play()?.search_key()
    }
    // The lists' record is written before the play begins; the play's stops with it.
    fn stop_writing(&mut self) {
        if let Some(play) = &mut self.play {
            play.stop_writing();
        }
    }
    fn pass_in_search(&mut self) -> bool {
        match &mut self.play {
            Some(play) if self.outcome.is_none() => play.pass_in_search(),
            _ => false,
        }
    }
    fn guarded(&self, board: u8, square: Square, by: Seat) -> Option<bool> {
        self.in_play()?.guarded(board, square, by)
    }
    fn gives_check(&self, seat: Seat, action: &Action) -> Option<bool> {
        self.in_play()?.gives_check(seat, action)
    }
    fn search_captures(&self, seat: Seat) -> Option<Vec<Action>> {
        self.in_play()?.search_captures(seat)
    }
    /// The submissions of lists, then the record of the picking and play.
    fn record(&self, viewer: Viewer) -> Vec<RecordEntry> {
        let mut record = self.list_record.visible(viewer, self.outcome().is_some());
        if let Some(play) = &self.play {
            record.extend(play.record(viewer));
        }
        record
    }
    fn notes(&self, viewer: Viewer) -> Vec<String> {
        if let Some(play) = &self.play {
            return play.notes(viewer);
        }
        let mut notes = Vec::new();
        for seat in Seat::BOTH {
            let state = if self.lists[seat.index()].is_some() {
                "has submitted a list"
            } else {
                "is writing a list"
            };
            notes.push(format!("{} {state}", seat.color().name()));
        }
        if let Viewer::Seat(seat) = viewer
            && self.outcome.is_none()
            && !self.to_act().contains(&seat)
        {
            notes.push("You can change your list until your opponent's is in.".into());
        }
        notes
    }
    fn has_prompt(&self, seat: Seat) -> bool {
        match &self.play {
            Some(play) => play.has_prompt(seat),
            None => self.asks_for_list(seat),
        }
    }
    fn notice(&self, seat: Seat) -> Option<String> {
        self.play.as_ref().and_then(|play| play.notice(seat))
    }
}

impl OwnPiecesGame {
    /// The picking and play, once both lists are in and while the game goes on.
    fn in_play(&self) -> Option<&PickTheTeamGame> {
        self.play.as_ref().filter(|_| self.outcome.is_none())
    }

    /// Whether `seat` is asked for its list: the lists are being written and its own is not in.
    fn asks_for_list(&self, seat: Seat) -> bool {
        self.play.is_none() && self.outcome.is_none() && self.to_act().contains(&seat)
    }

    /// The prompt of a seat asked for its list.
    fn list_prompt(&self, seat: Seat) -> Option<Prompt> {
        self.asks_for_list(seat).then(|| Prompt {
            kind: PromptKind::List,
            text: format!(
                "Send your list of {}: one piece a line, `name, symbol, betza`, then {} if it is one.",
                self.kind.describe_length(),
                self.kind.marks()
            ),
            choices: Vec::new(),
        })
    }
}

impl OwnPiecesGame {
    /// Counts the leaf nodes of the action tree to `depth` (the lists, then picks and moves).
    pub fn perft(&self, depth: u32) -> u64 {
        match &self.play {
            Some(play) if self.outcome.is_none() => play.perft(depth),
            _ => crate::variants::generic_perft(self, depth),
        }
    }
}

/// What is on the board before the picks, and the rules of play: Pick-the-team's (no castling,
/// no en passant, pawns' row-based multi-steps); Easy Patch adds FIDE's kings and pawns, with
/// their double step and en passant.
fn base_def(kind: ListKind) -> VariantDef {
    let size = kind.size();
    let empty = vec![size.files.to_string(); size.ranks as usize].join("/");
    let is_easy = kind == ListKind::EasyPatch;
    VariantDef {
        id: kind.id().into(),
        name: kind.name().into(),
        files: size.files,
        ranks: size.ranks,
        start: if is_easy {
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1".into()
        } else {
            format!("{empty} w - - 0 1")
        },
        // Spelled out, as the game stores them.
        pieces: if is_easy {
            ["king", "pawn"]
                .into_iter()
                .map(|id| PieceSpec::Inline(catalogue::find(id).expect("FIDE's king and pawn are in the catalogue")))
                .collect()
        } else {
            Vec::new()
        },
        castling: false,
        en_passant: is_easy,
        initial_move_ranks: if is_easy { vec![2] } else { Vec::new() },
        promotion_choices: Vec::new(),
        draws: DrawRules {
            insufficient_material: false,
            ..DrawRules::default()
        },
        stalemate: Default::default(),
    }
}

/// The variant the lists make, and the pool: every listed piece a type (a piece both players
/// listed alike is one type, picked twice), each with a symbol of its own (a later piece whose
/// symbol is taken gets one from its name), marked pawns promoting to the non-royal unmarked
/// types.
pub fn game_variant(kind: ListKind, first: &[ListPiece], second: &[ListPiece]) -> (Variant, Vec<Kind>) {
    let mut def = base_def(kind);
    let mut taken: Vec<String> = if kind == ListKind::EasyPatch {
        vec!["K".into(), "P".into()]
    } else {
        Vec::new()
    };
    let base_kinds = taken.len();
    let mut types: Vec<(ListPiece, PieceDef)> = Vec::new();
    let mut pool: Vec<Kind> = Vec::new();
    for (seat, list) in [("w", first), ("b", second)] {
        for (index, piece) in list.iter().enumerate() {
            if let Some(existing) = types.iter().position(|(listed, _)| listed == piece) {
                pool.push((base_kinds + existing) as Kind);
                continue;
            }
            let mut own = piece.clone();
            if taken.contains(&own.symbol) {
                own.symbol = free_symbol(&own.name, &taken);
            }
            taken.push(own.symbol.clone());
            let def = own.def(&format!("{LISTED_PIECE_ID}{seat}{}", index + 1));
            pool.push((base_kinds + types.len()) as Kind);
            types.push((piece.clone(), def));
        }
    }
    def.promotion_choices = types
        .iter()
        .filter(|(listed, _)| !listed.is_royal && !listed.is_pawn)
        .map(|(_, def)| def.symbol)
        .collect();
    def.pieces
        .extend(types.into_iter().map(|(_, def)| PieceSpec::Inline(def)));
    pool.sort_unstable();
    let variant = Variant::compile(def).expect("checked lists make a variant");
    (variant, pool)
}

/// A symbol for a piece whose own is taken: its name's initials, its first letters, or its first
/// letter with another.
fn free_symbol(name: &str, taken: &[String]) -> String {
    let letters: Vec<char> = name
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let initials: String = name
        .split([' ', '-', '\''])
        .filter_map(|word| word.chars().find(char::is_ascii_alphabetic))
        .map(|c| c.to_ascii_uppercase())
        .take(3)
        .collect();
    let first: String = letters.iter().take(1).collect();
    let two: String = letters.iter().take(2).collect();
    let three: String = letters.iter().take(3).collect();
    let alphabet = 'A'..='Z';
    let candidates = [initials, two, three]
        .into_iter()
        .chain(alphabet.clone().map(|c| format!("{first}{c}")))
        .chain(
            alphabet
                .clone()
                .flat_map(|a| alphabet.clone().map(move |b| format!("{a}{b}"))),
        );
    candidates
        .filter(|c| Symbol::new(c).is_some())
        .find(|c| !taken.contains(c))
        .expect("a two-letter symbol is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_symbol_gives_way_to_one_from_the_name() {
        let taken = vec!["G".to_string(), "GI".to_string()];
        assert_eq!(free_symbol("Giraffe", &taken), "GIR");
        assert_eq!(free_symbol("Great horse", &taken), "GH");
        assert_eq!(free_symbol("G", &taken), "GA");
    }

    #[test]
    fn the_ready_made_lists_keep_every_rule() {
        for kind in [ListKind::PickTheTeam2, ListKind::Patch, ListKind::EasyPatch] {
            let list = OwnPiecesGame::ready_made(kind);
            let report = lists::check_list(&list, kind);
            assert!(report.is_accepted(), "{kind:?}: {}", report.explain(None));
        }
    }
}
