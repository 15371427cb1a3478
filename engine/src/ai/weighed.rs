//! The worth of positions the search has weighed, by their key ([`crate::Game::search_key`]):
//! iterative deepening visits the positions of the last depth again, and a position reached by
//! another order of moves is the same position, so a position is weighed once. The key decides
//! everything the seat's sight of the position shows (the table of searched positions already
//! stands on that), so a worth found here is the very worth weighing would give.

/// A fixed number of slots, by the key's low bits; a new worth replaces the one in its slot.
pub struct Weighed {
    slots: Vec<(u64, i32)>,
}

/// At most this many slots (16 bytes each): enough for the deepest searches the levels make,
/// small enough to make afresh for each search.
const MOST_SLOTS: usize = 1 << 16;

impl Weighed {
    /// Slots for a search of about `nodes` positions.
    pub fn for_nodes(nodes: u64) -> Weighed {
        let count = usize::try_from(nodes)
            .unwrap_or(MOST_SLOTS)
            .clamp(1, MOST_SLOTS)
            .next_power_of_two();
        Weighed {
            // Key 0 marks a slot empty; a position whose key is 0 is simply weighed each time.
            slots: vec![(0, 0); count],
        }
    }

    /// The worth weighed before for the position of `key`, if its slot still holds it.
    pub fn get(&self, key: u64) -> Option<i32> {
        let (held, worth) = self.slots[self.slot(key)];
        (held == key && key != 0).then_some(worth)
    }

    pub fn put(&mut self, key: u64, worth: i32) {
        let slot = self.slot(key);
        self.slots[slot] = (key, worth);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worth_is_found_by_its_key_until_another_takes_its_slot() {
        let mut weighed = Weighed::for_nodes(4);
        assert_eq!(weighed.get(7), None);
        weighed.put(7, -30);
        assert_eq!(weighed.get(7), Some(-30));
        assert_eq!(weighed.get(3), None, "the same slot, another key");
        weighed.put(3, 12);
        assert_eq!((weighed.get(3), weighed.get(7)), (Some(12), None));
        weighed.put(0, 5);
        assert_eq!(weighed.get(0), None, "key 0 marks an empty slot");
    }
}
