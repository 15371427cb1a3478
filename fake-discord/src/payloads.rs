//! JSON objects serenity 0.12.5 deserializes: users, members, messages, and the interactions a test sends the bot.

use super::*;

/// A user object; `bot` users cannot be DMed by serenity (it refuses before any call).
pub fn user_json(user_id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": user_id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

/// A guild member object for `GET /guilds/{id}/members/{user}`: the bot holds its own role.
pub(crate) fn member_json(user_id: u64) -> Value {
    let (user, roles) = if user_id == FakeDiscord::BOT_USER_ID {
        (bot_user_json(), json!([FakeDiscord::BOT_ROLE_ID.to_string()]))
    } else {
        (user_json(user_id, &format!("user{user_id}"), false), json!([]))
    };
    json!({
        "user": user,
        "nick": null,
        "avatar": null,
        "roles": roles,
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
    })
}

pub(crate) fn bot_user_json() -> Value {
    user_json(FakeDiscord::BOT_USER_ID, "Arbiter", true)
}

/// A server the bot is on, as `GET /guilds/{id}` answers (Discord's guild object, with what
/// serenity's `PartialGuild` requires): @everyone (the role whose id is the server's) and the
/// bot's own role both grant `permissions::DEFAULT`.
pub(crate) fn guild_json(guild_id: u64) -> Value {
    let everyone = role_json(guild_id, "@everyone", 0, json!({}));
    let bot_role = role_json(
        FakeDiscord::BOT_ROLE_ID,
        "Arbiter",
        1,
        json!({ "bot_id": FakeDiscord::BOT_USER_ID.to_string() }),
    );
    json!({
        "id": guild_id.to_string(),
        "name": format!("server{guild_id}"),
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": "1",
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone, bot_role],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500_000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
    })
}

/// A role granting `permissions::DEFAULT` on its server.
fn role_json(role_id: u64, name: &str, position: u16, tags: Value) -> Value {
    json!({
        "id": role_id.to_string(),
        "name": name,
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": PERMISSIONS.to_string(),
        "managed": !tags.as_object().is_none_or(serde_json::Map::is_empty),
        "mentionable": false,
        "tags": tags,
        "flags": 0,
    })
}

/// A channel's overwrites that leave the bot exactly `held`, its server roles granting
/// `permissions::DEFAULT`: none when `held` is that, else one for the bot's member allowing
/// what it adds and denying what it lacks.
pub(crate) fn bot_overwrites(held: u64) -> Value {
    if held == PERMISSIONS {
        return json!([]);
    }
    json!([{
        "id": FakeDiscord::BOT_USER_ID.to_string(),
        "type": 1,
        "allow": (held & !PERMISSIONS).to_string(),
        "deny": (PERMISSIONS & !held).to_string(),
    }])
}

/// A message in `channel_id` echoing the body's content, embeds, components and flags (what a
/// create or edit sends), with the given attachments.
pub fn message_json(message_id: u64, channel_id: u64, author: Value, body: &Value, attachments: Vec<Value>) -> Value {
    json!({
        "id": message_id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": author,
        "content": body["content"].as_str().unwrap_or_default(),
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": body.get("embeds").cloned().unwrap_or(json!([])),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "pinned": false,
        "type": 0,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
    })
}

// ---------------------------------------------------------------------------------------------
// Interaction payloads

/// A slash command (type 2) used by `invoker` in guild text channel `channel_id`.
/// `options` is Discord's `data.options` array, e.g. `[{"name":"variant","type":3,"value":"x"}]`.
pub fn command_interaction(id: u64, invoker: &Invoker, channel_id: u64, command: &str, options: Value) -> Value {
    let mut interaction = guild_interaction(id, 2, invoker, channel_id);
    interaction["data"] = command_data(command, options);
    interaction
}

/// An autocomplete request (type 4). The option marked `"focused": true` is the one being typed;
/// if none is marked, the last leaf option is. Discord sends the focused value as a string, and
/// serenity insists, so a non-string focused value is turned into one.
pub fn autocomplete_interaction(id: u64, invoker: &Invoker, channel_id: u64, command: &str, options: Value) -> Value {
    let mut options = options;
    if !mark_focused(&mut options) {
        focus_last_leaf(&mut options);
    }
    let mut interaction = guild_interaction(id, 4, invoker, channel_id);
    interaction["data"] = command_data(command, options);
    interaction
}

/// A button (`component_type` 2) or select menu (3, with `values`) on message `message_id`
/// (sent by the bot) in guild channel `channel_id`.
pub fn component_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    component_type: u8,
    values: Vec<String>,
    message_id: u64,
) -> Value {
    let mut interaction = guild_interaction(id, 3, invoker, channel_id);
    interaction["data"] = component_data(custom_id, component_type, values);
    interaction["message"] = component_message(message_id, channel_id);
    interaction
}

