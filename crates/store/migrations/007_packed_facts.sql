-- Facts packed, one row per batch of events stored together (an upload, an append), keyed by game and the
-- batch's first event (see src/sqlite/facts.rs for the packing). The rows of the `facts` table are packed
-- into it, one batch per game, by the step in Rust that follows, which then drops `facts`.
CREATE TABLE fact_batches (
    game_id   TEXT NOT NULL REFERENCES games(id),
    first_seq INTEGER NOT NULL,
    -- How many facts the batch holds.
    facts     INTEGER NOT NULL,
    packed    BLOB NOT NULL,
    UNIQUE (game_id, first_seq)
);
