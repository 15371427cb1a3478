//! Lists of players' own pieces through the fake Discord: the DM button that opens a form, a
//! refused line and its correction, a list saved with `/lists` and sent with `/list`, the form
//! opened from the thread for a player whose DMs are closed, the game's pieces on `/rules`, and no
//! list's content in any public call before both are in.

use crate::bot::*;
use arbiter_engine::VariantId;
use fake_discord::{
    Call, FakeDiscord, dm_component_interaction, dm_modal_submit_interaction, modal_submit_interaction,
};
use serde_json::json;

const ALICE_LIST: &str =
    "Queen, Q, Q\nRook, R, R\nBishop, B, B\nKnight, N, N\nWildebeest, WB, NC\nCardinal, CD, BN\nPao, PA, mRcpR";
const ALICE_FIXED: &str =
    "Queen, Q, Q\nRook, R, R\nBishop, B, B\nKnight, N, N\nWildebeest, WB, NC\nCardinal, CD, BN\nGiraffe, GF, fbsN";
const BOB_LIST: &str =
    "Wazir, W, W; Ferz, F, F; Alfil, AL, A; Dabbabah, DA, D; Mann, MN, K; Threeleaper, H, H; Tripper, TR, G";

/// A sheet of piece diagrams: larger than a board image, well within Discord's limits.
const SHEET_BYTES: usize = 1024 * 1024;

