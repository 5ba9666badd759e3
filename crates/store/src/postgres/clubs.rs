//! Clubs, their tokens and who owns and may see a game.

use super::*;

impl Postgres {
    pub fn insert_club(&mut self, name: &str) -> Result<Club> {
        let id: i64 =
            self.client.borrow_mut().query_one("INSERT INTO clubs (name) VALUES ($1) RETURNING id", &[&name])?.get(0);
        Ok(Club { id, name: name.to_string() })
    }

    pub fn club_by_name(&self, name: &str) -> Result<Club> {
        let row = self.client.borrow_mut().query_opt("SELECT id, name FROM clubs WHERE name = $1", &[&name])?;
        row.map(|r| Club { id: r.get(0), name: r.get(1) }).ok_or_else(|| StoreError::NotFound(format!("club {name}")))
    }

    pub fn clubs(&self) -> Result<Vec<ClubRow>> {
        let rows = self.client.borrow_mut().query(
            "SELECT c.id, c.name, c.created_at,
                    (SELECT COUNT(*) FROM games g WHERE g.owner = c.id AND g.deleted_at IS NULL),
                    (SELECT COUNT(*) FROM tokens t WHERE t.club_id = c.id AND t.revoked_at IS NULL)
             FROM clubs c ORDER BY c.name",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| ClubRow {
                id: r.get(0),
                name: r.get(1),
                created_at: r.get(2),
                games: r.get::<_, i64>(3) as u64,
                tokens: r.get::<_, i64>(4) as u64,
            })
            .collect())
    }

    pub fn add_token(&mut self, club: ClubId, hash: &str, label: &str) -> Result<i64> {
        let row = self.client.borrow_mut().query_one(
            "INSERT INTO tokens (club_id, hash, label) VALUES ($1, $2, $3) RETURNING id",
            &[&club, &hash, &label],
        )?;
        Ok(row.get(0))
    }

    pub fn tokens(&self, club: Option<ClubId>) -> Result<Vec<TokenRow>> {
        let rows = self.client.borrow_mut().query(
            "SELECT t.id, c.name, t.label, t.created_at, t.revoked_at FROM tokens t JOIN clubs c ON c.id = t.club_id
             WHERE $1::bigint IS NULL OR t.club_id = $1 ORDER BY t.id",
            &[&club],
        )?;
        Ok(rows
            .iter()
            .map(|r| TokenRow {
                id: r.get(0),
                club: r.get(1),
                label: r.get(2),
                created_at: r.get(3),
                revoked_at: r.get(4),
            })
            .collect())
    }

    pub fn revoke_token(&mut self, id: i64) -> Result<()> {
        let found = self.client.borrow_mut().execute(
            "UPDATE tokens SET revoked_at = COALESCE(revoked_at, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))
             WHERE id = $1",
            &[&id],
        )?;
        if found == 0 {
            return Err(StoreError::NotFound(format!("token {id}")));
        }
        Ok(())
    }

    pub fn revoke_tokens_labelled(&mut self, club: ClubId, label: &str) -> Result<usize> {
        let n = self.client.borrow_mut().execute(
            "UPDATE tokens SET revoked_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')
             WHERE club_id = $1 AND label = $2 AND revoked_at IS NULL",
            &[&club, &label],
        )?;
        Ok(n as usize)
    }

    pub fn club_of_token(&self, hash: &str) -> Result<Option<Club>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT c.id, c.name FROM tokens t JOIN clubs c ON c.id = t.club_id WHERE t.hash = $1 AND t.revoked_at IS NULL",
            &[&hash],
        )?;
        Ok(row.map(|r| Club { id: r.get(0), name: r.get(1) }))
    }

    pub fn access_of(&self, id: &str) -> Result<Access> {
        // Asked before every read and write of a game: prepared once per connection (one round trip, not two).
        let mut client = self.client.borrow_mut();
        let statement = self.prepared.statement(
            &mut *client,
            "SELECT id, owner, published, deleted_at IS NOT NULL, event_count FROM games WHERE id = $1",
        )?;
        let row = client.query_opt(&statement, &[&id])?;
        row.map(|r| Access {
            id: r.get(0),
            owner: r.get(1),
            published: r.get(2),
            deleted: r.get(3),
            events: r.get::<_, i64>(4) as u64,
            sealed: crate::ownership::Sealed,
        })
        .ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    pub fn set_published(&mut self, id: &str, published: bool) -> Result<()> {
        self.visibility(id, "UPDATE games SET published = $2 WHERE id = $1", Some(published))
    }

    pub fn unhide(&mut self, id: &str) -> Result<()> {
        self.visibility(id, "UPDATE games SET deleted_at = NULL WHERE id = $1 AND deleted_at IS NOT NULL", None)
    }

    /// A change of a game's visibility, and of which seats count with it, in one transaction.
    fn visibility(&mut self, id: &str, sql: &str, published: Option<bool>) -> Result<()> {
        let mut client = self.client.borrow_mut();
        let mut tx = client.transaction()?;
        match published {
            Some(p) => tx.execute(sql, &[&id, &p])?,
            None => tx.execute(sql, &[&id])?,
        };
        super::events::recount(&mut tx, &self.prepared, id, None)?;
        // Every server on this database hears that who may see the game changed (its followers may not).
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&super::APPENDS_CHANNEL, &format!("{id} {}", super::SEEN_BY_CHANGED)],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// A club's deleted games, the latest deleted first.
    pub fn deleted_games(&self, club: ClubId) -> Result<Vec<GameRow>> {
        self.query_games("WHERE g.owner = $1 AND g.deleted_at IS NOT NULL ORDER BY g.deleted_at DESC, g.id", &[&club])
    }

    pub fn hide(&mut self, id: &str) -> Result<()> {
        self.visibility(
            id,
            "UPDATE games SET deleted_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')
             WHERE id = $1 AND deleted_at IS NULL",
            None,
        )
    }
}
