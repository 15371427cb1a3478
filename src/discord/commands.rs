//! The slash commands. Each reads its options, names the game, asks the arena, and hands the
//! outcome to `answer`; the doc comments are the descriptions Discord shows.

use super::autocomplete::best_matches;
use super::choices::GameChoice;
use super::ids;
use super::respond::{Outgoing, Responder};
use super::{Context, Data, Error, answer};
use crate::arena::{ArenaError, ChallengeRequest, Effects, GameSummary, ListSource, MOST_LIST_BYTES, OfferResponse};
use crate::clock::{CORRESPONDENCE_DAYS, TimeControl};
use crate::ids::{GameId, Place, ServerId, UserId};
use crate::store::{GameSetup, GameStatus, WhitePlayer};
use serenity::all as discord;
use std::future::Future;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Colour {
    #[name = "Random"]
    Random,
    #[name = "White (or Red): I move first"]
    White,
    #[name = "Black (or Blue)"]
    Black,
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Answer {
    #[name = "Offer"]
    Offer,
    #[name = "Accept"]
    Accept,
    #[name = "Decline"]
    Decline,
}

impl From<Answer> for OfferResponse {
    fn from(answer: Answer) -> OfferResponse {
        match answer {
            Answer::Offer => OfferResponse::Offer,
            Answer::Accept => OfferResponse::Accept,
            Answer::Decline => OfferResponse::Decline,
        }
    }
}

/// Who asked, and where.
pub(super) struct Caller {
    pub user: UserId,
    pub here: Place,
    /// The server, unless asked in a DM.
    pub server: Option<ServerId>,
    author: discord::UserId,
    guild: Option<discord::GuildId>,
    /// The member who asked, as the interaction describes them (their permissions and roles).
    member: Option<discord::Member>,
}

impl Caller {
    pub fn of(ctx: Context<'_>) -> Caller {
        let member = match ctx {
            poise::Context::Application(app) => app.interaction.member.as_deref().cloned(),
            poise::Context::Prefix(_) => None,
        };
        Caller {
            user: ids::user(ctx.author().id),
            here: ids::location(ctx.channel_id()),
            server: ctx.guild_id().map(ids::server),
            author: ctx.author().id,
            guild: ctx.guild_id(),
            member,
        }
    }

    /// The caller as the arena knows them for a player's request: on this server, no host.
    pub fn player(&self) -> crate::arena::Caller {
        crate::arena::Caller::player(&self.user, self.server.as_ref())
    }

    /// The caller as the arena knows them for a host's request: a host of this server if its
    /// settings make them one.
    pub async fn with_host_status(&self, data: &Data) -> crate::arena::Caller {
        super::hosts::caller(data, self.author, self.guild, self.member.as_ref()).await
    }
}

/// Runs one request for a command: the caller is remembered, the request answered in time, the
/// outcome delivered. `is_private` commands answer only the caller.
pub(super) async fn run<F, Fut>(ctx: Context<'_>, is_private: bool, request: F) -> Result<(), Error>
where
    F: FnOnce(Caller) -> Fut,
    Fut: Future<Output = Result<Effects, ArenaError>>,
{
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let data = ctx.data();
    data.names.remember(ctx.author());
    let caller = Caller::of(ctx);
    let here = caller.here.clone();
    let http = &ctx.serenity_context().http;
    let mut responder = Responder::for_command(http, app.interaction, is_private);
    let result = request(caller).await;
    answer(http, data, result, &here, &mut responder).await;
    Ok(())
}

/// Refuses to start something in a channel where the bot could not carry it on: `needed` are the
/// permissions it needs there (from the interaction's `app_permissions`, which Discord sends with
/// every interaction). In a thread, posting is the thread's permission rather than the channel's.
pub(super) fn check_bot_permissions(
    ctx: Context<'_>,
    needed: discord::Permissions,
    what: &str,
) -> Result<(), ArenaError> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let Some(granted) = app.interaction.app_permissions else {
        return Ok(());
    };
    let in_thread = app.interaction.channel.as_ref().is_some_and(|channel| {
        matches!(
            channel.kind,
            discord::ChannelType::PublicThread | discord::ChannelType::PrivateThread | discord::ChannelType::NewsThread
        )
    });
    let mut needed = needed | discord::Permissions::VIEW_CHANNEL;
    if in_thread {
        needed.remove(discord::Permissions::SEND_MESSAGES);
        needed |= discord::Permissions::SEND_MESSAGES_IN_THREADS;
    }
    let lacking = needed - granted;
    if lacking.is_empty() {
        return Ok(());
    }
    Err(ArenaError::Rejected(format!(
        "I cannot {what} here: this channel does not allow me to {}. Ask a moderator to give me {} here, \
         or use another channel",
        lacking.get_permission_names().join(", ").to_lowercase(),
        if lacking.iter().count() == 1 {
            "that permission"
        } else {
            "those permissions"
        }
    )))
}

/// What a game needs from its channel: its posts (text and board images) and a thread of its own.
pub(super) fn game_permissions() -> discord::Permissions {
    discord::Permissions::SEND_MESSAGES
        | discord::Permissions::ATTACH_FILES
        | discord::Permissions::CREATE_PUBLIC_THREADS
        | discord::Permissions::SEND_MESSAGES_IN_THREADS
}

/// The game a command means: the one named, the game of this thread, or the caller's only game
/// that `fits`.
async fn pick_game(
    data: &Data,
    caller: &Caller,
    named: Option<i64>,
    fits: impl Fn(&GameSummary) -> bool,
) -> Result<GameId, ArenaError> {
    let picked = data
        .arena
        .pick_game(&caller.user, Some(&caller.here), named.map(GameId::new), fits)
        .await;
    picked.map_err(|e| match e {
        ArenaError::NoGameHere => ArenaError::Rejected(
            "there is no game here: use this in a game's thread, or name the game with the `game` option".into(),
        ),
        ArenaError::WhichGame(several) => {
            let list: Vec<String> = several.iter().map(|id| format!("#{id}")).collect();
            ArenaError::Rejected(format!(
                "you have several games ({}): name one with the `game` option",
                list.join(", ")
            ))
        }
        other => other,
    })
}

fn is_active(game: &GameSummary) -> bool {
    game.status == GameStatus::Active
}

fn is_waiting_for_me(game: &GameSummary) -> bool {
    game.status == GameStatus::Active && game.is_your_turn
}

/// Challenge someone to a game; they get Accept and Decline buttons.
#[poise::command(slash_command, guild_only)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "The game to play"] variant: GameChoice,
    #[description = "Whom to challenge"] opponent: discord::User,
    #[description = "The side you play (default: random)"] colour: Option<Colour>,
    #[description = "Start from this position, in FEN (see /rules)"]
    #[max_length = 200]
    fen: Option<String>,
    #[description = "Time control: 3d (days per move), 24h+72h (per move + reserve); default untimed"]
    #[autocomplete = "suggest_time_controls"]
    #[max_length = 40]
    time: Option<String>,
) -> Result<(), Error> {
    ctx.data().names.remember(&opponent);
    let data = ctx.data();
    let allowed = check_bot_permissions(ctx, game_permissions(), "start a game");
    run(ctx, false, |caller| async move {
        allowed?;
        if opponent.bot {
            return Err(ArenaError::Rejected("bots cannot play; challenge a person".into()));
        }
        let white_player = match colour.unwrap_or(Colour::Random) {
            Colour::Random => WhitePlayer::Random,
            Colour::White => WhitePlayer::Challenger,
            Colour::Black => WhitePlayer::Opponent,
        };
        let setup = GameSetup {
            variant: variant.0,
            fen: fen.filter(|f| !f.trim().is_empty()),
        };
        let control = match time.as_deref().map(str::trim) {
            None | Some("") | Some("none") | Some("untimed") => None,
            Some(text) => Some(TimeControl::parse(text).map_err(ArenaError::Rejected)?),
        };
        let request = ChallengeRequest {
            opponent: ids::user(opponent.id),
            setup,
            white_player,
            control,
            location: caller.here.clone(),
            server: caller.server.clone(),
        };
        data.arena.challenge(&caller.user, request).await
    })
    .await
}

