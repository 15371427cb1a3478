//! The invariants, checked at the end from the database and the calls the fake recorded: each
//! failure names the game, the action and what shows it.

use crate::calls::{Calls, Sent, is_refusal};
use crate::secrets::{Secret, named, secrets_of, still_secret};
use crate::table::Played;
use arbiter::model::rebuild;
use arbiter::model::{LogEntry, LoggedEntry};
use arbiter::ratings::{RatedResult, ladders};
use arbiter::store::Store;
use arbiter_engine::Game;
use fake_discord::Call;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// What the checks found.
#[derive(Debug, Default)]
pub struct Findings {
    /// Actions acknowledged to a player that their game's log does not hold; finished games
    /// whose result was never posted.
    pub lost: usize,
    /// Actions in a log that no player sent, or sent once and stored twice; a result, warning
    /// or forfeit posted twice.
    pub duplicated: usize,
    /// Public calls naming a secret before it was public.
    pub leaked: usize,
    /// Actions never answered, apart from those in flight when a process was killed.
    pub unanswered: usize,
    pub unanswered_at_kills: usize,
    /// Games whose stored position is not the replay of their log.
    pub mismatched: usize,
    /// Timed games whose player walked away and did not lose on time when due, or games
    /// concluded more than once.
    pub deadlines_missed: usize,
    /// Players whose rating is not the recomputation from the stored results.
    pub ratings_wrong: usize,
    /// Requests Discord would have refused by its rules.
    pub refused: usize,
    /// A line for each failure.
    pub failures: Vec<String>,
    /// For each game with a lost, duplicated or leaked action, its whole story (what its players sent
    /// and were told, and its log, in time order), by game id: written beside the bots' logs.
    pub stories: BTreeMap<i64, String>,
}

impl Findings {
    pub fn holds(&self) -> bool {
        self.failures.is_empty()
    }
}

/// An `Instant` of this process as the store's milliseconds since the epoch.
#[derive(Clone, Copy)]
pub struct Timeline {
    instant: Instant,
    ms: i64,
}

impl Timeline {
    pub fn now() -> Timeline {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        Timeline {
            instant: Instant::now(),
            ms,
        }
    }

    pub fn ms(self, at: Instant) -> i64 {
        match at.checked_duration_since(self.instant) {
            Some(after) => self.ms + after.as_millis() as i64,
            None => self.ms - self.instant.duration_since(at).as_millis() as i64,
        }
    }
}

/// "21:59:35.477", UTC: a moment as the bots' logs show it.
pub fn clock_time(ms: i64) -> String {
    let of_day = ms.rem_euclid(86_400_000);
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        of_day / 3_600_000,
        of_day / 60_000 % 60,
        of_day / 1000 % 60,
        of_day % 1000
    )
}

/// Whether the player was told the action was played: "Done." where the game's posts go
/// elsewhere, or an answer that shows the move. (A refusal, which may name the move too, starts
/// with a warning sign.)
pub fn is_acknowledged(calls: &Calls, sent: &Sent) -> bool {
    calls.answered_with(&sent.token).iter().any(|text| {
        !is_refusal(text)
            && (text == "Done." || text.contains(&sent.text) || LIST_IS_IN.iter().any(|said| text.contains(said)))
    })
}

/// Whether a command was done: answered with something other than a refusal.
pub fn is_acknowledged_command(calls: &Calls, sent: &Sent) -> bool {
    let told = calls.answered_with(&sent.token);
    told.iter().any(|text| !text.is_empty()) && !calls.refused(sent)
}

/// How the bot acknowledges a list (whose notation it does not repeat): to its writer, or in
/// public when it is the second.
const LIST_IS_IN: [&str; 2] = ["Your list for game #", " submitted a list"];

/// What the checks read besides the games: every call, which interactions were private, when
/// the processes were killed.
pub struct Evidence<'a> {
    pub calls: &'a Calls,
    pub all_calls: &'a [Call],
    pub private: &'a HashSet<u64>,
    pub kills: &'a [crate::faults::Outage],
    pub timeline: Timeline,
    /// Games' records as a spectator exported them at the end, by game id.
    pub exports: &'a std::collections::HashMap<i64, String>,
}

