-- A player's numbers are set beside those of games like theirs: the same ruleset, edition (the game's
-- expansions, map, target and variants in words: `games.edition`) and table size. A seat carries its game's
-- edition, and the field's sums are kept per ruleset, table size and edition.
ALTER TABLE seats ADD COLUMN edition TEXT NOT NULL DEFAULT '';
UPDATE seats SET edition = COALESCE((SELECT g.edition FROM games g WHERE g.id = seats.game_id), '');

-- The trigger that names the old table goes first (a rename checks every trigger).
DROP TRIGGER field_follows_counting;
CREATE TABLE field_metrics_of_like_games (
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL,
    edition TEXT NOT NULL,
    metric  TEXT NOT NULL,
    arg     TEXT NOT NULL,
    total   REAL NOT NULL,
    seats   INTEGER NOT NULL,
    PRIMARY KEY (ruleset, players, edition, metric, arg)
) WITHOUT ROWID;
INSERT INTO field_metrics_of_like_games (ruleset, players, edition, metric, arg, total, seats)
    SELECT s.ruleset, s.players, s.edition, m.metric, m.arg, SUM(n.value), COUNT(*)
    FROM seat_numbers n JOIN metrics m ON m.key = n.metric JOIN seats s ON s.key = n.seat_key
    WHERE s.counted = 1
    GROUP BY s.ruleset, s.players, s.edition, m.metric, m.arg;
DROP TABLE field_metrics;
ALTER TABLE field_metrics_of_like_games RENAME TO field_metrics;

-- A seat's numbers move out of the field it was in (if it counted) and into the one it is in now (if it
-- counts): as it starts or stops counting, or its game's edition is read again.
CREATE TRIGGER field_follows_counting AFTER UPDATE OF counted, edition ON seats
WHEN OLD.counted <> NEW.counted OR (NEW.counted = 1 AND OLD.edition <> NEW.edition)
BEGIN
    INSERT INTO field_metrics (ruleset, players, edition, metric, arg, total, seats)
    SELECT OLD.ruleset, OLD.players, OLD.edition, m.metric, m.arg, -n.value, -1
    FROM seat_numbers n JOIN metrics m ON m.key = n.metric
    WHERE n.seat_key = NEW.key AND OLD.counted = 1
    ON CONFLICT (ruleset, players, edition, metric, arg)
    DO UPDATE SET total = total + excluded.total, seats = seats + excluded.seats;
    INSERT INTO field_metrics (ruleset, players, edition, metric, arg, total, seats)
    SELECT NEW.ruleset, NEW.players, NEW.edition, m.metric, m.arg, n.value, 1
    FROM seat_numbers n JOIN metrics m ON m.key = n.metric
    WHERE n.seat_key = NEW.key AND NEW.counted = 1
    ON CONFLICT (ruleset, players, edition, metric, arg)
    DO UPDATE SET total = total + excluded.total, seats = seats + excluded.seats;
END;
DROP TRIGGER seat_changed;
CREATE TRIGGER seat_changed
AFTER UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                fingerprint, finished, counted, bot, edition ON seats
BEGIN
    UPDATE seat_revision SET last = last + 1;
    UPDATE seats SET revision = (SELECT last FROM seat_revision) WHERE key = NEW.key;
END;
