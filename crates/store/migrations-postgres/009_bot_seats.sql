-- Seats played by programs (bots), as SQLite's migration 15: told by `reproject`, which every game stored
-- before migration 8 awaits.
ALTER TABLE game_players ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seats ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
DROP TRIGGER seat_changed ON seats;
CREATE TRIGGER seat_changed
BEFORE UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                 fingerprint, finished, counted, bot ON seats
FOR EACH ROW EXECUTE FUNCTION seat_revised();
