//! The store: its contract on both databases, games stored by every earlier format, and SQLite
//! under contention.

#[path = "../support/mod.rs"]
mod support;

/// Makes each case of a store's contract two tests, one per database, each on a database of its
/// own: `<case>::sqlite`, and `<case>::postgres` (skipped with a message outside CI when no
/// server answers; in CI a failure). A case takes the store (`store:`), the store shared with
/// other tasks (`shared:`), or the whole test database (`db:`), for another process's store.
macro_rules! on_each_database {
    (@run store, $case:ident, $db:ident) => { super::$case($db.store.as_ref()).await };
    (@run shared, $case:ident, $db:ident) => { super::$case($db.store.clone()).await };
    (@run db, $case:ident, $db:ident) => { super::$case(&$db).await };
    ($($takes:ident: $case:ident),* $(,)?) => {
        $(
            mod $case {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let db = crate::support::sqlite().await;
                    on_each_database!(@run $takes, $case, db);
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(db) = crate::support::postgres().await {
                        on_each_database!(@run $takes, $case, db);
                    }
                }
            }
        )*
    };
}

mod contract;
mod contract_players;
mod contract_time;
mod contract_tournaments;
mod ladder_migration;
mod sqlite_contention;
mod stored_fixtures;
mod write_stored_fixtures;
