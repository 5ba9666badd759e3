-- Coaches' notes on a moment of a game: the event they follow (seq; 0 = before the first), the club that
-- wrote them, the words. A note is shown to whoever may see its game; notes are kept, never rewritten.
CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    game_id    TEXT NOT NULL REFERENCES games(id),
    seq        INTEGER NOT NULL,
    club       INTEGER NOT NULL REFERENCES clubs(id),
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX notes_by_game ON notes(game_id, seq);
CREATE TRIGGER notes_are_never_rewritten BEFORE UPDATE ON notes
BEGIN SELECT RAISE(ABORT, 'notes are kept as written'); END;
