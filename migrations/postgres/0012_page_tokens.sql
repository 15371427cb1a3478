-- The unguessable tokens of a game's private pages: each seat's page to play on (/play/<token>)
-- and a Death Match host's panel (/host/<token>). Each is given to its one user alone and
-- replaced when they ask; the old token then opens nothing.
CREATE TABLE page_tokens (
    token TEXT PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    -- `first`, `second` (a seat's page) or `host` (a match's panel).
    role TEXT NOT NULL,
    UNIQUE (game_id, role)
);
