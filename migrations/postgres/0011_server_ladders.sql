-- Ratings belong to a server: each server keeps its own ladder, moved only by the rated games
-- played on it. The ratings of before (one ladder for every server) stay as they were, in
-- `ratings`, which nothing reads or writes any more; the ladders are rebuilt from the stored rated
-- games when the store opens (see `ladder_rebuild`).
CREATE TABLE ladder_ratings (
    -- The server whose ladder it is ('' for games that belong to no server).
    server TEXT NOT NULL,
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
    PRIMARY KEY (server, user_id, variant)
);
CREATE INDEX ladder_ratings_by_variant ON ladder_ratings (server, variant, rating DESC);
CREATE INDEX ladder_ratings_by_user ON ladder_ratings (user_id, server);
-- A row here means the ladders are still to be rebuilt from the stored rated games, each
-- server's from its own, in the order they ended; the rebuild writes them and deletes the row in
-- one transaction.
CREATE TABLE ladder_rebuild (
    pending BIGINT PRIMARY KEY
);
INSERT INTO ladder_rebuild (pending) VALUES (1);
