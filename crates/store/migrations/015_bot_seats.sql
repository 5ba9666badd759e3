-- Seats played by programs (bots): not people, so left out of people's leaderboards and "who" questions by
-- default. Which seats are a program's is the game's to say (`Game::bots`: its header's `"bot": true`, or
-- what the game knows of the program that wrote an older record); stored games are told it when they are
-- derived again (`reproject`, which every game stored before migration 14 awaits: it has no fingerprint).
ALTER TABLE game_players ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER seat_changed;
CREATE TRIGGER seat_changed
AFTER UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                fingerprint, finished, counted, bot ON seats
BEGIN
    UPDATE seat_revision SET last = last + 1;
    UPDATE seats SET revision = (SELECT last FROM seat_revision) WHERE key = NEW.key;
END;