/// Public calls by where they were made: a channel's id, or the token of the interaction they
/// answer; read once, so each game looks only at its own.
fn by_place(public: Vec<&Call>) -> HashMap<String, Vec<&Call>> {
    let mut places: HashMap<String, Vec<&Call>> = HashMap::new();
    for call in public {
        let parts: Vec<&str> = call.path.split('/').collect();
        let place = match parts.get(3) {
            Some(&"channels") => parts.get(4),
            Some(&"interactions") | Some(&"webhooks") => parts.get(5),
            _ => None,
        };
        if let Some(place) = place {
            places.entry(place.to_string()).or_default().push(call);
        }
    }
    places
}

/// Checks every game played.
pub async fn check(games: &[Played], store: &dyn Store, evidence: &Evidence<'_>) -> Findings {
    let mut found = Findings::default();
    let public = by_place(fake_discord::public_calls(evidence.all_calls, evidence.private));
    let mut results = Vec::new();
    for game in games {
        let name = format!("game #{} ({})", game.id.get(), game.variant.info().id);
        let (Ok(Some(row)), Ok(log)) = (store.game(game.id).await, store.log(game.id).await) else {
            found.failures.push(format!("{name}: cannot be read back"));
            found.lost += 1;
            continue;
        };
        check_actions(&name, game, &log, evidence, &mut found);
        match rebuild(&row.setup, &log) {
            Ok(replayed) if replayed == row.state => {}
            Ok(_) => {
                found.mismatched += 1;
                found
                    .failures
                    .push(format!("{name}: the stored position is not the replay of its log"));
            }
            Err(e) => {
                found.mismatched += 1;
                found.failures.push(format!("{name}: its log does not replay: {e}"));
            }
        }
        check_posts(&name, game, &row.state, evidence.calls, &mut found);
        check_deadlines(&name, game, &log, &mut found);
        let secrets = secrets_of(&row, &log);
        let leaked_before = found.leaked;
        check_secrets(&name, game, &secrets, &public, evidence, &mut found);
        if found.leaked > leaked_before {
            let mut told = story(game, &log, evidence);
            for secret in &secrets {
                let public = secret.public_at.map_or("never".to_string(), clock_time);
                told.push_str(&format!(
                    "secret `{}` from {} until {public}\n",
                    secret.text,
                    clock_time(secret.made_at)
                ));
            }
            found.stories.insert(game.id.get(), told);
        }
        if let (Some(outcome), Some(players), true) = (row.state.outcome(), &row.players, row.is_rated)
            && let Some(result) = RatedResult::of(row.server.as_ref(), row.setup.variant, players, outcome)
        {
            let ended = log.last().map_or(row.updated_at, |last| last.at);
            results.push((ended, game.id.get(), result));
        }
    }
    check_ratings(results, store, &mut found).await;
    found
}

/// How long after a walk-away the clock certainly plays nothing yet.
const CLOCK_IDLE: std::time::Duration = std::time::Duration::from_secs(5);

/// The log's actions against what the players sent, in order: each sent action is either the
/// next one stored or was never applied; an acknowledged one must have been. Taken-back actions
/// stay in the log, so every action ever applied is compared.
fn check_actions(name: &str, game: &Played, log: &[LoggedEntry], evidence: &Evidence<'_>, found: &mut Findings) {
    let stored = players_actions(game, log, evidence);
    if let Some((from, false)) = game.imported_from {
        found.mismatched += 1;
        found.failures.push(format!(
            "{name}: imported from game #{}'s record, it did not begin where the record left off",
            from.get()
        ));
    }
    let mut next = 0;
    // What was taken for refused, to show beside actions stored beyond what was sent.
    let mut taken_as_refused = Vec::new();
    let mut lost_here = 0;
    let mut actions: Vec<&Sent> = game.sent.iter().filter(|s| s.is_action()).collect();
    for index in 0..actions.len() {
        // Two players' actions sent at once (a sealed choice each, the second sent while the
        // first was still being saved) may be stored either way round: both were legal then, so
        // the order says nothing lost.
        if let (Some(first), Some(second)) = (actions.get(index), actions.get(index + 1))
            && first.by != second.by
            && stored.get(next) == Some(&second.text.as_str())
            && stored.get(next + 1) == Some(&first.text.as_str())
            && first.text != second.text
        {
            actions.swap(index, index + 1);
        }
        let sent = actions[index];
        let acknowledged = is_acknowledged(evidence.calls, sent);
        // One answered with a refusal was not applied, whatever the next stored action is.
        let refused = evidence.calls.refused(sent);
        if refused {
            taken_as_refused.push(format!(
                "`{}`: {:?}",
                sent.text,
                evidence.calls.answered_with(&sent.token)
            ));
        }
        // One whose fate the player never learnt (no answer, or only a deferral, as when a
        // process died at it) and which the same player then sent again, acknowledged: the
        // stored one is the second. (Another player's equal action, as two identical lists,
        // is no resend.)
        let unknown = !acknowledged && !refused;
        // Others of theirs in between whose fate is as unknown (sent as a process died) or which
        // were refused do not count: the next they were told was played is what tells.
        let sent_again = unknown
            && actions[index + 1..]
                .iter()
                .filter(|later| later.by == sent.by)
                .find(|later| is_acknowledged(evidence.calls, later))
                .is_some_and(|later| later.text == sent.text);
        let refused = refused || sent_again;
        if !refused && stored.get(next) == Some(&sent.text.as_str()) {
            next += 1;
        } else if acknowledged {
            found.lost += 1;
            lost_here += 1;
            // The first few say what happened; the rest follow from them.
            if lost_here > 3 {
                continue;
            }
            found
                .failures
                .push(lost_action(name, game, sent, &stored[next..], evidence));
        }
    }
    if lost_here > 0 || next < stored.len() {
        found.stories.insert(game.id.get(), story(game, log, evidence));
    }
    if next < stored.len() {
        found.duplicated += stored.len() - next;
        found.failures.push(format!(
            "{name}: the log holds {:?} beyond what the players sent (answered as refused: {taken_as_refused:?})",
            &stored[next..]
        ));
    }
    check_unanswered(name, game, evidence, found);
}

