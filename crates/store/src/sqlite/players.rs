//! Players across games on SQLite: identities by club and name, merges of spellings, the published games a
//! player sat in.

use super::Sqlite;
use crate::error::{Result, StoreError};
use crate::ownership::{ClubId, Viewer, VisiblePlayer};
use crate::rows::{player_key, Identity, PlayerId, SeatOf, Sitting};
use rusqlite::{params, Connection, OptionalExtension};

/// The identity of `name` among `club`'s games (0: games no club owns), made on first sight under a random
/// id (`NEW_PLAYER_ID`), so that ids say nothing of how many players there are.
pub(super) fn identity_for(tx: &Connection, club: ClubId, name: &str) -> Result<PlayerId> {
    let key = player_key(name);
    let mut find = tx.prepare_cached("SELECT id FROM players WHERE club = ?1 AND key = ?2")?;
    if let Some(id) = find.query_row(params![club, key], |r| r.get(0)).optional()? {
        return Ok(id);
    }
    // A random id taken already (one chance in 2^53 per player) fails this game's insert; it is not retried.
    let id = tx
        .prepare_cached(&format!(
            "INSERT INTO players (id, club, name, key) VALUES ({NEW_PLAYER_ID}, ?1, ?2, ?3) RETURNING id"
        ))?
        .query_row(params![club, name, key], |r| r.get(0))?;
    Ok(id)
}

/// A new identity's id: random, between 2^32 and 2^53 (an integer every JSON reader keeps exactly), as the
/// migration that renumbered the sequential ones gave them.
const NEW_PLAYER_ID: &str = "4294967296 + (random() & 9007194959773695)";

