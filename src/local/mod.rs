//! The terminal transport: play any game from standard input, acting as any named user.
//!
//! Each line is `<user>: <command>`; see help.rs. Games live in the store like any others, so a
//! game started here can be continued later.

mod deathmatch;
mod help;
mod image_files;
mod pages;
mod screen;
mod text_board;
mod tournament;

use crate::arena::text::{Plain, plain, render};
use crate::arena::{Arena, ArenaError, Caller, ChallengeRequest, Effects, ImportRequest, ListSource, OfferResponse};
use crate::clock::TimeControl;
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::render::BoardImage;
use crate::store::{ComputerPlayer, GameSetup, GameStatus, Reminders, WhitePlayer};
use crate::web::Web;
use arbiter_engine::VariantId;
use arbiter_engine::ai::Level;
use std::io::Write;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

pub use image_files::ImageFiles;
pub use text_board::text_board;

/// Where games started in the terminal are played.
pub const LOCATION: &str = "local";

/// The name the computer plays under in the terminal: `challenge arbiter chess`.
pub const COMPUTER: &str = "arbiter";

/// The computer as a terminal user.
fn computer_user() -> UserId {
    local_user(COMPUTER)
}

/// The terminal's one table: every local game is played here.
pub fn here() -> Place {
    Place::new(LOCATION)
}

/// The terminal counts as a server of its own, for hosts and leaderboards.
pub fn server() -> ServerId {
    ServerId::new(LOCATION)
}

/// The commands, and the games there are.
pub fn help() -> String {
    help::overview(&games_list())
}

/// Every game as it is written in commands, with its name: `chess` (Chess), ...
fn games_list() -> String {
    let games: Vec<String> = VariantId::ALL
        .iter()
        .map(|v| format!("`{}` ({})", v.as_str(), v.name()))
        .collect();
    games.join(", ")
}

/// `help` alone, or `help <command>`: the overview, or that command explained.
fn help_with(topic: &str) -> Result<String, ArenaError> {
    if topic.trim().is_empty() {
        return Ok(help());
    }
    help::explain(topic).ok_or_else(|| usage(&format!("there is no command \"{}\"", topic.trim())))
}

/// Reads commands until the input ends, printing what happens, and drawing board images to
/// `images` when given.
pub async fn run(
    arena: &Arena,
    input: impl AsyncBufRead + Unpin,
    out: &mut impl Write,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    run_with_web(arena, input, out, images, None).await
}

/// [`run`], with the games' live pages served by `web` (`watch` prints their links, a Death
/// Match's first post carries them).
pub async fn run_with_web(
    arena: &Arena,
    input: impl AsyncBufRead + Unpin,
    out: &mut impl Write,
    images: Option<&ImageFiles>,
    web: Option<&Web>,
) -> anyhow::Result<()> {
    // Only what a reader can see is printed, whatever users typed into it.
    let out = &mut screen::Screen::new(out);
    // The clocks run beside the input: what they announce is printed as it happens.
    let (announce, mut announcements) = tokio::sync::mpsc::channel(64);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let scheduler = tokio::spawn(
        crate::scheduler::Scheduler::new(arena.clone(), crate::ids::Places::starting_with(LOCATION)).run(
            announce,
            async {
                let _ = stopped.await;
            },
        ),
    );
    let mut lines = input.lines();
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line? {
                Some(line) => line,
                None => break,
            },
            Some(effects) = announcements.recv() => {
                // A tournament whose start came pairs its first round.
                let effects = tournament::with_round_announcement(arena, effects.clone()).await.unwrap_or(effects);
                show(arena, out, &UserId::new("local:clock"), &effects, images).await?;
                pages::print_links(out, web, &effects).await?;
                continue;
            }
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "help" || line.starts_with("help ") {
            match help_with(&line[4..]) {
                Ok(text) => writeln!(out, "{text}")?,
                Err(error) => writeln!(out, "error: {}", plain(&error.to_string()))?,
            }
            continue;
        }
        if let Some(time) = line.strip_prefix("wait ") {
            wait(arena, time, &mut announcements, out, images).await?;
            continue;
        }
        let Some((user, command)) = line
            .split_once(':')
            .filter(|(user, _)| !crate::visible_text::one_line(user).is_empty())
        else {
            writeln!(
                out,
                "error: start the line with who acts, like `alice: move e4` (or type help)"
            )?;
            continue;
        };
        let user = local_user(user);
        if user == computer_user() {
            writeln!(out, "error: {COMPUTER} is the computer, and it plays by itself")?;
            continue;
        }
        let command = command.trim();
        let (verb, args) = command.split_once(' ').unwrap_or((command, ""));
        if verb.eq_ignore_ascii_case("watch") {
            match pages::watch(arena, web, &user, args).await {
                Ok(text) => writeln!(out, "(to {}) {text}", user.display_name())?,
                Err(error) => writeln!(out, "(to {}) error: {}", user.display_name(), plain(&error.to_string()))?,
            }
            continue;
        }
        match execute(arena, &user, command).await {
            Ok(effects) => {
                show(arena, out, &user, &effects, images).await?;
                pages::print_links(out, web, &effects).await?;
                if let Some(game) = effects.game
                    && arena.computer_waiting(game).await.unwrap_or(false)
                {
                    await_computer(arena, game, &mut announcements, out, images).await?;
                }
            }
            Err(error) => {
                if !error.is_user_error() {
                    // The command is not logged: it may hold a secret choice.
                    tracing::error!(%user, error = %crate::logging::Quiet(&error), "request failed");
                }
                writeln!(out, "(to {}) error: {}", user.display_name(), plain(&error.to_string()))?;
            }
        }
    }
    let _ = stop.send(());
    let _ = scheduler.await;
    Ok(())
}

