-- Games: a state snapshot guarded by a version, plus an append-only log of what happened.
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
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
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    turn_since BIGINT NOT NULL
);
CREATE INDEX games_by_challenger ON games (challenger, status);
CREATE INDEX games_by_opponent ON games (opponent, status);
CREATE INDEX games_by_location ON games (location, status);

CREATE TABLE game_log (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    entry TEXT NOT NULL,
    notation TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
