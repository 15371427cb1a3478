-- Where a game came from (the channel its thread was opened in): its posts move there when its
-- own place is lost (a thread deleted, or one the bot may no longer post in).
ALTER TABLE games ADD COLUMN home TEXT;
-- The version of the game whose news (a move, a forfeit) was saved but not yet seen to reach
-- its place: if the bot stops before posting it, it shows the game as it stands on restart.
ALTER TABLE games ADD COLUMN unshown BIGINT;
-- The names players go by (on Discord, their display names), as last seen: board images show
-- them without asking Discord again after a restart.
CREATE TABLE display_names (
    user_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seen_at BIGINT NOT NULL
);