/// The same as `component_interaction`, but pressed in the invoker's DM with the bot: no guild
/// or member, a top-level `user`, a channel of type 1.
pub fn dm_component_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    component_type: u8,
    values: Vec<String>,
    message_id: u64,
) -> Value {
    let mut interaction = json!({
        "id": id.to_string(),
        "application_id": FakeDiscord::APPLICATION_ID.to_string(),
        "type": 3,
        "token": format!("token{id}"),
        "version": 1,
        "channel_id": channel_id.to_string(),
        "channel": { "id": channel_id.to_string(), "type": 1 },
        "user": user_json(invoker.user_id, &invoker.name, false),
        "app_permissions": PERMISSIONS.to_string(),
        "locale": "en-US",
        "entitlements": [],
        // A guild-installed app used in its bot DM: Discord sends "0" as the guild.
        "authorizing_integration_owners": { "0": "0" },
        "context": 1,
        "attachment_size_limit": 10_485_760,
    });
    interaction["data"] = component_data(custom_id, component_type, values);
    interaction["message"] = component_message(message_id, channel_id);
    interaction
}

/// A form (modal, type 5) sent back by `invoker` in guild channel `channel_id`: `fields` are the
/// custom ids and values of its text inputs, one a row.
pub fn modal_submit_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    fields: &[(&str, &str)],
) -> Value {
    let mut interaction = guild_interaction(id, 5, invoker, channel_id);
    interaction["data"] = modal_data(custom_id, fields);
    interaction
}

/// The same as `modal_submit_interaction`, sent back in the invoker's DM with the bot.
pub fn dm_modal_submit_interaction(
    id: u64,
    invoker: &Invoker,
    channel_id: u64,
    custom_id: &str,
    fields: &[(&str, &str)],
) -> Value {
    let mut interaction = dm_component_interaction(id, invoker, channel_id, custom_id, 2, Vec::new(), 0);
    interaction["type"] = json!(5);
    interaction["data"] = modal_data(custom_id, fields);
    interaction.as_object_mut().expect("an object").remove("message");
    interaction
}

/// A modal submit's `data`: the modal's custom id and each text input (type 4) in its row.
pub(crate) fn modal_data(custom_id: &str, fields: &[(&str, &str)]) -> Value {
    let rows: Vec<Value> = fields
        .iter()
        .map(|(field, value)| {
            json!({
                "type": 1,
                "components": [{ "type": 4, "custom_id": field, "value": value }],
            })
        })
        .collect();
    json!({ "custom_id": custom_id, "components": rows })
}

/// The same interaction sent from another guild (`FakeDiscord::OTHER_GUILD_ID`, say).
pub fn in_guild(mut interaction: Value, guild_id: u64) -> Value {
    let guild = json!(guild_id.to_string());
    interaction["guild_id"] = guild.clone();
    interaction["channel"]["guild_id"] = guild.clone();
    interaction["authorizing_integration_owners"] = json!({ "0": guild });
    interaction
}

/// The fields every guild interaction carries, including those serenity requires beyond
/// Discord's documented example (`member.flags`, `application_id`, `version`, `entitlements`,
/// `attachment_size_limit`).
pub(crate) fn guild_interaction(id: u64, kind: u8, invoker: &Invoker, channel_id: u64) -> Value {
    let guild_id = FakeDiscord::GUILD_ID.to_string();
    json!({
        "id": id.to_string(),
        "application_id": FakeDiscord::APPLICATION_ID.to_string(),
        "type": kind,
        "token": format!("token{id}"),
        "version": 1,
        "guild_id": guild_id,
        "channel_id": channel_id.to_string(),
        "channel": {
            "id": channel_id.to_string(),
            "type": 0,
            "guild_id": guild_id,
            "name": format!("channel{channel_id}"),
        },
        "member": {
            "user": user_json(invoker.user_id, &invoker.name, false),
            "nick": null,
            "avatar": null,
            "roles": [],
            "joined_at": TIMESTAMP,
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": PERMISSIONS.to_string(),
        },
        "app_permissions": PERMISSIONS.to_string(),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": { "0": guild_id },
        "context": 0,
        "attachment_size_limit": 10_485_760,
    })
}

pub(crate) fn command_data(command: &str, options: Value) -> Value {
    json!({
        "id": FakeDiscord::COMMAND_ID.to_string(),
        "name": command,
        "type": 1,
        "options": options,
    })
}

pub(crate) fn component_data(custom_id: &str, component_type: u8, values: Vec<String>) -> Value {
    let mut data = json!({ "custom_id": custom_id, "component_type": component_type });
    // Buttons carry no `values`; select menus always do.
    if component_type != 2 {
        data["values"] = json!(values);
    }
    data
}

