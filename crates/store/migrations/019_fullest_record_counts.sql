-- Of the records of one game (its fingerprint), the one that counts is the one that saw the most: the fewest
-- cards it could not see (`unseen`: a full record's 0, a seat's fewer than a spectator's), then the longest,
-- then the first stored. Records of a game stored more than once are derived again (`serve` derives a game
-- whose numbers are older), which counts their unseen cards and decides again which of them counts.
ALTER TABLE games ADD COLUMN unseen INTEGER NOT NULL DEFAULT 0;
UPDATE games SET insights_version = 0
WHERE fingerprint IN (SELECT fingerprint FROM games WHERE fingerprint IS NOT NULL GROUP BY fingerprint HAVING COUNT(*) > 1);
