//! Slash-command choices built from the engine's registry, so a game added there appears in
//! Discord's menus with nothing to edit here.

use arbiter_engine::VariantId;
use poise::{ChoiceParameter, CommandParameterChoice};
use std::borrow::Cow;

/// The games a list offers, in registry order.
fn games(is_listed: fn(VariantId) -> bool) -> impl Iterator<Item = VariantId> {
    VariantId::ALL.iter().copied().filter(move |&id| is_listed(id))
}

fn choices(is_listed: fn(VariantId) -> bool) -> Cow<'static, [CommandParameterChoice]> {
    games(is_listed)
        .map(|id| CommandParameterChoice {
            name: Cow::Borrowed(id.name()),
            localizations: Cow::Borrowed(&[]),
            __non_exhaustive: (),
        })
        .collect()
}

macro_rules! game_choice {
    ($(#[$doc:meta])* $name:ident, $is_listed:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub VariantId);

        impl ChoiceParameter for $name {
            fn list() -> Cow<'static, [CommandParameterChoice]> {
                choices($is_listed)
            }
            fn from_index(index: usize) -> Option<Self> {
                games($is_listed).nth(index).map($name)
            }
            fn from_name(name: &str) -> Option<Self> {
                games($is_listed)
                    .find(|id| id.name().eq_ignore_ascii_case(name) || id.as_str() == name)
                    .map($name)
            }
            fn name(&self) -> &'static str {
                self.0.name()
            }
            fn localized_name(&self, _locale: &str) -> Option<&'static str> {
                None
            }
        }
    };
}

game_choice!(
    /// Any game Arbiter hosts.
    GameChoice,
    |_| true
);

game_choice!(
    /// A game hosts may run Death Matches of.
    MatchGameChoice,
    |id| id.info().has_death_matches
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choices_are_the_registry_and_read_back_by_index_and_name() {
        let list = GameChoice::list();
        assert_eq!(list.len(), VariantId::ALL.len());
        assert!(list.len() <= 25, "Discord offers at most 25 choices");
        for (index, &id) in VariantId::ALL.iter().enumerate() {
            assert_eq!(GameChoice::from_index(index), Some(GameChoice(id)));
            assert_eq!(GameChoice::from_name(id.name()), Some(GameChoice(id)));
            assert_eq!(list[index].name, id.name());
        }
        assert_eq!(GameChoice::from_index(VariantId::ALL.len()), None);
        let matches: Vec<VariantId> = (0..MatchGameChoice::list().len())
            .filter_map(|i| MatchGameChoice::from_index(i).map(|c| c.0))
            .collect();
        assert_eq!(matches, [VariantId::Blockade, VariantId::Garden]);
    }
}
