-- A model is kept as trained: beside UPDATE (refused since migration 7, `ON CONFLICT DO UPDATE` with it), no
-- statement removes one, TRUNCATE included. A ruleset's newest model is its model; older ones are the record
-- of what earlier chances were read with.
CREATE TRIGGER win_models_are_never_deleted BEFORE DELETE ON win_models
FOR EACH ROW EXECUTE FUNCTION refuse('models are kept as trained: DELETE is not allowed');
CREATE TRIGGER win_models_are_never_truncated BEFORE TRUNCATE ON win_models
FOR EACH STATEMENT EXECUTE FUNCTION refuse('models are kept as trained: TRUNCATE is not allowed');

-- Which model each game's chance numbers were read with (`win_models.id`; NULL: none). A finished game whose
-- model is not its ruleset's newest is derived again (a game not over has no chance numbers yet) (`serve` does it), so that a training cut short — the model
-- stored, the games' numbers not yet derived with it — is finished by the next server. The games stored so
-- far were derived with their ruleset's newest model, as `train` derives them all.
ALTER TABLE games ADD COLUMN chances_model BIGINT;
UPDATE games SET chances_model = (SELECT MAX(w.id) FROM win_models w WHERE w.ruleset = games.ruleset);
