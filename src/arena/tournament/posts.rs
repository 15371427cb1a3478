//! What a tournament shows: its standings (text and a table image), its page, and each
//! round's announcement with its boards.

use super::*;
use crate::arena::text::{command, plural, where_played};

impl Tournaments<'_> {
    /// The standings, posted at `place`.
    pub async fn standings(self, id: TournamentId, caller: &Caller, place: &Place) -> Result<Effects, ArenaError> {
        let row = self.load_tournament(id).await?;
        require_here(&row, caller)?;
        let results = self.results(id).await?;
        let table = standings(&row.tournament, &results);
        let done = row.tournament.rounds.iter().filter(|r| r.complete).count();
        let text = format!(
            "{} · standings after {done} of {} round{}.\n{}",
            strong(&title(&row.tournament)),
            row.tournament.variants.len(),
            plural(row.tournament.variants.len()),
            leaders(&row.tournament, &table)
        );
        let mut post = plain_post(place, text);
        post.table = Some(standings_table(&row.tournament, &table, &row.tournament.name));
        Ok(Effects {
            posts: vec![post],
            ..Default::default()
        })
    }

    /// A tournament's settings, players and current round, privately.
    pub async fn show(self, id: TournamentId, caller: &Caller) -> Result<Effects, ArenaError> {
        let row = self.load_tournament(id).await?;
        require_here(&row, caller)?;
        let results = self.results(id).await?;
        let t = &row.tournament;
        let rounds: Vec<String> = t
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let mark = if i + 1 == t.rounds.len() && row.status == TournamentStatus::Running {
                    " (now)"
                } else {
                    ""
                };
                format!("{} {}{mark}", i + 1, v.name())
            })
            .collect();
        let status = match row.status {
            TournamentStatus::Registering => "taking entries".to_string(),
            TournamentStatus::Running => format!("round {} of {}", t.rounds.len(), t.variants.len()),
            TournamentStatus::Finished => "finished".to_string(),
        };
        let players: Vec<String> = t
            .players
            .iter()
            .map(|entry| {
                let rating = entry
                    .rating
                    .map_or_else(|| "rating set at the start".into(), |r| r.to_string());
                let out = if entry.withdrawn { ", withdrawn" } else { "" };
                format!("{} ({rating}{out})", name(&entry.user))
            })
            .collect();
        let mut text = format!(
            "{} ({status}), hosted by {}.\nRounds: {}.\nTime: {}.\nPlayers ({}): {}",
            strong(&format!("Tournament #{} · {}", row.id, title(t))),
            name(&t.host),
            rounds.join(", "),
            t.time.describe(),
            t.players.len(),
            if players.is_empty() {
                "none yet".to_string()
            } else {
                players.join(", ")
            }
        );
        if let Some((number, round)) = t.current_round() {
            text.push_str(&format!(
                "\nRound {number}:\n{}",
                board_lines(t, round, &results, &HashMap::new())
            ));
        }
        Ok(Effects::reply(text))
    }

    /// The announcement of a round just paired: every board with its players' clocks and where
    /// it is played, the bye, and the standings before it.
    pub async fn round_announcement(self, id: TournamentId, number: usize) -> Result<Effects, ArenaError> {
        let row = self.load_tournament(id).await?;
        let t = &row.tournament;
        let round = number
            .checked_sub(1)
            .and_then(|i| t.rounds.get(i))
            .ok_or_else(|| ArenaError::Rejected(format!("{} has no round {number}", title(t))))?;
        let games = self.store.tournament_games(id).await?;
        let places: HashMap<GameId, Place> = games.iter().map(|g| (g.id, g.location.clone())).collect();
        let results: HashMap<GameId, BoardResult> = games.iter().map(|g| (g.id, board_result(g))).collect();
        let variant = t.variant_of_round(number).map_or("", |v| v.name());
        let text = format!(
            "{}\n{}",
            strong(&format!(
                "{} · round {number} of {}: {variant}",
                title(t),
                t.variants.len()
            )),
            board_lines(t, round, &results, &places)
        );
        let mut post = plain_post(&row.location, text);
        post.mentions = round
            .boards
            .iter()
            .flat_map(|b| [b.white.clone(), b.black.clone()])
            .collect();
        let table = standings(t, &results);
        if number > 1 {
            post.table = Some(standings_table(
                t,
                &table,
                &format!("{} · before round {number}", t.name),
            ));
        }
        Ok(Effects {
            posts: vec![post],
            ..Default::default()
        })
    }

    /// After a tournament game ended: when it was the round's last, the round is marked over
    /// (once, whoever gets there first) and its end announced with the standings; after the last
    /// round, the tournament is over.
    pub(in crate::arena) async fn round_finished(self, id: TournamentId) -> Result<Effects, ArenaError> {
        self.change_tournament(id, |row, results| {
            if row.status != TournamentStatus::Running {
                return Ok(None);
            }
            let t = &row.tournament;
            let Some((number, round)) = t.current_round() else {
                return Ok(None);
            };
            if round.complete || !pending_boards(round, results).is_empty() {
                return Ok(None);
            }
            let is_last = number >= t.variants.len();
            let table = standings(t, results);
            let text = if is_last {
                format!(
                    "{} is over. Final standings:\n{}",
                    strong(&title(t)),
                    leaders(t, &table)
                )
            } else {
                let next = t.variant_of_round(number + 1).map_or("", |v| v.name());
                format!(
                    "{} · round {number} of {} is over.\n{}\nHosts: {} pairs round {} ({next}).",
                    strong(&title(t)),
                    t.variants.len(),
                    leaders(t, &table),
                    command("tournament pair", &[]),
                    number + 1
                )
            };
            let title = if is_last {
                format!("{} · final standings", t.name)
            } else {
                format!("{} · after round {number}", t.name)
            };
            let mut post = plain_post(&row.location, text);
            post.table = Some(standings_table(t, &table, &title));
            if let Some(round) = row.tournament.rounds.last_mut() {
                round.complete = true;
            }
            if is_last {
                row.status = TournamentStatus::Finished;
            }
            Ok(Some(TournamentChange::say(Effects {
                posts: vec![post],
                ..Default::default()
            })))
        })
        .await
    }
}