/// The actions the players stored in the log themselves. An imported game's first actions came
/// from its record, not from its players here; and once a player walked away, nobody sent
/// anything more: what the log holds after that the clock played (Rejection's unanswered
/// proposal counts as accepted). An action sent just before walking away may be stored a moment
/// after; the clock plays nothing for a turn's first seconds (each has 20 s), so what is stored
/// within them is still the players'.
fn players_actions<'a>(game: &Played, log: &'a [LoggedEntry], evidence: &Evidence<'_>) -> Vec<&'a str> {
    let walked_away = game
        .walked_away
        .map(|at| evidence.timeline.ms(at) + CLOCK_IDLE.as_millis() as i64);
    log.iter()
        .filter(|logged| matches!(logged.entry, LogEntry::Act { .. }))
        .skip(game.imported)
        .filter(|logged| walked_away.is_none_or(|walked| logged.at < walked))
        .map(|logged| logged.notation.as_str())
        .collect()
}

/// The failure of an acknowledged action missing from the log: what was answered, what the log
/// holds `from_there`, and what the players sent up to it, as the checker read each.
fn lost_action(name: &str, game: &Played, sent: &Sent, from_there: &[&str], evidence: &Evidence<'_>) -> String {
    let from_there: Vec<&&str> = from_there.iter().take(4).collect();
    let before: Vec<String> = game
        .sent
        .iter()
        .filter(|s| s.is_action())
        .take_while(|s| s.token != sent.token)
        .map(|s| {
            let how = match (s.answered, is_acknowledged(evidence.calls, s)) {
                (_, true) => "acknowledged",
                (true, false) => "refused",
                (false, _) => "unanswered",
            };
            format!("{} {how}", s.text.chars().take(24).collect::<String>())
        })
        .collect();
    let last_few = &before[before.len().saturating_sub(6)..];
    format!(
        "{name}: `{}` was acknowledged but is not in the log (answered {:?}; the log from there: {from_there:?}; sent before it: {last_few:?})",
        sent.text,
        evidence.calls.answered_with(&sent.token)
    )
}

/// What the players sent and never heard back about: near a process killed, expected; anywhere
/// else, a failure with the calls that answered it late, if any.
fn check_unanswered(name: &str, game: &Played, evidence: &Evidence<'_>, found: &mut Findings) {
    for sent in game.sent.iter().filter(|s| !s.answered) {
        let near_kill = evidence
            .kills
            .iter()
            .any(|outage| outage.overlaps(sent.at, crate::table::patience()));
        if near_kill {
            found.unanswered_at_kills += 1;
        } else {
            found.unanswered += 1;
            let calls: Vec<String> = evidence
                .all_calls
                .iter()
                .filter(|call| call.path.contains(&sent.token))
                .map(|call| {
                    let after = call.at.saturating_duration_since(sent.at);
                    format!(
                        "{} {} after {} ms, answered {}",
                        call.method,
                        call.path,
                        after.as_millis(),
                        call.status
                    )
                })
                .collect();
            found.failures.push(format!(
                "{name}: `{}` sent at {} was never answered within {} s (by {}): {calls:?}",
                sent.text,
                clock_time(evidence.timeline.ms(sent.at)),
                crate::table::patience().as_secs(),
                sent.token
            ));
        }
    }
}

