-- The event log in chunks (see src/sqlite/events.rs): the events stored together are one row, their lines
-- compressed as one text, keyed by a small integer per game. The rows of `events` become one chunk per game
-- in the step in Rust that follows, which then drops `events`.
ALTER TABLE games ADD COLUMN key INTEGER;
UPDATE games SET key = rowid;
CREATE UNIQUE INDEX games_by_key ON games(key);
CREATE TRIGGER games_keep_their_key BEFORE UPDATE OF key ON games WHEN NEW.key IS NOT OLD.key
BEGIN SELECT RAISE(ABORT, 'a game''s key never changes'); END;

CREATE TABLE event_chunks (
    game       INTEGER NOT NULL REFERENCES games(key),
    first_seq  INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL,
    -- Each event's turn, as steps from the one before (signed, in 7-bit groups).
    turns      BLOB NOT NULL,
    -- The events' lines, each ended by a newline, compressed (zstd).
    lines      BLOB NOT NULL,
    -- The length of those lines uncompressed.
    text_bytes INTEGER NOT NULL,
    UNIQUE (game, first_seq)
);

DROP TRIGGER events_are_never_updated;
DROP TRIGGER events_are_never_deleted;
DROP TRIGGER events_follow_the_log;
-- The log's promises, kept on chunks: never rewritten or removed, and each chunk starts right after the last
-- one of its game (`INSERT OR REPLACE` too: the trigger runs before REPLACE removes the old row).
CREATE TRIGGER events_are_never_updated BEFORE UPDATE ON event_chunks
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON event_chunks
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;
CREATE TRIGGER events_follow_the_log BEFORE INSERT ON event_chunks
WHEN NEW.first_seq <> COALESCE((SELECT MAX(last_seq) FROM event_chunks WHERE game = NEW.game), 0) + 1
  OR NEW.last_seq < NEW.first_seq
BEGIN SELECT RAISE(ABORT, 'events are append-only: seq must be the last seq of its game + 1'); END;
