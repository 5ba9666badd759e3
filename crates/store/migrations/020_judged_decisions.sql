-- Each game's decisions judged by its ruleset's win-chance model (`games.chances_model`), derived with the
-- rest of its read model: a player's own decisions where the game's chances are shown, each against the best
-- alternative the rules allowed then. The replay's marks and turns to study read them rather than judging a
-- game's decisions again at its first view. Replaced whole when the game is derived again.
CREATE TABLE judged_decisions (
    game_id      TEXT NOT NULL REFERENCES games(id),
    seq          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    chosen       REAL NOT NULL,
    best         REAL NOT NULL,
    alternatives INTEGER NOT NULL,
    best_line    TEXT NOT NULL,
    best_words   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