/// A game's story: what its players sent and were told, and what its log holds, each line
/// stamped with its time as the bots' logs show it.
fn story(game: &Played, log: &[LoggedEntry], evidence: &Evidence<'_>) -> String {
    let mut lines: Vec<(i64, String)> = Vec::new();
    for sent in &game.sent {
        let answers: Vec<String> = evidence
            .calls
            .answered_with(&sent.token)
            .iter()
            .map(|text| text.replace('\n', " / ").chars().take(140).collect())
            .collect();
        lines.push((
            evidence.timeline.ms(sent.at),
            format!(
                "sent by {}: `{}` ({}), told {answers:?}",
                sent.by, sent.text, sent.token
            ),
        ));
    }
    for logged in log {
        let what = match &logged.entry {
            LogEntry::Act { seat, .. } => format!("{seat:?} played"),
            LogEntry::Takeback { plies } => format!("{plies} taken back"),
            LogEntry::Conclude { outcome } => format!("concluded {}", outcome.result_text()),
        };
        let notation: String = logged.notation.chars().take(60).collect();
        lines.push((logged.at, format!("log #{}: {what} `{notation}`", logged.seq)));
    }
    lines.sort_by_key(|(at, _)| *at);
    let mut text = format!("game #{} ({})\n", game.id.get(), game.variant.info().id);
    for (at, line) in lines {
        text.push_str(&format!("{} {line}\n", clock_time(at)));
    }
    text
}

/// How the recap of a game's latest change after a restart begins.
const RECAP: &str = "Arbiter stopped before it could show this game's latest change";

/// Warnings of a clock, which come once a turn.
const WARNINGS: [&str; 3] = [
    " of normal time left in this turn.",
    "your normal time is over; your reserve is running",
    " of reserve left.",
];

/// One result post for a finished game (in its thread, or the channel it went back to); no
/// warning posted twice running, no forfeit twice.
fn check_posts(name: &str, game: &Played, state: &arbiter_engine::AnyGame, calls: &Calls, found: &mut Findings) {
    let thread = calls.posts(game.thread);
    if let Some(outcome) = state.outcome() {
        // Its thread, the thread a moderator deleted under it, the channel a game whose thread
        // was closed goes back to (where other games' posts are told apart by their number).
        let places: Vec<String> = game.places().into_iter().flat_map(|place| calls.posts(place)).collect();
        let result = format!("{} · ", outcome.result_text());
        let number = format!("#{} ", game.id.get());
        // Posted in the thread, or as the answer to the move or resignation that ended it.
        let answers = game.sent.iter().flat_map(|sent| calls.answered_with(&sent.token));
        let (recaps, posts): (Vec<String>, Vec<String>) = places
            .into_iter()
            .chain(answers)
            .filter(|text| {
                text.contains(&number)
                    && text.contains(&result)
                    && (text.contains(" wins by ") || text.contains(" drawn by "))
            })
            // The recap a restarted bot posts of a change it may not have shown before it was
            // killed (it cannot know) comes at least once, by design, and says so: it is no
            // second result, and it stands in for one that was never posted.
            .partition(|text| text.contains(RECAP));
        if posts.len() > 1 || posts.is_empty() && recaps.is_empty() {
            let shown: Vec<String> = posts.iter().map(|p| p.chars().take(160).collect()).collect();
            if posts.is_empty() {
                found.lost += 1;
            } else {
                found.duplicated += 1;
            }
            found.failures.push(format!(
                "{name}: {} result posts in its thread, not 1: {shown:?}",
                posts.len()
            ));
        }
    }
    let twice = thread
        .windows(2)
        .find(|pair| pair[0] == pair[1] && WARNINGS.iter().any(|w| pair[0].contains(w)));
    if let Some(pair) = twice {
        found.duplicated += 1;
        found
            .failures
            .push(format!("{name}: the warning \"{}\" was posted twice running", pair[0]));
    }
    // A forfeit ends the game; running out of time may also play an action for the player
    // (Rejection's answer), which says so without a result.
    let forfeits = thread
        .iter()
        .filter(|text| text.contains(" ran out of time.") && text.contains(" wins by "))
        .count();
    if forfeits > 1 {
        found.duplicated += 1;
        found
            .failures
            .push(format!("{name}: the forfeit on time was posted {forfeits} times"));
    }
}

