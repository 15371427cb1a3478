//! The games Arbiter hosts: stable ids and one closed enum for dispatch.

pub mod beirut;
pub mod blockade;
pub mod chess;

use crate::game::{Action, ActionError, Game, Outcome, Phase, Seat, View, Viewer};
use crate::position::FenError;
use crate::variant::Variant;
use beirut::BeirutGame;
use blockade::{BlockadeGame, Style};
use chess::ChessGame;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A hosted game's variant. The string ids are stored in the database: never rename one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VariantId {
    Chess,
    Blockade,
    Garden,
    Beirut,
}

impl VariantId {
    pub const ALL: [VariantId; 4] = [
        VariantId::Chess,
        VariantId::Blockade,
        VariantId::Garden,
        VariantId::Beirut,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            VariantId::Chess => "chess",
            VariantId::Blockade => "blockade",
            VariantId::Garden => "garden",
            VariantId::Beirut => "beirut",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            VariantId::Chess => "Chess",
            VariantId::Blockade => "Blockade Chess",
            VariantId::Garden => "Garden of Statues",
            VariantId::Beirut => "Beirut Chess",
        }
    }

    pub fn parse(text: &str) -> Option<VariantId> {
        VariantId::ALL
            .into_iter()
            .find(|id| id.as_str() == text.trim().to_ascii_lowercase())
    }

    /// The variant's rules page, as players read it.
    pub fn rules_page(self) -> &'static str {
        match self {
            VariantId::Chess => include_str!("../../../docs/rules/chess.md"),
            VariantId::Blockade | VariantId::Garden => {
                include_str!("../../../docs/rules/blockade.md")
            }
            VariantId::Beirut => include_str!("../../../docs/rules/beirut.md"),
        }
    }
}

impl std::fmt::Display for VariantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Any game, for code that handles games without knowing their variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "kebab-case")]
pub enum AnyGame {
    Chess(ChessGame),
    Blockade(BlockadeGame),
    Beirut(BeirutGame),
}

macro_rules! dispatch {
    ($self:expr, $game:ident => $body:expr) => {
        match $self {
            AnyGame::Chess($game) => $body,
            AnyGame::Blockade($game) => $body,
            AnyGame::Beirut($game) => $body,
        }
    };
}

impl AnyGame {
    /// A new game of a hosted variant from its start.
    pub fn new(id: VariantId) -> AnyGame {
        match id {
            VariantId::Chess => AnyGame::Chess(ChessGame::new(Variant::fide())),
            VariantId::Blockade => AnyGame::Blockade(BlockadeGame::new(Style::Blockade)),
            VariantId::Garden => AnyGame::Blockade(BlockadeGame::new(Style::Garden)),
            VariantId::Beirut => AnyGame::Beirut(BeirutGame::new()),
        }
    }

    /// A game of a hosted variant from a position (docs/fen.md).
    pub fn from_fen(id: VariantId, fen: &str) -> Result<AnyGame, FenError> {
        Ok(match id {
            VariantId::Chess => AnyGame::Chess(ChessGame::from_fen(Variant::fide(), fen)?),
            VariantId::Blockade => AnyGame::Blockade(BlockadeGame::from_fen_styled(Style::Blockade, fen)?),
            VariantId::Garden => AnyGame::Blockade(BlockadeGame::from_fen_styled(Style::Garden, fen)?),
            VariantId::Beirut => AnyGame::Beirut(BeirutGame::from_fen(fen)?),
        })
    }

    /// A game of a variant read from a file, from its start or from a position.
    pub fn custom(variant: Arc<Variant>, fen: Option<&str>) -> Result<AnyGame, FenError> {
        Ok(AnyGame::Chess(match fen {
            Some(fen) => ChessGame::from_fen(variant, fen)?,
            None => ChessGame::new(variant),
        }))
    }

    /// Applies a logged sequence of actions to a start state: the log is the truth, and this is
    /// how a game's state is rebuilt from it.
    pub fn replay(start: &AnyGame, log: &[(Seat, Action)]) -> Result<AnyGame, (usize, ActionError)> {
        let mut game = start.clone();
        for (index, (seat, action)) in log.iter().enumerate() {
            game.apply(*seat, action).map_err(|e| (index, e))?;
        }
        Ok(game)
    }

    /// Counts the leaf nodes of the action tree to `depth`: the first seat to act moves at each
    /// node (so a simultaneous choice is taken in seat order, White's first).
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            AnyGame::Chess(game) => game.perft(depth),
            AnyGame::Blockade(game) => game.perft(depth),
            AnyGame::Beirut(_) => self.generic_perft(depth),
        }
    }

    fn generic_perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let Some(&seat) = self.to_act().first() else {
            return 0;
        };
        let actions = self.legal_actions(seat);
        if depth == 1 {
            return actions.len() as u64;
        }
        actions
            .iter()
            .map(|action| {
                let mut next = self.clone();
                next.apply(seat, action).expect("legal actions apply");
                next.generic_perft(depth - 1)
            })
            .sum()
    }
}

impl Game for AnyGame {
    fn variant_id(&self) -> &str {
        dispatch!(self, g => g.variant_id())
    }
    fn phase(&self) -> Phase {
        dispatch!(self, g => g.phase())
    }
    fn to_act(&self) -> Vec<Seat> {
        dispatch!(self, g => g.to_act())
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        dispatch!(self, g => g.legal_actions(seat))
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        dispatch!(self, g => g.parse_action(seat, text))
    }
    fn notation(&self, seat: Seat, action: &Action) -> String {
        dispatch!(self, g => g.notation(seat, action))
    }
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        dispatch!(self, g => g.apply(seat, action))
    }
    fn outcome(&self) -> Option<&Outcome> {
        dispatch!(self, g => g.outcome())
    }
    fn conclude(&mut self, outcome: Outcome) {
        dispatch!(self, g => g.conclude(outcome))
    }
    fn view(&self, viewer: Viewer) -> View {
        dispatch!(self, g => g.view(viewer))
    }
}
