//! A club night through the fake Discord: a five-round Swiss of the club night's five games for seven
//! players with handicap clocks, a thread for each game linked from each round's announcement, a
//! bye every round, a withdrawal, host adjudications, and standings images to the end.

use crate::bot::*;
use arbiter::ids::{GameId, TournamentId};
use arbiter::tournament::{CLUB_NIGHT_VARIANTS, TournamentStatus};
use fake_discord::{Invoker, command_interaction};
use serde_json::{Value, json};

fn player(n: u64) -> Invoker {
    Invoker {
        user_id: 2_000 + n,
        name: format!("player{n}"),
    }
}

/// `/tournament <sub> options...` by `who`; hosts hold the host role.
fn tournament_command(who: &Invoker, sub: &str, options: Value) -> Value {
    let mut interaction = command_interaction(
        next_id(),
        who,
        CHANNEL,
        "tournament",
        json!([{ "name": sub, "type": 1, "options": options }]),
    );
    if who.user_id == host().user_id {
        interaction["member"]["roles"] = json!([HOST_ROLE.to_string()]);
    }
    interaction
}

/// Tournament #`number` as stored.
async fn tournament_row(bot: &Bot, number: i64) -> arbiter::model::TournamentRow {
    bot.arena
        .store()
        .tournament(TournamentId::new(number))
        .await
        .unwrap()
        .expect("the tournament")
}

/// The games of the tournament's current round.
async fn round_games(bot: &Bot) -> Vec<GameId> {
    let row = tournament_row(bot, 1).await;
    row.tournament
        .rounds
        .last()
        .unwrap()
        .boards
        .iter()
        .map(|b| b.game)
        .collect()
}

/// The host's verdicts, as Discord sends the choice.
const WHITE_WINS: u64 = 0;
const DRAW: u64 = 2;

/// The host adjudicates `game` (`verdict`); returns the answer.
async fn adjudicate(bot: &Bot, game: GameId, verdict: u64) -> fake_discord::Call {
    let answer = bot
        .interact(tournament_command(
            &host(),
            "adjudicate",
            json!([{ "name": "game", "type": 4, "value": game }, { "name": "result", "type": 4, "value": verdict }]),
        ))
        .await;
    assert!(!content(&answer).contains("⚠️"), "{}", answer.json);
    answer
}

