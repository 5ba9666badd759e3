-- The read model's numbers keyed by integers, as SQLite's migration 11: each metric and argument
-- ("production_per_turn", "ore") is numbered once in `metrics`, and a number's row holds that key, its seat's
-- key and its value. Keyed by two texts, each of a game's hundreds of numbers was compared by the locale's
-- collation in two B-trees; keyed by integers, a bulk insert of them takes half the time.
CREATE TABLE metrics (
    key    SERIAL PRIMARY KEY,
    metric TEXT NOT NULL,
    arg    TEXT NOT NULL,
    UNIQUE (metric, arg)
);
INSERT INTO metrics (metric, arg) SELECT DISTINCT metric, arg FROM seat_metrics ORDER BY metric, arg;
CREATE TABLE seat_numbers (
    metric   INTEGER NOT NULL,
    seat_key BIGINT NOT NULL,
    value    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (metric, seat_key)
);
INSERT INTO seat_numbers (metric, seat_key, value)
    SELECT k.key, n.seat_key, n.value FROM seat_metrics n JOIN metrics k ON k.metric = n.metric AND k.arg = n.arg
    ORDER BY k.key, n.seat_key;
-- A player's numbers read by their seats, the values in the index itself.
CREATE INDEX seat_numbers_by_seat ON seat_numbers(seat_key, metric, value);

DROP TABLE seat_metrics;
DROP FUNCTION field_gains_numbers();
DROP FUNCTION field_loses_numbers();

-- As migration 11's triggers: the numbers a statement writes or removes move the field's sums once per
-- metric, in the order of (ruleset, metric, arg), so that two games stored at once lock the field's rows in
-- the same order.
CREATE FUNCTION field_gains_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT s.ruleset, k.metric, k.arg, SUM(a.value), COUNT(*)
    FROM added a JOIN seats s ON s.key = a.seat_key JOIN metrics k ON k.key = a.metric
    WHERE s.counted
    GROUP BY s.ruleset, k.metric, k.arg
    ORDER BY s.ruleset, k.metric, k.arg
    ON CONFLICT (ruleset, metric, arg)
    DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
    RETURN NULL;
END $$;
CREATE TRIGGER field_gains_numbers AFTER INSERT ON seat_numbers REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION field_gains_numbers();

CREATE FUNCTION field_loses_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE field_metrics f SET total = f.total - r.total, seats = f.seats - r.n
    FROM (SELECT s.ruleset, k.metric, k.arg, SUM(o.value) AS total, COUNT(*) AS n
          FROM removed o JOIN seats s ON s.key = o.seat_key JOIN metrics k ON k.key = o.metric
          WHERE s.counted
          GROUP BY s.ruleset, k.metric, k.arg) r
    WHERE f.ruleset = r.ruleset AND f.metric = r.metric AND f.arg = r.arg;
    RETURN NULL;
END $$;
CREATE TRIGGER field_loses_numbers AFTER DELETE ON seat_numbers REFERENCING OLD TABLE AS removed
FOR EACH STATEMENT EXECUTE FUNCTION field_loses_numbers();

-- As migration 8's: a seat's numbers move in or out of the field's sums as the seat starts or stops counting.
CREATE OR REPLACE FUNCTION field_follows_counting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    sign INTEGER := CASE WHEN NEW.counted THEN 1 ELSE -1 END;
BEGIN
    IF OLD.counted IS DISTINCT FROM NEW.counted THEN
        INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
        SELECT NEW.ruleset, k.metric, k.arg, n.value * sign, sign
        FROM seat_numbers n JOIN metrics k ON k.key = n.metric
        WHERE n.seat_key = NEW.key ORDER BY k.metric, k.arg
        ON CONFLICT (ruleset, metric, arg)
        DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
    END IF;
    RETURN NULL;
END $$;