/// The bot's message the component sits on.
pub(crate) fn component_message(message_id: u64, channel_id: u64) -> Value {
    message_json(message_id, channel_id, bot_user_json(), &Value::Null, Vec::new())
}

/// Makes any focused option's value a string; true if some option was focused.
pub(crate) fn mark_focused(options: &mut Value) -> bool {
    let mut found = false;
    for option in options.as_array_mut().into_iter().flatten() {
        if option["focused"] == json!(true) {
            stringify_value(option);
            found = true;
        }
        if option.get("options").is_some() {
            found |= mark_focused(&mut option["options"]);
        }
    }
    found
}

/// Focuses the last option, descending into sub-commands (which hold their own options).
pub(crate) fn focus_last_leaf(options: &mut Value) {
    let Some(last) = options.as_array_mut().and_then(|options| options.last_mut()) else {
        return;
    };
    if last.get("options").is_some() {
        focus_last_leaf(&mut last["options"]);
    } else {
        last["focused"] = json!(true);
        stringify_value(last);
    }
}

pub(crate) fn stringify_value(option: &mut Value) {
    let value = &option["value"];
    if !value.is_string() {
        let text = if value.is_null() {
            String::new()
        } else {
            value.to_string()
        };
        option["value"] = json!(text);
    }
}

/// Every custom id in a message, a callback body or its components (rows, and the buttons and
/// menus in them), in order.
pub fn custom_ids(value: &Value) -> Vec<String> {
    objects(value)
        .into_iter()
        .filter_map(|map| map.get("custom_id")?.as_str().map(str::to_string))
        .collect()
}

/// A button, or a select menu with the values of its options, as a message shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    pub custom_id: String,
    /// A menu's options; empty for a button.
    pub values: Vec<String>,
}

impl Control {
    pub fn is_menu(&self) -> bool {
        !self.values.is_empty()
    }
}

/// The buttons (type 2) and string select menus (type 3) in a message or callback body, in
/// order.
pub fn controls(value: &Value) -> Vec<Control> {
    objects(value)
        .into_iter()
        .filter(|map| matches!(map.get("type").and_then(Value::as_u64), Some(2 | 3)))
        .filter_map(|map| {
            let custom_id = map.get("custom_id")?.as_str()?.to_string();
            let options = map.get("options").and_then(Value::as_array);
            let values = options
                .into_iter()
                .flatten()
                .filter_map(|option| option["value"].as_str().map(str::to_string))
                .collect();
            Some(Control { custom_id, values })
        })
        .collect()
}

/// Every JSON object in `value`, depth first, in order.
fn objects(value: &Value) -> Vec<&serde_json::Map<String, Value>> {
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                found.push(map);
                stack.extend(map.values().rev());
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
    found
}

/// A server's text channel.
pub(crate) fn text_channel_json(channel_id: u64, guild_id: u64) -> Value {
    json!({
        "id": channel_id.to_string(),
        "type": 0,
        "guild_id": guild_id.to_string(),
        "name": format!("channel{channel_id}"),
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false,
        "parent_id": null,
        "topic": null,
        "last_message_id": null,
        "rate_limit_per_user": 0,
    })
}

/// Parses a snowflake sent as a string or a number.
pub(crate) fn snowflake(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_str()?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message as the bot sends it: rows of buttons and a select menu, and a form's text
    /// input (type 4, no control a message shows).
    fn message() -> Value {
        json!({
            "content": "Game #1",
            "components": [
                { "type": 1, "components": [
                    { "type": 2, "style": 1, "label": "Accept", "custom_id": "arb:accept:1:0" },
                    { "type": 2, "style": 4, "label": "Decline", "custom_id": "arb:decline:1:0" },
                ] },
                { "type": 1, "components": [
                    { "type": 3, "custom_id": "arb:choose:1:2:carrier", "options": [
                        { "label": "Knight b1", "value": "b1" },
                        { "label": "Knight g1", "value": "g1" },
                    ] },
                ] },
                { "type": 1, "components": [{ "type": 4, "custom_id": "list", "style": 2 }] },
            ],
        })
    }

    #[test]
    fn controls_are_the_buttons_and_menus_in_order_with_the_menus_values() {
        let found = controls(&message());
        let ids: Vec<&str> = found.iter().map(|c| c.custom_id.as_str()).collect();
        assert_eq!(ids, ["arb:accept:1:0", "arb:decline:1:0", "arb:choose:1:2:carrier"]);
        assert!(!found[0].is_menu());
        assert_eq!(found[2].values, ["b1", "g1"]);
    }

    #[test]
    fn custom_ids_are_every_custom_id_in_order() {
        assert_eq!(
            custom_ids(&message()),
            ["arb:accept:1:0", "arb:decline:1:0", "arb:choose:1:2:carrier", "list"]
        );
    }
}
