//! The engine tools of the command line: `perft`, `legal`, `render` and the computer opponent's. Their output is a contract that
//! outside checks rely on (README, "Command line").

pub mod ai;
pub mod analyse;
pub mod bench;
pub mod doctor;
pub mod replay;

use anyhow::{Context, Result, anyhow, bail};
use arbiter_engine::variant_file::Variant;
use arbiter_engine::{AnyGame, Game, Seat, VariantId, fairy_ini};
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// Which game to set up, shared by the engine tools.
#[derive(clap::Args)]
#[group(required = true, multiple = false, id = "which-variant")]
pub struct VariantChoice {
    /// A hosted variant, by its id (README, "Games").
    #[arg(long)]
    variant: Option<String>,
    /// A variant file: Arbiter's TOML format (docs/variant-files.md), or a Fairy-Stockfish
    /// definition if the name ends in .ini.
    #[arg(long)]
    variant_file: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct GameArgs {
    #[command(flatten)]
    variant: VariantChoice,
    /// Start from this position (docs/fen.md) instead of the variant's start.
    #[arg(long)]
    fen: Option<String>,
    /// Actions to play first, separated by spaces. During a simultaneous sealed choice they are
    /// taken in seat order, the first seat's (White's) first.
    #[arg(long, default_value = "")]
    moves: String,
}

/// A seat: the first (White, Red, A) or the second (Black, Blue, B).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum SeatArg {
    #[value(alias = "first", alias = "red", alias = "a")]
    White,
    #[value(alias = "second", alias = "blue", alias = "b")]
    Black,
}

impl From<SeatArg> for Seat {
    fn from(seat: SeatArg) -> Seat {
        match seat {
            SeatArg::White => Seat::First,
            SeatArg::Black => Seat::Second,
        }
    }
}

fn load_variant_file(path: &PathBuf) -> Result<Arc<Variant>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let is_ini = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ini"));
    let variant = if is_ini {
        fairy_ini::parse(&text)
    } else {
        Variant::from_toml(&text)
    };
    Ok(Arc::new(variant.with_context(|| format!("in {}", path.display()))?))
}

/// Sets the game up and plays `--moves`.
pub fn build_game(args: &GameArgs) -> Result<AnyGame> {
    let fen = args.fen.as_deref();
    let mut game = match (&args.variant.variant, &args.variant.variant_file) {
        (Some(id), _) => {
            let names: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
            let id = VariantId::parse(id)
                .ok_or_else(|| anyhow!("unknown variant \"{id}\"; the variants are {}", names.join(", ")))?;
            match fen {
                Some(fen) => AnyGame::from_fen(id, fen).context("the --fen position")?,
                None => AnyGame::new(id),
            }
        }
        (None, Some(path)) => AnyGame::custom(load_variant_file(path)?, fen).context("the --fen position")?,
        (None, None) => bail!("say which game: --variant ID or --variant-file FILE"),
    };
    // The tools compute on any position; a game would not start from every one: say so. A hosted
    // game's own start is one (Pick-the-team's is an empty board to pick onto): only a --fen
    // position, or a variant file's start, is checked.
    let is_own_start = fen.is_none() && args.variant.variant.is_some();
    if !is_own_start && let Err(why) = game.check_start(fen.unwrap_or("")) {
        eprintln!("note: a game could not start from this position: {why}");
    }
    for (index, text) in args.moves.split_whitespace().enumerate() {
        let Some(&seat) = game.to_act().first() else {
            bail!("action {} \"{text}\": the game is already over", index + 1);
        };
        let action = game.parse_action(seat, text).map_err(|e| {
            let name = &game.view(arbiter_engine::Viewer::Spectator).seat_names[seat.index()];
            anyhow!("action {} \"{text}\" ({name} to act): {e}", index + 1)
        })?;
        game.apply(seat, &action)
            .map_err(|e| anyhow!("action {} \"{text}\": {e}", index + 1))?;
    }
    Ok(game)
}

pub fn perft(args: &GameArgs, depth: u32, divide: bool) -> Result<String> {
    let game = build_game(args)?;
    let mut out = String::new();
    if divide
        && depth > 0
        && let Some(&seat) = game.to_act().first()
    {
        for (action, text) in game.noted_actions(seat) {
            let mut next = game.clone();
            next.apply(seat, &action).map_err(|e| anyhow!("{text}: {e}"))?;
            writeln!(out, "{text}: {}", next.perft(depth - 1))?;
        }
    }
    writeln!(out, "{}", game.perft(depth))?;
    Ok(out)
}

/// The seat asked for, or by default the seat to act (the first during a simultaneous choice);
/// `None` when the game is over and none was asked for.
fn seat_asked(game: &AnyGame, seat: Option<SeatArg>) -> Option<Seat> {
    seat.map(Seat::from).or_else(|| game.to_act().first().copied())
}

pub fn legal(args: &GameArgs, seat: Option<SeatArg>) -> Result<String> {
    let game = build_game(args)?;
    let Some(seat) = seat_asked(&game, seat) else {
        return Ok(String::new());
    };
    let mut out = String::new();
    for (_, text) in game.noted_actions(seat) {
        writeln!(out, "{text}")?;
    }
    Ok(out)
}

/// Who an image is drawn for.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ViewerArg {
    #[value(alias = "first", alias = "red", alias = "a")]
    White,
    #[value(alias = "second", alias = "blue", alias = "b")]
    Black,
    Spectator,
}

/// `arbiter render`: the board image of a position as one viewer sees it.
pub fn render(
    args: &GameArgs,
    viewer: ViewerArg,
    dots: Option<&str>,
    out: &std::path::Path,
    svg_out: Option<&std::path::Path>,
) -> Result<String> {
    use arbiter::render::{Decor, Renderer, Scene, move_dots};
    let game = build_game(args)?;
    let viewer = match viewer {
        ViewerArg::White => arbiter_engine::Viewer::Seat(Seat::First),
        ViewerArg::Black => arbiter_engine::Viewer::Seat(Seat::Second),
        ViewerArg::Spectator => arbiter_engine::Viewer::Spectator,
    };
    let view = game.view(viewer);
    let mut decor = Decor::default();
    if let Some(square) = dots {
        let from = arbiter_engine::geometry::Square::parse(square)
            .ok_or_else(|| anyhow!("--dots \"{square}\" is not a square like e2"))?;
        let seat = game
            .to_act()
            .first()
            .copied()
            .ok_or_else(|| anyhow!("--dots: the game is over"))?;
        decor.dots = move_dots(&game.legal_actions(seat), from);
    }
    let scene = Scene::from_view(&view, &decor);
    if let Some(path) = svg_out {
        let svg = arbiter::render::to_svg(&scene);
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let png = Renderer::new().png(&scene)?;
    std::fs::write(out, &png).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(format!("wrote {} ({} bytes)\n", out.display(), png.len()))
}
