-- The questions' read model (almanac_core::insights): `seats` (what a question groups and filters by) and
-- `seat_metrics` (the numbers), as on SQLite; triggers keep `seats` in step with visibility and merges.
CREATE TABLE seats (
    key       BIGSERIAL PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    ruleset   TEXT NOT NULL,
    player    BIGINT NOT NULL REFERENCES players(id),
    players   INTEGER NOT NULL,
    played_on TEXT,
    owner     BIGINT,
    published BOOLEAN NOT NULL,
    deleted   BOOLEAN NOT NULL,
    opening   TEXT,
    UNIQUE (game_id, seat)
);
CREATE INDEX seats_by_player ON seats(player);
CREATE INDEX seats_by_ruleset ON seats(ruleset, published, deleted, key);
CREATE TABLE seat_metrics (
    metric   TEXT NOT NULL,
    arg      TEXT NOT NULL,
    seat_key BIGINT NOT NULL REFERENCES seats(key),
    value    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (metric, arg, seat_key)
);
CREATE INDEX seat_metrics_by_seat ON seat_metrics(seat_key, metric, arg, value);
-- Grows after every change to the read model (taken after the change commits: a sequence takes no lock).
CREATE SEQUENCE read_model_version;
ALTER TABLE games ADD COLUMN insights_version INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION seats_follow_visibility() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET published = NEW.published, deleted = (NEW.deleted_at IS NOT NULL) WHERE game_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER seats_follow_visibility AFTER UPDATE OF published, deleted_at ON games
FOR EACH ROW EXECUTE FUNCTION seats_follow_visibility();
CREATE FUNCTION seats_follow_merges() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.merged_into IS NOT NULL THEN
        UPDATE seats SET player = NEW.merged_into WHERE player = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER seats_follow_merges AFTER UPDATE OF merged_into ON players
FOR EACH ROW EXECUTE FUNCTION seats_follow_merges();

-- The field a player page compares a player with (as on SQLite), kept by triggers. Rows are written in the
-- order of (metric, arg), so that two games stored at once lock the field's rows in the same order.
CREATE TABLE field_metrics (
    ruleset TEXT NOT NULL,
    metric  TEXT NOT NULL,
    arg     TEXT NOT NULL,
    total   DOUBLE PRECISION NOT NULL,
    seats   BIGINT NOT NULL,
    PRIMARY KEY (ruleset, metric, arg)
);
CREATE FUNCTION field_gains_a_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT s.ruleset, NEW.metric, NEW.arg, NEW.value, 1 FROM seats s
    WHERE s.key = NEW.seat_key AND s.published AND NOT s.deleted
    ON CONFLICT (ruleset, metric, arg)
    DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER field_gains_a_number AFTER INSERT ON seat_metrics
FOR EACH ROW EXECUTE FUNCTION field_gains_a_number();
CREATE FUNCTION field_loses_a_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE field_metrics f SET total = f.total - OLD.value, seats = f.seats - 1
    FROM seats s
    WHERE s.key = OLD.seat_key AND s.published AND NOT s.deleted
      AND f.ruleset = s.ruleset AND f.metric = OLD.metric AND f.arg = OLD.arg;
    RETURN NULL;
END $$;
CREATE TRIGGER field_loses_a_number AFTER DELETE ON seat_metrics
FOR EACH ROW EXECUTE FUNCTION field_loses_a_number();
CREATE FUNCTION field_follows_visibility() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    sign INTEGER := CASE WHEN NEW.published AND NOT NEW.deleted THEN 1 ELSE -1 END;
BEGIN
    IF (OLD.published AND NOT OLD.deleted) IS DISTINCT FROM (NEW.published AND NOT NEW.deleted) THEN
        INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
        SELECT NEW.ruleset, m.metric, m.arg, m.value * sign, sign FROM seat_metrics m
        WHERE m.seat_key = NEW.key ORDER BY m.metric, m.arg
        ON CONFLICT (ruleset, metric, arg)
        DO UPDATE SET total = field_metrics.total + excluded.total, seats = field_metrics.seats + excluded.seats;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER field_follows_visibility AFTER UPDATE OF published, deleted ON seats
FOR EACH ROW EXECUTE FUNCTION field_follows_visibility();

-- No question reads facts across games any more (the read model above does).
DROP INDEX facts_by_kind;
