-- The format each game snapshot and each log entry was written in (store/formats.rs): rows of
-- format 0 were written before formats were recorded.
ALTER TABLE games ADD COLUMN state_format BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_log ADD COLUMN format BIGINT NOT NULL DEFAULT 0;
