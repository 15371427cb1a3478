-- Tournaments: a Swiss event belonging to a channel, its settings, players and rounds as JSON,
-- guarded by a version like games; each of its games names it.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    location TEXT NOT NULL,
    server TEXT,
    status TEXT NOT NULL,
    state TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    -- When round 1 is paired by itself, if the host set a start.
    starts_at BIGINT
);
CREATE INDEX tournaments_by_location ON tournaments (location, status);
CREATE INDEX tournaments_by_start ON tournaments (starts_at);
ALTER TABLE games ADD COLUMN tournament BIGINT;
CREATE INDEX games_by_tournament ON games (tournament);
