//! The slash commands the command layer answers itself (`commands::describe`): each is built when
//! the bot starts from its one description in the catalog, its options read from the
//! interaction and handed to the command's answer. Nothing here names a command.

use super::{Caller, run};
use crate::arena::ArenaError;
use crate::commands::catalog;
use crate::commands::describe::Run;
use crate::commands::options::{Args, Kind, Opt, Value};
use crate::discord::autocomplete::{CHOICE_TEXT_LIMIT, best_matches};
use crate::discord::{Data, Error, ids};
use arbiter_engine::VariantId;
use serenity::all as discord;
use std::borrow::Cow;

type Command = poise::Command<Data, Error>;
type Parameter = poise::CommandParameter<Data, Error>;
type AppContext<'a> = poise::ApplicationContext<'a, Data, Error>;

/// The longest text one option of these commands takes (a move, with room to spare).
const TEXT_LIMIT: u16 = 300;

/// The largest whole number Discord's clients send exactly (JavaScript's safe integers).
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Adds every slash command the command layer answers to `commands`, in the catalog's order: a
/// subcommand (`"tournament join"`) to its group, which is made when no command has it yet.
pub fn add_to(commands: &mut Vec<Command>) {
    let declared = catalog::all().filter(|described| described.in_discord && described.run.is_some());
    for described in declared {
        let Some((group, name)) = described.name.split_once(' ') else {
            commands.push(slash_command(described, described.name));
            continue;
        };
        let index = match commands.iter().position(|command| command.name == group) {
            Some(index) => index,
            None => {
                commands.push(group_command(group));
                commands.len() - 1
            }
        };
        commands[index].subcommands.push(slash_command(described, name));
    }
    // In the catalog's order, whoever reads them (Discord's list, `/help`).
    commands.sort_by_key(|command| catalog_position(&command.name));
    for command in commands.iter_mut() {
        // A subcommand's full name is only given it when the framework starts.
        let group = command.name.to_string();
        command
            .subcommands
            .sort_by_key(|sub| catalog_position(&format!("{group} {}", sub.name)));
    }
}

/// Where the catalog describes the command Discord knows as `name`.
fn catalog_position(name: &str) -> usize {
    catalog::all()
        .position(|described| described.in_discord && described.name == name)
        .unwrap_or(usize::MAX)
}

/// A group of subcommands, described by the catalog's entry of that name.
fn group_command(group: &'static str) -> Command {
    poise::Command {
        name: group.into(),
        qualified_name: group.into(),
        identifying_name: group.into(),
        source_code_name: group.into(),
        description: catalog::in_discord(group).map(|described| described.summary.into()),
        subcommand_required: true,
        ..Default::default()
    }
}

fn slash_command(described: &'static crate::commands::describe::Command, name: &'static str) -> Command {
    let suggests = described.run.is_some_and(|run| run.suggest.is_some());
    poise::Command {
        name: name.into(),
        qualified_name: described.name.into(),
        identifying_name: described.name.into(),
        source_code_name: described.name.into(),
        description: Some(described.summary.into()),
        guild_only: described.run.is_some_and(|run| run.on_a_server),
        slash_action: Some(|ctx| Box::pin(answer(ctx))),
        parameters: described
            .options
            .iter()
            .map(|opt| parameter(opt, suggests && opt.kind == Kind::Text))
            .collect(),
        custom_data: Box::new(described),
        ..Default::default()
    }
}

