-- Checkpoints, as SQLite's migration 16: a game's state after every 64 events and after its last, written
-- by its ruleset in the transaction that stores the events; `version` is the ruleset version that wrote
-- it. A stored game with events and no checkpoint is due for `reproject`, which writes them.
CREATE TABLE checkpoints (
    game_id TEXT NOT NULL REFERENCES games(id),
    events  BIGINT NOT NULL,
    version INTEGER NOT NULL,
    state   BYTEA NOT NULL,
    PRIMARY KEY (game_id, events)
);
