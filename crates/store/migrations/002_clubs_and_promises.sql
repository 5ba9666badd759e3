-- Before this SQL runs, the migration hashed every stored game again with the canonical spelling of its
-- lines (`almanac_core::hash`); ids stay as they were.
-- Clubs own games; a club's tokens (stored as SHA-256, never as themselves) let it write.
CREATE TABLE clubs (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE tokens (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    hash       TEXT NOT NULL UNIQUE,
    label      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at TEXT
);

-- Who owns a game (NULL: stored by the machine's operator with `almanac import`, no club), whether it is
-- published (readable by anyone) and whether its club deleted it (hidden everywhere; the events stay).
-- Games stored before clubs existed stay public.
ALTER TABLE games ADD COLUMN owner INTEGER REFERENCES clubs(id);
ALTER TABLE games ADD COLUMN published INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN deleted_at TEXT;
CREATE INDEX games_by_owner ON games(owner);

-- Each event follows the last of its game: seq is 1, 2, 3 ... with no gap and no reuse. This also closes
-- `INSERT OR REPLACE`: the trigger runs before REPLACE removes the old row, so seq is not last + 1.
CREATE TRIGGER events_follow_the_log BEFORE INSERT ON events
WHEN NEW.seq <> COALESCE((SELECT MAX(seq) FROM events WHERE game_id = NEW.game_id), 0) + 1
BEGIN SELECT RAISE(ABORT, 'events are append-only: seq must be the last seq of its game + 1'); END;

-- What names a game never changes, and a game row is never removed or replaced.
CREATE TRIGGER games_keep_their_identity BEFORE UPDATE OF id, content_hash, ruleset, header, owner ON games
WHEN NEW.id IS NOT OLD.id OR NEW.ruleset IS NOT OLD.ruleset OR NEW.header IS NOT OLD.header
     OR NEW.owner IS NOT OLD.owner OR NEW.content_hash IS NOT OLD.content_hash
BEGIN SELECT RAISE(ABORT, 'a game''s id, content hash, ruleset, header and owner never change'); END;
CREATE TRIGGER games_are_never_deleted BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'games are never deleted: a deleted game is hidden (deleted_at)'); END;
CREATE TRIGGER games_are_never_replaced BEFORE INSERT ON games
WHEN EXISTS (SELECT 1 FROM games WHERE id = NEW.id OR content_hash = NEW.content_hash)
BEGIN SELECT RAISE(ABORT, 'a game id or content hash is never stored twice'); END;
CREATE TRIGGER players_are_never_deleted BEFORE DELETE ON game_players
BEGIN SELECT RAISE(ABORT, 'a game''s players are never deleted'); END;
