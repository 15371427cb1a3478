//! The terminal's help: every command with its options, grouped as a player meets them, and
//! `help <command>` explaining one. One table serves both.

/// One command: the words that call it, how it is written, and what it does.
pub struct Topic {
    pub names: &'static [&'static str],
    pub usage: &'static str,
    pub explains: &'static str,
}

/// A group of commands under a heading.
pub struct Section {
    pub heading: &'static str,
    pub topics: &'static [Topic],
}

pub const SECTIONS: &[Section] = &[
    Section {
        heading: "Playing",
        topics: &[
            Topic {
                names: &["challenge"],
                usage: "challenge <opponent> <variant> [white|black|random] [time <control>] [fen <FEN>] [easy|normal|hard]",
                explains: "Offers <opponent> a game of <variant> (see `rules` for the games). `white` means you play \
                           White, `black` Black; by default the sides are drawn. `time 3d` gives each move three \
                           days, `time 24h+72h` a day a move and a reserve of three days; without `time` the game is \
                           untimed. `fen` starts from a position (docs/fen.md). Nobody to play? `challenge arbiter \
                           chess` plays the computer at once (`easy`, `normal` by default, or `hard`); it answers \
                           each of your moves before the next line is read, takes back a move when you ask, and \
                           its games are not rated.",
            },
            Topic {
                names: &["practice"],
                usage: "practice <variant> [white|black|random] [time <control>] [fen <FEN>] [easy|normal|hard]",
                explains: "Plays the computer at once, any game, any level (`normal` by default), as Discord's \
                           `/practice` does; the same as `challenge arbiter <variant>`. Its games are not rated.",
            },
            Topic {
                names: &["accept", "decline"],
                usage: "accept [#id]   decline [#id]",
                explains: "Answers a challenge made to you (or a rematch, or an imported game offered to you).",
            },
            Topic {
                names: &["cancel"],
                usage: "cancel [#id]",
                explains: "Withdraws a challenge of yours nobody has answered yet.",
            },
            Topic {
                names: &["move", "m", "play"],
                usage: "move [#id] <action>",
                explains: "Plays a move, a placement or a secret choice, written as the game writes them: `move e4`, \
                           `move Nf3`, `move Q@d4` (a placement), `move bomb:d2` (Beirut's bomb carrier), \
                           `move base:e3` (CTF's base). `legal` lists what you may write now.",
            },
            Topic {
                names: &["resign", "abort"],
                usage: "resign [#id]   abort [#id]",
                explains: "`resign` gives the game up. `abort` calls it off before both players have moved; it \
                           counts for nobody.",
            },
            Topic {
                names: &["draw", "takeback"],
                usage: "draw offer|accept|decline [#id]   takeback offer|accept|decline [#id]",
                explains: "Offers a draw, or asks to take back your last move (and the reply after it); your \
                           opponent accepts or declines. A move answers an offer too: it lapses.",
            },
            Topic {
                names: &["rematch"],
                usage: "rematch [#id]",
                explains: "After a game, challenges your opponent to the same game again with the sides swapped (in \
                           a Death Match, asks the host).",
            },
            Topic {
                names: &["claim"],
                usage: "claim [#id]",
                explains: "Claims a game your opponent has left untouched for 30 days: a win, or an abort before \
                           their first move.",
            },
        ],
    },
    Section {
        heading: "Your games",
        topics: &[
            Topic {
                names: &["games"],
                usage: "games",
                explains: "Your challenges and games: whose turn it is, since when, and when the time runs out.",
            },
            Topic {
                names: &["show", "board"],
                usage: "show [#id] [words]",
                explains: "The board as you may see it (your own secrets included), and whose turn it is. \
                           With `words`, the board and the moves in words, for a screen reader.",
            },
            Topic {
                names: &["legal"],
                usage: "legal [#id]",
                explains: "Every action you may write now, in the game's notation.",
            },
            Topic {
                names: &["settings"],
                usage: "settings reminders [thread|dm|off]",
                explains: "How a game waiting for you reminds you: in the game's place (default), by direct message, \
                           or not at all. Without a choice, shows yours.",
            },
            Topic {
                names: &["leaderboard"],
                usage: "leaderboard <variant>",
                explains: "The top rated players of a game here.",
            },
            Topic {
                names: &["profile"],
                usage: "profile [user]",
                explains: "A player's ratings, record and games (yours without a name).",
            },
        ],
    },
    Section {
        heading: "Rules, pieces and records",
        topics: &[
            Topic {
                names: &["rules"],
                usage: "rules <variant>   rules #id",
                explains: "The rules as Arbiter plays them; with a game, that game's (with the players' own pieces). \
                           Without a variant, the list of games.",
            },
            Topic {
                names: &["piece"],
                usage: "piece <name>",
                explains: "Any piece's card: its moves on a diagram, its symbol and Betza notation, e.g. `piece \
                           Chinese nightrider`.",
            },
            Topic {
                names: &["export"],
                usage: "export [#id]",
                explains: "The game as a PGN record, with only what you may see.",
            },
            Topic {
                names: &["watch"],
                usage: "watch [#id]",
                explains: "The game's live page and stream overlay links (with `arbiter local --web ADDR`).",
            },
            Topic {
                names: &["replay"],
                usage: "replay [#id]",
                explains: "An animated replay (GIF) of the game so far or finished, as its audience saw it.",
            },
            Topic {
                names: &["import"],
                usage: "import <file> as white|black [vs <user>]",
                explains: "Replays a game record as a new game in which you play that side. With `vs`, the other \
                           player is offered the rest of the game; without it you study it alone, playing both \
                           sides. Imported games are never rated.",
            },
        ],
    },
    Section {
        heading: "Lists of pieces (Pick-the-team 2, Patch, Easy Patch)",
        topics: &[
            Topic {
                names: &["list"],
                usage: "list [#id] <piece>; <piece>; ...   list [#id] file <path>   list [#id] saved <name>",
                explains: "Sends your list of pieces: each piece as `name, symbol, betza` (then `royal` or `pawn` \
                           if it is one) or a catalogue piece's name, separated by `;` (one a line in a file). \
                           Each line is accepted or refused with the reason; you may send it again until your \
                           opponent's is in.",
            },
            Topic {
                names: &["lists"],
                usage: "lists save <name> <pieces>|file <path>   lists show [name]   lists delete <name>",
                explains: "Lists kept for later games (25 at most).",
            },
        ],
    },
    Section {
        heading: "Death Matches (timed Blockade Chess or Garden of Statues; whoever starts one hosts it)",
        topics: &[
            Topic {
                names: &["deathmatch", "dm"],
                usage: "deathmatch <player1> <player2> <advantage> <blockade|garden> [normal] [reserve]",
                explains: "Starts a match between two players, <advantage> holding the Advantage (they choose \
                           colours). Each turn has [normal] time (default 60s), then the player's [reserve] \
                           (default 5m) runs; when it runs out, they lose.",
            },
            Topic {
                names: &["side"],
                usage: "side first|second [#id]",
                explains: "The Advantage holder (or the host) chooses who moves first.",
            },
            Topic {
                names: &["rated"],
                usage: "rated [#id]",
                explains: "A player accepts that the match is rated: it is once both players have, before the \
                           first placement, and moves ratings here only; otherwise it is played unrated.",
            },
            Topic {
                names: &["pause", "resume", "addtime", "adjudicate"],
                usage: "pause [#id]   resume [#id]   addtime <player> <time> [#id]   adjudicate <winner>|draw|abort [#id]",
                explains: "The host's commands: stop and restart the clocks, give a player more reserve, or rule \
                           on the result.",
            },
            Topic {
                names: &["wait"],
                usage: "wait <time>",
                explains: "A line of its own (no name before it): lets the clocks run for a while, e.g. `wait 5s`.",
            },
        ],
    },
    Section {
        heading: "Tournaments (a Swiss with a game per round; whoever creates one hosts it)",
        topics: &[Topic {
            names: &["tournament", "t"],
            usage: "tournament create <name> [| rounds <n>] [| variants <a, b, ...>] [| time handicap|<control>] \
                    [| bands 2040:5m, 1720:7m, 1408:9m, 10m] [| start <in how long>]\n  \
                    tournament join|withdraw|start|pair|close-round|standings|show [t<number>]\n  \
                    tournament adjudicate #<game> white|black|draw|abort",
            explains: "Creates a tournament here (options after `|`), which players join; the host starts it \
                       (or it starts by itself at `start`), pairs each round once the last is over, and rules on \
                       games. See docs/tournaments.md.",
        }],
    },
];

