-- Games: a state snapshot guarded by a version, plus an append-only log of what happened.
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    setup TEXT NOT NULL,
    location TEXT NOT NULL,
    status TEXT NOT NULL,
    challenger TEXT NOT NULL,
    opponent TEXT NOT NULL,
    white_player TEXT NOT NULL,
    white TEXT,
    black TEXT,
    state TEXT NOT NULL,
    offer TEXT,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    turn_since INTEGER NOT NULL
);
CREATE INDEX games_by_challenger ON games (challenger, status);
CREATE INDEX games_by_opponent ON games (opponent, status);
CREATE INDEX games_by_location ON games (location, status);

CREATE TABLE game_log (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    notation TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
