-- A model is kept as trained: beside UPDATE (refused since migration 7, `ON CONFLICT DO UPDATE` with it), no
-- statement removes one, TRUNCATE included. A ruleset's newest model is its model; older ones are the record
-- of what earlier chances were read with.
CREATE TRIGGER win_models_are_never_deleted BEFORE DELETE ON win_models
FOR EACH ROW EXECUTE FUNCTION refuse('models are kept as trained: DELETE is not allowed');
CREATE TRIGGER win_models_are_never_truncated BEFORE TRUNCATE ON win_models
FOR EACH STATEMENT EXECUTE FUNCTION refuse('models are kept as trained: TRUNCATE is not allowed');
