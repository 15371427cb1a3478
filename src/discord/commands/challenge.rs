//! Starting games: a challenge (with its time control, suggested as you type), and taking one
//! back before it is answered.

use super::{check_bot_permissions, game_permissions, pick_game, run};
use crate::arena::{ArenaError, ChallengeRequest, GameSummary};
use crate::clock::{CORRESPONDENCE_DAYS, TimeControl};
use crate::discord::choices::GameChoice;
use crate::discord::ids;
use crate::discord::{Context, Error};
use crate::store::{GameSetup, GameStatus, WhitePlayer};
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
