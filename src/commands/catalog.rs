//! Every command, grouped as players meet them: Discord registers its commands from this list
//! (and `/help` reads it from there); the terminal's `help` reads it here. A command one
//! transport lacks says so by what it leaves out: no terminal form, or `in_discord: false`.
//! Commands the command layer answers are declared in the file of their family (`play.rs`,
//! `challenge.rs`, ...) and listed here; the others are described here and read by each
//! transport.

use super::describe::{Command, Section, discord_only, everywhere, terminal_only, written};
use super::options::{Choice, GAME, MATCH, Opt, file, flag, game, number, one_of, role, text, user, variant};

const TIME_CONTROL: Opt = text(
    "time",
    "Time control: 3d (days per move), 24h+72h (per move + reserve); default untimed",
);
const FEN: Opt = text("fen", "Start from this position, in FEN (see /rules)");
const COLOUR: Opt = one_of("colour", "The side you play (default: random)", COLOURS);

const COLOURS: &[Choice] = &[
    Choice::new("random", "Random"),
    Choice::new("white", "White (or Red): I move first"),
    Choice::new("black", "Black (or Blue)"),
];
const LEVELS: &[Choice] = &[
    Choice::new("easy", "Easy: a quick look, and it misjudges a little"),
    Choice::new("normal", "Normal: a quick search, well under a second a move"),
    Choice::new("hard", "Hard: a deeper search, about a second a move"),
];
const SIDES: &[Choice] = &[
    Choice::new("white", "White (or the side that moves first)"),
    Choice::new("black", "Black (or the side that moves second)"),
];
const RULINGS: &[Choice] = &[
    Choice::new("win", "Win for the player named"),
    Choice::new("draw", "Draw"),
];

