-- The log, facts and checkpoints packed as on SQLite (src/packed/): the events stored together (an upload,
-- an append) are one chunk, their facts one batch, each checkpoint compressed. A row per event and per fact
-- made an import spend most of its time on rows and their index entries (40 s for 1,000 games where SQLite
-- took 2 s). The rows of `events` and `facts` become one chunk and one batch per game in the step in Rust
-- that follows, which then drops both tables.
CREATE TABLE event_chunks (
    game_id    TEXT NOT NULL REFERENCES games(id),
    first_seq  BIGINT NOT NULL,
    last_seq   BIGINT NOT NULL,
    -- Each event's turn, as steps from the one before (signed, in 7-bit groups).
    turns      BYTEA NOT NULL,
    -- The events' lines, each ended by a newline, compressed (zstd).
    lines      BYTEA NOT NULL,
    -- The length of those lines uncompressed.
    text_bytes BIGINT NOT NULL,
    PRIMARY KEY (game_id, first_seq)
);
-- Compressed already: PostgreSQL need not try again.
ALTER TABLE event_chunks ALTER COLUMN lines SET STORAGE EXTERNAL;

-- The log's promises, kept on chunks: never rewritten or removed (`ON CONFLICT DO UPDATE` is an UPDATE), and
-- each chunk starts right after the last one of its game.
CREATE TRIGGER events_are_never_updated BEFORE UPDATE ON event_chunks
FOR EACH ROW EXECUTE FUNCTION refuse('events are append-only: UPDATE is not allowed');
CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON event_chunks
FOR EACH ROW EXECUTE FUNCTION refuse('events are append-only: DELETE is not allowed');
CREATE TRIGGER events_are_never_truncated BEFORE TRUNCATE ON event_chunks
FOR EACH STATEMENT EXECUTE FUNCTION refuse('events are append-only: TRUNCATE is not allowed');
CREATE FUNCTION chunk_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.last_seq < NEW.first_seq
       OR NEW.first_seq <> COALESCE((SELECT MAX(last_seq) FROM event_chunks WHERE game_id = NEW.game_id), 0) + 1 THEN
        RAISE EXCEPTION 'events are append-only: seq must be the last seq of its game + 1';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER events_follow_the_log BEFORE INSERT ON event_chunks FOR EACH ROW EXECUTE FUNCTION chunk_follows();

-- Facts, packed: one row per batch of events stored together, keyed by the batch's first event. Read model:
-- not checked against its game row (as facts were not since migration 11).
CREATE TABLE fact_batches (
    game_id   TEXT NOT NULL,
    first_seq BIGINT NOT NULL,
    -- How many facts the batch holds.
    facts     BIGINT NOT NULL,
    packed    BYTEA NOT NULL,
    PRIMARY KEY (game_id, first_seq)
);
ALTER TABLE fact_batches ALTER COLUMN packed SET STORAGE EXTERNAL;

-- Checkpoints are compressed from now on; those stored before were not. They are read model: without them a
-- game is due for `reproject`, which writes them again, and until then a state is replayed from the start.
DELETE FROM checkpoints;
ALTER TABLE checkpoints ALTER COLUMN state SET STORAGE EXTERNAL;
