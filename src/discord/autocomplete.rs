//! Choosing which legal actions to offer as a player types.

/// Discord shows at most this many autocomplete choices.
pub const CHOICE_LIMIT: usize = 25;
/// Discord refuses a whole answer holding a choice longer than this.
pub const CHOICE_TEXT_LIMIT: usize = 100;

/// The actions that match what was typed so far, best first: those that start with it, then
/// those that contain it, each group shortest first (so `e4` comes before `e4xd5`), at most
/// `CHOICE_LIMIT` (Discord's 25). Matching ignores case, `x`, `+`, `#` and dashes, so `nf3` finds `Nf3`.
pub fn best_matches(actions: &[String], typed: &str) -> Vec<String> {
    let wanted = crate::commands::play::simplified(typed);
    let mut ranked: Vec<(u8, usize, &String)> = actions
        .iter()
        .filter_map(|action| {
            let plain = crate::commands::play::simplified(action);
            let rank = if plain.starts_with(&wanted) {
                0
            } else if plain.contains(&wanted) {
                1
            } else {
                return None;
            };
            Some((rank, action.len(), action))
        })
        .collect();
    ranked.sort();
    ranked
        .into_iter()
        .take(CHOICE_LIMIT)
        .map(|(_, _, action)| action.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn prefix_matches_come_first_and_shorter_before_longer() {
        let actions = strings(&["Nf3", "e4", "exd5", "Be4", "e3", "Nxe4"]);
        assert_eq!(
            best_matches(&actions, "e"),
            strings(&["e3", "e4", "exd5", "Be4", "Nxe4"])
        );
        assert_eq!(best_matches(&actions, "nf"), strings(&["Nf3"]));
        assert_eq!(best_matches(&actions, "ne4"), strings(&["Nxe4"]));
        assert_eq!(best_matches(&actions, "q"), Vec::<String>::new());
    }

    #[test]
    fn everything_is_offered_for_an_empty_input_but_never_more_than_discord_shows() {
        let actions: Vec<String> = (0..40).map(|i| format!("bomb:{i}")).collect();
        let offered = best_matches(&actions, "");
        assert_eq!(offered.len(), CHOICE_LIMIT);
        assert!(best_matches(&strings(&["Q@d4", "R@a1"]), "").len() == 2);
        assert_eq!(best_matches(&strings(&["Q@d4", "R@a1"]), "q@"), strings(&["Q@d4"]));
    }
}
