//! A club night as its host runs it: `/tournament create` (the club night's games, handicap
//! clocks) in a channel of its own, its players join, the host starts it; each round's games
//! are played out in their threads like any other game, and once a round's results are in,
//! the host pairs the next, until the final standings.

use crate::hosting::host_command;
use crate::table::{Played, Table, player};
use arbiter::ids::{GameId, Place, TournamentId};
use arbiter::tournament::{CLUB_NIGHT_VARIANTS, TournamentStatus};
use arbiter_engine::Game;
use fake_discord::Invoker;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The club night's channel, and its players (Discord ids after the games' players').
const CHANNEL: u64 = 800_000;
const FIRST_PLAYER: u64 = 70_000;
const PLAYERS: u64 = 5;
const ROUNDS: usize = 3;

/// `/tournament adjudicate`'s choice for a draw.
const DRAW: u64 = 2;

/// How long the host waits for the bot to make what they asked for (a round, its threads).
const WAIT: Duration = Duration::from_secs(60);

/// What a tournament came to: its games, and what went wrong with it as a whole.
#[derive(Default)]
pub struct Night {
    pub games: Vec<Played>,
    /// Games its host ruled on, left unfinished by their players.
    pub adjudicated: usize,
    pub failures: Vec<String>,
}

impl Table {
    /// Runs a club night of [`ROUNDS`] rounds for [`PLAYERS`] players in `guild`.
    pub async fn club_night(&self, guild: u64, seed: u64) -> Night {
        let mut night = Night::default();
        let players: Vec<Invoker> = (0..PLAYERS).map(|n| player(FIRST_PLAYER + n)).collect();
        // The club night's first games, one a round.
        let games: Vec<&str> = CLUB_NIGHT_VARIANTS[..ROUNDS].iter().map(|v| v.info().id).collect();
        let create = json!({ "name": "create", "type": 1, "options": [
            { "name": "name", "type": 3, "value": "Soak night" },
            { "name": "rounds", "type": 4, "value": ROUNDS },
            { "name": "variants", "type": 3, "value": games.join(",") },
        ] });
        if let Err(told) = self.hosts(guild, create).await {
            night
                .failures
                .push(format!("the club night could not be created: {told}"));
            return night;
        }
        let Some(id) = self.tournament_here().await else {
            night.failures.push("the club night created is not stored".into());
            return night;
        };
        for who in &players {
            let join = self.tournament_command(who, json!({ "name": "join", "type": 1, "options": [] }));
            if let Err(told) = self.until_done(join, guild).await {
                night
                    .failures
                    .push(format!("{} could not join the club night: {told}", who.name));
            }
        }
        if let Err(told) = self
            .hosts(guild, json!({ "name": "start", "type": 1, "options": [] }))
            .await
        {
            night
                .failures
                .push(format!("tournament #{id} could not be started: {told}"));
            return night;
        }
        for round in 1..=ROUNDS {
            if round > 1
                && let Err(told) = self
                    .hosts(guild, json!({ "name": "pair", "type": 1, "options": [] }))
                    .await
            {
                night
                    .failures
                    .push(format!("tournament #{id}: round {round} could not be paired: {told}"));
                return night;
            }
            let Some(games) = self.round_games(id, round).await else {
                night
                    .failures
                    .push(format!("tournament #{id}: round {round} never came"));
                return night;
            };
            let ids: Vec<GameId> = games.iter().map(|played| played.id).collect();
            // The round's games at once, as its players play them.
            let mut boards = tokio::task::JoinSet::new();
            for (board, played) in games.into_iter().enumerate() {
                let table = self.clone();
                let mut rng = StdRng::seed_from_u64(seed ^ (round * 100 + board) as u64);
                boards.spawn(async move { table.play_out(played, false, &mut rng).await });
            }
            while let Some(done) = boards.join_next().await {
                if let Ok(Some(played)) = done {
                    night.games.push(played);
                }
            }
            // A game its players left unfinished (their last tries went unanswered as a process
            // died) is the host's to rule on, as at a club: a draw.
            for game in ids {
                let over = self
                    .game_row(game)
                    .await
                    .is_some_and(|row| row.state.outcome().is_some());
                if over {
                    continue;
                }
                let draw = json!({ "name": "adjudicate", "type": 1, "options": [
                    { "name": "game", "type": 4, "value": game.get() },
                    { "name": "result", "type": 4, "value": DRAW },
                ] });
                match self.hosts(guild, draw).await {
                    Ok(()) => night.adjudicated += 1,
                    Err(told) => night.failures.push(format!(
                        "tournament #{id}: game #{game} could not be adjudicated: {told}"
                    )),
                }
            }
        }
        // The last result ends it (the round's close follows the game's save).
        let until = Instant::now() + WAIT;
        let mut finished = false;
        while !finished && Instant::now() < until {
            finished = self
                .tournament_row(id)
                .await
                .is_some_and(|row| row.status == TournamentStatus::Finished && row.tournament.rounds.len() == ROUNDS);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        if !finished {
            night
                .failures
                .push(format!("tournament #{id} did not finish its {ROUNDS} rounds"));
        }
        night
    }

    /// `/tournament` with `subcommand` by `who` in the club night's channel.
    fn tournament_command(&self, who: &Invoker, subcommand: Value) -> Value {
        fake_discord::command_interaction(crate::table::next_id(), who, CHANNEL, "tournament", json!([subcommand]))
    }

    /// The host sends `/tournament` with `subcommand` until it is done.
    async fn hosts(&self, guild: u64, subcommand: Value) -> Result<(), String> {
        let command = host_command("tournament", CHANNEL, json!([subcommand]));
        self.until_done(command, guild).await
    }

    /// Sends `interaction` (again, with a new id, while it goes unanswered or is refused as the
    /// bot or its database come back, or a round's last result is still coming in); whether it
    /// was done at last, or the last answer.
    async fn until_done(&self, interaction: Value, guild: u64) -> Result<(), String> {
        let until = Instant::now() + WAIT;
        let mut last = Vec::new();
        while Instant::now() < until {
            let mut again = interaction.clone();
            let id = crate::table::next_id();
            again["id"] = json!(id.to_string());
            again["token"] = json!(format!("token{id}"));
            let sent = self.send_noted(again, Some(guild), String::new()).await;
            // A deferred answer is completed by an edit: wait for it.
            for _ in 0..50 {
                let told = self.calls.answered_with(&sent.token);
                if told.iter().any(|text| !text.is_empty()) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            if crate::check::is_acknowledged_command(&self.calls, &sent) {
                return Ok(());
            }
            last = self.calls.answered_with(&sent.token);
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        Err(format!("{last:?}"))
    }

    /// The tournament of the club night's channel.
    async fn tournament_here(&self) -> Option<TournamentId> {
        let place = Place::new(format!("discord:{CHANNEL}"));
        let rows = self.store.tournaments_at(&place).await.ok()?;
        rows.first().map(|row| row.id)
    }

    async fn tournament_row(&self, id: TournamentId) -> Option<arbiter::model::TournamentRow> {
        for _ in 0..60 {
            match self.store.tournament(id).await {
                Ok(row) => return row,
                Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
            }
        }
        None
    }

    /// Round `round`'s games once paired, each in its thread once the bot has opened it (or
    /// the channel, if it could not).
    async fn round_games(&self, id: TournamentId, round: usize) -> Option<Vec<Played>> {
        let until = Instant::now() + WAIT;
        let (boards, variant) = loop {
            let row = self.tournament_row(id).await?;
            if let Some(paired) = row.tournament.rounds.get(round - 1) {
                break (paired.boards.clone(), row.tournament.variants[round - 1]);
            }
            if Instant::now() >= until {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let guild = fake_discord::FakeDiscord::GUILD_ID;
        let mut games = Vec::new();
        for board in boards {
            let mut thread = CHANNEL;
            while Instant::now() < until {
                let row = self.store.game(board.game).await.ok().flatten();
                let place = row.map(|row| row.location.local_part().parse::<u64>().unwrap_or(CHANNEL));
                if let Some(place) = place
                    && place != CHANNEL
                {
                    thread = place;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            games.push(Played::begun(board.game, variant, (thread, CHANNEL), guild, true));
        }
        Some(games)
    }
}