/// Time controls players pick most, then whatever they typed if it reads as one.
async fn suggest_time_controls(_ctx: Context<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let mut controls: Vec<TimeControl> = CORRESPONDENCE_DAYS
        .iter()
        .map(|&days| TimeControl::days_per_move(days))
        .collect();
    controls.push(TimeControl::parse("24h+72h").expect("a valid control"));
    if let Ok(typed) = TimeControl::parse(typed) {
        controls.retain(|c| *c != typed);
        controls.insert(0, typed);
    }
    let typed = typed.trim().to_ascii_lowercase();
    let choices = controls
        .into_iter()
        .filter(|c| typed.is_empty() || c.spec().starts_with(&typed) || TimeControl::parse(&typed) == Ok(*c))
        .map(|c| discord::AutocompleteChoice::new(format!("{} ({})", c.describe(), c.spec()), c.spec()))
        .take(25)
        .collect();
    discord::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Withdraw a challenge of yours that has not been answered.
#[poise::command(slash_command)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Game number (default: your only open challenge)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let open = |g: &GameSummary| g.status == GameStatus::Challenge && !g.is_your_turn;
        let id = pick_game(data, &caller, game, open).await?;
        data.arena.cancel(id, &caller.user).await
    })
    .await
}

/// Make a move, a placement or a secret choice (suggestions appear as you type).
#[poise::command(slash_command, rename = "move")]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Your move, e.g. e4, Nf3, O-O, Bxd5(a4), Q@d4, Qd1-d5@d7, bomb:d2, detonate"]
    #[autocomplete = "suggest_actions"]
    #[max_length = 300]
    action: String,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, is_waiting_for_me).await?;
        data.arena.act(id, &caller.user, action.trim()).await
    })
    .await
}

