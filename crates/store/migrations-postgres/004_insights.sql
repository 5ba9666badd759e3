-- The questions' read model: numbers per seat of every game (almanac_core::insights), derived from its facts
-- in the transaction that stores the game, derived again by reproject.
CREATE TABLE seat_metrics (
    metric  TEXT NOT NULL,
    arg     TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    value   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (metric, arg, game_id, seat)
);
CREATE INDEX seat_metrics_by_game ON seat_metrics(game_id);
ALTER TABLE game_players ADD COLUMN opening TEXT;
ALTER TABLE games ADD COLUMN insights_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN player_count INTEGER;
UPDATE games g SET player_count = (SELECT COUNT(*) FROM game_players p WHERE p.game_id = g.id);