fn parameter(opt: &'static Opt, suggested: bool) -> Parameter {
    let choices = match opt.kind {
        Kind::OneOf(choices) => choices
            .iter()
            .map(|choice| poise::CommandParameterChoice {
                name: choice.shown.into(),
                localizations: Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect(),
        Kind::Variant => VariantId::ALL
            .iter()
            .map(|variant| poise::CommandParameterChoice {
                name: variant.name().into(),
                localizations: Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect(),
        _ => Cow::Borrowed(&[][..]),
    };
    poise::CommandParameter {
        name: opt.name.into(),
        name_localizations: Cow::Borrowed(&[]),
        description: Some(opt.about.into()),
        description_localizations: Cow::Borrowed(&[]),
        required: opt.required,
        channel_types: None,
        choices,
        type_setter: Some(type_setter(opt.kind)),
        autocomplete_callback: suggested.then_some(|ctx, typed| Box::pin(suggest(ctx, typed))),
        __non_exhaustive: (),
    }
}

/// How Discord is told the kind of an option.
fn type_setter(kind: Kind) -> fn(discord::CreateCommandOption) -> discord::CreateCommandOption {
    use discord::CommandOptionType as Type;
    match kind {
        Kind::Text => |option| option.kind(Type::String).max_length(TEXT_LIMIT),
        Kind::Number | Kind::Game | Kind::Tournament => |option| {
            option
                .kind(Type::Integer)
                .min_number_value(-SAFE_INTEGER)
                .max_number_value(SAFE_INTEGER)
        },
        Kind::Flag => |option| option.kind(Type::Boolean),
        Kind::OneOf(_) | Kind::Variant => |option| option.kind(Type::Integer),
        Kind::User => |option| option.kind(Type::User),
        Kind::Role => |option| option.kind(Type::Role),
        Kind::File => |option| option.kind(Type::Attachment),
    }
}

/// The catalog's description of the command being answered.
fn described(ctx: AppContext<'_>) -> Option<(&'static crate::commands::describe::Command, Run)> {
    let ctx = poise::Context::Application(ctx);
    let described = *ctx
        .command()
        .custom_data
        .downcast_ref::<&'static crate::commands::describe::Command>()?;
    Some((described, described.run?))
}

async fn answer(ctx: AppContext<'_>) -> Result<(), poise::FrameworkError<'_, Data, Error>> {
    let Some((described, run_it)) = described(ctx) else {
        return Ok(());
    };
    let args = read(described.options, ctx.args);
    let data = poise::Context::Application(ctx).data();
    // Users named in the options are named as Discord shows them wherever the answer names them.
    for resolved in ctx.args {
        if let discord::ResolvedValue::User(user, _) = resolved.value {
            data.names.remember(user);
        }
    }
    run(ctx.into(), run_it.private, |caller: Caller| async move {
        let args = args?;
        let asker = if run_it.hosts {
            caller.with_host_status(data).await
        } else {
            caller.player()
        };
        (run_it.answer)(caller.ask(&data.arena, &asker), args).await
    })
    .await
    .map_err(|error| poise::FrameworkError::new_command(ctx.into(), error))
}

/// The options as the interaction gives them, by the command's description. A payload that does
/// not match it (an old client, a broken request) is refused with what to do, and nothing runs.
fn read(options: &'static [Opt], given: &[discord::ResolvedOption<'_>]) -> Result<Args, ArenaError> {
    let mut args = Args::default();
    for (opt, value) in given_values(options, given) {
        let value = value.ok_or_else(|| {
            ArenaError::Rejected(format!(
                "the {} option came in a form I cannot read; please try the command again",
                opt.name
            ))
        })?;
        args.set(opt.name, value);
    }
    match args.missing(options) {
        Some(missing) => Err(ArenaError::Rejected(format!(
            "the {} option is missing; please try the command again",
            missing.name
        ))),
        None => Ok(args),
    }
}

/// Each option the interaction gives, with its value when it is in the shape the option takes.
fn given_values<'a>(
    options: &'static [Opt],
    given: &'a [discord::ResolvedOption<'a>],
) -> impl Iterator<Item = (&'static Opt, Option<Value>)> + 'a {
    options.iter().filter_map(move |opt| {
        let resolved = given.iter().find(|resolved| resolved.name == opt.name)?;
        Some((opt, value_of(opt, &resolved.value)))
    })
}

fn value_of(opt: &Opt, given: &discord::ResolvedValue<'_>) -> Option<Value> {
    use discord::ResolvedValue as Given;
    Some(match (opt.kind, given) {
        (Kind::Text, Given::String(text)) => Value::Text((*text).to_string()),
        (Kind::Text, Given::Autocomplete { value, .. }) => Value::Text((*value).to_string()),
        (Kind::Number | Kind::Game | Kind::Tournament, Given::Integer(number)) => Value::Number(*number),
        (Kind::Flag, Given::Boolean(flag)) => Value::Flag(*flag),
        (Kind::OneOf(choices), Given::Integer(index)) => Value::Word(choices.get(usize::try_from(*index).ok()?)?.word),
        (Kind::Variant, Given::Integer(index)) => Value::Variant(*VariantId::ALL.get(usize::try_from(*index).ok()?)?),
        (Kind::User, Given::User(user, _)) => Value::User(ids::user(user.id)),
        _ => return None,
    })
}

/// Suggestions for the option being typed: the command layer's, those that fit what was typed
/// first, each short enough for Discord to show.
async fn suggest(ctx: AppContext<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let none = discord::CreateAutocompleteResponse::new();
    let Some((
        described,
        Run {
            suggest: Some(suggest), ..
        },
    )) = described(ctx)
    else {
        return none;
    };
    // What is typed so far need not be valid yet: the other options are read as they are.
    let mut args = Args::default();
    for (opt, value) in given_values(described.options, ctx.args) {
        if let Some(value) = value {
            args.set(opt.name, value);
        }
    }
    let caller = Caller::of(ctx.into());
    let player = caller.player();
    let mut suggestions = suggest(
        caller.ask(&poise::Context::Application(ctx).data().arena, &player),
        args,
    )
    .await;
    // Discord refuses a whole answer holding a longer choice (a list of pieces would be one).
    suggestions.retain(|text| text.chars().count() <= CHOICE_TEXT_LIMIT);
    let choices = best_matches(&suggestions, typed)
        .into_iter()
        .map(|text| discord::AutocompleteChoice::new(text.clone(), text))
        .collect();
    none.set_choices(choices)
}