/// The caller's legal actions that match what they typed: only their own options, which reveal
/// nothing they do not already know.
async fn suggest_actions(ctx: Context<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let none = discord::CreateAutocompleteResponse::new();
    let poise::Context::Application(app) = ctx else {
        return none;
    };
    let named = app
        .interaction
        .data
        .options
        .iter()
        .find_map(|option| match (&*option.name, &option.value) {
            ("game", discord::CommandDataOptionValue::Integer(id)) => Some(*id),
            _ => None,
        });
    let data = ctx.data();
    let caller = Caller::of(ctx);
    let Ok(id) = pick_game(data, &caller, named, is_waiting_for_me).await else {
        return none;
    };
    let Ok(mut actions) = data.arena.legal_actions(id, &caller.user).await else {
        return none;
    };
    // A list of pieces is written with /list or its form, never picked from suggestions.
    actions.retain(|action| action.chars().count() <= super::autocomplete::CHOICE_TEXT_LIMIT);
    let choices = best_matches(&actions, typed)
        .into_iter()
        .map(|action| discord::AutocompleteChoice::new(action.clone(), action))
        .collect();
    none.set_choices(choices)
}

/// Show the board as you may see it (your own secrets included), privately.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let id = pick_game(data, &caller, game, |_| true).await?;
        data.arena.show(id, &caller.player()).await
    })
    .await
}

/// Show the moves played so far, privately.
#[poise::command(slash_command)]
pub async fn moves(
    ctx: Context<'_>,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let id = pick_game(data, &caller, game, |_| true).await?;
        let mut shown = data.arena.show(id, &caller.player()).await?;
        if let Some(reply) = shown.reply.as_mut() {
            reply.board = None;
        }
        Ok(shown)
    })
    .await
}

/// Resign the game.
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, is_active).await?;
        data.arena.resign(id, &caller.user).await
    })
    .await
}

/// Offer a draw, or answer your opponent's offer.
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "Offer, accept or decline"] answer: Answer,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, is_active).await?;
        data.arena.draw(id, &caller.user, answer.into()).await
    })
    .await
}