/// A game ends once; a timed game whose player walked away ends on time when due.
fn check_deadlines(name: &str, game: &Played, log: &[LoggedEntry], found: &mut Findings) {
    let concluded = log
        .iter()
        .filter(|logged| matches!(logged.entry, LogEntry::Conclude { .. }))
        .count();
    if concluded > 1 {
        found.deadlines_missed += 1;
        found.failures.push(format!("{name}: concluded {concluded} times"));
    }
    if game.walked_away.is_some() && !game.forfeited_in_time {
        found.deadlines_missed += 1;
        found.failures.push(format!(
            "{name}: a player walked away from a {} game and it did not end on time within {} s of the flag",
            crate::table::TIME_CONTROL,
            crate::table::FORFEIT_SLACK.as_secs()
        ));
    }
}

/// No public call in the game's place (its posts, the public answers to its players) names a
/// secret before the game made it public.
fn check_secrets(
    name: &str,
    game: &Played,
    secrets: &[Secret],
    public: &HashMap<String, Vec<&Call>>,
    evidence: &Evidence<'_>,
    found: &mut Findings,
) {
    if secrets.is_empty() {
        return;
    }
    // Its own thread whole; the channel it shares with its series' other games (and where a
    // Death Match is played) by the posts that name it.
    let number = format!("#{} ", game.id.get());
    let number = number.as_str();
    let in_thread = game.places().into_iter().flat_map(|place| {
        let own = place != game.channel;
        let calls = public.get(&place.to_string()).into_iter().flatten();
        calls.filter(move |call| own || call.json["content"].as_str().is_some_and(|text| text.contains(number)))
    });
    let answers = game
        .sent
        .iter()
        .flat_map(|sent| public.get(&sent.token).into_iter().flatten());
    for call in in_thread.chain(answers) {
        let text = words_of(call);
        if let Some(secret) = named(secrets, &text, evidence.timeline.ms(call.at)) {
            found.leaked += 1;
            found.failures.push(format!(
                "{name}: the secret `{}` was named in public by {} {} before it was revealed: {}",
                secret.text,
                call.method,
                call.path,
                text.chars().take(300).collect::<String>()
            ));
        }
    }
    if let Some(export) = evidence.exports.get(&game.id.get()) {
        for secret in still_secret(secrets) {
            if let Some(line) = export.lines().find(|line| crate::secrets::names(line, &secret.text)) {
                found.leaked += 1;
                found.failures.push(format!(
                    "{name}: the secret `{}` is in a spectator's export: {line}",
                    secret.text
                ));
            }
        }
    }
}

/// A public call's words, its images' descriptions left out: a description lists the public
/// position square by square, and a hidden action written as a square (a pawn's `h6`) would match
/// a piece standing there later. Descriptions are built from the spectators' view, and the
/// tests of `render::words` and `discord_alt_text` hold them to it.
fn words_of(call: &Call) -> String {
    let mut json = call.json.clone();
    let body = if json.get("data").is_some() {
        &mut json["data"]
    } else {
        &mut json
    };
    if let Some(attachments) = body.get_mut("attachments").and_then(|a| a.as_array_mut()) {
        for attachment in attachments {
            attachment["description"] = serde_json::Value::Null;
        }
    }
    json.to_string()
}

/// Every rating is the recomputation of its player's rated results on its server's ladder, in
/// the order they ended.
async fn check_ratings(mut results: Vec<(i64, i64, RatedResult)>, store: &dyn Store, found: &mut Findings) {
    results.sort_by_key(|(ended, id, _)| (*ended, *id));
    let expected = ladders(results.into_iter().map(|(ended, _, result)| (result, ended)));
    for want in &expected {
        let (user, variant) = (want.user.as_str(), want.variant.info().id);
        let stored = store
            .rating(want.server.as_ref(), &want.user, want.variant)
            .await
            .ok()
            .flatten();
        let same = stored.as_ref().is_some_and(|got| {
            (got.games, got.wins, got.draws, got.losses) == (want.games, want.wins, want.draws, want.losses)
                && (got.rating - want.rating).abs() < 1e-6
                && (got.deviation - want.deviation).abs() < 1e-6
        });
        if !same {
            found.ratings_wrong += 1;
            found.failures.push(format!(
                "{user}'s {variant} rating is {:?}, not {:.1} after {} games",
                stored.map(|r| (r.rating, r.games)),
                want.rating,
                want.games
            ));
        }
    }
}
