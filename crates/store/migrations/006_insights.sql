-- The questions' read model (almanac_core::insights), derived in the transaction that stores a game and
-- again by reproject. `seats` holds what a question groups and filters by, one row per seat of every game;
-- `seat_metrics` the numbers, keyed by metric first (a question reads one metric across games) and by an
-- integer seat key (narrow rows). Triggers keep `seats` in step with a game's visibility and with merges.
CREATE TABLE seats (
    key       INTEGER PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    ruleset   TEXT NOT NULL,
    -- The player after merges.
    player    INTEGER NOT NULL REFERENCES players(id),
    players   INTEGER NOT NULL,
    played_on TEXT,
    owner     INTEGER,
    published INTEGER NOT NULL,
    deleted   INTEGER NOT NULL,
    opening   TEXT,
    UNIQUE (game_id, seat)
);
CREATE INDEX seats_by_player ON seats(player);
-- A ruleset's published seats, counted for the fingerprint of its ratings.
CREATE INDEX seats_by_ruleset ON seats(ruleset, published, deleted, key);
CREATE TABLE seat_metrics (
    metric   TEXT NOT NULL,
    arg      TEXT NOT NULL,
    seat_key INTEGER NOT NULL REFERENCES seats(key),
    value    REAL NOT NULL,
    PRIMARY KEY (metric, arg, seat_key)
) WITHOUT ROWID;
-- A player's numbers read by their seats, the values in the index itself.
CREATE INDEX seat_metrics_by_seat ON seat_metrics(seat_key, metric, arg, value);
-- A number that grows after every change to the read model (a game stored, appended to, derived again,
-- published or deleted; a merge): answers kept in memory are good while it stands.
CREATE TABLE read_model (version INTEGER NOT NULL);
INSERT INTO read_model (version) VALUES (0);
-- The games list in its default order reads the newest first without sorting every game.
CREATE INDEX games_by_stored ON games(stored_at);
-- 0: not derived yet (games stored before this migration; `serve` and `reproject` derive them).
ALTER TABLE games ADD COLUMN insights_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER seats_follow_visibility AFTER UPDATE OF published, deleted_at ON games
BEGIN
    UPDATE seats SET published = NEW.published, deleted = (NEW.deleted_at IS NOT NULL) WHERE game_id = NEW.id;
END;
CREATE TRIGGER seats_follow_merges AFTER UPDATE OF merged_into ON players WHEN NEW.merged_into IS NOT NULL
BEGIN
    UPDATE seats SET player = NEW.merged_into WHERE player = NEW.id;
END;

-- The field a player page compares a player with: per ruleset, the sum and count of every number over the
-- seats of published games, kept by triggers as numbers come and go and as games change visibility.
CREATE TABLE field_metrics (
    ruleset TEXT NOT NULL,
    metric  TEXT NOT NULL,
    arg     TEXT NOT NULL,
    total   REAL NOT NULL,
    seats   INTEGER NOT NULL,
    PRIMARY KEY (ruleset, metric, arg)
) WITHOUT ROWID;
CREATE TRIGGER field_gains_a_number AFTER INSERT ON seat_metrics
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT ruleset, NEW.metric, NEW.arg, NEW.value, 1 FROM seats
    WHERE key = NEW.seat_key AND published = 1 AND deleted = 0
    ON CONFLICT (ruleset, metric, arg) DO UPDATE SET total = total + excluded.total, seats = seats + 1;
END;
CREATE TRIGGER field_loses_a_number AFTER DELETE ON seat_metrics
BEGIN
    UPDATE field_metrics SET total = total - OLD.value, seats = seats - 1
    WHERE metric = OLD.metric AND arg = OLD.arg
      AND ruleset = (SELECT ruleset FROM seats WHERE key = OLD.seat_key AND published = 1 AND deleted = 0);
END;
CREATE TRIGGER field_follows_visibility AFTER UPDATE OF published, deleted ON seats
WHEN (OLD.published = 1 AND OLD.deleted = 0) <> (NEW.published = 1 AND NEW.deleted = 0)
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT NEW.ruleset, m.metric, m.arg, m.value * sign.n, sign.n
    FROM seat_metrics m, (SELECT CASE WHEN NEW.published = 1 AND NEW.deleted = 0 THEN 1 ELSE -1 END AS n) AS sign
    WHERE m.seat_key = NEW.key
    ON CONFLICT (ruleset, metric, arg) DO UPDATE SET total = total + excluded.total, seats = seats + excluded.seats;
END;

-- Facts keyed by their game, event and place in it, without a rowid and a second index; no question reads
-- them across games any more (the read model above does), so no index by kind either.
CREATE TABLE facts_keyed (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    n       INTEGER NOT NULL,
    turn    INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    player  INTEGER,
    item    TEXT,
    count   INTEGER,
    cause   TEXT,
    other   INTEGER,
    total   INTEGER,
    public  INTEGER,
    detail  TEXT,
    PRIMARY KEY (game_id, seq, n)
) WITHOUT ROWID;
INSERT INTO facts_keyed
    SELECT game_id, seq, ROW_NUMBER() OVER (PARTITION BY game_id, seq ORDER BY rowid) - 1, turn, kind, player, item,
           count, cause, other, total, public, detail
    FROM facts;
DROP TABLE facts;
ALTER TABLE facts_keyed RENAME TO facts;
