-- Games: one row per stored log. Everything here but the id and hash is derived and may be refreshed.
CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    content_hash    TEXT NOT NULL UNIQUE,
    ruleset         TEXT NOT NULL,
    ruleset_version INTEGER NOT NULL,
    header          TEXT NOT NULL,
    title           TEXT,
    played_on       TEXT,
    club            TEXT,
    location        TEXT,
    stored_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    event_count     INTEGER NOT NULL,
    turn_count      INTEGER NOT NULL,
    winner          TEXT
);

CREATE TABLE game_players (
    game_id   TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    name      TEXT NOT NULL,
    color     TEXT,
    vp        INTEGER,
    vp_public INTEGER,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_name ON game_players(name);

-- The event log: append-only. seq counts a game's events from 1.
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    turn    INTEGER NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER events_are_never_updated BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;

-- Facts projected from the events in the same transaction (see almanac_core::Fact).
CREATE TABLE facts (
    game_id      TEXT NOT NULL REFERENCES games(id),
    seq          INTEGER NOT NULL,
    turn         INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    player       INTEGER,
    item         TEXT,
    count        INTEGER,
    cause        TEXT,
    other        INTEGER,
    total        INTEGER,
    public       INTEGER,
    detail       TEXT
);
CREATE INDEX facts_by_game ON facts(game_id, seq);
CREATE INDEX facts_by_kind ON facts(kind, item);
