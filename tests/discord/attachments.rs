//! Files players attach (a game record to `/import`, a list of pieces to `/list`), fetched from
//! Discord's CDN: too big, not text, or not fetched, each is refused privately with the reason and
//! changes nothing.

use crate::bot::*;
use arbiter::ids::UserId;
use arbiter::model::GameStatus;
use fake_discord::{Failure, Invoker, command_interaction};
use serde_json::{Value, json};

/// `/import file:… side:White` by alice, alone, of a file with these bytes; `size` is what the
/// attachment says of itself (Discord's figure), the file's length unless given.
fn import_file(bot: &Bot, bytes: &[u8], size: Option<usize>) -> Value {
    let mut attachment = bot.fake.attach("game.pgn", bytes);
    if let Some(size) = size {
        attachment["size"] = json!(size);
    }
    let id = attachment["id"].as_str().unwrap().to_string();
    let options = json!([
        { "name": "file", "type": 11, "value": id },
        { "name": "side", "type": 4, "value": 0 },
    ]);
    let mut interaction = command_interaction(next_id(), &alice(), CHANNEL, "import", options);
    interaction["data"]["resolved"] = json!({ "attachments": { id: attachment } });
    interaction
}

/// `/lists save name:… file:…` by `who`, of a file with these bytes.
fn save_list_file(who: &Invoker, bot: &Bot, name: &str, bytes: &[u8]) -> Value {
    let attachment = bot.fake.attach("list.txt", bytes);
    let id = attachment["id"].as_str().unwrap().to_string();
    let options = json!([{ "name": "save", "type": 1, "options": [
        { "name": "name", "type": 3, "value": name },
        { "name": "file", "type": 11, "value": id },
    ] }]);
    let mut interaction = command_interaction(next_id(), who, CHANNEL, "lists", options);
    interaction["data"]["resolved"] = json!({ "attachments": { id: attachment } });
    interaction
}

async fn games_of_alice(bot: &Bot) -> usize {
    let statuses = [GameStatus::Challenge, GameStatus::Active, GameStatus::Finished];
    bot.arena
        .store()
        .games_of(&UserId::new("discord:1001"), &statuses)
        .await
        .unwrap()
        .len()
}

async fn saved_lists_of_alice(bot: &Bot) -> Vec<arbiter::model::SavedList> {
    bot.arena
        .store()
        .saved_lists(&UserId::new("discord:1001"))
        .await
        .unwrap()
}

/// The private answer says `words`.
fn refused_saying(answer: &fake_discord::Call, words: &str) {
    assert!(is_ephemeral(answer), "private: {}", answer.json);
    assert!(
        content(answer).contains(words),
        "\"{}\" should say \"{words}\"",
        content(answer)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_record_too_big_not_text_or_not_fetched_is_refused_and_nothing_is_made() {
    let bot = Bot::start().await;
    let record = b"[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 *\n";

    // Discord says the file is bigger than a record can be: not even fetched.
    let big = bot.interact(import_file(&bot, record, Some(2_000_000))).await;
    refused_saying(&big, "KB; at most");
    // It claims to be small but is not: measured after fetching.
    let mut padded = record.to_vec();
    padded.extend(std::iter::repeat_n(b' ', 1_100_000));
    let lying = bot.interact(import_file(&bot, &padded, Some(100))).await;
    refused_saying(&lying, "that file is too big");
    // Not UTF-8 text.
    let binary = bot
        .interact(import_file(&bot, b"\x89PNG\r\n\x1a\n\xff\xfe", None))
        .await;
    refused_saying(&binary, "that file is not text");
    // Discord's CDN fails once: said so, and attaching it again works.
    bot.fake.fail("GET", "/cdn/", Failure::ServerError, 1);
    let failed = bot.interact(import_file(&bot, record, None)).await;
    refused_saying(&failed, "could not fetch that file from Discord");
    assert!(
        !content(&failed).contains("/cdn/"),
        "the file's address is not repeated: {}",
        content(&failed)
    );
    assert_eq!(games_of_alice(&bot).await, 0, "nothing was imported");

    let imported = bot.interact(import_file(&bot, record, None)).await;
    assert!(
        !is_ephemeral(&imported) || !content(&imported).contains("could not"),
        "{}",
        imported.json
    );
    assert_eq!(games_of_alice(&bot).await, 1, "the good file makes one game");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_file_too_big_or_not_text_is_refused_and_a_good_one_is_saved() {
    let bot = Bot::start().await;
    let big = vec![b'Q'; 9_000];
    let answer = bot.interact(save_list_file(&alice(), &bot, "big", &big)).await;
    refused_saying(&answer, "KB; at most");
    let answer = bot
        .interact(save_list_file(&alice(), &bot, "bytes", b"Queen\n\xff\xfe"))
        .await;
    refused_saying(&answer, "that file is not text");
    bot.fake.fail("GET", "/cdn/", Failure::ServerError, 1);
    let answer = bot.interact(save_list_file(&alice(), &bot, "lost", b"Queen\n")).await;
    refused_saying(&answer, "could not fetch that file from Discord");
    let kept = saved_lists_of_alice(&bot).await;
    assert!(kept.is_empty(), "nothing saved: {kept:?}");

    let answer = bot
        .interact(save_list_file(&alice(), &bot, "pair", b"Queen\nRook\n"))
        .await;
    assert!(is_ephemeral(&answer), "{}", answer.json);
    let kept = saved_lists_of_alice(&bot).await;
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].name, "pair");
    bot.stop().await;
}

/// A CDN that takes each connection, reads the request and never answers, as a stalled one
/// does: its address, and how many connections it took. It holds at most a few (a test makes
/// one per file), for as long as the test runs.
async fn stalled_cdn() -> (
    String,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
    tokio::task::JoinHandle<()>,
) {
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let taken = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = taken.clone();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        for _ in 0..8 {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let mut request = [0; 4096];
            let _ = socket.read(&mut request).await;
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(socket);
        }
        std::future::pending::<()>().await;
    });
    (format!("http://{address}/attachments/1/file.txt"), taken, task)
}

