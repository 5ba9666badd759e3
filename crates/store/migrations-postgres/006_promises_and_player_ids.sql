-- As the SQLite file's migration 12: players' ids say nothing of how many players there are (a random id
-- between 2^32 and 2^53, above every sequential id given before), and every promised table refuses every way
-- to change or remove its rows, TRUNCATE included.
CREATE TEMP TABLE renumbered (old BIGINT PRIMARY KEY, new BIGINT NOT NULL UNIQUE) ON COMMIT DROP;
INSERT INTO renumbered (old, new) SELECT id, 4294967296 + floor(random() * 9007194959740928)::bigint FROM players;
ALTER TABLE game_players DROP CONSTRAINT game_players_player_id_fkey;
ALTER TABLE seats DROP CONSTRAINT seats_player_fkey;
ALTER TABLE players DROP CONSTRAINT players_merged_into_fkey;
DROP TRIGGER identities_keep_their_name ON players;
DROP TRIGGER seats_follow_merges ON players;
UPDATE players p SET id = r.new FROM renumbered r WHERE r.old = p.id;
UPDATE players p SET merged_into = r.new FROM renumbered r WHERE r.old = p.merged_into;
UPDATE game_players p SET player_id = r.new FROM renumbered r WHERE r.old = p.player_id;
UPDATE seats s SET player = r.new FROM renumbered r WHERE r.old = s.player;
ALTER TABLE players ALTER COLUMN id SET DEFAULT 4294967296 + floor(random() * 9007194959740928)::bigint;
DROP SEQUENCE players_id_seq;
ALTER TABLE players ADD CONSTRAINT players_merged_into_fkey FOREIGN KEY (merged_into) REFERENCES players(id);
ALTER TABLE game_players ADD CONSTRAINT game_players_player_id_fkey FOREIGN KEY (player_id) REFERENCES players(id);
ALTER TABLE seats ADD CONSTRAINT seats_player_fkey FOREIGN KEY (player) REFERENCES players(id);
CREATE TRIGGER identities_keep_their_name BEFORE UPDATE ON players FOR EACH ROW EXECUTE FUNCTION identity_keeps_its_name();
CREATE TRIGGER seats_follow_merges AFTER UPDATE OF merged_into ON players
FOR EACH ROW EXECUTE FUNCTION seats_follow_merges();

-- A merge is never undone or pointed at itself.
CREATE FUNCTION merge_is_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (OLD.merged_into IS NOT NULL AND NEW.merged_into IS NULL) OR NEW.merged_into = NEW.id THEN
        RAISE EXCEPTION 'a merge of spellings is never undone';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER merges_are_never_undone BEFORE UPDATE OF merged_into ON players
FOR EACH ROW EXECUTE FUNCTION merge_is_kept();

-- A game's seats: who sat where under which name and colour, and which identity that is. Only the scores
-- are derived (and refreshed by a new version of the rules).
CREATE FUNCTION seat_keeps_its_player() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.game_id IS DISTINCT FROM OLD.game_id OR NEW.seat IS DISTINCT FROM OLD.seat
       OR NEW.name IS DISTINCT FROM OLD.name OR NEW.color IS DISTINCT FROM OLD.color
       OR NEW.player_id IS DISTINCT FROM OLD.player_id THEN
        RAISE EXCEPTION 'a game''s seats never change who sat there';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER seats_keep_their_players BEFORE UPDATE ON game_players
FOR EACH ROW EXECUTE FUNCTION seat_keeps_its_player();

-- Notes are kept as written.
CREATE TRIGGER notes_are_never_deleted BEFORE DELETE ON notes
FOR EACH ROW EXECUTE FUNCTION refuse('notes are kept as written: DELETE is not allowed');

-- Tokens: club, hash, label and age never change; a revocation is never taken back; no row is removed.
CREATE FUNCTION token_keeps_its_hash() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.club_id IS DISTINCT FROM OLD.club_id
       OR NEW.hash IS DISTINCT FROM OLD.hash OR NEW.label IS DISTINCT FROM OLD.label
       OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'a token''s club, hash, label and age never change';
    END IF;
    IF OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS DISTINCT FROM OLD.revoked_at THEN
        RAISE EXCEPTION 'a token''s revocation is never taken back';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER tokens_keep_their_hash BEFORE UPDATE ON tokens FOR EACH ROW EXECUTE FUNCTION token_keeps_its_hash();
CREATE TRIGGER tokens_are_never_deleted BEFORE DELETE ON tokens
FOR EACH ROW EXECUTE FUNCTION refuse('tokens are never deleted: they are revoked');

-- TRUNCATE removes rows without their DELETE triggers, and CASCADE reaches every table that refers to one:
-- each promised table refuses it itself (events and games did already).
CREATE TRIGGER seats_are_never_truncated BEFORE TRUNCATE ON game_players
FOR EACH STATEMENT EXECUTE FUNCTION refuse('a game''s players are never deleted: TRUNCATE is not allowed');
CREATE TRIGGER identities_are_never_truncated BEFORE TRUNCATE ON players
FOR EACH STATEMENT EXECUTE FUNCTION refuse('players are never deleted: TRUNCATE is not allowed');
CREATE TRIGGER notes_are_never_truncated BEFORE TRUNCATE ON notes
FOR EACH STATEMENT EXECUTE FUNCTION refuse('notes are kept as written: TRUNCATE is not allowed');
CREATE TRIGGER tokens_are_never_truncated BEFORE TRUNCATE ON tokens
FOR EACH STATEMENT EXECUTE FUNCTION refuse('tokens are never deleted: TRUNCATE is not allowed');
CREATE TRIGGER clubs_are_never_truncated BEFORE TRUNCATE ON clubs
FOR EACH STATEMENT EXECUTE FUNCTION refuse('clubs own games and tokens: TRUNCATE is not allowed');