/// Ask to take back your last move, or answer your opponent's request.
#[poise::command(slash_command)]
pub async fn takeback(
    ctx: Context<'_>,
    #[description = "Offer (ask), accept or decline"] answer: Answer,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, is_active).await?;
        data.arena.takeback(id, &caller.user, answer.into()).await
    })
    .await
}

/// Call the game off before both players have moved; it counts for nobody.
#[poise::command(slash_command)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, is_active).await?;
        data.arena.abort(id, &caller.user).await
    })
    .await
}

/// Claim a game your opponent has left untouched for 30 days (a win; an abort before their first move).
#[poise::command(slash_command)]
pub async fn claim(
    ctx: Context<'_>,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let id = pick_game(data, &caller, game, is_active).await?;
        data.arena.claim_abandoned(id, &caller.user).await
    })
    .await
}

/// Your open challenges and games, the ones waiting for you first.
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let games = data.arena.games(&caller.user).await?;
        if games.is_empty() {
            return Ok(Effects::reply("You have no open games. Start one with /challenge."));
        }
        let lines: Vec<String> = games
            .iter()
            .map(|g| {
                let state = if is_waiting_for_me(g) {
                    format!("**{}**", g.state_text())
                } else {
                    g.state_text().to_string()
                };
                let place = ids::channel(&g.location).map_or_else(String::new, |c| format!(" in <#{c}>"));
                let control = g.control.map_or(String::new(), |c| format!(" ({})", c.describe()));
                let clock = g
                    .flag_at
                    .map_or(String::new(), |at| format!(" · time runs out <t:{}:R>", at / 1000));
                format!(
                    "#{} {}{control} vs {}{place}: {state} since <t:{}:R>{clock}",
                    g.id,
                    g.variant.name(),
                    ids::mention(&g.opponent),
                    g.since / 1000
                )
            })
            .collect();
        Ok(Effects::reply(lines.join("\n")))
    })
    .await
}

/// The rules of a game, as Arbiter plays it; in a game's thread, that game's (with its pieces).
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "The game (default: the game of this thread)"] variant: Option<GameChoice>,
    #[description = "Game number, for its own pieces (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let http = &ctx.serenity_context().http;
    let data = ctx.data();
    let mut responder = Responder::for_command(http, app.interaction, true);
    let variant = match variant.filter(|_| game.is_none()) {
        Some(variant) => variant,
        None => {
            // A game's rules: its variant's page, or where the players brought their own pieces,
            // those pieces with their sheet.
            let caller = Caller::of(ctx);
            let found = match pick_game(data, &caller, game, |_| true).await {
                Ok(id) => data.arena.facts(id).await,
                Err(error) => Err(error),
            };
            match found {
                Ok(Some(game)) if !game.brings_own_pieces => GameChoice(game.variant),
                other => {
                    let result = match other {
                        Ok(Some(game)) => data.arena.game_rules(game.id, &caller.player(), false).await,
                        Ok(None) => Err(ArenaError::NoGameHere),
                        Err(error) => Err(error),
                    };
                    answer(http, data, result, &caller.here, &mut responder).await;
                    return Ok(());
                }
            }
        }
    };
    let page = variant.0.rules_page();
    // The page's own title becomes the embed's.
    let body = page.split_once('\n').map_or(page, |(_, rest)| rest).trim();
    let embed = discord::CreateEmbed::new()
        .title(variant.0.name())
        .description(truncate_embed(body));
    let message = Outgoing {
        embeds: vec![embed],
        ..Outgoing::default()
    };
    responder.send_private(message).await?;
    Ok(())
}

/// One piece's card: its moves on a diagram, its Betza notation and what it does, privately.
#[poise::command(slash_command)]
pub async fn piece(
    ctx: Context<'_>,
    #[description = "The piece: a name (Chinese nightrider), a symbol (CN) or part of a name"]
    #[autocomplete = "suggest_pieces"]
    #[max_length = 60]
    name: String,
) -> Result<(), Error> {
    run(ctx, true, |_| async move { crate::arena::piece_card(&name) }).await
}

