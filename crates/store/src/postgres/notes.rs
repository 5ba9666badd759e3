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
