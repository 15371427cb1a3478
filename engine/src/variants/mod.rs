//! The games Arbiter hosts: one line each in the registry below (a stable id, a name, the rules
//! page, the game type, the variant file it is played with), and what is generated from it: the
//! ids, one closed enum for dispatch, and the built-in variant files.

pub mod assault;
pub mod beirut;
pub mod blockade;
pub mod chess;
pub mod chess_based;
pub mod circe;
pub mod ctf;
pub mod domination;
pub mod knights_are_god;
pub mod own_pieces;
pub mod pick_the_team;
pub mod portal;
pub mod rejection;
pub mod stored_variant;
pub mod ultimate_battle;

use crate::applied::{self, Applied};
use crate::fen::FenError;
use crate::game::{Action, ActionError, Game, Outcome, Phase, Seat, Timeout, Viewer};
use crate::geometry::Square;
use crate::lists::ListKind;
use crate::start::{Start, StartError, StartRefusal};
use crate::variant_file::Variant;
use crate::view::{RecordEntry, View};
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
use std::sync::{Arc, OnceLock};
use ultimate_battle::UltimateBattle;

/// What a game type offers the registry: a game of one of its hosted variants, from the start
/// or from a position, and a perft count.
pub trait Hosted: Game + Clone + Sized {
    /// What a registry line gives the type besides its variant file, to tell apart the games it
    /// plays (a style, a kind of list); `()` for a type that needs nothing more.
    type Setting: Copy;

    /// A game from its start; `line` is the registry line's variant file and setting.
    fn start(line: Line<Self::Setting>) -> Self;
    fn from_fen(line: Line<Self::Setting>, fen: &str) -> Result<Self, FenError>;

    /// Whether a game can start here, read from `fen` a player gave (RULES.md, "Start positions
    /// that players give"): the game's own rules of a start (its royals, pawns, secret choices
    /// still to make, ...), in a player's words; with notes for the game's first post of what
    /// was changed on the way (castling rights dropped). A position already over is refused by
    /// the caller, [`AnyGame::from_players_fen`], for every game alike.
    fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal>;

    /// Counts the leaf nodes of the action tree to `depth` (see [`generic_perft`]).
    fn perft(&self, depth: u32) -> u64 {
        generic_perft(self, depth)
    }
}

/// What a registry line gives the game type it names.
pub struct Line<S> {
    pub id: VariantId,
    /// The variant file the game is played with (every line has one but the players' own lists).
    pub file: Option<Arc<Variant>>,
    pub setting: S,
}

