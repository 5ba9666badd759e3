//! Clubs, their tokens, who owns a game: the SQL (the rules are `Store`'s).

use crate::error::{Result, StoreError};
use crate::ownership::{Access, Club, ClubId, ClubRow, TokenRow};
use crate::rows::GameRow;
use crate::sqlite::Sqlite;
use rusqlite::{params, OptionalExtension};

impl Sqlite {
    pub fn insert_club(&mut self, name: &str) -> Result<Club> {
        self.conn.execute("INSERT INTO clubs (name) VALUES (?1)", [name])?;
        Ok(Club { id: self.conn.last_insert_rowid(), name: name.to_string() })
    }

    pub fn club_by_name(&self, name: &str) -> Result<Club> {
        self.conn
            .query_row("SELECT id, name FROM clubs WHERE name = ?1", [name], |r| {
                Ok(Club { id: r.get(0)?, name: r.get(1)? })
            })
            .optional()?
            .ok_or_else(|| StoreError::NotFound(format!("club {name}")))
    }

    pub fn clubs(&self) -> Result<Vec<ClubRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT c.id, c.name, c.created_at,
                    (SELECT COUNT(*) FROM games g WHERE g.owner = c.id AND g.deleted_at IS NULL),
                    (SELECT COUNT(*) FROM tokens t WHERE t.club_id = c.id AND t.revoked_at IS NULL)
             FROM clubs c ORDER BY c.name",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(ClubRow { id: r.get(0)?, name: r.get(1)?, created_at: r.get(2)?, games: r.get(3)?, tokens: r.get(4)? })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records a token of `club` by its hash (the token itself is never stored); returns the token's id.
    pub fn add_token(&mut self, club: ClubId, hash: &str, label: &str) -> Result<i64> {
        self.conn
            .execute("INSERT INTO tokens (club_id, hash, label) VALUES (?1, ?2, ?3)", params![club, hash, label])?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The tokens of a club (every club's when `None`), revoked ones included.
    pub fn tokens(&self, club: Option<ClubId>) -> Result<Vec<TokenRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT t.id, c.name, t.label, t.created_at, t.revoked_at FROM tokens t JOIN clubs c ON c.id = t.club_id
             WHERE ?1 IS NULL OR t.club_id = ?1 ORDER BY t.id",
        )?;
        let rows = stmt.query_map([club], |r| {
            Ok(TokenRow {
                id: r.get(0)?,
                club: r.get(1)?,
                label: r.get(2)?,
                created_at: r.get(3)?,
                revoked_at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Revokes a token; revoking one already revoked changes nothing.
    pub fn revoke_token(&mut self, id: i64) -> Result<()> {
        let found = self.conn.execute(
            "UPDATE tokens SET revoked_at = COALESCE(revoked_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) WHERE id = ?1",
            [id],
        )?;
        if found == 0 {
            return Err(StoreError::NotFound(format!("token {id}")));
        }
        Ok(())
    }

    /// Revokes every live token of `club` with this label (the demo club's token printed at each start).
    pub fn revoke_tokens_labelled(&mut self, club: ClubId, label: &str) -> Result<usize> {
        Ok(self.conn.execute(
            "UPDATE tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE club_id = ?1 AND label = ?2 AND revoked_at IS NULL",
            params![club, label],
        )?)
    }

    /// The club whose live token has this hash.
    pub fn club_of_token(&self, hash: &str) -> Result<Option<Club>> {
        Ok(self
            .conn
            .query_row(
                "SELECT c.id, c.name FROM tokens t JOIN clubs c ON c.id = t.club_id
                 WHERE t.hash = ?1 AND t.revoked_at IS NULL",
                [hash],
                |r| Ok(Club { id: r.get(0)?, name: r.get(1)? }),
            )
            .optional()?)
    }

    /// Who owns the game `id`, whoever may see it (for the server's checks and caches).
    pub fn access_of(&self, id: &str) -> Result<Access> {
        // Asked before nearly every read: prepared once per connection.
        self.conn
            .prepare_cached(
                "SELECT id, owner, published, deleted_at IS NOT NULL, event_count FROM games WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(Access {
                    id: r.get(0)?,
                    owner: r.get(1)?,
                    published: r.get(2)?,
                    deleted: r.get(3)?,
                    events: r.get(4)?,
                    sealed: crate::ownership::Sealed,
                })
            })
            .optional()?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    pub fn set_published(&mut self, id: &str, published: bool) -> Result<()> {
        self.visibility(id, "UPDATE games SET published = ?2 WHERE id = ?1", Some(published))
    }

    pub fn unhide(&mut self, id: &str) -> Result<()> {
        self.visibility(id, "UPDATE games SET deleted_at = NULL WHERE id = ?1 AND deleted_at IS NOT NULL", None)
    }

    /// A change of a game's visibility, and of which seats count with it, in one transaction.
    fn visibility(&mut self, id: &str, sql: &str, published: Option<bool>) -> Result<()> {
        let tx = self.conn.transaction()?;
        match published {
            Some(p) => tx.execute(sql, params![id, p])?,
            None => tx.execute(sql, [id])?,
        };
        super::recount(&tx, id, None)?;
        super::count_change(&tx)?;
        tx.commit()?;
        Ok(())
    }

    /// A club's deleted games, the latest deleted first.
    pub fn deleted_games(&self, club: ClubId) -> Result<Vec<GameRow>> {
        self.query_games(
            "WHERE g.owner = ?1 AND g.deleted_at IS NOT NULL ORDER BY g.deleted_at DESC, g.rowid DESC",
            &[&club],
        )
    }

    pub fn hide(&mut self, id: &str) -> Result<()> {
        self.visibility(
            id,
            "UPDATE games SET deleted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1 AND deleted_at IS NULL",
            None,
        )
    }
}
