-- Death Matches: the match (host, Advantage, time control, clock) with its game, and the game's
-- next deadline, which schedulers claim with a short lease so each fires once.
ALTER TABLE games ADD COLUMN deathmatch TEXT;
ALTER TABLE games ADD COLUMN next_deadline BIGINT;
ALTER TABLE games ADD COLUMN deadline_lease BIGINT;
CREATE INDEX games_by_deadline ON games (next_deadline);

-- When a scheduler serving a transport's places last showed it was alive, so time it was down
-- is not charged to anyone.
CREATE TABLE heartbeat (
    places TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);
