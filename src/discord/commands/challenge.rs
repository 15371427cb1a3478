//! Starting games: a challenge (with its time control, suggested as you type), a game against
//! the computer (`/practice`, or a challenge to the bot itself), and taking a challenge back
//! before it is answered.

use super::{check_bot_permissions, game_permissions, run};
use crate::arena::ArenaError;
use crate::clock::{CORRESPONDENCE_DAYS, TimeControl};
use crate::commands::challenge::{self, GameChoices};
use crate::discord::choices::GameChoice;
use crate::discord::ids;
use crate::discord::{Context, Error};
use crate::ids::GameId;
use crate::model::WhitePlayer;
use arbiter_engine::ai::Level;
use serenity::all as discord;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Colour {
    #[name = "Random"]
    Random,
    #[name = "White (or Red): I move first"]
    White,
    #[name = "Black (or Blue)"]
    Black,
}

impl Colour {
    /// Who takes the first seat when the asker chose this colour.
    fn white_player(colour: Option<Colour>) -> WhitePlayer {
        match colour.unwrap_or(Colour::Random) {
            Colour::Random => WhitePlayer::Random,
            Colour::White => WhitePlayer::Challenger,
            Colour::Black => WhitePlayer::Opponent,
        }
    }
}

/// How hard the computer tries.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum Strength {
    #[name = "Easy: a quick look, and it misjudges a little"]
    Easy,
    #[name = "Normal: a quick search, well under a second a move"]
    Normal,
    #[name = "Hard: a deeper search, about a second a move"]
    Hard,
}

impl From<Strength> for Level {
    fn from(strength: Strength) -> Level {
        match strength {
            Strength::Easy => Level::Easy,
            Strength::Normal => Level::Normal,
            Strength::Hard => Level::Hard,
        }
    }
}

#[poise::command(slash_command, guild_only)]
pub async fn challenge(
    ctx: Context<'_>,
    variant: GameChoice,
    opponent: discord::User,
    colour: Option<Colour>,
    #[max_length = 200] fen: Option<String>,
    #[autocomplete = "suggest_time_controls"]
    #[max_length = 40]
    time: Option<String>,
) -> Result<(), Error> {
    ctx.data().names.remember(&opponent);
    let data = ctx.data();
    let opponent_is_bot = opponent.bot;
    let allowed = check_bot_permissions(ctx, game_permissions(), "start a game");
    run(ctx, false, |caller| async move {
        allowed?;
        let opponent = ids::user(opponent.id);
        // The bot itself plays: a game against the computer at its usual level.
        if opponent_is_bot && opponent != data.me {
            return Err(ArenaError::Rejected(format!(
                "other bots cannot play; challenge a person, or play me with {}",
                crate::arena::text::command("practice", &[])
            )));
        }
        let choices = GameChoices {
            variant: variant.0,
            white_player: Colour::white_player(colour),
            fen,
            time,
        };
        let player = caller.player();
        challenge::challenge(caller.ask(&data.arena, &player), opponent, &data.me, choices, None).await
    })
    .await
}

#[poise::command(slash_command, guild_only)]
pub async fn practice(
    ctx: Context<'_>,
    variant: GameChoice,
    level: Option<Strength>,
    colour: Option<Colour>,
    #[autocomplete = "suggest_time_controls"]
    #[max_length = 40]
    time: Option<String>,
    #[max_length = 200] fen: Option<String>,
) -> Result<(), Error> {
    let data = ctx.data();
    let allowed = check_bot_permissions(ctx, game_permissions(), "start a game");
    run(ctx, false, |caller| async move {
        allowed?;
        let choices = GameChoices {
            variant: variant.0,
            white_player: Colour::white_player(colour),
            fen,
            time,
        };
        let player = caller.player();
        let ask = caller.ask(&data.arena, &player);
        challenge::practice(ask, &data.me, choices, level.map(Level::from)).await
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

#[poise::command(slash_command)]
pub async fn cancel(ctx: Context<'_>, game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    run(ctx, false, |caller| async move {
        let player = caller.player();
        challenge::cancel(caller.ask(&data.arena, &player), game.map(GameId::new)).await
    })
    .await
}
