//! The games Arbiter hosts: one line each in the registry below (a stable id, a name, the rules
//! page, the game type), and one closed enum for dispatch generated from it.

pub mod assault;
pub mod beirut;
pub mod blockade;
pub mod chess;
pub mod circe;
pub mod ctf;
pub mod domination;
pub mod knights_are_god;
pub mod own_pieces;
pub mod pick_the_team;
pub mod portal;
pub mod rejection;
pub mod ultimate_battle;

use crate::fen::FenError;
use crate::game::{Action, ActionError, Game, Outcome, Phase, Seat, Timeout, Viewer};
use crate::variant::Variant;
use crate::view::View;
use assault::AssaultGame;
use beirut::BeirutGame;
use blockade::BlockadeGame;
use chess::ChessGame;
use circe::Circe;
use ctf::CtfGame;
use domination::DominationGame;
use knights_are_god::KnightsAreGod;
use own_pieces::OwnPiecesGame;
use pick_the_team::PickTheTeamGame;
use portal::Portals;
use rejection::RejectionGame;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use ultimate_battle::UltimateBattle;

/// What a game type offers the registry: a game of one of its hosted variants, from the start
/// or from a position, and a perft count.
pub trait Hosted: Game + Clone + Sized {
    fn start(id: VariantId) -> Self;
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError>;

    /// Counts the leaf nodes of the action tree to `depth` (see [`generic_perft`]).
    fn perft(&self, depth: u32) -> u64 {
        generic_perft(self, depth)
    }
}

/// Counts the leaf nodes of a game's action tree to `depth`, through its legal actions: the
/// first seat to act moves at each node (so a simultaneous choice is taken in seat order, the
/// first seat's first).
pub fn generic_perft<G: Game + Clone>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some(&seat) = game.to_act().first() else {
        return 0;
    };
    let actions = game.legal_actions(seat);
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|action| {
            let mut next = game.clone();
            next.apply(seat, action).expect("legal actions apply");
            generic_perft(&next, depth - 1)
        })
        .sum()
}

/// What the registry knows of a hosted variant besides its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    pub id: &'static str,
    pub name: &'static str,
    /// The rules as Arbiter plays them, as players read them (docs/rules/).
    pub rules_page: &'static str,
    /// Whether hosts may run timed Death Matches of it.
    pub has_death_matches: bool,
}

