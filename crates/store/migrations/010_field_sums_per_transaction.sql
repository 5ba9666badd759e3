-- The field's sums (`field_metrics`) are added to once per transaction, by the store, for all the numbers it
-- wrote or removed: a trigger per number took more than half the time of storing the numbers themselves.
-- Publishing, hiding and deleting still move a game's numbers in or out of the field by trigger.
DROP TRIGGER field_gains_a_number;
DROP TRIGGER field_loses_a_number;
