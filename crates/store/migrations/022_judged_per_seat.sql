-- A trade between players is two decisions at one event: the mover's, and the partner's accepting it rather
-- than declining. Judged decisions are keyed by their seat too. The rows are derived data, copied as they are.
CREATE TABLE judged_decisions_per_seat (
    game_id      TEXT NOT NULL REFERENCES games(id),
    seq          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    chosen       REAL NOT NULL,
    best         REAL NOT NULL,
    alternatives INTEGER NOT NULL,
    best_line    TEXT NOT NULL,
    best_words   TEXT NOT NULL,
    spread       REAL,
    PRIMARY KEY (game_id, seq, seat)
) WITHOUT ROWID;
INSERT INTO judged_decisions_per_seat
    SELECT game_id, seq, seat, chosen, best, alternatives, best_line, best_words, spread FROM judged_decisions;
DROP TABLE judged_decisions;
ALTER TABLE judged_decisions_per_seat RENAME TO judged_decisions;