impl Sqlite {
    /// The identity `id` ends in after merges, and its club (0: none).
    pub fn player_root(&self, id: PlayerId) -> Result<Option<(PlayerId, ClubId)>> {
        Ok(self
            .conn
            .query_row(
                "SELECT r.id, r.club FROM players p JOIN players r ON r.id = COALESCE(p.merged_into, p.id) WHERE p.id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// Whether the identity `root` (after merges) has a seat in a game `viewer` may see.
    pub fn player_seen_by(&self, root: PlayerId, viewer: Viewer) -> Result<bool> {
        let (visible, club, all) = super::visible_to(viewer, 2);
        let sql = format!(
            "SELECT 1 FROM players p JOIN game_players q ON q.player_id = p.id JOIN games g ON g.id = q.game_id
             WHERE (p.id = ?1 OR p.merged_into = ?1) AND {visible} LIMIT 1"
        );
        Ok(self.conn.prepare_cached(&sql)?.query_row(params![root, club, all], |_| Ok(())).optional()?.is_some())
    }

    /// The spellings of the identity `root` that `viewer` may see (those with a seat in a game it may see),
    /// and every way those games' seats wrote them (`IŞIL`, `ışıl`): the identity's own first, then in the
    /// order of their words.
    pub fn spellings_seen(&self, root: PlayerId, viewer: Viewer, limit: u32) -> Result<Vec<String>> {
        let (visible, club, all) = super::visible_to(viewer, 2);
        let sql = format!(
            "SELECT name FROM (
                 SELECT p.name AS name, p.id <> ?1 AS other FROM players p
                 WHERE (p.id = ?1 OR p.merged_into = ?1)
                   AND EXISTS (SELECT 1 FROM game_players q JOIN games g ON g.id = q.game_id
                               WHERE q.player_id = p.id AND {visible})
                 UNION
                 SELECT q.name, TRUE FROM game_players q JOIN games g ON g.id = q.game_id
                 JOIN players p ON p.id = q.player_id
                 WHERE (p.id = ?1 OR p.merged_into = ?1) AND {visible}) AS spelt
             GROUP BY name ORDER BY MIN(CASE WHEN other THEN 1 ELSE 0 END), fold(name), name LIMIT ?4"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![root, club, all, limit], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A player as `viewer` may see them: named by a spelling of a game it may see, never by one of games
    /// it may not.
    pub fn identity(&self, player: &VisiblePlayer) -> Result<Identity> {
        let spellings = self.spellings_seen(player.id(), player.viewer(), u32::MAX)?;
        let name = spellings.first().cloned().ok_or(StoreError::NoPlayer(player.id()))?;
        let club = match player.club() {
            None => None,
            Some(c) => self.conn.query_row("SELECT name FROM clubs WHERE id = ?1", [c], |r| r.get(0)).optional()?,
        };
        let bot: bool = self.conn.query_row(
            "SELECT COALESCE(MIN(q.bot), 0) = 1 FROM game_players q JOIN players p ON p.id = q.player_id
             WHERE p.id = ?1 OR p.merged_into = ?1",
            [player.id()],
            |r| r.get(0),
        )?;
        Ok(Identity { id: player.id(), club, name, spellings, bot })
    }

    /// The identity of `name` among `club`'s games, after merges.
    /// Every identity (after merges), in any club's games, one of whose spellings folds as `name` does.
    pub fn players_named(&self, name: &str) -> Result<Vec<PlayerId>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT DISTINCT COALESCE(merged_into, id) FROM players WHERE key = ?1 ORDER BY 1")?;
        let rows = stmt.query_map([player_key(name)], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn player_named(&self, club: ClubId, name: &str) -> Result<Option<PlayerId>> {
        Ok(self
            .conn
            .query_row(
                "SELECT COALESCE(merged_into, id) FROM players WHERE club = ?1 AND key = ?2",
                params![club, player_key(name)],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Every game the player sat in that counts (published, not deleted, with a winner, and the first stored
    /// of its fingerprint), oldest first, with every seat.
    pub fn sittings(&self, root: PlayerId) -> Result<Vec<Sitting>> {
        self.sittings_where(
            // The player's spellings first, then their seats by index (not every seat's spelling).
            "g.id IN (SELECT p.game_id FROM game_players p
                      WHERE p.player_id IN (SELECT id FROM players WHERE id = ?1 OR merged_into = ?1))",
            &root,
        )
    }

    fn sittings_where(&self, condition: &str, arg: &dyn rusqlite::ToSql) -> Result<Vec<Sitting>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT g.id, g.ruleset, g.title, g.played_on, g.winner, q.seat, COALESCE(pl.merged_into, pl.id), q.name, q.vp
             FROM games g
             JOIN game_players q ON q.game_id = g.id
             JOIN players pl ON pl.id = q.player_id
             WHERE EXISTS (SELECT 1 FROM seats c WHERE c.game_id = g.id AND c.seat = 0 AND c.counted = 1)
               AND {condition}
             ORDER BY g.played_on IS NULL, g.played_on, g.stored_at, g.rowid, q.seat"
        ))?;
        let mut out: Vec<Sitting> = Vec::new();
        let rows = stmt.query_map([arg], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
                SeatOf { seat: r.get(5)?, player: r.get(6)?, name: r.get(7)?, vp: r.get(8)? },
            ))
        })?;
        for row in rows {
            let (game, ruleset, title, played_on, winner, seat) = row?;
            match out.last_mut() {
                Some(last) if last.game == game => last.seats.push(seat),
                _ => out.push(Sitting { game, ruleset, title, played_on, winner, seats: vec![seat] }),
            }
        }
        Ok(out)
    }

    /// A game, private or not, in which both players sat.
    pub fn shared_game(&self, a: PlayerId, b: PlayerId) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT p.game_id FROM game_players p JOIN players x ON x.id = p.player_id
             JOIN game_players q ON q.game_id = p.game_id JOIN players y ON y.id = q.player_id
             WHERE COALESCE(x.merged_into, x.id) = ?1 AND COALESCE(y.merged_into, y.id) = ?2 LIMIT 1",
                params![a, b],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Every identity merged into `from` (and `from` itself) is merged into `into`.
    pub fn merge_players(&mut self, into: PlayerId, from: PlayerId) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute("UPDATE players SET merged_into = ?1 WHERE id = ?2 OR merged_into = ?2", params![into, from])?;
        super::count_change(&tx)?;
        tx.commit()?;
        Ok(())
    }

    /// Every merge, as (the club's name, the spelling merged into, the spelling merged): for a copy of the
    /// database.
    pub fn player_merges(&self) -> Result<Vec<(Option<String>, String, String)>> {
        let mut stmt = self.conn.prepare(
            "SELECT c.name, r.name, p.name FROM players p JOIN players r ON r.id = p.merged_into
             LEFT JOIN clubs c ON c.id = p.club ORDER BY p.id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
