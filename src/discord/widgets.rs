//! What Discord shows under and around a message: text fitted to its limits, the buttons of a
//! post, the menus of a secret prompt and of a move chosen by steps, and the form to write a list in.
//! Builders only: nothing here talks to Discord.

use super::ids::{Answer, Component};
use crate::arena::{Button, DirectMessage, Post};
use crate::ids::GameId;
use serenity::all as discord;
/// Discord refuses message content of more characters.
const CONTENT_LIMIT: usize = 2000;
/// A select menu holds at most 25 options, and a message at most 5 rows.
const MENU_OPTIONS: usize = 25;
const MENU_ROWS: usize = 5;
/// A row holds at most 5 buttons.
const BUTTONS_PER_ROW: usize = 5;

/// Cuts text to Discord's limit (counted in characters, as Discord counts), ending with "…".
pub fn fit(text: &str) -> String {
    if text.chars().count() <= CONTENT_LIMIT {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(CONTENT_LIMIT - 1).collect();
    cut.push('…');
    cut
}

/// A row of buttons for a game at a version.
pub fn button_row(buttons: &[Button], game: GameId, version: i64) -> Vec<discord::CreateActionRow> {
    if buttons.is_empty() {
        return Vec::new();
    }
    let buttons = buttons
        .iter()
        .map(|&button| {
            let style = if button.is_positive() {
                discord::ButtonStyle::Primary
            } else {
                discord::ButtonStyle::Secondary
            };
            discord::CreateButton::new(Component::Button { button, game, version }.custom_id())
                .label(button.label())
                .style(style)
        })
        .collect();
    vec![discord::CreateActionRow::Buttons(buttons)]
}

/// A post's buttons and menus at the game's `version`.
pub fn post_components(post: &Post, version: i64) -> Vec<discord::CreateActionRow> {
    // Buttons and menus act on a game: a post about none has none.
    let Some(game) = post.game else {
        return Vec::new();
    };
    button_row(&post.buttons, game, version)
}

/// The buttons of a list to send: the form to write it in, or one drawn for the player.
pub fn write_list_button(game: GameId, version: i64) -> Vec<discord::CreateActionRow> {
    let write = discord::CreateButton::new(Component::WriteList { game, version }.custom_id())
        .label("Write your list")
        .style(discord::ButtonStyle::Primary);
    let draw = discord::CreateButton::new(Component::DrawList { game, version }.custom_id())
        .label("Draw a list for me")
        .style(discord::ButtonStyle::Secondary);
    vec![discord::CreateActionRow::Buttons(vec![write, draw])]
}

/// The form (a modal) a list of pieces is written in: one text field, one piece a line.
pub fn list_form(game: GameId, version: i64) -> discord::CreateModal {
    let field = discord::CreateInputText::new(discord::InputTextStyle::Paragraph, "One piece a line", LIST_FIELD)
        .placeholder("Giraffe, GI, C\nKing, K, K, royal\nPawn, P, fmWfcF, pawn")
        .min_length(1)
        .max_length(4000);
    discord::CreateModal::new(
        Component::ListForm { game, version }.custom_id(),
        format!("Your list for game #{game}"),
    )
    .components(vec![discord::CreateActionRow::InputText(field)])
}

/// The custom id of the list form's text field.
pub const LIST_FIELD: &str = "pieces";

/// Discord refuses a menu option whose value or label is longer than this.
const OPTION_TEXT_LIMIT: usize = 100;
/// Choices on one page of a prompt that has more than five menus hold: four menus, the fifth row
/// keeping the buttons to the other pages.
const CHOICES_PER_PAGE: usize = (MENU_ROWS - 1) * MENU_OPTIONS;

/// The choices a prompt can offer as Discord takes them: each once (a menu refuses a value
/// twice), none longer than an option may be (such an answer is typed with `/move`).
fn offerable(choices: &[String]) -> Vec<&String> {
    let mut seen = std::collections::HashSet::new();
    choices
        .iter()
        .filter(|choice| choice.chars().count() <= OPTION_TEXT_LIMIT && seen.insert(choice.as_str()))
        .collect()
}

/// How a prompt offers its choices: a button each when they fit one row and their labels are
/// short (accept / reject), menus otherwise (`page` of them, when there are more than five menus
/// hold). Every answer is sent back as itself, with the game's version, never as its place in
/// the menu.
pub fn choice_components(prompt: &DirectMessage, version: i64, page: usize) -> Vec<discord::CreateActionRow> {
    let (game, hint, prompt_key) = (prompt.game, prompt.menu_hint.as_str(), prompt.prompt_key.clone());
    let choices = offerable(&prompt.choices);
    if choices.is_empty() || choices.len() > BUTTONS_PER_ROW || choices.iter().any(|c| c.chars().count() > 20) {
        let menu = Component::Choose {
            game,
            version,
            prompt_key,
        };
        return choice_menus(&choices, menu, hint, page);
    }
    let buttons = choices
        .iter()
        .enumerate()
        .map(|(index, choice)| {
            let component = Component::Pick {
                game,
                version,
                prompt_key: prompt_key.clone(),
                answer: Answer::Value(choice.to_string()),
            };
            let style = if index == 0 {
                discord::ButtonStyle::Primary
            } else {
                discord::ButtonStyle::Secondary
            };
            discord::CreateButton::new(component.custom_id())
                .label(capitalised(choice))
                .style(style)
        })
        .collect();
    vec![discord::CreateActionRow::Buttons(buttons)]
}

/// "accept" as a button shows it: "Accept".
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// One option of a menu: what it shows, what it sends back, and a word more under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuOption {
    pub label: String,
    pub value: String,
    pub description: Option<String>,
}

