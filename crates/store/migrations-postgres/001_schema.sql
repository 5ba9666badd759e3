-- Almanac on PostgreSQL: the same tables and promises as the SQLite file (migrations/ 001–003 there).
-- Every table that grows with games carries game_id and is keyed by it, so that it can be distributed by
-- game (Citus: SELECT create_distributed_table('events', 'game_id') ...; see docs/scale-out.md).

CREATE TABLE clubs (
    id         BIGSERIAL PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);

CREATE TABLE tokens (
    id         BIGSERIAL PRIMARY KEY,
    club_id    BIGINT NOT NULL REFERENCES clubs(id),
    hash       TEXT NOT NULL UNIQUE,
    label      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    revoked_at TEXT
);

-- One row per stored log. Everything but id, content_hash, ruleset, header and owner is derived or
-- changed by its club (published, deleted_at) and may be refreshed. `n` orders games as SQLite's rowid.
CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    n               BIGSERIAL NOT NULL,
    content_hash    TEXT NOT NULL UNIQUE,
    ruleset         TEXT NOT NULL,
    ruleset_version INTEGER NOT NULL,
    header          TEXT NOT NULL,
    title           TEXT,
    played_on       TEXT,
    club            TEXT,
    location        TEXT,
    stored_at       TEXT NOT NULL DEFAULT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    event_count     BIGINT NOT NULL,
    turn_count      INTEGER NOT NULL,
    winner          TEXT,
    owner           BIGINT REFERENCES clubs(id),
    published       BOOLEAN NOT NULL DEFAULT TRUE,
    deleted_at      TEXT,
    edition         TEXT
);
CREATE INDEX games_by_owner ON games(owner);
CREATE INDEX games_by_stored ON games(stored_at DESC, n DESC);

CREATE TABLE game_players (
    game_id   TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    name      TEXT NOT NULL,
    color     TEXT,
    vp        BIGINT,
    vp_public BIGINT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_name ON game_players(lower(name));

-- The event log: append-only; seq counts a game's events from 1.
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     BIGINT NOT NULL,
    turn    INTEGER NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE facts (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     BIGINT NOT NULL,
    n       INTEGER NOT NULL,
    turn    INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    player  BIGINT,
    item    TEXT,
    count   BIGINT,
    cause   TEXT,
    other   BIGINT,
    total   BIGINT,
    public  BIGINT,
    detail  TEXT,
    PRIMARY KEY (game_id, seq, n)
);
CREATE INDEX facts_by_kind ON facts(kind, item);

-- Lower case in any script, as the SQLite file's `fold` (the database's ctype decides; initdb C.UTF-8).
CREATE FUNCTION fold(text) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT lower($1)';

CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$;

-- UPDATE and DELETE on events are refused; so is `INSERT ... ON CONFLICT DO UPDATE`, PostgreSQL's REPLACE,
-- which is an UPDATE.
CREATE TRIGGER events_are_never_updated BEFORE UPDATE ON events
FOR EACH ROW EXECUTE FUNCTION refuse('events are append-only: UPDATE is not allowed');
CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
FOR EACH ROW EXECUTE FUNCTION refuse('events are append-only: DELETE is not allowed');
CREATE TRIGGER events_are_never_truncated BEFORE TRUNCATE ON events
FOR EACH STATEMENT EXECUTE FUNCTION refuse('events are append-only: TRUNCATE is not allowed');

-- Each event follows the last of its game: seq is 1, 2, 3 ... with no gap and no reuse.
CREATE FUNCTION event_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seq <> COALESCE((SELECT MAX(seq) FROM events WHERE game_id = NEW.game_id), 0) + 1 THEN
        RAISE EXCEPTION 'events are append-only: seq must be the last seq of its game + 1';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER events_follow_the_log BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION event_follows();

-- What names a game never changes, and a game row is never removed.
CREATE FUNCTION game_keeps_its_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.content_hash IS DISTINCT FROM OLD.content_hash
       OR NEW.ruleset IS DISTINCT FROM OLD.ruleset OR NEW.header IS DISTINCT FROM OLD.header
       OR NEW.owner IS DISTINCT FROM OLD.owner THEN
        RAISE EXCEPTION 'a game''s id, content hash, ruleset, header and owner never change';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER games_keep_their_identity BEFORE UPDATE ON games FOR EACH ROW EXECUTE FUNCTION game_keeps_its_identity();
CREATE TRIGGER games_are_never_deleted BEFORE DELETE ON games
FOR EACH ROW EXECUTE FUNCTION refuse('games are never deleted: a deleted game is hidden (deleted_at)');
CREATE TRIGGER games_are_never_truncated BEFORE TRUNCATE ON games
FOR EACH STATEMENT EXECUTE FUNCTION refuse('games are never deleted: TRUNCATE is not allowed');
CREATE TRIGGER players_are_never_deleted BEFORE DELETE ON game_players
FOR EACH ROW EXECUTE FUNCTION refuse('a game''s players are never deleted');
