-- Fields of like games, as SQLite's migration 23: a seat carries its game's edition, and the field's sums are
-- kept per ruleset, table size and edition.
ALTER TABLE seats ADD COLUMN edition TEXT NOT NULL DEFAULT '';
UPDATE seats s SET edition = COALESCE(g.edition, '') FROM games g WHERE g.id = s.game_id;

CREATE TABLE field_metrics_of_like_games (
    ruleset TEXT NOT NULL,
    players BIGINT NOT NULL,
    edition TEXT NOT NULL,
    metric  TEXT NOT NULL,
    arg     TEXT NOT NULL,
    total   DOUBLE PRECISION NOT NULL,
    seats   BIGINT NOT NULL,
    PRIMARY KEY (ruleset, players, edition, metric, arg)
);
INSERT INTO field_metrics_of_like_games (ruleset, players, edition, metric, arg, total, seats)
    SELECT s.ruleset, s.players, s.edition, k.metric, k.arg, SUM(n.value), COUNT(*)
    FROM seat_numbers n JOIN metrics k ON k.key = n.metric JOIN seats s ON s.key = n.seat_key
    WHERE s.counted
    GROUP BY s.ruleset, s.players, s.edition, k.metric, k.arg;
DROP TABLE field_metrics;
ALTER TABLE field_metrics_of_like_games RENAME TO field_metrics;

-- The numbers a statement writes or removes move the field's sums once per key, in the key's order (two
-- games stored at once lock the field's rows in the same order).
CREATE OR REPLACE FUNCTION field_gains_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO field_metrics (ruleset, players, edition, metric, arg, total, seats)
    SELECT s.ruleset, s.players, s.edition, k.metric, k.arg, SUM(a.value), COUNT(*)
    FROM added a JOIN seats s ON s.key = a.seat_key JOIN metrics k ON k.key = a.metric
    WHERE s.counted
    GROUP BY s.ruleset, s.players, s.edition, k.metric, k.arg
    ORDER BY s.ruleset, s.players, s.edition, k.metric, k.arg
    ON CONFLICT (ruleset, players, edition, metric, arg)
    DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION field_loses_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE field_metrics f SET total = f.total - r.total, seats = f.seats - r.n
    FROM (SELECT s.ruleset, s.players, s.edition, k.metric, k.arg, SUM(o.value) AS total, COUNT(*) AS n
          FROM removed o JOIN seats s ON s.key = o.seat_key JOIN metrics k ON k.key = o.metric
          WHERE s.counted
          GROUP BY s.ruleset, s.players, s.edition, k.metric, k.arg) r
    WHERE f.ruleset = r.ruleset AND f.players = r.players AND f.edition = r.edition
      AND f.metric = r.metric AND f.arg = r.arg;
    RETURN NULL;
END $$;

-- A seat's numbers move out of the field it was in (if it counted) and into the one it is in now (if it
-- counts): as it starts or stops counting, or its game's edition is read again.
CREATE OR REPLACE FUNCTION field_follows_counting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.counted IS DISTINCT FROM NEW.counted OR (NEW.counted AND OLD.edition <> NEW.edition) THEN
        IF OLD.counted THEN
            INSERT INTO field_metrics (ruleset, players, edition, metric, arg, total, seats)
            SELECT OLD.ruleset, OLD.players, OLD.edition, k.metric, k.arg, -n.value, -1
            FROM seat_numbers n JOIN metrics k ON k.key = n.metric
            WHERE n.seat_key = OLD.key ORDER BY k.metric, k.arg
            ON CONFLICT (ruleset, players, edition, metric, arg)
            DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
        END IF;
        IF NEW.counted THEN
            INSERT INTO field_metrics (ruleset, players, edition, metric, arg, total, seats)
            SELECT NEW.ruleset, NEW.players, NEW.edition, k.metric, k.arg, n.value, 1
            FROM seat_numbers n JOIN metrics k ON k.key = n.metric
            WHERE n.seat_key = NEW.key ORDER BY k.metric, k.arg
            ON CONFLICT (ruleset, players, edition, metric, arg)
            DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
        END IF;
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER field_follows_counting ON seats;
CREATE TRIGGER field_follows_counting AFTER UPDATE OF counted, edition ON seats
FOR EACH ROW EXECUTE FUNCTION field_follows_counting();
DROP TRIGGER seat_changed ON seats;
CREATE TRIGGER seat_changed
BEFORE UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                 fingerprint, finished, counted, bot, edition ON seats
FOR EACH ROW EXECUTE FUNCTION seat_revised();
