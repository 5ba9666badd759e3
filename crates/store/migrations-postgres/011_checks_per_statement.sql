-- An import writes a game's events, facts and numbers a statement a table; the checks that ran once per row
-- (an event's place in its log, a number's share of the field's sums, a fact's and a number's parent row)
-- were most of its time. The first two now run once per statement, over the statement's rows; the read
-- model's rows are no longer checked against their parents (the store writes them with their game, in its
-- transaction), as on SQLite, whose numbers never had that check. Events keep theirs.

-- Each statement's events follow the last of their game: seq is 1, 2, 3 ... with no gap and no reuse (a
-- seq used twice is the primary key's to refuse).
DROP TRIGGER events_follow_the_log ON events;
DROP FUNCTION event_follows();
CREATE FUNCTION events_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1
        FROM (SELECT game_id, MIN(seq) AS first, MAX(seq) AS last, COUNT(*) AS n FROM added GROUP BY game_id) a
        WHERE a.n <> a.last - a.first + 1
           OR a.first <> COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.game_id = a.game_id AND e.seq < a.first), 0) + 1
    ) THEN
        RAISE EXCEPTION 'events are append-only: seq must be the last seq of its game + 1';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER events_follow_the_log AFTER INSERT ON events REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION events_follow();

-- The numbers a statement writes or removes move the field's sums once per metric, in the order of
-- (ruleset, metric, arg), so that two games stored at once lock the field's rows in the same order.
DROP TRIGGER field_gains_a_number ON seat_metrics;
DROP FUNCTION field_gains_a_number();
CREATE FUNCTION field_gains_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT s.ruleset, a.metric, a.arg, SUM(a.value), COUNT(*)
    FROM added a JOIN seats s ON s.key = a.seat_key
    WHERE s.counted
    GROUP BY s.ruleset, a.metric, a.arg
    ORDER BY s.ruleset, a.metric, a.arg
    ON CONFLICT (ruleset, metric, arg)
    DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
    RETURN NULL;
END $$;
CREATE TRIGGER field_gains_numbers AFTER INSERT ON seat_metrics REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION field_gains_numbers();

DROP TRIGGER field_loses_a_number ON seat_metrics;
DROP FUNCTION field_loses_a_number();
CREATE FUNCTION field_loses_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE field_metrics f SET total = f.total - r.total, seats = f.seats - r.n
    FROM (SELECT s.ruleset, o.metric, o.arg, SUM(o.value) AS total, COUNT(*) AS n
          FROM removed o JOIN seats s ON s.key = o.seat_key
          WHERE s.counted
          GROUP BY s.ruleset, o.metric, o.arg) r
    WHERE f.ruleset = r.ruleset AND f.metric = r.metric AND f.arg = r.arg;
    RETURN NULL;
END $$;
CREATE TRIGGER field_loses_numbers AFTER DELETE ON seat_metrics REFERENCING OLD TABLE AS removed
FOR EACH STATEMENT EXECUTE FUNCTION field_loses_numbers();

ALTER TABLE facts DROP CONSTRAINT facts_game_id_fkey;
ALTER TABLE seat_metrics DROP CONSTRAINT seat_metrics_seat_key_fkey;