pub const SECTIONS: &[Section] = &[
    Section {
        heading: "Playing",
        commands: &[
            everywhere(
                "challenge",
                "Challenge someone to a game, which they accept or decline.",
                &[
                    variant("variant", "The game to play").required(),
                    user("opponent", "Whom to challenge").required(),
                    COLOUR,
                    FEN,
                    TIME_CONTROL,
                ],
                written(
                    &["challenge"],
                    "challenge <opponent> <variant> [white|black|random] [time <control>] [fen <FEN>] [easy|normal|hard]",
                    "<variant> is one of the games (see `rules`). `white` means you play White, `black` Black; by \
                     default the sides are drawn. `time 3d` gives each move three days, `time 24h+72h` a day a move \
                     and a reserve of three days; without `time` the game is untimed. `fen` starts from a position \
                     (docs/fen.md). Nobody to play? `challenge arbiter chess` plays the computer at once (`easy`, \
                     `normal` by default, or `hard`); it answers each of your moves before the next line is read, \
                     takes back a move when you ask, and its games are not rated.",
                ),
            ),
            everywhere(
                "practice",
                "Play the computer at once, any game, any level (not rated).",
                &[
                    variant("variant", "The game to play").required(),
                    one_of("level", "How hard the computer tries (default: normal)", LEVELS),
                    COLOUR,
                    TIME_CONTROL,
                    FEN,
                ],
                written(
                    &["practice"],
                    "practice <variant> [white|black|random] [time <control>] [fen <FEN>] [easy|normal|hard]",
                    "The same as `challenge arbiter <variant>`, with the same choices.",
                ),
            ),
            super::challenge::ACCEPT,
            super::challenge::DECLINE,
            super::challenge::CANCEL,
            super::play::MOVE,
            super::play::RESIGN,
            super::play::ABORT,
            super::play::DRAW,
            super::play::TAKEBACK,
            super::challenge::REMATCH,
            super::play::CLAIM,
        ],
    },
    Section {
        heading: "Your games",
        commands: &[
            everywhere(
                "games",
                "Your open challenges and games, the ones waiting for you first.",
                &[],
                written(
                    &["games"],
                    "games",
                    "Each says whose turn it is, since when, and when the time runs out.",
                ),
            ),
            super::play::BOARD,
            super::play::MOVES,
            super::play::LEGAL,
            discord_only("settings", "Your settings, and your server's.", &[]),
            super::players::REMINDER_SETTING,
            discord_only(
                "settings host-role",
                "The role whose members host Death Matches and tournaments here (members who manage the server).",
                &[
                    role("role", "The host role (leave out to see it; pick none with `clear`)"),
                    flag("clear", "Go back to the bot's default host role"),
                ],
            ),
            super::players::LEADERBOARD,
            super::players::PROFILE,
        ],
    },
    Section {
        heading: "Rules, pieces and records",
        commands: &[
            everywhere(
                "rules",
                "The rules of a game, as Arbiter plays it; in a game, that game's (with its pieces).",
                &[
                    variant("variant", "The game (default: the game of this thread)"),
                    game("Game number, for its own pieces (default: the game of this thread)"),
                ],
                written(
                    &["rules"],
                    "rules <variant>   rules #id",
                    "Without a variant, the list of games.",
                ),
            ),
            everywhere(
                "piece",
                "One piece's card: its moves on a diagram, its Betza notation and what it does.",
                &[text(
                    "name",
                    "The piece: a name (Chinese nightrider), a symbol (CN) or part of a name",
                )
                .required()],
                written(&["piece"], "piece <name>", "Like `piece Chinese nightrider`."),
            ),
            everywhere(
                "export",
                "The game as a PGN record (only what you may see), to you alone, as a file.",
                &[GAME],
                written(
                    &["export"],
                    "export [#id] [path]",
                    "Written to `path`, or as `game-<id>.pgn` beside the board images; `import` reads it back.",
                ),
            ),
            everywhere(
                "watch",
                "A game's live page and stream overlay (for OBS); to its players, their own page to play by clicking.",
                &[
                    GAME,
                    flag("reset", "Give me new private links (the old ones then open nothing)"),
                ],
                written(
                    &["watch"],
                    "watch [#id] [reset]",
                    "In the terminal, with `arbiter local --web ADDR`; a player's own page is printed for them.",
                ),
            ),
            everywhere(
                "replay",
                "An animated replay of a game (GIF), as its audience saw it: secrets only once revealed.",
                &[GAME],
                written(&["replay"], "replay [#id]", ""),
            ),
            everywhere(
                "analyse",
                "A finished game gone through by the computer: its graph, its turning points and better moves.",
                &[GAME],
                written(
                    &["analyse", "analyze"],
                    "analyse [#id]",
                    "A minute or two the first time, at once after that; `export` then carries its evaluations.",
                ),
            ),
            everywhere(
                "import",
                "Bring in a game record (PGN) to play on with someone, or to study alone; never rated.",
                &[
                    file("file", "The record: a .pgn file of one game").required(),
                    one_of("side", "The side you play", SIDES).required(),
                    user(
                        "opponent",
                        "Who plays the other side (they accept or decline); leave out to study alone",
                    ),
                ],
                written(
                    &["import"],
                    "import <file> as white|black [vs <user>]",
                    "With `vs`, the other player is offered the rest of the game; without it you study it alone, \
                     playing both sides.",
                ),
            ),
            discord_only(
                "help",
                "Every command, or one command explained with its options.",
                &[text(
                    "command",
                    "A command to explain, like move or deathmatch start (default: all of them)",
                )],
            ),
        ],
    },
    Section {
        heading: "Lists of pieces (Pick-the-team 2, Patch, Easy Patch)",
        commands: &[
            everywhere(
                "list",
                "Send your list of pieces (Pick-the-team 2, Patch, Easy Patch); the answer is for you alone.",
                &[
                    text(
                        "text",
                        "The pieces, separated by ;  e.g. Giraffe, GI, C; King, K, K, royal",
                    ),
                    file("file", "A text file with one piece a line"),
                    text("saved", "The name of a list you saved with /lists save"),
                    game("Game number (default: your game waiting for a list)"),
                ],
                written(
                    &["list"],
                    "list [#id] <piece>; <piece>; ...   list [#id] file <path>   list [#id] saved <name>",
                    "Each piece as `name, symbol, betza` (then `royal` or `pawn` if it is one) or a catalogue \
                     piece's name, separated by `;` (one a line in a file). Each line is accepted or refused with \
                     the reason; you may send it again until your opponent's is in.",
                ),
            ),
            everywhere(
                "lists",
                "Your saved lists of pieces (25 at most).",
                &[],
                written(
                    &["lists"],
                    "lists save <name> <pieces>|file <path>   lists show [name]   lists delete <name>",
                    "",
                ),
            ),
            discord_only(
                "lists save",
                "Save a list of pieces under a name, to send to later games.",
                &[
                    text("name", "A name for the list").required(),
                    text("text", "The pieces, separated by ;"),
                    file("file", "A text file with one piece a line"),
                ],
            ),
            discord_only(
                "lists show",
                "Your saved lists, or one of them in full.",
                &[text("name", "The list to show in full (default: all their names)")],
            ),
            discord_only(
                "lists delete",
                "Delete a saved list.",
                &[text("name", "The list to delete").required()],
            ),
        ],
    },
    Section {
        heading: "Death Matches (timed Blockade Chess or Garden of Statues; whoever starts one hosts it)",
        commands: &[
            discord_only(
                "deathmatch",
                "Host a timed Death Match (Blockade Chess or Garden of Statues).",
                &[],
            ),
            everywhere(
                "deathmatch start",
                "Start a match: the player with the Advantage chooses colours.",
                &[
                    variant("game", "The game").required(),
                    user("player1", "One player").required(),
                    user("player2", "The other player").required(),
                    user("advantage", "The player holding the Advantage (chooses colours)").required(),
                    text("normal_time", "Normal time per turn, e.g. 60s or 24h (default 60s)"),
                    text("reserve", "Each player's reserve, e.g. 5m or 72h (default 5m)"),
                ],
                written(
                    &["deathmatch", "dm"],
                    "deathmatch <player1> <player2> <advantage> <blockade|garden> [normal] [reserve]",
                    "Each turn has [normal] time (default 60s), then the player's [reserve] (default 5m) runs; \
                     when it runs out, they lose.",
                ),
            ),
            terminal_only(
                "The Advantage holder (or the host) chooses who moves first.",
                &[],
                written(&["side"], "side first|second [#id]", ""),
            ),
            super::matches::RATED,
            super::matches::PAUSE,
            super::matches::RESUME,
            everywhere(
                "deathmatch addtime",
                "Give a player more reserve.",
                &[
                    user("player", "The player").required(),
                    text("time", "How much, e.g. 30s, 2m, 1h").required(),
                    MATCH,
                ],
                written(&["addtime"], "addtime <player> <time> [#id]", "The host's command."),
            ),
            super::matches::ABORT,
            everywhere(
                "deathmatch adjudicate",
                "Decide the result of the match.",
                &[
                    one_of("result", "A win or a draw", RULINGS).required(),
                    user("winner", "The winner (for a win)"),
                    MATCH,
                ],
                written(
                    &["adjudicate"],
                    "adjudicate <winner>|draw|abort [#id]",
                    "The host's command.",
                ),
            ),
            terminal_only(
                "Let the clocks run for a while, printing what they announce.",
                &[],
                written(
                    &["wait"],
                    "wait <time>",
                    "Alone or after a name, like `wait 5s` or `bob: wait 50s`: the clocks run for everyone.",
                ),
            ),
        ],
    },
    Section {
        heading: "Tournaments (a Swiss with a game per round; whoever creates one hosts it)",
        commands: &[
            everywhere(
                "tournament",
                "Run a Swiss tournament here.",
                &[],
                written(
                    &["tournament", "t"],
                    "tournament create <name> [| rounds <n>] [| variants <a, b, ...>] [| time handicap|<control>] \
                     [| bands 2040:5m, 1720:7m, 1408:9m, 10m] [| start <in how long>]\n  \
                     tournament join|withdraw|start|pair|close-round|standings|show [t<number>]\n  \
                     tournament adjudicate #<game> white|black|draw|abort",
                    "`create` makes one here (options after `|`), which players join; the host starts it (or it \
                     starts by itself at `start`), pairs each round once the last is over, and rules on games. \
                     See docs/tournaments.md.",
                ),
            ),
            discord_only(
                "tournament create",
                "Hosts: create a tournament in this channel (players join until round 1 is paired).",
                &[
                    text("name", "Its name").required(),
                    number(
                        "rounds",
                        "How many rounds (default: as many as games named, or the club night's 5)",
                    ),
                    text(
                        "variants",
                        "The game of each round, separated by commas, or one for all (default: the club night's five)",
                    ),
                    text(
                        "time",
                        "`handicap` (clocks by rating band, the default) or one time control for all (3d, 0+10m)",
                    ),
                    text(
                        "bands",
                        "Handicap bands, strongest first (default 2040:5m, 1720:7m, 1408:9m, 10m)",
                    ),
                    text(
                        "start",
                        "Pair round 1 by itself after this long (30m, 2h, 3d); default: when a host starts it",
                    ),
                ],
            ),
            super::tournaments::JOIN,
            super::tournaments::WITHDRAW,
            super::tournaments::START,
            super::tournaments::PAIR,
            super::tournaments::CLOSE_ROUND,
            super::tournaments::ADJUDICATE,
            super::tournaments::STANDINGS,
            super::tournaments::SHOW,
        ],
    },
];

/// Every command, in the order of [`SECTIONS`].
pub fn all() -> impl Iterator<Item = &'static Command> {
    SECTIONS.iter().flat_map(|section| section.commands)
}

/// The command Discord knows as `name` (`"deathmatch start"` for a subcommand).
pub fn in_discord(name: &str) -> Option<&'static Command> {
    all().find(|command| command.in_discord && command.name == name)
}

/// The command the terminal calls with `word`.
pub fn in_terminal(word: &str) -> Option<&'static Command> {
    all().find(|command| command.terminal.as_ref().is_some_and(|t| t.words.contains(&word)))
}