/// The longest the terminal waits for the computer's reply before reading on (it comes in any
/// case, printed when it does).
const COMPUTER_PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// Waits for the computer's turn in `game`, printing what the clocks announce meanwhile, so a
/// player (or a script) reads its reply before typing on.
async fn await_computer(
    arena: &Arena,
    game: GameId,
    announcements: &mut tokio::sync::mpsc::Receiver<Effects>,
    out: &mut impl Write,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    let until = tokio::time::Instant::now() + COMPUTER_PATIENCE;
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(until) => return Ok(()),
            Some(effects) = announcements.recv() => {
                let effects = tournament::with_round_announcement(arena, effects.clone()).await.unwrap_or(effects);
                show(arena, out, &computer_user(), &effects, images).await?;
                if effects.game == Some(game) && !arena.computer_waiting(game).await.unwrap_or(false) {
                    return Ok(());
                }
            }
        }
    }
}

/// `wait 5s`: lets the clocks run for a while, printing what they announce meanwhile.
async fn wait(
    arena: &Arena,
    time: &str,
    announcements: &mut tokio::sync::mpsc::Receiver<Effects>,
    out: &mut impl Write,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    let Some(ms) = crate::clock::parse_duration(time) else {
        writeln!(out, "error: `wait` takes a duration, like `wait 5s`")?;
        return Ok(());
    };
    let until = tokio::time::Instant::now() + std::time::Duration::from_millis(ms as u64);
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(until) => return Ok(()),
            Some(effects) = announcements.recv() => {
                // A tournament whose start came pairs its first round.
                let effects = tournament::with_round_announcement(arena, effects.clone()).await.unwrap_or(effects);
                show(arena, out, &UserId::new("local:clock"), &effects, images).await?;
            }
        }
    }
}

pub(crate) fn usage(message: &str) -> ArenaError {
    ArenaError::Rejected(format!("{message} (type help for the commands)"))
}