/// The form a click opened: its custom id, after checking it holds one text field.
fn form_of(answer: &Call) -> String {
    assert_eq!(answer.json["type"], 9, "a modal opens: {}", answer.json);
    let data = &answer.json["data"];
    assert_eq!(data["components"][0]["components"][0]["type"], 4, "{data}");
    assert_eq!(
        data["components"][0]["components"][0]["style"], 2,
        "a paragraph: {data}"
    );
    data["custom_id"].as_str().expect("a custom id").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_are_written_in_a_form_corrected_saved_and_kept_secret_until_both_are_in() {
    let bot = Bot::start().await;
    bot.fake.close_dms_of(1_002);
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let mut private = Vec::new();
    let (game, thread) = bot.started(variant_index(VariantId::EasyPatch)).await;

    // alice's DM asks for her list, with a button that opens the form.
    let prompt = wait_for_nth(&bot, alice_dm, 1, |_| true).await;
    assert!(
        content(&prompt).contains("Send your list of 7 non-royal pieces")
            && content(&prompt).contains("Use the **Write your list** button below"),
        "{}",
        prompt.json
    );
    let write = button(&prompt, &format!("arb:writelist:{game}:"), "");
    let id = next_id();
    private.push(id);
    let opened = bot
        .interact(dm_component_interaction(
            id,
            &alice(),
            alice_dm,
            &write,
            2,
            Vec::new(),
            bot.shown(alice_dm, &write),
        ))
        .await;
    let form = form_of(&opened);
    assert!(form.starts_with(&format!("arb:listform:{game}:")), "{form}");

    // bob's DMs are closed: the thread offers him the private button (posted as the game began).
    let fallback = wait_for_nth(&bot, thread, 1, |c| {
        content(c).contains("could not send you a direct message")
    })
    .await;

    // A pao breaks the row rule: the line is refused with why, and nothing is recorded.
    let posts_before = posts_in(&bot.fake, thread).len();
    let id = next_id();
    private.push(id);
    let refused = bot
        .interact(dm_modal_submit_interaction(
            id,
            &alice(),
            alice_dm,
            &form,
            &[("pieces", ALICE_LIST)],
        ))
        .await;
    let text = content(&refused);
    assert!(is_ephemeral(&refused), "{}", refused.json);
    assert!(text.contains("is not accepted; nothing was recorded"), "{text}");
    assert!(
        text.contains("1. ✓ Queen (Q) `Q`: 27 squares on an empty board"),
        "{text}"
    );
    assert!(
        text.contains("7. ✗ Pao (PA) `mRcpR`: standing on a1 with rows 1 and 2 full, it captures on a8"),
        "{text}"
    );
    assert_png_within(&refused, SHEET_BYTES);

    // Corrected: accepted, with the sheet; the thread learns only that a list is in.
    let id = next_id();
    private.push(id);
    let accepted = bot
        .interact(dm_modal_submit_interaction(
            id,
            &alice(),
            alice_dm,
            &form,
            &[("pieces", ALICE_FIXED)],
        ))
        .await;
    let text = content(&accepted);
    assert!(text.contains(&format!("Your list for game #{game} is in")), "{text}");
    assert!(text.contains("7. ✓ Giraffe (GF) `fbsN`: 6 squares"), "{text}");
    assert_png_within(&accepted, SHEET_BYTES);
    let announced = wait_for_nth(&bot, thread, 1, |c| content(c).contains("submitted a list")).await;
    assert!(
        content(&announced).contains("<@1001> submitted a list."),
        "{}",
        announced.json
    );
    // The thread heard of the accepted list only, nothing of the refused one before it (which
    // would have been posted first).
    assert_eq!(
        posts_in(&bot.fake, thread).len(),
        posts_before + 1,
        "the thread hears of the accepted list alone"
    );

    // The private button shows the DM's buttons, the first of which opens the same form.
    let privately = button(&fallback, "arb:private:", "");
    let id = next_id();
    private.push(id);
    let shown = bot
        .interact(fake_discord::component_interaction(
            id,
            &bob(),
            thread,
            &privately,
            2,
            Vec::new(),
            bot.shown(thread, &privately),
        ))
        .await;
    assert!(is_ephemeral(&shown), "{}", shown.json);
    let write = button(&shown, "arb:writelist:", "");
    assert!(
        custom_ids(&shown.json).iter().any(|id| id.starts_with("arb:drawlist:")),
        "{}",
        shown.json
    );
    let id = next_id();
    private.push(id);
    let opened = bot
        .interact(fake_discord::component_interaction(
            id,
            &bob(),
            thread,
            &write,
            2,
            Vec::new(),
            bot.message_of(&shown),
        ))
        .await;
    let form = form_of(&opened);
    // A form sent back with nothing that reads as a piece changes nothing.
    let id = next_id();
    private.push(id);
    let garbage = bot
        .interact(modal_submit_interaction(
            id,
            &bob(),
            thread,
            &form,
            &[("pieces", "ÿÿÿ, ✓, ((((")],
        ))
        .await;
    assert!(content(&garbage).contains("plain ASCII"), "{}", garbage.json);

    // bob saves a list and sends it by name.
    let id = next_id();
    private.push(id);
    let saved = bot
        .interact(fake_discord::command_interaction(
            id,
            &bob(),
            thread,
            "lists",
            json!([{ "name": "save", "type": 1, "options": [
                { "name": "name", "type": 3, "value": "weak" },
                { "name": "text", "type": 3, "value": BOB_LIST },
            ]}]),
        ))
        .await;
    assert!(
        content(&saved).contains("Saved your list **weak** (7 pieces)"),
        "{}",
        saved.json
    );
    assert!(is_ephemeral(&saved));

    // Until now no public call holds a word of either list.
    let public = public_text(&bot.fake, &private);
    for secret in ["Wildebeest", "Giraffe", "fbsN", "Tripper", "mRcpR"] {
        assert!(!public.contains(secret), "{secret} leaked: {public}");
    }

    let id = next_id();
    private.push(id);
    let sent = bot
        .interact(fake_discord::command_interaction(
            id,
            &bob(),
            thread,
            "list",
            json!([{ "name": "saved", "type": 3, "value": "weak" }]),
        ))
        .await;
    // The command's answer in the thread is the public post; bob's verdict comes privately.
    assert!(
        content(&sent).contains("both lists are in and revealed"),
        "{}",
        sent.json
    );
    let verdict = bot
        .fake
        .wait_for_call("bob's private verdict", |c| {
            c.path.contains("/webhooks/") && c.json.to_string().contains("Both lists are in: they are locked")
        })
        .await;
    assert_ne!(
        verdict.json["flags"].as_u64().unwrap_or(0) & 64,
        0,
        "ephemeral: {}",
        verdict.json
    );
    assert!(content(&sent).contains("<@1002> submitted a list"), "{}", sent.json);
    assert!(content(&sent).contains("<@1001>"), "alice picks first: {}", sent.json);
    assert_png(&sent);

    // A list sent now is refused: both are locked.
    let late = bot
        .interact(modal_submit_interaction(
            next_id(),
            &alice(),
            thread,
            &format!("arb:listform:{game}:1"),
            &[("pieces", ALICE_FIXED)],
        ))
        .await;
    assert!(content(&late).contains("are locked: both are in"), "{}", late.json);

    // The game's rules show its pieces, both lists, to anyone asking in the thread.
    let rules = bot.command(&carol(), thread, "rules", json!([])).await;
    let text = content(&rules);
    assert!(text.contains(&format!("**The pieces of game #{game}**")), "{text}");
    assert!(
        text.contains("Giraffe, GF, fbsN") && text.contains("Tripper, TR, G"),
        "{text}"
    );
    bot.stop().await;
}
