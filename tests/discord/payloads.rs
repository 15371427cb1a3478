//! Discord's interaction payloads, as raw JSON fixtures shaped like Discord's documented examples
//! (tests/fixtures/discord/), read by serenity and then by the bot's adapter.

use crate::bot::*;
use arbiter::arena::Button;
use arbiter::discord::Click;
use arbiter::discord::Component;
use arbiter::discord::read_click;
use arbiter::ids::GameId;
use arbiter::ids::UserId;
use fake_discord::autocomplete_interaction;
use serde_json::json;
use serenity::all::Interaction;

fn fixture(name: &str) -> Interaction {
    let path = format!("{}/tests/fixtures/discord/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"))
}

fn click(name: &str) -> Click {
    match fixture(name) {
        Interaction::Component(component) => read_click(&component),
        other => panic!("{name}: not a component interaction: {:?}", other.kind()),
    }
}

#[test]
fn a_button_in_a_guild_channel_names_the_game_its_version_and_the_clicker() {
    assert_eq!(
        click("button_click.json"),
        Click {
            component: Some(Component::Button {
                button: Button::AcceptChallenge,
                game: GameId::new(12),
                version: 1,
            }),
            user: UserId::new("discord:53908232506183680"),
            here: "discord:645027906669510667".into(),
            place: "discord:645027906669510667".into(),
            choice: None,
        }
    );
}

#[test]
fn a_button_in_a_thread_starts_new_games_in_the_threads_channel() {
    let click = click("button_in_thread.json");
    assert_eq!(
        click.component,
        Some(Component::Button {
            button: Button::Rematch,
            game: GameId::new(12),
            version: 9,
        })
    );
    assert_eq!(click.here, "discord:1176000000000000001");
    assert_eq!(click.place, "discord:645027906669510667", "a thread's parent");
}

#[test]
fn a_menu_choice_in_a_dm_carries_the_chosen_action() {
    let click = click("select_in_dm.json");
    assert_eq!(
        click.component,
        Some(Component::Choose {
            game: GameId::new(7),
            version: 3,
            prompt_key: None,
        })
    );
    assert_eq!(click.choice.as_deref(), Some("bomb:d2"));
    assert_eq!(
        click.user,
        UserId::new("discord:53908232506183680"),
        "a DM has `user`, not `member`"
    );
    assert_eq!(click.here, "discord:645027906669510999");
    let second = self::click("second_menu_in_dm.json");
    assert_eq!(
        second.component,
        Some(Component::Choose {
            game: GameId::new(7),
            version: 3,
            prompt_key: None,
        })
    );
    assert_eq!(second.choice.as_deref(), Some("bomb:h2"));
}

#[test]
fn a_component_of_another_app_is_not_ours() {
    let click = click("foreign_button.json");
    assert_eq!(click.component, None);
    assert_eq!(click.choice, None);
}

#[test]
fn broken_payloads_are_refused_by_the_parser_not_by_a_panic() {
    for text in ["", "{", "{\"type\": 3}", "{\"type\": 99, \"id\": \"1\"}", "[1, 2, 3]"] {
        assert!(serde_json::from_str::<Interaction>(text).is_err(), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_buttons_outsiders_and_malformed_payloads_change_nothing() {
    let bot = Bot::start().await;
    let challenge = bot.challenge(&alice(), &bob(), 0, 1).await;
    let first = custom_ids(&challenge.json)
        .into_iter()
        .find(|id| id.starts_with("arb:accept:"))
        .unwrap();
    // Only bob may accept.
    let wrong = bot.click(&carol(), CHANNEL, &first, bot.message_of(&challenge)).await;
    assert!(
        is_ephemeral(&wrong) && content(&wrong).contains("only <@1002> can answer"),
        "{}",
        wrong.json
    );
    let (game, thread, accept) = bot.started_with_button(0).await;
    let version = bot.arena.store().game(game).await.unwrap().unwrap().version;
    // The first challenge's button, pressed again after the game began.
    let stale = bot.click(&bob(), CHANNEL, &accept, thread).await;
    assert!(
        is_ephemeral(&stale) && content(&stale).contains("no longer an open challenge"),
        "{}",
        stale.json
    );

    let outsider = bot.play(&carol(), thread, "e4").await;
    assert!(is_ephemeral(&outsider), "{}", outsider.json);
    assert!(
        content(&outsider).contains(&format!("you are not playing in game #{game}")),
        "{}",
        outsider.json
    );
    let early = bot.play(&bob(), thread, "e5").await;
    assert!(
        is_ephemeral(&early) && content(&early).contains("not your turn"),
        "{}",
        early.json
    );
    let illegal = bot.play(&alice(), thread, "e5").await;
    assert!(
        is_ephemeral(&illegal) && content(&illegal).contains("e5"),
        "{}",
        illegal.json
    );
    // A button no version of Arbiter made, on a message of the bot's from before.
    let old_message = bot.fake.add_message(thread, "an old post", &["somebody-elses-button"]);
    let foreign = bot.click(&alice(), thread, "somebody-elses-button", old_message).await;
    assert!(
        is_ephemeral(&foreign) && content(&foreign).contains("not one of Arbiter's"),
        "{}",
        foreign.json
    );
    assert_eq!(
        bot.arena.store().game(game).await.unwrap().unwrap().version,
        version,
        "nothing changed"
    );

    // Broken frames and payloads are dropped; the bot goes on answering.
    bot.fake.send_raw("{ this is not json".into()).await;
    bot.fake
        .send_raw(json!({ "op": 0, "t": "INTERACTION_CREATE", "s": 999, "d": { "type": 2 } }).to_string())
        .await;
    bot.fake
        .send_event("INTERACTION_CREATE", json!({ "id": "1", "type": 99 }))
        .await;
    let typed = autocomplete_interaction(
        next_id(),
        &alice(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "N", "focused": true }]),
    );
    let suggestions = bot.interact(typed).await;
    let choices = suggested(&suggestions);
    assert_eq!(choices, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let outsider_typing = autocomplete_interaction(
        next_id(),
        &carol(),
        thread,
        "move",
        json!([{ "name": "action", "type": 3, "value": "", "focused": true }]),
    );
    let nothing = bot.interact(outsider_typing).await;
    assert_eq!(
        nothing.json["data"]["choices"],
        json!([]),
        "no suggestions for someone not playing"
    );
    let e4 = bot.play(&alice(), thread, "e4").await;
    assert!(content(&e4).contains("played e4"), "{}", e4.json);
    bot.stop().await;
}