/// `interaction` with its one attachment served by `url` instead of the fake's CDN.
fn served_from(mut interaction: Value, url: &str) -> Value {
    let attachments = interaction["data"]["resolved"]["attachments"]
        .as_object_mut()
        .expect("an attachment");
    for attachment in attachments.values_mut() {
        attachment["url"] = json!(url);
        attachment["proxy_url"] = json!(url);
    }
    interaction
}

/// Sends `interaction`, whose file never comes: it is deferred within Discord's 3 s, then its
/// caller is told, privately, that the file did not come in time.
async fn answered_in_time(bot: &Bot, interaction: Value) {
    let token = interaction["token"].as_str().unwrap().to_string();
    let sent = std::time::Instant::now();
    let first = bot.interact(interaction).await;
    assert_eq!(
        first.json["type"], 5,
        "deferred while the file is fetched: {}",
        first.json
    );
    assert!(
        first.at.duration_since(sent) < std::time::Duration::from_secs(3),
        "deferred within Discord's 3 s"
    );
    let told = bot
        .fake
        .wait_for_call("the answer that the file did not come", |c| {
            c.path.contains(&format!("/{token}")) && content(c).contains(arbiter::discord::attachments::TOO_SLOW)
        })
        .await;
    let calls = bot.fake.calls();
    let public = fake_discord::public_calls(&calls, &std::collections::HashSet::new());
    assert!(
        !public
            .iter()
            .any(|c| content(c).contains(arbiter::discord::attachments::TOO_SLOW)),
        "privately: {}",
        told.json
    );
    assert!(
        told.at.duration_since(sent) < std::time::Duration::from_secs(10),
        "the file's wait ends with the timeouts, not Discord's 15 minutes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_the_cdn_never_sends_is_refused_in_time_and_nothing_is_made() {
    let bot = Bot::start_fetching_within(arbiter::discord::FetchTimeouts {
        connect: std::time::Duration::from_secs(1),
        total: std::time::Duration::from_secs(3),
    })
    .await;
    let (url, taken, cdn) = stalled_cdn().await;
    let record = b"[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 *\n";
    answered_in_time(&bot, served_from(import_file(&bot, record, None), &url)).await;
    answered_in_time(
        &bot,
        served_from(save_list_file(&alice(), &bot, "stalled", b"Queen\n"), &url),
    )
    .await;
    let list = {
        let attachment = bot.fake.attach("list.txt", b"Queen\n");
        let id = attachment["id"].as_str().unwrap().to_string();
        let options = json!([{ "name": "file", "type": 11, "value": id }]);
        let mut interaction = command_interaction(next_id(), &alice(), CHANNEL, "list", options);
        interaction["data"]["resolved"] = json!({ "attachments": { id: attachment } });
        interaction
    };
    answered_in_time(&bot, served_from(list, &url)).await;
    assert_eq!(
        taken.load(std::sync::atomic::Ordering::SeqCst),
        3,
        "each file was asked of the stalled CDN"
    );
    assert_eq!(games_of_alice(&bot).await, 0, "nothing was imported");
    let kept = saved_lists_of_alice(&bot).await;
    assert!(kept.is_empty(), "nothing saved: {kept:?}");
    cdn.abort();
    bot.stop().await;
}
