//! Notes on games: the same questions as the SQLite file's.

use super::*;

/// Notes on games: the same questions as the SQLite file's.
impl Postgres {
    pub fn add_note(&mut self, game: &str, seq: u64, club: ClubId, text: &str) -> Result<i64> {
        let row = self.client.borrow_mut().query_one(
            "INSERT INTO notes (game_id, seq, club, text) VALUES ($1, $2, $3, $4) RETURNING id",
            &[&game, &(seq as i64), &club, &text],
        )?;
        Ok(row.get(0))
    }

    pub fn save_model(&mut self, m: &WinModel) -> Result<()> {
        self.client.borrow_mut().execute(
            "INSERT INTO win_models (ruleset, version, games, positions, body) VALUES ($1, $2, $3, $4, $5)",
            &[&m.ruleset, &(m.version as i32), &(m.games as i64), &(m.positions as i64), &m.body],
        )?;
        Ok(())
    }

    pub fn model(&self, ruleset: &str) -> Result<Option<WinModel>> {
        let rows = self.client.borrow_mut().query(
            "SELECT ruleset, version, games, positions, trained_at, body, id FROM win_models WHERE ruleset = $1
             ORDER BY id DESC LIMIT 1",
            &[&ruleset],
        )?;
        Ok(rows.first().map(|r| WinModel {
            ruleset: r.get(0),
            version: r.get::<_, i32>(1) as u32,
            games: r.get::<_, i64>(2) as u64,
            positions: r.get::<_, i64>(3) as u64,
            trained_at: r.get(4),
            body: r.get(5),
            id: r.get(6),
        }))
    }

    /// Each ruleset's newest model's id: what a server looks at to learn that a model was trained elsewhere.
    pub fn newest_models(&self) -> Result<Vec<(String, i64)>> {
        let rows = self
            .client
            .borrow_mut()
            .query("SELECT ruleset, MAX(id) FROM win_models GROUP BY ruleset ORDER BY ruleset", &[])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    pub fn notes(&self, game: &str) -> Result<Vec<Note>> {
        let rows = self.client.borrow_mut().query(
            "SELECT n.id, n.seq, c.name, n.text, n.created_at FROM notes n JOIN clubs c ON c.id = n.club
             WHERE n.game_id = $1 ORDER BY n.seq, n.id",
            &[&game],
        )?;
        Ok(rows
            .iter()
            .map(|r| Note {
                id: r.get(0),
                seq: r.get::<_, i64>(1) as u64,
                club: r.get(2),
                text: r.get(3),
                created_at: r.get(4),
            })
            .collect())
    }
}
