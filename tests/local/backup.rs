//! Backups of the embedded database (`arbiter backup FILE`): taken while players move in the
//! terminal, the copy opens as a database where every game loads and goes on; and a database a
//! newer Arbiter wrote is refused with the release it needs.

use crate::support;
use arbiter::arena::Arena;
use arbiter::clock::SystemClock;
use arbiter::ids::UserId;
use std::io::Write;
use std::process::Stdio;
use std::sync::Arc;

/// Twenty plies of a Ruy Lopez: every one legal, none ending the game.
const MOVES: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3",
    "Nb8", "d4", "Nbd7",
];

const PAIRS: [(&str, &str); 3] = [("alice", "bob"), ("carol", "dave"), ("erin", "frank")];

/// A scratch folder of its own, removed however the test ends.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("arbiter-{name}-"))
        .tempdir()
        .unwrap()
}

/// What six players type: three challenges accepted, then their moves in turn, game by game.
fn script() -> Vec<String> {
    let mut lines = Vec::new();
    for (white, black) in PAIRS {
        lines.push(format!("{white}: challenge {black} chess white"));
        lines.push(format!("{black}: accept"));
    }
    for (ply, action) in MOVES.iter().enumerate() {
        for (white, black) in PAIRS {
            let mover = if ply % 2 == 0 { white } else { black };
            lines.push(format!("{mover}: move {action}"));
        }
    }
    lines
}

#[tokio::test]
async fn a_backup_taken_while_six_players_move_restores_to_games_that_load_and_go_on() {
    let live_dir = temp_dir("backup-live");
    let live = live_dir.path();
    let copy_dir = temp_dir("backup-copy");
    let copy = copy_dir.path().join("games.db");
    let mut terminal = support::arbiter_binary()
        .args(["local", "--no-images"])
        .env("ARBITER_DATA_DIR", live)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the terminal starts");
    let mut input = terminal.stdin.take().unwrap();
    let lines = script();
    let (halfway, reached) = std::sync::mpsc::channel();
    // The players type a line every 20 ms; the backup is taken from halfway on, as they go on.
    let typing = std::thread::spawn(move || {
        for (index, line) in lines.iter().enumerate() {
            if index == lines.len() / 2 {
                let _ = halfway.send(());
            }
            writeln!(input, "{line}").unwrap();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    });
    reached.recv().unwrap();
    let backup = support::arbiter_binary()
        .args(["backup".as_ref(), copy.as_os_str()])
        .env("ARBITER_DATA_DIR", live)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&backup.stdout);
    assert!(backup.status.success(), "{}", String::from_utf8_lossy(&backup.stderr));
    assert!(said.starts_with("Backed up 3 games to "), "{said}");
    typing.join().unwrap();
    let played = terminal.wait_with_output().unwrap();
    let output = String::from_utf8_lossy(&played.stdout);
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    assert!(!output.contains("error:"), "{output}");
    assert!(
        output.contains("frank played Nbd7"),
        "every move was played on: {output}"
    );
    assert!(!copy.with_extension("db.partial").exists(), "no partial file is left");

    // Restored: the copy in place of a data directory's database.
    let restored_dir = temp_dir("backup-restored");
    let restored = restored_dir.path();
    std::fs::copy(&copy, restored.join("arbiter.db")).unwrap();
    let store = arbiter::store::open(None, restored).await.expect("the copy opens");
    let arena = Arena::new(store, Arc::new(SystemClock));
    let mut moved_on = 0;
    for (white, black) in PAIRS {
        let players = [white, black].map(|name| UserId::new(format!("local:{name}")));
        let games = arena.games(&players[0]).await.unwrap();
        assert_eq!(games.len(), 1, "{white}'s game is in the copy");
        let id = games[0].id;
        let to_move = if games[0].is_your_turn {
            &players[0]
        } else {
            &players[1]
        };
        let legal = arena.play().legal_actions(id, to_move).await.unwrap();
        let action = legal
            .first()
            .unwrap_or_else(|| panic!("{to_move} has a move in game {id}"));
        arena
            .play()
            .act(id, to_move, action)
            .await
            .unwrap_or_else(|e| panic!("game {id} goes on: {e}"));
        moved_on += 1;
    }
    assert_eq!(moved_on, 3);
    // A second backup to the same file is refused: a backup is never overwritten.
    let again = support::arbiter_binary()
        .args(["backup".as_ref(), copy.as_os_str()])
        .env("ARBITER_DATA_DIR", live)
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already exists: name a new file for the backup"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}

/// A database whose schema a newer Arbiter moved on: the binary says which release it needs and
/// changes nothing; the version it records is its own.
#[tokio::test]
async fn a_database_newer_than_the_binary_is_refused_with_the_release_it_needs() {
    for db in support::databases().await {
        let state = arbiter::store::schema_state(Some(&db.address()), std::path::Path::new("unused"))
            .await
            .unwrap();
        assert_eq!(state.applied, state.known, "{}", db.name);
        assert_eq!(
            state.written_by.as_deref(),
            Some(env!("CARGO_PKG_VERSION")),
            "{}",
            db.name
        );
        // What a newer release leaves: its migration applied, its version recorded.
        let (checksum, yes) = match db.pool {
            support::Pool::Sqlite(_) => ("X'00'", "1"),
            support::Pool::Postgres(_) => ("'\\x00'::bytea", "TRUE"),
        };
        for sql in [
            format!(
                "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
                 VALUES (9999, 'from the future', {yes}, {checksum}, 1)"
            ),
            "INSERT INTO schema_versions (version, arbiter_version) VALUES (9999, '9.9.0')".to_string(),
        ] {
            let sql = sqlx::AssertSqlSafe(sql);
            match &db.pool {
                support::Pool::Sqlite(pool) => sqlx::query(sql).execute(pool).await.map(|_| ()),
                support::Pool::Postgres(pool) => sqlx::query(sql).execute(pool).await.map(|_| ()),
            }
            .unwrap();
        }
        let refused = match arbiter::store::open(Some(&db.address()), std::path::Path::new("unused")).await {
            Ok(_) => panic!("{}: a newer database opened", db.name),
            Err(error) => error.to_string(),
        };
        assert!(
            refused.contains("schema version 9999, written by Arbiter 9.9.0 or newer")
                && refused.contains(&format!("this is Arbiter {}", env!("CARGO_PKG_VERSION")))
                && refused.contains("restore the backup taken before the upgrade"),
            "{}: {refused}",
            db.name
        );
    }
}
