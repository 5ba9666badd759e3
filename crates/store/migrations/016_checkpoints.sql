-- Checkpoints: the state of each game after every 64 events and after its last (almanac_core::checkpoint),
-- written by its ruleset (`Ruleset::write_state`) in the transaction that stores the events, so that the
-- state at any event is the nearest checkpoint plus the events after it. Read model, not log: `reproject`
-- writes them again, and an append replaces the one at the old end. `version` is the ruleset version that
-- wrote a checkpoint; one of another version is never read. A stored game with events and no checkpoint is
-- due for `reproject` (`games_to_reproject`), which writes its checkpoints.
CREATE TABLE checkpoints (
    game    INTEGER NOT NULL REFERENCES games(key),
    -- After how many events.
    events  INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state   BLOB NOT NULL,
    -- A rowid table: a checkpoint of a kilobyte or more overflows a WITHOUT ROWID table's pages, which then
    -- took twice the checkpoints' bytes.
    PRIMARY KEY (game, events)
);
