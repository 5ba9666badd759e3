-- Win-chance models, one row per training: the ruleset, the model's format version, what it learned from,
-- when, and the model itself (a JSON document the analysis layer reads; the store does not). The newest row
-- of a ruleset is its model; older ones stay, as a record of what earlier chances were read with.
CREATE TABLE win_models (
    id         INTEGER PRIMARY KEY,
    ruleset    TEXT NOT NULL,
    version    INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    positions  INTEGER NOT NULL,
    trained_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    body       TEXT NOT NULL
);
CREATE INDEX win_models_by_ruleset ON win_models(ruleset, id);
CREATE TRIGGER win_models_are_never_rewritten BEFORE UPDATE ON win_models
BEGIN SELECT RAISE(ABORT, 'models are kept as trained'); END;
