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
CREATE TABLE seat_metrics (
    metric   TEXT NOT NULL,
    arg      TEXT NOT NULL,
    seat_key BIGINT NOT NULL REFERENCES seats(key),
    value    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (metric, arg, seat_key)
);
CREATE INDEX seat_metrics_by_seat ON seat_metrics(seat_key);
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

-- No question reads facts across games any more (the read model above does).
DROP INDEX facts_by_kind;
