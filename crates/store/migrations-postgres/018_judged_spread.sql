-- How sure the win-chance model was of each judged decision's loss: the standard error of the best
-- alternative's chance less the chosen one's, from the model's weights. A mark is given only where the loss is
-- larger than the model can tell apart. NULL where the model kept no covariance (or for decisions judged
-- before it was kept).
ALTER TABLE judged_decisions ADD COLUMN spread DOUBLE PRECISION;
