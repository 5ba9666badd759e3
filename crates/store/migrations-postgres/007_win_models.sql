-- Win-chance models, one row per training: the ruleset, the model's format version, what it learned from,
-- when, and the model itself (a JSON document the analysis layer reads; the store does not). The newest row
-- of a ruleset is its model; older ones stay, as a record of what earlier chances were read with.
CREATE TABLE win_models (
    id         BIGSERIAL PRIMARY KEY,
    ruleset    TEXT NOT NULL,
    version    INTEGER NOT NULL,
    games      BIGINT NOT NULL,
    positions  BIGINT NOT NULL,
    trained_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    body       TEXT NOT NULL
);
CREATE INDEX win_models_by_ruleset ON win_models(ruleset, id);
CREATE TRIGGER win_models_are_never_rewritten BEFORE UPDATE ON win_models
FOR EACH ROW EXECUTE FUNCTION refuse('models are kept as trained');