impl<S> Line<S> {
    /// The line's variant file, for a game type that cannot do without one. Every line that names
    /// such a type gives one (a registry test starts every game).
    fn file(&self) -> Arc<Variant> {
        self.file
            .clone()
            .unwrap_or_else(|| panic!("the registry line of {} names a variant file", self.id))
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
    /// The name of the variant file (engine/variants/<name>.toml, whose `id` is that name) the
    /// game is played with, if it has one. Several games may share one.
    pub file: Option<&'static str>,
}

macro_rules! registry {
    ($(
        $variant:ident => $id:literal, $name:literal, $page:literal,
        $game:ty $(= $setting:expr)?, $(file: $file:literal,)? death_matches: $dm:literal;
    )*) => {
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
                        file: registry!(@option $($file)?),
                    }, )*
                }
            }

            /// The text of the variant file the game is played with, if it has one.
            fn file_text(self) -> Option<&'static str> {
                match self {
                    $( VariantId::$variant => registry!(@option $(include_str!(concat!("../../variants/", $file, ".toml")))?), )*
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
                    $( VariantId::$variant => AnyGame::$variant(<$game as Hosted>::start(Line {
                        id,
                        file: id.variant_file(),
                        setting: registry!(@setting $($setting)?),
                    })), )*
                }
            }

            /// A new game of a hosted variant from a position a player gave, if its rules can play
            /// it from there to an end (`crate::start`): what every way a position reaches a new
            /// game asks. Stored games and the analysis tools read positions with
            /// [`AnyGame::from_fen`], which takes any that parses.
            pub fn from_players_fen(id: VariantId, fen: &str) -> Result<Start<AnyGame>, StartError> {
                let kept = id.variant_file().and_then(|variant| crate::start::castling_at_home(&variant, fen));
                let read = kept.as_deref().unwrap_or(fen);
                let game = AnyGame::from_fen(id, read)?;
                // The notes compare what was asked with what the game keeps.
                let notes = game.check_start(fen)?;
                Ok(Start { game, notes, fen: Some(read.to_string()) })
            }

            /// Whether a new game could start where this one stands, read from `fen`: the game's
            /// own rules of a start, and not over already (see [`AnyGame::from_players_fen`]). For
            /// the analysis tools, which compute on any position and say what a game would refuse.
            pub fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
                let notes = dispatch!(self, g => g.check_start(fen))?;
                match self.outcome() {
                    Some(outcome) => Err(crate::start::already_over(outcome)),
                    None => Ok(notes),
                }
            }

            /// A game of a hosted variant from a position (docs/fen.md), whatever its rules would
            /// say of starting there.
            pub fn from_fen(id: VariantId, fen: &str) -> Result<AnyGame, FenError> {
                Ok(match id {
                    $( VariantId::$variant => AnyGame::$variant(<$game as Hosted>::from_fen(Line {
                        id,
                        file: id.variant_file(),
                        setting: registry!(@setting $($setting)?),
                    }, fen)?), )*
                })
            }
        }
    };
    (@option) => { None };
    (@option $value:expr) => { Some($value) };
    (@setting) => { () };
    (@setting $setting:expr) => { $setting };
}

// The one list of the games Arbiter hosts. A line: the variant, its stored id, its name, its rules
// page (docs/rules/), its game type (with the setting that tells the type's games apart), the
// variant file it is played with (engine/variants/), and whether Death Matches are played in it.
registry! {
    Chess => "chess", "Chess", "chess.md", ChessGame, file: "chess", death_matches: false;
    Blockade => "blockade", "Blockade Chess", "blockade.md", BlockadeGame = blockade::Style::Blockade, file: "blockade", death_matches: true;
    Garden => "garden", "Garden of Statues", "blockade.md", BlockadeGame = blockade::Style::Garden, file: "blockade", death_matches: true;
    Beirut => "beirut", "Beirut Chess", "beirut.md", BeirutGame, file: "chess", death_matches: false;
    Circe => "circe", "Circe Chess", "circe.md", ChessGame<Circe>, file: "circe", death_matches: false;
    Portal => "portal", "Portal Chess", "portal.md", ChessGame<Portals>, file: "portal", death_matches: false;
    KnightsAreGod => "knights-are-god", "Knights are God", "knights-are-god.md", ChessGame<KnightsAreGod>, file: "knights-are-god", death_matches: false;
    Domination => "domination", "Domination Chess", "domination.md", DominationGame, file: "domination", death_matches: false;
    UltimateBattle => "ultimate-battle", "Ultimate Battle Chess", "ultimate-battle.md", ChessGame<UltimateBattle>, file: "ultimate-battle", death_matches: false;
    PickTheTeam => "pick-the-team", "Pick-the-team Chess", "pick-the-team.md", PickTheTeamGame, file: "pick-the-team", death_matches: false;
    Assault => "assault", "Assault Chess", "assault.md", AssaultGame, file: "assault", death_matches: false;
    Rejection => "rejection", "Rejection Chess", "rejection.md", RejectionGame, file: "chess", death_matches: false;
    Ctf => "ctf", "Capture the Flag", "ctf.md", CtfGame, file: "ctf", death_matches: false;
    PickTheTeam2 => "pick-the-team-2", "Pick-the-team Chess 2 (own lists)", "pick-the-team-2.md", OwnPiecesGame = ListKind::PickTheTeam2, death_matches: false;
    Patch => "patch", "Patch Chess", "patch.md", OwnPiecesGame = ListKind::Patch, death_matches: false;
    EasyPatch => "easy-patch", "Easy Patch Chess", "easy-patch.md", OwnPiecesGame = ListKind::EasyPatch, death_matches: false;
}

