-- The unguessable token of each game's public page (/watch/<token>): made the first time someone
-- asks for the page, never derived from the game's number.
CREATE TABLE watch_tokens (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    token TEXT NOT NULL UNIQUE
);