/// Waits for the bot's answer to an interaction to be completed (a deferred one edits it).
async fn answer_text(bot: &Bot, answer: &fake_discord::Call) -> String {
    let text = content(answer);
    if !text.is_empty() {
        return text;
    }
    let token = answer.path.split('/').nth(5).unwrap_or_default().to_string();
    let edited = bot
        .fake
        .wait_for_call("the deferred answer", |c| {
            c.method == "PATCH" && c.path.contains(&token)
        })
        .await;
    content(&edited)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_night_of_seven_runs_five_rounds_to_final_standings() {
    let bot = Bot::start().await;
    let created = bot
        .interact(tournament_command(
            &host(),
            "create",
            json!([{ "name": "name", "type": 3, "value": "Club night" }]),
        ))
        .await;
    assert!(content(&created).contains("Tournament #1"), "{}", created.json);
    let text = content(&created);
    assert!(
        text.contains("Tournament #1 · Club night") && text.contains("1 Rejection Chess"),
        "{text}"
    );
    assert!(text.contains("2040 and above: 5 minutes"), "{text}");
    // A player cannot start it; a game that does not exist is refused.
    let refused = bot.interact(tournament_command(&player(1), "start", json!([]))).await;
    assert!(
        is_ephemeral(&refused) && content(&refused).contains("only the host"),
        "{}",
        refused.json
    );
    let unknown = bot
        .interact(tournament_command(
            &host(),
            "create",
            json!([{ "name": "name", "type": 3, "value": "x" }, { "name": "variants", "type": 3, "value": "tiddlywinks" }]),
        ))
        .await;
    assert!(
        content(&unknown).contains("no game called \"tiddlywinks\""),
        "{}",
        unknown.json
    );
    for n in 1..=7 {
        let joined = bot.interact(tournament_command(&player(n), "join", json!([]))).await;
        assert!(content(&joined).contains("joined **Club night**"), "{}", joined.json);
    }
    let twice = bot.interact(tournament_command(&player(3), "join", json!([]))).await;
    assert!(
        is_ephemeral(&twice) && content(&twice).contains("already in"),
        "{}",
        twice.json
    );

    let started = bot.interact(tournament_command(&host(), "start", json!([]))).await;
    let announcement = answer_text(&bot, &started).await;
    assert!(announcement.contains("round 1 of 5: Rejection Chess"), "{announcement}");
    assert!(announcement.contains("Bye (1 point): <@2007>"), "{announcement}");
    // Each game has a thread of its own, linked from the announcement, with its board.
    let names: Vec<String> = bot
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "POST" && c.path == format!("/api/v10/channels/{CHANNEL}/threads"))
        .map(|c| c.json["name"].as_str().unwrap().to_string())
        .collect();
    let mut threads = Vec::new();
    for (name, game) in names.iter().zip(round_games(&bot).await) {
        assert!(
            name.starts_with(&format!("#{game} round 1 · Rejection Chess")),
            "{name}"
        );
        let row = bot.arena.store().game(game).await.unwrap().unwrap();
        threads.push(row.location.local_part().parse::<u64>().unwrap());
    }
    assert_eq!(threads.len(), 3);
    for thread in &threads {
        assert!(announcement.contains(&format!("<#{thread}>")), "{announcement}");
        let first = wait_for_posts(&bot, *thread, 1).await;
        assert_png(&first);
        let text = content(&first);
        assert!(
            text.contains("9 minutes for the game") && text.contains("The game begins"),
            "{text}"
        );
    }

    for (index, variant) in CLUB_NIGHT_VARIANTS.iter().enumerate() {
        let number = index + 1;
        if number > 1 {
            let early = bot.interact(tournament_command(&host(), "pair", json!([]))).await;
            let text = answer_text(&bot, &early).await;
            assert!(
                text.contains(&format!("round {number} of 5: {}", variant.name())),
                "{text}"
            );
        }
        let games = round_games(&bot).await;
        if number == 3 {
            // A player withdraws mid-round; the host adjudicates the others, then closes the
            // round, which forfeits the withdrawn player's unplayed game.
            let last = *games.last().unwrap();
            let row = bot.arena.store().game(last).await.unwrap().unwrap();
            let quitter = row.players.clone().unwrap()[1].display_name().parse::<u64>().unwrap();
            let left = bot
                .interact(tournament_command(&player(quitter - 2_000), "withdraw", json!([])))
                .await;
            assert!(
                content(&left).contains("lost by forfeit when the round closes"),
                "{}",
                left.json
            );
            for &game in &games[..games.len() - 1] {
                adjudicate(&bot, game, WHITE_WINS).await;
            }
            let too_early = bot.interact(tournament_command(&host(), "pair", json!([]))).await;
            assert!(content(&too_early).contains("still being played"), "{}", too_early.json);
            let closed = bot
                .interact(tournament_command(&host(), "close-round", json!([])))
                .await;
            let text = answer_text(&bot, &closed).await;
            assert!(text.contains("round 3 of 5 is over"), "{text}");
        } else {
            // Every other game drawn: seven players, a withdrawal and a field of draws is what
            // needs pairing to look ahead to reach round 5.
            let mut last = None;
            for &game in &games {
                last = Some(adjudicate(&bot, game, DRAW).await);
            }
            let text = answer_text(&bot, &last.unwrap()).await;
            let over = if number == 5 {
                "is over. Final standings"
            } else {
                "of 5 is over"
            };
            assert!(text.contains(over), "round {number}: {text}");
        }
        // Every round's end comes with the standings as an image.
        let images: Vec<Vec<u8>> = bot
            .fake
            .calls()
            .into_iter()
            .flat_map(|c| c.files)
            .filter(|(name, _)| name == "standings.png")
            .map(|(_, bytes)| bytes)
            .collect();
        assert_eq!(
            images.len(),
            2 * number - 1,
            "each round's end, and each announcement after the first"
        );
        assert!(images.iter().all(|png| png.starts_with(b"\x89PNG")));
    }
    let row = tournament_row(&bot, 1).await;
    assert_eq!(row.status, TournamentStatus::Finished);
    let byes = row.tournament.rounds.iter().filter(|r| r.bye.is_some()).count();
    assert_eq!(byes, 3, "a bye in each round before the withdrawal");
    let standings = bot
        .interact(tournament_command(&player(2), "standings", json!([])))
        .await;
    let text = answer_text(&bot, &standings).await;
    assert!(text.contains("standings after 5 of 5 rounds"), "{text}");
    bot.stop().await;
}