/// FIDE chess, from its own variant file.
pub fn fide() -> Arc<Variant> {
    built_in_file("chess").expect("chess is built in")
}

/// A variant file built into the engine (engine/variants/<name>.toml), by its name: the file of
/// one or more registry lines, compiled once.
pub fn built_in_file(name: &str) -> Option<Arc<Variant>> {
    static COMPILED: OnceLock<Vec<(&'static str, Arc<Variant>)>> = OnceLock::new();
    let files = COMPILED.get_or_init(|| {
        let mut files: Vec<(&'static str, Arc<Variant>)> = Vec::new();
        for &id in VariantId::ALL {
            if let (Some(file), Some(text)) = (id.info().file, id.file_text())
                && !files.iter().any(|(known, _)| *known == file)
            {
                let variant = Variant::from_toml(text).expect("the built-in variant files are valid");
                files.push((file, Arc::new(variant)));
            }
        }
        files
    });
    files
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, variant)| variant.clone())
}

// The game types of the registry. (Here rather than in their files, so no game file depends on
// the registry.)

/// The [`Hosted`] of a game type whose own `new` and `from_fen` make its games from the registry
/// line's variant file (after the line's setting, for a type that plays several games), and
/// whose own `check_start` checks a start. A type with its own count of the action tree, faster
/// than [`generic_perft`], names it; a generic type names its parameter's bounds last.
macro_rules! hosted {
    (
        $game:ty
        $(, setting: $setting:ty)?
        $(, perft: $perft:path)?
        $(, for $param:ident: $($bound:tt)+)?
    ) => {
        impl$(<$param: $($bound)+>)? Hosted for $game {
            type Setting = hosted!(@setting $($setting)?);
            // The line's setting goes first where the type takes one (named with its type, so
            // that it is passed only then).
            fn start(line: Line<Self::Setting>) -> Self {
                <$game>::new($({ let setting: $setting = line.setting; setting },)? line.file())
            }
            fn from_fen(line: Line<Self::Setting>, fen: &str) -> Result<Self, FenError> {
                <$game>::from_fen($({ let setting: $setting = line.setting; setting },)? line.file(), fen)
            }
            fn check_start(&self, fen: &str) -> Result<Vec<String>, StartRefusal> {
                <$game>::check_start(self, fen)
            }
            $(
                fn perft(&self, depth: u32) -> u64 {
                    $perft(self, depth)
                }
            )?
        }
    };
    (@setting) => { () };
    (@setting $setting:ty) => { $setting };
}

hosted!(ChessGame<R>, perft: ChessGame::perft, for R: crate::rules::Rules + Default + Clone);
hosted!(BlockadeGame, setting: blockade::Style, perft: BlockadeGame::perft);
hosted!(BeirutGame);
hosted!(RejectionGame);
hosted!(CtfGame);
hosted!(DominationGame, perft: DominationGame::perft);
hosted!(PickTheTeamGame, perft: PickTheTeamGame::perft);
hosted!(AssaultGame, perft: AssaultGame::perft);

impl Hosted for OwnPiecesGame {
    type Setting = ListKind;
    fn start(line: Line<ListKind>) -> Self {
        OwnPiecesGame::new(line.setting)
    }
    /// A game of players' lists starts from the lists, never from a position.
    fn from_fen(line: Line<ListKind>, _: &str) -> Result<Self, FenError> {
        Err(FenError::Boards(format!(
            "{} starts from the players' lists, not from a position",
            line.id.info().name
        )))
    }
    /// Never reached: no position reads as a game of players' lists.
    fn check_start(&self, _: &str) -> Result<Vec<String>, StartRefusal> {
        Err(StartRefusal::new(
            "this game starts from the players' lists, not from a position",
        ))
    }
    fn perft(&self, depth: u32) -> u64 {
        OwnPiecesGame::perft(self, depth)
    }
}

