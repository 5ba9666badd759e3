-- The game with its expansions and variants, in words, as a list shows it (derived: refreshed with the
-- summary, so `almanac reproject --all` fills it for games stored before).
ALTER TABLE games ADD COLUMN edition TEXT;