/// Splits an optional leading `#id` from the arguments.
pub(crate) fn game_argument(args: &str) -> Result<(Option<GameId>, &str), ArenaError> {
    let args = args.trim();
    match args.strip_prefix('#') {
        Some(rest) => {
            let (id, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            let id = id
                .parse()
                .map_err(|_| usage(&format!("\"#{id}\" is not a game number")))?;
            Ok((Some(id), rest.trim()))
        }
        None => Ok((None, args)),
    }
}

/// The game a command means: the one named, or the user's only game that fits (`what` says
/// which games fit, for the message when none or several do).
async fn pick_game(
    arena: &Arena,
    user: &UserId,
    named: Option<GameId>,
    fits: impl Fn(&crate::arena::GameSummary) -> bool,
    what: &str,
) -> Result<GameId, ArenaError> {
    arena
        .pick_game(user, None, named, fits)
        .await
        .map_err(|e| in_terminal_words(e, what))
}

/// The arena's "which game?" errors as the terminal says them.
fn in_terminal_words(error: ArenaError, what: &str) -> ArenaError {
    match error {
        ArenaError::NoGameHere => ArenaError::Rejected(format!("you have no game {what}")),
        ArenaError::WhichGame(several) => {
            let ids: Vec<String> = several.iter().map(|id| format!("#{id}")).collect();
            ArenaError::Rejected(format!(
                "you have several games {what} ({}): add the game number",
                ids.join(", ")
            ))
        }
        other => other,
    }
}

/// The game a looking command means: the one named, the user's only open game, or else the
/// game of theirs that ended last.
async fn pick_game_to_look_at(arena: &Arena, user: &UserId, named: Option<GameId>) -> Result<GameId, ArenaError> {
    match arena.pick_game(user, None, named, |_| true).await {
        Err(ArenaError::NoGameHere) => arena
            .last_finished_game(user)
            .await?
            .ok_or_else(|| ArenaError::Rejected("you have no games yet".into())),
        other => other.map_err(|e| in_terminal_words(e, "open")),
    }
}

fn offer_response(word: &str) -> Result<OfferResponse, ArenaError> {
    match word {
        "offer" | "ask" | "request" => Ok(OfferResponse::Offer),
        "accept" | "yes" => Ok(OfferResponse::Accept),
        "decline" | "no" => Ok(OfferResponse::Decline),
        _ => Err(usage("say offer, accept or decline")),
    }
}

async fn execute(arena: &Arena, user: &UserId, command: &str) -> Result<Effects, ArenaError> {
    let (verb, args) = command.split_once(' ').unwrap_or((command, ""));
    let verb = verb.to_ascii_lowercase();
    if let Some(result) = deathmatch::execute(arena, user, &verb, args).await {
        return result;
    }
    if let Some(result) = tournament::execute(arena, user, &verb, args).await {
        return result;
    }
    let is_active = |g: &crate::arena::GameSummary| g.status == GameStatus::Active;
    let effects = match verb.as_str() {
        "challenge" => {
            let mut words = args.split_whitespace();
            let opponent = words.next().ok_or_else(|| usage("say whom to challenge"))?;
            let variant_text = words.next().ok_or_else(|| usage("say which variant"))?;
            let variant =
                VariantId::parse(variant_text).ok_or_else(|| usage(&format!("unknown variant \"{variant_text}\"")))?;
            let mut white_player = WhitePlayer::Random;
            let mut fen = None;
            let mut control = None;
            let mut level = None;
            while let Some(word) = words.next() {
                match word {
                    _ if Level::parse(word).is_some() => level = Level::parse(word),
                    "white" => white_player = WhitePlayer::Challenger,
                    "black" => white_player = WhitePlayer::Opponent,
                    "random" => white_player = WhitePlayer::Random,
                    "time" => {
                        let text = words
                            .next()
                            .ok_or_else(|| usage("say the time control, like `time 3d`"))?;
                        control = Some(TimeControl::parse(text).map_err(ArenaError::Rejected)?);
                    }
                    "fen" => fen = Some(words.by_ref().collect::<Vec<_>>().join(" ")),
                    other => {
                        return Err(usage(&format!(
                            "\"{other}\" is not white, black, random, time, fen, or a level (easy, normal, hard)"
                        )));
                    }
                }
            }
            let opponent = local_user(opponent);
            let computer = if opponent == computer_user() {
                Some(ComputerPlayer {
                    user: opponent.clone(),
                    level: level.unwrap_or_default(),
                })
            } else if level.is_some() {
                return Err(usage(&format!(
                    "a level is for the computer: `challenge {COMPUTER} <variant> hard`"
                )));
            } else {
                None
            };
            let request = ChallengeRequest {
                opponent,
                setup: GameSetup {
                    computer,
                    ..GameSetup::with_fen(variant, fen)
                },
                white_player,
                control,
                location: here(),
                server: Some(server()),
            };
            arena.challenge(user, request).await?
        }
        "accept" | "decline" => {
            let (named, _) = game_argument(args)?;
            let open = |g: &crate::arena::GameSummary| g.status == GameStatus::Challenge && g.is_your_turn;
            let id = pick_game(arena, user, named, open, "challenging you").await?;
            if verb == "accept" {
                arena.accept(id, user).await?
            } else {
                arena.decline(id, user).await?
            }
        }
        "cancel" => {
            let (named, _) = game_argument(args)?;
            let mine = |g: &crate::arena::GameSummary| g.status == GameStatus::Challenge && !g.is_your_turn;
            let id = pick_game(arena, user, named, mine, "as an open challenge of yours").await?;
            arena.cancel(id, user).await?
        }
        "move" | "m" | "play" => {
            let (named, action) = game_argument(args)?;
            if action.is_empty() {
                return Err(usage("say which move, like `move e4`"));
            }
            let id = game_to_act_in(arena, user, named).await?;
            arena.act(id, user, action).await?
        }
        "resign" | "abort" => {
            let (named, _) = game_argument(args)?;
            let id = pick_game(arena, user, named, is_active, "in progress").await?;
            if verb == "resign" {
                arena.resign(id, user).await?
            } else {
                arena.abort(id, user).await?
            }
        }
        "draw" | "takeback" => {
            let (word, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
            let response = offer_response(word)?;
            let (named, _) = game_argument(rest)?;
            let id = pick_game(arena, user, named, is_active, "in progress").await?;
            if verb == "draw" {
                arena.draw(id, user, response).await?
            } else {
                arena.takeback(id, user, response).await?
            }
        }
        "games" => Effects::reply(games_text(arena, user).await?),
        "help" => Effects::reply(help_with(args)?),
        "rematch" => {
            let (named, _) = game_argument(args)?;
            let id = pick_game_to_look_at(arena, user, named).await?;
            arena.rematch(id, &caller(user), &here()).await?
        }
        "claim" => {
            let (named, _) = game_argument(args)?;
            let id = pick_game(arena, user, named, is_active, "in progress").await?;
            arena.claim_abandoned(id, user).await?
        }
        "settings" => {
            let mut words = args.split_whitespace();
            match (words.next(), words.next()) {
                (None, _) | (Some("reminders"), None) => arena.reminders(user, None).await?,
                (Some("reminders"), Some(choice)) => {
                    let choice = Reminders::parse(choice).ok_or_else(|| usage("reminders are thread, dm or off"))?;
                    arena.reminders(user, Some(choice)).await?
                }
                _ => return Err(usage("say `settings reminders thread|dm|off`")),
            }
        }
        "show" | "board" => {
            let (named, rest) = game_argument(args)?;
            let id = pick_game_to_look_at(arena, user, named).await?;
            arena.show_as(id, &caller(user), rest == "words").await?
        }
        "legal" => {
            let (named, _) = game_argument(args)?;
            let id = game_to_act_in(arena, user, named).await?;
            let actions = arena.legal_actions(id, user).await?;
            if actions.is_empty() {
                // What `move` would be told: one explanation, whichever was asked.
                return Err(ArenaError::NotYourTurn(id));
            }
            Effects::reply(actions.join(" "))
        }
        "export" => {
            let (named, _) = game_argument(args)?;
            let id = pick_game_to_look_at(arena, user, named).await?;
            arena.export(id, &caller(user), &Default::default()).await?
        }
        "replay" => {
            let (named, _) = game_argument(args)?;
            let id = pick_game_to_look_at(arena, user, named).await?;
            arena.replay(id, &caller(user)).await?
        }
        "import" => {
            let (path, request) = import_request(args)?;
            let text = std::fs::read_to_string(&path)
                .map_err(|e| ArenaError::Rejected(format!("cannot read \"{path}\": {e}")))?;
            arena.import(&caller(user), request, &text).await?
        }
        "leaderboard" => {
            let variant =
                VariantId::parse(args).ok_or_else(|| usage(&format!("unknown variant \"{}\"", args.trim())))?;
            arena.leaderboard(variant, Some(&server())).await?
        }
        "profile" => {
            let of = match args.trim() {
                "" => user.clone(),
                name => local_user(name),
            };
            arena.profile(Some(&server()), &of).await?
        }
        "piece" => crate::arena::piece_card(args)?,
        "rules" => match game_argument(args)? {
            (Some(id), _) => arena.game_rules(id, &caller(user), true).await?,
            (None, name) if name.trim().is_empty() => Effects::reply(format!("The games: {}.", games_list())),
            (None, name) => {
                let variant = VariantId::parse(name).ok_or_else(|| {
                    ArenaError::Rejected(format!(
                        "there is no game called \"{}\"; the games are {}",
                        name.trim(),
                        games_list()
                    ))
                })?;
                arena.rules(variant)
            }
        },
        "list" => {
            let (named, text) = game_argument(args)?;
            let source = list_source(text)?;
            arena.submit_list(named, user, source).await?
        }
        "lists" => {
            let (what, rest) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
            match what {
                "save" => {
                    let (name, text) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
                    let text = match list_source(text)? {
                        ListSource::Text(text) => text,
                        ListSource::Saved(_) => return Err(usage("save a list from its text or a file")),
                    };
                    arena.save_list(user, name, &text).await?
                }
                "show" | "" => arena.show_lists(user, Some(rest)).await?,
                "delete" => arena.delete_list(user, rest).await?,
                _ => return Err(usage("say lists save, lists show or lists delete")),
            }
        }
        _ => return Err(usage(&format!("unknown command \"{verb}\""))),
    };
    Ok(effects)
}

/// The game a `move` (or `legal`) means: the one named, or the caller's only game waiting for
/// them; failing that, their only game in progress, so that the arena says why it is not theirs
/// to move in (the opponent's turn, or their secret move already in).
async fn game_to_act_in(arena: &Arena, user: &UserId, named: Option<GameId>) -> Result<GameId, ArenaError> {
    let waiting = |g: &crate::arena::GameSummary| g.status == GameStatus::Active && g.is_your_turn;
    let is_active = |g: &crate::arena::GameSummary| g.status == GameStatus::Active;
    match pick_game(arena, user, named, waiting, "waiting for your move").await {
        Err(_) if named.is_none() => pick_game(arena, user, None, is_active, "in progress").await,
        other => other,
    }
}

/// Where a typed list comes from: `file <path>` (one piece a line), `saved <name>`, or the
/// pieces themselves separated by `;`.
fn list_source(text: &str) -> Result<ListSource, ArenaError> {
    let text = text.trim();
    if let Some(path) = text.strip_prefix("file ") {
        let path = path.trim();
        let metadata = std::fs::metadata(path).map_err(|e| usage(&format!("cannot read {path}: {e}")))?;
        if metadata.len() > crate::arena::MOST_LIST_BYTES as u64 {
            return Err(usage(&format!("{path} is too big for a list of pieces")));
        }
        let body = std::fs::read_to_string(path).map_err(|e| usage(&format!("cannot read {path}: {e}")))?;
        return Ok(ListSource::Text(body));
    }
    if let Some(name) = text.strip_prefix("saved ") {
        return Ok(ListSource::Saved(name.trim().to_string()));
    }
    if text.is_empty() {
        return Err(usage(
            "give the pieces, like `list King, K, K, royal; Camel, CA, C; ...`",
        ));
    }
    Ok(ListSource::Text(text.replace(';', "\n")))
}

/// A user at the terminal, by the name typed, without what a reader could not see in it (so
/// "al\u{202E}ice" is alice, and no name holds an escape sequence).
fn local_user(name: &str) -> UserId {
    UserId::new(format!("local:{}", crate::visible_text::one_line(name)))
}

/// `user` asking at the terminal, which is one server of its own. Nobody hosts by typing alone:
/// a match's or a tournament's host is whoever started it.
fn caller(user: &UserId) -> Caller {
    Caller::player(user, Some(&server()))
}

/// `import <file> as white|black [vs <user>]`.
fn import_request(args: &str) -> Result<(String, ImportRequest), ArenaError> {
    const USAGE: &str = "say `import <file> as white` (or `as black`), and `vs <user>` to play the rest with them";
    let words: Vec<&str> = args.split_whitespace().collect();
    let Some(as_at) = words.iter().rposition(|w| *w == "as") else {
        return Err(usage(USAGE));
    };
    let path = words[..as_at].join(" ");
    let (side, rest) = match &words[as_at + 1..] {
        [side, rest @ ..] => (*side, rest),
        [] => return Err(usage(USAGE)),
    };
    let side = match side.to_ascii_lowercase().as_str() {
        "white" | "first" => arbiter_engine::Seat::First,
        "black" | "second" => arbiter_engine::Seat::Second,
        other => return Err(usage(&format!("\"{other}\" is not white or black; {USAGE}"))),
    };
    let opponent = match rest {
        [] => None,
        ["vs", name] => Some(local_user(name)),
        _ => return Err(usage(USAGE)),
    };
    if path.is_empty() {
        return Err(usage(USAGE));
    }
    if opponent.as_ref() == Some(&computer_user()) {
        return Err(usage(&format!(
            "the computer does not take up imported games; play it from the record's position with \
             `challenge {COMPUTER} <variant> fen <FEN>`"
        )));
    }
    let request = ImportRequest {
        side,
        opponent,
        location: here(),
    };
    Ok((path, request))
}

async fn games_text(arena: &Arena, user: &UserId) -> Result<String, ArenaError> {
    let games = arena.games(user).await?;
    if games.is_empty() {
        return Ok("you have no open games".into());
    }
    let now = arena.now();
    let lines: Vec<String> = games
        .iter()
        .map(|g| {
            let state = g.state_text();
            let control = g.control.map_or(String::new(), |c| format!(" ({})", c.describe()));
            let left = g.flag_at.map_or(String::new(), |at| {
                format!(" · {} left", crate::clock::duration(at - now))
            });
            format!(
                "#{} {}{control} vs {}: {state}{left}",
                g.id,
                g.variant.name(),
                g.opponent.display_name()
            )
        })
        .collect();
    Ok(lines.join("\n"))
}

/// A table in columns of text.
fn print_table(out: &mut impl Write, table: &crate::render::Table) -> anyhow::Result<()> {
    let rows: Vec<&Vec<String>> = std::iter::once(&table.header).chain(&table.rows).collect();
    let widths: Vec<usize> = (0..table.header.len())
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|t| t.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    writeln!(out, "    {}", table.title)?;
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(text, width)| format!("{text:<width$}"))
            .collect();
        writeln!(out, "    {}", cells.join("  ").trim_end())?;
    }
    writeln!(out, "    {}", table.legend)?;
    Ok(())
}

