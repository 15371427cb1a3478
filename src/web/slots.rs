//! How many event streams are open, in all and per client. Each open stream holds a socket and a
//! little memory until its page goes; without a cap one client could open thousands and leave
//! the process out of file descriptors (the pages then stop accepting anyone). A stream holds a
//! [`StreamSlot`], which gives its place back when the stream ends, however it ends: the page
//! closed, the connection dropped, the stream's lifetime over, the server stopping.

use super::client::ClientKey;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The open streams and their caps.
pub(super) struct StreamSlots {
    most: usize,
    most_per_client: usize,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    total: usize,
    /// Only clients with a stream open: the table is never larger than the total cap.
    by_client: HashMap<ClientKey, usize>,
}

/// Why a stream was not opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// This client has `most` open already.
    Client { most: usize },
    /// `most` are open in all.
    Full { most: usize },
}

/// One open stream's place; given back when dropped.
pub(super) struct StreamSlot {
    slots: Arc<StreamSlots>,
    client: ClientKey,
}

impl StreamSlots {
    pub(super) fn new(most: usize, most_per_client: usize) -> Arc<StreamSlots> {
        Arc::new(StreamSlots {
            most,
            most_per_client,
            open: Mutex::default(),
        })
    }

    /// A place for one more stream of `client`, if both caps allow it. The client's own cap is
    /// checked first: one client past its share hears so, whatever the total.
    pub(super) fn take(self: &Arc<Self>, client: ClientKey) -> Result<StreamSlot, Refused> {
        let mut open = self.lock();
        let of_client = open.by_client.get(&client).copied().unwrap_or(0);
        if of_client >= self.most_per_client {
            return Err(Refused::Client {
                most: self.most_per_client,
            });
        }
        if open.total >= self.most {
            return Err(Refused::Full { most: self.most });
        }
        open.total += 1;
        *open.by_client.entry(client).or_insert(0) += 1;
        Ok(StreamSlot {
            slots: self.clone(),
            client,
        })
    }

    /// How many streams are open (in all, and of `client`).
    #[cfg(test)]
    fn count(&self, client: ClientKey) -> (usize, usize) {
        let open = self.lock();
        (open.total, open.by_client.get(&client).copied().unwrap_or(0))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        // The counts are whole after every step: a panic elsewhere leaves nothing half done.
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.slots.lock();
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_client.get_mut(&self.client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> ClientKey {
        ClientKey::of(std::net::IpAddr::from([127, 0, 0, last]))
    }

    #[test]
    fn each_client_has_its_share_and_all_together_the_total() {
        let slots = StreamSlots::new(5, 2);
        let first: Vec<StreamSlot> = (0..2).map(|_| slots.take(client(1)).unwrap()).collect();
        assert_eq!(slots.take(client(1)).err(), Some(Refused::Client { most: 2 }));
        let second: Vec<StreamSlot> = (0..2).map(|_| slots.take(client(2)).unwrap()).collect();
        let _third = slots.take(client(3)).unwrap();
        assert_eq!(slots.take(client(4)).err(), Some(Refused::Full { most: 5 }));
        // A client at its share hears of its own cap, not of the total.
        assert_eq!(slots.take(client(1)).err(), Some(Refused::Client { most: 2 }));
        drop(first);
        assert_eq!(slots.count(client(1)), (3, 0));
        let _fourth = slots.take(client(4)).unwrap();
        drop(second);
        assert_eq!(slots.count(client(2)), (2, 0));
        assert!(
            slots.lock().by_client.len() == 2,
            "clients without streams are forgotten"
        );
    }
}
