-- Seats held in memory by each process that answers questions (as on SQLite): every seat made or changed
-- takes the next number of `seat_revision`. It is a row, not a sequence: a writer holds its lock until it
-- commits, so revisions are taken in the order their changes commit, and a reader that has seen revision N
-- has seen every change numbered below it.
ALTER TABLE seats ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
CREATE TABLE seat_revision (last BIGINT NOT NULL);
INSERT INTO seat_revision (last) SELECT COALESCE(MAX(key), 0) FROM seats;
UPDATE seats SET revision = key;
CREATE INDEX seats_by_revision ON seats(revision);

CREATE FUNCTION seat_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seat_revision SET last = last + 1 RETURNING last INTO NEW.revision;
    RETURN NEW;
END $$;
CREATE TRIGGER seat_made BEFORE INSERT ON seats FOR EACH ROW EXECUTE FUNCTION seat_revised();
CREATE TRIGGER seat_changed
BEFORE UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening ON seats
FOR EACH ROW EXECUTE FUNCTION seat_revised();