/// Prints effects; `now` is the arena's time, for countdowns.
/// Prints what a change says (as `user` reads it) and records that its news was shown, as a
/// transport does once its players have it (the computer waits for that before it answers).
async fn show(
    arena: &Arena,
    out: &mut impl Write,
    user: &UserId,
    effects: &Effects,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    print_effects(out, user, effects, images, arena.now())?;
    if let (Some(game), Some(version)) = (effects.game, effects.version)
        && let Err(error) = arena.mark_shown(game, version).await
    {
        tracing::warn!(game = %game, error = %crate::logging::Quiet(&error), "could not record a game's news as shown");
    }
    Ok(())
}

fn print_effects(
    out: &mut impl Write,
    user: &UserId,
    effects: &Effects,
    images: Option<&ImageFiles>,
    now: i64,
) -> anyhow::Result<()> {
    let game = effects.game;
    let plain = |text: &str| render(text, &Plain { now: Some(now) });
    for post in &effects.posts {
        writeln!(out, "[{}] {}", post.location, plain(&post.text))?;
        if let Some(countdown) = &post.countdown {
            let left = crate::clock::duration(countdown.at - now);
            writeln!(out, "    {} in {left}", plain(&countdown.what))?;
        }
        print_board(out, post.game, post.board.as_ref(), None, images)?;
        if let Some(table) = &post.table {
            print_table(out, table)?;
        }
    }
    if let Some(reply) = &effects.reply {
        writeln!(out, "(to {}) {}", user.display_name(), plain(&reply.text))?;
        print_board(out, game, reply.board.as_ref(), Some(user), images)?;
    }
    if let Some(replay) = &effects.replay {
        writeln!(out, "(to {}) {}", user.display_name(), plain(&replay.caption))?;
        match images {
            Some(images) => {
                let (path, gif) = images.write_replay(replay)?;
                if let Some(note) = gif.note() {
                    writeln!(out, "    {note}")?;
                }
                writeln!(out, "    replay: {}", path.display())?;
            }
            None => writeln!(
                out,
                "    Replays are drawn as GIF images: start `arbiter local` without --no-images to get one."
            )?,
        }
    }
    for dm in &effects.direct_messages {
        writeln!(out, "[DM to {}] {}", dm.to.display_name(), plain(dm.text.reveal()))?;
        if dm.asks_for_list {
            writeln!(
                out,
                "Send it with `list #{} <piece>; <piece>; ...`, `list #{} file <path>` (one piece a line) or \
                 `list #{} saved <name>`; you can send it again until your opponent's is in.",
                dm.game, dm.game, dm.game
            )?;
        }
        print_board(out, Some(dm.game), dm.board.as_ref(), Some(&dm.to), images)?;
    }
    Ok(())
}

/// Prints a board as text and, when images are on, names the PNG drawn of it.
fn print_board(
    out: &mut impl Write,
    game: Option<GameId>,
    board: Option<&BoardImage>,
    private_to: Option<&UserId>,
    images: Option<&ImageFiles>,
) -> anyhow::Result<()> {
    let Some(board) = board else { return Ok(()) };
    write!(out, "{}", text_board(&board.view))?;
    if let Some(images) = images {
        let path = images.write(game, board, private_to)?;
        writeln!(out, "    image: {}", path.display())?;
    }
    Ok(())
}
