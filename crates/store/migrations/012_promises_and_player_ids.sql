-- Players' ids say nothing of how many players there are: every identity takes a random id between 2^32
-- and 2^53 (an integer every JSON reader keeps exactly), above every sequential id given before, so that
-- no id is taken twice while they are renumbered. Foreign keys are checked when the migration commits.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE renumbered (old INTEGER PRIMARY KEY, new INTEGER NOT NULL UNIQUE);
INSERT INTO renumbered (old, new) SELECT id, 4294967296 + (random() & 9007194959773695) FROM players;
DROP TRIGGER identities_keep_their_name;
DROP TRIGGER seats_follow_merges;
UPDATE players SET id = (SELECT new FROM renumbered WHERE old = players.id),
                   merged_into = (SELECT new FROM renumbered WHERE old = players.merged_into);
UPDATE game_players SET player_id = (SELECT new FROM renumbered WHERE old = game_players.player_id)
WHERE player_id IN (SELECT old FROM renumbered);
UPDATE seats SET player = (SELECT new FROM renumbered WHERE old = seats.player)
WHERE player IN (SELECT old FROM renumbered);
DROP TABLE renumbered;
CREATE TRIGGER identities_keep_their_name BEFORE UPDATE OF id, club, name, key ON players
WHEN NEW.id IS NOT OLD.id OR NEW.club IS NOT OLD.club OR NEW.name IS NOT OLD.name OR NEW.key IS NOT OLD.key
BEGIN SELECT RAISE(ABORT, 'a player''s id, club, name and key never change; only merges do'); END;
CREATE TRIGGER seats_follow_merges AFTER UPDATE OF merged_into ON players WHEN NEW.merged_into IS NOT NULL
BEGIN
    UPDATE seats SET player = NEW.merged_into WHERE player = NEW.id;
END;

-- `INSERT OR REPLACE` (and `REPLACE`) removes the row it conflicts with without running its DELETE
-- triggers, through any key: the implicit rowid, the primary key or a UNIQUE column. So every promised
-- table refuses an insert that meets an existing row by any of its keys, before SQLite would remove it.
-- (`BEFORE INSERT` triggers run before the conflict is resolved; an auto-assigned rowid is -1 there.)

-- The log: a chunk's rowid (its game and first seq are held by `events_follow_the_log`).
CREATE TRIGGER events_are_never_replaced BEFORE INSERT ON event_chunks
WHEN EXISTS (SELECT 1 FROM event_chunks WHERE rowid = NEW.rowid)
BEGIN SELECT RAISE(ABORT, 'events are append-only: a chunk is never replaced'); END;

-- A game row, by its id, content hash, key or rowid.
DROP TRIGGER games_are_never_replaced;
CREATE TRIGGER games_are_never_replaced BEFORE INSERT ON games
WHEN EXISTS (SELECT 1 FROM games WHERE id = NEW.id OR content_hash = NEW.content_hash OR key = NEW.key
                                       OR rowid = NEW.rowid)
BEGIN SELECT RAISE(ABORT, 'a game id, content hash or key is never stored twice'); END;

-- A game's seats: who sat where under which name and colour, and which identity that is. Only the scores
-- are derived (and refreshed by a new version of the rules).
CREATE TRIGGER seats_are_never_replaced BEFORE INSERT ON game_players
WHEN EXISTS (SELECT 1 FROM game_players WHERE game_id = NEW.game_id AND seat = NEW.seat)
BEGIN SELECT RAISE(ABORT, 'a game''s seats are never replaced'); END;
CREATE TRIGGER seats_keep_their_players BEFORE UPDATE OF game_id, seat, name, color, player_id ON game_players
WHEN NEW.game_id IS NOT OLD.game_id OR NEW.seat IS NOT OLD.seat OR NEW.name IS NOT OLD.name
     OR NEW.color IS NOT OLD.color OR NEW.player_id IS NOT OLD.player_id
BEGIN SELECT RAISE(ABORT, 'a game''s seats never change who sat there'); END;

-- Identities: by id and by (club, key); a merge is never undone or pointed at itself.
CREATE TRIGGER identities_are_never_replaced BEFORE INSERT ON players
WHEN EXISTS (SELECT 1 FROM players WHERE id = NEW.id OR (club = NEW.club AND key = NEW.key))
BEGIN SELECT RAISE(ABORT, 'a player''s identity is never replaced'); END;
CREATE TRIGGER merges_are_never_undone BEFORE UPDATE OF merged_into ON players
WHEN (OLD.merged_into IS NOT NULL AND NEW.merged_into IS NULL) OR NEW.merged_into = NEW.id
BEGIN SELECT RAISE(ABORT, 'a merge of spellings is never undone'); END;

-- Notes are kept as written: never removed or replaced (rewriting was refused already).
CREATE TRIGGER notes_are_never_deleted BEFORE DELETE ON notes
BEGIN SELECT RAISE(ABORT, 'notes are kept as written: DELETE is not allowed'); END;
CREATE TRIGGER notes_are_never_replaced BEFORE INSERT ON notes
WHEN EXISTS (SELECT 1 FROM notes WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'notes are kept as written: a note is never replaced'); END;

-- Tokens: a token's club, hash, label and age never change, a revocation is never taken back or moved,
-- and no token row is removed or replaced (its hash would then let a stolen token in again).
CREATE TRIGGER tokens_are_never_deleted BEFORE DELETE ON tokens
BEGIN SELECT RAISE(ABORT, 'tokens are never deleted: they are revoked'); END;
CREATE TRIGGER tokens_are_never_replaced BEFORE INSERT ON tokens
WHEN EXISTS (SELECT 1 FROM tokens WHERE id = NEW.id OR hash = NEW.hash)
BEGIN SELECT RAISE(ABORT, 'a token is never replaced'); END;
CREATE TRIGGER tokens_keep_their_hash BEFORE UPDATE OF id, club_id, hash, label, created_at ON tokens
WHEN NEW.id IS NOT OLD.id OR NEW.club_id IS NOT OLD.club_id OR NEW.hash IS NOT OLD.hash
     OR NEW.label IS NOT OLD.label OR NEW.created_at IS NOT OLD.created_at
BEGIN SELECT RAISE(ABORT, 'a token''s club, hash, label and age never change'); END;
CREATE TRIGGER revocations_are_kept BEFORE UPDATE OF revoked_at ON tokens
WHEN OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS NOT OLD.revoked_at
BEGIN SELECT RAISE(ABORT, 'a token''s revocation is never taken back'); END;
