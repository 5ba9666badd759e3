//! Coaches' notes on games, on SQLite.

use super::Sqlite;
use crate::error::Result;
use crate::ownership::ClubId;
use crate::rows::{Note, WinModel};
use rusqlite::params;

impl Sqlite {
    pub fn add_note(&mut self, game: &str, seq: u64, club: ClubId, text: &str) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO notes (game_id, seq, club, text) VALUES (?1, ?2, ?3, ?4)",
            params![game, seq as i64, club, text],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn save_model(&mut self, m: &WinModel) -> Result<()> {
        self.conn.execute(
            "INSERT INTO win_models (ruleset, version, games, positions, body) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![m.ruleset, m.version, m.games as i64, m.positions as i64, m.body],
        )?;
        Ok(())
    }

    pub fn model(&self, ruleset: &str) -> Result<Option<WinModel>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT ruleset, version, games, positions, trained_at, body, id FROM win_models WHERE ruleset = ?1
             ORDER BY id DESC LIMIT 1",
        )?;
        let mut rows = stmt.query_map([ruleset], |r| {
            Ok(WinModel {
                ruleset: r.get(0)?,
                version: r.get(1)?,
                games: r.get::<_, i64>(2)? as u64,
                positions: r.get::<_, i64>(3)? as u64,
                trained_at: r.get(4)?,
                body: r.get(5)?,
                id: r.get(6)?,
            })
        })?;
        Ok(rows.next().transpose()?)
    }

    /// Each ruleset's newest model's id: what a server looks at to learn that a model was trained elsewhere.
    pub fn newest_models(&self) -> Result<Vec<(String, i64)>> {
        let mut stmt =
            self.conn.prepare_cached("SELECT ruleset, MAX(id) FROM win_models GROUP BY ruleset ORDER BY ruleset")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn notes(&self, game: &str) -> Result<Vec<Note>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT n.id, n.seq, c.name, n.text, n.created_at FROM notes n JOIN clubs c ON c.id = n.club
             WHERE n.game_id = ?1 ORDER BY n.seq, n.id",
        )?;
        let rows = stmt.query_map([game], |r| {
            Ok(Note {
                id: r.get(0)?,
                seq: r.get::<_, i64>(1)? as u64,
                club: r.get(2)?,
                text: r.get(3)?,
                created_at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