impl VariantId {
    pub fn as_str(self) -> &'static str {
        self.info().id
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The variant file the game is played with, compiled, if it has one.
    pub fn variant_file(self) -> Option<Arc<Variant>> {
        built_in_file(self.info().file?)
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

    /// Applies an action, as [`Game::apply`] does, and says what it changed for those who were
    /// not there (see [`Applied`]).
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied, ActionError> {
        applied::play(self, seat, action)
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
    fn search_key(&self) -> Option<u64> {
        dispatch!(self, g => g.search_key())
    }
    fn stop_writing(&mut self) {
        dispatch!(self, g => g.stop_writing())
    }
    fn pass_in_search(&mut self) -> bool {
        dispatch!(self, g => g.pass_in_search())
    }
    fn guarded(&self, board: u8, square: Square, by: Seat) -> Option<bool> {
        dispatch!(self, g => g.guarded(board, square, by))
    }
    fn gives_check(&self, seat: Seat, action: &Action) -> Option<bool> {
        dispatch!(self, g => g.gives_check(seat, action))
    }
    fn search_captures(&self, seat: Seat) -> Option<Vec<Action>> {
        dispatch!(self, g => g.search_captures(seat))
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
    fn record(&self, viewer: Viewer) -> Vec<RecordEntry> {
        dispatch!(self, g => g.record(viewer))
    }
    fn notes(&self, viewer: Viewer) -> Vec<String> {
        dispatch!(self, g => g.notes(viewer))
    }
    fn sight(&self, viewer: Viewer) -> View {
        dispatch!(self, g => g.sight(viewer))
    }
    fn sight_into(&self, viewer: Viewer, view: &mut View) {
        dispatch!(self, g => g.sight_into(viewer, view))
    }
    fn has_prompt(&self, seat: Seat) -> bool {
        dispatch!(self, g => g.has_prompt(seat))
    }
    fn notice(&self, seat: Seat) -> Option<String> {
        dispatch!(self, g => g.notice(seat))
    }
    fn on_timeout(&self, seat: Seat) -> Timeout {
        dispatch!(self, g => g.on_timeout(seat))
    }
    fn is_mid_turn(&self, seat: Seat) -> bool {
        dispatch!(self, g => g.is_mid_turn(seat))
    }
    fn awaits_answer(&self) -> bool {
        dispatch!(self, g => g.awaits_answer())
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

    #[test]
    fn every_line_starts_its_game_and_names_a_file_by_its_id() {
        for &id in VariantId::ALL {
            let game = AnyGame::new(id);
            assert_eq!(game.variant_id(), id.as_str());
            if let Some(name) = id.info().file {
                let file = id.variant_file().expect("a named file is built in");
                assert_eq!(
                    file.def.id, name,
                    "{id}: a file's id is its name (stored games name it)"
                );
                assert!(
                    Arc::ptr_eq(&file, &crate::variants::built_in_file(name).unwrap()),
                    "{id}: compiled once"
                );
            }
        }
        assert!(
            crate::variants::built_in_file("garden").is_none(),
            "Garden is played with Blockade's file"
        );
    }

    #[test]
    fn the_types_own_names_of_their_games_are_the_registry_s() {
        for (id, style) in [
            (VariantId::Blockade, blockade::Style::Blockade),
            (VariantId::Garden, blockade::Style::Garden),
        ] {
            assert_eq!(style.id(), id.as_str());
        }
        for (id, kind) in [
            (VariantId::PickTheTeam2, ListKind::PickTheTeam2),
            (VariantId::Patch, ListKind::Patch),
            (VariantId::EasyPatch, ListKind::EasyPatch),
        ] {
            assert_eq!((kind.id(), kind.name()), (id.as_str(), id.name()));
        }
    }
}
