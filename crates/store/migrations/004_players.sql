-- Players across games: one identity per name (in any case) among a club's games (club 0: the games no club
-- owns), and spellings merged into one (`merged_into`, always the identity a merge ends in). Every seat of
-- every game names its identity.
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    club        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    key         TEXT NOT NULL,
    merged_into INTEGER REFERENCES players(id),
    UNIQUE (club, key)
);
ALTER TABLE game_players ADD COLUMN player_id INTEGER REFERENCES players(id);
INSERT INTO players (club, name, key)
    SELECT COALESCE(g.owner, 0), MIN(p.name), fold(p.name)
    FROM game_players p JOIN games g ON g.id = p.game_id
    GROUP BY COALESCE(g.owner, 0), fold(p.name);
UPDATE game_players SET player_id = (
    SELECT pl.id FROM players pl JOIN games g ON g.id = game_players.game_id
    WHERE pl.club = COALESCE(g.owner, 0) AND pl.key = fold(game_players.name));
CREATE INDEX game_players_by_player ON game_players(player_id);
CREATE INDEX players_by_merge ON players(merged_into);

CREATE TRIGGER identities_are_never_deleted BEFORE DELETE ON players
BEGIN SELECT RAISE(ABORT, 'players are never deleted: spellings are merged'); END;
CREATE TRIGGER identities_keep_their_name BEFORE UPDATE OF id, club, name, key ON players
BEGIN SELECT RAISE(ABORT, 'a player''s id, club, name and key never change; only merges do'); END;