/// The first line of a tournament game's first post.
pub(super) fn round_intro(t: &Tournament, game: &GameRow) -> String {
    let round = t.board_of(game.id).map_or(t.rounds.len(), |(number, _)| number);
    let clocks = match game.players.as_ref() {
        Some([white, black]) => format!(
            "{} has {}, {} has {}",
            name(white),
            t.control_of(white).describe(),
            name(black),
            t.control_of(black).describe()
        ),
        None => String::new(),
    };
    format!("{}, round {round}: {clocks}. The game begins.", strong(&title(t)))
}

/// A tournament's name as messages show it: written by its host.
pub(super) fn title(t: &Tournament) -> String {
    user_written(&t.name)
}

/// A post about a tournament rather than one game.
pub(super) fn plain_post(location: &Place, text: String) -> Post {
    Post::plain(None, location, text)
}

pub(super) fn pending_boards<'a>(round: &'a Round, results: &HashMap<GameId, BoardResult>) -> Vec<&'a Board> {
    round
        .boards
        .iter()
        .filter(|b| results.get(&b.game).is_none_or(|r| r.is_pending()))
        .collect()
}

/// "#12 (alice - bob), #13 (carol - dave)".
pub(super) fn games_list(boards: &[&Board]) -> String {
    boards
        .iter()
        .map(|b| format!("#{} ({} - {})", b.game, name(&b.white), name(&b.black)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line a board: "Board 1 · game #12: alice (White, 5 minutes) - bob (Black, 9 minutes) · 1-0",
/// with where the game is played when `places` knows; then the bye.
fn board_lines(
    t: &Tournament,
    round: &Round,
    results: &HashMap<GameId, BoardResult>,
    places: &HashMap<GameId, Place>,
) -> String {
    let clock =
        |user: &UserId| crate::clock::duration_words(t.control_of(user).reserve_ms + t.control_of(user).normal_ms);
    let mut lines: Vec<String> = round
        .boards
        .iter()
        .enumerate()
        .map(|(index, board)| {
            let result = results.get(&board.game).copied().unwrap_or(BoardResult::Pending);
            let score = if result.is_pending() {
                String::new()
            } else {
                format!(" · {}", result.score_text())
            };
            let place = places.get(&board.game).map(where_played).unwrap_or_default();
            format!(
                "Board {} · game #{}{place}: {} (White, {}) - {} (Black, {}){score}",
                index + 1,
                board.game,
                name(&board.white),
                clock(&board.white),
                name(&board.black),
                clock(&board.black)
            )
        })
        .collect();
    if let Some(bye) = &round.bye {
        lines.push(format!("Bye (1 point): {}", name(bye)));
    }
    lines.join("\n")
}

/// "Leading: alice 3½, bob 3" (the top three places).
pub(super) fn leaders(t: &Tournament, table: &[Standing]) -> String {
    let top: Vec<String> = table
        .iter()
        .take(3)
        .map(|s| {
            format!(
                "{}. {} {}",
                s.rank,
                name(&t.players[s.player].user),
                points_text(s.points)
            )
        })
        .collect();
    if top.is_empty() {
        "No players.".into()
    } else {
        top.join(" · ")
    }
}

/// The standings as a table image: rank, player, score, tie-breaks, and each round's result with
/// colour and opponent (by rank).
pub(super) fn standings_table(t: &Tournament, table: &[Standing], title: &str) -> Table {
    let rank_of: HashMap<usize, usize> = table.iter().enumerate().map(|(row, s)| (s.player, row + 1)).collect();
    let mut header: Vec<String> = ["#", "Player", "Score", "Buchholz", "S-B"].map(String::from).to_vec();
    header.extend((1..=t.rounds.len()).map(|r| format!("R{r}")));
    let rows = table
        .iter()
        .map(|s| {
            let entry = &t.players[s.player];
            let rank = if s.shared {
                format!("{}=", s.rank)
            } else {
                s.rank.to_string()
            };
            let player = entry.user.display_name().to_string();
            let mut row = vec![
                rank,
                player,
                points_text(s.points) + if entry.withdrawn { " (w)" } else { "" },
                points_text(s.buchholz),
                quarter_points_text(s.sonneborn),
            ];
            row.extend(s.cells.iter().map(|cell| cell_text(cell, &rank_of)));
            row
        })
        .collect();
    Table {
        title: title.to_string(),
        header,
        rows,
        name_column: Some(1),
        legend: "Each round: points, colour (W/B) and the opponent's place; f forfeit, x void, * playing; (w) withdrew"
            .into(),
    }
}

/// "1 W4", "½ B2", "0f W6", "* W3", "bye", "-".
fn cell_text(cell: &Cell, rank_of: &HashMap<usize, usize>) -> String {
    match *cell {
        Cell::Game {
            colour,
            opponent,
            result,
        } => {
            let c = if colour == Colour::White { "W" } else { "B" };
            let place = rank_of.get(&opponent).copied().unwrap_or(0);
            let points = match result {
                BoardResult::Pending => "*".to_string(),
                BoardResult::Void => "x".to_string(),
                BoardResult::Won { forfeit: true, .. } => format!("{}f", points_text(result.half_points(colour))),
                _ => points_text(result.half_points(colour)),
            };
            format!("{points} {c}{place}")
        }
        Cell::Bye => "bye".into(),
        Cell::Absent => "-".into(),
    }
}

/// Quarter points as people write them: "2", "1½", "¾", "2¼".
fn quarter_points_text(quarters: u32) -> String {
    let whole = quarters / 4;
    let fraction = ["", "¼", "½", "¾"][(quarters % 4) as usize];
    match (whole, fraction) {
        (0, "") => "0".into(),
        (0, f) => f.into(),
        (w, f) => format!("{w}{f}"),
    }
}