impl MenuOption {
    fn plain(text: &str) -> MenuOption {
        MenuOption {
            label: text.to_string(),
            value: text.to_string(),
            description: None,
        }
    }
}

/// Menus offering `choices` (actions in notation), 25 to a menu, each showing `hint` until a
/// choice is made; more than five menus hold are paged.
fn choice_menus(choices: &[&String], menu: Component, hint: &str, page: usize) -> Vec<discord::CreateActionRow> {
    let Component::Choose { game, version, .. } = menu else {
        return Vec::new();
    };
    let options: Vec<MenuOption> = choices.iter().map(|c| MenuOption::plain(c)).collect();
    let turn = |page: usize| Component::Page {
        game,
        version,
        page: page as u8,
    };
    paged_menus(&options, &menu, hint, page, turn, Vec::new())
}

/// Menus of `options` for one component, 25 to a menu, each showing `hint` until a choice is
/// made, and a last row of `buttons` (a Back) when there are any. As many menus as the rows
/// left hold show them all; more are shown a page of four menus at a time, with buttons to the
/// pages before and after (each `turn(page)`): none is ever left out.
pub fn paged_menus(
    options: &[MenuOption],
    menu: &Component,
    hint: &str,
    page: usize,
    turn: impl Fn(usize) -> Component,
    mut buttons: Vec<discord::CreateButton>,
) -> Vec<discord::CreateActionRow> {
    let menus_of = |options: &[MenuOption], hint: &str| -> Vec<(String, Vec<MenuOption>)> {
        options
            .chunks(MENU_OPTIONS)
            .map(|chunk| (hint.to_string(), chunk.to_vec()))
            .collect()
    };
    let rows_for_menus = if buttons.is_empty() { MENU_ROWS } else { MENU_ROWS - 1 };
    if options.len() <= rows_for_menus * MENU_OPTIONS {
        let mut rows = select_menus(menu, menus_of(options, hint));
        if !buttons.is_empty() {
            rows.push(discord::CreateActionRow::Buttons(buttons));
        }
        return rows;
    }
    let pages = options.len().div_ceil(CHOICES_PER_PAGE);
    let page = page.min(pages - 1);
    let first = page * CHOICES_PER_PAGE;
    let shown = &options[first..(first + CHOICES_PER_PAGE).min(options.len())];
    let hint = format!("{hint} ({}-{} of {})", first + 1, first + shown.len(), options.len());
    let mut rows = select_menus(menu, menus_of(shown, &hint));
    let turn_to = |to: usize, label: String| {
        discord::CreateButton::new(turn(to).custom_id())
            .label(label)
            .style(discord::ButtonStyle::Secondary)
    };
    let mut turns = Vec::new();
    if page > 0 {
        turns.push(turn_to(
            page - 1,
            format!("◀ Choices {}-{}", first - CHOICES_PER_PAGE + 1, first),
        ));
    }
    if page + 1 < pages {
        let next = first + CHOICES_PER_PAGE;
        let last = (next + CHOICES_PER_PAGE).min(options.len());
        turns.push(turn_to(page + 1, format!("Choices {}-{last} ▶", next + 1)));
    }
    turns.append(&mut buttons);
    rows.push(discord::CreateActionRow::Buttons(turns));
    rows
}