/// Catalogue pieces whose name or symbol matches what was typed; each value is the piece's id,
/// so a name several games share still finds the one chosen.
async fn suggest_pieces(_ctx: Context<'_>, typed: &str) -> discord::CreateAutocompleteResponse {
    let pieces = arbiter_engine::catalogue::all();
    let labels: Vec<String> = pieces.iter().map(piece_label).collect();
    let choices = best_matches(&labels, typed)
        .into_iter()
        .filter_map(|label| {
            let piece = pieces.iter().find(|p| piece_label(p) == label)?;
            Some(discord::AutocompleteChoice::new(label, piece.id.clone()))
        })
        .collect();
    discord::CreateAutocompleteResponse::new().set_choices(choices)
}

/// "CN · Chinese nightrider (Pick-the-team)": how a piece is offered as you type.
fn piece_label(piece: &arbiter_engine::piece::PieceDef) -> String {
    let section = arbiter_engine::catalogue::section_of(&piece.id).unwrap_or_default();
    format!("{} · {} ({section})", piece.symbol, piece.name)
}

/// An embed's description holds at most 4096 characters.
fn truncate_embed(text: &str) -> String {
    const LIMIT: usize = 4096;
    if text.chars().count() <= LIMIT {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(LIMIT - 1).collect();
    cut.push('…');
    cut
}

/// The game as a PGN record (only what you may see), privately, as a file.
#[poise::command(slash_command)]
pub async fn export(
    ctx: Context<'_>,
    #[description = "Game number (default: the game of this thread)"] game: Option<i64>,
) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let caller = Caller::of(ctx);
    let mut responder = Responder::for_command(http, app.interaction, true);
    let work = async {
        let id = pick_game(data, &caller, game, |_| true).await?;
        // The record names the players as Discord shows them.
        let mut names = std::collections::HashMap::new();
        if let Some(game) = data.arena.facts(id).await? {
            for player in [&game.challenger, &game.opponent] {
                if let Some(user) = ids::discord_user(player) {
                    names.insert(player.clone(), data.names.name_of(http, user).await);
                }
            }
        }
        Ok::<_, ArenaError>((id, data.arena.export(id, &caller.player(), &names).await?))
    };
    match work.await {
        Ok((id, effects)) => {
            let record = effects.reply.map(|r| r.text).unwrap_or_default();
            let message = Outgoing {
                content: format!(
                    "Game #{id} as PGN: chess tools such as Lichess read chess records; `/import` reads any of them back."
                ),
                files: vec![discord::CreateAttachment::bytes(
                    record.into_bytes(),
                    format!("arbiter-game-{id}.pgn"),
                )],
                ..Outgoing::default()
            };
            responder.send_private(message).await?;
        }
        Err(error) => answer(http, data, Err(error), &caller.here, &mut responder).await,
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Side {
    #[name = "White (or the side that moves first)"]
    White,
    #[name = "Black (or the side that moves second)"]
    Black,
}

/// Bring in a game record (PGN) to play on with someone, or to study alone; never rated.
#[poise::command(slash_command, guild_only)]
pub async fn import(
    ctx: Context<'_>,
    #[description = "The record: a .pgn file of one game"] file: discord::Attachment,
    #[description = "The side you play"] side: Side,
    #[description = "Who plays the other side (they accept or decline); leave out to study alone"] opponent: Option<
        discord::User,
    >,
) -> Result<(), Error> {
    let data = ctx.data();
    if let Some(opponent) = &opponent {
        data.names.remember(opponent);
    }
    let allowed = check_bot_permissions(ctx, game_permissions(), "start a game");
    run(ctx, false, |caller| async move {
        allowed?;
        if opponent.as_ref().is_some_and(|o| o.bot) {
            return Err(ArenaError::Rejected("bots cannot play; name a person".into()));
        }
        let text = text_file(
            &file,
            crate::arena::MAX_RECORD_BYTES,
            "a game record is a .pgn text file",
        )
        .await?;
        let request = crate::arena::ImportRequest {
            side: match side {
                Side::White => arbiter_engine::Seat::First,
                Side::Black => arbiter_engine::Seat::Second,
            },
            opponent: opponent.map(|o| ids::user(o.id)),
            location: caller.here.clone(),
        };
        data.arena.import(&caller.player(), request, &text).await
    })
    .await
}

/// An attached text file's contents, refused (with `what` it should be) when too big or not text.
async fn text_file(file: &discord::Attachment, most_bytes: usize, what: &str) -> Result<String, ArenaError> {
    if file.size as usize > most_bytes {
        return Err(ArenaError::Rejected(format!(
            "that file is {} KB; at most {} KB: {what}",
            file.size.div_ceil(1024),
            most_bytes.div_ceil(1024)
        )));
    }
    let bytes = file
        .download()
        .await
        .map_err(|e| ArenaError::Rejected(format!("I could not fetch the file from Discord: {e}")))?;
    if bytes.len() > most_bytes {
        return Err(ArenaError::Rejected(format!("that file is too big: {what}")));
    }
    String::from_utf8(bytes).map_err(|_| ArenaError::Rejected(format!("that file is not text; {what}")))
}

/// Where a list comes from in a command: exactly one of the options.
async fn list_text(
    text: Option<String>,
    file: Option<discord::Attachment>,
    saved: Option<String>,
) -> Result<ListSource, ArenaError> {
    const WHAT: &str = "a list is a text file with one piece a line";
    match (text, file, saved) {
        (Some(text), None, None) => Ok(ListSource::Text(text.replace(';', "\n"))),
        (None, Some(file), None) => Ok(ListSource::Text(text_file(&file, MOST_LIST_BYTES, WHAT).await?)),
        (None, None, Some(name)) => Ok(ListSource::Saved(name)),
        (None, None, None) => Err(ArenaError::Rejected(
            "give your list: `text` (pieces separated by `;`), a text `file` (one piece a line), or a `saved` list's name"
                .into(),
        )),
        _ => Err(ArenaError::Rejected("give your list one way only: text, file or saved".into())),
    }
}

/// Send your list of pieces (Pick-the-team 2, Patch, Easy Patch); the answer is private.
#[poise::command(slash_command)]
pub async fn list(
    ctx: Context<'_>,
    #[description = "The pieces, separated by ;  e.g. Giraffe, GI, C; King, K, K, royal"]
    #[max_length = 4000]
    text: Option<String>,
    #[description = "A text file with one piece a line"] file: Option<discord::Attachment>,
    #[description = "The name of a list you saved with /lists save"]
    #[max_length = 60]
    saved: Option<String>,
    #[description = "Game number (default: your game waiting for a list)"] game: Option<i64>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let source = list_text(text, file, saved).await?;
        data.arena
            .submit_list(game.map(GameId::new), &caller.user, source)
            .await
    })
    .await
}

