//! What Discord refuses, refused by the fake too, with Discord's own status and error code, so a
//! test that passes here would pass on the real service. The limits are Discord's documented ones
//! (API v10: messages, components, interactions, application commands).

use serde_json::{Value, json};
use std::time::Duration;

/// An interaction must get its first response this soon after it was sent.
pub const RESPONSE_WINDOW: Duration = Duration::from_secs(3);
/// Follow-ups and edits of an interaction's messages work this long after it was sent.
pub const FOLLOWUP_WINDOW: Duration = Duration::from_secs(15 * 60);

const CONTENT_CHARS: usize = 2000;
const ROWS: usize = 5;
const BUTTONS_PER_ROW: usize = 5;
const MENU_OPTIONS: usize = 25;
const BUTTON_LABEL_CHARS: usize = 80;
const OPTION_TEXT_CHARS: usize = 100;
const CUSTOM_ID_CHARS: usize = 100;
const PLACEHOLDER_CHARS: usize = 150;
const EMBEDS: usize = 10;
const EMBED_TITLE_CHARS: usize = 256;
const EMBED_DESCRIPTION_CHARS: usize = 4096;
/// Every embed of a message together.
const EMBEDS_TOTAL_CHARS: usize = 6000;
const MODAL_TITLE_CHARS: usize = 45;
const MODAL_ROWS: usize = 5;
const FIELD_LABEL_CHARS: usize = 45;
const FIELD_PLACEHOLDER_CHARS: usize = 100;
const FILES: usize = 10;
/// An attachment's description (alt text), in characters.
const ATTACHMENT_DESCRIPTION_CHARS: usize = 1024;
const COMMANDS: usize = 100;
const COMMAND_NAME_CHARS: usize = 32;
const DESCRIPTION_CHARS: usize = 100;
const OPTIONS: usize = 25;
const CHOICES: usize = 25;
const COMMAND_TOTAL_CHARS: usize = 4000;
const THREAD_NAME_CHARS: usize = 100;
/// The minutes of inactivity after which Discord may archive a thread: these and no others.
const ARCHIVE_DURATIONS: [u64; 4] = [60, 1440, 4320, 10080];

/// A refusal: an HTTP status and Discord's JSON error body.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub status: u16,
    pub body: Value,
}

impl Refusal {
    pub fn new(status: u16, code: u64, message: &str) -> Refusal {
        Refusal {
            status,
            body: json!({ "code": code, "message": message }),
        }
    }

    /// 400 50035 with the field Discord names, as it reports a payload over a limit.
    pub fn invalid_form(field: &str, problem: &str) -> Refusal {
        Refusal {
            status: 400,
            body: json!({
                "code": 50035,
                "message": "Invalid Form Body",
                "errors": { field: { "_errors": [{ "code": "BASE_TYPE_BAD_LENGTH", "message": problem }] } },
            }),
        }
    }
}

fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |text| text.chars().count())
}

fn items(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], Vec::as_slice)
}

