-- One game is one game. A game's fingerprint is what was played (`Game::fingerprint`: the dice, what was
-- built, the cards played, the awards and the winner, the players' folded names), alike in every view and
-- copy of it. A seat is `counted` — in ratings, records, places, head-to-heads and the field's sums — when its
-- game is published, not deleted, has a winner, and is the first stored (by seat key) of the games so with
-- its fingerprint. Stored games get their fingerprint when they are derived again (`reproject`, which `serve`
-- runs for games whose fingerprint is missing); until then each counts as a game of its own.
ALTER TABLE games ADD COLUMN fingerprint TEXT;
CREATE INDEX games_by_fingerprint ON games(fingerprint);
ALTER TABLE seats ADD COLUMN fingerprint TEXT;
ALTER TABLE seats ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
CREATE INDEX seats_by_fingerprint ON seats(fingerprint, seat);

-- The field's sums hold the seats of published games: `counted` starts as that, so they stay true.
UPDATE seats SET finished = COALESCE((SELECT g.winner IS NOT NULL FROM games g WHERE g.id = seats.game_id), 0),
                 counted = (published = 1 AND deleted = 0);

-- A seat's numbers move in or out of the field as it comes to count or stops counting.
DROP TRIGGER field_follows_visibility;
CREATE TRIGGER field_follows_counting AFTER UPDATE OF counted ON seats
WHEN OLD.counted <> NEW.counted
BEGIN
    INSERT INTO field_metrics (ruleset, metric, arg, total, seats)
    SELECT NEW.ruleset, m.metric, m.arg, n.value * sign.n, sign.n
    FROM seat_numbers n JOIN metrics m ON m.key = n.metric,
         (SELECT CASE WHEN NEW.counted = 1 THEN 1 ELSE -1 END AS n) AS sign
    WHERE n.seat_key = NEW.key
    ON CONFLICT (ruleset, metric, arg) DO UPDATE SET total = total + excluded.total, seats = seats + excluded.seats;
END;
DROP TRIGGER seat_changed;
CREATE TRIGGER seat_changed
AFTER UPDATE OF game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                fingerprint, finished, counted ON seats
BEGIN
    UPDATE seat_revision SET last = last + 1;
    UPDATE seats SET revision = (SELECT last FROM seat_revision) WHERE key = NEW.key;
END;

-- A game without a winner counts nowhere as a result: its numbers leave the field.
UPDATE seats SET counted = 0 WHERE counted = 1 AND finished = 0;
