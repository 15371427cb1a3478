-- Every game's clock (time controls, reserves, the turns it times, as JSON). Games stored before
-- have none: they read with an untimed clock (a Death Match with the clock it kept inside it).
ALTER TABLE games ADD COLUMN clock TEXT;
-- The server a game was challenged on (a Discord guild), for leaderboards.
ALTER TABLE games ADD COLUMN server TEXT;
CREATE INDEX games_by_server ON games (server, status);
-- In timed games, the time the actor had left after each action (for %clk in records).
ALTER TABLE game_log ADD COLUMN clock_ms BIGINT;
-- Untimed games waiting since before reminders existed get their first a day after their turn
-- began.
UPDATE games SET next_deadline = turn_since + 86400000
    WHERE status = 'active' AND deathmatch IS NULL AND next_deadline IS NULL;

-- Stretches of time when no scheduler served a transport's places: clocks are credited for them
-- the next time their game is touched.
CREATE TABLE downtime (
    places TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    ended_at BIGINT NOT NULL
);
CREATE INDEX downtime_by_end ON downtime (ended_at);

-- Each user's settings (reminders), as JSON.
CREATE TABLE user_settings (
    user_id TEXT PRIMARY KEY,
    settings TEXT NOT NULL
);

-- A Glicko-2 rating per player per variant, with the player's record in it.
CREATE TABLE ratings (
    user_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating DESC);
