-- Players' saved piece lists (Pick-the-team version two, Patch, Easy Patch), by name, as the
-- text they wrote (one piece a line), to submit again in later games.
CREATE TABLE saved_lists (
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    saved_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, name)
);
