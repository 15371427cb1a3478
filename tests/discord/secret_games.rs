//! Games with secrets in play through the fake Discord: a Rejection Chess game with a rejection,
//! a forced single move and a mate, answered by DM buttons and by the private fallback; a Capture
//! the Flag game from the secret bases through a catch, a drop, a return and a win at home. Every
//! public call is checked for the secrets.

use crate::bot::*;
use arbiter_engine::EndReason;
use arbiter_engine::Game;
use arbiter_engine::Seat;
use arbiter_engine::VariantId;
use fake_discord::Call;
use fake_discord::Failure;
use fake_discord::FakeDiscord;
use fake_discord::autocomplete_interaction;
use fake_discord::component_interaction;
use fake_discord::dm_component_interaction;
use serde_json::Value;
use serde_json::json;

fn is_fallback(call: &Call) -> bool {
    content(call).contains("could not send you a direct message")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejection_game_is_answered_by_dm_and_by_the_private_button_and_keeps_its_rejected_move_secret() {
    let bot = Bot::start().await;
    // alice's DMs are closed: her answers go through the thread's private button.
    bot.fake.close_dms_of(1_001);
    let bob_dm = FakeDiscord::dm_channel_id(1_002);
    let (game, thread) = bot
        .started_from(variant_index(VariantId::Rejection), "k7/8/1K6/8/8/8/8/7R b - - 0 1")
        .await;
    let mut private = Vec::new();

    // bob has one legal move: played at once, nobody answers it.
    let forced = bot.play(&bob(), thread, "Kb8").await;
    let text = content(&forced);
    assert!(text.contains("played Kb8, the only legal move"), "{text}");
    assert!(text.contains("<@1001>") && text.contains("to move"), "{text}");

    // alice proposes Rc1: the thread hears only that a move was proposed.
    let proposed = bot.play(&alice(), thread, "Rc1").await;
    assert!(
        content(&proposed).contains("<@1001> proposed a move."),
        "{}",
        proposed.json
    );
    assert!(proposed.files.is_empty(), "no board: nothing visible changed");
    let confirmation = bot
        .fake
        .wait_for_call("alice's private confirmation", |c| {
            c.path.contains("/webhooks/") && c.json.to_string().contains("Recorded: `Rc1`")
        })
        .await;
    assert!(confirmation.json.to_string().contains("Only your opponent can see it"));
    // bob's DM: the proposal on his board, with Accept and Reject buttons.
    let offer = wait_for_posts(&bot, bob_dm, 1).await;
    assert!(content(&offer).contains("White proposes Rc1"), "{}", offer.json);
    assert_png(&offer);
    let reject = button(&offer, &format!("arb:answer:{game}:"), ":reject");
    let labels = offer.json.to_string();
    assert!(
        labels.contains("\"Accept\"") && labels.contains("\"Reject\""),
        "{labels}"
    );
    let id = next_id();
    private.push(id);
    let rejected = bot
        .interact(dm_component_interaction(
            id,
            &bob(),
            bob_dm,
            &reject,
            2,
            Vec::new(),
            bot.shown(bob_dm, &reject),
        ))
        .await;
    assert_eq!(
        rejected.json["type"], 7,
        "the buttons become the confirmation: {}",
        rejected.json
    );
    let announced = bot
        .fake
        .wait_for_call("the rejection in the thread", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages") && content(c).contains("rejected")
        })
        .await;
    assert!(
        content(&announced).contains("<@1002> rejected White's proposal; White plays another move"),
        "{}",
        announced.json
    );
    // alice's prompt naming the refused move cannot reach her by DM: the thread offers the button.
    let fallback = wait_for_nth(&bot, thread, 1, is_fallback).await;
    let privately = button(&fallback, "arb:private:", "");
    let id = next_id();
    private.push(id);
    let prompt = bot
        .interact(component_interaction(
            id,
            &alice(),
            thread,
            &privately,
            2,
            Vec::new(),
            bot.shown(thread, &privately),
        ))
        .await;
    assert!(is_ephemeral(&prompt), "{}", prompt.json);
    assert!(content(&prompt).contains("Black rejected Rc1"), "{}", prompt.json);
    // Suggestions leave the refused move out.
    let typed = fake_discord::autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "R", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    let offered = suggested(&suggestions);
    assert!(
        offered.iter().any(|o| o == "Rh7") && !offered.iter().any(|o| o == "Rc1"),
        "{offered:?}"
    );
    let played = bot.play(&alice(), thread, "Rh7").await;
    assert!(
        content(&played).contains("played Rh7 in place of the rejected proposal"),
        "{}",
        played.json
    );
    assert_png(&played);

    // bob proposes Ka8: alice answers through the private button; the move stays unnamed until then.
    bot.play(&bob(), thread, "Ka8").await;
    let public = public_text(&bot.fake, &private);
    assert!(!public.contains("Ka8"), "a pending proposal leaked: {public}");
    let fallback = wait_for_nth(&bot, thread, 2, is_fallback).await;
    let button_now = button(&fallback, "arb:private:", "");
    let id = next_id();
    private.push(id);
    let answer = bot
        .interact(component_interaction(
            id,
            &alice(),
            thread,
            &button_now,
            2,
            Vec::new(),
            bot.shown(thread, &button_now),
        ))
        .await;
    assert!(content(&answer).contains("Black proposes Ka8"), "{}", answer.json);
    let accept = button(&answer, &format!("arb:answer:{game}:"), ":accept");
    let id = next_id();
    private.push(id);
    bot.interact(component_interaction(
        id,
        &alice(),
        thread,
        &accept,
        2,
        Vec::new(),
        bot.shown(thread, &accept),
    ))
    .await;
    let accepted = bot
        .fake
        .wait_for_call("the acceptance", |c| content(c).contains("accepted Black's Ka8"))
        .await;
    assert!(
        content(&accepted).contains("<@1001> accepted Black's Ka8."),
        "{}",
        accepted.json
    );
    // bob is told privately his proposal was accepted.
    let told = wait_for_posts(&bot, bob_dm, 2).await;
    assert!(
        content(&told).contains("White accepted your proposal: Ka8 is played."),
        "{}",
        told.json
    );

    // alice mates; bob accepts by DM.
    bot.play(&alice(), thread, "Rh8#").await;
    let offer = wait_for_posts(&bot, bob_dm, 3).await;
    let accept = button(&offer, &format!("arb:answer:{game}:"), ":accept");
    let id = next_id();
    private.push(id);
    bot.interact(dm_component_interaction(
        id,
        &bob(),
        bob_dm,
        &accept,
        2,
        Vec::new(),
        bot.shown(bob_dm, &accept),
    ))
    .await;
    let mate = bot
        .fake
        .wait_for_call("the mate", |c| content(c).contains("wins by checkmate"))
        .await;
    assert!(content(&mate).contains("1-0"), "{}", mate.json);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.state.outcome().unwrap().reason, EndReason::Checkmate);

    // Nothing public ever named the rejected move, and the export for spectators hides it too.
    let public = public_text(&bot.fake, &private);
    let leaks: Vec<&str> = public.lines().filter(|line| line.contains("Rc1")).collect();
    assert!(leaks.is_empty(), "the rejected move leaked: {leaks:#?}");
    let export = bot.command(&carol(), thread, "export", json!([])).await;
    let pgn = String::from_utf8(export.files[0].1.clone()).unwrap();
    assert!(!pgn.contains("Rc1") && pgn.contains("[Secrets"), "{pgn}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_the_flag_game_runs_from_secret_bases_to_a_flag_brought_home() {
    let bot = Bot::start().await;
    // bob's DMs are closed: he chooses his base through the private button.
    bot.fake.close_dms_of(1_002);
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let (game, thread) = bot.started(variant_index(VariantId::Ctf)).await;
    let mut private = Vec::new();

    let prompt = wait_for_posts(&bot, alice_dm, 1).await;
    assert!(content(&prompt).contains("Choose your base"), "{}", prompt.json);
    let menus = custom_ids(&prompt.json);
    assert_eq!(menus.len(), 2, "32 squares in two menus: {menus:?}");
    let id = next_id();
    private.push(id);
    bot.interact(dm_component_interaction(
        id,
        &alice(),
        alice_dm,
        &menus[0],
        3,
        vec!["base:f3".into()],
        bot.shown(alice_dm, &menus[0]),
    ))
    .await;
    let fallback = wait_for_nth(&bot, thread, 1, is_fallback).await;
    let privately = button(&fallback, "arb:private:", "");
    let id = next_id();
    private.push(id);
    let own = bot
        .interact(component_interaction(
            id,
            &bob(),
            thread,
            &privately,
            2,
            Vec::new(),
            bot.shown(thread, &privately),
        ))
        .await;
    assert!(
        is_ephemeral(&own) && content(&own).contains("Choose your base"),
        "{}",
        own.json
    );
    let menu = custom_ids(&own.json)
        .into_iter()
        .find(|m| m.starts_with("arb:menu:"))
        .unwrap();
    let id = next_id();
    private.push(id);
    bot.interact(component_interaction(
        id,
        &bob(),
        thread,
        &menu,
        3,
        vec!["base:e5".into()],
        bot.shown(thread, &menu),
    ))
    .await;
    let revealed = bot
        .fake
        .wait_for_call("the bases revealed", |c| content(c).contains("revealed"))
        .await;
    assert!(
        content(&revealed).contains("base:f3") && content(&revealed).contains("base:e5"),
        "{}",
        revealed.json
    );

    // A catch at the enemy base, a drop, a return by Black, a second catch, and home.
    let moves = [
        (alice(), "Nf3"),
        (bob(), "a6"),
        (alice(), "Ne5"),
        (bob(), "a5"),
        (alice(), "Nc4"),
        (bob(), "b6"),
        (alice(), "drop"),
        (bob(), "h6"),
        (alice(), "Ne3"),
        (bob(), "Nc6"),
        (alice(), "Ng4"),
        (bob(), "Ne5"),
        (alice(), "h3"),
        (bob(), "Nc4"),
        (alice(), "Ne5"),
        (bob(), "h5"),
    ];
    for (who, text) in moves {
        let answer = bot.play(&who, thread, text).await;
        assert!(!is_ephemeral(&answer), "{text}: {}", answer.json);
    }
    let notes: Vec<String> = bot.fake.calls().iter().map(content).collect();
    assert!(
        notes.iter().any(|n| n.contains("Black's flag: lying on c4")),
        "the drop: {notes:?}"
    );
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert!(row.state.outcome().is_none());
    let win = bot.play(&alice(), thread, "Nf3").await;
    let text = content(&win);
    assert!(
        text.contains("[N]f3") && text.contains("wins by bringing the flag home"),
        "{text}"
    );
    assert_png(&win);
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(row.state.outcome().unwrap().winner, Some(Seat::First));

    // Until both were chosen, nothing public named a base.
    let calls = bot.fake.calls();
    let before_reveal: Vec<&Call> = calls
        .iter()
        .take_while(|c| !content(c).contains("revealed"))
        .filter(|c| {
            ![alice_dm, FakeDiscord::dm_channel_id(1_002)]
                .iter()
                .any(|dm| c.path.contains(&format!("/channels/{dm}/")))
        })
        .filter(|c| {
            // Private clicks' responses, and their follow-ups and edits (by token).
            !private
                .iter()
                .any(|id| c.path.contains(&format!("/interactions/{id}/")) || c.path.contains(&format!("/token{id}/")))
        })
        .filter(|c| !(c.path.contains("/interactions/") && is_ephemeral(c)))
        .filter(|c| !(c.path.contains("/webhooks/") && c.json["flags"].as_u64().unwrap_or(0) & 64 != 0))
        .collect();
    for call in before_reveal {
        let text = call.json.to_string();
        assert!(
            !text.contains("base:f3") && !text.contains("base:e5"),
            "a base leaked: {text}"
        );
    }
    bot.stop().await;
}

