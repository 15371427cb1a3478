-- Where a game came from (the channel its thread was opened in): its posts move there when its
-- own place is lost (a thread deleted, or one the bot may no longer post in).
ALTER TABLE games ADD COLUMN home TEXT;
