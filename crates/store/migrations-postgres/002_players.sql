-- Players across games: one identity per name (in any case) among a club's games (club 0: the games no club
-- owns), and spellings merged into one (`merged_into`, always the identity a merge ends in). Every seat of
-- every game names its identity.
CREATE TABLE players (
    id          BIGSERIAL PRIMARY KEY,
    club        BIGINT NOT NULL,
    name        TEXT NOT NULL,
    key         TEXT NOT NULL,
    merged_into BIGINT REFERENCES players(id),
    UNIQUE (club, key)
);
ALTER TABLE game_players ADD COLUMN player_id BIGINT REFERENCES players(id);
INSERT INTO players (club, name, key)
    SELECT COALESCE(g.owner, 0), MIN(p.name), fold(p.name)
    FROM game_players p JOIN games g ON g.id = p.game_id
    GROUP BY COALESCE(g.owner, 0), fold(p.name);
UPDATE game_players gp SET player_id = pl.id
    FROM games g, players pl
    WHERE g.id = gp.game_id AND pl.club = COALESCE(g.owner, 0) AND pl.key = fold(gp.name);
CREATE INDEX game_players_by_player ON game_players(player_id);
CREATE INDEX players_by_merge ON players(merged_into);

CREATE TRIGGER identities_are_never_deleted BEFORE DELETE ON players
FOR EACH ROW EXECUTE FUNCTION refuse('players are never deleted: spellings are merged');
CREATE FUNCTION identity_keeps_its_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.club IS DISTINCT FROM OLD.club OR NEW.name IS DISTINCT FROM OLD.name
       OR NEW.key IS DISTINCT FROM OLD.key THEN
        RAISE EXCEPTION 'a player''s id, club, name and key never change; only merges do';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER identities_keep_their_name BEFORE UPDATE ON players FOR EACH ROW EXECUTE FUNCTION identity_keeps_its_name();