/// Your saved lists of pieces.
#[poise::command(slash_command, subcommands("lists_save", "lists_show", "lists_delete"))]
pub async fn lists(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Save a list of pieces under a name, to send to later games.
#[poise::command(slash_command, rename = "save")]
pub async fn lists_save(
    ctx: Context<'_>,
    #[description = "A name for the list"]
    #[max_length = 60]
    name: String,
    #[description = "The pieces, separated by ;"]
    #[max_length = 4000]
    text: Option<String>,
    #[description = "A text file with one piece a line"] file: Option<discord::Attachment>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        let ListSource::Text(text) = list_text(text, file, None).await? else {
            return Err(ArenaError::Rejected("give the list as text or a file".into()));
        };
        data.arena.save_list(&caller.user, &name, &text).await
    })
    .await
}

/// Your saved lists, or one of them in full.
#[poise::command(slash_command, rename = "show")]
pub async fn lists_show(
    ctx: Context<'_>,
    #[description = "The list to show in full (default: all their names)"]
    #[max_length = 60]
    name: Option<String>,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena.show_lists(&caller.user, name.as_deref()).await
    })
    .await
}

/// Delete a saved list.
#[poise::command(slash_command, rename = "delete")]
pub async fn lists_delete(
    ctx: Context<'_>,
    #[description = "The list to delete"]
    #[max_length = 60]
    name: String,
) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, true, |caller| async move {
        data.arena.delete_list(&caller.user, &name).await
    })
    .await
}