macro_rules! registry {
    ($( $variant:ident => $id:literal, $name:literal, $page:literal, $game:ty, death_matches: $dm:literal; )*) => {
        /// A hosted game's variant. The string ids are stored in the database: never rename one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum VariantId {
            $( #[serde(rename = $id)] $variant, )*
        }

        impl VariantId {
            pub const ALL: &[VariantId] = &[ $( VariantId::$variant, )* ];

            pub fn info(self) -> VariantInfo {
                match self {
                    $( VariantId::$variant => VariantInfo {
                        id: $id,
                        name: $name,
                        rules_page: include_str!(concat!("../../../docs/rules/", $page)),
                        has_death_matches: $dm,
                    }, )*
                }
            }
        }

        /// Any game, for code that handles games without knowing their variant. Serialised (the
        /// stored snapshot of a game) tagged with its variant id.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "game")]
        pub enum AnyGame {
            $( #[serde(rename = $id)] $variant($game), )*
            /// A chess-like game of a variant read from a file (the command line's `--variant-file`).
            #[serde(rename = "custom")]
            Custom(ChessGame),
        }

        macro_rules! dispatch {
            ($self_:expr, $g:ident => $body:expr) => {
                match $self_ {
                    $( AnyGame::$variant($g) => $body, )*
                    AnyGame::Custom($g) => $body,
                }
            };
        }

        impl AnyGame {
            /// A new game of a hosted variant from its start.
            pub fn new(id: VariantId) -> AnyGame {
                match id {
                    $( VariantId::$variant => AnyGame::$variant(<$game as Hosted>::start(id)), )*
                }
            }

            /// A game of a hosted variant from a position (docs/fen.md).
            pub fn from_fen(id: VariantId, fen: &str) -> Result<AnyGame, FenError> {
                Ok(match id {
                    $( VariantId::$variant => AnyGame::$variant(<$game as Hosted>::from_fen(id, fen)?), )*
                })
            }
        }
    };
}

registry! {
    Chess => "chess", "Chess", "chess.md", ChessGame, death_matches: false;
    Blockade => "blockade", "Blockade Chess", "blockade.md", BlockadeGame, death_matches: true;
    Garden => "garden", "Garden of Statues", "blockade.md", BlockadeGame, death_matches: true;
    Beirut => "beirut", "Beirut Chess", "beirut.md", BeirutGame, death_matches: false;
    Circe => "circe", "Circe Chess", "circe.md", ChessGame<Circe>, death_matches: false;
    Portal => "portal", "Portal Chess", "portal.md", ChessGame<Portals>, death_matches: false;
    KnightsAreGod => "knights-are-god", "Knights are God", "knights-are-god.md", ChessGame<KnightsAreGod>, death_matches: false;
    Domination => "domination", "Domination Chess", "domination.md", DominationGame, death_matches: false;
    UltimateBattle => "ultimate-battle", "Ultimate Battle Chess", "ultimate-battle.md", ChessGame<UltimateBattle>, death_matches: false;
    PickTheTeam => "pick-the-team", "Pick-the-team Chess", "pick-the-team.md", PickTheTeamGame, death_matches: false;
    Assault => "assault", "Assault Chess", "assault.md", AssaultGame, death_matches: false;
    Rejection => "rejection", "Rejection Chess", "rejection.md", RejectionGame, death_matches: false;
    Ctf => "ctf", "Capture the Flag", "ctf.md", CtfGame, death_matches: false;
    PickTheTeam2 => "pick-the-team-2", "Pick-the-team Chess 2 (own lists)", "pick-the-team-2.md", OwnPiecesGame, death_matches: false;
    Patch => "patch", "Patch Chess", "patch.md", OwnPiecesGame, death_matches: false;
    EasyPatch => "easy-patch", "Easy Patch Chess", "easy-patch.md", OwnPiecesGame, death_matches: false;
}

// The game types of the registry. (Here rather than in their files, so no game file depends on
// the registry.)

impl<R: crate::rules::Rules + Default + Clone> Hosted for ChessGame<R> {
    fn start(id: VariantId) -> Self {
        ChessGame::new(built_in(id))
    }
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError> {
        ChessGame::from_fen(built_in(id), fen)
    }
    fn perft(&self, depth: u32) -> u64 {
        ChessGame::perft(self, depth)
    }
}

/// The built-in variant file a hosted chess-like game is played with: the one of its own id.
fn built_in(id: VariantId) -> Arc<Variant> {
    Variant::built_in(id.as_str()).unwrap_or_else(|| panic!("{id} has a built-in variant file"))
}

impl Hosted for BlockadeGame {
    fn start(id: VariantId) -> Self {
        BlockadeGame::new(blockade_style(id))
    }
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError> {
        BlockadeGame::from_fen_styled(blockade_style(id), fen)
    }
    fn perft(&self, depth: u32) -> u64 {
        BlockadeGame::perft(self, depth)
    }
}

fn blockade_style(id: VariantId) -> blockade::Style {
    match id {
        VariantId::Garden => blockade::Style::Garden,
        _ => blockade::Style::Blockade,
    }
}

impl Hosted for BeirutGame {
    fn start(_: VariantId) -> Self {
        BeirutGame::new()
    }
    fn from_fen(_: VariantId, fen: &str) -> Result<Self, FenError> {
        BeirutGame::from_fen(fen)
    }
}

impl Hosted for RejectionGame {
    fn start(_: VariantId) -> Self {
        RejectionGame::new()
    }
    fn from_fen(_: VariantId, fen: &str) -> Result<Self, FenError> {
        RejectionGame::from_fen(fen)
    }
}

impl Hosted for CtfGame {
    fn start(id: VariantId) -> Self {
        CtfGame::new(built_in(id))
    }
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError> {
        CtfGame::from_fen(built_in(id), fen)
    }
}

impl Hosted for DominationGame {
    fn start(id: VariantId) -> Self {
        DominationGame::new(built_in(id))
    }
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError> {
        DominationGame::from_fen(built_in(id), fen)
    }
    fn perft(&self, depth: u32) -> u64 {
        DominationGame::perft(self, depth)
    }
}

impl Hosted for PickTheTeamGame {
    fn start(id: VariantId) -> Self {
        PickTheTeamGame::new(built_in(id))
    }
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError> {
        PickTheTeamGame::from_fen(built_in(id), fen)
    }
    fn perft(&self, depth: u32) -> u64 {
        PickTheTeamGame::perft(self, depth)
    }
}

impl Hosted for OwnPiecesGame {
    fn start(id: VariantId) -> Self {
        OwnPiecesGame::new(list_kind(id))
    }
    /// A game of players' lists starts from the lists, never from a position.
    fn from_fen(id: VariantId, _: &str) -> Result<Self, FenError> {
        Err(FenError::Boards(format!(
            "{} starts from the players' lists, not from a position",
            id.info().name
        )))
    }
    fn perft(&self, depth: u32) -> u64 {
        OwnPiecesGame::perft(self, depth)
    }
}

fn list_kind(id: VariantId) -> crate::lists::ListKind {
    match id {
        VariantId::Patch => crate::lists::ListKind::Patch,
        VariantId::EasyPatch => crate::lists::ListKind::EasyPatch,
        _ => crate::lists::ListKind::PickTheTeam2,
    }
}

impl Hosted for AssaultGame {
    fn start(id: VariantId) -> Self {
        AssaultGame::new(built_in(id))
    }
    fn from_fen(id: VariantId, fen: &str) -> Result<Self, FenError> {
        AssaultGame::from_fen(built_in(id), fen)
    }
    fn perft(&self, depth: u32) -> u64 {
        AssaultGame::perft(self, depth)
    }
}

impl VariantId {
    pub fn as_str(self) -> &'static str {
        self.info().id
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn parse(text: &str) -> Option<VariantId> {
        let text = text.trim().to_ascii_lowercase();
        VariantId::ALL.iter().copied().find(|id| id.as_str() == text)
    }

    /// The variant's rules page, as players read it in chat: the page up to [`CHAT_PAGE_END`]
    /// (what follows, such as a table of piece diagrams, is for reading in the repository).
    pub fn rules_page(self) -> &'static str {
        let page = self.info().rules_page;
        page.split(CHAT_PAGE_END).next().unwrap_or(page).trim_end()
    }
}