/// Found by the soak: a DM that met a passing 5xx was given up at once, and the player was sent
/// to the private button as though their DMs were closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_choice_prompt_that_meets_a_server_error_is_sent_again_by_dm() {
    let bot = Bot::start().await;
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let path = format!("/api/v10/channels/{alice_dm}/messages");
    bot.fake.fail("POST", &path, Failure::ServerError, 1);
    bot.started(3).await;
    let prompt = bot
        .fake
        .wait_for_call("alice's prompt, delivered", |c| c.path == path && c.status == 200)
        .await;
    assert!(prompt.json.to_string().contains("bomb:d2"), "{}", prompt.json);
    let tries: Vec<u16> = bot
        .fake
        .calls()
        .iter()
        .filter(|c| c.path == path)
        .map(|c| c.status)
        .collect();
    assert_eq!(tries, [500, 200], "one refusal, then the prompt itself");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beirut_bomb_choices_go_by_dm_and_stay_secret() {
    let bot = Bot::start().await;
    let (game, thread) = bot.started(3).await;
    let alice_dm = FakeDiscord::dm_channel_id(1_001);
    let bob_dm = FakeDiscord::dm_channel_id(1_002);
    let prompt = bot
        .fake
        .wait_for_call("alice's prompt", |c| {
            c.path == format!("/api/v10/channels/{alice_dm}/messages")
        })
        .await;
    assert_png(&prompt);
    let menu = custom_ids(&prompt.json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .expect("a menu");
    let options = prompt.json.to_string();
    assert!(
        options.contains("bomb:d2") && !options.contains("bomb:e1"),
        "her own units, never the king"
    );
    bot.fake
        .wait_for_call("bob's prompt", |c| {
            c.path == format!("/api/v10/channels/{bob_dm}/messages")
        })
        .await;

    // Autocomplete in the thread offers alice her own choices too.
    let typed = autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "bomb:d", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    assert_eq!(suggestions.json["type"], 8);
    let choices = suggested(&suggestions);
    assert!(
        choices.iter().any(|c| c == "bomb:d2") && choices.iter().all(|c| c.starts_with("bomb:d")),
        "{choices:?}"
    );

    let private = [next_id(), next_id()];
    let chosen = bot
        .interact(dm_component_interaction(
            private[0],
            &alice(),
            alice_dm,
            &menu,
            3,
            vec!["bomb:d2".into()],
            bot.shown(alice_dm, &menu),
        ))
        .await;
    assert_eq!(
        chosen.json["type"], 7,
        "the menu becomes the confirmation: {}",
        chosen.json
    );
    assert!(content(&chosen).contains("bomb:d2"));
    assert!(custom_ids(&chosen.json).is_empty());
    let bob_menu = custom_ids(&posts_in(&bot.fake, bob_dm)[0].json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .unwrap();
    let bobs = bot
        .interact(dm_component_interaction(
            private[1],
            &bob(),
            bob_dm,
            &bob_menu,
            3,
            vec!["bomb:e7".into()],
            bot.shown(bob_dm, &bob_menu),
        ))
        .await;
    assert_eq!(
        bobs.json["type"], 7,
        "bob's menu still works after alice chose: {}",
        bobs.json
    );
    let e4 = bot.play(&alice(), thread, "e4").await;
    assert!(content(&e4).contains("played e4"), "{}", e4.json);

    // An old menu changes nothing once the game moved on.
    let again = bot
        .interact(dm_component_interaction(
            next_id(),
            &alice(),
            alice_dm,
            &menu,
            3,
            vec!["bomb:c2".into()],
            bot.shown(alice_dm, &menu),
        ))
        .await;
    assert!(
        is_ephemeral(&again) && content(&again).contains("out of date"),
        "{}",
        again.json
    );

    let public = public_text(&bot.fake, &private);
    assert!(
        !public.contains("bomb:d2") && !public.contains("bomb:e7"),
        "a carrier leaked: {public}"
    );
    assert!(public.contains("chose a bomb carrier"));
    let state = bot.arena.store().game(game).await.unwrap().unwrap();
    assert_eq!(state.state.view(arbiter_engine::Viewer::Spectator).record.len(), 3);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_closed_dms_chooses_through_the_private_button() {
    let bot = Bot::start().await;
    bot.fake.close_dms_of(1_002);
    let (_, thread) = bot.started(3).await;
    let notice = bot
        .fake
        .wait_for_call("the fallback notice", |c| {
            c.path == format!("/api/v10/channels/{thread}/messages")
                && content(c).contains("could not send you a direct message")
        })
        .await;
    assert!(content(&notice).contains("<@1002>"));
    assert!(
        !notice.json.to_string().contains("bomb:"),
        "the notice reveals nothing: {}",
        notice.json
    );
    let button = custom_ids(&notice.json)
        .into_iter()
        .find(|id| id.starts_with("arb:private:"))
        .expect("a Choose privately button");

    // Someone else pressing it learns nothing.
    let outsider = bot.click(&carol(), thread, &button, bot.shown(thread, &button)).await;
    assert!(
        is_ephemeral(&outsider) && content(&outsider).contains("not playing"),
        "{}",
        outsider.json
    );

    let private = bot.click(&bob(), thread, &button, bot.shown(thread, &button)).await;
    assert!(is_ephemeral(&private), "only bob sees it: {}", private.json);
    assert_png(&private);
    let menu = custom_ids(&private.json)
        .into_iter()
        .find(|id| id.starts_with("arb:menu:"))
        .expect("a menu");
    assert!(private.json.to_string().contains("bomb:e7"));
    let choice = next_id();
    let chosen = bot
        .interact(component_interaction(
            choice,
            &bob(),
            thread,
            &menu,
            3,
            vec!["bomb:e7".into()],
            bot.shown(thread, &menu),
        ))
        .await;
    assert_eq!(chosen.json["type"], 7);
    assert!(content(&chosen).contains("bomb:e7"));
    let public = public_text(&bot.fake, &[choice]);
    assert!(!public.contains("bomb:e7"), "bob's carrier leaked: {public}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assault_match_keeps_each_submitted_move_secret_until_both_are_in() {
    let bot = Bot::start().await;
    let assault = VariantId::ALL.iter().position(|&v| v == VariantId::Assault).unwrap() as u8;
    let (game, thread) = bot.started(assault).await;
    // Each step: alice (A) submits first, then bob (B) completes it; bob mates on board 2.
    let steps = [
        ("e4", "e4"),
        ("g5", "Nf6"),
        ("Nc3", "Nh3"),
        ("f6", "Nxe4"),
        ("Rb1", "Qh5"),
    ];
    for (step, (alices, bobs)) in steps.iter().enumerate() {
        let submitted = bot.play(&alice(), thread, alices).await;
        let text = content(&submitted);
        assert!(text.contains("alice") || text.contains("<@1001>"), "{}", submitted.json);
        assert!(text.contains("submitted a move on board"), "{}", submitted.json);
        assert!(submitted.files.is_empty(), "no image while nothing visible changed");
        let confirmation = bot
            .fake
            .wait_for_call("alice's private confirmation", |c| {
                c.path.contains("/webhooks/") && c.json.to_string().contains(&format!("Recorded: `{alices}`"))
            })
            .await;
        assert!(
            confirmation.json["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0,
            "{}",
            confirmation.json
        );
        // Nothing public names alice's move before bob's arrives (the first steps' moves may
        // have been revealed already, so only moves not played before are checked).
        if step > 0 {
            // The images' words list the public position's squares ("knights b8 f6"), which a
            // move may share; no image is posted while a move is pending (asserted above), so
            // the messages' own words are what could leak it.
            let public: String = public_text(&bot.fake, &[])
                .lines()
                .map(|line| {
                    let mut call: Value = serde_json::from_str(line).unwrap();
                    let body = if call.get("data").is_some() {
                        &mut call["data"]
                    } else {
                        &mut call
                    };
                    if let Some(attachments) = body.get_mut("attachments").and_then(Value::as_array_mut) {
                        attachments.iter_mut().for_each(|a| a["description"] = Value::Null);
                    }
                    call.to_string()
                })
                .collect::<Vec<_>>()
                .join("\n");
            // Whole words only: "f6" is not in "Nf6".
            let leaked = public
                .split(|c: char| !(c.is_ascii_alphanumeric() || "=+#".contains(c)))
                .any(|word| word.trim_end_matches(['+', '#']) == *alices);
            assert!(!leaked, "{alices} leaked: {public}");
        }
        let revealed = bot.play(&bob(), thread, bobs).await;
        assert!(
            content(&revealed).contains(&format!("(revealed: <@1001>'s {alices})")),
            "{}",
            revealed.json
        );
        assert_png(&revealed);
        // Both boards side by side, as chat apps show an image best (a tall strip is shrunk to
        // fit its height): the image is wider than tall (IHDR: width, then height).
        let png = &revealed.files[0].1;
        let (width, height) = (
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            u32::from_be_bytes(png[20..24].try_into().unwrap()),
        );
        assert!(width > height, "{width}x{height}");
    }
    let row = bot.arena.store().game(game).await.unwrap().unwrap();
    let outcome = row.state.outcome().expect("mate on board 2").clone();
    assert_eq!(outcome.winner, Some(arbiter_engine::Seat::Second));
    bot.stop().await;
}
