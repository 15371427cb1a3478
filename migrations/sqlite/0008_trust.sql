-- Whether a game's result moves ratings. An imported record's never does. Records imported
-- before this belong to no server and no match or tournament (every challenge names its server),
-- and hold players from elsewhere (`pgn:` names) or moves logged the moment they were created.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE games SET rated = FALSE
    WHERE server IS NULL AND deathmatch IS NULL AND tournament IS NULL
    AND (white LIKE 'pgn:%' OR black LIKE 'pgn:%'
         OR EXISTS (SELECT 1 FROM game_log l WHERE l.game_id = games.id AND l.at = games.created_at));

-- Each server's own settings (the role whose members host there), as JSON.
CREATE TABLE server_settings (
    server TEXT PRIMARY KEY,
    settings TEXT NOT NULL
);
