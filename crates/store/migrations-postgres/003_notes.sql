-- Coaches' notes on a moment of a game: the event they follow (seq; 0 = before the first), the club that
-- wrote them, the words. A note is shown to whoever may see its game; notes are kept, never rewritten.
CREATE TABLE notes (
    id         BIGSERIAL PRIMARY KEY,
    game_id    TEXT NOT NULL REFERENCES games(id),
    seq        BIGINT NOT NULL,
    club       BIGINT NOT NULL REFERENCES clubs(id),
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);
CREATE INDEX notes_by_game ON notes(game_id, seq);
CREATE TRIGGER notes_are_never_rewritten BEFORE UPDATE ON notes
FOR EACH ROW EXECUTE FUNCTION refuse('notes are kept as written');
