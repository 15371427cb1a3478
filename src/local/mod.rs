//! The terminal transport: play any game from standard input, acting as any named user.
//!
//! Each line is `<user>: <command>`; see help.rs. Games live in the store like any others, so a
//! game started here can be continued later.

mod deathmatch;
mod help;
mod image_files;
mod looking;
mod pages;
mod playing;
mod printing;
mod screen;
mod text_board;
mod tournament;

use crate::arena::text::plain;
use crate::arena::{Arena, ArenaError, Caller, Effects};
use crate::commands::describe::{Command, Run};
use crate::commands::options::Args;
use crate::commands::picking::{self, Asked, Fits, Naming};
use crate::commands::play;
use crate::commands::{Ask, catalog};
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::web::Web;
use arbiter_engine::VariantId;
use printing::show;
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
    // What players do on their own pages is printed as the clocks' news is.
    if let Some(web) = web {
        web.announce_to(announce.clone());
    }
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
        let user = match typed_user(user) {
            Ok(user) => user,
            Err(error) => {
                writeln!(out, "error: {}", plain(&error.to_string()))?;
                continue;
            }
        };
        if user == computer_user() {
            writeln!(out, "error: {COMPUTER} is the computer, and it plays by itself")?;
            continue;
        }
        let command = command.trim();
        let (verb, args) = command.split_once(' ').unwrap_or((command, ""));
        // `bob: wait 50s` waits as a bare `wait 50s` does: the clocks are everyone's.
        if verb.eq_ignore_ascii_case("wait") {
            wait(arena, args, &mut announcements, out, images).await?;
            continue;
        }
        if verb.eq_ignore_ascii_case("watch") {
            match pages::watch(arena, web, &user, args).await {
                Ok(text) => writeln!(out, "(to {}) {text}", user.display_name())?,
                Err(error) => writeln!(out, "(to {}) error: {}", user.display_name(), plain(&error.to_string()))?,
            }
            continue;
        }
        match execute(arena, &user, command, images).await {
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

/// Takes the game named with `#id` (anywhere among the arguments: `side first #7` and
/// `move #7 e4` alike) out of the arguments, and gives back the words left.
pub(crate) fn game_argument(args: &str) -> Result<(Option<GameId>, String), ArenaError> {
    let mut named = None;
    let mut rest = Vec::new();
    for word in args.split_whitespace() {
        match word.strip_prefix('#') {
            Some(id) if named.is_none() => {
                let id = id
                    .parse()
                    .map_err(|_| usage(&format!("\"#{id}\" is not a game number")))?;
                named = Some(id);
            }
            _ => rest.push(word),
        }
    }
    Ok((named, rest.join(" ")))
}

/// Runs one command of `user`'s, by its family.
async fn execute(
    arena: &Arena,
    user: &UserId,
    command: &str,
    files: Option<&ImageFiles>,
) -> Result<Effects, ArenaError> {
    let (verb, args) = command.split_once(' ').unwrap_or((command, ""));
    let verb = verb.to_ascii_lowercase();
    if verb == "help" {
        return help_with(args).map(Effects::reply);
    }
    if let Some((command, run, words)) = declared(&verb, args) {
        let effects = answered_by_the_command_layer(arena, user, command, run, words).await?;
        return tournament::with_round_announcement(arena, effects).await;
    }
    let families = [
        playing::execute(arena, user, &verb, args).await,
        looking::execute(arena, user, &verb, args, files).await,
        deathmatch::execute(arena, user, &verb, args).await,
        tournament::execute(arena, user, &verb, args).await,
    ];
    if let Some(result) = families.into_iter().flatten().next() {
        return result;
    }
    // `alice: e4`: a bare action is the first thing people type.
    let caller = caller(user);
    if let Some(result) = play::bare_action(ask(arena, &caller), command).await {
        return result;
    }
    let hint = if picking::pick(arena, asked(&caller), None, Fits::WaitingForYou)
        .await
        .is_ok()
    {
        "; a move goes after `move`, like `move e4` (`legal` lists yours)".to_string()
    } else {
        String::new()
    };
    let typed = command.split_whitespace().next().unwrap_or_default();
    Err(usage(&format!("unknown command \"{typed}\"{hint}")))
}

/// The command the command layer answers (`commands::describe`) that `verb` calls, with the words
/// of its options: the command the terminal writes so, or a subcommand written after its
/// group's word (`tournament join t3` is `/tournament join`).
fn declared<'a>(verb: &str, args: &'a str) -> Option<(&'static Command, Run, &'a str)> {
    let command = catalog::in_terminal(verb)?;
    let (group, written_sub) = command.name.split_once(' ').unwrap_or((command.name, ""));
    let (sub, words) = args.trim().split_once(' ').unwrap_or((args.trim(), ""));
    let sub = sub.to_ascii_lowercase();
    if let Some(run) = command.run {
        // `settings reminders dm`: the subcommand's word may follow the group's.
        let args = if !written_sub.is_empty() && sub == written_sub {
            words
        } else {
            args
        };
        return Some((command, run, args));
    }
    let command = catalog::in_discord(&format!("{group} {sub}"))?;
    Some((command, command.run?, words))
}

/// A command the command layer answers (`commands::describe`), with its options read from the
/// words after it.
async fn answered_by_the_command_layer(
    arena: &Arena,
    user: &UserId,
    command: &'static Command,
    run: Run,
    words: &str,
) -> Result<Effects, ArenaError> {
    let args = Args::from_words(command.options, words, local_user).map_err(|problem| usage(&problem))?;
    if let Some(missing) = args.missing(command.options) {
        let written = command
            .terminal
            .as_ref()
            .map_or(command.name, |terminal| terminal.usage);
        return Err(usage(&format!("say the {}: `{written}`", missing.name)));
    }
    let caller = caller(user);
    (run.answer)(ask(arena, &caller), args).await
}

/// The longest name a terminal user goes by (Discord's own limit for a user name).
const LONGEST_NAME: usize = 32;

/// A user named in a line (who acts, whom they challenge): [`local_user`], once the name is
/// known to be one a reader can tell from others (at most [`LONGEST_NAME`] characters).
fn typed_user(name: &str) -> Result<UserId, ArenaError> {
    if crate::visible_text::one_line(name).chars().count() > LONGEST_NAME {
        return Err(usage(&format!("a name is at most {LONGEST_NAME} characters")));
    }
    Ok(local_user(name))
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

/// A terminal command being answered, for the command layer.
fn ask<'a>(arena: &'a Arena, caller: &'a Caller) -> Ask<'a> {
    static HERE: std::sync::LazyLock<Place> = std::sync::LazyLock::new(here);
    Ask {
        arena,
        asked: asked(caller),
        place: &HERE,
    }
}

/// How a terminal command was asked, for picking its game: one table for every game, each named
/// by its number.
fn asked(caller: &Caller) -> Asked<'_> {
    Asked {
        caller,
        here: None,
        naming: Naming::Number,
    }
}
