-- One game is one game: as SQLite's migration 14 (a game's fingerprint; a seat `counted` when its game is
-- published, not deleted, has a winner and is the first stored of the games so with its fingerprint).
ALTER TABLE games ADD COLUMN fingerprint TEXT;
CREATE INDEX games_by_fingerprint ON games(fingerprint);
ALTER TABLE seats ADD COLUMN fingerprint TEXT;
ALTER TABLE seats ADD COLUMN finished BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seats ADD COLUMN counted BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX seats_by_fingerprint ON seats(fingerprint, seat);

UPDATE seats s SET finished = (g.winner IS NOT NULL), counted = (s.published AND NOT s.deleted)
FROM games g WHERE g.id = s.game_id;

-- A number written or removed moves the field's sums when its seat counts.
CREATE OR REPLACE FUNCTION field_gains_a_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT s.ruleset, NEW.metric, NEW.arg, NEW.value, 1 FROM seats s
    WHERE s.key = NEW.seat_key AND s.counted
    ON CONFLICT (ruleset, metric, arg)
    DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + 1;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION field_loses_a_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE field_metrics f SET total = f.total - OLD.value, seats = f.seats - 1
    FROM seats s
    WHERE s.key = OLD.seat_key AND s.counted
      AND f.ruleset = s.ruleset AND f.metric = OLD.metric AND f.arg = OLD.arg;
    RETURN NULL;
END $$;
-- A seat's numbers move in or out of the field as it comes to count or stops counting.
DROP TRIGGER field_follows_visibility ON seats;
CREATE FUNCTION field_follows_counting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    sign INTEGER := CASE WHEN NEW.counted THEN 1 ELSE -1 END;
BEGIN
    IF OLD.counted IS DISTINCT FROM NEW.counted THEN
        INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
        SELECT NEW.ruleset, m.metric, m.arg, m.value * sign, sign FROM seat_metrics m
        WHERE m.seat_key = NEW.key ORDER BY m.metric, m.arg
        ON CONFLICT (ruleset, metric, arg)
        DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER field_follows_counting AFTER UPDATE OF counted ON seats
FOR EACH ROW EXECUTE FUNCTION field_follows_counting();
DROP TRIGGER seat_changed ON seats;
CREATE TRIGGER seat_changed
BEFORE UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                 fingerprint, finished, counted ON seats
FOR EACH ROW EXECUTE FUNCTION seat_revised();

-- A game without a winner counts nowhere as a result: its numbers leave the field.
UPDATE seats SET counted = FALSE WHERE counted AND NOT finished;

-- Names fold as `almanac_core::fold_name` folds them: the Turkish dotted and dotless i are the one letter `i`.
CREATE OR REPLACE FUNCTION fold(text) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT replace(replace(lower($1), 'ı', 'i'), U&'\0307', '') $$;