/// Discord refuses a menu option's description longer than this.
const DESCRIPTION_LIMIT: usize = 100;

/// Select menus for one component, each a hint and its options, at most [`MENU_ROWS`] of them.
fn select_menus(component: &Component, menus: Vec<(String, Vec<MenuOption>)>) -> Vec<discord::CreateActionRow> {
    menus
        .into_iter()
        .take(MENU_ROWS)
        .enumerate()
        .map(|(index, (hint, options))| {
            let options = options
                .into_iter()
                .map(|option| {
                    let mut made = discord::CreateSelectMenuOption::new(option.label, option.value);
                    if let Some(description) = option.description {
                        made = made.description(description.chars().take(DESCRIPTION_LIMIT).collect::<String>());
                    }
                    made
                })
                .collect();
            // Menus in one message need distinct ids: all but the first carry their row.
            let mut custom_id = component.custom_id();
            if index > 0 {
                custom_id = format!("{custom_id}:{index}");
            }
            let menu = discord::CreateSelectMenu::new(custom_id, discord::CreateSelectMenuKind::String { options })
                .placeholder(hint);
            discord::CreateActionRow::SelectMenu(menu)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prompt of game 3 offering `choices`, with the key `prompt_key`.
    fn prompt(choices: &[String], hint: &str, prompt_key: Option<&str>) -> DirectMessage {
        DirectMessage {
            to: crate::ids::UserId::new("discord:1"),
            game: GameId::new(3),
            text: crate::arena::PrivateText::new("choose"),
            board: None,
            choices: choices.to_vec(),
            menu_hint: hint.to_string(),
            asks_for_list: false,
            is_reminder: false,
            prompt_key: prompt_key.map(str::to_string),
        }
    }

    #[test]
    fn long_text_is_cut_to_discords_limit_in_characters() {
        assert_eq!(fit("short"), "short");
        let accents = "é".repeat(1500);
        assert_eq!(fit(&accents), accents, "1,500 characters fit, whatever their bytes");
        let long = "é".repeat(2500);
        let cut = fit(&long);
        assert_eq!(cut.chars().count(), CONTENT_LIMIT);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn choices_fill_menus_of_25_in_at_most_5_rows_with_distinct_ids() {
        let choices: Vec<String> = (0..60).map(|i| format!("choice{i}")).collect();
        let rows = choice_components(&prompt(&choices, "Make your secret choice", None), 9, 0);
        assert_eq!(rows.len(), 3);
        let json = serde_json::to_value(&rows).unwrap();
        let ids: Vec<&str> = json
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["components"][0]["custom_id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["arb:choose:3:9", "arb:choose:3:9:1", "arb:choose:3:9:2"]);
        assert_eq!(json[0]["components"][0]["options"].as_array().unwrap().len(), 25);
        assert_eq!(json[2]["components"][0]["options"].as_array().unwrap().len(), 10);
        assert_eq!(json[0]["components"][0]["placeholder"], "Make your secret choice");
        assert_eq!(
            choice_components(&prompt(&vec!["x".to_string(); 200], "", None), 1, 0).len(),
            1,
            "a choice is offered once"
        );
        assert!(choice_components(&prompt(&[], "", None), 1, 0).is_empty());
    }

    /// Every option value of a page's menus, and the buttons to other pages.
    fn page_of(choices: &[String], page: usize) -> (Vec<String>, Vec<String>) {
        let json = serde_json::to_value(choice_components(&prompt(choices, "Your move", None), 9, page)).unwrap();
        let mut values = Vec::new();
        let mut turns = Vec::new();
        for row in json.as_array().unwrap() {
            for component in row["components"].as_array().unwrap() {
                match component["options"].as_array() {
                    Some(options) => values.extend(options.iter().map(|o| o["value"].as_str().unwrap().to_string())),
                    None => turns.push(component["custom_id"].as_str().unwrap().to_string()),
                }
            }
        }
        (values, turns)
    }

    #[test]
    fn more_choices_than_five_menus_hold_are_paged_and_none_is_dropped() {
        let choices: Vec<String> = (0..260).map(|i| format!("Move{i}")).collect();
        let (first, turns) = page_of(&choices, 0);
        assert_eq!(first.len(), 100);
        assert_eq!(turns, ["arb:page:3:9:1"]);
        let (second, turns) = page_of(&choices, 1);
        assert_eq!(turns, ["arb:page:3:9:0", "arb:page:3:9:2"]);
        let (third, turns) = page_of(&choices, 2);
        assert_eq!(turns, ["arb:page:3:9:1"]);
        let offered: Vec<String> = [first, second, third].concat();
        assert_eq!(offered, choices, "every choice, once, in order");
        let (exactly, turns) = page_of(&choices[..125], 0);
        assert_eq!((exactly.len(), turns.len()), (125, 0), "125 fit without pages");
    }

    #[test]
    fn answers_are_sent_back_as_themselves() {
        let answers = ["accept".to_string(), "reject".to_string()];
        let json = serde_json::to_value(choice_components(
            &prompt(&answers, "Your answer", Some("0badf00d")),
            8,
            0,
        ))
        .unwrap();
        let ids: Vec<&str> = json[0]["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["custom_id"].as_str().unwrap())
            .collect();
        assert_eq!(
            ids,
            ["arb:answer:3:8:0badf00d:accept", "arb:answer:3:8:0badf00d:reject"]
        );
        let mut long: Vec<String> = (0..6).map(|i| format!("m{i}")).collect();
        long.insert(2, "x".repeat(101));
        assert_eq!(
            page_of(&long, 0).0,
            ["m0", "m1", "m2", "m3", "m4", "m5"],
            "an option Discord refuses is left to /move"
        );
    }

    #[test]
    fn a_guided_steps_menus_keep_a_row_for_back_and_page_past_what_they_hold() {
        let options: Vec<MenuOption> = (0..130)
            .map(|i| MenuOption {
                label: format!("Square {i}"),
                value: format!("s{i}"),
                description: (i == 0).then(|| "takes Rook".to_string()),
            })
            .collect();
        let at = |page: usize| Component::Guide {
            game: GameId::new(3),
            version: 9,
            page: page as u8,
            path: vec!["d1".into()],
        };
        let back = || vec![discord::CreateButton::new("arb:go:3:9:0:").label("◀ Back")];
        let values_and_buttons = |rows: Vec<discord::CreateActionRow>| {
            let json = serde_json::to_value(rows).unwrap();
            let mut values = Vec::new();
            let mut buttons = Vec::new();
            for row in json.as_array().unwrap() {
                for component in row["components"].as_array().unwrap() {
                    match component["options"].as_array() {
                        Some(options) => {
                            values.extend(options.iter().map(|o| o["value"].as_str().unwrap().to_string()))
                        }
                        None => buttons.push(component["custom_id"].as_str().unwrap().to_string()),
                    }
                }
            }
            (json.as_array().unwrap().len(), values, buttons)
        };
        // 100 fit beside Back in four menus; 101 do not, and go over pages.
        let (rows, values, buttons) = values_and_buttons(paged_menus(&options[..100], &at(0), "Where", 0, at, back()));
        assert_eq!((rows, values.len()), (5, 100));
        assert_eq!(buttons, ["arb:go:3:9:0:"]);
        let (rows, first, buttons) = values_and_buttons(paged_menus(&options, &at(0), "Where", 0, at, back()));
        assert_eq!((rows, first.len()), (5, 100));
        assert_eq!(
            buttons,
            ["arb:go:3:9:1:d1", "arb:go:3:9:0:"],
            "the next page, then Back"
        );
        let (_, second, buttons) = values_and_buttons(paged_menus(&options, &at(1), "Where", 1, at, back()));
        assert_eq!(second.len(), 30);
        assert_eq!(buttons, ["arb:go:3:9:0:d1", "arb:go:3:9:0:"]);
        let offered: Vec<String> = [first, second].concat();
        assert_eq!(
            offered,
            options.iter().map(|o| o.value.clone()).collect::<Vec<_>>(),
            "each once, in order"
        );
        let json = serde_json::to_value(paged_menus(&options[..3], &at(0), "Where", 0, at, Vec::new())).unwrap();
        assert_eq!(json[0]["components"][0]["options"][0]["description"], "takes Rook");
    }

    #[test]
    fn buttons_carry_their_game_and_version() {
        let rows = button_row(&[Button::AcceptChallenge, Button::DeclineChallenge], GameId::new(4), 2);
        let json = serde_json::to_value(&rows).unwrap();
        let buttons = json[0]["components"].as_array().unwrap();
        assert_eq!(buttons[0]["custom_id"], "arb:accept:4:2");
        assert_eq!(buttons[0]["label"], "Accept");
        assert_eq!(buttons[1]["custom_id"], "arb:decline:4:2");
        assert!(button_row(&[], GameId::new(4), 2).is_empty());
    }
}
