-- The read model's numbers keyed by integers: each metric and argument ("production_per_turn", "ore") is
-- numbered once in `metrics`, and a number's row holds that key, its seat's key and its value. Keyed by two
-- texts, a row took about 30 bytes in each of its two B-trees, every insert compared texts, and the numbers
-- were more than half of the file; keyed by integers, a row takes a few bytes.
CREATE TABLE metrics (
    key    INTEGER PRIMARY KEY,
    metric TEXT NOT NULL,
    arg    TEXT NOT NULL,
    UNIQUE (metric, arg)
);
INSERT INTO metrics (metric, arg) SELECT DISTINCT metric, arg FROM seat_metrics ORDER BY metric, arg;
-- Without foreign keys: checking two per number cost a tenth of an import's time, and the store writes a
-- seat's numbers only under the keys it has just read or made in the same transaction (seats and metrics
-- are never deleted).
CREATE TABLE seat_numbers (
    metric   INTEGER NOT NULL,
    seat_key INTEGER NOT NULL,
    value    REAL NOT NULL,
    PRIMARY KEY (metric, seat_key)
) WITHOUT ROWID;
INSERT INTO seat_numbers (metric, seat_key, value)
    SELECT m.key, n.seat_key, n.value FROM seat_metrics n JOIN metrics m ON m.metric = n.metric AND m.arg = n.arg
    ORDER BY m.key, n.seat_key;
-- A player's numbers read by their seats, the values in the index itself.
CREATE INDEX seat_numbers_by_seat ON seat_numbers(seat_key, metric, value);

DROP TRIGGER field_follows_visibility;
DROP TABLE seat_metrics;
-- As migration 6's trigger: a seat's numbers move in or out of the field's sums as its game's visibility does.
CREATE TRIGGER field_follows_visibility AFTER UPDATE OF published, deleted ON seats
WHEN (OLD.published = 1 AND OLD.deleted = 0) <> (NEW.published = 1 AND NEW.deleted = 0)
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT NEW.ruleset, m.metric, m.arg, n.value * sign.n, sign.n
    FROM seat_numbers n JOIN metrics m ON m.key = n.metric,
         (SELECT CASE WHEN NEW.published = 1 AND NEW.deleted = 0 THEN 1 ELSE -1 END AS n) AS sign
    WHERE n.seat_key = NEW.key
    ON CONFLICT (ruleset, metric, arg) DO UPDATE SET total = total + excluded.total, seats = seats + excluded.seats;
END;
