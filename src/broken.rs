//! Deliberate defects, for proving that the soak's checker, and tests that run the real bot,
//! catch each kind of failure they claim to (`arbiter-soak --broken ...`, tests/discord/budget.rs).
//! They exist only in a build with the
//! `deliberately-broken` feature, and act only when `ARBITER_BROKEN` names them; every other
//! build compiles each check to `false`.

/// A defect the soak's checker must catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defect {
    /// Some actions are acknowledged without being saved.
    DroppedSave,
    /// The posts that end a game go out twice.
    DuplicatedPost,
    /// A secret choice is named in the game's public post.
    LeakedSecret,
    /// A forfeit on time fires twice: two conclusions, two posts.
    DoubleDeadline,
    /// A process paces itself to the bot's whole request budget instead of its share of it, as
    /// if it ran every shard (tests/discord/budget.rs).
    IgnoresBudgetShare,
}

impl Defect {
    pub const ALL: [Defect; 5] = [
        Defect::DroppedSave,
        Defect::DuplicatedPost,
        Defect::LeakedSecret,
        Defect::DoubleDeadline,
        Defect::IgnoresBudgetShare,
    ];

    /// Its name in `ARBITER_BROKEN`.
    pub fn name(self) -> &'static str {
        match self {
            Defect::DroppedSave => "dropped-save",
            Defect::DuplicatedPost => "duplicated-post",
            Defect::LeakedSecret => "leaked-secret",
            Defect::DoubleDeadline => "double-deadline",
            Defect::IgnoresBudgetShare => "ignores-budget-share",
        }
    }
}

/// Whether this build was asked to have `defect`.
#[cfg(feature = "deliberately-broken")]
pub fn has(defect: Defect) -> bool {
    std::env::var("ARBITER_BROKEN").is_ok_and(|names| names.split(',').any(|name| name.trim() == defect.name()))
}

/// Whether this build was asked to have `defect`: never, without the `deliberately-broken`
/// feature.
#[cfg(not(feature = "deliberately-broken"))]
pub fn has(_defect: Defect) -> bool {
    false
}