/// Every command, grouped, and how to learn more.
pub fn overview(variants: &str) -> String {
    let mut text = String::from(
        "Lines look like `alice: <command>`; the name before the colon is who acts. \
         `help <command>` explains one.\n",
    );
    for section in SECTIONS {
        text.push_str(&format!("{}:\n", section.heading));
        for topic in section.topics {
            text.push_str(&format!("  {}\n", topic.usage));
        }
    }
    text.push_str("Without #id a command picks your only game that fits. Lines starting with # are comments.\n");
    text.push_str(&format!("Games: {variants}."));
    text
}

/// `help <command>`: how it is written and what it does; `None` for no such command.
pub fn explain(command: &str) -> Option<String> {
    let command = command.trim().trim_start_matches('/').to_lowercase();
    SECTIONS
        .iter()
        .flat_map(|section| section.topics)
        .find(|topic| topic.names.contains(&command.as_str()))
        .map(|topic| format!("{}\n{}", topic.usage, topic.explains))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_is_explained_once() {
        let mut seen = std::collections::HashSet::new();
        for topic in SECTIONS.iter().flat_map(|section| section.topics) {
            for name in topic.names {
                assert!(seen.insert(*name), "{name} is explained twice");
                assert!(explain(name).is_some_and(|text| text.contains(topic.explains)));
            }
        }
        assert_eq!(explain("nonsense"), None);
    }
}
