//! Players across games: the same questions as the SQLite file's.

use super::*;

/// Players across games: the same questions as the SQLite file's.
impl Postgres {
    pub fn player_root(&self, id: PlayerId) -> Result<Option<(PlayerId, ClubId)>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT r.id, r.club FROM players p JOIN players r ON r.id = COALESCE(p.merged_into, p.id) WHERE p.id = $1",
            &[&id],
        )?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    pub fn player_seen_by(&self, root: PlayerId, viewer: Viewer) -> Result<bool> {
        let (visible, club, all) = visible_to(viewer, 2);
        let sql = format!(
            "SELECT 1 FROM players p JOIN game_players q ON q.player_id = p.id JOIN games g ON g.id = q.game_id
             WHERE (p.id = $1 OR p.merged_into = $1) AND {visible} LIMIT 1"
        );
        Ok(self.client.borrow_mut().query_opt(&sql, &[&root, &club, &all])?.is_some())
    }

    /// The spellings of `root` that `viewer` may see, the identity's own first (as on SQLite).
    pub fn spellings_seen(&self, root: PlayerId, viewer: Viewer, limit: u32) -> Result<Vec<String>> {
        let (visible, club, all) = visible_to(viewer, 2);
        let sql = format!(
            "SELECT name FROM (
                 SELECT p.name AS name, p.id <> $1 AS other FROM players p
                 WHERE (p.id = $1 OR p.merged_into = $1)
                   AND EXISTS (SELECT 1 FROM game_players q JOIN games g ON g.id = q.game_id
                               WHERE q.player_id = p.id AND {visible})
                 UNION
                 SELECT q.name, TRUE FROM game_players q JOIN games g ON g.id = q.game_id
                 JOIN players p ON p.id = q.player_id
                 WHERE (p.id = $1 OR p.merged_into = $1) AND {visible}) AS spelt
             GROUP BY name ORDER BY MIN(CASE WHEN other THEN 1 ELSE 0 END), fold(name), name LIMIT $4"
        );
        let rows = self.client.borrow_mut().query(&sql, &[&root, &club, &all, &i64::from(limit)])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub fn identity(&self, player: &VisiblePlayer) -> Result<Identity> {
        let spellings = self.spellings_seen(player.id(), player.viewer(), u32::MAX)?;
        let name = spellings.first().cloned().ok_or(StoreError::NoPlayer(player.id()))?;
        let club = match player.club() {
            None => None,
            Some(c) => {
                self.client.borrow_mut().query_opt("SELECT name FROM clubs WHERE id = $1", &[&c])?.map(|r| r.get(0))
            }
        };
        let bot: bool = self
            .client
            .borrow_mut()
            .query_one(
                "SELECT COALESCE(bool_and(q.bot), FALSE) FROM game_players q JOIN players p ON p.id = q.player_id
                 WHERE p.id = $1 OR p.merged_into = $1",
                &[&player.id()],
            )?
            .get(0);
        Ok(Identity { id: player.id(), club, name, spellings, bot })
    }

    /// Every identity (after merges), in any club's games, one of whose spellings folds as `name` does.
    pub fn players_named(&self, name: &str) -> Result<Vec<PlayerId>> {
        let rows = self.client.borrow_mut().query(
            "SELECT DISTINCT COALESCE(merged_into, id) FROM players WHERE key = $1 ORDER BY 1",
            &[&player_key(name)],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub fn player_named(&self, club: ClubId, name: &str) -> Result<Option<PlayerId>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT COALESCE(merged_into, id) FROM players WHERE club = $1 AND key = $2",
            &[&club, &player_key(name)],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    pub fn sittings(&self, root: PlayerId) -> Result<Vec<Sitting>> {
        self.sittings_where(
            // The player's spellings first, then their seats by index (not every seat's spelling).
            "g.id IN (SELECT p.game_id FROM game_players p
                      WHERE p.player_id IN (SELECT id FROM players WHERE id = $1 OR merged_into = $1))",
            &root,
        )
    }

    fn sittings_where(&self, condition: &str, arg: &(dyn ToSql + Sync)) -> Result<Vec<Sitting>> {
        let rows = self.client.borrow_mut().query(
            &format!(
                "SELECT g.id, g.ruleset, g.title, g.played_on, g.winner, q.seat, COALESCE(pl.merged_into, pl.id), q.name, q.vp
                 FROM games g
                 JOIN game_players q ON q.game_id = g.id
                 JOIN players pl ON pl.id = q.player_id
                 WHERE EXISTS (SELECT 1 FROM seats c WHERE c.game_id = g.id AND c.seat = 0 AND c.counted)
                   AND {condition}
                 ORDER BY g.played_on IS NULL, g.played_on, g.stored_at, g.n, q.seat"
            ),
            &[arg],
        )?;
        let mut out: Vec<Sitting> = Vec::new();
        for r in rows {
            let game: String = r.get(0);
            let seat = SeatOf { seat: r.get::<_, i32>(5) as u32, player: r.get(6), name: r.get(7), vp: r.get(8) };
            match out.last_mut() {
                Some(last) if last.game == game => last.seats.push(seat),
                _ => out.push(Sitting {
                    game,
                    ruleset: r.get(1),
                    title: r.get(2),
                    played_on: r.get(3),
                    winner: r.get(4),
                    seats: vec![seat],
                }),
            }
        }
        Ok(out)
    }

    pub fn shared_game(&self, a: PlayerId, b: PlayerId) -> Result<Option<String>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT p.game_id FROM game_players p JOIN players x ON x.id = p.player_id
             JOIN game_players q ON q.game_id = p.game_id JOIN players y ON y.id = q.player_id
             WHERE COALESCE(x.merged_into, x.id) = $1 AND COALESCE(y.merged_into, y.id) = $2 LIMIT 1",
            &[&a, &b],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    pub fn merge_players(&mut self, into: PlayerId, from: PlayerId) -> Result<()> {
        self.client
            .borrow_mut()
            .execute("UPDATE players SET merged_into = $1 WHERE id = $2 OR merged_into = $2", &[&into, &from])?;
        Ok(())
    }

    pub fn player_merges(&self) -> Result<Vec<(Option<String>, String, String)>> {
        let rows = self.client.borrow_mut().query(
            "SELECT c.name, r.name, p.name FROM players p JOIN players r ON r.id = p.merged_into
             LEFT JOIN clubs c ON c.id = p.club ORDER BY p.id",
            &[],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
    }
}
