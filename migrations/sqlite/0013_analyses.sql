-- Finished games gone through by the computer (`/analyse`), kept so that asking again shows the
-- same analysis at once. One per game and viewpoint: what a spectator may know (`spectator`),
-- or what one seat knows of its own secrets too (`first`, `second`). The body is the analysis
-- as JSON.
CREATE TABLE analyses (
    game_id BIGINT NOT NULL REFERENCES games(id),
    viewpoint TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, viewpoint)
);
