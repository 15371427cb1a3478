//! Discord's interaction payloads, as raw JSON fixtures shaped like Discord's documented examples
//! (tests/fixtures/discord/), read by serenity and then by the bot's adapter.

use arbiter::arena::Button;
use arbiter::discord::{Click, Component, read_click};
use arbiter::ids::{GameId, UserId};
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