/// A message as created, edited or sent in an interaction response. `is_new`: a message being
/// created, which must not be empty (an edit may leave fields as they are).
pub fn check_message(body: &Value, files: usize, is_new: bool) -> Result<(), Refusal> {
    if chars(&body["content"]) > CONTENT_CHARS {
        return Err(Refusal::invalid_form("content", "Must be 2000 or fewer in length."));
    }
    let embeds = items(&body["embeds"]);
    if embeds.len() > EMBEDS {
        return Err(Refusal::invalid_form("embeds", "Must be 10 or fewer in length."));
    }
    for embed in embeds {
        if chars(&embed["title"]) > EMBED_TITLE_CHARS || chars(&embed["description"]) > EMBED_DESCRIPTION_CHARS {
            return Err(Refusal::invalid_form("embeds", "Embed size exceeds maximum size."));
        }
    }
    if embeds.iter().map(embed_chars).sum::<usize>() > EMBEDS_TOTAL_CHARS {
        return Err(Refusal::invalid_form(
            "embeds",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    check_mentions(body)?;
    if files > FILES {
        return Err(Refusal::invalid_form("files", "Must be 10 or fewer in length."));
    }
    check_attachments(&body["attachments"])?;
    check_components(&body["components"])?;
    let is_empty = chars(&body["content"]) == 0 && embeds.is_empty() && files == 0 && body.get("poll").is_none();
    if is_new && is_empty {
        return Err(Refusal::new(400, 50006, "Cannot send an empty message"));
    }
    Ok(())
}

/// Each attachment's description (its alt text) within Discord's 1,024 characters; Discord
/// names the attachment's place in its answer ("attachments.0.description").
fn check_attachments(attachments: &Value) -> Result<(), Refusal> {
    for (i, attachment) in items(attachments).iter().enumerate() {
        if chars(&attachment["description"]) > ATTACHMENT_DESCRIPTION_CHARS {
            return Err(Refusal {
                status: 400,
                body: json!({
                    "code": 50035,
                    "message": "Invalid Form Body",
                    "errors": { "attachments": { (i.to_string()): { "description": { "_errors": [{
                        "code": "BASE_TYPE_MAX_LENGTH",
                        "message": "Must be 1024 or fewer in length.",
                    }] } } } },
                }),
            });
        }
    }
    Ok(())
}

/// What counts towards the 6,000 characters of a message's embeds.
fn embed_chars(embed: &Value) -> usize {
    let fields: usize = items(&embed["fields"])
        .iter()
        .map(|field| chars(&field["name"]) + chars(&field["value"]))
        .sum();
    chars(&embed["title"])
        + chars(&embed["description"])
        + chars(&embed["footer"]["text"])
        + chars(&embed["author"]["name"])
        + fields
}

/// The mentions a message's content makes: users, roles and `@everyone`/`@here` (an escaped
/// mark, `\<@1>`, is text).
#[derive(Default, Debug)]
pub struct Mentions {
    pub users: Vec<u64>,
    pub roles: Vec<u64>,
    pub everyone: bool,
}

pub fn mentions_in(content: &str) -> Mentions {
    let mut found = Mentions::default();
    let bytes = content.as_bytes();
    let escaped = |at: usize| at > 0 && bytes[at - 1] == b'\\';
    for (at, _) in content.match_indices("<@") {
        if escaped(at) {
            continue;
        }
        let rest = &content[at + 2..];
        let (is_role, digits) = match rest.strip_prefix('&') {
            Some(after) => (true, after),
            None => (false, rest.strip_prefix('!').unwrap_or(rest)),
        };
        let number: String = digits.chars().take_while(char::is_ascii_digit).collect();
        if number.is_empty() || !digits[number.len()..].starts_with('>') {
            continue;
        }
        let Ok(id) = number.parse() else { continue };
        if is_role {
            found.roles.push(id);
        } else {
            found.users.push(id);
        }
    }
    for word in ["@everyone", "@here"] {
        found.everyone |= content.match_indices(word).any(|(at, _)| !escaped(at));
    }
    found
}

/// A message may notify only the users its `allowed_mentions` lists: nobody else, no role, not
/// `@everyone`. Without `allowed_mentions` Discord notifies every mention in it.
fn check_mentions(body: &Value) -> Result<(), Refusal> {
    let mentions = mentions_in(body["content"].as_str().unwrap_or_default());
    let refuse = |who: String| {
        Err(Refusal::invalid_form(
            "allowed_mentions",
            &format!("the message would notify {who}, who is not among the users it lists"),
        ))
    };
    let allowed = &body["allowed_mentions"];
    let parse: Vec<&str> = items(&allowed["parse"]).iter().filter_map(Value::as_str).collect();
    let listed: Vec<u64> = items(&allowed["users"])
        .iter()
        .filter_map(|u| u.as_u64().or_else(|| u.as_str()?.parse().ok()))
        .collect();
    let is_absent = allowed.is_null();
    if mentions.everyone && (is_absent || parse.contains(&"everyone")) {
        return refuse("@everyone".into());
    }
    if let Some(role) = mentions
        .roles
        .iter()
        .find(|_| is_absent || parse.contains(&"roles") || !items(&allowed["roles"]).is_empty())
    {
        return refuse(format!("role {role}"));
    }
    if let Some(user) = mentions
        .users
        .iter()
        .find(|user| (is_absent || parse.contains(&"users")) && !listed.contains(user))
    {
        return refuse(format!("user {user}"));
    }
    Ok(())
}

fn check_components(rows: &Value) -> Result<(), Refusal> {
    let rows = items(rows);
    // Discord refuses a custom id used twice in one message.
    let mut ids = std::collections::HashSet::new();
    for component in rows.iter().flat_map(|row| items(&row["components"])) {
        if let Some(id) = component["custom_id"].as_str()
            && !ids.insert(id)
        {
            return Err(Refusal::invalid_form(
                "components",
                "Component custom id cannot be duplicated",
            ));
        }
    }
    if rows.len() > ROWS {
        return Err(Refusal::invalid_form("components", "Must be 5 or fewer in length."));
    }
    for row in rows {
        if row["type"] != json!(1) {
            return Err(Refusal::invalid_form(
                "components",
                "Top-level components must be action rows.",
            ));
        }
        let components = items(&row["components"]);
        let menus = components.iter().filter(|c| c["type"] != json!(2)).count();
        if components.is_empty() || components.len() > BUTTONS_PER_ROW || (menus > 0 && components.len() > 1) {
            return Err(Refusal::invalid_form(
                "components",
                "A row holds 1 to 5 buttons or one select menu.",
            ));
        }
        for component in components {
            check_component(component)?;
        }
    }
    Ok(())
}

fn check_component(component: &Value) -> Result<(), Refusal> {
    if chars(&component["custom_id"]) > CUSTOM_ID_CHARS {
        return Err(Refusal::invalid_form("custom_id", "Must be 100 or fewer in length."));
    }
    if chars(&component["label"]) > BUTTON_LABEL_CHARS {
        return Err(Refusal::invalid_form("label", "Must be 80 or fewer in length."));
    }
    if chars(&component["placeholder"]) > PLACEHOLDER_CHARS {
        return Err(Refusal::invalid_form("placeholder", "Must be 150 or fewer in length."));
    }
    // A button needs a custom id or a link, and something to show.
    if component["type"] == json!(2) {
        let has_target = component.get("custom_id").is_some() || component.get("url").is_some();
        let has_face = chars(&component["label"]) > 0 || component.get("emoji").is_some();
        if !has_target || !has_face {
            return Err(Refusal::invalid_form(
                "components",
                "A button needs a custom id and a label.",
            ));
        }
    }
    if component["type"] == json!(3) {
        let options = items(&component["options"]);
        if options.is_empty() || options.len() > MENU_OPTIONS {
            return Err(Refusal::invalid_form("options", "Must be between 1 and 25 in length."));
        }
        let mut values = std::collections::HashSet::new();
        if options.iter().any(|option| !values.insert(option["value"].to_string())) {
            return Err(Refusal::invalid_form(
                "options",
                "Select menu option values must be unique",
            ));
        }
        for option in options {
            let too_long = ["label", "value", "description"]
                .iter()
                .any(|field| chars(&option[*field]) > OPTION_TEXT_CHARS);
            if too_long || chars(&option["label"]) == 0 || chars(&option["value"]) == 0 {
                return Err(Refusal::invalid_form("options", "Must be between 1 and 100 in length."));
            }
        }
    }
    Ok(())
}

/// An interaction response (`POST /interactions/{id}/{token}/callback`) for an interaction of
/// `interaction_kind` (2 command, 3 component, 4 autocomplete, 5 form sent back); `on_message`:
/// the interaction came from a message's component (the only case where the message can be
/// updated).
pub fn check_callback(interaction_kind: u64, on_message: bool, body: &Value, files: usize) -> Result<(), Refusal> {
    let response_kind = body["type"].as_u64().unwrap_or(0);
    let fits = match interaction_kind {
        2 => matches!(response_kind, 4 | 5 | 9),
        3 => matches!(response_kind, 4 | 5 | 6 | 7 | 9),
        4 => response_kind == 8,
        5 => matches!(response_kind, 4 | 5) || (on_message && matches!(response_kind, 6 | 7)),
        _ => false,
    };
    if !fits {
        return Err(Refusal::new(
            400,
            40004,
            "Interaction response type does not fit the interaction",
        ));
    }
    match response_kind {
        4 => check_message(&body["data"], files, true),
        7 => check_message(&body["data"], files, false),
        8 => {
            let choices = items(&body["data"]["choices"]);
            let too_long = |c: &Value| chars(&c["name"]) > OPTION_TEXT_CHARS || chars(&c["value"]) > OPTION_TEXT_CHARS;
            if choices.len() > CHOICES || choices.iter().any(too_long) {
                return Err(Refusal::invalid_form(
                    "choices",
                    "Must be 25 or fewer, names and values of 100 or fewer in length.",
                ));
            }
            Ok(())
        }
        9 => check_form(&body["data"]),
        _ => Ok(()),
    }
}

/// A form (modal): a title, one to five rows of one text field each, labels and placeholders
/// within Discord's lengths, custom ids unique.
fn check_form(form: &Value) -> Result<(), Refusal> {
    let rows = items(&form["components"]);
    if chars(&form["title"]) > MODAL_TITLE_CHARS || rows.is_empty() || rows.len() > MODAL_ROWS {
        return Err(Refusal::invalid_form(
            "data",
            "A form needs a title of 45 or fewer and 1 to 5 rows.",
        ));
    }
    let mut ids = std::collections::HashSet::new();
    for field in rows.iter().flat_map(|row| items(&row["components"])) {
        if chars(&field["label"]) > FIELD_LABEL_CHARS {
            return Err(Refusal::invalid_form("label", "Must be 45 or fewer in length."));
        }
        if chars(&field["placeholder"]) > FIELD_PLACEHOLDER_CHARS {
            return Err(Refusal::invalid_form("placeholder", "Must be 100 or fewer in length."));
        }
        if !ids.insert(field["custom_id"].to_string()) {
            return Err(Refusal::invalid_form(
                "components",
                "Component custom id cannot be duplicated",
            ));
        }
    }
    Ok(())
}

/// A thread to open: a name of 1 to 100 characters, an archive duration Discord offers, and (for
/// a thread without a message) a thread's type.
pub fn check_thread(body: &Value) -> Result<(), Refusal> {
    if !(1..=THREAD_NAME_CHARS).contains(&chars(&body["name"])) {
        return Err(Refusal::invalid_form("name", "Must be between 1 and 100 in length."));
    }
    if let Some(duration) = body.get("auto_archive_duration")
        && !duration
            .as_u64()
            .is_some_and(|minutes| ARCHIVE_DURATIONS.contains(&minutes))
    {
        return Err(Refusal::invalid_form(
            "auto_archive_duration",
            "Value must be one of {60, 1440, 4320, 10080}.",
        ));
    }
    if let Some(kind) = body.get("type")
        && !matches!(kind.as_u64(), Some(10..=12))
    {
        return Err(Refusal::invalid_form("type", "Value must be a thread type."));
    }
    Ok(())
}

/// The commands of a `PUT .../commands` as Discord validates them: names, descriptions, option
/// counts, required options before optional ones, choices, and each command's total size.
pub fn check_commands(body: &Value) -> Result<(), Refusal> {
    let commands = items(body);
    if commands.len() > COMMANDS {
        return Err(Refusal::invalid_form("commands", "Must be 100 or fewer in length."));
    }
    let mut names = std::collections::HashSet::new();
    for command in commands {
        check_name(&command["name"])?;
        if !names.insert(command["name"].as_str().unwrap_or_default().to_owned()) {
            return Err(Refusal::new(400, 50035, "Application command names must be unique"));
        }
        let is_slash = command.get("type").is_none_or(|kind| kind == &json!(1));
        if is_slash {
            check_description(&command["description"])?;
        }
        check_options(&command["options"])?;
        if command_chars(command) > COMMAND_TOTAL_CHARS {
            return Err(Refusal::invalid_form("commands", "Command exceeds maximum size (4000)"));
        }
    }
    Ok(())
}

fn check_name(name: &Value) -> Result<(), Refusal> {
    let Some(name) = name.as_str() else {
        return Err(Refusal::invalid_form("name", "This field is required"));
    };
    let valid = (1..=COMMAND_NAME_CHARS).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric() && !c.is_uppercase());
    if valid {
        Ok(())
    } else {
        Err(Refusal::invalid_form("name", "Command name is invalid"))
    }
}

fn check_description(description: &Value) -> Result<(), Refusal> {
    if (1..=DESCRIPTION_CHARS).contains(&chars(description)) {
        Ok(())
    } else {
        Err(Refusal::invalid_form(
            "description",
            "Must be between 1 and 100 in length.",
        ))
    }
}

fn check_options(options: &Value) -> Result<(), Refusal> {
    let options = items(options);
    if options.len() > OPTIONS {
        return Err(Refusal::invalid_form("options", "Must be 25 or fewer in length."));
    }
    let mut optional_seen = false;
    for option in options {
        check_name(&option["name"])?;
        check_description(&option["description"])?;
        let is_group = matches!(option["type"].as_u64(), Some(1 | 2));
        if is_group {
            check_options(&option["options"])?;
            continue;
        }
        let is_required = option["required"] == json!(true);
        if is_required && optional_seen {
            return Err(Refusal::invalid_form(
                "options",
                "Required options must be placed before non-required options",
            ));
        }
        optional_seen |= !is_required;
        let choices = items(&option["choices"]);
        if choices.len() > CHOICES
            || choices
                .iter()
                .any(|c| !(1..=OPTION_TEXT_CHARS).contains(&chars(&c["name"])))
        {
            return Err(Refusal::invalid_form(
                "choices",
                "Must be 25 or fewer, named in 1 to 100 characters.",
            ));
        }
        if option["autocomplete"] == json!(true) && !choices.is_empty() {
            return Err(Refusal::invalid_form(
                "autocomplete",
                "Autocomplete cannot be set with choices",
            ));
        }
    }
    Ok(())
}

/// What counts towards a command's 4,000 characters: names, descriptions, choice names and
/// values, at every depth.
fn command_chars(command: &Value) -> usize {
    let own = chars(&command["name"]) + chars(&command["description"]);
    let choices: usize = items(&command["choices"])
        .iter()
        .map(|c| chars(&c["name"]) + c["value"].as_str().map_or(0, |v| v.chars().count()))
        .sum();
    let options: usize = items(&command["options"]).iter().map(command_chars).sum();
    own + choices + options
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message_with_description(description: &str) -> Value {
        json!({
            "content": "a board",
            "attachments": [
                { "id": 0, "filename": "board.png", "description": "short" },
                { "id": 1, "filename": "standings.png", "description": description },
            ],
        })
    }

    #[test]
    fn an_attachment_description_over_1024_characters_is_refused_as_discord_refuses_it() {
        let refusal = check_message(&message_with_description(&"é".repeat(1025)), 2, true).unwrap_err();
        assert_eq!(refusal.status, 400);
        assert_eq!(refusal.body["code"], 50035);
        assert_eq!(
            refusal.body["errors"]["attachments"]["1"]["description"]["_errors"][0]["code"],
            "BASE_TYPE_MAX_LENGTH"
        );
    }

    #[test]
    fn an_attachment_description_of_1024_characters_is_taken() {
        assert_eq!(
            check_message(&message_with_description(&"é".repeat(1024)), 2, true),
            Ok(())
        );
    }
}