/// A tournament created to start in two hours pairs round 1 by itself when the time comes,
/// announcing it in its channel with a thread per game; before then, nothing is paired. One that
/// cannot start as it stands (too few players for its rounds) says why in its channel, once, and
/// stays open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_with_a_start_time_pairs_round_one_by_itself() {
    let bot = Bot::start().await;
    let elsewhere = CHANNEL + 7;
    for (channel, name, players) in [(CHANNEL, "Evening", 1..=6), (elsewhere, "Small", 11..=12)] {
        let in_channel = |mut interaction: Value| {
            interaction["channel_id"] = json!(channel.to_string());
            interaction["channel"]["id"] = json!(channel.to_string());
            interaction
        };
        let create = tournament_command(
            &host(),
            "create",
            json!([{ "name": "name", "type": 3, "value": name }, { "name": "start", "type": 3, "value": "2h" }]),
        );
        let created = bot.interact(in_channel(create)).await;
        assert!(content(&created).contains(name), "{}", created.json);
        for n in players {
            let join = tournament_command(&player(n), "join", json!([]));
            let joined = bot.interact(in_channel(join)).await;
            assert!(
                content(&joined).contains(&format!("joined **{name}**")),
                "{}",
                joined.json
            );
        }
    }
    let row = tournament_row(&bot, 1).await;
    assert!(row.tournament.rounds.is_empty(), "nothing is paired before the start");

    bot.clock.advance(2 * 3_600_000);
    let announced = wait_for_nth(&bot, CHANNEL, 1, |c| content(c).contains("round 1 of 5")).await;
    let text = content(&announced);
    assert!(text.contains("Rejection Chess"), "{text}");
    let games = round_games(&bot).await;
    assert_eq!(games.len(), 3, "six players, three games");
    for game in games {
        let row = bot.arena.store().game(game).await.unwrap().unwrap();
        let thread = row.location.local_part().parse::<u64>().unwrap();
        assert!(text.contains(&format!("<#{thread}>")), "{text}");
        wait_for_posts(&bot, thread, 1).await;
    }
    let row = tournament_row(&bot, 1).await;
    assert_eq!(row.status, TournamentStatus::Running);

    let told = wait_for_nth(&bot, elsewhere, 1, |c| content(c).contains("was due to start")).await;
    let said = content(&told);
    assert!(
        said.contains("2 players cannot play 5 rounds") && said.contains("It stays open"),
        "{said}"
    );
    // Stopped, the bot has delivered all it queued: the channel was told once.
    let fake = bot.fake.clone();
    let arena = bot.arena.clone();
    bot.stop().await;
    let notices = posts_in(&fake, elsewhere)
        .iter()
        .filter(|c| content(c).contains("was due to start"))
        .count();
    assert_eq!(notices, 1, "told once");
    let small = arena
        .store()
        .tournament(TournamentId::new(2))
        .await
        .unwrap()
        .expect("the tournament");
    assert_eq!(small.status, TournamentStatus::Registering, "it stays open");
    assert_eq!(small.starts_at, None, "and is no longer due");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_of_a_bot_serving_pages_gets_a_post_with_each_games_page() {
    let bot = Bot::start_serving_pages().await;
    let base = bot.pages.as_ref().unwrap().base.clone();
    let options = json!([
        { "name": "name", "type": 3, "value": "Club night" },
        { "name": "rounds", "type": 4, "value": 2 },
        { "name": "variants", "type": 3, "value": "chess" },
    ]);
    let created = bot.interact(tournament_command(&host(), "create", options)).await;
    assert!(content(&created).contains("Tournament #1"), "{}", created.json);
    for n in 1..=4 {
        bot.interact(tournament_command(&player(n), "join", json!([]))).await;
    }
    let started = bot.interact(tournament_command(&host(), "start", json!([]))).await;
    let announcement = answer_text(&bot, &started).await;
    assert!(announcement.contains("round 1 of 2"), "{announcement}");
    let games = round_games(&bot).await;
    assert_eq!(games.len(), 2);
    let links = wait_for_nth(&bot, CHANNEL, 1, |call| content(call).contains("Watch round 1 live:")).await;
    let text = content(&links);
    for game in games {
        let line = text
            .lines()
            .find(|line| line.starts_with(&format!("#{game}: ")))
            .unwrap_or_else(|| panic!("#{game} in {text}"));
        assert!(line.contains(&format!("{base}/watch/")), "{line}");
    }
    bot.stop().await;
}
