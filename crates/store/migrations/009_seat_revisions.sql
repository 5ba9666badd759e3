-- Every game's seats are held in memory by each process that answers questions (the store's `Seats`): a
-- question then reads one metric's numbers alone, by seat key, without joining them to `seats` row by row.
-- A process brings its copy up to date by reading the seats revised since it last looked: every seat made
-- or changed takes the next number of `seat_revision`.
ALTER TABLE seats ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE TABLE seat_revision (last INTEGER NOT NULL);
INSERT INTO seat_revision (last) SELECT COALESCE(MAX(key), 0) FROM seats;
UPDATE seats SET revision = key;
CREATE INDEX seats_by_revision ON seats(revision);

CREATE TRIGGER seat_made AFTER INSERT ON seats
BEGIN
    UPDATE seat_revision SET last = last + 1;
    UPDATE seats SET revision = (SELECT last FROM seat_revision) WHERE key = NEW.key;
END;
-- Every column but `revision` itself, so that the trigger's own update does not call it again.
CREATE TRIGGER seat_changed
AFTER UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening ON seats
BEGIN
    UPDATE seat_revision SET last = last + 1;
    UPDATE seats SET revision = (SELECT last FROM seat_revision) WHERE key = NEW.key;
END;