/// The line of a rules page after which the page is for the repository only.
pub const CHAT_PAGE_END: &str = "<!-- The rest of this page is for reading in the repository. -->";

impl std::fmt::Display for VariantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl AnyGame {
    /// A game of a variant read from a file, from its start or from a position.
    pub fn custom(variant: Arc<Variant>, fen: Option<&str>) -> Result<AnyGame, FenError> {
        Ok(AnyGame::Custom(match fen {
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

    /// The kind of list a game of players' own pieces takes; `None` for other games.
    pub fn list_kind(&self) -> Option<crate::lists::ListKind> {
        match self {
            AnyGame::PickTheTeam2(game) | AnyGame::Patch(game) | AnyGame::EasyPatch(game) => Some(game.kind()),
            _ => None,
        }
    }

    /// Counts the leaf nodes of the action tree to `depth` (see [`Hosted::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, g => g.perft(depth))
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
    fn noted_actions(&self, seat: Seat) -> Vec<(Action, String)> {
        dispatch!(self, g => g.noted_actions(seat))
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
    fn on_timeout(&self, seat: Seat) -> Timeout {
        dispatch!(self, g => g.on_timeout(seat))
    }
    fn is_mid_turn(&self, seat: Seat) -> bool {
        dispatch!(self, g => g.is_mid_turn(seat))
    }
    fn may_revise(&self, seat: Seat) -> bool {
        dispatch!(self, g => g.may_revise(seat))
    }
    fn can_take_back(&self, action: &Action) -> bool {
        dispatch!(self, g => g.can_take_back(action))
    }
    fn takeback_plies(&self, asker: Seat, history: &[(Seat, Action)]) -> Result<usize, ActionError> {
        dispatch!(self, g => g.takeback_plies(asker, history))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rules_page_has_a_title_and_fits_in_a_chat_embed() {
        for &id in VariantId::ALL {
            let page = id.rules_page();
            assert!(page.starts_with("# "), "{id}: a title first");
            // Discord shows an embed's description up to 4096 characters.
            assert!(page.chars().count() < 4096, "{id}: {} characters", page.chars().count());
            assert!(page.lines().count() > 5, "{id}: the page says more than its title");
        }
    }
}
