//! The games players' lists are for, and the limits their rules set.

use crate::geometry::BoardSize;
use serde::{Deserialize, Serialize};

/// Which game a list is for: its board, its length and its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListKind {
    /// Pick-the-team version two: 20 pieces, 10x10.
    PickTheTeam2,
    /// 16 pieces, 8x8.
    Patch,
    /// 7 non-royal pieces, 8x8, beside FIDE kings and pawns.
    EasyPatch,
}

impl ListKind {
    /// The game's id in the registry.
    pub fn id(self) -> &'static str {
        match self {
            ListKind::PickTheTeam2 => "pick-the-team-2",
            ListKind::Patch => "patch",
            ListKind::EasyPatch => "easy-patch",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ListKind::PickTheTeam2 => "Pick-the-team Chess 2 (own lists)",
            ListKind::Patch => "Patch Chess",
            ListKind::EasyPatch => "Easy Patch Chess",
        }
    }

    /// What a list of this game holds, in words: "20 pieces, one of them royal".
    pub fn describe_length(self) -> String {
        if self.has_royal() {
            format!("{} pieces, exactly one of them royal", self.length())
        } else {
            format!("{} non-royal pieces", self.length())
        }
    }

    /// The marks a piece of this game's lists may carry, as a player writes them: Easy Patch
    /// lists hold no royal piece, so there only `pawn`.
    pub fn marks(self) -> &'static str {
        if self.has_royal() {
            "`royal` or `pawn`"
        } else {
            "`pawn`"
        }
    }

    pub fn size(self) -> BoardSize {
        match self {
            ListKind::PickTheTeam2 => BoardSize { files: 10, ranks: 10 },
            ListKind::Patch | ListKind::EasyPatch => BoardSize { files: 8, ranks: 8 },
        }
    }

    /// How many pieces a list holds.
    pub fn length(self) -> usize {
        match self {
            ListKind::PickTheTeam2 => 20,
            ListKind::Patch => 16,
            ListKind::EasyPatch => 7,
        }
    }

    /// Whether a list holds exactly one royal piece (Easy Patch's kings are FIDE's).
    pub fn has_royal(self) -> bool {
        self != ListKind::EasyPatch
    }

    /// Whether a list's pieces must all differ (Easy Patch lists may hold the same piece twice,
    /// under two symbols: only the per-piece rules apply there).
    pub fn has_distinct_pieces(self) -> bool {
        self != ListKind::EasyPatch
    }

    /// How many pieces must reach at most [`SMALL_PIECE`] squares on an empty board.
    pub fn small_pieces(self) -> usize {
        match self {
            ListKind::PickTheTeam2 | ListKind::Patch => 10,
            ListKind::EasyPatch => 0,
        }
    }

    /// Ranks (from the owner's side) where `i` moves apply: Easy Patch's FIDE pawns double-step
    /// from their second rank; the other games' pawns step by rows instead.
    pub(super) fn initial_move_ranks(self) -> Vec<u8> {
        match self {
            ListKind::EasyPatch => vec![2],
            _ => Vec::new(),
        }
    }
}

/// The most squares a piece may reach on an empty board.
pub const MOST_SQUARES: usize = 40;
/// A "small" piece reaches at most this many squares on an empty board.
pub const SMALL_PIECE: usize = 4;
/// The most squares a royal piece may reach in any position.
pub const ROYAL_SQUARES: usize = 8;
/// The longest Betza string read, name and list.
pub const LONGEST_BETZA: usize = 40;
pub const LONGEST_NAME: usize = 30;
pub const MOST_LINES: usize = 60;
