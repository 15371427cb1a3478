//! `/help` in Discord's words: every command with what it does, within one message; one
//! command (or a subcommand) with its options; an unknown one named with the list.

use crate::bot::*;
use fake_discord::autocomplete_interaction;
use serde_json::json;

async fn help(bot: &Bot, command: Option<&str>) -> String {
    let options = match command {
        Some(command) => json!([{ "name": "command", "type": 3, "value": command }]),
        None => json!([]),
    };
    let answer = bot.command(&alice(), CHANNEL, "help", options).await;
    assert!(is_ephemeral(&answer), "help is private: {}", answer.json);
    content(&answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_lists_every_command_and_explains_one_with_its_options() {
    let bot = Bot::start().await;
    let all = help(&bot, None).await;
    for line in [
        "`/challenge`: ",
        "`/move`: ",
        "`/settings reminders|host-role`: ",
        "`/deathmatch start|rated|pause|resume|addtime|abort|adjudicate`: ",
        "`/help`: ",
    ] {
        assert!(all.contains(line), "`{line}` missing from:\n{all}");
    }
    assert!(
        !all.ends_with('…'),
        "the list fits in one message ({} characters)",
        all.chars().count()
    );

    let one = help(&bot, Some("/challenge")).await;
    assert!(one.starts_with("`/challenge`: "), "{one}");
    assert!(
        one.contains("• `variant` (required): ") && one.contains("• `time`: "),
        "{one}"
    );
    let sub = help(&bot, Some("deathmatch start")).await;
    assert!(sub.starts_with("`/deathmatch start`: "), "{sub}");
    assert!(sub.contains("• `reserve`: "), "{sub}");
    let group = help(&bot, Some("tournament")).await;
    assert!(
        group.contains("`/tournament create`: ") && group.contains("• `rounds`: "),
        "{group}"
    );
    // Suggestions as the command is typed.
    let typed = json!([{ "name": "command", "type": 3, "value": "death", "focused": true }]);
    let answer = bot
        .interact(autocomplete_interaction(next_id(), &alice(), CHANNEL, "help", typed))
        .await;
    let values = suggested(&answer);
    assert!(
        values.iter().any(|v| v == "deathmatch") && values.iter().any(|v| v == "deathmatch start"),
        "{values:?}"
    );
    let unknown = help(&bot, Some("nonsense")).await;
    assert!(
        unknown.starts_with("There is no /nonsense. The commands are /challenge, "),
        "{unknown}"
    );
    bot.stop().await;
}
